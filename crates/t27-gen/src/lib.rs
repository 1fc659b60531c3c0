//! Host mirrors of t27 specs: every public constant of a module, with its computed value and
//! its documentation, as a TypeScript, a JavaScript (with its `.d.ts`) and a Rust module;
//! the functions of a module, with the engines' meaning, in TypeScript and JavaScript (`js`),
//! and its test blocks as test files for those hosts; and every constant as a JSON line
//! (`t27 consts`).
//!
//! Output is deterministic (no timestamps, declaration order) and carries a header naming the
//! spec and the SHA-256 of its source. The generators are pure: the CLI writes the files.

#![deny(clippy::unwrap_used)]

pub mod host;
pub mod js;
mod json;
mod lines;
mod names;
mod rust;
mod rustfn;
pub use names::{rust as rust_name, rust_module as rust_module_name};

/// The name a JavaScript or TypeScript mirror exports a spec function or constant by: the
/// spec's own, with a `_` after a reserved word.
pub fn js_name(name: &str) -> String {
    if names::ts_reserved(name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}
pub use rustfn::rust_host_program;
mod ts;

pub use json::consts_json;
pub use lines::Places;
pub use rust::{rust_include_file, rust_mod_file, rust_module};

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use t27_ir::{Function, Module, ModuleId, Program};

/// How the files of a mirror are named and placed in the output folder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// By the spec's path under its root: `queen/review_first.ts`, `queen/review_first.rs`
    /// (and, for Rust, a `mod.rs` in every folder).
    #[default]
    Tree,
    /// All in the output folder itself, named from that path: `queen-review-first.gen.ts`,
    /// `queen_review_first.rs` (and one `mod.rs`), to match a host's existing layout.
    Flat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    TypeScript,
    /// An ES module with a `.d.ts` beside it.
    JavaScript,
    Rust,
}

/// Every file of the mirror of the requested modules, by path relative to the output folder:
/// one per module, placed by its path under the spec root, and for Rust a `mod.rs` in every
/// folder naming its files and subfolders. `source` gives a module's source text; its header
/// names the spec by its path under the spec root ([`spec_name`]).
///
/// Only the modules `mirrored` says yes to are generated. A requested module it says no to
/// (one with errors) gets no file, but a `mod.rs` still names it when `kept` says its file is
/// already there, so that the host keeps compiling against the file it has.
pub fn mirror_files(
    p: &Program,
    target: Target,
    layout: Layout,
    source: &dyn Fn(ModuleId) -> String,
    mirrored: &dyn Fn(ModuleId) -> bool,
    kept: &dyn Fn(&Path) -> bool,
) -> BTreeMap<PathBuf, String> {
    let mut files = BTreeMap::new();
    let mut named = Vec::new();
    let places = Places::new(p, source);
    let place = |m: ModuleId, span| places.place(m, span);
    let mut runtime = false;
    for (i, m) in p.modules.iter().enumerate().filter(|(_, m)| m.requested) {
        let id = ModuleId(i as u32);
        let path = mirror_path(m, target, layout);
        if !mirrored(id) {
            if kept(&path) {
                named.push(path);
            }
            continue;
        }
        let (name, source) = (spec_name(m), source(id));
        let cx = js::FileContext {
            up: relative_root(&path),
            place: &place,
        };
        let text = match target {
            Target::TypeScript => js::js_module(p, id, js::Flavor::TypeScript, &name, &source, &cx),
            Target::JavaScript => {
                let types = js::dts_module(p, id, &name, &source, &cx);
                files.insert(path.with_extension("d.ts"), types);
                js::js_module(p, id, js::Flavor::JavaScript, &name, &source, &cx)
            }
            Target::Rust => {
                let mirror_of = |t: ModuleId| rust_path(p, id, t, layout, mirrored);
                rust_module(p, id, &name, &source, &place, &[], &mirror_of)
            }
        };
        runtime |= text.contains(js::RUNTIME_FILE);
        named.push(path.clone());
        files.insert(path, text);
    }
    if runtime {
        files.insert(PathBuf::from(js::RUNTIME_FILE), js::RUNTIME_JS.to_string());
        files.insert(
            PathBuf::from(js::RUNTIME_DTS_FILE),
            js::RUNTIME_DTS.to_string(),
        );
    }
    if target == Target::Rust {
        let mut children: BTreeMap<PathBuf, Vec<(String, bool)>> = BTreeMap::new();
        for path in &named {
            let mut dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            let mut child = path
                .file_stem()
                .map(|s| (s.to_string_lossy().into_owned(), false))
                .unwrap_or_default();
            loop {
                let list = children.entry(dir.clone()).or_default();
                if !list.iter().any(|(name, _)| *name == child.0) {
                    list.push(child.clone());
                }
                if dir.as_os_str().is_empty() {
                    break;
                }
                child = dir
                    .file_name()
                    .map(|s| (s.to_string_lossy().into_owned(), true))
                    .unwrap_or_default();
                dir = dir.parent().map(Path::to_path_buf).unwrap_or_default();
            }
        }
        for (dir, mut kids) in children {
            kids.sort();
            files.insert(dir.join("mod.rs"), rust_mod_file(&kids));
        }
    }
    files
}

