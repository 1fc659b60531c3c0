//! What an editor asks of a t27 tree, answered from one check of it.
//!
//! [`Analysis`] checks a set of files (through a [`Loader`], so an editor's unsaved text is
//! what is checked; this crate does no I/O) with [`t27_check::check_names`], and answers on
//! byte offsets: diagnostics, hover, definition, references, rename, symbols, completion,
//! fixes and single test runs. The language server (`t27-lsp`) turns those into LSP
//! positions and messages.

#![deny(clippy::unwrap_used)]

mod complete;
mod hover;
mod navigate;
mod run;
mod symbols;

pub use complete::{Completion, CompletionKind};
pub use hover::Hover;
pub use navigate::RenameError;
pub use run::TestRun;
pub use symbols::{Symbol, SymbolKind};

use std::path::{Path, PathBuf};
use t27_check::{Checked, Loader, NameTarget, NameUse};
use t27_diag::{Diagnostic, Edit, FileId, Span};
use t27_ir::ModuleId;

/// One check of a tree, and the answers drawn from it.
pub struct Analysis {
    checked: Checked,
}

/// A place in a file of the analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub path: PathBuf,
    pub span: Span,
}

/// A fix offered for a diagnostic: its replacements, all in the diagnostic's file.
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    pub title: String,
    pub diagnostic: Diagnostic,
    pub edits: Vec<Edit>,
}

impl Analysis {
    /// Checks `files` and everything they import. `root` is the spec root, as for
    /// `t27 check --root`; otherwise `loader` says where each file's root is (on a disk,
    /// `t27_build::files::FsLoader`: the nearest folder named `specs` of the file's real place).
    pub fn new(files: &[PathBuf], root: Option<&Path>, loader: &mut dyn Loader) -> Analysis {
        Analysis {
            checked: t27_check::check_names(files, root, loader),
        }
    }

    pub fn checked(&self) -> &Checked {
        &self.checked
    }

    /// Every file the check read (the requested ones and those they import).
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.checked.sources.iter().map(|(_, f)| f.path.as_path())
    }

    /// What each checked module's file imports: the files of the modules it `use`s.
    pub fn imports(&self) -> Vec<(PathBuf, Vec<PathBuf>)> {
        let p = &self.checked.program;
        let path = |file: FileId| t27_check::normalize(self.path_of(file));
        p.modules
            .iter()
            .map(|m| {
                (
                    path(m.file),
                    m.imports
                        .iter()
                        .map(|i| path(p.modules[i.index()].file))
                        .collect(),
                )
            })
            .collect()
    }

    pub fn file_id(&self, path: &Path) -> Option<FileId> {
        let wanted = t27_check::normalize(path);
        self.checked
            .sources
            .iter()
            .find(|(_, f)| t27_check::normalize(&f.path) == wanted)
            .map(|(id, _)| id)
    }

    pub fn path_of(&self, file: FileId) -> &Path {
        &self.checked.sources.get(file).path
    }

    pub fn text(&self, file: FileId) -> &str {
        &self.checked.sources.get(file).text
    }

    /// The diagnostics of `path`, in source order.
    pub fn diagnostics(&self, path: &Path) -> Vec<&Diagnostic> {
        let Some(file) = self.file_id(path) else {
            return Vec::new();
        };
        self.checked
            .diagnostics
            .iter()
            .filter(|d| d.file == file)
            .collect()
    }

    /// The diagnostics of every file the check read, by file (files without any included,
    /// so an editor can clear what it showed before).
    pub fn all_diagnostics(&self) -> Vec<(&Path, Vec<&Diagnostic>)> {
        self.checked
            .sources
            .iter()
            .map(|(id, f)| {
                let diags = self
                    .checked
                    .diagnostics
                    .iter()
                    .filter(|d| d.file == id)
                    .collect();
                (f.path.as_path(), diags)
            })
            .collect()
    }

    /// The fixes of the diagnostics in `path` whose span meets `span`.
    pub fn fixes(&self, path: &Path, span: Span) -> Vec<Fix> {
        self.diagnostics(path)
            .into_iter()
            .filter(|d| !d.fix.is_empty())
            .filter(|d| d.primary.span.start <= span.end && span.start <= d.primary.span.end)
            .map(|d| Fix {
                title: fix_title(d),
                diagnostic: d.clone(),
                edits: d.fix.clone(),
            })
            .collect()
    }

    /// Every certain fix of `path` at once, as `t27 fix` applies them (a fix that overlaps
    /// one before it waits for the next run).
    pub fn fix_all(&self, path: &Path) -> Vec<Edit> {
        let mut edits: Vec<Edit> = Vec::new();
        for d in self.diagnostics(path) {
            let overlaps = d.fix.iter().any(|e| {
                edits
                    .iter()
                    .any(|x| e.span.start < x.span.end && x.span.start < e.span.end)
            });
            if !overlaps {
                edits.extend(d.fix.iter().cloned());
            }
        }
        edits.sort_by_key(|e| (e.span.start, e.span.end));
        edits
    }

    /// The name written at `offset` of `file` (the one the offset is in, or ends at).
    pub(crate) fn name_at(&self, file: FileId, offset: u32) -> Option<NameUse> {
        let names = &self.checked.names;
        let from = names.partition_point(|n| n.file < file);
        names[from..]
            .iter()
            .take_while(|n| n.file == file && n.span.start <= offset)
            .filter(|n| n.span.start <= offset && offset <= n.span.end)
            .last()
            .cloned()
            .or_else(|| self.declaration_at(file, offset))
    }

    /// The module of `file`.
    pub(crate) fn module_of(&self, file: FileId) -> Option<ModuleId> {
        self.checked
            .program
            .modules
            .iter()
            .position(|m| m.file == file)
            .map(|i| ModuleId(i as u32))
    }
}

fn fix_title(d: &Diagnostic) -> String {
    match &d.help {
        Some(help) => format!("{}: {help}", d.code.0),
        None => format!("{}: apply the fix", d.code.0),
    }
}

/// Whether a target names the same thing as another (a local by where it is declared).
pub(crate) fn same_target(a: &NameTarget, b: &NameTarget) -> bool {
    match (a, b) {
        (
            NameTarget::Local {
                file: fa, decl: da, ..
            },
            NameTarget::Local {
                file: fb, decl: db, ..
            },
        ) => fa == fb && da == db,
        _ => a == b,
    }
}
