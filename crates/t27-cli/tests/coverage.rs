//! `t27 test --coverage` and `--lcov` as a user runs them, on the hand-worked fixture
//! (`tests/fixtures/coverage/guards.t27`; its counts are checked in the suite's snapshot).

mod common;

use common::*;
use std::path::Path;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

#[test]
fn coverage_text_lcov_and_json() {
    let dir = tempfile::tempdir().expect("temp dir");
    let lcov = dir.path().join("guards.info");
    let lcov_arg = lcov.to_string_lossy().to_string();
    let spec = "tests/fixtures/coverage/guards.t27";
    let o = t27_in(
        repo(),
        &[
            "test",
            spec,
            "--coverage",
            "--lcov",
            &lcov_arg,
            "--color",
            "never",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("coverage: 4 functions, lines 8/9 (88.9%), arms 8/15 (53.3%)"),
        "{out}"
    );
    assert!(
        out.contains("uncovered: the `not entered` arm of this loop in `steps` is never taken"),
        "{out}"
    );
    let written = std::fs::read_to_string(&lcov).expect("the tracefile");
    assert!(
        written.starts_with("TN:\nSF:tests/fixtures/coverage/guards.t27\n"),
        "{written}"
    );
    assert!(
        written.contains("BRF:15\nBRH:8\n") && written.ends_with("LF:9\nLH:8\nend_of_record\n"),
        "{written}"
    );
    // --lcov alone writes the file and prints no coverage.
    let o = t27_in(repo(), &["test", spec, "--lcov", &lcov_arg]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stdout(&o).contains("coverage:"), "{}", stdout(&o));
    // JSON lines: the blocks, their summary, an object per function, the coverage summary.
    let o = t27_in(
        repo(),
        &[
            "test",
            spec,
            "--coverage",
            "--format",
            "json",
            "--engine",
            "jit",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let band = lines
        .iter()
        .find(|l| l["type"] == "coverage" && l["function"] == "band")
        .expect("band");
    assert_eq!(
        (
            band["calls"].clone(),
            band["arms_taken"].clone(),
            band["arms_total"].clone()
        ),
        (2.into(), 4.into(), 8.into())
    );
    let last = lines.last().expect("a summary");
    assert_eq!(last["type"], "coverage_summary");
    assert_eq!(last["arms_taken"], 8);
}

#[test]
fn coverage_is_counted_on_the_engines_only() {
    let o = t27_in(
        repo(),
        &["test", "specs/queen", "--coverage", "--host", "js"],
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let o = t27_in(repo(), &["test", "specs/queen", "--coverage", "--watch"]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let o = t27_in(
        repo(),
        &["test", "specs/queen", "--lcov", "/nonexistent-dir/x.info"],
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write /nonexistent-dir/x.info"),
        "{}",
        stderr(&o)
    );
}
