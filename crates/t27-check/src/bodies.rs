//! Which thread lowers which body: every function, test and invariant body of a request, on
//! two threads when it is large, each body's syntax dropped once lowered (`body.rs` lowers one).
//!
//! A test or invariant body is lowered for its diagnostics, its assert counts and what it
//! refers to, and its IR is then dropped: a block is lowered again, by a [`BlockLowerer`], when
//! it runs. The parser leaves such a body's statements out of the tree unless it has a syntax
//! error (`t27_syntax::parse_body` reads them again from the source), so a large spec is held
//! as neither syntax nor IR, only as its text.

use crate::body::{BodyCtx, block_diverges};
use crate::checker::Checker;
use crate::load::LoadedModule;
use std::sync::Arc;
use t27_diag::{Code, Diagnostic, FileId, Span};
use t27_ir::*;
use t27_syntax::ast::{self, ItemKind};

/// A body to lower: a function's or a test's, by index.
#[derive(Clone, Copy)]
enum Job {
    Function(usize),
    Test(usize),
}

/// A body to lower, its module, and the declaration it is in (whose statements go once lowered).
type BodyItem<'t> = (Job, ModuleId, &'t mut ast::Item);

/// What one thread of [`Checker::check_bodies`] lowered: bodies by function index, and by
/// test index what a test's body told (its IR is dropped).
#[derive(Default)]
struct Lowered {
    functions: Vec<(usize, Body)>,
    /// Where the bodies are not kept and the program has invariants: what each function
    /// does that could change a module `var` (E2030).
    function_reach: Vec<(usize, crate::invariants::Reach)>,
    tests: Vec<(usize, TestFacts)>,
}

/// What the checker keeps of a lowered block: its folded and runtime assert counts and what it
/// refers to.
struct TestFacts {
    folded: u32,
    runtime: u32,
    reaches: Vec<ItemRef>,
    /// For an invariant: the writes and calls that could change a module `var` (E2030).
    invariant: Option<crate::invariants::Reach>,
}

