//! A spec with errors never passes: every command that reads specs, on a file whose test
//! blocks the parser could not recognise (`test "a name"`), exits with its error code, never 0,
//! and `t27 test` says that errors kept blocks from being read rather than only `0 passed, 0
//! failed`.

mod common;

use common::*;
use std::path::Path;
use std::process::Output;

/// Two blocks the parser does not recognise: the file has two E0100 and no block at all.
const BAD: &str =
    "module Bad;\ntest \"a name\" { assert 1 == 2; }\ntest \"other\" { assert true; }\n";

/// A file whose one block passes, beside a function with an error no block reaches.
const BROKEN_ASIDE: &str =
    "module Aside;\nfn broken() -> u32 { return nope; }\ntest fine { assert 1 + 1 == 2; }\n";

fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

fn said(o: &Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

fn exits(dir: &Path, args: &[&str], code: i32) -> Output {
    let o = t27_in(dir, args);
    assert_eq!(o.status.code(), Some(code), "t27 {args:?}: {}", said(&o));
    o
}

#[test]
fn test_on_unrecognised_blocks_exits_2_and_says_blocks_could_not_be_read() {
    let dir = folder(&[("bad.t27", BAD)]);
    let o = exits(dir.path(), &["test", "--color", "never", "bad.t27"], 2);
    let out = stdout(&o);
    assert!(out.contains("0 passed, 0 failed"), "{}", said(&o));
    assert!(
        out.contains("2 errors in the specs (above); 2 of them are syntax errors, which may have kept blocks from being read: such blocks are not in these counts"),
        "{}",
        said(&o)
    );
    assert!(stderr(&o).contains("E0100"), "{}", said(&o));
    for engine in ["eval", "jit"] {
        exits(dir.path(), &["test", "--engine", engine, "bad.t27"], 2);
    }
    let o = exits(dir.path(), &["test", "--format", "json", "bad.t27"], 2);
    let summary: serde_json::Value = stdout(&o)
        .lines()
        .last()
        .and_then(|l| serde_json::from_str(l).ok())
        .expect("a JSON summary");
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["errors"], 2);
    assert_eq!(summary["syntax_errors"], 2);
    let o = exits(dir.path(), &["test", "--list", "bad.t27"], 2);
    assert!(
        stderr(&o).contains("may have kept blocks from being read"),
        "{}",
        said(&o)
    );
}

#[test]
fn test_with_an_error_no_block_reaches_runs_the_blocks_and_exits_2() {
    let dir = folder(&[("aside.t27", BROKEN_ASIDE)]);
    let o = exits(dir.path(), &["test", "--color", "never", "aside.t27"], 2);
    let out = stdout(&o);
    assert!(out.contains("1 passed, 0 failed"), "{}", said(&o));
    assert!(
        out.contains("1 error in the specs (above): not a pass, whatever ran"),
        "{}",
        said(&o)
    );
}

#[test]
fn every_other_command_exits_with_its_error_code() {
    let dir = folder(&[("bad.t27", BAD)]);
    let out = dir.path().join("out").display().to_string();
    exits(dir.path(), &["check", "bad.t27"], 1);
    for target in ["ts", "js", "rust"] {
        let o = exits(dir.path(), &["gen", target, "bad.t27", "--out", &out], 1);
        assert!(
            stderr(&o).contains("skipped: bad.t27 (module Bad)"),
            "{}",
            said(&o)
        );
        exits(
            dir.path(),
            &["gen", target, "bad.t27", "--out", &out, "--check"],
            1,
        );
    }
    exits(dir.path(), &["doc", "bad.t27", "--out", &out], 1);
    exits(dir.path(), &["doc", "bad.t27", "--run", "--out", &out], 1);
    let o = exits(dir.path(), &["mutate", "bad.t27"], 2);
    assert!(
        stderr(&o).contains("skipped: bad.t27 (module Bad)"),
        "{}",
        said(&o)
    );
    exits(dir.path(), &["consts", "bad.t27"], 1);
    exits(dir.path(), &["consts", "--format", "json", "bad.t27"], 1);
    exits(dir.path(), &["fmt", "--check", "bad.t27"], 1);
    exits(dir.path(), &["fmt", "bad.t27"], 1);
    let o = exits(dir.path(), &["fix", "--dry-run", "bad.t27"], 1);
    assert!(
        stderr(&o).contains("2 errors would remain that no certain fix removes"),
        "{}",
        said(&o)
    );
    let o = exits(dir.path(), &["fix", "bad.t27"], 1);
    assert!(
        stderr(&o).contains("2 errors remain that no certain fix removes"),
        "{}",
        said(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("bad.t27"))
            .ok()
            .as_deref(),
        Some(BAD)
    );
}

#[test]
fn breaking_on_a_file_with_errors_exits_2() {
    let dir = folder(&[("bad.t27", BAD)]);
    let old = folder(&[("bad.t27", BAD)]);
    let o = exits(
        dir.path(),
        &[
            "breaking",
            "bad.t27",
            "--against",
            &old.path().display().to_string(),
        ],
        2,
    );
    assert!(
        stderr(&o).contains("the errors above may hide others"),
        "{}",
        said(&o)
    );
    let git = |args: &[&str]| git(dir.path(), args);
    git(&["init", "-q", "-b", "main"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "bad"]);
    exits(dir.path(), &["breaking", "bad.t27", "--against", "HEAD"], 2);
}
