//! The t27 checker: from source files to a typed, constant-evaluated program.
//!
//! [`check`] loads the requested files and every module they `use` (through a [`Loader`]; this
//! crate does no I/O of its own), parses them, resolves names across modules, type-checks every
//! declaration and body, computes every constant with unbounded precision, and decides every
//! assert that uses only constants. Each phase keeps going after an error; the result holds the
//! typed IR ([`t27_ir::Program`]) and every diagnostic, sorted by file and position.

#![deny(clippy::unwrap_used)]

mod bodies;
mod body;
mod broken;
mod calls;
mod checker;
mod coerce;
mod collect;
mod consteval;
mod consts;
mod cycles;
mod expr;
mod floats;
mod invariants;
mod isolate;
mod lints;
mod load;
mod names;
mod ops;
mod sources;
mod suggest;
mod types;
mod views;

pub use bodies::{BlockLowerer, LoweredBlock};
pub use broken::BrokenUse;
pub use checker::ImportUse;
pub use isolate::{Blocker, Isolation, ModuleFault, Reach, Step, module_faults};
pub use load::{Loader, MemoryLoader, normalize, spec_root};
pub use names::{LocalDecl, NameTarget, NameUse};
pub use sources::{SourceFile, SourceMap};
/// The stack of a thread that parses, checks or lowers.
pub use t27_syntax::THREAD_STACK;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use t27_diag::Diagnostic;
use t27_ir::Program;

/// The outcome of checking a set of files.
pub struct Checked {
    /// Shared with the [`BlockLowerer`]s that lower its blocks again.
    pub program: Arc<Program>,
    pub sources: SourceMap,
    /// Every diagnostic, sorted by file, then position.
    pub diagnostics: Vec<Diagnostic>,
    /// Requested files that could not be read: (path, reason).
    pub io_errors: Vec<(PathBuf, String)>,
    /// The syntax tree of every module, in the order of `program.modules`. The statements of
    /// function, test and invariant bodies are gone (the IR holds them); their spans remain.
    pub syntax: Vec<t27_syntax::ast::SourceFile>,
    /// Every name resolved through a `use` that has an error, where it was written: what ties
    /// a declaration to the broken `use` it reaches (see [`Isolation`]).
    pub import_uses: Vec<ImportUse>,
    /// Every name written for a declaration that has an error, in source order: what ties a
    /// declaration to what it reaches when its IR no longer says (see [`BrokenUse`]).
    pub broken_uses: Vec<BrokenUse>,
    pub stats: Stats,
    /// Whether the blocks were checked with the rest ([`check`]): their diagnostics are in
    /// `diagnostics`, their assert counts and references in `program.tests`. Otherwise
    /// ([`check_declarations`]) each [`LoweredBlock`] carries its own.
    pub blocks_checked: bool,
    /// Whether `program.functions` hold their bodies: not after [`check_diagnostics`].
    pub bodies_kept: bool,
    /// Every name written and what it stands for, in source order: only from
    /// [`check_names`] (empty otherwise).
    pub names: Vec<NameUse>,
    lowerer: BlockLowerer,
}

/// Sizes and phase times, for throughput figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub bytes: usize,
    pub tokens: usize,
    /// Reading, lexing and parsing every module.
    pub load_parse: Duration,
    /// Name resolution, type checking and constant evaluation.
    pub check: Duration,
}

impl Checked {
    /// A lowerer of this program's test and invariant blocks (see [`BlockLowerer`]).
    pub fn block_lowerer(&self) -> BlockLowerer {
        self.lowerer.fork()
    }
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
    pub fn warning_count(&self) -> usize {
        self.diagnostics.len() - self.error_count()
    }
}

/// Checks `files` (and every module they import). `root` overrides the spec root, which is
/// otherwise the nearest ancestor folder named `specs` of each file.
pub fn check(files: &[PathBuf], root: Option<&Path>, loader: &mut dyn Loader) -> Checked {
    check_in(files, root, loader, PARALLEL_BODIES_FROM, Keep::All)
}

/// [`check`] for its diagnostics alone, what `t27 check` needs: every function body is
/// dropped as soon as it is lowered, so `program.functions` have empty bodies (their
/// signatures stay). Nothing in checking reads another function's body, so the diagnostics
/// are [`check`]'s; the IR of a large tree is never held whole, which is most of the
/// memory, and on the machines measured the time, of checking it (BENCHMARKS.md).
pub fn check_diagnostics(
    files: &[PathBuf],
    root: Option<&Path>,
    loader: &mut dyn Loader,
) -> Checked {
    check_in(files, root, loader, PARALLEL_BODIES_FROM, Keep::Diagnostics)
}

