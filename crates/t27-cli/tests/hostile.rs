//! Inputs people (and generators) really produce: no `t27` command may panic, abort, hang
//! past its budget, or exit with an undocumented code, and every broken input gets a
//! diagnostic with a code and a location.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fresh folder of the test's own, removed when it goes out of scope.
fn dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("t27-hostile-{name}-"))
        .tempdir()
        .expect("temp folder")
}

/// Runs `t27`. How fast is the benchmarks' business; a command still running after
/// [`HUNG`] has hung (the inputs here take well under a second each), and the test says so.
fn t27(args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_t27"));
    command.args(args).current_dir(repo());
    let (done, wait) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(command.output().expect("t27 runs"));
    });
    match wait.recv_timeout(HUNG) {
        Ok(out) => out,
        Err(_) => panic!("t27 {args:?} still runs after {HUNG:?}: it hangs"),
    }
}

const HUNG: Duration = Duration::from_secs(300);

/// Runs `check` (JSON) and `test` on a file; checks the exit codes are documented ones and
/// nothing crashed; returns the diagnostics.
fn survive(path: &Path) -> Vec<serde_json::Value> {
    let p = path.to_str().expect("utf-8 path");
    let check = t27(&["check", "--format", "json", p]);
    let stderr = String::from_utf8_lossy(&check.stderr);
    assert!(
        matches!(check.status.code(), Some(0..=2)),
        "check {p}: {:?}\n{stderr}",
        check.status
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("overflow"),
        "check {p}: {stderr}"
    );
    let test = t27(&["test", "--timeout", "1", p]);
    let stderr = String::from_utf8_lossy(&test.stderr);
    assert!(
        matches!(test.status.code(), Some(0..=3)),
        "test {p}: {:?}\n{stderr}",
        test.status
    );
    assert!(
        !stderr.contains("panicked") && !stderr.contains("overflow"),
        "test {p}: {stderr}"
    );
    let temp = dir("gen");
    let out = temp.path();
    let site = dir("doc");
    let site = site.path().to_str().expect("utf-8");
    for args in [
        vec!["gen", "ts", p, "--out"],
        vec!["gen", "rust", p, "--out"],
        vec!["consts", p],
        vec!["fmt", "--check", p],
        vec!["doc", p, "--run", "--timeout", "1", "--out", site],
    ] {
        let mut args: Vec<&str> = args;
        let out_str = out.to_str().expect("utf-8");
        if args.last() == Some(&"--out") {
            args.push(out_str);
        }
        let o = t27(&args);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            matches!(o.status.code(), Some(0..=2)),
            "{args:?}: {:?}\n{stderr}",
            o.status
        );
        assert!(
            !stderr.contains("panicked") && !stderr.contains("overflow"),
            "{args:?}: {stderr}"
        );
    }
    String::from_utf8_lossy(&check.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON diagnostics"))
        .collect()
}

fn broken(path: &Path) {
    let diags = survive(path);
    let errors: Vec<_> = diags.iter().filter(|d| d["severity"] == "error").collect();
    assert!(!errors.is_empty(), "{} must be reported", path.display());
    for d in errors {
        assert!(d["code"].as_str().is_some_and(|c| c.len() == 5), "{d}");
        assert!(
            d["line"].as_u64().is_some_and(|l| l >= 1)
                && d["column"].as_u64().is_some_and(|c| c >= 1),
            "{d}"
        );
    }
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("temp file");
    p
}

/// The diagnostics of a file without their file name, to compare variants of one spec.
fn located(diags: &[serde_json::Value]) -> Vec<String> {
    diags
        .iter()
        .map(|d| {
            format!(
                "{} {}:{}-{}:{}",
                d["code"], d["line"], d["column"], d["end_line"], d["end_column"]
            )
        })
        .collect()
}

