//! `t27 fmt`: specs rewritten in the canonical layout (`t27_fmt`), in place, or checked.

use crate::{Color, EXIT_OK, EXIT_SPEC_ERRORS, EXIT_USAGE};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use t27_diag::{FileId, Sources};
use t27_fmt::Unformatted;

pub struct Options {
    pub paths: Vec<PathBuf>,
    pub check: bool,
    pub stdin: bool,
    pub color: Color,
}

pub fn run(opts: &Options) -> u8 {
    let color = match opts.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    if opts.stdin {
        return from_stdin(color);
    }
    let paths = if opts.paths.is_empty() {
        vec![PathBuf::from("specs")]
    } else {
        opts.paths.clone()
    };
    let (files, problems) = t27_build::files::collect(&paths);
    for p in &problems {
        eprintln!("error: {p}");
    }
    if !problems.is_empty() {
        return EXIT_USAGE;
    }
    let (mut changed, mut left, mut io) = (0, 0, 0);
    for path in &files {
        match format_file(path, opts.check, color) {
            Ok(true) => changed += 1,
            Ok(false) => {}
            Err(Left::Errors) => left += 1,
            Err(Left::Io) => io += 1,
        }
    }
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let verb = if opts.check { "to format" } else { "formatted" };
    let mut summary = format!("{} file{}: {changed} {verb}", files.len(), s(files.len()));
    if left + io > 0 {
        summary += &format!(", {} left as they are (errors above)", left + io);
    }
    eprintln!("{summary}");
    if io > 0 {
        EXIT_USAGE
    } else if left > 0 || (opts.check && changed > 0) {
        EXIT_SPEC_ERRORS
    } else {
        EXIT_OK
    }
}

/// Why a file was left as it is (said already).
enum Left {
    /// It has syntax errors, or is not UTF-8.
    Errors,
    /// It could not be read or written.
    Io,
}

/// Formats one file in place (or, with `check`, names it when it is not formatted): whether
/// it changed (or would); `Err` when it is left as it is, with why already printed.
fn format_file(path: &Path, check: bool, color: bool) -> Result<bool, Left> {
    let shown = path.display();
    let io = |e: std::io::Error| {
        eprintln!("error: {shown}: {e}");
        Left::Io
    };
    let bytes = std::fs::read(path).map_err(io)?;
    let Ok(text) = String::from_utf8(bytes) else {
        eprintln!("error: {shown}: not valid UTF-8 (`t27 check` says where); left as it is");
        return Err(Left::Errors);
    };
    let formatted = formatted(&shown.to_string(), &text, color).map_err(|()| Left::Errors)?;
    if formatted == text {
        return Ok(false);
    }
    if check {
        outln!("{shown}");
    } else {
        std::fs::write(path, formatted).map_err(io)?;
    }
    Ok(true)
}

/// `--stdin`: the formatted text to standard output; a text that cannot be formatted is
/// written back as it came, with its errors on standard error, and exit 1.
fn from_stdin(color: bool) -> u8 {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut bytes) {
        eprintln!("error: standard input: {e}");
        return EXIT_USAGE;
    }
    let Ok(text) = String::from_utf8(bytes) else {
        eprintln!("error: standard input is not valid UTF-8");
        return EXIT_SPEC_ERRORS;
    };
    let (out, code) = match formatted("<stdin>", &text, color) {
        Ok(out) => (out, EXIT_OK),
        Err(()) => (text, EXIT_SPEC_ERRORS),
    };
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
    code
}

/// The formatted text, or `Err` with the reason printed.
fn formatted(name: &str, text: &str, color: bool) -> Result<String, ()> {
    match t27_fmt::format(FileId(0), text) {
        Ok(out) => Ok(out),
        Err(Unformatted::Syntax(errors)) => {
            let one = OneFile { name, text };
            for d in &errors {
                eprint!("{}", t27_diag::render(d, &one, color));
            }
            eprintln!("{name}: not formatted: it has syntax errors");
            Err(())
        }
        Err(Unformatted::Changed) => {
            eprintln!(
                "error: {name}: formatting it would change its tokens, which `t27 fmt` never \
                 does (a bug: please report it with the file); left as it is"
            );
            Err(())
        }
    }
}

/// The one file a diagnostic of `t27 fmt` is about.
struct OneFile<'a> {
    name: &'a str,
    text: &'a str,
}

impl Sources for OneFile<'_> {
    fn name(&self, _: FileId) -> &str {
        self.name
    }
    fn text(&self, _: FileId) -> &str {
        self.text
    }
}
