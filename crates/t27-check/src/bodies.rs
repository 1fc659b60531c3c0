//! Which thread lowers which body: every function, test and invariant body of a request, on
//! two threads when it is large, each body's syntax dropped once lowered (`body.rs` lowers one).

use crate::body::{BodyCtx, block_diverges};
use crate::checker::Checker;
use crate::load::LoadedModule;
use crate::sources::SourceMap;
use std::sync::Arc;
use t27_diag::{Code, Diagnostic, Span};
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

/// What one thread of [`Checker::check_bodies`] lowered: bodies by function and test index
/// (tests with their folded and runtime assert counts).
#[derive(Default)]
struct Lowered {
    functions: Vec<(usize, Body)>,
    tests: Vec<(usize, Body, u32, u32)>,
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
        for (ti, at) in self.test_ast.iter().enumerate() {
            of_item.insert((at.module, at.item), Job::Test(ti));
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
        }
        // The worker is gone: the program is this checker's alone again, and changes in place.
        let p = self.program_mut();
        for lowered in std::iter::once(mine).chain(theirs) {
            for (fi, body) in lowered.functions {
                p.functions[fi].body = body;
            }
            for (ti, body, folded, runtime) in lowered.tests {
                let test = &mut p.tests[ti];
                test.folded_asserts = folded;
                test.runtime_asserts = runtime;
                test.body = body;
            }
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

    /// A checker for the workers of [`Checker::check_bodies`]: the shared declarations, and
    /// nothing reported yet.
    fn worker(&self) -> Checker {
        Checker {
            modules: Arc::default(),
            sources: SourceMap::default(),
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
            broken_imports: self.broken_imports.clone(),
            parallel_from: self.parallel_from,
        }
    }

    /// Lowers `bodies`. Each body's statements are dropped from the syntax tree once lowered:
    /// the IR replaces them, the memory they held serves the IR of the bodies after them, and
    /// a large spec is not held in both forms at once. (Lowering a body reads no syntax tree
    /// but its own.)
    fn lower_bodies(&mut self, bodies: &mut [BodyItem<'_>]) -> Lowered {
        let mut out = Lowered::default();
        for (job, m, item) in bodies.iter_mut() {
            let (m, item_span) = (*m, item.span);
            match (*job, &mut item.kind) {
                (Job::Function(fi), ItemKind::Fn(f)) => {
                    let body = self.lower_function(fi, m, item_span, f);
                    out.functions.push((fi, body));
                }
                (Job::Test(ti), ItemKind::Test(t)) => {
                    let mut cx = BodyCtx::body(m, Vec::new(), Ty::Void);
                    let file = self.file_of(m);
                    cx.broken = self.has_syntax_error_in(file, item_span);
                    let block = self.lower_block(&mut cx, &t.body);
                    t.body.stmts = Vec::new();
                    let body = Body {
                        locals: cx.locals,
                        block,
                    };
                    out.tests.push((ti, body, cx.folded, cx.runtime));
                }
                _ => {}
            }
        }
        out
    }

    /// A function's body, and E2005 when its end can be reached without a `return`.
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
        let broken = self.has_syntax_error_in(file, item_span);
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