/// [`check`] but for the test and invariant blocks, which are left to the runner: it lowers
/// each as it runs it ([`BlockLowerer`]), with its diagnostics, once. What `t27 test` does: a
/// block is read, checked and run once, and no block's diagnostics are in
/// [`Checked::diagnostics`].
pub fn check_declarations(
    files: &[PathBuf],
    root: Option<&Path>,
    loader: &mut dyn Loader,
) -> Checked {
    check_in(
        files,
        root,
        loader,
        PARALLEL_BODIES_FROM,
        Keep::Declarations,
    )
}

/// [`check`], keeping where every name is written and what it stands for
/// ([`Checked::names`]): what an editor's hover, go to definition, references and rename read.
pub fn check_names(files: &[PathBuf], root: Option<&Path>, loader: &mut dyn Loader) -> Checked {
    check_in(files, root, loader, PARALLEL_BODIES_FROM, Keep::Names)
}

/// What a check keeps besides its diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keep {
    /// Blocks checked with the rest, function bodies in the program ([`check`]).
    All,
    /// Blocks left to the runner ([`check_declarations`]).
    Declarations,
    /// Blocks checked, each function body dropped once lowered ([`check_diagnostics`]).
    Diagnostics,
    /// [`Keep::All`] and the names ([`check_names`]).
    Names,
}

/// Requests of this much source and more have their bodies lowered on two threads.
const PARALLEL_BODIES_FROM: usize = 256 * 1024;

fn check_in(
    files: &[PathBuf],
    root: Option<&Path>,
    loader: &mut dyn Loader,
    parallel_from: usize,
    keep: Keep,
) -> Checked {
    let check_blocks = keep != Keep::Declarations;
    let bodies_kept = keep != Keep::Diagnostics;
    let started = Instant::now();
    let loaded = load::load_all(files, root, loader);
    let load_parse = started.elapsed();
    let started = Instant::now();
    let stats = Stats {
        bytes: loaded.bytes,
        tokens: loaded.tokens,
        load_parse,
        check: Duration::ZERO,
    };
    let io_errors = loaded.io_errors;
    let checker::Output {
        program,
        lowerer,
        sources,
        mut diagnostics,
        syntax,
        import_uses,
        broken_uses,
        mut names,
    } = checker::Checker::run(
        loaded.modules,
        loaded.sources,
        loaded.diagnostics,
        parallel_from,
        check_blocks,
        bodies_kept,
        keep == Keep::Names,
    );
    names.sort_by_key(|n| (n.file, n.span.start, n.span.end));
    names.dedup_by(|a, b| a.file == b.file && a.span == b.span);
    diagnostics.sort_by_key(|d| (d.file, d.primary.span.start, d.primary.span.end));
    diagnostics.dedup();
    // In source order, whichever thread lowered the body a name was written in.
    let mut import_uses = import_uses;
    import_uses.sort_by_key(|u| (u.file, u.site.start, u.import.start));
    let mut broken_uses = broken_uses;
    broken_uses.sort_by_key(|u| (u.file, u.site.start));
    broken_uses.dedup();
    let stats = Stats {
        check: started.elapsed(),
        ..stats
    };
    Checked {
        program,
        sources,
        diagnostics,
        io_errors,
        syntax,
        import_uses,
        broken_uses,
        stats,
        blocks_checked: check_blocks,
        bodies_kept,
        names,
        lowerer,
    }
}

#[cfg(test)]
mod parallel_bodies {
    use super::*;