#[test]
fn crlf_and_byte_order_marks_read_like_lf_files() {
    let folder = dir("crlf");
    let d = folder.path();
    for fixture in [
        "specs/queen/dispatch.t27",
        "tests/fixtures/errors/E0101-missing-semicolon.t27",
        "tests/fixtures/errors/E2003-mixed-integers.t27",
    ] {
        let text = std::fs::read_to_string(repo().join(fixture)).expect("fixture");
        let lf = write(d, "lf.t27", text.as_bytes());
        let crlf = write(d, "crlf.t27", text.replace('\n', "\r\n").as_bytes());
        let mut bom_bytes = "\u{feff}".as_bytes().to_vec();
        bom_bytes.extend(text.as_bytes());
        let bom = write(d, "bom.t27", &bom_bytes);
        let expected = located(&survive(&lf));
        assert_eq!(located(&survive(&crlf)), expected, "{fixture} with CRLF");
        // A byte-order mark moves no line and no column after line 1, where these are.
        assert_eq!(located(&survive(&bom)), expected, "{fixture} with a BOM");
    }
}

/// The files of `tests/fixtures/hostile`: every one is broken, and every command survives it.
#[test]
fn hostile_fixtures_get_located_diagnostics() {
    let folder = repo().join("tests/fixtures/hostile");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    assert!(files.len() >= 7);
    for f in files {
        broken(&f);
    }
}

#[test]
fn broken_bytes_get_located_diagnostics() {
    let folder = dir("bytes");
    let d = folder.path();
    broken(&write(
        d,
        "invalid_utf8.t27",
        b"module M;\npub const S : str = \"caf\xe9\";\n",
    ));
    broken(&write(
        d,
        "nul.t27",
        b"module M;\npub const A : u32 = 1;\0\npub const B : u32 = 2;\n",
    ));
    broken(&write(d, "empty.t27", b""));
    broken(&write(
        d,
        "only_comments.t27",
        b"// nothing here\n; and nothing here\n/// nor here\n",
    ));
    broken(&write(d, "binary.t27", &(0..=255u8).collect::<Vec<u8>>()));
    survive(&write(
        d,
        "tabs.t27",
        b"module M;\n\tpub const A : u32 = 1;\n\ttest t {\n\t\tassert A == 1;\n\t}\n",
    ));
}