/// The test files of the requested modules in `blocks` (each with its blocks, lowered),
/// beside their mirrors (`queen/dispatch.test.ts`, flat `queen-dispatch.gen.test.ts`), and
/// the places their traps and asserts name. In Rust, the tests are a `#[cfg(test)]` module
/// of the mirror (they use its private functions): the files are the mirrors themselves.
pub fn test_files(
    p: &Program,
    target: Target,
    layout: Layout,
    source: &dyn Fn(ModuleId) -> String,
    mirrored: &dyn Fn(ModuleId) -> bool,
    blocks: &BTreeMap<ModuleId, Vec<(t27_ir::TestId, &t27_ir::Body)>>,
) -> (BTreeMap<PathBuf, String>, BTreeMap<String, js::Site>) {
    let flavor = match target {
        Target::TypeScript => js::Flavor::TypeScript,
        _ => js::Flavor::JavaScript,
    };
    let places = Places::new(p, source);
    let place = |m: ModuleId, span| places.place(m, span);
    let (mut files, mut sites) = (BTreeMap::new(), BTreeMap::new());
    if target == Target::Rust {
        for (m, blocks) in blocks {
            let module = &p.modules[m.index()];
            let mirror_of = |t: ModuleId| rust_path(p, *m, t, layout, mirrored);
            let text = rust_module(
                p,
                *m,
                &spec_name(module),
                &source(*m),
                &place,
                blocks,
                &mirror_of,
            );
            files.insert(mirror_path(module, target, layout), text);
        }
        return (files, sites);
    }
    for (m, blocks) in blocks {
        let module = &p.modules[m.index()];
        let path = mirror_path(module, target, layout);
        let extension = path
            .extension()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default();
        let path = path.with_extension(format!("test.{extension}"));
        let cx = js::FileContext {
            up: relative_root(&path),
            place: &place,
        };
        let file = js::js_tests(p, *m, flavor, &spec_name(module), &source(*m), blocks, &cx);
        sites.extend(file.sites);
        files.insert(path, file.text);
    }
    if !files.is_empty() {
        files.insert(PathBuf::from(js::RUNTIME_FILE), js::RUNTIME_JS.to_string());
        files.insert(
            PathBuf::from(js::RUNTIME_DTS_FILE),
            js::RUNTIME_DTS.to_string(),
        );
    }
    (files, sites)
}

/// The Rust path from module `from`'s mirror to module `to`'s, when `to` is mirrored with it:
/// up to the output folder's module, then down (`super::super::queen::dispatch`), or, flat,
/// to a sibling (`super::queen_dispatch`). `mod.rs` trees and `t27-build`'s include file nest
/// the modules alike.
fn rust_path(
    p: &Program,
    from: ModuleId,
    to: ModuleId,
    layout: Layout,
    mirrored: &dyn Fn(ModuleId) -> bool,
) -> Option<String> {
    let target = &p.modules[to.index()];
    if !target.requested || !mirrored(to) {
        return None;
    }
    Some(match layout {
        Layout::Tree => {
            let ups = "super::".repeat(p.modules[from.index()].path.len());
            format!("{ups}{}", rust_module_path(target, layout).join("::"))
        }
        Layout::Flat => format!("super::{}", rust_module_path(target, layout).join("::")),
    })
}

/// The Rust modules, from the output folder's down, that hold module `m`'s mirror in
/// `layout`: one per folder and file of its path (`bots::review_valve` for
/// `bots/reviewValve.rs`), named as the `mod.rs` files and `t27-build`'s include file name
/// them (`names::rust_module`).
pub fn rust_module_path(m: &Module, layout: Layout) -> Vec<String> {
    mirror_path(m, Target::Rust, layout)
        .with_extension("")
        .components()
        .map(|c| names::rust_module(&c.as_os_str().to_string_lossy()))
        .collect()
}

