//! Module constants and module `var`s: typed, computed, and fitted to their declared types.

use crate::body::BodyCtx;
use crate::checker::{Checker, ConstState};
use std::sync::Arc;
use t27_diag::{Code, Diagnostic, Span};
use t27_ir::*;
use t27_syntax::ast::ItemKind;

impl Checker {
    /// Types and computes constant `id` on first use, so constants may refer to each other in
    /// any order. A constant met again while it is being computed is part of a cycle.
    pub(crate) fn ensure_const(&mut self, id: ConstId) {
        match self.const_state[id.index()] {
            ConstState::Done => return,
            ConstState::InProgress => {
                let c = &self.program.consts[id.index()];
                let file = self.file_of(c.decl.module);
                let (name, span) = (c.decl.name.clone(), c.decl.name_span);
                self.report(
                    Diagnostic::new(
                        Code("E3006"),
                        file,
                        span,
                        format!("the value of `{name}` depends on itself"),
                    )
                    .with_label("this constant is part of a cycle")
                    .with_help("write one of the values in the cycle as a literal"),
                );
                return;
            }
            ConstState::Pending => {}
        }
        if self.const_depth >= MAX_CONST_DEPTH {
            self.const_too_deep(id);
            return;
        }
        self.const_depth += 1;
        self.compute_const(id);
        self.const_depth -= 1;
    }

    /// E2027: constant `id` is needed inside more than [`MAX_CONST_DEPTH`] constants being
    /// computed. It is left without a value (and a type), which blocks what reaches it.
    fn const_too_deep(&mut self, id: ConstId) {
        self.const_state[id.index()] = ConstState::Done;
        let c = &mut self.program_mut().consts[id.index()];
        c.ty = Ty::Error;
        c.value = None;
        let (module, name, span) = (c.decl.module, c.decl.name.clone(), c.decl.name_span);
        let file = self.file_of(module);
        self.report(
            Diagnostic::new(
                Code("E2027"),
                file,
                span,
                format!("`{name}` is needed inside more than {MAX_CONST_DEPTH} constants, each computed from the next"),
            )
            .with_label(format!("computed {MAX_CONST_DEPTH} constants deep"))
            .with_note("a constant that uses one declared after it computes that one first")
            .with_help("declare constants before the constants that use them"),
        );
    }

    fn compute_const(&mut self, id: ConstId) {
        self.const_state[id.index()] = ConstState::InProgress;
        let at = self.const_ast[id.index()];
        let modules = Arc::clone(&self.modules);
        let ItemKind::Const(g) = &modules[at.module].ast.items[at.item].kind else {
            return;
        };
        let m = ModuleId(at.module as u32);
        let declared = g.ty.as_ref().map(|t| self.resolve_type(m, t));
        let mut cx = BodyCtx::constant(m);
        let init = self.lower_expr(&mut cx, &g.value, declared.as_ref());
        let init = match &declared {
            Some(t) => {
                let file = self.file_of(m);
                self.coerce(file, init, t)
            }
            None => init,
        };
        // An untyped constant of an untyped float keeps its binary128 value (LANGUAGE.md 11.2).
        if declared.is_none()
            && let Some(q) = self.exact_float_of(&cx, &init)
        {
            Arc::make_mut(&mut self.float_consts).insert(id, q);
        }
        let ty = declared.unwrap_or_else(|| init.ty.clone());
        let value = self.compute(m, &init, &ty, "this constant");
        // A cycle reported while computing leaves the constant without a value.
        let c = &mut self.program_mut().consts[id.index()];
        c.ty = ty;
        c.init = init;
        c.value = value;
        self.const_state[id.index()] = ConstState::Done;
    }

