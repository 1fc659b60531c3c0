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
