//! Finding spec files on disk and reading them for the checker (the `t27` command uses it too).

use std::path::{Path, PathBuf};

/// Reads files from the disk for `t27_check`.
pub struct FsLoader;

impl t27_check::Loader for FsLoader {
    fn read(&mut self, path: &Path) -> Result<Vec<u8>, String> {
        if path.is_dir() {
            return Err("is a directory".to_string());
        }
        std::fs::read(path).map_err(|e| e.to_string())
    }
}

/// Expands the command-line paths: files as given, folders searched recursively for `*.t27`
/// (sorted, so output order is stable). Returns the files and the problems found.
pub fn collect(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<String>) {
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for p in paths {
        if p.is_dir() {
            let before = files.len();
            walk(p, &mut files, &mut problems);
            if files.len() == before {
                problems.push(format!("{}: no `.t27` files in this folder", p.display()));
            }
        } else if p.exists() {
            files.push(p.clone());
        } else {
            problems.push(format!("{}: no such file or folder", p.display()));
        }
    }
    (files, problems)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>, problems: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            problems.push(format!("{}: {e}", dir.display()));
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            walk(&p, files, problems);
        } else if p.extension().is_some_and(|e| e == "t27") {
            files.push(p);
        }
    }
}