/// The Rust modules two or more requested modules would both be in `layout`, each with those
/// modules (`bots/reviewValve.t27` and `bots/review_valve.t27` are both `bots::review_valve`,
/// in files of their own): a request with any cannot be generated for Rust.
pub fn shared_rust_modules(p: &Program, layout: Layout) -> Vec<(String, Vec<ModuleId>)> {
    let mut by_module: BTreeMap<String, Vec<ModuleId>> = BTreeMap::new();
    for (i, m) in p.modules.iter().enumerate().filter(|(_, m)| m.requested) {
        by_module
            .entry(rust_module_path(m, layout).join("::"))
            .or_default()
            .push(ModuleId(i as u32));
    }
    by_module
        .into_iter()
        .filter(|(_, ms)| ms.len() > 1)
        .collect()
}

/// The way from a generated file up to the output folder, for a relative import: `./` or
/// `../` once per folder between them.
fn relative_root(path: &Path) -> String {
    match path.components().count() {
        0 | 1 => "./".to_string(),
        n => "../".repeat(n - 1),
    }
}

/// How a generated file's header names its spec: by its path under the spec root, the same
/// whatever folder `t27` ran in and however the command line named the file.
pub fn spec_name(m: &Module) -> String {
    format!("{}.t27", m.path.join("/"))
}

/// The header both generators start with.
pub(crate) fn header(spec_name: &str, source: &str) -> String {
    let hash = Sha256::digest(source.as_bytes());
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "// Code generated by t27 from {spec_name}. DO NOT EDIT.\n// @generated\n// Source SHA-256: {hex}\n// Regenerate with `t27 gen`; check with `t27 gen --check`.\n"
    )
}

/// The file a module's mirror goes to, relative to the output folder: its path under the spec
/// root, with `-` (not allowed in Rust module names) written `_`.
pub fn output_path(m: &Module, extension: &str) -> std::path::PathBuf {
    let mut p = std::path::PathBuf::new();
    for seg in &m.path {
        p.push(seg.replace('-', "_"));
    }
    p.set_extension(extension);
    p
}

/// The file module `m`'s mirror goes to in `layout`, relative to the output folder.
pub fn mirror_path(m: &Module, target: Target, layout: Layout) -> PathBuf {
    match (layout, target) {
        (Layout::Tree, Target::TypeScript) => output_path(m, "ts"),
        (Layout::Tree, Target::JavaScript) => output_path(m, "js"),
        (Layout::Tree, Target::Rust) => output_path(m, "rs"),
        (Layout::Flat, Target::TypeScript) => {
            PathBuf::from(format!("{}.gen.ts", m.path.join("-").replace('_', "-")))
        }
        (Layout::Flat, Target::JavaScript) => {
            PathBuf::from(format!("{}.gen.js", m.path.join("-").replace('_', "-")))
        }
        (Layout::Flat, Target::Rust) => {
            PathBuf::from(format!("{}.rs", m.path.join("_").replace('-', "_")))
        }
    }
}

/// The files two or more requested modules would share in `layout` (`a/b_c` and `a-b/c` are
/// both `a-b-c.gen.ts` when flat), each with those modules: a request with any cannot be
/// generated.
pub fn shared_paths(p: &Program, target: Target, layout: Layout) -> Vec<(PathBuf, Vec<ModuleId>)> {
    let mut by_path: BTreeMap<PathBuf, Vec<ModuleId>> = BTreeMap::new();
    for (i, m) in p.modules.iter().enumerate().filter(|(_, m)| m.requested) {
        by_path
            .entry(mirror_path(m, target, layout))
            .or_default()
            .push(ModuleId(i as u32));
    }
    by_path.into_iter().filter(|(_, ms)| ms.len() > 1).collect()
}

/// A function's signature as the spec writes it: `fn name(a: u32) -> u8`.
pub(crate) fn signature(p: &Program, f: &Function) -> String {
    let params: Vec<String> = f
        .params
        .iter()
        .map(|l| &f.body.locals[l.index()])
        .map(|l| format!("{}: {}", l.name, p.ty_name(&l.ty)))
        .collect();
    let ret = if f.ret == t27_ir::Ty::Void {
        String::new()
    } else {
        format!(" -> {}", p.ty_name(&f.ret))
    };
    format!("fn {}({}){ret}", f.decl.name, params.join(", "))
}
