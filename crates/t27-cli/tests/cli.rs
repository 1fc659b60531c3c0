//! The `t27` binary end to end: exit codes, output formats and `explain`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn t27(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_t27"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("t27 runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn the_owner_specs_check_with_no_error_and_no_warning() {
    let o = t27(&["check", "--deny-warnings", "specs/queen"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("checked 2 modules: 0 errors, 0 warnings"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_default_path_is_specs() {
    let o = t27(&["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("checked 2 modules"), "{}", stderr(&o));
}

#[test]
fn errors_exit_1_and_are_rendered_with_their_span() {
    let o = t27(&[
        "check",
        "--color",
        "never",
        "tests/fixtures/errors/E0101-missing-semicolon.t27",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let text = stderr(&o);
    assert!(
        text.contains("[E0101] Error: missing `;` after this statement"),
        "{text}"
    );
    assert!(
        text.contains("tests/fixtures/errors/E0101-missing-semicolon.t27:2:26"),
        "{text}"
    );
    assert!(text.contains("2 errors, 0 warnings"), "{text}");
}

#[test]
fn warnings_pass_unless_denied() {
    let file = "tests/fixtures/errors/W0002-string-alias.t27";
    assert_eq!(t27(&["check", file]).status.code(), Some(0));
    assert_eq!(
        t27(&["check", "--deny-warnings", file]).status.code(),
        Some(1)
    );
}

#[test]
fn usage_and_io_errors_exit_2() {
    let o = t27(&["check", "no/such/file.t27"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no such file or folder"),
        "{}",
        stderr(&o)
    );
    assert_eq!(t27(&["check", "--format", "xml"]).status.code(), Some(2));
    assert_eq!(t27(&["frobnicate"]).status.code(), Some(2));
    let temp = tempdir();
    let empty = temp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("empty temp folder");
    let o = t27(&["check", empty.to_str().expect("utf-8 temp path")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no `.t27` files"), "{}", stderr(&o));
}

#[test]
fn json_format_prints_one_object_per_diagnostic() {
    let o = t27(&[
        "check",
        "--format",
        "json",
        "tests/fixtures/errors/E1001-unknown-name.t27",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is a JSON object"))
        .collect();
    assert_eq!(lines.len(), 2);
    for l in &lines {
        for field in [
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
            "code",
            "severity",
            "message",
        ] {
            assert!(!l[field].is_null(), "missing {field} in {l}");
        }
    }
    assert_eq!(lines[0]["code"], "E1001");
    assert_eq!(
        (lines[0]["line"].as_u64(), lines[0]["column"].as_u64()),
        (Some(4), Some(18))
    );
    assert_eq!(lines[0]["help"], "did you mean `WORKER_LIMIT`?");
}

#[test]
fn root_option_resolves_use_paths() {
    // The fixture imports `queen::kinds`, which lives under tests/fixtures/errors.
    let o = t27(&[
        "check",
        "--root",
        "tests/fixtures/errors",
        "tests/fixtures/errors/E1004-name-not-in-module.t27",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("E1004"), "{}", stderr(&o));
    let o = t27(&[
        "check",
        "--root",
        "specs",
        "tests/fixtures/errors/E1004-name-not-in-module.t27",
    ]);
    assert!(
        stderr(&o).contains("E1003"),
        "with the wrong root the module is not found: {}",
        stderr(&o)
    );
}

#[test]
fn explain_prints_the_example_and_the_fix() {
    let o = t27(&["explain", "e0101"]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with("E0101 (error): a statement or declaration without its closing `;`"),
        "{text}"
    );
    assert!(text.contains("    pub const FIRST : u32 = 1\n"), "{text}");
    assert!(text.contains("Fix: Add `;`"), "{text}");
    assert_eq!(t27(&["explain", "E9999"]).status.code(), Some(2));
    let list = t27(&["explain", "--list"]);
    let listed = String::from_utf8_lossy(&list.stdout).lines().count();
    assert_eq!(listed, t27_diag::CODES.len());
}

/// A fresh folder of the test's own, removed when it goes out of scope.
fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("t27-cli-test-")
        .tempdir()
        .expect("temp dir")
}

#[test]
fn test_runs_the_owner_specs_natively() {
    let o = t27(&["test", "specs/queen"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.trim_end().ends_with("29 passed, 0 failed"), "{out}");
    assert!(out.contains("PASS    QueenDispatch::end_reason_constants_are_correct  (test; 2 runtime, 8 folded asserts;"), "{out}");
    let eval = t27(&["test", "--engine", "eval", "specs/queen"]);
    assert_eq!(eval.status.code(), Some(0));
}

#[test]
fn test_exit_codes() {
    // A failing block: 1.
    let o = t27(&["test", "--timeout", "0.2", "tests/fixtures/run/traps.t27"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // A spec that does not compile: its blocks are not run, and the exit code is 2.
    let o = t27(&["test", "tests/fixtures/errors/E2007-argument-count.t27"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("NOT RUN"));
    // Usage and I/O errors: 3.
    assert_eq!(t27(&["test", "--engine", "llvm"]).status.code(), Some(3));
    assert_eq!(t27(&["test", "no/such/spec.t27"]).status.code(), Some(3));
    assert_eq!(
        t27(&["test", "--timeout", "-1", "specs/queen"])
            .status
            .code(),
        Some(3)
    );
}

#[test]
fn a_closed_stdout_ends_the_output_without_a_panic() {
    // `t27 test ... | head -1`: the reader goes away after the first line.
    let temp = tempdir();
    let dir = temp.path().join("closed-stdout");
    std::fs::create_dir_all(&dir).expect("dir");
    let mut spec = String::from("module ManyBlocks;\n");
    for i in 0..5000 {
        spec.push_str(&format!("test block_{i} {{ assert {i} + 1 > {i}; }}\n"));
    }
    let file = dir.join("many.t27");
    std::fs::write(&file, spec).expect("spec written");
    let mut child = Command::new(env!("CARGO_BIN_EXE_t27"))
        .args(["test", "--engine", "eval"])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("t27 runs");
    let mut first = [0u8; 16];
    let stdout = child.stdout.as_mut().expect("stdout");
    std::io::Read::read_exact(stdout, &mut first).expect("some output");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("t27 ends");
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn test_filter_exact_and_list() {
    let o = t27(&["test", "--list", "--filter", "end_reason", "specs/queen"]);
    let listed = String::from_utf8_lossy(&o.stdout).lines().count();
    assert_eq!(listed, 9, "{}", String::from_utf8_lossy(&o.stdout));
    let o = t27(&[
        "test",
        "--filter",
        "QueenDispatch::end_reason_to_name_conversion",
        "--exact",
        "specs/queen",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.trim_end().ends_with("1 passed, 0 failed"), "{out}");
}

#[test]
fn test_json_and_junit_outputs() {
    let temp = tempdir();
    let junit = temp.path().join("junit.xml");
    let o = t27(&[
        "test",
        "--format",
        "json",
        "--junit",
        junit.to_str().expect("utf-8"),
        "specs/queen",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 30);
    assert_eq!(lines[29]["type"], "summary");
    assert_eq!(lines[29]["passed"], 29);
    let xml = std::fs::read_to_string(&junit).expect("the JUnit file is written");
    assert!(xml.contains("<testcase classname=\"specs/queen/dispatch.t27\" name=\"QueenDispatch::the_table_moves_only_along_its_guards\""));
}

#[test]
fn test_perf_map_names_the_compiled_code() {
    // Only the selected block and the functions it reaches are compiled, and named.
    let o = t27(&[
        "test",
        "--perf-map",
        "--engine",
        "jit",
        "--filter",
        "QueenDispatch::the_table_moves_only_along_its_guards",
        "--exact",
        "specs/queen",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    let path = err
        .lines()
        .find_map(|l| l.strip_prefix("perf map: "))
        .and_then(|l| l.split(' ').next())
        .unwrap_or_else(|| panic!("no perf map path in: {err}"));
    let map = std::fs::read_to_string(path).expect("the perf map is written");
    let _ = std::fs::remove_file(path);
    let mut names = Vec::new();
    for line in map.lines() {
        let fields: Vec<&str> = line.splitn(3, ' ').collect();
        assert_eq!(fields.len(), 3, "{line}");
        let address = u64::from_str_radix(fields[0], 16).expect("hex address");
        let size = u64::from_str_radix(fields[1], 16).expect("hex size");
        assert!(address > 0 && size > 0, "{line}");
        names.push(fields[2].to_string());
    }
    assert!(
        names.contains(&"t27::QueenDispatch::the_table_moves_only_along_its_guards".into()),
        "{map}"
    );
    assert!(
        names.contains(&"t27::QueenDispatch::next_state".into()),
        "{map}"
    );
    assert!(
        !names
            .iter()
            .any(|n| n.contains("end_reason_constants_are_correct")),
        "{map}"
    );
    // The evaluator compiles nothing, and says so; nor does the tiered engine for the
    // owner's blocks, all light.
    for engine in ["eval", "tiered"] {
        let o = t27(&["test", "--perf-map", "--engine", engine, "specs/queen"]);
        assert_eq!(o.status.code(), Some(0));
        assert!(
            stderr(&o).contains("perf map: nothing compiled"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn gen_check_finds_stale_missing_and_edited_files_and_writes_nothing() {
    let temp = tempdir();
    let dir = temp.path().join("gen-check");
    let specs = dir.join("specs/queen");
    std::fs::create_dir_all(&specs).expect("temp specs");
    let spec = specs.join("review_first.t27");
    std::fs::copy(repo().join("specs/queen/review_first.t27"), &spec).expect("copy spec");
    let out = dir.join("gen");
    let args = |check: bool| {
        let mut a = vec![
            "gen".to_string(),
            "ts".into(),
            dir.join("specs").display().to_string(),
            "--out".into(),
            out.display().to_string(),
        ];
        if check {
            a.push("--check".into());
        }
        a
    };
    let run = |check: bool| {
        let a = args(check);
        t27(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let file = out.join("queen/review_first.ts");
    assert_eq!(run(true).status.code(), Some(1), "nothing generated yet");
    assert!(String::from_utf8_lossy(&run(true).stdout).contains("missing: "));
    assert!(!file.exists(), "--check writes nothing");
    assert_eq!(run(false).status.code(), Some(0));
    assert!(file.exists());
    assert_eq!(
        run(true).status.code(),
        Some(0),
        "up to date right after generation"
    );
    // A hand edit.
    let generated = std::fs::read_to_string(&file).expect("generated file");
    std::fs::write(
        &file,
        generated.replace(
            "export const KIND_REWORK = 1;",
            "export const KIND_REWORK = 7;",
        ),
    )
    .expect("edit");
    let edited = std::fs::read_to_string(&file).expect("edited file");
    let o = run(true);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("edited by hand"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("file"),
        edited,
        "--check never modifies a file"
    );
    // A changed spec constant.
    assert_eq!(run(false).status.code(), Some(0));
    let text = std::fs::read_to_string(&spec).expect("spec");
    let changed = text.replace(
        "the backlog is closed until",
        "the backlog stays closed until",
    );
    assert_ne!(changed, text);
    std::fs::write(&spec, changed).expect("change spec");
    let o = run(true);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("stale"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // The runtime comes from no spec: a changed one is not what t27 generates, not stale.
    assert_eq!(run(false).status.code(), Some(0));
    let runtime = out.join("t27_runtime.js");
    let mut text = std::fs::read_to_string(&runtime).expect("the runtime is written");
    text.push_str("// edited\n");
    std::fs::write(&runtime, text).expect("edit runtime");
    let o = run(true);
    assert_eq!(o.status.code(), Some(1));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("differs: ") && said.contains("t27_runtime.js") && !said.contains("stale"),
        "{said}"
    );
}

#[test]
fn consts_lists_every_constant_as_json() {
    let o = t27(&["consts", "--format", "json", "specs/queen/review_first.t27"]);
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[0]["name"], "KIND_BACKLOG");
    assert_eq!(lines[0]["type"], "u8");
    assert_eq!(lines[0]["value"], 0);
    assert_eq!(lines[0]["file"], "specs/queen/review_first.t27");
}

/// A tree with broken modules: the sound ones are mirrored, the others named with their first
/// error; an existing file of a skipped module is left exactly as it is; the exit code is 1.
#[test]
fn gen_and_consts_mirror_the_sound_modules_of_a_broken_tree() {
    let tree = "tests/fixtures/isolation/specs";
    for (target, ext) in [("ts", "ts"), ("rust", "rs")] {
        let temp = tempdir();
        let out = temp.path().join(format!("gen-isolation-{target}"));
        std::fs::create_dir_all(out.join("queen")).expect("out dir");
        let kept = out.join(format!("queen/keyed.{ext}"));
        std::fs::write(&kept, "// written by an earlier, sound run\n").expect("old file");
        let out_arg = out.display().to_string();
        let o = t27(&["gen", target, tree, "--out", &out_arg]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("skipped: tests/fixtures/isolation/specs/queen/router.t27 (module QueenRouter): it imports `queen::keyed`, whose first error is E2001 at tests/fixtures/isolation/specs/queen/keyed.t27:5:28"),
            "{err}"
        );
        assert_eq!(err.matches("skipped: ").count(), 5, "{err}");
        for sound in ["base", "clean"] {
            assert!(
                out.join(format!("queen/{sound}.{ext}")).is_file(),
                "{sound}"
            );
        }
        for broken in ["router", "pending", "shapes", "half_migrated"] {
            assert!(
                !out.join(format!("queen/{broken}.{ext}")).exists(),
                "{broken}"
            );
        }
        assert_eq!(
            std::fs::read_to_string(&kept).expect("kept"),
            "// written by an earlier, sound run\n"
        );
        if target == "rust" {
            let m = std::fs::read_to_string(out.join("queen/mod.rs")).expect("mod.rs");
            assert!(
                m.contains("pub mod keyed;") && !m.contains("pub mod router;"),
                "{m}"
            );
        }
        // Up to date for what it can mirror, and still 1 for what it cannot.
        let o = t27(&["gen", target, tree, "--out", &out_arg, "--check"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stderr(&o).contains("up to date; 5 modules skipped"),
            "{}",
            stderr(&o)
        );
    }
    let o = t27(&["consts", "--format", "json", tree]);
    assert_eq!(o.status.code(), Some(1));
    let modules: std::collections::BTreeSet<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .map(|v| v["module"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(
        modules.into_iter().collect::<Vec<_>>(),
        ["QueenBase", "QueenClean"]
    );
    assert_eq!(stderr(&o).matches("skipped: ").count(), 5);
}

/// `t27 test` on a broken tree runs what does not reach an error and exits 2.
#[test]
fn test_runs_around_broken_declarations() {
    let o = t27(&["test", "tests/fixtures/isolation/specs"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("PASS    QueenRouter::hop_keys"), "{out}");
    assert!(out.contains("NOT RUN QueenRouter::hop_routes"), "{out}");
    assert!(out.contains("        not run: calls `hop_route`, which calls `route_of`, which calls `holder_of`: error E1001 at tests/fixtures/isolation/specs/queen/keyed.t27:12:8: no function named `cast` in this scope"), "{out}");
    // The errors of the tree come last: the run is no pass, and two syntax errors may have
    // hidden blocks.
    assert!(out.trim_end().ends_with("11 passed, 17 failed\n10 errors in the specs (above); 2 of them are syntax errors, which may have kept blocks from being read: such blocks are not in these counts"), "{out}");
    let list = t27(&[
        "test",
        "--list",
        "--filter",
        "hop_",
        "tests/fixtures/isolation/specs",
    ]);
    let listed = String::from_utf8_lossy(&list.stdout);
    assert!(
        listed.contains("QueenRouter::hop_keys  (test)\n"),
        "{listed}"
    );
    assert!(
        listed.contains("QueenRouter::hop_routes  (test)  [would not run: calls `hop_route`"),
        "{listed}"
    );
}

/// Every file of a folder, by path relative to it.
fn files_under(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .expect("under the folder")
                    .to_path_buf();
                out.insert(rel, std::fs::read(&path).expect("readable file"));
            }
        }
    }
    out
}

/// The mirrors are the same bytes whatever folder `t27` runs in and however the specs are
/// named: relative from the repository, absolute from elsewhere. Headers name the spec by
/// its path under the spec root.
#[test]
fn gen_output_is_the_same_from_any_folder() {
    let temp = tempdir();
    let specs = std::fs::canonicalize(repo().join("specs/queen")).expect("specs/queen");
    for target in ["ts", "rust"] {
        let here = temp.path().join(format!("{target}-relative"));
        let o = t27(&[
            "gen",
            target,
            "specs/queen",
            "--out",
            here.to_str().expect("utf-8"),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let there = temp.path().join(format!("{target}-absolute"));
        let o = Command::new(env!("CARGO_BIN_EXE_t27"))
            .args(["gen", target])
            .arg(&specs)
            .arg("--out")
            .arg(&there)
            .current_dir(temp.path())
            .output()
            .expect("t27 runs");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let (a, b) = (files_under(&here), files_under(&there));
        assert!(a.len() >= 2, "{a:?}");
        assert_eq!(a, b, "{target}");
        let dispatch = a
            .iter()
            .find(|(p, _)| p.to_string_lossy().contains("dispatch"))
            .expect("the dispatch mirror");
        let text = String::from_utf8_lossy(dispatch.1);
        assert!(
            text.starts_with("// Code generated by t27 from queen/dispatch.t27. DO NOT EDIT."),
            "{text}"
        );
    }
}

/// `--layout flat` writes every mirror into the output folder itself, named from the spec's
/// path (`queen-review-first.gen.ts`, with the runtime beside it; Rust: `queen_review_first.rs`
/// and one `mod.rs`), with the text the tree layout gives; two specs that would share a name stop it with exit 2.
#[test]
fn gen_flat_layout_names_files_from_the_spec_path() {
    let temp = tempdir();
    let out = |name: &str| temp.path().join(name);
    let mirror = |target: &str, layout: &str, dir: &Path| {
        let dir = dir.to_str().expect("utf-8");
        let o = t27(&[
            "gen",
            target,
            "specs/queen",
            "--out",
            dir,
            "--layout",
            layout,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    };
    mirror("ts", "flat", &out("ts-flat"));
    mirror("ts", "tree", &out("ts-tree"));
    let (flat, tree) = (files_under(&out("ts-flat")), files_under(&out("ts-tree")));
    let names: Vec<String> = flat.keys().map(|p| p.display().to_string()).collect();
    assert_eq!(
        names,
        [
            "queen-dispatch.gen.ts",
            "queen-review-first.gen.ts",
            "t27_runtime.d.ts",
            "t27_runtime.js"
        ]
    );
    // The same text, but for the runtime's import: beside the file, not a folder up.
    let text = |bytes: &Vec<u8>| String::from_utf8(bytes.clone()).expect("utf-8");
    assert_eq!(
        text(&flat[Path::new("queen-review-first.gen.ts")]),
        text(&tree[Path::new("queen/review_first.ts")])
            .replace("\"../t27_runtime.js\"", "\"./t27_runtime.js\"")
    );
    mirror("rust", "flat", &out("rs-flat"));
    let rust: Vec<String> = files_under(&out("rs-flat"))
        .keys()
        .map(|p| p.display().to_string())
        .collect();
    assert_eq!(
        rust,
        ["mod.rs", "queen_dispatch.rs", "queen_review_first.rs"]
    );
    let rustc = Command::new("rustc")
        .args(["--edition", "2021", "--crate-type", "lib", "-D", "warnings"])
        .args(["--crate-name", "flat", "--out-dir"])
        .arg(temp.path())
        .arg(out("rs-flat").join("mod.rs"))
        .output()
        .expect("rustc runs");
    assert!(rustc.status.success(), "{}", stderr(&rustc));

    // `queen/review_first` and `queen-review/first` would both be `queen-review-first.gen.ts`.
    let specs = temp.path().join("clash/specs");
    for (rel, module) in [
        ("queen/review_first.t27", "A"),
        ("queen-review/first.t27", "B"),
    ] {
        let path = specs.join(rel);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("spec folder");
        std::fs::write(&path, format!("module {module};\npub const X : u32 = 1;\n")).expect("spec");
    }
    let clash = out("clash-out");
    let o = t27(&[
        "gen",
        "ts",
        specs.to_str().expect("utf-8"),
        "--out",
        clash.to_str().expect("utf-8"),
        "--layout",
        "flat",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("would all be written to `queen-review-first.gen.ts`"),
        "{}",
        stderr(&o)
    );
    assert!(!clash.exists(), "nothing is written");

    // `queen/reviewValve` and `queen/review_valve` are files of their own, but in Rust both
    // would be the module `queen::review_valve`: for Rust, in either layout, an error.
    let specs = temp.path().join("snake/specs");
    for (rel, module) in [
        ("queen/reviewValve.t27", "A"),
        ("queen/review_valve.t27", "B"),
    ] {
        let path = specs.join(rel);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("spec folder");
        std::fs::write(&path, format!("module {module};\npub const X : u32 = 1;\n")).expect("spec");
    }
    for (layout, module) in [
        ("tree", "queen::review_valve"),
        ("flat", "queen_review_valve"),
    ] {
        let snake = out(&format!("snake-{layout}"));
        let o = t27(&[
            "gen",
            "rust",
            specs.to_str().expect("utf-8"),
            "--out",
            snake.to_str().expect("utf-8"),
            "--layout",
            layout,
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("would all be the module `{module}`")),
            "{}",
            stderr(&o)
        );
        assert!(!snake.exists(), "nothing is written");
    }
    // TypeScript names files, not modules: both are generated.
    let o = t27(&[
        "gen",
        "ts",
        specs.to_str().expect("utf-8"),
        "--out",
        out("snake-ts").to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
