//! `t27 doc`: the specs as a static site people read and try. An index of the modules, and a
//! page per module with its header comments, every declaration with its doc comment, value or
//! signature and its source (every name linked to its declaration, across modules), a
//! Try-it panel for every public function, computed in the page by the function's JavaScript
//! mirror, grids and truth tables where they say it better, and its blocks with their
//! outcomes from a run.
//!
//! Pure: [`site`] returns the files by path; the CLI writes them. The pages are plain HTML
//! with one stylesheet and classic scripts (a page opened from the file system cannot load
//! ES modules), so the site works from a folder and from any static host. The same input
//! gives the same bytes: no times, no dates, declarations in source order.

#![deny(clippy::unwrap_used)]

mod blocks;
mod code;
mod domain;
mod html;
mod index;
mod page;
mod prose;
mod script;
mod tryit;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use t27_check::Checked;
use t27_gen::{Layout, Target};
use t27_ir::{ModuleId, TestId};
use t27_run::BlockReport;

const CSS: &str = include_str!("../assets/doc.css");
const JS: &str = include_str!("../assets/doc.js");

/// What the pages are built from.
pub(crate) struct Site<'a> {
    pub checked: &'a Checked,
    /// The requested modules, by path.
    pub modules: Vec<ModuleId>,
    /// Each block's report from the run, when there was one.
    pub reports: HashMap<TestId, &'a BlockReport>,
    pub ran: bool,
    /// Every name written, sorted by place once for all the pages.
    pub names: code::Names<'a>,
}

/// What one module's page can run.
pub(crate) struct Run {
    /// Whether its JavaScript mirror is on the site: it and everything it imports checked.
    pub mirrored: bool,
    /// Why not, in words.
    pub fault: Option<String>,
}

/// Every file of the site for the requested modules of `checked`, by path relative to the
/// output folder. `reports` are the blocks' outcomes from a run (`t27 doc --run`), or `None`.
///
/// A module with errors still gets its page (what checked is shown, with why Try it is off);
/// only the modules that checked, with all they import, get a mirror and Try-it panels.
pub fn site(
    checked: &Checked,
    reports: Option<&[BlockReport]>,
) -> Result<BTreeMap<PathBuf, String>, String> {
    let p = &checked.program;
    let mut modules: Vec<ModuleId> = (0..p.modules.len())
        .map(|i| ModuleId(i as u32))
        .filter(|m| p.modules[m.index()].requested)
        .collect();
    modules.sort_by(|a, b| p.modules[a.index()].path.cmp(&p.modules[b.index()].path));
    let site = Site {
        checked,
        modules,
        reports: reports
            .unwrap_or_default()
            .iter()
            .map(|r| (r.test, r))
            .collect(),
        ran: reports.is_some(),
        names: code::Names::new(checked),
    };
    let faults = t27_check::module_faults(checked);
    let source = |m: ModuleId| checked.sources.get(p.modules[m.index()].file).text.clone();
    let mirrored = |m: ModuleId| faults[m.index()].is_none();
    let mirrors = t27_gen::mirror_files(
        p,
        Target::JavaScript,
        Layout::Tree,
        &source,
        &mirrored,
        &|_| false,
    );
    let mut files = BTreeMap::new();
    for (path, code) in &mirrors {
        let Some(text) = path.to_str() else { continue };
        if text == t27_gen::js::RUNTIME_FILE {
            files.insert(path.clone(), script::runtime(code)?);
        } else if let Some(module) = text.strip_suffix(".js") {
            files.insert(path.clone(), script::module(module, code)?);
        }
    }
    for m in &site.modules {
        let run = Run {
            mirrored: faults[m.index()].is_none(),
            fault: faults[m.index()]
                .as_ref()
                .map(|f| f.describe(p, &checked.sources)),
        };
        let path = PathBuf::from(html::page_path(p, *m));
        files.insert(path, page::module_page(&site, *m, &run));
    }
    files.insert(
        PathBuf::from("index.html"),
        index::index_page(&site, &faults),
    );
    files.insert(PathBuf::from("doc.css"), CSS.to_string());
    files.insert(PathBuf::from("doc.js"), JS.to_string());
    Ok(files)
}
