//! `t27 mutate`.

use crate::files::load_and_check;
use crate::test::{EXIT_FAILED, EXIT_NOT_COMPILED, EXIT_PASSED, EXIT_USAGE};
use crate::{Color, Format};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub struct Options {
    pub paths: Vec<PathBuf>,
    pub root: Option<PathBuf>,
    pub engine: t27_run::Engine,
    /// The budget of each block on the program unchanged, in seconds.
    pub timeout: f64,
    pub min_score: Option<f64>,
    pub format: Format,
    pub color: Color,
}

/// Exit codes as `t27 test`'s: 0 when no mutant survives (or, with `--min-score`, when the
/// score reaches it), 1 otherwise, 2 when a spec does not compile (the modules that do, with
/// what they import, are mutated all the same), 3 on a usage error.
pub fn run(opts: &Options) -> u8 {
    if !(opts.timeout > 0.0 && opts.timeout.is_finite()) {
        eprintln!("error: --timeout takes a positive number of seconds");
        return EXIT_USAGE;
    }
    if let Some(min) = opts.min_score
        && !(0.0..=100.0).contains(&min)
    {
        eprintln!("error: --min-score takes a percentage, from 0 to 100");
        return EXIT_USAGE;
    }
    let started = Instant::now();
    let Ok(checked) = load_and_check(&opts.paths, opts.root.as_deref()) else {
        return EXIT_USAGE;
    };
    let color = match opts.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let errors: Vec<_> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .collect();
    for d in &errors {
        eprint!("{}", t27_diag::render(d, &checked.sources, color));
    }
    // A module with an error, or importing one, is left out; the others are mutated.
    let modules = t27_mutate::Modules::of(&checked);
    for (m, fault) in &modules.skipped {
        let module = &checked.program.modules[m.index()];
        eprintln!(
            "skipped: {} (module {}): {}",
            checked.sources.get(module.file).name,
            module.name,
            fault.describe(&checked.program, &checked.sources)
        );
    }
    let compiled = errors.is_empty();
    if !compiled && modules.sound.is_empty() {
        eprintln!(
            "error: {} error(s) and no module without one: mutants are made of modules that compile (`t27 check` lists the errors)",
            errors.len()
        );
        return EXIT_NOT_COMPILED;
    }
    let timeout = Duration::from_secs_f64(opts.timeout);
    let report = t27_mutate::run(
        &checked,
        &modules.sound,
        opts.engine,
        timeout,
        t27_mutate::MUTANT_BUDGET,
    );
    let p = &checked.program;
    let (_, all) = report.scores(p);
    let passed = match opts.min_score {
        Some(min) => all.score() >= min,
        None => report.survivors() == 0,
    };
    match opts.format {
        Format::Human => {
            out!("{}", report.text(p, &checked.sources, color));
            let verdict = match opts.min_score {
                Some(min) if passed => {
                    format!("score {:.1}% reaches --min-score {min}", all.score())
                }
                Some(min) => format!("score {:.1}% is under --min-score {min}", all.score()),
                None if passed => "no mutant survived".to_string(),
                None => format!("{} mutant(s) survived", report.survivors()),
            };
            outln!("{verdict} ({:.2} s)", started.elapsed().as_secs_f64());
        }
        Format::Json => {
            out!("{}", report.json(p, &checked.sources));
            let skipped: Vec<_> = modules.skipped.iter().map(|(m, _)| *m).collect();
            outln!(
                "{}",
                report.json_summary(p, opts.min_score, &skipped, passed && compiled)
            );
        }
    }
    if !compiled {
        eprintln!(
            "error: {} error(s): {} module(s) left out, not mutated (`t27 check` lists the errors)",
            errors.len(),
            modules.skipped.len()
        );
    }
    std::mem::forget(checked);
    match (compiled, passed) {
        (false, _) => EXIT_NOT_COMPILED,
        (true, true) => EXIT_PASSED,
        (true, false) => EXIT_FAILED,
    }
}
