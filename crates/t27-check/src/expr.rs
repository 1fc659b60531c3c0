//! Expressions: names, literals and aggregates. Operators, calls and accessors are in
//! `ops.rs`. Lowering is bidirectional: the expected type, when there is one, lets literals
//! take their type from context; callers then `coerce` to what they need.

use crate::body::BodyCtx;
use crate::checker::{Checker, Def};
use crate::collect::path_text;
use num_bigint::BigInt;
use rustc_hash::FxHashMap as HashMap;
use t27_diag::{Code, Diagnostic, Span};
use t27_ir::*;
use t27_syntax::ast::{self, ExprKind as A};

impl Checker {
    pub(crate) fn lower_expr(
        &mut self,
        cx: &mut BodyCtx,
        e: &ast::Expr,
        expected: Option<&Ty>,
    ) -> Expr {
        let file = self.file_of(cx.module);
        let span = e.span;
        let lit = |v: Value, ty: Ty| Expr {
            kind: ExprKind::Lit(v),
            ty,
            span,
        };
        match &e.kind {
            A::Error => Expr::error(span),
            A::TooDeep => {
                self.report(
                    Diagnostic::new(
                        Code("E0109"),
                        file,
                        span,
                        "this expression is nested too deeply",
                    )
                    .with_label(format!(
                        "more than {} levels",
                        t27_syntax::ast::MAX_EXPR_DEPTH
                    ))
                    .with_help("split it: give parts of it names with `let` or constants"),
                );
                Expr::error(span)
            }
            A::Int(v) => {
                let e = lit(Value::Int(BigInt::from(v.to_biguint())), Ty::UntypedInt);
                match expected {
                    Some(t @ Ty::Int(_)) => self.coerce(file, e, t),
                    Some(Ty::F64) => {
                        // Beside an untyped float it folds with it (`0.5 * 3`, LANGUAGE.md
                        // 11.2): keep its exact value for the operator around it.
                        let exact = e.kind.clone();
                        let e = self.coerce(file, e, &Ty::F64);
                        if let (ExprKind::Lit(Value::Int(n)), ExprKind::Lit(Value::F64(_))) =
                            (exact, &e.kind)
                        {
                            cx.record_exact(span, crate::floats::from_int(&n));
                        }
                        e
                    }
                    _ => e,
                }
            }
            A::Float(x) => self.float_literal(cx, *x, span),
            A::Bool(b) => lit(Value::Bool(*b), Ty::Bool),
            A::Char(c) => {
                let e = lit(Value::Int(BigInt::from(*c)), Ty::UntypedInt);
                match expected {
                    Some(Ty::Int(t)) => self.fit_literal(file, e, *t),
                    _ => self.fit_literal(file, e, IntTy::U8),
                }
            }
            A::Str(bytes) => match expected {
                // A `[N]u8` may be initialised from a string literal.
                Some(Ty::Array(elem, n)) if **elem == Ty::Int(IntTy::U8) => {
                    if bytes.len() as u64 != *n {
                        self.report(
                            Diagnostic::new(
                                Code("E2004"),
                                file,
                                span,
                                format!("expected {n} bytes, found {}", bytes.len()),
                            )
                            .with_label(format!("{} bytes", bytes.len()))
                            .with_help(format!("the type `[{n}]u8` holds exactly {n}")),
                        );
                        return Expr::error(span);
                    }
                    let items = bytes.iter().map(|b| Value::Int(BigInt::from(*b))).collect();
                    lit(
                        Value::Array(items),
                        Ty::Array(Box::new(Ty::Int(IntTy::U8)), *n),
                    )
                }
                _ => lit(Value::Str(bytes.clone()), Ty::Str),
            },
            A::Undefined => {
                if cx.allow_undefined
                    && let Some(t) = expected
                {
                    return Expr {
                        kind: ExprKind::Undefined,
                        ty: t.clone(),
                        span,
                    };
                }
                self.report(
                    Diagnostic::new(Code("E2021"), file, span, "`undefined` is not a value")
                        .with_label("only a `var` with a declared type may start as `undefined`")
                        .with_help("use a real value here"),
                );
                Expr::error(span)
            }
            A::Path(path) => self.lower_path(cx, path, span),
            A::Paren(inner) => {
                let mut e = self.lower_expr(cx, inner, expected);
                // An untyped float keeps its exact value through the parentheses.
                if matches!(e.kind, ExprKind::Lit(_)) && cx.floats.is_some() {
                    cx.carry_exact(e.span, span);
                }
                e.span = span;
                e
            }
            A::Unary(op, x) => self.lower_unary(cx, *op, x, expected, span),
            A::Binary(op, l, r) => self.lower_binary(cx, *op, l, r, expected, span),
            A::Call(callee, args) => self.lower_call(cx, callee, args, span),
            A::Index(base, index) => self.lower_index(cx, base, index, span),
            A::Field(base, name) => self.lower_field(cx, base, name, span),
            A::Cast(x, t) => self.lower_cast(cx, x, t, span),
            A::Array(items) => self.lower_array(cx, items, expected, span),
            A::Tuple(items) => {
                let want: Option<Vec<Ty>> = match expected {
                    Some(Ty::Tuple(ts)) if ts.len() == items.len() => Some(ts.clone()),
                    _ => None,
                };
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let t = want.as_ref().map(|w| &w[i]);
                    let x = self.lower_expr(cx, item, t);
                    out.push(match t {
                        Some(t) => self.coerce(file, x, t),
                        // A view is not kept in a value: a `[]u8` is held as `[]const u8`.
                        None if x.ty == Ty::MutSlice => self.coerce(file, x, &Ty::Str),
                        None => x,
                    });
                }
                let ty = Ty::Tuple(out.iter().map(|x| x.ty.clone()).collect());
                Expr {
                    kind: ExprKind::Tuple(out),
                    ty,
                    span,
                }
            }
            A::StructLit(fields) => self.lower_struct(cx, fields, expected, span),
            A::AddrOf(x) if expected == Some(&Ty::MutSlice) => self.lower_view(cx, x, span),
            A::AddrOf(x) => {
                let inner = self.lower_expr(cx, x, None);
                match &inner.ty {
                    Ty::Array(elem, _) if **elem == Ty::Int(IntTy::U8) => Expr {
                        kind: ExprKind::AddrOf(Box::new(inner)),
                        ty: Ty::Str,
                        span,
                    },
                    t if t.has_error() => Expr::error(span),
                    t => {
                        let t = t.clone();
                        self.not_a_byte_array(file, &t, span, "remove the `&`")
                    }
                }
            }
            A::If(c, a, b) => {
                let c = self.lower_expr(cx, c, Some(&Ty::Bool));
                let c = self.coerce(file, c, &Ty::Bool);
                let a = self.lower_expr(cx, a, expected);
                let b = self.lower_expr(cx, b, expected);
                let (a, b, ty) = self.unify(file, a, b, "if");
                if ty == Ty::UntypedInt && !c.is_constant() {
                    return self.untyped_runtime(file, span);
                }
                Expr {
                    kind: ExprKind::If(Box::new(c), Box::new(a), Box::new(b)),
                    ty,
                    span,
                }
            }
            A::Switch(x, arms) => self.lower_switch(cx, x, arms, expected, span),
        }
    }

    /// An integer expression whose type nothing fixes and that cannot be computed now.
    pub(crate) fn untyped_runtime(&mut self, file: t27_diag::FileId, span: Span) -> Expr {
        self.report(
            Diagnostic::new(
                Code("E2020"),
                file,
                span,
                "the type of this value cannot be inferred",
            )
            .with_label("integer literals have no type of their own")
            .with_help("give one of the literals a type with `as`, e.g. `1 as u32`"),
        );
        Expr::error(span)
    }

    fn lower_path(&mut self, cx: &mut BodyCtx, path: &[ast::Ident], span: Span) -> Expr {
        let file = self.file_of(cx.module);
        if path.len() == 1
            && let Some(id) = cx.lookup(&path[0].name)
        {
            let local = &cx.locals[id.index()];
            let ty = local.ty.clone();
            if self.names.is_some() {
                let target = crate::NameTarget::Local {
                    file,
                    decl: local.span,
                    ty: ty.clone(),
                    declared: crate::names::LocalDecl::from_words(cx.local_kinds[id.index()]),
                };
                self.record_name(file, path[0].span, target);
            }
            return Expr {
                kind: ExprKind::Local(id),
                ty,
                span,
            };
        }
        let Some(def) = self.resolve_path_with_locals(cx, path) else {
            return Expr::error(span);
        };
        match def {
            Def::Const(id) => {
                self.ensure_const(id);
                self.note_use(file, path[path.len() - 1].span, def);
                let c = &self.program.consts[id.index()];
                match (&c.ty, &c.value) {
                    // An untyped constant is its value: it takes its type from each use.
                    (Ty::UntypedInt, Some(v)) => Expr {
                        kind: ExprKind::Lit(v.clone()),
                        ty: Ty::UntypedInt,
                        span,
                    },
                    (Ty::UntypedInt, None) => Expr::error(span),
                    (ty, _) => Expr {
                        kind: ExprKind::Const(id),
                        ty: ty.clone(),
                        span,
                    },
                }
            }
            Def::Global(id) => {
                let ty = self.program.globals[id.index()].ty.clone();
                Expr {
                    kind: ExprKind::Global(id),
                    ty,
                    span,
                }
            }
            other => {
                let what = match other {
                    Def::Fn(_) => "a function",
                    Def::Struct(_) => "a struct type",
                    Def::Test(_) => "a test",
                    _ => "a module",
                };
                let help = if matches!(other, Def::Fn(_)) {
                    "call it: `name(arguments)`"
                } else {
                    "name a constant, a variable or a parameter"
                };
                self.report(
                    Diagnostic::new(
                        Code("E2017"),
                        file,
                        span,
                        format!("`{}` is {what}, not a value", path_text(path)),
                    )
                    .with_label("not a value")
                    .with_help(help),
                );
                Expr::error(span)
            }
        }
    }

    /// Resolves a module-level name, suggesting locals too when nothing matches.
    pub(crate) fn resolve_path_with_locals(
        &mut self,
        cx: &BodyCtx,
        path: &[ast::Ident],
    ) -> Option<Def> {
        if path.len() == 1 && self.scopes[cx.module.index()].get(&path[0].name).is_none() {
            let file = self.file_of(cx.module);
            let name = &path[0];
            let scope = &self.scopes[cx.module.index()];
            let mut candidates: Vec<&str> = scope
                .items
                .keys()
                .chain(scope.imports.keys())
                .map(String::as_str)
                .collect();
            candidates.extend(cx.locals.iter().map(|l| l.name.as_str()));
            let suggestion = crate::suggest::nearest(&name.name, candidates).map(str::to_string);
            let mut d = Diagnostic::new(
                Code("E1001"),
                file,
                name.span,
                format!("no name `{}` in this scope", name.name),
            )
            .with_label("not found");
            d = match suggestion {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None => d.with_help("declare it, or import it with `use`"),
            };
            self.report(d);
            return None;
        }
        self.resolve_path(cx.module, path, "value")
    }

    fn lower_array(
        &mut self,
        cx: &mut BodyCtx,
        items: &[ast::Expr],
        expected: Option<&Ty>,
        span: Span,
    ) -> Expr {
        let file = self.file_of(cx.module);
        if let Some(Ty::Array(elem, n)) = expected {
            let elem = (**elem).clone();
            let out: Vec<Expr> = items
                .iter()
                .map(|i| {
                    let x = self.lower_expr(cx, i, Some(&elem));
                    self.coerce(file, x, &elem)
                })
                .collect();
            if out.len() as u64 != *n {
                self.report(
                    Diagnostic::new(
                        Code("E2004"),
                        file,
                        span,
                        format!("expected {n} elements, found {}", out.len()),
                    )
                    .with_label(format!("{} elements", out.len()))
                    .with_help(format!(
                        "the type `[{n}]{}` holds exactly {n}",
                        self.ty_name(&elem)
                    )),
                );
                return Expr::error(span);
            }
            return Expr {
                kind: ExprKind::Array(out),
                ty: Ty::Array(Box::new(elem), *n),
                span,
            };
        }
        let mut out: Vec<Expr> = items.iter().map(|i| self.lower_expr(cx, i, None)).collect();
        let Some(first_typed) = out
            .iter()
            .map(|x| x.ty.clone())
            .find(|t| *t != Ty::UntypedInt)
            .or_else(|| out.first().map(|x| x.ty.clone()))
        else {
            self.report(
                Diagnostic::new(
                    Code("E2020"),
                    file,
                    span,
                    "the type of an empty array cannot be inferred",
                )
                .with_label("no elements to tell the type")
                .with_help("declare the type, e.g. `const NONE : [0]str = [];`"),
            );
            return Expr::error(span);
        };
        // A view is not kept in a value: an array of `[]u8` holds `[]const u8`s.
        let first_typed = match first_typed {
            Ty::MutSlice => Ty::Str,
            t => t,
        };
        out = out
            .into_iter()
            .map(|x| self.coerce(file, x, &first_typed))
            .collect();
        let n = out.len() as u64;
        Expr {
            kind: ExprKind::Array(out),
            ty: Ty::Array(Box::new(first_typed), n),
            span,
        }
    }

    fn lower_struct(
        &mut self,
        cx: &mut BodyCtx,
        fields: &[(ast::Ident, ast::Expr)],
        expected: Option<&Ty>,
        span: Span,
    ) -> Expr {
        let file = self.file_of(cx.module);
        let Some(Ty::Struct(id)) = expected else {
            if expected.is_some_and(Ty::has_error) {
                return Expr::error(span);
            }
            self.report(
                Diagnostic::new(
                    Code("E2016"),
                    file,
                    span,
                    "cannot tell which struct this literal builds",
                )
                .with_label("no struct type expected here")
                .with_help(
                    "declare the type of the constant or variable, e.g. `const K : Key = { ... };`",
                ),
            );
            return Expr::error(span);
        };
        let id = *id;
        let decl: Vec<(String, Ty)> = self.program.structs[id.index()]
            .fields
            .iter()
            .map(|f| (f.name.clone(), f.ty.clone()))
            .collect();
        let struct_name = self.program.struct_name(id);
        let mut given: HashMap<&str, Expr> = HashMap::default();
        let mut ok = true;
        for (name, value) in fields {
            let Some(index) = decl.iter().position(|(n, _)| *n == name.name) else {
                let names: Vec<&str> = decl.iter().map(|(n, _)| n.as_str()).collect();
                self.report(
                    Diagnostic::new(
                        Code("E2016"),
                        file,
                        name.span,
                        format!("`{struct_name}` has no field `{}`", name.name),
                    )
                    .with_label("unknown field")
                    .with_note(format!("its fields are: {}", names.join(", "))),
                );
                ok = false;
                continue;
            };
            let target = crate::NameTarget::Field {
                strukt: id,
                index: index as u32,
            };
            self.record_name(file, name.span, target);
            let ty = &decl[index].1;
            let x = self.lower_expr(cx, value, Some(ty));
            let x = self.coerce(file, x, ty);
            if given.insert(&name.name, x).is_some() {
                self.report(
                    Diagnostic::new(
                        Code("E2016"),
                        file,
                        name.span,
                        format!("field `{}` is given twice", name.name),
                    )
                    .with_label("given again here"),
                );
                ok = false;
            }
        }
        let missing: Vec<&str> = decl
            .iter()
            .filter(|(n, _)| !given.contains_key(n.as_str()))
            .map(|(n, _)| n.as_str())
            .collect();
        if !missing.is_empty() {
            self.report(
                Diagnostic::new(
                    Code("E2016"),
                    file,
                    span,
                    format!("`{struct_name}` literal is missing {}", missing.join(", ")),
                )
                .with_label("every field must be given")
                .with_help(format!(
                    "add {}",
                    missing
                        .iter()
                        .map(|m| format!("`{m}: ...`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            );
            ok = false;
        }
        if !ok {
            return Expr::error(span);
        }
        let values = decl
            .iter()
            .filter_map(|(n, _)| given.remove(n.as_str()))
            .collect();
        Expr {
            kind: ExprKind::Struct(values),
            ty: Ty::Struct(id),
            span,
        }
    }

    fn lower_switch(
        &mut self,
        cx: &mut BodyCtx,
        x: &ast::Expr,
        arms: &[ast::SwitchArm],
        expected: Option<&Ty>,
        span: Span,
    ) -> Expr {
        let file = self.file_of(cx.module);
        let scrutinee = self.lower_expr(cx, x, None);
        if scrutinee.ty == Ty::UntypedInt {
            return self.untyped_runtime(file, scrutinee.span);
        }
        let sty = scrutinee.ty.clone();
        let mut lowered_arms = Vec::new();
        let mut default: Option<Expr> = None;
        let mut values: Vec<Expr> = Vec::new();
        for arm in arms {
            let value = self.lower_expr(cx, &arm.value, expected);
            if arm.patterns.is_empty() {
                default = Some(value);
                continue;
            }
            let mut patterns = Vec::new();
            for p in &arm.patterns {
                let pe = self.lower_expr(cx, p, Some(&sty));
                let pe = self.coerce(file, pe, &sty);
                if !pe.is_constant() {
                    self.report(
                        Diagnostic::new(
                            Code("E3007"),
                            file,
                            pe.span,
                            "a `switch` arm must match a constant",
                        )
                        .with_label("not known when the spec is compiled")
                        .with_help("use a literal or a constant, or an `if` for run-time values"),
                    );
                    continue;
                }
                match self.eval(&pe) {
                    Ok(v) => patterns.push(v),
                    Err(err) => self.report_eval_error(cx.module, err, "this pattern"),
                }
            }
            values.push(value);
            lowered_arms.push(patterns);
        }
        // One result type for every arm: the expected one, else the first typed arm's.
        let all: Vec<&Expr> = values.iter().chain(default.iter()).collect();
        let ty = expected.cloned().or_else(|| {
            all.iter()
                .map(|v| v.ty.clone())
                .find(|t| *t != Ty::UntypedInt)
        });
        let ty = match ty {
            Some(t) => t,
            None if all.is_empty() => Ty::Error,
            None => return self.untyped_runtime(file, span),
        };
        let values: Vec<Expr> = values
            .into_iter()
            .map(|v| self.coerce(file, v, &ty))
            .collect();
        let default = default.map(|d| Box::new(self.coerce(file, d, &ty)));
        let covers_bool = sty == Ty::Bool
            && lowered_arms
                .iter()
                .flatten()
                .any(|v| *v == Value::Bool(true))
            && lowered_arms
                .iter()
                .flatten()
                .any(|v| *v == Value::Bool(false));
        if default.is_none() && !covers_bool && !sty.has_error() {
            self.report(
                Diagnostic::new(
                    Code("E2015"),
                    file,
                    span,
                    "this `switch` does not cover every value",
                )
                .with_label("no arm for the values not listed")
                .with_help("add a last arm `else => ...`"),
            );
        }
        let arms = lowered_arms
            .into_iter()
            .zip(values)
            .map(|(patterns, value)| SwitchArm { patterns, value })
            .collect();
        Expr {
            kind: ExprKind::Switch(Box::new(scrutinee), arms, default),
            ty,
            span,
        }
    }
}
