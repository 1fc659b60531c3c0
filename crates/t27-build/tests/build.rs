//! `t27-build` as a build script uses it: specs in, mirrors and an entry file out, errors
//! rendered.

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn temp() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("t27-build-test-")
        .tempdir()
        .expect("temp folder")
}

/// A build of `spec` into `out`, without `cargo:` lines.
fn build(spec: &Path, out: &Path) -> Result<t27_build::Compiled, t27_build::Error> {
    t27_build::Build::new()
        .spec(spec)
        .out_dir(out)
        .quiet()
        .compile()
}

#[test]
fn mirrors_a_tree_with_its_imports_and_an_entry_file() {
    let out = temp();
    let board = repo().join("examples/specs/lanes_board.t27");
    let built = build(&board, out.path()).expect("the example specs check cleanly");
    // The imported module is read (and would be watched) too, but only the requested one is
    // mirrored.
    let read: Vec<String> = built
        .specs
        .iter()
        .map(|p| {
            p.file_name()
                .expect("a file")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(read, ["lanes_board.t27", "lanes.t27"]);
    let entry = std::fs::read_to_string(&built.entry).expect("the entry file");
    assert!(entry.contains("pub mod lanes_board {"), "{entry}");
    assert!(
        entry.contains(&format!(
            "include!({:?});",
            out.path().join("lanes_board.rs").display().to_string()
        )),
        "{entry}"
    );
    assert!(built.files.iter().any(|f| f.ends_with("mod.rs")));

    // A second build with nothing changed writes nothing: Cargo sees no new file.
    let stamp = |p: &Path| {
        std::fs::metadata(p)
            .and_then(|m| m.modified())
            .expect("mtime")
    };
    let before: Vec<_> = built.files.iter().map(|f| stamp(f)).collect();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let again = build(&board, out.path()).expect("still clean");
    let after: Vec<_> = again.files.iter().map(|f| stamp(f)).collect();
    assert_eq!(before, after);
}

#[test]
fn a_spec_with_errors_fails_with_its_rendered_diagnostics() {
    let dir = temp();
    let specs = dir.path().join("specs");
    std::fs::create_dir_all(&specs).expect("specs folder");
    std::fs::write(
        specs.join("broken.t27"),
        "module Broken;\npub const X : u8 = 300;\n",
    )
    .expect("spec");
    let e = build(&specs, &dir.path().join("out")).expect_err("300 does not fit u8");
    let text = e.to_string();
    assert!(
        text.contains("E2002") && text.contains("broken.t27:2:"),
        "{text}"
    );
    assert!(!dir.path().join("out").exists(), "nothing is written");

    let missing =
        build(&dir.path().join("nowhere"), &dir.path().join("out")).expect_err("no such folder");
    assert!(
        missing.to_string().contains("no such file or folder"),
        "{missing}"
    );
}
