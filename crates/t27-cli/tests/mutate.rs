//! `t27 mutate` as a user runs it: its exit codes, its verdict line and its JSON lines, on the
//! mutation fixtures (`tests/fixtures/mutate/`; what each mutant does is snapshotted in the
//! suite's `tests/mutation.rs`).

mod common;

use common::*;
use std::path::Path;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

const KILLED: &str = "tests/fixtures/mutate/killed.t27";
const SURVIVORS: &str = "tests/fixtures/mutate/survivors.t27";

fn mutate(args: &[&str]) -> std::process::Output {
    let mut all = vec!["mutate", "--color", "never"];
    all.extend_from_slice(args);
    t27_in(repo(), &all)
}

#[test]
fn exit_0_when_every_mutant_is_killed_or_times_out() {
    let o = mutate(&[KILLED]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Killed  27 mutants: 25 killed, 0 survived, 2 timed out; score 100.0%"),
        "{out}"
    );
    assert!(out.contains("no mutant survived ("), "{out}");
    assert!(!out.contains("survived tests/"), "{out}");
}

#[test]
fn exit_1_when_a_mutant_survives_with_its_span_and_diff() {
    let o = mutate(&[SURVIVORS]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(
            "survived tests/fixtures/mutate/survivors.t27:9:14  boundary  (in `high`: every block that reaches it passes)\n      9 - return x >= FLOOR;\n      9 + return x > FLOOR;\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("Survivors  26 mutants: 18 killed, 8 survived, 0 timed out; score 69.2%"),
        "{out}"
    );
    assert!(out.contains("8 mutant(s) survived ("), "{out}");
}

#[test]
fn min_score_decides_the_exit_code() {
    let o = mutate(&[SURVIVORS, "--min-score", "60"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("score 69.2% reaches --min-score 60"),
        "{}",
        stdout(&o)
    );
    let o = mutate(&[SURVIVORS, "--min-score", "70"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("score 69.2% is under --min-score 70"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn exit_2_when_no_module_compiles() {
    let o = mutate(&["tests/fixtures/errors/E0101-missing-semicolon.t27"]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("E0101"), "{err}");
    assert!(
        err.contains("no module without one: mutants are made of modules that compile"),
        "{err}"
    );
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn a_tree_with_errors_has_its_sound_modules_mutated_and_exits_2() {
    let tree = "tests/fixtures/isolation/specs";
    let o = mutate(&[tree]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(
        out.contains("QueenBase  3 mutants: 3 killed")
            && out.contains("QueenClean  3 mutants: 3 killed"),
        "{out}"
    );
    assert!(
        err.contains(
            "skipped: tests/fixtures/isolation/specs/queen/router.t27 (module QueenRouter): it imports `queen::keyed`, whose first error is E2001"
        ),
        "{err}"
    );
    assert!(
        err.contains("11 error(s): 5 module(s) left out, not mutated"),
        "{err}"
    );
    let o = mutate(&[tree, "--format", "json"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let last = stdout(&o)
        .lines()
        .last()
        .map(str::to_string)
        .unwrap_or_default();
    let summary: serde_json::Value = serde_json::from_str(&last).expect("the summary");
    assert_eq!(summary["type"], "mutation_summary");
    assert_eq!(summary["mutants"], 6);
    assert_eq!(
        summary["skipped"].as_array().map(Vec::len),
        Some(5),
        "{summary}"
    );
    assert_eq!(summary["passed"], false);
}

#[test]
fn exit_3_on_a_usage_error() {
    for args in [
        &[SURVIVORS, "--min-score", "101"][..],
        &[SURVIVORS, "--min-score", "many"][..],
        &[SURVIVORS, "--timeout", "0"][..],
        &["tests/fixtures/mutate/no-such-file.t27"][..],
    ] {
        let o = mutate(args);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("error"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn json_gives_one_object_per_mutant_then_the_summaries() {
    let o = mutate(&[SURVIVORS, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    let kind = |v: &serde_json::Value| v["type"].as_str().unwrap_or("").to_string();
    let mutants: Vec<_> = lines.iter().filter(|v| kind(v) == "mutant").collect();
    assert_eq!(mutants.len(), 26);
    assert_eq!(kind(&lines[lines.len() - 2]), "mutation_module");
    assert_eq!(kind(&lines[lines.len() - 1]), "mutation_summary");
    for m in &mutants {
        for field in [
            "file", "mutation", "original", "mutated", "module", "function",
        ] {
            assert!(m[field].is_string(), "{field} in {m}");
        }
        assert!(m["line"].as_u64().is_some_and(|l| l > 0), "{m}");
        assert!(m["column"].as_u64().is_some_and(|c| c > 0), "{m}");
        let outcome = m["outcome"].as_str().unwrap();
        assert!(["killed", "survived", "timeout"].contains(&outcome), "{m}");
        // A killed mutant names the block that killed it.
        assert_eq!(m["by"].is_string(), outcome == "killed", "{m}");
    }
    let survived = mutants
        .iter()
        .filter(|m| m["outcome"] == "survived")
        .count();
    assert_eq!(survived, 8);
    let summary = &lines[lines.len() - 1];
    assert_eq!(summary["mutants"], 26);
    assert_eq!(summary["survived"], 8);
    assert_eq!(summary["passed"], false);
}
