//! The spec files the parser's tests read: every fixture and seed of the repository.

use std::path::{Path, PathBuf};

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "t27") {
            out.push(path);
        }
    }
}

/// Every `.t27` file under `tests/fixtures` and `specs`, sorted, with its text as `decode`
/// gives it.
pub(crate) fn specs() -> Vec<(PathBuf, String)> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    collect(&repo.join("tests/fixtures"), &mut files);
    collect(&repo.join("specs"), &mut files);
    files.sort();
    assert!(files.len() > 50, "fixtures found: {}", files.len());
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).expect("fixture read");
            let (src, _) = crate::decode(t27_diag::FileId(0), bytes);
            (path, src)
        })
        .collect()
}
