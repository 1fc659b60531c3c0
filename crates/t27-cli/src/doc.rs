//! `t27 doc`: the specs as a static site, written to a folder.

use crate::files::load_and_check_names;
use crate::{EXIT_OK, EXIT_SPEC_ERRORS, EXIT_USAGE};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;
use t27_run::{BlockReport, RunOptions};

pub struct Options {
    pub paths: Vec<PathBuf>,
    pub root: Option<PathBuf>,
    pub out: PathBuf,
    /// Run the blocks and show their outcomes.
    pub run: bool,
    pub timeout: f64,
}

/// 0: the site is written (whatever the specs' errors and outcomes, which the pages show);
/// 1: it is written but a spec has errors or, with `--run`, a block did not pass; 2: a usage
/// or I/O problem.
pub fn run(opts: &Options) -> u8 {
    let Ok(checked) = load_and_check_names(&opts.paths, opts.root.as_deref()) else {
        return EXIT_USAGE;
    };
    let errors = checked.error_count();
    if errors > 0 {
        eprintln!(
            "note: {errors} error{} in the specs (`t27 check` shows them): their modules' pages say what could not be shown or tried",
            if errors == 1 { "" } else { "s" }
        );
    }
    let reports = opts.run.then(|| {
        let run_opts = RunOptions {
            engine: t27_run::Engine::DEFAULT,
            timeout: Duration::from_secs_f64(opts.timeout),
            filter: None,
            exact: false,
            lowering_threads: None,
            engine_threads: None,
            coverage: None,
        };
        let reports = Mutex::new(Vec::new());
        t27_run::run(&checked, &run_opts, &mut |r: &BlockReport| {
            if let Ok(mut all) = reports.lock() {
                all.push(r.clone());
            }
        });
        reports.into_inner().unwrap_or_default()
    });
    let files = match t27_doc::site(&checked, reports.as_deref()) {
        Ok(files) => files,
        Err(why) => {
            eprintln!("error: the site could not be built: {why}");
            return EXIT_USAGE;
        }
    };
    for (path, text) in &files {
        if let Err(e) = crate::mirror::write_atomically(&opts.out.join(path), text) {
            eprintln!("error: {}: {e}", opts.out.join(path).display());
            return EXIT_USAGE;
        }
    }
    let pages = files
        .keys()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .count();
    println!(
        "{pages} pages written to {} (open {})",
        opts.out.display(),
        opts.out.join("index.html").display()
    );
    let failed = reports
        .as_ref()
        .is_some_and(|r| r.iter().any(|r| !r.passed()));
    if errors > 0 || failed {
        EXIT_SPEC_ERRORS
    } else {
        EXIT_OK
    }
}
