//! Errors isolated by dependency, on `tests/fixtures/isolation`: a tree of modules with one
//! mistake each kind (an undefined name, a module not written yet, a name a module does not
//! have, wrong types, a broken function reached only indirectly, a module importing a broken
//! one). Every mistake is marked in its line with `// mistake: CODE`.

mod common;

use common::*;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;
use t27_check::Checked;
use t27_diag::{LineIndex, Sources};
use t27_run::{BlockReport, BlockResult, Engine, NotRun};

const TREE: &str = "tests/fixtures/isolation";
/// Broken declarations as operands of every operator, and recursive structs: what lowering
/// turns into `Error` nodes must still block every block that reaches it.
const REACH: &str = "tests/fixtures/reach";
const TREES: [&str; 2] = [TREE, REACH];

fn checked() -> Checked {
    checked_tree(TREE)
}

fn checked_tree(tree: &str) -> Checked {
    check_paths(&t27_files(Path::new(tree)), &mut MemLoader::default())
}

fn run(checked: &Checked, engine: Engine) -> Vec<BlockReport> {
    run_blocks(checked, engine, Duration::from_secs(10)).0
}

/// Each block's outcome; for one not run, the chain to what is broken and its error.
fn outcomes(checked: &Checked, reports: &[BlockReport]) -> String {
    let p = &checked.program;
    let mut out = String::new();
    for r in reports {
        let name = format!(
            "{}::{}",
            p.modules[r.module.index()].name,
            p.tests[r.test.index()].decl.name
        );
        let what = match &r.result {
            BlockResult::Ran(o) => o.word().to_string(),
            BlockResult::NotRun(NotRun::Blocked(b)) => {
                let (line, column) = b.line_col(&checked.sources);
                let path: Vec<&str> = b.path.iter().map(|s| s.name.as_str()).collect();
                format!(
                    "not run\n    blocked by `{}` ({} at {}:{line}:{column}), path [{}]\n    {}",
                    b.name,
                    b.code,
                    checked.sources.name(b.file),
                    path.join(" -> "),
                    b.describe(&checked.sources)
                )
            }
            BlockResult::NotRun(NotRun::NoNativeCode) => "not run: no native code".to_string(),
            BlockResult::NotRun(NotRun::NotOnHost(why)) => format!("not run: {why}"),
        };
        out.push_str(&format!("{name}: {what}\n"));
    }
    out
}

/// As `t27 test` runs it, each block checked as it runs (`check_declarations`): the same
/// outcomes and blockers, and every error once, between the check and the blocks' reports.
#[test]
fn blocks_checked_as_they_run_end_as_when_checked_first() {
    for tree in TREES {
        checked_as_they_run(tree);
    }
}

fn checked_as_they_run(tree: &str) {
    let first = checked_tree(tree);
    let as_run =
        t27_check::check_declarations(&t27_files(Path::new(tree)), None, &mut MemLoader::default());
    for engine in [Engine::Eval, Engine::Jit, Engine::DEFAULT] {
        let a = run(&first, engine);
        let b = run_blocks_lowered_on(&as_run, engine, Duration::from_secs(10), Some(2)).0;
        assert_eq!(outcomes(&first, &a), outcomes(&as_run, &b), "{engine:?}");
        assert!(a.iter().all(|r| r.errors.is_empty()), "{engine:?}");
        let errors = |c: &Checked, reports: &[BlockReport]| {
            let mut all: Vec<String> = c
                .diagnostics
                .iter()
                .chain(reports.iter().flat_map(|r| &r.errors))
                .filter(|d| d.is_error())
                .map(|d| {
                    format!(
                        "{} {} {:?} {}",
                        c.sources.name(d.file),
                        d.code,
                        d.primary.span,
                        d.message
                    )
                })
                .collect();
            all.sort();
            all
        };
        let (errs_first, errs_as_run) = (errors(&first, &a), errors(&as_run, &b));
        assert_eq!(errs_first, errs_as_run, "{engine:?}");
        let unique: BTreeSet<&String> = errs_as_run.iter().collect();
        assert_eq!(unique.len(), errs_as_run.len(), "an error reported twice");
    }
}

#[test]
fn the_evaluator_runs_what_does_not_reach_an_error() {
    let checked = checked();
    insta::assert_snapshot!(outcomes(&checked, &run(&checked, Engine::Eval)));
}

#[test]
fn the_jit_runs_what_does_not_reach_an_error() {
    let checked = checked();
    insta::assert_snapshot!(outcomes(&checked, &run(&checked, Engine::Jit)));
}