    /// Evaluates an initialiser and fits it to `ty`, reporting traps and values out of range.
    pub(crate) fn compute(
        &mut self,
        m: ModuleId,
        init: &Expr,
        ty: &Ty,
        context: &str,
    ) -> Option<Value> {
        if init.ty.has_error() || ty.has_error() {
            return None;
        }
        match self.eval(init) {
            Ok(v) => {
                if let Some((bad, t, span)) = out_of_range(&v, ty, init) {
                    let file = self.file_of(m);
                    self.report(
                        Diagnostic::new(
                            Code("E3001"),
                            file,
                            span,
                            format!("{context} is {bad}, which does not fit `{}`", t.name()),
                        )
                        .with_label(format!("computes to {bad}"))
                        .with_note(format!("`{}` holds {} to {}", t.name(), t.min(), t.max()))
                        .with_help("change the expression or use a wider type"),
                    );
                    return None;
                }
                Some(v)
            }
            Err(e) => {
                self.report_eval_error(m, e, context);
                None
            }
        }
    }

    pub(crate) fn check_globals(&mut self) {
        let modules = Arc::clone(&self.modules);
        for (gi, at) in self.global_ast.clone().into_iter().enumerate() {
            let ItemKind::Var(g) = &modules[at.module].ast.items[at.item].kind else {
                continue;
            };
            let m = ModuleId(at.module as u32);
            let declared = g.ty.as_ref().map(|t| self.resolve_type(m, t));
            let mut cx = BodyCtx::constant(m);
            cx.allow_undefined = true;
            let init = self.lower_expr(&mut cx, &g.value, declared.as_ref());
            let file = self.file_of(m);
            let ty = match declared {
                Some(t) => {
                    let init = self.coerce(file, init, &t);
                    let value =
                        self.compute(m, &init, &t, "the initial value of this module `var`");
                    let global = &mut self.program_mut().globals[gi];
                    global.ty = t;
                    global.init = init;
                    global.value = value;
                    continue;
                }
                None if self.exact_float_of(&cx, &init).is_some() => {
                    self.untyped_float_var(file, &init);
                    Ty::Error
                }
                None => self.require_concrete(m, &init),
            };
            let value = self.compute(m, &init, &ty, "the initial value of this module `var`");
            let global = &mut self.program_mut().globals[gi];
            global.ty = ty;
            global.init = init;
            global.value = value;
        }
    }

    /// E2020 for `var f = 1.5;`: a `var` cannot hold an untyped float (LANGUAGE.md 11.2).
    pub(crate) fn untyped_float_var(&mut self, file: t27_diag::FileId, init: &Expr) {
        self.report(
            Diagnostic::new(
                Code("E2020"),
                file,
                init.span,
                "a `var` cannot hold an untyped float",
            )
            .with_label("an untyped float has no type of its own")
            .with_note(
                "untyped floats are compile-time values (binary128), as Zig's `comptime_float`",
            )
            .with_help("declare the type, e.g. `var f : f64 = 1.5;`"),
        );
    }

    /// The type of an initialiser without a declared type; an integer literal alone has none.
    pub(crate) fn require_concrete(&mut self, m: ModuleId, init: &Expr) -> Ty {
        if init.ty == Ty::UntypedInt {
            let file = self.file_of(m);
            self.report(
                Diagnostic::new(
                    Code("E2020"),
                    file,
                    init.span,
                    "the type of this value cannot be inferred",
                )
                .with_label("an integer literal has no type of its own")
                .with_help("declare the type, e.g. `var count : u32 = 0;`"),
            );
            return Ty::Error;
        }
        init.ty.clone()
    }
}

/// How many constants may be computed each inside the one before: a constant that uses one
/// declared after it computes that one first, on this thread's stack (E2027 past it).
pub(crate) const MAX_CONST_DEPTH: u32 = 256;

/// Finds an integer in `v` that does not fit its place in `ty`, with the span to blame.
fn out_of_range(v: &Value, ty: &Ty, init: &Expr) -> Option<(num_bigint::BigInt, IntTy, Span)> {
    match (v, ty) {
        (Value::Int(n), Ty::Int(t)) if !t.fits(n) => Some((n.clone(), *t, init.span)),
        (Value::Array(items), Ty::Array(elem, _)) => {
            items.iter().enumerate().find_map(|(i, item)| {
                let span = match &init.kind {
                    ExprKind::Array(es) => es.get(i).map_or(init.span, |e| e.span),
                    _ => init.span,
                };
                out_of_range(
                    item,
                    elem,
                    &Expr {
                        kind: ExprKind::Error,
                        ty: Ty::Error,
                        span,
                    },
                )
            })
        }
        _ => None,
    }
}
