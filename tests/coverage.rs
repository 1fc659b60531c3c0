//! Coverage (`t27 test --coverage`): both engines count the same, and counting changes no
//! outcome, on every fixture and spec (`counts::<file>`); the fixtures of
//! `tests/fixtures/coverage`, whose counts were worked out by hand, give the text and lcov of
//! their snapshots on each engine (`hand::<file>`).

mod common;

use common::*;
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use t27_check::Checked;
use t27_ir::{Counters, ModuleId, Outcome};
use t27_run::{BlockReport, BlockResult, CoverageRun, Engine, RunOptions};

/// The engines that count: the evaluator (the oracle), native code, and the tiered engine
/// with budgets so small that blocks start on the evaluator and are run again natively
/// (their first counts thrown away).
const ENGINES: [Engine; 4] = [
    Engine::Eval,
    Engine::Jit,
    Engine::DEFAULT,
    Engine::Tiered { eval_budget: 3 },
];

/// Runs every block of `checked` on `engine`, counting the probes of every requested
/// module: the outcomes, the counts, and the plan.
fn covered(
    checked: &Checked,
    engine: Engine,
    timeout: Duration,
) -> (Vec<String>, Vec<u64>, t27_cover::Plan) {
    let requested: Vec<ModuleId> = (0..checked.program.modules.len())
        .filter(|&i| checked.program.modules[i].requested)
        .map(|i| ModuleId(i as u32))
        .collect();
    let (program, plan) = t27_cover::instrument(&checked.program, &requested);
    let counters = Counters::new(plan.counters as usize);
    let opts = RunOptions {
        engine,
        timeout,
        filter: None,
        exact: false,
        lowering_threads: None,
        engine_threads: None,
        coverage: Some(CoverageRun {
            program: Arc::new(program),
            counters: counters.clone(),
        }),
    };
    let mut outcomes = Vec::new();
    t27_run::run(checked, &opts, &mut |r: &BlockReport| {
        outcomes.push(outcome(r))
    });
    (outcomes, counters.counts(), plan)
}

fn outcome(r: &BlockReport) -> String {
    format!("{:?} {:?}", r.test, r.result)
}

fn plain(checked: &Checked, timeout: Duration) -> Vec<String> {
    let (reports, _) = run_blocks(checked, Engine::Eval, timeout);
    reports.iter().map(outcome).collect()
}

/// The budget of each block: short where a fixture's block is meant to time out (an endless
/// loop), long enough elsewhere that a slow machine never stops a block counting slower.
fn budget(checked: &Checked) -> Duration {
    let short = Duration::from_millis(300);
    if plain(checked, short).iter().any(|o| o.contains("Timeout")) {
        short
    } else {
        Duration::from_secs(30)
    }
}

fn engines_count_the_same(path: &Path) -> Result<(), Failed> {
    let checked = check_paths(&[path.to_path_buf()], &mut MemLoader::default());
    let timeout = budget(&checked);
    let uncounted = plain(&checked, timeout);
    let (oracle, counts, plan) = covered(&checked, Engine::Eval, timeout);
    if oracle != uncounted {
        return Err(format!(
            "counting changed the outcomes:\n{oracle:#?}\nwithout:\n{uncounted:#?}"
        )
        .into());
    }
    // A block stopped by its time budget stops wherever it is: its counts are the engine's.
    let timed_out = oracle.iter().any(|o| o.contains("Timeout"));
    for engine in &ENGINES[1..] {
        let (outcomes, other, _) = covered(&checked, *engine, timeout);
        if outcomes != oracle {
            return Err(
                format!("{engine:?}: outcomes\n{outcomes:#?}\nevaluator:\n{oracle:#?}").into(),
            );
        }
        if !timed_out && other != counts {
            let cov = |c: &[u64]| {
                t27_cover::Coverage::new(&checked.program, &checked.sources, &plan, c)
                    .lcov(&checked.sources)
            };
            let (a, b) = (cov(&counts), cov(&other));
            return Err(format!("{engine:?} counts otherwise than the evaluator:\n--- evaluator\n{a}\n--- {engine:?}\n{b}").into());
        }
    }
    Ok(())
}

fn hand_worked(path: &Path, name: &str) -> Result<(), Failed> {
    let checked = check_paths(&[path.to_path_buf()], &mut MemLoader::default());
    let mut shown = None;
    for engine in ENGINES {
        let (outcomes, counts, plan) = covered(&checked, engine, Duration::from_secs(30));
        if outcomes
            .iter()
            .any(|o| !o.ends_with(&format!("{:?}", BlockResult::Ran(Outcome::Pass))))
        {
            return Err(format!("{engine:?}: a block did not pass: {outcomes:#?}").into());
        }
        let cov = t27_cover::Coverage::new(&checked.program, &checked.sources, &plan, &counts);
        let text = format!(
            "{}\n--- lcov\n{}",
            cov.text(&checked.sources),
            cov.lcov(&checked.sources)
        );
        match &shown {
            None => shown = Some(text),
            Some(first) if *first != text => {
                return Err(
                    format!("{engine:?} reports otherwise than the evaluator:\n{text}").into(),
                );
            }
            Some(_) => {}
        }
    }
    let settings = fixture_snapshot(name, path);
    settings.bind(|| insta::assert_snapshot!("hand", shown.unwrap_or_default()));
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let files: Vec<PathBuf> = [
        "tests/fixtures/good",
        "tests/fixtures/run",
        "tests/fixtures/coverage",
        "tests/fixtures/gen",
        "examples",
        "specs",
    ]
    .iter()
    .flat_map(|d| t27_files(Path::new(d)))
    .collect();
    for path in files {
        let name = path.to_string_lossy().replace('\\', "/");
        let name = name
            .strip_prefix("tests/fixtures/")
            .unwrap_or(&name)
            .to_string();
        trials.push(Trial::test(format!("counts::{name}"), move || {
            engines_count_the_same(&path)
        }));
    }
    for path in t27_files(Path::new("tests/fixtures/coverage")) {
        let name = path
            .file_stem()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        trials.push(Trial::test(format!("hand::{name}"), move || {
            hand_worked(&path, &name)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
