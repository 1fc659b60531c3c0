//! The specs of a git revision, read through `git` without touching the work tree.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Every `.t27` file of one commit, by its absolute path as it would be in the work tree.
pub struct Revision {
    /// The repository's top folder.
    pub top: PathBuf,
    pub files: HashMap<PathBuf, Vec<u8>>,
}

fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

/// Reads `rev` of the repository that holds `dir`.
pub fn read(dir: &Path, rev: &str) -> Result<Revision, String> {
    let top = git(dir, &["rev-parse", "--show-toplevel"]).map_err(|_| {
        format!(
            "{} is not in a git repository, and there is no folder named `{rev}`",
            dir.display()
        )
    })?;
    let top = PathBuf::from(String::from_utf8_lossy(&top).trim_end_matches(['\n', '\r']));
    let spec = format!("{rev}^{{commit}}");
    let commit = git(
        &top,
        &[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ],
    )
    .map_err(|_| {
        format!(
            "no such revision: `{rev}` (in the repository at {})",
            top.display()
        )
    })?;
    let commit = String::from_utf8_lossy(&commit).trim().to_string();
    let listing = git(
        &top,
        &["ls-tree", "-r", "-z", "--full-tree", "--name-only", &commit],
    )?;
    let names: Vec<String> = listing
        .split(|&b| b == 0)
        .filter(|n| n.ends_with(b".t27"))
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect();
    let contents = cat_files(&top, &commit, &names)?;
    let files = names
        .iter()
        .zip(contents)
        .map(|(n, bytes)| (top.join(n), bytes))
        .collect();
    Ok(Revision { top, files })
}

/// The contents of `names` at `commit`, in one `git cat-file --batch`.
fn cat_files(top: &Path, commit: &str, names: &[String]) -> Result<Vec<Vec<u8>>, String> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(top)
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let mut input = String::new();
    for n in names {
        input.push_str(&format!("{commit}:{n}\n"));
    }
    let mut stdin = child.stdin.take().ok_or("git cat-file has no input")?;
    // Written from a thread: git writes while it reads, and both pipes could fill.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let mut out = Vec::new();
    child
        .stdout
        .take()
        .ok_or("git cat-file has no output")?
        .read_to_end(&mut out)
        .map_err(|e| e.to_string())?;
    let _ = writer.join();
    let _ = child.wait();
    let mut files = Vec::with_capacity(names.len());
    let mut rest = &out[..];
    for n in names {
        let header_end = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| format!("git cat-file stopped before {n}"))?;
        let header = String::from_utf8_lossy(&rest[..header_end]).into_owned();
        let size: usize = header
            .rsplit(' ')
            .next()
            .and_then(|s| s.parse().ok())
            .filter(|_| header.contains(" blob "))
            .ok_or_else(|| format!("git cat-file cannot read {n}: {header}"))?;
        let body = header_end + 1;
        if rest.len() < body + size + 1 {
            return Err(format!("git cat-file cut {n} short"));
        }
        files.push(rest[body..body + size].to_vec());
        rest = &rest[body + size + 1..];
    }
    Ok(files)
}
