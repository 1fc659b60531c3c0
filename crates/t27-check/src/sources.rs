//! The source files of one check, in the order they were loaded.

use std::path::PathBuf;
use std::sync::Arc;
use t27_diag::{FileId, Sources};

pub struct SourceFile {
    /// The path as shown in diagnostics: as the user wrote it, or joined onto their root.
    pub name: String,
    pub path: PathBuf,
    pub text: String,
}

/// Clones share the texts: the threads that lower bodies read them again (`bodies.rs`).
#[derive(Clone, Default)]
pub struct SourceMap {
    files: Vec<Arc<SourceFile>>,
}

impl SourceMap {
    pub fn add(&mut self, path: PathBuf, text: String) -> FileId {
        let name = path.display().to_string();
        self.files.push(Arc::new(SourceFile { name, path, text }));
        FileId(self.files.len() as u32 - 1)
    }
    pub fn get(&self, file: FileId) -> &SourceFile {
        &self.files[file.0 as usize]
    }
    /// The file, to read while the map is borrowed elsewhere.
    pub fn shared(&self, file: FileId) -> Arc<SourceFile> {
        Arc::clone(&self.files[file.0 as usize])
    }
    pub fn len(&self) -> usize {
        self.files.len()
    }
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), &**f))
    }
}

impl Sources for SourceMap {
    fn name(&self, file: FileId) -> &str {
        &self.get(file).name
    }
    fn text(&self, file: FileId) -> &str {
        &self.get(file).text
    }
}
