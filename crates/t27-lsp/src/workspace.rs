//! The files the server checks: every spec under the workspace folders, with the open
//! documents' texts in place of the disk's.

use crate::convert::path_of;
use lsp_types::Url;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use t27_check::Loader;

/// An open document: the editor's text and version.
pub struct Document {
    pub text: String,
    pub version: i32,
}

#[derive(Default)]
pub struct Workspace {
    /// The workspace folders the client named.
    pub folders: Vec<PathBuf>,
    /// The `.t27` files found under them (looked for again when a document is opened or saved).
    pub files: Vec<PathBuf>,
    pub documents: HashMap<PathBuf, Document>,
}

impl Workspace {
    pub fn new(folders: Vec<PathBuf>) -> Workspace {
        let mut w = Workspace {
            folders,
            ..Workspace::default()
        };
        w.find_files();
        w
    }

    /// Every `.t27` file under the folders, but in hidden folders and in the build and package
    /// folders (`target`, `node_modules`) an editor may have opened with the specs.
    pub fn find_files(&mut self) {
        let mut files = Vec::new();
        for folder in &self.folders {
            walk(folder, &mut files);
        }
        files.sort();
        files.dedup();
        self.files = files;
    }

    /// What to check: the workspace's files and every open document outside them.
    pub fn requested(&self) -> Vec<PathBuf> {
        let mut files = self.files.clone();
        let mut open: Vec<&PathBuf> = self
            .documents
            .keys()
            .filter(|p| !self.files.contains(p))
            .collect();
        open.sort();
        files.extend(open.into_iter().cloned());
        files
    }

    pub fn open(&mut self, uri: &Url, text: String, version: i32) {
        let path = path_of(uri);
        let known = self.files.contains(&path);
        self.documents.insert(path, Document { text, version });
        if !known {
            self.find_files();
        }
    }

    pub fn version(&self, path: &Path) -> Option<i32> {
        self.documents.get(path).map(|d| d.version)
    }
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "node_modules" {
                walk(&path, files);
            }
        } else if path.extension().is_some_and(|e| e == "t27") {
            files.push(t27_check::normalize(&path));
        }
    }
}

/// Reads an open document's text from the editor, any other file from the disk.
pub struct OverlayLoader<'w>(pub &'w Workspace);

impl Loader for OverlayLoader<'_> {
    fn read(&mut self, path: &Path) -> Result<Vec<u8>, String> {
        match self.0.documents.get(&t27_check::normalize(path)) {
            Some(doc) => Ok(doc.text.clone().into_bytes()),
            None => t27_build::files::FsLoader.read(path),
        }
    }

    // Where a file is and where its spec root is are the disk's answers, as for `t27 check`,
    // whatever folder the editor opened.
    fn locate(&mut self, path: &Path) -> PathBuf {
        t27_build::files::FsLoader.locate(path)
    }

    fn spec_root(&mut self, file: &Path, root: Option<&Path>) -> PathBuf {
        t27_build::files::FsLoader.spec_root(file, root)
    }
}
