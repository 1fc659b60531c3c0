//! `t27 test --watch`: every block once, then, on every save, the blocks of the modules that
//! changed and of those that import them (directly or not), each run ending with a short
//! summary. Files are watched by polling their size and modification time, which works the
//! same on every system and every editor's way of saving.

use crate::test::{self, Options};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

/// How often the files are looked at.
const POLL: Duration = Duration::from_millis(20);
/// How long a change must rest before it runs: an editor that saves in two writes is seen once.
const SETTLE: Duration = Duration::from_millis(10);

type Stamps = BTreeMap<PathBuf, (u64, Option<SystemTime>)>;

/// Runs until the process is stopped (Ctrl-C); returns only on a usage error.
pub fn run(opts: &Options) -> u8 {
    let paths = if opts.paths.is_empty() {
        vec![PathBuf::from("specs")]
    } else {
        opts.paths.clone()
    };
    let opts = Options {
        paths: paths.clone(),
        watching: true,
        ..opts.clone()
    };
    let code = test::run(&opts);
    if code == test::EXIT_USAGE {
        return code;
    }
    let mut seen = stamps(&paths);
    eprintln!(
        "[watch] waiting for changes to {} files (Ctrl-C to stop)",
        seen.len()
    );
    loop {
        std::thread::sleep(POLL);
        let now = stamps(&paths);
        if now == seen {
            continue;
        }
        std::thread::sleep(SETTLE);
        let now = stamps(&paths);
        let changed: Vec<PathBuf> = now
            .iter()
            .filter(|(p, stamp)| seen.get(*p) != Some(*stamp))
            .map(|(p, _)| p.clone())
            .collect();
        seen = now;
        if changed.is_empty() {
            // Only removals: nothing left to run for them.
            continue;
        }
        let started = Instant::now();
        let affected = with_importers(&paths, &opts, &changed);
        let names: Vec<String> = changed.iter().map(|p| p.display().to_string()).collect();
        eprintln!(
            "\n[watch] {} changed: running the blocks of {} module{}",
            names.join(", "),
            affected.len(),
            if affected.len() == 1 { "" } else { "s" }
        );
        let code = test::run(&Options {
            paths: affected,
            ..opts.clone()
        });
        let verdict = match code {
            test::EXIT_PASSED => "all passed",
            test::EXIT_FAILED => "some failed",
            _ => "some did not run",
        };
        eprintln!(
            "[watch] {verdict}, in {} ms; waiting for changes",
            started.elapsed().as_millis()
        );
    }
}

/// The size and modification time of every spec file under `paths`.
fn stamps(paths: &[PathBuf]) -> Stamps {
    let (files, _) = t27_build::files::collect(paths);
    files
        .into_iter()
        .filter_map(|f| {
            let meta = std::fs::metadata(&f).ok()?;
            Some((f, (meta.len(), meta.modified().ok())))
        })
        .collect()
}

/// `changed` and every watched file whose module imports one of them, directly or through
/// others (from a check of the declarations of the whole tree, which is what says who imports
/// whom).
fn with_importers(paths: &[PathBuf], opts: &Options, changed: &[PathBuf]) -> Vec<PathBuf> {
    let (files, _) = t27_build::files::collect(paths);
    let checked = t27_check::check_declarations(
        &files,
        opts.root.as_deref(),
        &mut t27_build::files::FsLoader,
    );
    let program = &checked.program;
    let path_of = |m: usize| {
        let file = program.modules[m].file;
        t27_check::normalize(&checked.sources.get(file).path)
    };
    let mut affected: BTreeSet<PathBuf> = changed.iter().map(|p| t27_check::normalize(p)).collect();
    loop {
        let before = affected.len();
        for (m, module) in program.modules.iter().enumerate() {
            if module
                .imports
                .iter()
                .any(|i| affected.contains(&path_of(i.index())))
            {
                affected.insert(path_of(m));
            }
        }
        if affected.len() == before {
            break;
        }
    }
    // Watched files only, as the user named them.
    files
        .into_iter()
        .filter(|f| affected.contains(&t27_check::normalize(f)))
        .collect()
}
