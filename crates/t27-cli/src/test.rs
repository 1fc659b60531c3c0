//! `t27 test`.

use crate::files::{load_and_check, load_and_check_declarations, requested_errors};
use crate::{Color, Format};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;
use t27_run::{BlockReport, Engine, RunOptions};

/// Exit codes of `t27 test`, documented in the README.
pub const EXIT_PASSED: u8 = 0;
pub const EXIT_FAILED: u8 = 1;
pub const EXIT_NOT_COMPILED: u8 = 2;
pub const EXIT_USAGE: u8 = 3;

#[derive(Clone)]
pub struct Options {
    pub paths: Vec<PathBuf>,
    pub root: Option<PathBuf>,
    pub engine: Engine,
    pub timeout: f64,
    pub filter: Option<String>,
    pub exact: bool,
    pub list: bool,
    pub format: Format,
    pub junit: Option<PathBuf>,
    pub perf_map: bool,
    pub color: Color,
    /// Run the blocks on a host (generated code), not on an engine.
    pub host: Option<crate::host::HostOptions>,
    /// Part of `--watch`: the process goes on after the run, so it frees what it checked.
    pub watching: bool,
    /// `--coverage`: count what the blocks reach in the functions, and report it.
    pub coverage: bool,
    /// `--lcov FILE`: write the coverage as an lcov tracefile (implies `--coverage`).
    pub lcov: Option<PathBuf>,
}

pub fn run(opts: &Options) -> u8 {
    if !(opts.timeout > 0.0 && opts.timeout.is_finite()) {
        eprintln!("error: --timeout takes a positive number of seconds");
        return EXIT_USAGE;
    }
    // A run checks each block as it runs it, once; a list says why blocks would not run,
    // so it checks them all first.
    let load = if opts.list {
        load_and_check
    } else {
        load_and_check_declarations
    };
    let Ok(checked) = load(&opts.paths, opts.root.as_deref()) else {
        return EXIT_USAGE;
    };
    let color = match opts.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    // Compile errors explain why blocks do not run; warnings belong to `t27 check`. The
    // errors of a block itself come with it, just before its result.
    for d in checked.diagnostics.iter().filter(|d| d.is_error()) {
        eprint!("{}", t27_diag::render(d, &checked.sources, color));
    }
    // An error in a requested spec makes the run no pass, even when every block that could
    // be found ran and passed: a syntax error may have hidden the very block that would fail.
    let spec_errors = requested_errors(&checked);
    if opts.list {
        for s in t27_run::select(&checked, opts.filter.as_deref(), opts.exact) {
            let m = &checked.program.modules[s.module.index()];
            for (t, blocker) in s.blocks {
                let test = &checked.program.tests[t.index()];
                let kind = if test.kind == t27_ir::TestKind::Test {
                    "test"
                } else {
                    "invariant"
                };
                let why = blocker.map_or(String::new(), |b| {
                    format!("  [would not run: {}]", b.describe(&checked.sources))
                });
                outln!("{}::{}  ({kind}){why}", m.name, test.decl.name);
            }
        }
        std::mem::forget(checked);
        if let Some(line) = spec_errors.summary() {
            eprintln!("{line}");
            return EXIT_NOT_COMPILED;
        }
        return EXIT_PASSED;
    }
    let (engine, answers) = match &opts.host {
        None => (opts.engine, t27_run::Answers::default()),
        Some(host) => {
            let timeout = Duration::from_secs_f64(opts.timeout);
            match crate::host::answers(&checked, host, opts.filter.as_deref(), opts.exact, timeout)
            {
                Ok(answers) => (t27_run::Engine::Host(host.host.name()), answers),
                Err(crate::host::HostError::Missing(why)) => {
                    eprintln!("error: {why}");
                    return EXIT_USAGE;
                }
                Err(crate::host::HostError::Failed(why)) => {
                    eprintln!("error: {why}");
                    return EXIT_NOT_COMPILED;
                }
            }
        }
    };
    let covering = opts.coverage || opts.lcov.is_some();
    if covering && opts.host.is_some() {
        eprintln!("error: --coverage counts on the engines, not on a host (drop --host)");
        return EXIT_USAGE;
    }
    // The functions of the requested modules, with probes; the blocks call those.
    let coverage = covering.then(|| {
        let requested: Vec<t27_ir::ModuleId> = (0..checked.program.modules.len())
            .filter(|&i| checked.program.modules[i].requested)
            .map(|i| t27_ir::ModuleId(i as u32))
            .collect();
        let (program, plan) = t27_cover::instrument(&checked.program, &requested);
        let run = t27_run::CoverageRun {
            program: std::sync::Arc::new(program),
            counters: t27_ir::Counters::new(plan.counters as usize),
        };
        (run, plan)
    });
    let run_opts = RunOptions {
        lowering_threads: None,
        engine_threads: None,
        coverage: coverage.as_ref().map(|(run, _)| run.clone()),
        engine,
        timeout: Duration::from_secs_f64(opts.timeout),
        filter: opts.filter.clone(),
        exact: opts.exact,
    };
    let reports: Mutex<Vec<BlockReport>> = Mutex::new(Vec::new());
    let summary = t27_run::run_answered(&checked, &run_opts, answers, &mut |r: &BlockReport| {
        for d in &r.errors {
            eprint!("{}", t27_diag::render(d, &checked.sources, color));
        }
        let text = match opts.format {
            Format::Human => t27_run::human_block(&checked, r, color),
            Format::Json => t27_run::json_block(&checked, r) + "\n",
        };
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        if let Ok(mut all) = reports.lock() {
            all.push(r.clone());
        }
    });
    match opts.format {
        Format::Human => {
            out!("{}", t27_run::human_summary(&summary));
            if let Some(line) = spec_errors.summary() {
                outln!("{line}");
            }
        }
        Format::Json => outln!("{}", json_summary(&summary, &spec_errors)),
    }
    if let Some((run, plan)) = &coverage {
        let counts = run.counters.counts();
        let cov = t27_cover::Coverage::new(&checked.program, &checked.sources, plan, &counts);
        match opts.format {
            Format::Human if opts.coverage => out!("{}", cov.text(&checked.sources)),
            Format::Human => {}
            Format::Json => out!("{}", cov.json(&checked.sources)),
        }
        if let Some(path) = &opts.lcov
            && let Err(e) = std::fs::write(path, cov.lcov(&checked.sources))
        {
            eprintln!("error: cannot write {}: {e}", path.display());
            return EXIT_USAGE;
        }
    }
    let reports = reports.into_inner().unwrap_or_default();
    if let Some(path) = &opts.junit
        && let Err(e) = std::fs::write(path, t27_run::junit(&checked, &reports))
    {
        eprintln!("error: cannot write {}: {e}", path.display());
        return EXIT_USAGE;
    }
    if opts.perf_map && !write_perf_map(&summary.native_code) {
        return EXIT_USAGE;
    }
    let code = if summary.not_run > 0 || spec_errors.errors > 0 {
        EXIT_NOT_COMPILED
    } else if summary.failed > 0 {
        EXIT_FAILED
    } else {
        EXIT_PASSED
    };
    // The process ends right after this; freeing the program would only cost time.
    if !opts.watching {
        std::mem::forget(checked);
    }
    code
}

