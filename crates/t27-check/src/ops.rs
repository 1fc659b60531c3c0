//! Operators, indexing, fields, casts and assignable places.

use crate::body::BodyCtx;
use crate::checker::Checker;
use crate::coerce::article;
use crate::consteval;
use t27_diag::{Code, Diagnostic, FileId, Span};
use t27_ir::*;
use t27_syntax::ast::{self, ExprKind as A};

impl Checker {
    pub(crate) fn lower_unary(
        &mut self,
        cx: &mut BodyCtx,
        op: UnOp,
        x: &ast::Expr,
        expected: Option<&Ty>,
        span: Span,
    ) -> Expr {
        // `-2147483648 as i32` reads as `-(2147483648 as i32)`: `as` binds tighter than `-`.
        // When only the negated literal fits, say so instead of reporting a lossy cast.
        if let (UnOp::Neg, A::Cast(inner, target)) = (op, &x.kind)
            && let (A::Int(v), t27_syntax::ast::TypeKind::Named(path)) = (&inner.kind, &target.kind)
        {
            let n = num_bigint::BigInt::from(v.to_biguint());
            if let Some(t) = path
                .first()
                .and_then(|p| IntTy::from_name(&p.name))
                .filter(|_| path.len() == 1)
                && !t.fits(&n)
                && t.fits(&-n.clone())
            {
                let file = self.file_of(cx.module);
                self.report(
                    Diagnostic::new(
                        Code("E3005"),
                        file,
                        x.span,
                        format!("`{n}` does not fit `{}`, so `as` would lose it", t.name()),
                    )
                    .with_label("`as` applies to the literal before the `-` does")
                    .with_note("`as` binds tighter than a prefix `-`")
                    .with_help(format!("write `(-{n}) as {}`", t.name())),
                );
                return Expr::error(span);
            }
        }
        let file = self.file_of(cx.module);
        let hint = if op == UnOp::Not {
            Some(&Ty::Bool)
        } else {
            // A negated literal stays untyped until it is folded, so `-128` fits an `i8`.
            expected.filter(|t| matches!(t, Ty::F64))
        };
        let inner = self.lower_expr(cx, x, hint);
        let ok = match (op, &inner.ty) {
            (_, t) if t.has_error() => return Expr::error(span),
            (UnOp::Not, Ty::Bool) => true,
            (UnOp::Neg, Ty::UntypedInt | Ty::F64) => true,
            (UnOp::Neg, Ty::Int(t)) => t.signed(),
            _ => false,
        };
        if !ok {
            let shown = self.ty_name(&inner.ty);
            let (sym, help) = match op {
                UnOp::Not => ("!", "`!` negates a `bool`; compare the value instead"),
                UnOp::Neg => (
                    "-",
                    "only signed integers and `f64` have negatives; convert with `as i64` first",
                ),
            };
            self.report(
                Diagnostic::new(
                    Code("E2009"),
                    file,
                    span,
                    format!("`{sym}` does not work on `{shown}`"),
                )
                .with_label(format!("this is {}", article(&shown)))
                .with_help(help),
            );
            return Expr::error(span);
        }
        if op == UnOp::Neg
            && matches!(inner.ty, Ty::F64)
            && let Some(folded) = self.negate_float(cx, &inner, span)
        {
            return folded;
        }
        let ty = inner.ty.clone();
        let e = Expr {
            kind: ExprKind::Unary(op, Box::new(inner)),
            ty,
            span,
        };
        self.fold_untyped(cx.module, e, expected)
    }

    /// Computes an expression of literals only right away, so that it is again a literal.
    fn fold_untyped(&mut self, m: ModuleId, e: Expr, expected: Option<&Ty>) -> Expr {
        if e.ty != Ty::UntypedInt || !e.is_constant() {
            return e;
        }
        let span = e.span;
        let folded = match self.eval(&e) {
            Ok(v) => Expr {
                kind: ExprKind::Lit(v),
                ty: Ty::UntypedInt,
                span,
            },
            Err(err) => {
                self.report_eval_error(m, err, "this expression");
                return Expr::error(span);
            }
        };
        match expected {
            Some(t @ Ty::Int(_)) => {
                let file = self.file_of(m);
                self.coerce(file, folded, t)
            }
            _ => folded,
        }
    }

