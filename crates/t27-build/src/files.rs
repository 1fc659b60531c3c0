//! Finding spec files on disk, their spec root, and reading them for the checker (the `t27`
//! command and the language server use it too).

use std::path::{Component, Path, PathBuf};
use t27_check::normalize;

/// Reads files from the disk for `t27_check`; a file's spec root is [`spec_root`].
pub struct FsLoader;

impl t27_check::Loader for FsLoader {
    fn read(&mut self, path: &Path) -> Result<Vec<u8>, String> {
        if path.is_dir() {
            return Err("is a directory".to_string());
        }
        std::fs::read(path).map_err(|e| e.to_string())
    }

    fn locate(&mut self, path: &Path) -> PathBuf {
        canonical(path)
    }

    fn spec_root(&mut self, file: &Path, root: Option<&Path>) -> PathBuf {
        spec_root(file, root)
    }
}

/// The spec root of `file`, the one rule of every command and of the language server:
/// `root` when given; else the nearest ancestor folder named `specs` of the file's real
/// place (symbolic links and `..` resolved, the current folder prepended), so that
/// `t27 test b.t27` in `specs/queen` finds `specs` as `t27 test specs/queen/b.t27` does;
/// else, when the real place has no such ancestor (a `specs` folder that is a link to a
/// folder of another name), the nearest one of the path as written; else the file's own
/// folder.
///
/// The root found is written as the file's path is: the nearest ancestor of the written
/// path that is that folder (`..` for `b.t27` in `specs/queen`, `specs` for
/// `specs/queen/b.t27`), so that the files a `use` reaches are shown as relative paths
/// from the current folder too; or, when no written ancestor is, its absolute path.
pub fn spec_root(file: &Path, root: Option<&Path>) -> PathBuf {
    if root.is_some() {
        return t27_check::spec_root(file, root);
    }
    let real = canonical(file);
    let Some(specs) = real
        .ancestors()
        .skip(1)
        .find(|d| d.file_name().is_some_and(|n| n == "specs"))
    else {
        return t27_check::spec_root(file, None);
    };
    // Up the written path, `..` past its start, until a folder is the `specs` found.
    let mut dir = normalize(file.parent().unwrap_or(Path::new("")));
    for _ in 0..=real.components().count() {
        let here = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            &dir
        };
        if canonical(here) == specs {
            return dir;
        }
        let up = dir.as_os_str().is_empty()
            || dir.components().next_back() == Some(Component::ParentDir);
        if up {
            dir.push("..");
        } else if !dir.pop() {
            break;
        }
    }
    specs.to_path_buf()
}

/// Where `path` really is: absolute, with symbolic links and `..` resolved; a path that
/// does not exist is resolved as far as it does (its nearest existing ancestor), the rest
/// kept as written.
pub fn canonical(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let absolute = if path.is_absolute() {
        normalize(path)
    } else {
        match std::env::current_dir() {
            Ok(cwd) => normalize(&cwd.join(path)),
            Err(_) => return normalize(path),
        }
    };
    let mut rest = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(p) = std::fs::canonicalize(at) {
            let mut p = p;
            p.extend(rest.iter().rev());
            return p;
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return absolute,
        }
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