    fn tree(dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).expect("fixture folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                tree(&path, out);
            } else if path.extension().is_some_and(|e| e == "t27") {
                let bytes = std::fs::read(&path).expect("fixture read");
                out.push((path, bytes));
            }
        }
    }

    /// Bodies lowered on two threads give what one thread gives: the same diagnostics, in
    /// the same order, and the same typed program (the seeds, and the tree of broken modules).
    #[test]
    fn two_threads_check_as_one_does() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for dir in ["specs/queen", "tests/fixtures/isolation/specs/queen"] {
            let mut files = Vec::new();
            tree(&repo.join(dir), &mut files);
            files.sort();
            let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
            let one = check_in(
                &paths,
                None,
                &mut MemoryLoader::new(files.clone()),
                usize::MAX,
                Keep::All,
            );
            let two = check_in(&paths, None, &mut MemoryLoader::new(files), 0, Keep::All);
            assert_eq!(one.diagnostics, two.diagnostics, "{dir}");
            let uses = |c: &Checked| format!("{:?}", c.import_uses);
            assert_eq!(uses(&one), uses(&two), "{dir}");
            let shown = |c: &Checked| format!("{:?}", c.program);
            assert_eq!(shown(&one), shown(&two), "{dir}");
            assert!(one.program.modules.len() >= 2, "{dir}");
        }
    }

    /// [`check_names`] records the same names on one thread and on two, changes nothing else
    /// that [`check`] gives, and records every kind of name the seeds and the isolation tree
    /// write (a name through a `use`, a module, a local, a field).
    #[test]
    fn names_are_recorded_the_same_on_one_thread_and_two() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut kinds = std::collections::BTreeSet::new();
        for dir in [
            "specs/queen",
            "tests/fixtures/isolation/specs/queen",
            "tests/fixtures/lsp/specs",
        ] {
            let mut files = Vec::new();
            tree(&repo.join(dir), &mut files);
            files.sort();
            let paths: Vec<PathBuf> = files.iter().map(|(p, _)| p.clone()).collect();
            let loader = || MemoryLoader::new(files.clone());
            let one = check_in(&paths, None, &mut loader(), usize::MAX, Keep::Names);
            let two = check_in(&paths, None, &mut loader(), 0, Keep::Names);
            let plain = check_in(&paths, None, &mut loader(), usize::MAX, Keep::All);
            assert_eq!(
                format!("{:?}", one.names),
                format!("{:?}", two.names),
                "{dir}"
            );
            assert_eq!(one.diagnostics, plain.diagnostics, "{dir}");
            assert_eq!(
                format!("{:?}", one.program),
                format!("{:?}", plain.program),
                "{dir}"
            );
            assert!(plain.names.is_empty(), "{dir}");
            for n in &one.names {
                let shown = format!("{:?}", n.target);
                kinds.insert(shown.split([' ', '(']).next().unwrap_or("").to_string());
            }
            // Every recorded span is one identifier of its file.
            for n in &one.names {
                let text = &one.sources.get(n.file).text[n.span.range()];
                assert!(
                    !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                    "{dir}: {text:?} at {n:?}"
                );
            }
        }
        let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
        assert_eq!(
            kinds,
            [
                "Const", "Field", "Fn", "Global", "Local", "Module", "Struct"
            ]
        );
    }

    /// [`check_diagnostics`] reports what [`check`] reports, on every file of the fixtures and
    /// the seeds, each checked on its own (with the files it uses), on one thread and on two,
    /// and keeps every declaration and signature: only function bodies are left out.
    #[test]
    fn diagnostics_alone_are_the_checks() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = Vec::new();
        tree(&repo.join("specs"), &mut files);
        tree(&repo.join("tests/fixtures"), &mut files);
        files.sort();
        let mut reported = 0;
        for (path, _) in &files {
            let paths = [path.clone()];
            let loader = || MemoryLoader::new(files.clone());
            let all = check_in(&paths, None, &mut loader(), PARALLEL_BODIES_FROM, Keep::All);
            for parallel_from in [usize::MAX, 0] {
                let alone = check_in(
                    &paths,
                    None,
                    &mut loader(),
                    parallel_from,
                    Keep::Diagnostics,
                );
                let what = format!(
                    "{} (bodies on two threads from {parallel_from})",
                    path.display()
                );
                assert_eq!(all.diagnostics, alone.diagnostics, "{what}");
                assert!(!alone.bodies_kept, "{what}");
                let (a, b) = (&all.program, &alone.program);
                assert_eq!(
                    format!("{:?}", a.consts),
                    format!("{:?}", b.consts),
                    "{what}"
                );
                assert_eq!(
                    format!("{:?}", a.structs),
                    format!("{:?}", b.structs),
                    "{what}"
                );
                assert_eq!(a.functions.len(), b.functions.len(), "{what}");
                for (f, g) in a.functions.iter().zip(&b.functions) {
                    assert_eq!(
                        format!("{:?}", (&f.decl, &f.params, &f.ret)),
                        format!("{:?}", (&g.decl, &g.params, &g.ret)),
                        "{what}"
                    );
                    assert!(g.body.block.stmts.is_empty(), "{what}");
                }
            }
            reported += all.diagnostics.len();
        }
        assert!(
            files.len() > 100 && reported > 100,
            "{} files, {reported} diagnostics",
            files.len()
        );
    }
}
