//! The two engines: every fixture and spec runs on the reference evaluator and on the JIT, and
//! every block must end the same way. Also the runner's reports: values, JSON lines, JUnit.
//! A data-driven harness (libtest-mimic): each fixture is a test of its own, named after its
//! file (`agree::run/loops.t27`, `recorded::loops.t27`).

mod common;

use common::*;
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::time::Duration;
use t27_check::Checked;
use t27_diag::Sources;
use t27_ir::Outcome;
use t27_run::{BlockReport, BlockResult, Engine};

fn run(checked: &Checked, engine: Engine) -> (Vec<BlockReport>, t27_run::Summary) {
    run_blocks(checked, engine, Duration::from_millis(300))
}

/// A block's outcome without its duration, in words that read well in a snapshot.
fn line(checked: &Checked, r: &BlockReport) -> String {
    let p = &checked.program;
    let name = format!(
        "{}::{}",
        p.modules[r.module.index()].name,
        p.tests[r.test.index()].decl.name
    );
    let text = checked.sources.text(p.modules[r.module.index()].file);
    let at = |span: t27_diag::Span| {
        let (l, c) = t27_diag::LineIndex::new(text).line_col(text, span.start as usize);
        format!("{l}:{c}")
    };
    let what = match &r.result {
        BlockResult::NotRun(t27_run::NotRun::Blocked(b)) => {
            format!("not run: {}", b.describe(&checked.sources))
        }
        BlockResult::NotRun(t27_run::NotRun::NoNativeCode) => "not run: no native code".to_string(),
        BlockResult::NotRun(t27_run::NotRun::NotOnHost(why)) => format!("not run: {why}"),
        BlockResult::Ran(Outcome::Pass) => "pass".to_string(),
        BlockResult::Ran(Outcome::Timeout) => "timeout".to_string(),
        BlockResult::Ran(Outcome::Trap { kind, span }) => {
            format!("trap {} at {}", kind.name(), at(*span))
        }
        BlockResult::Ran(Outcome::Fail {
            assert,
            left,
            right,
        }) => {
            let sides = match (left, right) {
                (Some(l), Some(r)) => format!(" (left {l}, right {r})"),
                _ => String::new(),
            };
            format!("fail at {}{sides}", at(*assert))
        }
    };
    format!("{name}: {what}")
}

fn listing(checked: &Checked, reports: &[BlockReport]) -> String {
    reports.iter().map(|r| line(checked, r) + "\n").collect()
}

/// Every request whose blocks can run: the good fixtures, the run fixtures, the examples and
/// the owner's specs.
fn requests() -> Vec<Vec<PathBuf>> {
    vec![
        t27_files(Path::new("tests/fixtures/good")),
        t27_files(Path::new("tests/fixtures/run")),
        t27_files(Path::new("examples")),
        t27_files(Path::new("specs")),
    ]
}

/// The engines under test besides the evaluator: native code, the default tiered engine,
/// and the tiered engine with budgets so small that nearly every block starts on the
/// evaluator, runs past its budget and is run again natively, taking the module `var`s over.
const ENGINES: [Engine; 4] = [
    Engine::Jit,
    Engine::DEFAULT,
    Engine::Tiered { eval_budget: 0 },
    Engine::Tiered { eval_budget: 3 },
];

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for path in requests().into_iter().flatten() {
        let name = path.to_string_lossy().replace('\\', "/");
        let name = name
            .strip_prefix("tests/fixtures/")
            .unwrap_or(&name)
            .to_string();
        trials.push(Trial::test(format!("agree::{name}"), move || {
            every_engine_ends_every_block_the_same_way(&path)
        }));
    }
    for path in t27_files(Path::new("tests/fixtures/run")) {
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        trials.push(Trial::test(format!("recorded::{name}"), move || {
            run_fixture_ends_as_recorded(&path, &name);
            Ok(())
        }));
    }
    trials.extend(plain_trials(vec![
        ("every_request_runs_blocks", every_request_runs_blocks),
        (
            "the_tiered_engine_evaluates_light_blocks_and_compiles_heavy_ones",
            the_tiered_engine_evaluates_light_blocks_and_compiles_heavy_ones,
        ),
        (
            "the_tiered_engine_switches_only_blocks_that_run_long",
            the_tiered_engine_switches_only_blocks_that_run_long,
        ),
        (
            "the_owner_specs_pass_natively",
            the_owner_specs_pass_natively,
        ),
        (
            "a_changed_constant_fails_exactly_the_blocks_that_depend_on_it",
            a_changed_constant_fails_exactly_the_blocks_that_depend_on_it,
        ),
        (
            "json_lines_and_junit_are_well_formed",
            json_lines_and_junit_are_well_formed,
        ),
    ]));
    libtest_mimic::run(&args, trials).exit();
}