/// The (file, line, code) of every `// mistake: CODE` mark in the tree.
fn marked_mistakes(tree: &str) -> BTreeSet<(String, usize, String)> {
    let mut marks = BTreeSet::new();
    for path in t27_files(Path::new(tree)) {
        let text = std::fs::read_to_string(&path).expect("fixture");
        for (i, line) in text.lines().enumerate() {
            if let Some((_, code)) = line.split_once("// mistake: ") {
                marks.insert((path.display().to_string(), i + 1, code.trim().to_string()));
            }
        }
    }
    marks
}

/// One mistake, one error: every error is at a marked line with the marked code, and every
/// mark has exactly one error. The snapshot shows each one as rendered.
#[test]
fn check_reports_each_mistake_once() {
    let checked = checked();
    assert_mistakes_reported_once(&checked, TREE);
    insta::assert_snapshot!(rendered(&checked));
}

/// The reach tree's errors, one a mark, rendered.
#[test]
fn check_reports_each_reach_mistake_once() {
    let checked = checked_tree(REACH);
    assert_mistakes_reported_once(&checked, REACH);
    insta::assert_snapshot!(rendered(&checked));
}

/// Every block of the reach tree that reaches a broken declaration, by any operator, call,
/// literal, constant or module `var`, is not run, on both engines, with the same blocker;
/// only those that reach nothing broken run.
#[test]
fn broken_operands_block_on_every_engine() {
    let checked = checked_tree(REACH);
    let eval = outcomes(&checked, &run(&checked, Engine::Eval));
    let jit = outcomes(&checked, &run(&checked, Engine::Jit));
    assert_eq!(eval, jit);
    let ran: Vec<&str> = eval.lines().filter(|l| l.ends_with(": pass")).collect();
    assert!(
        eval.lines().all(|l| [": fail", ": trap", ": timeout"]
            .iter()
            .all(|w| !l.ends_with(w))),
        "a block that reaches an error ran and failed:\n{eval}"
    );
    assert!(!ran.is_empty(), "{eval}");
    insta::assert_snapshot!(eval);
}

fn assert_mistakes_reported_once(checked: &Checked, tree: &str) {
    let errors: Vec<(String, usize, String)> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let text = checked.sources.text(d.file);
            let (line, _) = LineIndex::new(text).line_col(text, d.primary.span.start as usize);
            (
                checked.sources.name(d.file).to_string(),
                line,
                d.code.to_string(),
            )
        })
        .collect();
    let unique: BTreeSet<_> = errors.iter().cloned().collect();
    assert_eq!(
        unique.len(),
        errors.len(),
        "an error reported twice: {errors:#?}"
    );
    assert_eq!(unique, marked_mistakes(tree));
}

/// JSON lines carry `reason` and `blocked_by`; JUnit gives the reason as `<skipped message>`.
#[test]
fn reports_name_what_blocks_a_block() {
    let checked = checked();
    let reports = run(&checked, Engine::Jit);
    let blocked = reports
        .iter()
        .find(|r| checked.program.tests[r.test.index()].decl.name == "hop_routes")
        .expect("the block");
    let json: serde_json::Value =
        serde_json::from_str(&t27_run::json_block(&checked, blocked)).expect("JSON");
    assert_eq!(json["outcome"], "not_run");
    let by = &json["blocked_by"];
    assert_eq!(by["name"], "holder_of");
    assert_eq!(by["code"], "E1001");
    assert_eq!(by["file"], "tests/fixtures/isolation/specs/queen/keyed.t27");
    assert_eq!(
        (by["line"].as_u64(), by["column"].as_u64()),
        (Some(12), Some(8))
    );
    assert_eq!(
        by["path"],
        serde_json::json!(["hop_route", "route_of", "holder_of"])
    );
    assert!(
        json["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("calls `hop_route`, which calls `route_of`"))
    );

    let xml = t27_run::junit(&checked, &reports);
    let doc = roxmltree::Document::parse(&xml).expect("JUnit XML parses");
    let case = doc
        .descendants()
        .find(|n| n.attribute("name") == Some("QueenRouter::hop_routes"))
        .expect("the test case");
    let skipped = case
        .children()
        .find(|n| n.has_tag_name("skipped"))
        .expect("skipped");
    assert_eq!(
        skipped.attribute("message"),
        json["reason"]
            .as_str()
            .map(|r| format!("not run: {r}"))
            .as_deref()
    );
    // A block that reaches nothing broken in the same module ran.
    let ran = doc
        .descendants()
        .find(|n| n.attribute("name") == Some("QueenRouter::hop_keys"))
        .expect("the test case");
    assert!(ran.children().all(|n| !n.is_element()));
}
