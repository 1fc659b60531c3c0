//! `t27 breaking`: the tree's public declarations against the same tree at a git revision
//! or in another folder.

use crate::files::load_and_check_declarations;
use crate::{Color, Format, git};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use t27_build::files::FsLoader;
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
    if comparison.breaks().next().is_some() {
        EXIT_BREAKS
    } else if comparison.not_compared().next().is_some() {
        EXIT_USAGE
    } else {
        EXIT_COMPATIBLE
    }
}

type Baseline = (Checked, Box<dyn Fn(&str) -> String>);

/// The old tree is a copy of the working folder: each path is looked for under it.
fn from_folder(dir: &Path, paths: &[PathBuf], root: Option<&Path>) -> Result<Baseline, String> {
    let mut files = Vec::new();
    for p in paths {
        if p.is_absolute() {
            return Err(format!(
                "with --against FOLDER, name the specs relative to the current folder ({} is absolute)",
                p.display()
            ));
        }
        let old = dir.join(p);
        if old.is_dir() {
            files.extend(t27_build::files::collect(&[old]).0);
        } else if old.exists() {
            files.push(old);
        }
    }
    let root = root.map(|r| {
        if r.is_absolute() {
            r.to_path_buf()
        } else {
            dir.join(r)
        }
    });
    let old = t27_check::check_declarations(&files, root.as_deref(), &mut FsLoader);
    io_errors(&old)?;
    Ok((old, Box::new(|name: &str| name.to_string())))
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