/// Each group of fixtures runs blocks at all (a request that runs none tests nothing), and
/// with no budget the tiered engine hands some of them on to native code (the path from the
/// evaluator to the JIT is taken).
fn every_request_runs_blocks() {
    for paths in requests() {
        let checked = check_paths(&paths, &mut MemLoader::default());
        let (eval, _) = run(&checked, Engine::Eval);
        assert!(!eval.is_empty(), "{paths:?} ran no block");
        let (tiered, _) = run(&checked, Engine::Tiered { eval_budget: 0 });
        assert!(
            tiered.iter().any(|r| r.engine == Some(Engine::Jit)),
            "{paths:?}: no block went on to native code"
        );
    }
}

/// A file's blocks (with the modules it imports) end the same way on every engine as on the
/// evaluator.
fn every_engine_ends_every_block_the_same_way(path: &Path) -> Result<(), Failed> {
    let checked = check_paths(&[path.to_path_buf()], &mut MemLoader::default());
    let (eval, eval_summary) = run(&checked, Engine::Eval);
    assert!(eval_summary.native_code.is_empty());
    let counts = |s: &t27_run::Summary| t27_run::Summary {
        native_code: Vec::new(),
        ..s.clone()
    };
    // As `t27 test` runs it: the blocks checked as they run, not with the rest, here lowered
    // on two threads ahead of the engines and run on two engine threads, reported in order
    // (a large request's way).
    let as_run =
        t27_check::check_declarations(&[path.to_path_buf()], None, &mut MemLoader::default());
    let (streamed, summary) = run_blocks_lowered_on(
        &as_run,
        Engine::DEFAULT,
        Duration::from_millis(300),
        Some(2),
    );
    assert_eq!(
        listing(&checked, &eval),
        listing(&as_run, &streamed),
        "checked as they run"
    );
    assert_eq!(
        counts(&eval_summary),
        counts(&summary),
        "checked as they run"
    );
    for engine in ENGINES {
        let (other, summary) = run(&checked, engine);
        if let Some(e) = summary.engine_error {
            return Err(format!("{engine:?}: {e}").into());
        }
        assert_eq!(
            listing(&checked, &eval),
            listing(&checked, &other),
            "{engine:?} disagrees with the evaluator"
        );
        assert_eq!(counts(&eval_summary), counts(&summary), "{engine:?}");
        // Which engine answered each block: with no budget, every block that makes a call or
        // a loop turn went on to native code.
        let answered: Vec<Engine> = other.iter().map(|r| r.engine.expect("ran")).collect();
        match engine {
            Engine::Jit => assert!(answered.iter().all(|e| *e == Engine::Jit)),
            _ => assert!(
                answered
                    .iter()
                    .all(|e| matches!(e, Engine::Jit | Engine::Eval))
            ),
        }
    }
    Ok(())
}

/// The tiered engine answers light blocks on the evaluator and compiles heavy ones.
fn the_tiered_engine_evaluates_light_blocks_and_compiles_heavy_ones() {
    let checked = check_paths(
        &t27_files(Path::new("specs/queen")),
        &mut MemLoader::default(),
    );
    let (reports, summary) = run(&checked, Engine::DEFAULT);
    assert!(reports.iter().all(|r| r.engine == Some(Engine::Eval)));
    assert!(summary.native_code.is_empty(), "nothing compiled");
    let checked = check_paths(
        &[PathBuf::from("tests/fixtures/run/loops.t27")],
        &mut MemLoader::default(),
    );
    let (reports, _) = run(&checked, Engine::DEFAULT);
    assert!(reports.iter().any(|r| r.engine == Some(Engine::Jit)));
    assert!(reports.iter().any(|r| r.engine == Some(Engine::Eval)));
}

