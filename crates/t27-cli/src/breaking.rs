//! `t27 breaking`: the tree's public declarations against the same tree at a git revision
//! or in another folder.

use crate::files::{load_and_check_declarations, requested_errors};
use crate::{Color, Format, git};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use t27_build::files::{FsLoader, canonical};
use t27_check::{Checked, MemoryLoader};

/// 0: nothing breaks; 1: a break no `allow-break` allows; 2: a usage error (no such
/// revision, not a repository, a path that is not there), or a declaration that could not be
/// compared because of an error in either tree (when nothing else breaks).
pub const EXIT_COMPATIBLE: u8 = 0;
pub const EXIT_BREAKS: u8 = 1;
pub const EXIT_USAGE: u8 = 2;

pub struct Options {
    pub paths: Vec<PathBuf>,
    pub against: String,
    pub root: Option<PathBuf>,
    pub format: Format,
    pub color: Color,
}

pub fn run(opts: &Options) -> u8 {
    let paths = if opts.paths.is_empty() {
        vec![PathBuf::from("specs")]
    } else {
        opts.paths.clone()
    };
    let Ok(new) = load_and_check_declarations(&paths, opts.root.as_deref()) else {
        return EXIT_USAGE;
    };
    let against = Path::new(&opts.against);
    // A full commit id (what `git merge-base` prints) is shown as its first 12 digits.
    let full_id = opts.against.len() == 40 && opts.against.bytes().all(|b| b.is_ascii_hexdigit());
    let label = if full_id {
        &opts.against[..12]
    } else {
        &opts.against
    };
    let baseline = if against.is_dir() {
        from_folder(against, &paths, opts.root.as_deref())
    } else {
        from_revision(&opts.against, label, &paths, opts.root.as_deref())
    };
    let (old, old_name) = match baseline {
        Ok(b) => b,
        Err(why) => {
            eprintln!("error: {why}");
            return EXIT_USAGE;
        }
    };
    for (tree, checked) in [("the tree", &new), (label, &old)] {
        let errors = checked.error_count();
        if errors > 0 {
            eprintln!(
                "note: {errors} error{} in {tree} (`t27 check` shows them): the declarations they touch are not compared",
                if errors == 1 { "" } else { "s" }
            );
        }
    }
    let comparison = t27_breaking::compare(&old, &new);
    let names = t27_breaking::Names {
        against: label,
        old_file: &old_name,
    };
    match opts.format {
        Format::Json => out!("{}", comparison.json(&old, &new, &names)),
        Format::Human => {
            let color = match opts.color {
                Color::Always => true,
                Color::Never => false,
                Color::Auto => {
                    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
                }
            };
            out!("{}", comparison.text(&old, &new, &names, color));
        }
    }
    // An error in either tree may hide declarations (a syntax error can swallow several),
    // so a comparison that found nothing breaking among the rest is still no pass.
    let errors = requested_errors(&new).errors + requested_errors(&old).errors;
    if comparison.breaks().next().is_some() {
        EXIT_BREAKS
    } else if comparison.not_compared().next().is_some() {
        EXIT_USAGE
    } else if errors > 0 {
        eprintln!(
            "error: nothing breaks among the declarations that could be read, but the errors above may hide others: fix them and compare again"
        );
        EXIT_USAGE
    } else {
        EXIT_COMPATIBLE
    }
}

type Baseline = (Checked, Box<dyn Fn(&str) -> String>);

