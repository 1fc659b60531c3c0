//! Reading the specs a command names, and checking them.

use std::path::{Path, PathBuf};
use t27_build::files::{FsLoader, collect};

/// Expands the paths (default `specs`), reports missing paths and unreadable files, and checks
/// what is there. `Err` means a usage or I/O problem, already printed.
pub fn load_and_check(paths: &[PathBuf], root: Option<&Path>) -> Result<t27_check::Checked, ()> {
    load_and(paths, root, t27_check::check)
}

/// [`load_and_check`] for the diagnostics alone (`t27 check`): the program's function bodies
/// are dropped as they are lowered (`t27_check::check_diagnostics`).
pub fn load_and_check_diagnostics(
    paths: &[PathBuf],
    root: Option<&Path>,
) -> Result<t27_check::Checked, ()> {
    load_and(paths, root, t27_check::check_diagnostics)
}

/// [`load_and_check`] but for the test and invariant blocks, which the runner checks as it
/// runs them (`t27_check::check_declarations`).
pub fn load_and_check_declarations(
    paths: &[PathBuf],
    root: Option<&Path>,
) -> Result<t27_check::Checked, ()> {
    load_and(paths, root, t27_check::check_declarations)
}

/// [`load_and_check`], keeping where every name is written and what it stands for
/// (`t27_check::check_names`): what `t27 doc` links by.
pub fn load_and_check_names(
    paths: &[PathBuf],
    root: Option<&Path>,
) -> Result<t27_check::Checked, ()> {
    load_and(paths, root, t27_check::check_names)
}

type Check = fn(&[PathBuf], Option<&Path>, &mut dyn t27_check::Loader) -> t27_check::Checked;

fn load_and(
    paths: &[PathBuf],
    root: Option<&Path>,
    check: Check,
) -> Result<t27_check::Checked, ()> {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("specs")]
    } else {
        paths.to_vec()
    };
    let (files, problems) = collect(&paths);
    for p in &problems {
        eprintln!("error: {p}");
    }
    if !problems.is_empty() {
        return Err(());
    }
    let checked = check(&files, root, &mut FsLoader);
    for (path, why) in &checked.io_errors {
        eprintln!("error: {}: {why}", path.display());
    }
    if checked.io_errors.is_empty() {
        Ok(checked)
    } else {
        Err(())
    }
}

/// The errors in the requested specs (not the modules they only import): how many, and how
/// many of them are syntax errors (`E0…`), which may have kept parts of a file, blocks
/// included, from being read at all.
pub struct RequestedErrors {
    pub errors: usize,
    pub syntax: usize,
}

pub fn requested_errors(checked: &t27_check::Checked) -> RequestedErrors {
    let requested: std::collections::HashSet<t27_diag::FileId> = checked
        .program
        .modules
        .iter()
        .filter(|m| m.requested)
        .map(|m| m.file)
        .collect();
    let mut count = RequestedErrors {
        errors: 0,
        syntax: 0,
    };
    for d in &checked.diagnostics {
        if d.is_error() && requested.contains(&d.file) {
            count.errors += 1;
            if d.code.as_str().starts_with("E0") {
                count.syntax += 1;
            }
        }
    }
    count
}

impl RequestedErrors {
    /// The line a run's summary ends with when the specs have errors: a run that counted no
    /// failure is still no pass, and the blocks counted may not be all there are.
    pub fn summary(&self) -> Option<String> {
        let s = |n: usize| if n == 1 { "" } else { "s" };
        match (self.errors, self.syntax) {
            (0, _) => None,
            (n, 0) => Some(format!(
                "{n} error{} in the specs (above): not a pass, whatever ran",
                s(n)
            )),
            (n, k) => Some(format!(
                "{n} error{} in the specs (above); {k} of them are syntax errors, which may have kept blocks from being read: such blocks are not in these counts",
                s(n)
            )),
        }
    }
}
