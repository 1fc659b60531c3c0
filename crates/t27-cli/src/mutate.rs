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
/// score reaches it), 1 otherwise, 2 when the specs do not compile, 3 on a usage error.
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
    if !errors.is_empty() {
        for d in &errors {
            eprint!("{}", t27_diag::render(d, &checked.sources, color));
        }
        eprintln!(
            "error: {} error(s): mutants are made of a program that compiles (`t27 check` lists them)",
            errors.len()
        );
        return EXIT_NOT_COMPILED;
    }
    let timeout = Duration::from_secs_f64(opts.timeout);
    let report = t27_mutate::run(&checked, opts.engine, timeout, t27_mutate::MUTANT_BUDGET);
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
            outln!("{}", report.json_summary(p, opts.min_score, passed));
        }
    }
    std::mem::forget(checked);
    if passed { EXIT_PASSED } else { EXIT_FAILED }
}