/// The old tree is a copy of the current folder: each spec of the current folder is read
/// from the same place under `dir`, and the old tree is checked with the paths, spec roots
/// and module paths the current tree has, so that its modules are compared with the same
/// modules of the current tree from whatever folder the command runs. A file a `use` reaches
/// outside the current folder is not in the copy: it is read as it is now.
fn from_folder(dir: &Path, paths: &[PathBuf], root: Option<&Path>) -> Result<Baseline, String> {
    let here = canonical(Path::new("."));
    let mut files = Vec::new();
    let mut looked_for = Vec::new();
    for p in paths {
        let real = canonical(p);
        let Ok(rel) = real.strip_prefix(&here) else {
            return Err(format!(
                "with --against FOLDER, the specs must be in the current folder, which FOLDER stands for: {} is not (it is {}); run t27 from a folder that holds them",
                p.display(),
                real.display()
            ));
        };
        let old = dir.join(rel);
        looked_for.push(old.clone());
        if old.is_dir() {
            for f in t27_build::files::collect(std::slice::from_ref(&old)).0 {
                let below = f.strip_prefix(&old).unwrap_or(&f);
                files.push(p.join(below));
            }
        } else if old.exists() {
            files.push(p.clone());
        }
    }
    if files.is_empty() {
        let shown: Vec<String> = looked_for
            .iter()
            .take(3)
            .map(|p| p.display().to_string())
            .collect();
        return Err(format!(
            "no module of the tree is in {}: looked for {}{} (the folder stands for the current one, {}); name the folder that holds the earlier copy of this folder, or a git revision",
            dir.display(),
            shown.join(", "),
            if looked_for.len() > 3 { ", ..." } else { "" },
            here.display()
        ));
    }
    let mut loader = Copy {
        here: here.clone(),
        dir: dir.to_path_buf(),
    };
    let old = t27_check::check_declarations(&files, root, &mut loader);
    io_errors(&old)?;
    let dir = dir.to_path_buf();
    let name = move |name: &str| match canonical(Path::new(name)).strip_prefix(&here) {
        Ok(rel) => dir.join(rel).display().to_string(),
        Err(_) => name.to_string(),
    };
    Ok((old, Box::new(name)))
}

/// Reads the current folder's files from its copy `dir`, any other from the disk.
struct Copy {
    here: PathBuf,
    dir: PathBuf,
}

impl t27_check::Loader for Copy {
    fn read(&mut self, path: &Path) -> Result<Vec<u8>, String> {
        match canonical(path).strip_prefix(&self.here) {
            Ok(rel) => FsLoader.read(&self.dir.join(rel)),
            Err(_) => FsLoader.read(path),
        }
    }

    fn locate(&mut self, path: &Path) -> PathBuf {
        FsLoader.locate(path)
    }

    fn spec_root(&mut self, file: &Path, root: Option<&Path>) -> PathBuf {
        FsLoader.spec_root(file, root)
    }
}

/// The old tree is the same paths at a git revision of the repository they are in.
fn from_revision(
    rev: &str,
    label: &str,
    paths: &[PathBuf],
    root: Option<&Path>,
) -> Result<Baseline, String> {
    let absolute = |p: &Path| std::fs::canonicalize(p).map_err(|e| format!("{}: {e}", p.display()));
    let first = absolute(&paths[0])?;
    let dir = if first.is_dir() {
        first.clone()
    } else {
        first.parent().map_or(first.clone(), Path::to_path_buf)
    };
    let revision = git::read(&dir, rev)?;
    let mut requested = Vec::new();
    for p in paths {
        let p = absolute(p)?;
        let mut under: Vec<&PathBuf> = revision
            .files
            .keys()
            .filter(|f| {
                if p.is_dir() {
                    f.starts_with(&p)
                } else {
                    **f == p
                }
            })
            .collect();
        under.sort();
        requested.extend(under.into_iter().cloned());
    }
    if requested.is_empty() {
        let shown: Vec<String> = paths
            .iter()
            .take(3)
            .map(|p| {
                let real = canonical(p);
                let rel = real.strip_prefix(&revision.top).unwrap_or(&real);
                if rel.as_os_str().is_empty() {
                    format!("{label}:.")
                } else {
                    format!("{label}:{}", rel.display())
                }
            })
            .collect();
        return Err(format!(
            "no module of the tree is at `{rev}`: looked for {}{} in the repository at {} ({} `.t27` file{} there at that revision); if the specs are newer than `{rev}`, nothing can be compared against it: name a later revision, or check the paths",
            shown.join(", "),
            if paths.len() > 3 { ", ..." } else { "" },
            revision.top.display(),
            revision.files.len(),
            if revision.files.len() == 1 { "" } else { "s" },
        ));
    }
    let root = root.map(absolute).transpose()?;
    let top = revision.top.clone();
    let mut loader = MemoryLoader::new(revision.files);
    let old = t27_check::check_declarations(&requested, root.as_deref(), &mut loader);
    io_errors(&old)?;
    let label = label.to_string();
    let name = move |name: &str| {
        let rel = Path::new(name)
            .strip_prefix(&top)
            .unwrap_or(Path::new(name));
        format!("{label}:{}", rel.display())
    };
    Ok((old, Box::new(name)))
}

fn io_errors(old: &Checked) -> Result<(), String> {
    match old.io_errors.first() {
        Some((path, why)) => Err(format!("{}: {why}", path.display())),
        None => Ok(()),
    }
}