    pub(crate) fn lower_binary(
        &mut self,
        cx: &mut BodyCtx,
        op: BinOp,
        l: &ast::Expr,
        r: &ast::Expr,
        expected: Option<&Ty>,
        span: Span,
    ) -> Expr {
        let file = self.file_of(cx.module);
        if matches!(op, BinOp::And | BinOp::Or) {
            let a = self.lower_expr(cx, l, Some(&Ty::Bool));
            let b = self.lower_expr(cx, r, Some(&Ty::Bool));
            for side in [&a, &b] {
                if side.ty != Ty::Bool && !side.ty.has_error() {
                    let shown = self.ty_name(&side.ty);
                    self.report(
                        Diagnostic::new(
                            Code("E2009"),
                            file,
                            side.span,
                            format!("`{}` takes `bool` operands, found `{shown}`", op.symbol()),
                        )
                        .with_label(format!("this is {}", article(&shown)))
                        .with_help("compare the value to get a `bool`, e.g. `x != 0`"),
                    );
                }
            }
            return Expr {
                kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
                ty: Ty::Bool,
                span,
            };
        }
        if op.is_comparison() {
            let chained = |e: &ast::Expr| matches!(&e.kind, A::Binary(o, ..) if o.is_comparison());
            if chained(l) || chained(r) {
                self.report(
                    Diagnostic::new(Code("E0106"), file, span, "comparisons do not chain")
                        .with_label("two comparisons in a row")
                        .with_help(
                            "write `a < b and b < c`, or add parentheses to compare a `bool`",
                        ),
                );
                return Expr::error(span);
            }
            let (a, b) = if is_literal_shift(l) && !is_literal_shift(r) {
                // `(1 << kind) == mask`: the shift's literal takes the other side's type.
                let b = self.lower_expr(cx, r, None);
                let a = self.lower_expr(cx, l, Some(&b.ty).filter(|t| matches!(t, Ty::Int(_))));
                (a, b)
            } else {
                let a = self.lower_expr(cx, l, None);
                let wanted =
                    |t: &Ty| !t.is_integer() || (is_literal_shift(r) && t != &Ty::UntypedInt);
                let b = self.lower_expr(cx, r, Some(&a.ty).filter(|t| wanted(t)));
                (a, b)
            };
            // Two untyped floats compare exactly, in binary128 (LANGUAGE.md 11.2).
            if let Some(folded) = self.fold_floats(cx, op, &a, &b, span) {
                return folded;
            }
            let a = if a.ty == Ty::UntypedInt && b.ty != Ty::UntypedInt {
                self.coerce(file, a, &b.ty.clone())
            } else {
                a
            };
            let (a, b, ty) = self.unify(file, a, b, op.symbol());
            let ordered = !matches!(op, BinOp::Eq | BinOp::Ne);
            if ordered && !matches!(ty, Ty::Int(_) | Ty::UntypedInt | Ty::F64 | Ty::Error) {
                let shown = self.ty_name(&ty);
                self.report(
                    Diagnostic::new(
                        Code("E2009"),
                        file,
                        span,
                        format!("`{}` does not order `{shown}` values", op.symbol()),
                    )
                    .with_label("only integers and `f64` are ordered")
                    .with_help("use `==` or `!=`"),
                );
                return Expr::error(span);
            }
            let e = Expr {
                kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
                ty: Ty::Bool,
                span,
            };
            if ty == Ty::UntypedInt {
                return self.fold_bool(cx.module, e);
            }
            return e;
        }
        // Arithmetic, bitwise and shifts. Operands are lowered without an integer expected
        // type, so that a literals-only part is computed exactly and fitted once, at the end.
        let hint = expected.filter(|t| matches!(t, Ty::F64));
        let is_shift = matches!(op, BinOp::Shl | BinOp::Shr);
        let (a, b, ty) = if is_shift {
            let a = self.lower_expr(cx, l, hint);
            let ty = a.ty.clone();
            let b = self.lower_shift_amount(file, &ty, r, cx);
            if b.ty.is_error() {
                return Expr::error(span);
            }
            if ty == Ty::UntypedInt && !b.is_constant() {
                // `1 << kind`: the literal takes the type the context wants (a declared
                // type, an assignment's target, the other operand of `&`, `==`...).
                return match expected {
                    Some(t @ Ty::Int(_)) => {
                        let a = self.coerce(file, a, t);
                        Expr {
                            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
                            ty: t.clone(),
                            span,
                        }
                    }
                    // What would have given it a type is already reported as wrong.
                    Some(Ty::Error) => Expr::error(span),
                    _ => self.untyped_runtime(file, a.span),
                };
            }
            (a, b, ty)
        } else if is_literal_shift(l) && !is_literal_shift(r) {
            // `(1 << kind) & mask`: the shift's literal takes its type from the other side.
            let b = self.lower_expr(cx, r, hint);
            let a = self.lower_expr(cx, l, Some(&b.ty).filter(|t| matches!(t, Ty::Int(_))));
            self.unify(file, a, b, op.symbol())
        } else {
            // An `f64` wanted around the operation is not handed to the operands: an integer
            // part is computed as integers first, as in Zig (`(7 / 2) * 0.5` is 1.5 in an
            // `f64`, not 1.75). An integer literal still takes `f64` from the other operand.
            let a = self.lower_expr(cx, l, None);
            let other = Some(&a.ty).filter(|t| match t {
                Ty::F64 => true,
                Ty::Int(_) => is_literal_shift(r),
                _ => false,
            });
            let b = self.lower_expr(cx, r, other);
            // Untyped floats fold in binary128 (LANGUAGE.md 11.2), before `unify` gives an
            // integer literal beside one the type `f64`.
            if let Some(folded) = self.fold_floats(cx, op, &a, &b, span) {
                return folded;
            }
            self.unify(file, a, b, op.symbol())
        };
        let numeric = match (&ty, op) {
            (Ty::Error, _) => return Expr::error(span),
            (Ty::Int(_) | Ty::UntypedInt, _) => true,
            (Ty::F64, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem) => true,
            _ => false,
        };
        if !numeric {
            let shown = self.ty_name(&ty);
            self.report(
                Diagnostic::new(
                    Code("E2009"),
                    file,
                    span,
                    format!("`{}` does not work on `{shown}`", op.symbol()),
                )
                .with_label(format!("operands are {}", article(&shown)))
                .with_help("arithmetic works on integers (and `+ - * / %` on `f64`)"),
            );
            return Expr::error(span);
        }
        let e = Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty,
            span,
        };
        self.fold_untyped(cx.module, e, expected)
    }

    /// The amount of a shift (`x << n`, `x >> n`, `x <<= n`, `x >>= n`) whose left side has
    /// type `left`: any integer type, checked against the width of `left` when it is a
    /// constant. An error expression when it is wrong (already reported).
    pub(crate) fn lower_shift_amount(
        &mut self,
        file: FileId,
        left: &Ty,
        amount: &ast::Expr,
        cx: &mut BodyCtx,
    ) -> Expr {
        let b = self.lower_expr(cx, amount, None);
        if !matches!(b.ty, Ty::Int(_) | Ty::UntypedInt | Ty::Error) {
            let shown = self.ty_name(&b.ty);
            self.report(
                Diagnostic::new(
                    Code("E2009"),
                    file,
                    b.span,
                    format!("a shift amount must be an integer, found `{shown}`"),
                )
                .with_label(format!("this is {}", article(&shown))),
            );
            return Expr::error(b.span);
        }
        if !self.shift_amount_fits(file, left, &b) {
            return Expr::error(b.span);
        }
        b
    }

    /// A shift of a `uN`/`iN` value by a constant amount at or past N is certain to trap
    /// wherever it runs, so it is refused where it is written (E3004 at the amount, LANGUAGE.md
    /// 6), even in a function no block calls. Reports it and returns false; true otherwise
    /// (an amount known only at run time is checked when it runs).
    pub(crate) fn shift_amount_fits(&mut self, file: FileId, left: &Ty, amount: &Expr) -> bool {
        let Ty::Int(t) = left else { return true };
        if !amount.is_constant() {
            return true;
        }
        let Ok(Value::Int(n)) = self.eval(amount) else {
            return true;
        };
        let bits = t.bits();
        if num_traits::ToPrimitive::to_u32(&n).is_some_and(|n| n < bits) {
            return true;
        }
        self.report(
            Diagnostic::new(
                Code("E3004"),
                file,
                amount.span,
                format!("{} cannot be shifted by {n}", article(t.name())),
            )
            .with_label(format!("{} shifts by 0 to {}", article(t.name()), bits - 1))
            .with_note("a shift by the width or more traps wherever it runs, so it is refused here")
            .with_help("shift by less than the width of the type, or widen it first"),
        );
        false
    }

    fn fold_bool(&mut self, m: ModuleId, e: Expr) -> Expr {
        let span = e.span;
        match self.eval(&e) {
            Ok(v) => Expr {
                kind: ExprKind::Lit(v),
                ty: Ty::Bool,
                span,
            },
            Err(err) => {
                self.report_eval_error(m, err, "this comparison");
                Expr::error(span)
            }
        }
    }

    pub(crate) fn no_field(&mut self, file: FileId, ty: &Ty, name: &ast::Ident, call: bool) {
        let shown = self.ty_name(ty);
        let available: Vec<String> = match ty {
            Ty::Str => vec!["len".into(), "contains".into()],
            Ty::Array(..) => vec!["len".into()],
            Ty::Struct(id) => self.program.structs[id.index()]
                .fields
                .iter()
                .map(|f| f.name.clone())
                .collect(),
            _ => Vec::new(),
        };
        let kind = if call { "method" } else { "field" };
        let mut d = Diagnostic::new(
            Code("E2011"),
            file,
            name.span,
            format!("`{shown}` has no {kind} `{}`", name.name),
        )
        .with_label(format!("unknown {kind}"));
        d = match crate::suggest::nearest(&name.name, available.iter().map(String::as_str)) {
            Some(s) => d.with_help(format!("did you mean `{s}`?")),
            None if available.is_empty() => {
                d.with_note(format!("{} has no fields or methods", article(&shown)))
            }
            None => d.with_note(format!("available: {}", available.join(", "))),
        };
        self.report(d);
    }

    pub(crate) fn lower_field(
        &mut self,
        cx: &mut BodyCtx,
        base: &ast::Expr,
        name: &ast::Ident,
        span: Span,
    ) -> Expr {
        let file = self.file_of(cx.module);
        let base = self.lower_expr(cx, base, None);
        match &base.ty {
            t if t.has_error() => Expr::error(span),
            Ty::Str | Ty::MutSlice | Ty::Array(..) if name.name == "len" => Expr {
                kind: ExprKind::Len(Box::new(base)),
                ty: Ty::Int(IntTy::Usize),
                span,
            },
            Ty::Struct(id) => {
                let fields = &self.program.structs[id.index()].fields;
                match fields.iter().position(|f| f.name == name.name) {
                    Some(i) => {
                        let ty = fields[i].ty.clone();
                        let target = crate::NameTarget::Field {
                            strukt: *id,
                            index: i as u32,
                        };
                        self.record_name(file, name.span, target);
                        self.note_use(file, name.span, crate::checker::Def::Struct(*id));
                        Expr {
                            kind: ExprKind::Field(Box::new(base), i as u32),
                            ty,
                            span,
                        }
                    }
                    None => {
                        let ty = base.ty.clone();
                        self.no_field(file, &ty, name, false);
                        Expr::error(span)
                    }
                }
            }
            other => {
                let ty = other.clone();
                self.no_field(file, &ty, name, false);
                Expr::error(span)
            }
        }
    }

    pub(crate) fn lower_index(
        &mut self,
        cx: &mut BodyCtx,
        base: &ast::Expr,
        index: &ast::Expr,
        span: Span,
    ) -> Expr {
        let file = self.file_of(cx.module);
        let base = self.lower_expr(cx, base, None);
        let usize_ty = Ty::Int(IntTy::Usize);
        let index = self.lower_expr(cx, index, Some(&usize_ty));
        let index = match &index.ty {
            Ty::Int(t) if !t.signed() => index,
            t if t.has_error() => return Expr::error(span),
            _ => {
                let shown = self.ty_name(&index.ty);
                self.report(
                    Diagnostic::new(
                        Code("E2001"),
                        file,
                        index.span,
                        format!("an index must be an unsigned integer, found `{shown}`"),
                    )
                    .with_label(format!("this is {}", article(&shown)))
                    .with_help("convert it with `as usize`"),
                );
                return Expr::error(span);
            }
        };
        let elem = match &base.ty {
            Ty::Array(elem, _) => (**elem).clone(),
            Ty::Str | Ty::MutSlice => Ty::Int(IntTy::U8),
            t if t.has_error() => return Expr::error(span),
            other => {
                let shown = self.ty_name(other);
                self.report(
                    Diagnostic::new(
                        Code("E2010"),
                        file,
                        base.span,
                        format!("`{shown}` cannot be indexed"),
                    )
                    .with_label(format!(
                        "this is {}, not an array or string",
                        article(&shown)
                    ))
                    .with_help("index an array, a string or a slice"),
                );
                return Expr::error(span);
            }
        };
        Expr {
            kind: ExprKind::Index(Box::new(base), Box::new(index)),
            ty: elem,
            span,
        }
    }

    pub(crate) fn lower_cast(
        &mut self,
        cx: &mut BodyCtx,
        x: &ast::Expr,
        t: &ast::TypeExpr,
        span: Span,
    ) -> Expr {
        let file = self.file_of(cx.module);
        let target = self.resolve_type(cx.module, t);
        let inner = self.lower_expr(cx, x, None);
        if inner.ty.has_error() || target.has_error() {
            return Expr::error(span);
        }
        match (&inner.ty, &target) {
            (Ty::UntypedInt, Ty::Int(_) | Ty::F64) => {
                // A literal cast is decided now: it fits, or it is a lossy cast at compile time.
                let ExprKind::Lit(v) = &inner.kind else {
                    return inner;
                };
                match consteval::cast(v.clone(), &target, span, &self.program) {
                    Ok(v) => Expr {
                        kind: ExprKind::Lit(v),
                        ty: target,
                        span,
                    },
                    Err(err) => {
                        self.report_eval_error(cx.module, err, "this conversion");
                        Expr::error(span)
                    }
                }
            }
            (Ty::Int(_) | Ty::F64, Ty::Int(_) | Ty::F64) => Expr {
                kind: ExprKind::Cast(Box::new(inner)),
                ty: target,
                span,
            },
            (from, to) => {
                let (from, to) = (self.ty_name(from), self.ty_name(to));
                self.report(
                    Diagnostic::new(
                        Code("E2012"),
                        file,
                        span,
                        format!("`{from}` does not convert to `{to}` with `as`"),
                    )
                    .with_label("`as` converts between integers and `f64` only")
                    .with_help(if from == "bool" {
                        "use `if (b) 1 else 0`"
                    } else {
                        "compute the value instead"
                    }),
                );
                Expr::error(span)
            }
        }
    }

    /// An assignable place: a `var` local, a module `var`, or an element or field of one.
    pub(crate) fn lower_place(&mut self, cx: &mut BodyCtx, target: &ast::Expr) -> Expr {
        let file = self.file_of(cx.module);
        let place = self.lower_expr(cx, target, None);
        if let Some((why, decl)) = self.immutable_root(cx, &place) {
            let mut d = Diagnostic::new(
                Code("E2006"),
                file,
                target.span,
                format!("cannot assign to {why}"),
            )
            .with_label("immutable")
            .with_help(match &place.kind {
                ExprKind::Index(base, _) if base.ty == Ty::Str => {
                    "to write bytes, take a `[]u8` parameter and pass it `&buf` of a `var buf : [N]u8`"
                }
                _ => "declare it with `var` to change it",
            });
            if let Some((decl_file, span)) = decl {
                d = d.with_secondary(decl_file, span, "declared here");
            }
            self.report(d);
            return Expr::error(place.span);
        }
        place
    }

    /// Why a place cannot be assigned, and where its root was declared.
    #[allow(clippy::type_complexity)]
    pub(crate) fn immutable_root(
        &self,
        cx: &BodyCtx,
        e: &Expr,
    ) -> Option<(String, Option<(FileId, Span)>)> {
        let file = self.file_of(cx.module);
        match &e.kind {
            ExprKind::Error | ExprKind::Global(_) => None,
            ExprKind::Local(id) => {
                let l = &cx.locals[id.index()];
                (!l.mutable).then(|| {
                    (
                        format!("`{}`, a {} local", l.name, cx.local_kinds[id.index()])
                            .replace("a a parameter local", "a parameter"),
                        Some((file, l.span)),
                    )
                })
            }
            ExprKind::Const(id) => {
                let c = &self.program.consts[id.index()];
                Some((
                    format!("the constant `{}`", c.decl.name),
                    Some((self.file_of(c.decl.module), c.decl.name_span)),
                ))
            }
            // The bytes of a `[]u8` are the caller's `var` array: writable.
            ExprKind::Index(base, _) if base.ty == Ty::MutSlice => None,
            ExprKind::Index(base, _) if base.ty == Ty::Str => Some((
                "a byte of a string; strings and `[]const u8` are read-only".to_string(),
                None,
            )),
            ExprKind::Index(base, _) | ExprKind::Field(base, _) => self.immutable_root(cx, base),
            _ => Some(("this expression: it is not a variable".to_string(), None)),
        }
    }
}

/// Whether `e` shifts an integer literal (`1 << kind`, in parentheses or not): such a
/// literal has no type until its context gives one.
fn is_literal_shift(e: &ast::Expr) -> bool {
    match &e.kind {
        A::Paren(x) => is_literal_shift(x),
        A::Binary(BinOp::Shl | BinOp::Shr, l, _) => is_literal(l),
        _ => false,
    }
}

fn is_literal(e: &ast::Expr) -> bool {
    match &e.kind {
        A::Paren(x) => is_literal(x),
        A::Int(_) => true,
        _ => false,
    }
}

pub(crate) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
