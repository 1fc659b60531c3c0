//! Function, test and invariant bodies: locals, statements, control flow and asserts.

use crate::checker::Checker;
use t27_diag::{Code, Diagnostic, Span};
use t27_ir::*;
use t27_syntax::ast::{self, AssignOp, LocalKind};

/// What a body's lowering needs to know: its locals and the scopes they are visible in.
pub(crate) struct BodyCtx {
    pub module: ModuleId,
    pub locals: Vec<Local>,
    /// How each local was declared, for messages about assignments.
    pub local_kinds: Vec<&'static str>,
    scopes: Vec<Vec<(String, LocalId)>>,
    loop_depth: u32,
    ret: Ty,
    pub allow_undefined: bool,
    /// The body contains a syntax error: its shape may not be what the author wrote.
    pub broken: bool,
    pub folded: u32,
    pub runtime: u32,
    /// The binary128 values of the body's untyped floats (`floats.rs`), made at the first:
    /// one pointer here, so that a body without floats carries nothing bigger around.
    pub floats: Option<Box<crate::floats::Exacts>>,
}

impl BodyCtx {
    /// The context of a constant initialiser: no locals at all.
    pub fn constant(module: ModuleId) -> BodyCtx {
        BodyCtx {
            module,
            locals: Vec::new(),
            local_kinds: Vec::new(),
            scopes: vec![Vec::new()],
            loop_depth: 0,
            ret: Ty::Void,
            allow_undefined: false,
            broken: false,
            folded: 0,
            runtime: 0,
            floats: None,
        }
    }

    pub(crate) fn body(module: ModuleId, params: Vec<Local>, ret: Ty) -> BodyCtx {
        let mut cx = BodyCtx::constant(module);
        for p in params {
            let id = LocalId(cx.locals.len() as u32);
            cx.scopes[0].push((p.name.clone(), id));
            cx.locals.push(p);
            cx.local_kinds.push("a parameter");
        }
        cx.ret = ret;
        cx
    }

    pub fn lookup(&self, name: &str) -> Option<LocalId> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, id)| *id)
    }

    /// Declares a local in the innermost scope; returns the span of a local of the same name
    /// that it shadows in that same scope.
    fn declare(&mut self, name: &ast::Ident, ty: Ty, kind: LocalKind) -> (LocalId, Option<Span>) {
        let id = LocalId(self.locals.len() as u32);
        let scope = self.scopes.last_mut().expect("a body always has a scope");
        let shadowed = scope
            .iter()
            .rev()
            .find(|(n, _)| *n == name.name)
            .map(|(_, l)| *l);
        scope.push((name.name.to_string(), id));
        self.locals.push(Local {
            name: name.name.to_string(),
            ty,
            mutable: kind == LocalKind::Var,
            span: name.span,
        });
        self.local_kinds.push(match kind {
            LocalKind::Var => "`var`",
            LocalKind::Let => "`let`",
            LocalKind::Const => "`const`",
        });
        (id, shadowed.map(|l| self.locals[l.index()].span))
    }
}

impl Checker {
    pub(crate) fn lower_block(&mut self, cx: &mut BodyCtx, block: &ast::Block) -> Block {
        cx.scopes.push(Vec::new());
        let mut stmts = Vec::with_capacity(block.stmts.len());
        let mut ended: Option<Span> = None;
        let mut warned = false;
        for s in &block.stmts {
            if let (Some(jump), false) = (ended, warned)
                && !cx.broken
                && !matches!(s.kind, ast::StmtKind::Block(ref b) if b.stmts.is_empty())
            {
                warned = true;
                let file = self.file_of(cx.module);
                self.report(
                    Diagnostic::new(Code("W0007"), file, s.span, "this statement can never run")
                        .with_label("unreachable")
                        .with_secondary(file, jump, "control never gets past this")
                        .with_help("remove it, or move it before the jump"),
                );
            }
            let lowered = self.lower_stmt(cx, s);
            if ended.is_none()
                && (stmt_diverges(&lowered)
                    || matches!(lowered.kind, StmtKind::Break | StmtKind::Continue))
            {
                ended = Some(s.span);
            }
            stmts.push(lowered);
        }
        cx.scopes.pop();
        Block {
            stmts,
            span: block.span,
        }
    }