impl Checker {
    /// Lowers every function, test and invariant body. A large request is shared between two
    /// threads: the bodies, in source order, are split into two runs of about equal source
    /// size, and a worker (a checker sharing this one's program, scopes and constants, with
    /// diagnostics of its own) lowers the second run while this thread lowers the first.
    /// Lowering only reads the declarations (a call reads its callee's parameters, set before
    /// any body is lowered), so the result is the same on one thread or two (diagnostics are
    /// sorted at the end).
    pub(crate) fn check_bodies(&mut self) {
        let mut trees: Vec<LoadedModule> = Arc::try_unwrap(std::mem::take(&mut self.modules))
            .unwrap_or_else(|shared| shared.as_ref().clone());
        let mut of_item: rustc_hash::FxHashMap<(usize, usize), Job> = Default::default();
        for (fi, at) in self.fn_ast.iter().enumerate() {
            of_item.insert((at.module, at.item), Job::Function(fi));
        }
        if self.check_blocks {
            for (ti, at) in self.test_ast.iter().enumerate() {
                of_item.insert((at.module, at.item), Job::Test(ti));
            }
        }
        let mut bodies: Vec<BodyItem<'_>> = Vec::with_capacity(of_item.len());
        for (m, tree) in trees.iter_mut().enumerate() {
            for (i, item) in tree.ast.items.iter_mut().enumerate() {
                if let Some(&job) = of_item.get(&(m, i)) {
                    bodies.push((job, ModuleId(m as u32), item));
                }
            }
        }
        let split = self.second_run_start(&bodies);
        let (first, second) = bodies.split_at_mut(split);
        let mut worker = (!second.is_empty()).then(|| self.worker());
        let (mine, theirs) = std::thread::scope(|scope| {
            // The second run goes to the worker once it has started, so that nothing is lost
            // if no thread can be had: this one then lowers both runs.
            let (hand_over, second_run) = std::sync::mpsc::channel::<&mut [BodyItem<'_>]>();
            let theirs = worker.as_mut().and_then(|w| {
                std::thread::Builder::new()
                    .name("t27-check".into())
                    .stack_size(t27_syntax::THREAD_STACK)
                    .spawn_scoped(scope, move || {
                        second_run.recv().ok().map(|bodies| w.lower_bodies(bodies))
                    })
                    .ok()
            });
            let mine = match &theirs {
                Some(_) => {
                    let _ = hand_over.send(second);
                    self.lower_bodies(first)
                }
                None => {
                    let mut mine = self.lower_bodies(first);
                    let more = self.lower_bodies(second);
                    mine.functions.extend(more.functions);
                    mine.tests.extend(more.tests);
                    mine
                }
            };
            let theirs = theirs.and_then(|handle| match handle.join() {
                Ok(lowered) => lowered,
                Err(panic) => std::panic::resume_unwind(panic),
            });
            (mine, theirs)
        });
        drop(bodies);
        if let Some(w) = worker {
            self.diags.extend(w.diags);
            self.import_uses.extend(w.import_uses);
            self.broken_uses.extend(w.broken_uses);
            if let (Some(names), Some(more)) = (&mut self.names, w.names) {
                names.extend(more);
            }
        }
        // The worker is gone: the program is this checker's alone again, and changes in place.
        let p = self.program_mut();
        let mut invariants = Vec::new();
        let mut writers = crate::invariants::Writers::default();
        for lowered in std::iter::once(mine).chain(theirs) {
            for (fi, body) in lowered.functions {
                p.functions[fi].body = body;
            }
            for (fi, reach) in lowered.function_reach {
                writers.know(FnId(fi as u32), reach);
            }
            for (ti, facts) in lowered.tests {
                let test = &mut p.tests[ti];
                test.folded_asserts = facts.folded;
                test.runtime_asserts = facts.runtime;
                test.reaches = facts.reaches;
                invariants.extend(facts.invariant.map(|reach| (ti, reach)));
            }
        }
        // Every function is lowered now: the calls of invariants can be followed (E2030).
        for (ti, reach) in invariants {
            let error = writers.error(&self.program, TestId(ti as u32), &reach);
            self.diags.extend(error);
        }
        self.modules = Arc::new(trees);
    }

    /// Where the second run of bodies starts: about half of their source before it, or no
    /// second run for a request too small to be worth a thread.
    fn second_run_start(&self, bodies: &[BodyItem<'_>]) -> usize {
        let total: usize = bodies.iter().map(|(_, _, item)| item.span.len()).sum();
        if total < self.parallel_from || bodies.len() < 2 {
            return bodies.len();
        }
        let mut before = 0;
        for (i, (_, _, item)) in bodies.iter().enumerate() {
            if before >= total / 2 {
                return i.max(1);
            }
            before += item.span.len();
        }
        bodies.len()
    }

    /// Whether any block is an invariant.
    fn has_invariants(&self) -> bool {
        self.program
            .tests
            .iter()
            .any(|t| t.kind == ast::TestKind::Invariant)
    }

    /// A checker for the workers of [`Checker::check_bodies`]: the shared declarations, and
    /// nothing reported yet.
    fn worker(&self) -> Checker {
        Checker {
            modules: Arc::default(),
            sources: self.sources.clone(),
            program: Arc::clone(&self.program),
            scopes: Arc::clone(&self.scopes),
            diags: Vec::new(),
            const_ast: self.const_ast.clone(),
            const_state: self.const_state.clone(),
            global_ast: self.global_ast.clone(),
            fn_ast: self.fn_ast.clone(),
            struct_ast: self.struct_ast.clone(),
            test_ast: self.test_ast.clone(),
            syntax_errors: self.syntax_errors.clone(),
            import_uses: Vec::new(),
            broken_uses: Vec::new(),
            names: self.names.as_ref().map(|_| Vec::new()),
            const_depth: 0,
            float_consts: Arc::clone(&self.float_consts),
            broken_imports: self.broken_imports.clone(),
            parallel_from: self.parallel_from,
            check_blocks: self.check_blocks,
            keep_bodies: self.keep_bodies,
        }
    }

    /// Lowers `bodies`. Each body's statements are dropped from the syntax tree once lowered:
    /// the IR replaces them, the memory they held serves the IR of the bodies after them, and
    /// a large spec is not held in both forms at once. (Lowering a body reads no syntax tree
    /// but its own.)
    fn lower_bodies(&mut self, bodies: &mut [BodyItem<'_>]) -> Lowered {
        let mut out = Lowered::default();
        let follow_writes = !self.keep_bodies && self.has_invariants();
        for (job, m, item) in bodies.iter_mut() {
            let (m, item_span) = (*m, item.span);
            match (*job, &mut item.kind) {
                (Job::Function(fi), ItemKind::Fn(f)) => {
                    let body = self.lower_function(fi, m, item_span, f);
                    if self.keep_bodies {
                        out.functions.push((fi, body));
                    } else if follow_writes {
                        out.function_reach
                            .push((fi, crate::invariants::Reach::of(&body)));
                    }
                }
                (Job::Test(ti), ItemKind::Test(t)) => {
                    // A body with a syntax error kept its statements in the tree.
                    let kept = (!t.body.stmts.is_empty()).then_some(&t.body);
                    let (body, folded, runtime) = self.lower_test(ti, m, item_span, kept);
                    t.body.stmts = Vec::new();
                    let invariant = (self.program.tests[ti].kind == ast::TestKind::Invariant)
                        .then(|| crate::invariants::Reach::of(&body));
                    let facts = TestFacts {
                        folded,
                        runtime,
                        reaches: reaches_of(&body),
                        invariant,
                    };
                    out.tests.push((ti, facts));
                }
                _ => {}
            }
        }
        out
    }

    /// A test or invariant body, with its folded and runtime assert counts: lowered from
    /// `kept` (a body whose statements the tree kept) or read again from the source.
    fn lower_test(
        &mut self,
        ti: usize,
        m: ModuleId,
        item_span: Span,
        kept: Option<&ast::Block>,
    ) -> (Body, u32, u32) {
        let file = self.file_of(m);
        let span = self.program.tests[ti].body.block.span;
        let mut broken = self.has_syntax_error_in(file, item_span);
        let read;
        let ast = match kept {
            Some(block) => block,
            None => {
                read = self.read_body(file, span, &mut broken);
                &read
            }
        };
        let mut cx = BodyCtx::body(m, Vec::new(), Ty::Void);
        cx.broken = broken;
        let block = self.lower_block(&mut cx, ast);
        let body = Body {
            locals: cx.locals,
            block,
        };
        (body, cx.folded, cx.runtime)
    }

    /// The statements of the body at `span` of `file`, which the tree left out, read from the
    /// source; a body taken whole by the parser has its syntax errors found, reported and
    /// `broken` set here.
    fn read_body(&mut self, file: FileId, span: Span, broken: &mut bool) -> ast::Block {
        let source = self.sources.shared(file);
        match t27_syntax::parse_body(file, &source.text, span) {
            Some(block) => block,
            None => {
                let (block, errors) = t27_syntax::parse_body_with_errors(file, &source.text, span);
                *broken |= errors.iter().any(Diagnostic::is_error);
                errors.into_iter().for_each(|d| self.report(d));
                block
            }
        }
    }

    /// A function's body, and E2005 when its end can be reached without a `return`. Its
    /// statements are read from the source unless the tree kept them (a body with a syntax
    /// error), and dropped from the tree once lowered.
    fn lower_function(
        &mut self,
        fi: usize,
        m: ModuleId,
        item_span: Span,
        f: &mut ast::FnDecl,
    ) -> Body {
        let func = &self.program.functions[fi];
        let params = func.body.locals.clone();
        let ret = func.ret.clone();
        let file = self.file_of(m);
        let mut broken = self.has_syntax_error_in(file, item_span);
        if f.body.stmts.is_empty() {
            f.body = self.read_body(file, f.body.span, &mut broken);
        }
        for p in &params {
            self.record_local(file, p, crate::names::LocalDecl::Parameter);
        }
        let mut cx = BodyCtx::body(m, params, ret.clone());
        cx.broken = broken;
        let block = self.lower_block(&mut cx, &f.body);
        f.body.stmts = Vec::new();
        if ret != Ty::Void && !ret.has_error() && !block_diverges(&block) && !broken {
            let end = Span {
                start: f.body.span.end.saturating_sub(1),
                end: f.body.span.end,
            };
            let shown = self.ty_name(&ret);
            self.report(
                Diagnostic::new(
                    Code("E2005"),
                    file,
                    f.name.span,
                    format!("`{}` can finish without returning a value", f.name.name),
                )
                .with_label(format!("declared to return `{shown}`"))
                .with_secondary(file, end, "the end of the body is reachable")
                .with_help("add a final `return` with the default answer"),
            );
        }
        Body {
            locals: cx.locals,
            block,
        }
    }
}

/// What a body refers to, each once, in source order.
fn reaches_of(body: &Body) -> Vec<ItemRef> {
    let mut reaches = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    body.for_each_reference(&mut |r| {
        if seen.insert(r) {
            reaches.push(r);
        }
    });
    reaches
}

/// A block as [`BlockLowerer::lower`] gives it.
pub struct LoweredBlock {
    pub body: Body,
    /// What lowering it reported, in source order: errors that stop the block, and warnings.
    /// (When the program was checked with its blocks, [`crate::check`] reported them too.)
    pub diagnostics: Vec<Diagnostic>,
    /// The names it writes that a `use` with an error brought in (see [`crate::Isolation`]).
    pub import_uses: Vec<crate::ImportUse>,
    /// The names it writes that stand for a declaration with an error (see
    /// [`crate::BrokenUse`]).
    pub broken_uses: Vec<crate::BrokenUse>,
    pub folded_asserts: u32,
    pub runtime_asserts: u32,
}

impl LoweredBlock {
    /// What it refers to, each once, in source order: walked when asked (only a program with
    /// errors asks, for what they block), not for every block of a run.
    pub fn reaches(&self) -> Vec<ItemRef> {
        reaches_of(&self.body)
    }
}

/// Lowers test and invariant blocks, for the engines: a checked program holds only their
/// declarations (and, checked with its blocks, their assert counts and what they refer to).
/// Each lowering reads the block's statements from the source and gives the IR, diagnostics
/// and facts the checker gives it.
pub struct BlockLowerer(Checker);

impl BlockLowerer {
    pub(crate) fn new(checker: &Checker) -> BlockLowerer {
        let mut lowerer = checker.worker();
        // A block lowered again to run records no names (they were taken when checking).
        lowerer.names = None;
        BlockLowerer(lowerer)
    }

    /// Another lowerer of the same program, for another thread.
    pub fn fork(&self) -> BlockLowerer {
        BlockLowerer(self.0.worker())
    }

    /// `test`'s body lowered. A block with a syntax error in its body gives an empty body
    /// (such a block never runs: its error, reported by the parser, blocks it).
    pub fn lower(&mut self, test: TestId) -> LoweredBlock {
        let t = &self.0.program.tests[test.index()];
        let (m, item_span, kind) = (t.decl.module, t.decl.span, t.kind);
        let (body, folded, runtime) = self.0.lower_test(test.index(), m, item_span, None);
        if kind == ast::TestKind::Invariant {
            let reach = crate::invariants::Reach::of(&body);
            let writes = crate::invariants::Writers::default().error(&self.0.program, test, &reach);
            self.0.diags.extend(writes);
        }
        let mut diagnostics = std::mem::take(&mut self.0.diags);
        let mut import_uses = std::mem::take(&mut self.0.import_uses);
        diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
        diagnostics.dedup();
        import_uses.sort_by_key(|u| (u.site.start, u.import.start));
        let mut broken_uses = std::mem::take(&mut self.0.broken_uses);
        broken_uses.sort_by_key(|u| u.site.start);
        LoweredBlock {
            body,
            diagnostics,
            import_uses,
            broken_uses,
            folded_asserts: folded,
            runtime_asserts: runtime,
        }
    }
}
