//! Mutation testing (`t27 mutate`): the fixtures of `tests/fixtures/mutate`, with their known
//! survivors and kills, snapshotted (`fixture::<name>`); and on them and the owner's specs,
//! every mutant's text edit, written into the spec and run by `t27 test`'s runner, does what
//! the mutant did in the IR (`edits::<file>`), on every engine (`engines::<file>`).

mod common;

use common::*;
use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::time::Duration;
use t27_ir::{Outcome, TestId};
use t27_run::{BlockResult, Engine, Verdict};

/// The budget of a block unchanged.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A mutant's blocks get ten times their own time and this (`t27 mutate` gives 0.2 s): a
/// mutant that loops for ever costs this much each time it runs.
const MUTANT_BUDGET: Duration = Duration::from_millis(100);

fn checked(path: &Path) -> t27_check::Checked {
    let checked = check_paths(&[path.to_path_buf()], &mut MemLoader::default());
    assert_eq!(checked.error_count(), 0, "{}", rendered(&checked));
    checked
}

fn fixture(path: &Path, name: &str) -> Result<(), Failed> {
    let checked = checked(path);
    let report = mutate(&checked, Engine::DEFAULT, TIMEOUT);
    let p = &checked.program;
    let text = format!(
        "{}\n--- json\n{}",
        report.text(p, &checked.sources, false),
        report.json(p, &checked.sources)
    );
    fixture_snapshot(name, path).bind(|| insta::assert_snapshot!("fixture", text));
    Ok(())
}

/// What a run of every block of the mutated text says: the first block that did not pass,
/// as a verdict.
fn text_verdict(checked: &t27_check::Checked, budget: Duration, left_out: &[TestId]) -> Verdict {
    let (reports, _) = run_blocks(checked, Engine::Eval, budget);
    for r in reports.into_iter().filter(|r| !left_out.contains(&r.test)) {
        match r.result {
            BlockResult::Ran(Outcome::Pass) => {}
            BlockResult::Ran(Outcome::Timeout) => return Verdict::TimedOut(r.test),
            _ => return Verdict::Killed(r.test),
        }
    }
    Verdict::Survived
}

/// The budget of each block unchanged: short where a fixture's block is meant to time out
/// (an endless loop, left out of the mutants' runs but run with every edited text).
/// Every mutant of the fixture's sound modules, judged on `engine`.
fn mutate(checked: &t27_check::Checked, engine: Engine, timeout: Duration) -> t27_mutate::Report {
    mutate_within(checked, engine, timeout, MUTANT_BUDGET)
}

/// [`mutate`] with `budget` in place of [`MUTANT_BUDGET`].
fn mutate_within(
    checked: &t27_check::Checked,
    engine: Engine,
    timeout: Duration,
    budget: Duration,
) -> t27_mutate::Report {
    let modules = t27_mutate::Modules::of(checked);
    t27_mutate::run(checked, &modules.sound, engine, timeout, budget)
}

/// The mutants on which `report` and the evaluator's verdicts `oracle` disagree, described.
fn disagreements(report: &t27_mutate::Report, oracle: &[Verdict]) -> Vec<String> {
    report
        .mutants
        .iter()
        .zip(report.verdicts.iter().zip(oracle))
        .filter(|(_, (v, o))| !agree(v, o))
        .map(|(m, (v, o))| {
            format!(
                "{} `{}` at {}: {v:?}, evaluator {o:?}",
                m.kind.name(),
                m.text,
                m.edit.start
            )
        })
        .collect()
}

fn budget(checked: &t27_check::Checked) -> Duration {
    let short = Duration::from_millis(300);
    let (reports, _) = run_blocks(checked, Engine::Eval, short);
    if reports
        .iter()
        .any(|r| r.result == BlockResult::Ran(Outcome::Timeout))
    {
        short
    } else {
        TIMEOUT
    }
}