    fn lower_stmt(&mut self, cx: &mut BodyCtx, s: &ast::Stmt) -> Stmt {
        let file = self.file_of(cx.module);
        let span = s.span;
        let kind = match &s.kind {
            ast::StmtKind::Error => StmtKind::Block(Block::default()),
            ast::StmtKind::Local {
                kind,
                names,
                tuple,
                ty,
                init,
            } => self.lower_local(cx, *kind, names, *tuple, ty.as_deref(), init),
            ast::StmtKind::Assign { target, op, value } => {
                self.lower_assign(cx, target, *op, value)
            }
            ast::StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.lower_condition(cx, cond);
                let then = self.lower_block(cx, then);
                let otherwise = otherwise
                    .as_ref()
                    .map(|b| self.lower_block(cx, b))
                    .unwrap_or_default();
                StmtKind::If {
                    cond: Box::new(cond),
                    then,
                    otherwise,
                }
            }
            ast::StmtKind::While { cond, step, body } => {
                let cond = self.lower_condition(cx, cond);
                self.lower_loop(cx, cond, body, step.as_deref())
            }
            ast::StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                // `for (init; cond; step) body` is `{ init; while (cond) : (step) body }`.
                cx.scopes.push(Vec::new());
                let mut stmts = Vec::new();
                if let Some(init) = init {
                    stmts.push(self.lower_stmt(cx, init));
                }
                let cond = match cond {
                    Some(c) => self.lower_condition(cx, c),
                    None => Expr {
                        kind: ExprKind::Lit(Value::Bool(true)),
                        ty: Ty::Bool,
                        span,
                    },
                };
                let kind = self.lower_loop(cx, cond, body, step.as_deref());
                stmts.push(Stmt { kind, span });
                cx.scopes.pop();
                StmtKind::Block(Block { stmts, span })
            }
            ast::StmtKind::Break | ast::StmtKind::Continue => {
                let is_break = matches!(s.kind, ast::StmtKind::Break);
                if cx.loop_depth == 0 {
                    let word = if is_break { "break" } else { "continue" };
                    self.report(
                        Diagnostic::new(
                            Code("E2014"),
                            file,
                            span,
                            format!("`{word}` outside a loop"),
                        )
                        .with_label("no `while` or `for` around this")
                        .with_help("use `return` to leave a function, or move this into a loop"),
                    );
                    StmtKind::Block(Block::default())
                } else if is_break {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                }
            }
            ast::StmtKind::Return(value) => self.lower_return(cx, value.as_ref(), span),
            ast::StmtKind::Assert(cond) => self.lower_assert(cx, cond, span),
            ast::StmtKind::Expr(e) => {
                let lowered = self.lower_expr(cx, e, None);
                if !matches!(lowered.kind, ExprKind::Call(..) | ExprKind::Error) {
                    self.report(
                        Diagnostic::new(
                            Code("E2019"),
                            file,
                            e.span,
                            "this expression's value is computed and dropped",
                        )
                        .with_label("does nothing")
                        .with_help("write `assert ...;` to check it, or `x = ...;` to keep it"),
                    );
                }
                StmtKind::Expr(lowered)
            }
            ast::StmtKind::Block(b) => StmtKind::Block(self.lower_block(cx, b)),
        };
        Stmt { kind, span }
    }

    /// The loop of a `while` or `for`: its body (where `break` and `continue` belong to it)
    /// and its step.
    fn lower_loop(
        &mut self,
        cx: &mut BodyCtx,
        cond: Expr,
        body: &ast::Block,
        step: Option<&ast::Stmt>,
    ) -> StmtKind {
        cx.loop_depth += 1;
        let body = self.lower_block(cx, body);
        cx.loop_depth -= 1;
        let step = step.map(|st| self.single_block(cx, st)).unwrap_or_default();
        StmtKind::While {
            cond: Box::new(cond),
            body,
            step,
        }
    }

    fn single_block(&mut self, cx: &mut BodyCtx, s: &ast::Stmt) -> Block {
        let lowered = self.lower_stmt(cx, s);
        Block {
            span: s.span,
            stmts: vec![lowered],
        }
    }

    fn lower_condition(&mut self, cx: &mut BodyCtx, cond: &ast::Expr) -> Expr {
        let e = self.lower_expr(cx, cond, Some(&Ty::Bool));
        let file = self.file_of(cx.module);
        self.coerce(file, e, &Ty::Bool)
    }

    fn lower_local(
        &mut self,
        cx: &mut BodyCtx,
        kind: LocalKind,
        names: &[ast::Ident],
        tuple: bool,
        ty: Option<&ast::TypeExpr>,
        init: &ast::Expr,
    ) -> StmtKind {
        let file = self.file_of(cx.module);
        let declared = ty.map(|t| self.resolve_type(cx.module, t));
        let value =
            if matches!(init.kind, ast::ExprKind::Undefined) && kind == LocalKind::Var && !tuple {
                match &declared {
                    Some(t) => Expr {
                        kind: ExprKind::Undefined,
                        ty: t.clone(),
                        span: init.span,
                    },
                    None => {
                        self.report(
                            Diagnostic::new(
                                Code("E2020"),
                                file,
                                init.span,
                                "`undefined` needs a declared type",
                            )
                            .with_label("the type of this local cannot be inferred")
                            .with_help("declare the type, e.g. `var out : [512]u8 = undefined;`"),
                        );
                        Expr::error(init.span)
                    }
                }
            } else {
                let e = self.lower_expr(cx, init, declared.as_ref());
                match &declared {
                    Some(t) => self.coerce(file, e, t),
                    None => e,
                }
            };
        if !tuple {
            // An untyped `const` or `let` of an untyped float stays one (LANGUAGE.md 11.2); a
            // `var` cannot hold one.
            let exact = match declared {
                None => self.exact_float_of(cx, &value),
                Some(_) => None,
            };
            let ty = match declared {
                Some(t) => t,
                None if exact.is_some() && kind == LocalKind::Var => {
                    self.untyped_float_var(file, &value);
                    Ty::Error
                }
                None => self.local_type(cx.module, &value),
            };
            let local = self.declare_local(cx, &names[0], ty, kind);
            if let Some(q) = exact
                && kind != LocalKind::Var
            {
                cx.record_exact_local(local, q);
            }
            return StmtKind::Let { local, init: value };
        }
        let tys: Vec<Ty> = match &value.ty {
            Ty::Tuple(ts) if ts.len() == names.len() => ts.clone(),
            Ty::Tuple(ts) => {
                let shown = self.ty_name(&value.ty);
                self.report(
                    Diagnostic::new(
                        Code("E2018"),
                        file,
                        value.span,
                        format!("{} names for a tuple of {}", names.len(), ts.len()),
                    )
                    .with_label(format!("this is {}", crate::coerce::article(&shown)))
                    .with_help("give one name to each element of the tuple"),
                );
                vec![Ty::Error; names.len()]
            }
            t if t.has_error() => vec![Ty::Error; names.len()],
            _ => {
                let shown = self.ty_name(&value.ty);
                self.report(
                    Diagnostic::new(
                        Code("E2018"),
                        file,
                        value.span,
                        "only a tuple can be taken apart into names",
                    )
                    .with_label(format!(
                        "this is {}, not a tuple",
                        crate::coerce::article(&shown)
                    ))
                    .with_help("declare a single name instead"),
                );
                vec![Ty::Error; names.len()]
            }
        };
        let locals = names
            .iter()
            .zip(tys)
            .map(|(n, t)| self.declare_local(cx, n, t, kind))
            .collect();
        StmtKind::LetTuple {
            locals,
            init: Box::new(value),
        }
    }

    fn local_type(&mut self, m: ModuleId, value: &Expr) -> Ty {
        match &value.ty {
            Ty::Void => {
                let file = self.file_of(m);
                self.report(
                    Diagnostic::new(Code("E2001"), file, value.span, "this call returns nothing")
                        .with_label("no value to keep")
                        .with_help("call it as a statement of its own"),
                );
                Ty::Error
            }
            Ty::Array(elem, _) if **elem == Ty::UntypedInt => {
                let file = self.file_of(m);
                self.report(
                    Diagnostic::new(
                        Code("E2020"),
                        file,
                        value.span,
                        "the element type of this array cannot be inferred",
                    )
                    .with_label("integer literals have no type of their own")
                    .with_help("declare the type, e.g. `let xs : [3]u32 = [1, 2, 3];`"),
                );
                Ty::Error
            }
            _ => self.require_concrete(m, value),
        }
    }

    fn declare_local(
        &mut self,
        cx: &mut BodyCtx,
        name: &ast::Ident,
        ty: Ty,
        kind: LocalKind,
    ) -> LocalId {
        let (id, shadowed) = cx.declare(name, ty, kind);
        let file = self.file_of(cx.module);
        let declared = crate::names::LocalDecl::from_words(cx.local_kinds[id.index()]);
        self.record_local(file, &cx.locals[id.index()], declared);
        if let Some(first) = shadowed {
            let file = self.file_of(cx.module);
            self.report(
                Diagnostic::new(
                    Code("W0005"),
                    file,
                    name.span,
                    format!("`{}` is declared again in the same block", name.name),
                )
                .with_label("shadows the earlier one from here on")
                .with_secondary(file, first, "first declared here")
                .with_help(
                    "give the new value its own name, or declare one `var` and assign to it",
                ),
            );
        }
        id
    }

    fn lower_assign(
        &mut self,
        cx: &mut BodyCtx,
        target: &ast::Expr,
        op: AssignOp,
        value: &ast::Expr,
    ) -> StmtKind {
        let file = self.file_of(cx.module);
        let place = self.lower_place(cx, target);
        let op = match op {
            AssignOp::Set => None,
            AssignOp::Add => Some(BinOp::Add),
            AssignOp::Sub => Some(BinOp::Sub),
            AssignOp::Mul => Some(BinOp::Mul),
            AssignOp::Shl => Some(BinOp::Shl),
            AssignOp::Shr => Some(BinOp::Shr),
        };
        let shift = matches!(op, Some(BinOp::Shl | BinOp::Shr));
        let value = if shift {
            // `x <<= n` is `x = x << n`: the amount keeps its own integer type, as in a shift.
            self.lower_shift_amount(file, &place.ty, value, cx)
        } else {
            let value = self.lower_expr(cx, value, Some(&place.ty));
            self.coerce(file, value, &place.ty)
        };
        let works = match place.ty {
            Ty::Int(_) | Ty::Error => true,
            Ty::F64 => !shift,
            _ => false,
        };
        if let Some(o) = op
            && !works
        {
            let shown = self.ty_name(&place.ty);
            self.report(
                Diagnostic::new(
                    Code("E2009"),
                    file,
                    place.span,
                    format!("`{}=` does not work on `{shown}`", o.symbol()),
                )
                .with_label(format!("this is {}", crate::coerce::article(&shown)))
                .with_help(if shift {
                    "`<<=` and `>>=` work on integers"
                } else {
                    "compound assignment works on integers and `f64`"
                }),
            );
        }
        StmtKind::Assign {
            place: Box::new(place),
            op,
            value: Box::new(value),
        }
    }

    fn lower_return(
        &mut self,
        cx: &mut BodyCtx,
        value: Option<&ast::Expr>,
        span: Span,
    ) -> StmtKind {
        let file = self.file_of(cx.module);
        let ret = cx.ret.clone();
        match (value, &ret) {
            (None, Ty::Void) => StmtKind::Return(None),
            (None, t) => {
                if !t.has_error() {
                    let shown = self.ty_name(t);
                    self.report(
                        Diagnostic::new(
                            Code("E2013"),
                            file,
                            span,
                            format!(
                                "this function returns `{shown}`, but this `return` has no value"
                            ),
                        )
                        .with_label("no value")
                        .with_help(format!("return a `{shown}`")),
                    );
                }
                StmtKind::Return(None)
            }
            (Some(v), Ty::Void) => {
                let lowered = self.lower_expr(cx, v, None);
                self.report(
                    Diagnostic::new(
                        Code("E2013"),
                        file,
                        lowered.span,
                        "a value is returned from a body that returns nothing",
                    )
                    .with_label("this value goes nowhere")
                    .with_help("remove the value, or declare a return type with `-> T`"),
                );
                StmtKind::Return(None)
            }
            (Some(v), t) => {
                let lowered = self.lower_expr(cx, v, Some(t));
                StmtKind::Return(Some(self.coerce(file, lowered, t)))
            }
        }
    }

    fn lower_assert(&mut self, cx: &mut BodyCtx, cond: &ast::Expr, span: Span) -> StmtKind {
        let file = self.file_of(cx.module);
        let cond = self.lower_expr(cx, cond, Some(&Ty::Bool));
        if !matches!(cond.ty, Ty::Bool) {
            if !cond.ty.has_error() {
                let shown = self.ty_name(&cond.ty);
                self.report(
                    Diagnostic::new(
                        Code("E2008"),
                        file,
                        cond.span,
                        format!("`assert` takes a `bool`, found `{shown}`"),
                    )
                    .with_label("not a truth value")
                    .with_help("compare the value, e.g. `assert x == 3;` or `assert n != 0;`"),
                );
            }
            return StmtKind::Assert {
                cond: Expr::error(cond.span),
                folded: None,
            };
        }
        if !cond.is_constant() {
            cx.runtime += 1;
            return StmtKind::Assert { cond, folded: None };
        }
        cx.folded += 1;
        let folded = match self.eval(&cond) {
            Ok(Value::Bool(b)) => Some(b),
            Ok(_) => None,
            Err(e) => {
                self.report_eval_error(cx.module, e, "this assert");
                None
            }
        };
        if folded == Some(false) {
            let mut d = self.false_assert(cx.module, &cond, span);
            if let Some((l, r)) = cx.compared_at(cond.span) {
                d = d
                    .with_note(format!("left:  {l} (binary128)"))
                    .with_note(format!("right: {r} (binary128)"))
                    .with_note("untyped floats compare exactly in binary128, as Zig's `comptime_float` (LANGUAGE.md 11.2); give one side a type, e.g. `const x : f64 = ...;`, to compare the `f64` values");
            }
            self.report(d);
        }
        StmtKind::Assert { cond, folded }
    }

    /// Explains a folded assert that is false with the values of both sides of a comparison.
    fn false_assert(&mut self, m: ModuleId, cond: &Expr, span: Span) -> Diagnostic {
        let file = self.file_of(m);
        let mut d = Diagnostic::new(Code("E3008"), file, span, "this assert is always false")
            .with_label("decided when the spec is compiled")
            .with_help("correct the constant or the expected value");
        if let ExprKind::Binary(op, l, r) = &cond.kind
            && op.is_comparison()
        {
            for (side, e) in [("left", l), ("right", r)] {
                if let Ok(v) = self.eval(e) {
                    let named = match &e.kind {
                        ExprKind::Const(id) => {
                            format!(" ({})", self.program.consts[id.index()].decl.name)
                        }
                        _ => String::new(),
                    };
                    d = d.with_note(format!("{side}: {v}{named}"));
                }
            }
        }
        d
    }
}

fn stmt_diverges(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::Block(b) => block_diverges(b),
        StmtKind::If {
            then, otherwise, ..
        } => block_diverges(then) && block_diverges(otherwise),
        StmtKind::While { cond, body, .. } => {
            matches!(cond.kind, ExprKind::Lit(Value::Bool(true))) && !breaks(body)
        }
        _ => false,
    }
}

/// Whether every path through the block ends in `return` (or a loop that never ends).
pub(crate) fn block_diverges(b: &Block) -> bool {
    b.stmts.iter().any(stmt_diverges)
}

/// Whether a `break` leaves this loop body (breaks of inner loops do not count).
fn breaks(b: &Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Break => true,
        StmtKind::Block(b) => breaks(b),
        StmtKind::If {
            then, otherwise, ..
        } => breaks(then) || breaks(otherwise),
        _ => false,
    })
}
