//! `t27 check`.

use crate::files::load_and_check_diagnostics;
use crate::{Color, EXIT_OK, EXIT_SPEC_ERRORS, EXIT_USAGE, Format};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

pub struct Options {
    pub paths: Vec<PathBuf>,
    pub root: Option<PathBuf>,
    pub format: Format,
    pub deny_warnings: bool,
    pub color: Color,
}

pub fn run(opts: &Options) -> u8 {
    let Ok(checked) = load_and_check_diagnostics(&opts.paths, opts.root.as_deref()) else {
        return EXIT_USAGE;
    };
    let color = match opts.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for d in &checked.diagnostics {
        match opts.format {
            Format::Json => {
                let _ = writeln!(out, "{}", t27_diag::to_json_line(d, &checked.sources));
            }
            Format::Human => eprint!("{}", t27_diag::render(d, &checked.sources, color)),
        }
    }
    let (errors, warnings) = (checked.error_count(), checked.warning_count());
    if opts.format == Format::Human {
        let modules = checked.program.modules.len();
        eprintln!(
            "checked {modules} module{}: {errors} error{}, {warnings} warning{}",
            if modules == 1 { "" } else { "s" },
            if errors == 1 { "" } else { "s" },
            if warnings == 1 { "" } else { "s" },
        );
    }
    let code = if errors > 0 || (opts.deny_warnings && warnings > 0) {
        EXIT_SPEC_ERRORS
    } else {
        EXIT_OK
    };
    // The process ends right after this: freeing every syntax tree and the whole program of a
    // large check would cost time and tell nobody anything.
    std::mem::forget(checked);
    code
}