/// The default engine compiles nothing for a block the evaluator finishes first, even one whose
/// loop it cannot bound (a scan to a string's length, which it once compiled up front), and
/// moves a block that runs long to native code once the code is ready: a spin the evaluator
/// would take minutes over ends natively, well within the generous timeout. (The timing this
/// depends on is a compile against minutes of evaluation, not a close race.)
fn the_tiered_engine_switches_only_blocks_that_run_long() {
    let n: u64 = 400_000_000;
    let spun: u64 = (1..=n).map(|x| x % 7).sum();
    let text = "clause, clause; ".repeat(256);
    let spec = format!(
        r#"module Switching;
pub const TEXT : str = "{text}";
pub fn ascii(s: str) -> bool {{
var i : u32 = 0;
while (i < s.len()) {{
if (s[i] >= 128) {{ return false; }}
i += 1;
}}
return true;
}}
pub fn spin(n: u64) -> u64 {{
var x : u64 = n;
var total : u64 = 0;
while (x > 0) {{
total += x % 7;
x -= 1;
}}
return total;
}}
test a_scan_of_4_kb {{ assert ascii(TEXT); }}
test a_long_spin {{ assert spin({n}) == {spun}; }}
"#
    );
    let path = PathBuf::from("specs/switching.t27");
    let mut loader = MemLoader::default();
    loader.files.insert(path.clone(), spec.into_bytes());
    let checked = check_paths(&[path], &mut loader);
    assert_eq!(checked.error_count(), 0, "{}", rendered(&checked));
    let (reports, summary) = run_blocks(&checked, Engine::DEFAULT, Duration::from_secs(120));
    let answered: Vec<_> = reports.iter().map(|r| (r.passed(), r.engine)).collect();
    assert_eq!(
        answered,
        [(true, Some(Engine::Eval)), (true, Some(Engine::Jit))],
        "{}",
        listing(&checked, &reports)
    );
    // Only the spin was compiled: the scan never reached its mark.
    assert!(
        summary
            .native_code
            .iter()
            .all(|c| !c.name.contains("a_scan_of_4_kb") && !c.name.contains("ascii")),
        "{:?}",
        summary.native_code
    );
}

/// A run fixture's blocks on the JIT, as recorded: outcomes, failure values, trap kinds.
fn run_fixture_ends_as_recorded(path: &Path, name: &str) {
    let checked = check_paths(&[path.to_path_buf()], &mut MemLoader::default());
    let (reports, summary) = run(&checked, Engine::Jit);
    fixture_snapshot(name, path).bind(|| {
        insta::assert_snapshot!(
            "run_fixtures_end_as_recorded",
            format!(
                "{}{}",
                listing(&checked, &reports),
                t27_run::human_summary(&summary)
            )
        )
    });
}

fn the_owner_specs_pass_natively() {
    let checked = check_paths(
        &t27_files(Path::new("specs/queen")),
        &mut MemLoader::default(),
    );
    let (reports, summary) = run(&checked, Engine::Jit);
    assert_eq!(
        (summary.passed, summary.failed),
        (29, 0),
        "{}",
        listing(&checked, &reports)
    );
    let p = &checked.program;
    let blocks = |file: &str| {
        reports
            .iter()
            .filter(|r| {
                checked
                    .sources
                    .name(p.modules[r.module.index()].file)
                    .ends_with(file)
            })
            .count()
    };
    assert_eq!(
        (blocks("review_first.t27"), blocks("dispatch.t27")),
        (10, 19)
    );
    let end_reasons = p
        .tests
        .iter()
        .find(|t| t.decl.name == "end_reason_constants_are_correct")
        .expect("the test exists");
    assert_eq!(
        (end_reasons.runtime_asserts, end_reasons.folded_asserts),
        (2, 8)
    );
}