#[test]
fn resource_abuse_becomes_diagnostics() {
    let folder = dir("abuse");
    let d = folder.path();
    let parens = format!(
        "module M;\npub const X : u32 = {}1{};\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    broken(&write(d, "parens.t27", parens.as_bytes()));
    let chain = format!(
        "module M;\npub const X : u32 = {};\n",
        vec!["1"; 100_000].join(" + ")
    );
    broken(&write(d, "chain.t27", chain.as_bytes()));
    let negations = format!("module M;\npub const X : i32 = {}1;\n", "-".repeat(100_000));
    broken(&write(d, "negations.t27", negations.as_bytes()));
    let blocks = format!(
        "module M;\ntest t {{\n{}{}\n}}\n",
        "if (true) {".repeat(50_000),
        "}".repeat(50_000)
    );
    broken(&write(d, "blocks.t27", blocks.as_bytes()));
    let else_ifs = format!(
        "module M;\npub fn f(x: u32) -> u32 {{\nif (x == 0) {{ return 0; }}{}\nreturn 2;\n}}\n",
        " else if (x == 1) { return 1; }".repeat(100_000)
    );
    broken(&write(d, "else_ifs.t27", else_ifs.as_bytes()));
    broken(&write(
        d,
        "huge_array.t27",
        b"module M;\ntest t {\nvar a : [4294967295]u64 = undefined;\nassert a[0] == 0;\n}\n",
    ));
    let long_line = format!(
        "module M;\npub const S : str = \"{}\";\ntest t {{ assert S.len() == 1000000; }}\n",
        "x".repeat(1_000_000)
    );
    survive(&write(d, "long_line.t27", long_line.as_bytes()));
    let mut many = String::from("module M;\n");
    for i in 0..50_000 {
        many.push_str(&format!("pub const C{i} : u32 = {i};\n"));
    }
    survive(&write(d, "large_file.t27", many.as_bytes()));
    // Recursion and loops that never end are run-time matters: traps and timeouts.
    let runaway = b"module M;\npub fn r(n: u64) -> u64 { return r(n + 1); }\npub fn spin() -> u32 { var i : u32 = 0; while (true) { i = i ^ 1; } return i; }\ntest deep { assert r(0) == 0; }\ntest forever { assert spin() == 0; }\n";
    let p = write(d, "runaway.t27", runaway);
    survive(&p);
    let o = t27(&[
        "test",
        "--timeout",
        "1",
        "--format",
        "json",
        p.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("\"trap\":\"recursion_too_deep\"") && out.contains("\"outcome\":\"timeout\""),
        "{out}"
    );
}

#[test]
fn file_system_trouble_is_a_usage_error() {
    let folder = dir("fs");
    let d = folder.path();
    let o = t27(&["check", d.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(2), "a folder with no specs");
    // A spec that cannot be read (a folder where a file is expected; permissions do not stop
    // root, which CI runs as).
    std::fs::create_dir_all(d.join("unreadable.t27")).expect("folder");
    let spec = write(d, "m.t27", b"module M;\npub const A : u32 = 1;\n");
    for cmd in ["check", "test", "consts"] {
        let o = t27(&[cmd, d.join("unreadable.t27").to_str().expect("utf-8")]);
        assert!(
            matches!(o.status.code(), Some(2 | 3)),
            "{cmd}: {:?} {}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // An output folder that cannot be written: its parent is a file.
    let blocker = write(d, "blocker", b"not a folder");
    let o = t27(&[
        "gen",
        "ts",
        spec.to_str().expect("utf-8"),
        "--out",
        blocker.join("out").to_str().expect("utf-8"),
    ]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot write"));
}

/// Structs that hold themselves by value, and declarations nested past every limit (types,
/// structs holding structs, constants computed from constants declared after them): each
/// crashed a command with a stack overflow. Now each is a coded error at its place, and
/// `t27 test` ends with a non-zero exit code, the blocks that reach it not run.
#[test]
fn self_containing_and_deeply_nested_declarations_are_errors() {
    let folder = dir("nesting");
    let d = folder.path();
    let structs: String = (0..20_000)
        .map(|i| format!("pub struct S{i} {{ a: S{} }}\n", i + 1))
        .collect();
    let consts: String = (0..20_000)
        .map(|i| format!("pub const C{i} : u32 = C{} + 1;\n", i + 1))
        .collect();
    let cases = [
        (
            "tree.t27",
            "module Tree; pub struct Tree { kids: [2]Tree } test t { var x : Tree = undefined; assert true; }\n".to_string(),
            "E2026",
        ),
        (
            "deep_type.t27",
            format!(
                "module Deep;\npub const A : {}u32 = undefined;\ntest t {{ assert true; }}\n",
                "[1]".repeat(100_000)
            ),
            "E0109",
        ),
        (
            "deep_param.t27",
            format!(
                "module Deep;\npub fn f(a: {}u32) -> u32 {{ return 0; }}\n",
                "[]const ".repeat(100_000)
            ),
            "E0109",
        ),
        (
            "struct_chain.t27",
            format!(
                "module Chain;\n{structs}pub struct S20000 {{ x: u32 }}\ntest t {{ var x : S0 = undefined; assert true; }}\n"
            ),
            "E2027",
        ),
        (
            "const_chain.t27",
            format!("module Consts;\n{consts}pub const C20000 : u32 = 0;\ntest t {{ assert C0 == 20000; }}\n"),
            "E2027",
        ),
    ];
    for (name, text, code) in cases {
        let path = write(d, name, text.as_bytes());
        let diags = survive(&path);
        assert!(diags.iter().any(|j| j["code"] == code), "{name}: {diags:?}");
        broken(&path);
    }
    for fixture in [
        "E2026-recursive-struct.t27",
        "E2026-recursive-struct-through-struct.t27",
        "E2026-recursive-struct-long-cycle.t27",
        "E2027-nested-declarations.t27",
    ] {
        let path = repo().join("tests/fixtures/errors").join(fixture);
        broken(&path);
        for engine in ["eval", "jit", "tiered"] {
            let o = t27(&["test", "--engine", engine, path.to_str().expect("utf-8")]);
            let out = String::from_utf8_lossy(&o.stdout);
            assert!(
                matches!(o.status.code(), Some(1 | 2)),
                "{fixture} on {engine}: {:?}\n{out}",
                o.status
            );
            assert!(out.contains("NOT RUN"), "{fixture} on {engine}: {out}");
        }
    }
}
