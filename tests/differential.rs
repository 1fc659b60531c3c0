//! The bounded differential property test: random well-typed programs (t27-progen, fixed
//! seeds) run on the evaluator, on the JIT and on the tiered engine, and every block must end
//! the same way:
//! outcome, failing assert with both values, trap kind and span.

mod common;

use common::*;
use std::path::PathBuf;
use std::time::Duration;
use t27_run::{BlockReport, Engine, RunOptions};

/// Enough programs to cover every construct the generator makes, few enough to keep the
/// suite fast.
const CASES: u64 = 400;

/// Seeds the fuzzer found problems with, run on every build (see RELIABILITY.md).
const REGRESSIONS: [u64; 1] = [
    // A call between compiled functions placed more than 2 GiB apart (the JIT now keeps all
    // its code in one region).
    8497992256872967918,
];

/// Each block's name and how it ended.
fn outcomes(checked: &t27_check::Checked, engine: Engine) -> Vec<String> {
    let opts = RunOptions {
        lowering_threads: None,
        engine_threads: None,
        coverage: None,
        engine,
        timeout: Duration::from_secs(5),
        filter: None,
        exact: false,
    };
    let mut out = Vec::new();
    t27_run::run(checked, &opts, &mut |r: &BlockReport| {
        let name = &checked.program.tests[r.test.index()].decl.name;
        out.push(format!("{name}: {:?}", r.result))
    });
    out
}

#[test]
fn random_programs_end_the_same_way_on_both_engines() {
    let mut ran = 0;
    let mut traps = 0;
    let mut fails = 0;
    // Blocks that fill byte arrays through `[]u8` views: (ran, passed, trapped).
    let mut views = (0, 0, 0);
    // Blocks that read `undefined` memory (0xAA bytes): (ran, passed, failed).
    let mut fills = (0, 0, 0);
    for seed in (0..CASES).chain(REGRESSIONS) {
        let source = t27_progen::program(seed);
        let path = PathBuf::from(format!("generated/seed{seed}.t27"));
        let mut loader = MemLoader::default();
        loader
            .files
            .insert(path.clone(), source.clone().into_bytes());
        let checked = check_paths(&[path], &mut loader);
        assert_eq!(
            checked.error_count(),
            0,
            "seed {seed} does not check:\n{}\n{source}",
            rendered(&checked)
        );
        let eval = outcomes(&checked, Engine::Eval);
        let jit = outcomes(&checked, Engine::Jit);
        assert_eq!(eval, jit, "the engines disagree on seed {seed}:\n{source}");
        // The tiered engine with a budget small enough that blocks move to native code
        // part way, and must give the answer they would have given from the start.
        let tiered = outcomes(&checked, Engine::Tiered { eval_budget: 5 });
        assert_eq!(
            eval, tiered,
            "the tiered engine disagrees on seed {seed}:\n{source}"
        );
        ran += eval.len();
        traps += eval.iter().filter(|o| o.contains("Trap")).count();
        fails += eval.iter().filter(|o| o.contains("Fail")).count();
        for o in eval.iter().filter(|o| o.starts_with("views")) {
            views.0 += 1;
            views.1 += usize::from(o.ends_with("Ran(Pass)"));
            views.2 += usize::from(o.contains("Trap"));
        }
        for o in eval.iter().filter(|o| o.starts_with("ufills")) {
            fills.0 += 1;
            fills.1 += usize::from(o.ends_with("Ran(Pass)"));
            fills.2 += usize::from(o.contains("Fail"));
        }
    }
    // The generator must exercise failures and traps, not only passing blocks.
    assert!(
        ran > 300 && traps > 20 && fails > 20,
        "{ran} blocks, {traps} traps, {fails} failures"
    );
    assert!(
        views.0 > 300 && views.1 > 100 && views.2 > 100,
        "view blocks: {views:?} (ran, passed, trapped)"
    );
    assert!(
        fills.0 > 300 && fills.1 > 100 && fills.2 > 100,
        "undefined blocks: {fills:?} (ran, passed, failed)"
    );
}