fn edits_do_what_the_mutants_do(path: &Path) -> Result<(), Failed> {
    let checked = checked(path);
    let timeout = budget(&checked);
    let report = mutate(&checked, Engine::Eval, timeout);
    let Some(first) = report.mutants.first() else {
        return Ok(());
    };
    let text = &checked.sources.get(first.file).text;
    let mut wrong = Vec::new();
    for (m, v) in report.mutants.iter().zip(&report.verdicts) {
        let range = m.edit.range();
        let edited = format!("{}{}{}", &text[..range.start], m.text, &text[range.end..]);
        let mut loader = MemLoader::default();
        loader
            .files
            .insert(t27_check::normalize(path), edited.into_bytes());
        let again = check_paths(&[path.to_path_buf()], &mut loader);
        let shown = format!("{} `{}` at {}", m.kind.name(), m.text, m.edit.start);
        if again.error_count() > 0 {
            wrong.push(format!(
                "{shown}: the edit does not compile:\n{}",
                rendered(&again)
            ));
            continue;
        }
        let budget = match v {
            Verdict::TimedOut(_) => Duration::from_millis(300),
            _ => timeout,
        };
        let expected = match v {
            Verdict::NotReached => Verdict::Survived,
            v => v.clone(),
        };
        let left_out: Vec<TestId> = report.failing.iter().map(|(t, _)| *t).collect();
        let got = text_verdict(&again, budget, &left_out);
        if got != expected {
            wrong.push(format!("{shown}: in the IR {v:?}, as text {got:?}"));
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(wrong.join("\n").into())
    }
}

/// Whether two engines' verdicts agree: the same, or the same block stopped, by a trap on
/// one and by its budget on the slower (a loop that no longer moves overflows its sum in
/// native code well within the budget the evaluator runs out of first).
fn agree(a: &Verdict, b: &Verdict) -> bool {
    match (a, b) {
        (Verdict::Killed(x) | Verdict::TimedOut(x), Verdict::Killed(y) | Verdict::TimedOut(y)) => {
            x == y
        }
        _ => a == b,
    }
}

fn engines_agree(path: &Path) -> Result<(), Failed> {
    let checked = checked(path);
    let timeout = budget(&checked);
    let oracle = mutate(&checked, Engine::Eval, timeout).verdicts;
    for engine in [
        Engine::Jit,
        Engine::DEFAULT,
        Engine::Tiered { eval_budget: 3 },
    ] {
        let report = mutate(&checked, engine, timeout);
        let mut differ = disagreements(&report, &oracle);
        // A mutant's budget is short (a mutant that loops for ever costs it every time), and
        // native code is compiled within it: on a machine busy with other tests a block may
        // run past it where the evaluator finished. Such a run is judged again with twenty
        // times the budget before it counts as a disagreement.
        let timed_out = report
            .verdicts
            .iter()
            .zip(&oracle)
            .any(|(v, o)| !agree(v, o) && matches!(v, Verdict::TimedOut(_)));
        if timed_out {
            let again = mutate_within(&checked, engine, timeout, MUTANT_BUDGET * 20);
            differ = disagreements(&again, &oracle);
        }
        if !differ.is_empty() {
            return Err(format!("{engine:?}:\n{}", differ.join("\n")).into());
        }
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    let fixtures = t27_files(Path::new("tests/fixtures/mutate"));
    for path in fixtures.clone() {
        let name = path
            .file_stem()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        trials.push(Trial::test(format!("fixture::{name}"), move || {
            fixture(&path, &name)
        }));
    }
    let files: Vec<PathBuf> = fixtures
        .into_iter()
        .chain(t27_files(Path::new("specs")))
        .chain(t27_files(Path::new("tests/fixtures/good")))
        .chain(t27_files(Path::new("tests/fixtures/run")))
        .collect();
    for path in files {
        let name = path.to_string_lossy().replace('\\', "/");
        let p = path.clone();
        trials.push(Trial::test(format!("edits::{name}"), move || {
            edits_do_what_the_mutants_do(&p)
        }));
        trials.push(Trial::test(format!("engines::{name}"), move || {
            engines_agree(&path)
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
