//! Which files to check again after a change: the changed documents and the modules that
//! import them, directly or not, and no others. A module's diagnostics depend only on its own
//! text and on the modules it imports, so the rest of the workspace keeps what was published
//! for it. The whole workspace is checked at the start, when a file appears, is saved or
//! closed, and before a request that needs every module (references, rename, workspace
//! symbols).

use crate::workspace::{OverlayLoader, Workspace};
use std::collections::{HashMap, HashSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::time::Instant;
use t27_ide::Analysis;

#[derive(Default)]
pub struct Checks {
    /// The latest analysis: of the whole workspace when `whole`, else of the files a change
    /// affected (and what they import).
    pub analysis: Option<Analysis>,
    whole: bool,
    /// Documents changed since the latest analysis.
    changed: HashSet<PathBuf>,
    /// Whether the next analysis must be of the whole workspace.
    need_whole: bool,
    /// What each file imports, from the analyses so far.
    imports: HashMap<PathBuf, Vec<PathBuf>>,
}

/// What an analysis checked: the files whose diagnostics it decides, and a line for the log.
pub struct Checked {
    pub files: Vec<PathBuf>,
    pub log: String,
}

impl Checks {
    pub fn changed(&mut self, path: PathBuf) {
        self.changed.insert(path);
    }

    /// The workspace changed beyond a document's text (a file opened, saved or closed).
    pub fn all_changed(&mut self) {
        self.need_whole = true;
    }

    pub fn is_stale(&self) -> bool {
        self.analysis.is_none() || self.need_whole || !self.changed.is_empty()
    }

    /// Checks what changed; `None` when nothing did, or checking failed (a bug: the previous
    /// analysis stays).
    pub fn refresh(&mut self, workspace: &Workspace) -> Option<Checked> {
        if self.analysis.is_none() || self.need_whole {
            return self.check_whole(workspace);
        }
        if self.changed.is_empty() {
            return None;
        }
        let affected = self.affected(workspace);
        if affected.is_empty() {
            return self.check_whole(workspace);
        }
        self.check(workspace, affected, false)
    }

    /// Makes the analysis one of the whole workspace, checking it if it is not.
    pub fn ensure_whole(&mut self, workspace: &Workspace) -> Option<Checked> {
        if self.whole && !self.is_stale() {
            return None;
        }
        self.check_whole(workspace)
    }

    fn check_whole(&mut self, workspace: &Workspace) -> Option<Checked> {
        self.check(workspace, workspace.requested(), true)
    }

    /// The changed documents and every file that imports one of them, directly or not.
    fn affected(&self, workspace: &Workspace) -> Vec<PathBuf> {
        let mut affected: Vec<PathBuf> = self.changed.iter().cloned().collect();
        let mut i = 0;
        while i < affected.len() {
            let target = affected[i].clone();
            for (file, imports) in &self.imports {
                if imports.contains(&target) && !affected.contains(file) {
                    affected.push(file.clone());
                }
            }
            i += 1;
        }
        let known = workspace.requested();
        affected.retain(|f| known.contains(f));
        affected.sort();
        affected
    }

    fn check(
        &mut self,
        workspace: &Workspace,
        files: Vec<PathBuf>,
        whole: bool,
    ) -> Option<Checked> {
        let started = Instant::now();
        let analysed = catch_unwind(AssertUnwindSafe(|| {
            Analysis::new(&files, None, &mut OverlayLoader(workspace))
        }))
        .ok()?;
        for (path, imports) in analysed.imports() {
            self.imports.insert(path, imports);
        }
        let log = format!(
            "t27: checked {} of {} files{} in {:.1} ms",
            files.len(),
            workspace.requested().len(),
            if whole { " (the whole workspace)" } else { "" },
            started.elapsed().as_secs_f64() * 1e3
        );
        self.analysis = Some(analysed);
        self.whole = whole;
        self.changed.clear();
        self.need_whole = false;
        Some(Checked { files, log })
    }
}