fn a_changed_constant_fails_exactly_the_blocks_that_depend_on_it() {
    let path = PathBuf::from("specs/queen/dispatch.t27");
    let text = std::fs::read_to_string(&path).expect("the owner's spec");
    let changed = text.replace(
        "pub const SENDBACK_CEILING : u32 = 2;",
        "pub const SENDBACK_CEILING : u32 = 3;",
    );
    assert_ne!(text, changed);
    let mut loader = MemLoader::default();
    loader.files.insert(path.clone(), changed.into_bytes());
    let checked = check_paths(&[path], &mut loader);
    for engine in [Engine::Jit, Engine::Eval] {
        let (reports, summary) = run(&checked, engine);
        let failed: Vec<String> = reports
            .iter()
            .filter(|r| !r.passed())
            .map(|r| t27_run::json_block(&checked, r))
            .collect();
        let failed: Vec<serde_json::Value> = failed
            .iter()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        let got: Vec<(String, u64, String, String)> = failed
            .iter()
            .map(|f| {
                let side = |k: &str| match (f[k].as_str(), f[format!("{k}_name")].as_str()) {
                    (Some(v), Some(n)) => format!("{v} ({n})"),
                    (Some(v), None) => v.to_string(),
                    _ => String::new(),
                };
                (
                    f["name"].as_str().unwrap_or_default().to_string(),
                    f["line"].as_u64().unwrap_or(0),
                    side("left"),
                    side("right"),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "the_ceiling_is_two".to_string(),
                    321,
                    "3 (SENDBACK_CEILING)".to_string(),
                    "2".to_string()
                ),
                (
                    "a_claim_follows_the_verdict_and_three_clocks".to_string(),
                    395,
                    "4 (C_FAILED)".to_string(),
                    "2 (C_REJECTED)".to_string()
                ),
                (
                    "review_escalates_without_work_and_after_two_send_backs".to_string(),
                    434,
                    "1 (R_SENDBACK)".to_string(),
                    "2 (R_ESCALATE)".to_string()
                ),
            ]
        );
        assert_eq!((summary.passed, summary.failed), (16, 3));
    }
}

fn json_lines_and_junit_are_well_formed() {
    let checked = check_paths(
        &t27_files(Path::new("tests/fixtures/run")),
        &mut MemLoader::default(),
    );
    let (reports, summary) = run(&checked, Engine::Jit);
    for r in &reports {
        let v: serde_json::Value =
            serde_json::from_str(&t27_run::json_block(&checked, r)).expect("a JSON object");
        assert_eq!(v["type"], "block");
        for field in [
            "module",
            "file",
            "name",
            "kind",
            "outcome",
            "runtime_asserts",
            "folded_asserts",
            "duration_ms",
        ] {
            assert!(!v[field].is_null(), "{field} missing in {v}");
        }
        if v["outcome"] != "pass" {
            assert!(v["message"].is_string(), "{v}");
        }
        if v["outcome"] == "trap" {
            assert!(
                v["trap"].is_string() && v["line"].is_u64() && v["column"].is_u64(),
                "{v}"
            );
        }
    }
    let s: serde_json::Value =
        serde_json::from_str(&t27_run::json_summary(&summary)).expect("a JSON object");
    assert_eq!(
        (
            s["type"].as_str(),
            s["passed"].as_u64(),
            s["failed"].as_u64()
        ),
        (Some("summary"), Some(97), Some(64))
    );
    let xml = t27_run::junit(&checked, &reports);
    let doc = roxmltree::Document::parse(&xml).expect("JUnit XML parses");
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert_eq!(cases.len(), reports.len());
    assert!(cases.iter().all(|c| {
        c.attribute("classname")
            .is_some_and(|f| f.ends_with(".t27"))
    }));
    assert!(
        cases
            .iter()
            .any(|c| c.attribute("name") == Some("RunTraps::overflow_traps"))
    );
    let failures = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    let errors = doc
        .descendants()
        .filter(|n| n.has_tag_name("error"))
        .count();
    assert_eq!(failures + errors, 64);
}