/// The run's JSON summary, with the errors of the requested specs (`errors`, and
/// `syntax_errors`: those that may have hidden blocks), which make it no pass.
fn json_summary(summary: &t27_run::Summary, spec_errors: &crate::files::RequestedErrors) -> String {
    let line = t27_run::json_summary(summary);
    match serde_json::from_str::<serde_json::Value>(&line) {
        Ok(serde_json::Value::Object(mut object)) => {
            object.insert("errors".into(), spec_errors.errors.into());
            object.insert("syntax_errors".into(), spec_errors.syntax.into());
            serde_json::Value::Object(object).to_string()
        }
        _ => line,
    }
}

/// Writes the JIT's code map where `perf` looks for the symbols of a process's generated code
/// (`/tmp/perf-PID.map`: address, size, name; hexadecimal). Says where on stderr.
fn write_perf_map(code: &[t27_run::NativeCode]) -> bool {
    if code.is_empty() {
        eprintln!("perf map: nothing compiled (no block ran natively)");
        return true;
    }
    // Always /tmp, whatever TMPDIR says: it is where perf looks.
    let path = PathBuf::from(format!("/tmp/perf-{}.map", std::process::id()));
    let text: String = code
        .iter()
        .map(|c| format!("{:x} {:x} t27::{}\n", c.address, c.size, c.name))
        .collect();
    match std::fs::write(&path, text) {
        Ok(()) => {
            eprintln!(
                "perf map: {} ({} functions and blocks)",
                path.display(),
                code.len()
            );
            true
        }
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", path.display());
            false
        }
    }
}
