//! Implicit conversions: fitting untyped literals to their context and lossless widening.

use crate::checker::Checker;
use t27_diag::{Code, Diagnostic, FileId};
use t27_ir::*;

impl Checker {
    /// Converts `e` to type `to` where the language allows it without `as`, reporting a
    /// mismatch otherwise. `what` names the context for messages ("the declared type").
    pub(crate) fn coerce(&mut self, file: FileId, e: Expr, to: &Ty) -> Expr {
        if e.ty == *to || e.ty.has_error() || to.has_error() {
            return e;
        }
        match (&e.ty, to) {
            (Ty::UntypedInt, Ty::Int(t)) => self.fit_literal(file, e, *t),
            // A `[]u8` read as `[]const u8`: the bytes it holds at that moment.
            (Ty::MutSlice, Ty::Str) => {
                let span = e.span;
                Expr {
                    kind: ExprKind::Cast(Box::new(e)),
                    ty: Ty::Str,
                    span,
                }
            }
            (Ty::Str, Ty::MutSlice) => {
                let span = e.span;
                self.read_only_bytes(file, &e, span);
                Expr::error(span)
            }
            (Ty::UntypedInt, Ty::F64) => {
                let span = e.span;
                let x = match &e.kind {
                    ExprKind::Lit(Value::Int(v)) => {
                        num_traits::ToPrimitive::to_f64(v).unwrap_or(f64::NAN)
                    }
                    _ => return e,
                };
                Expr {
                    kind: ExprKind::Lit(Value::F64(x)),
                    ty: Ty::F64,
                    span,
                }
            }
            (Ty::Int(from), Ty::Int(t)) if from.widens_to(*t) => {
                let span = e.span;
                Expr {
                    kind: ExprKind::Cast(Box::new(e)),
                    ty: to.clone(),
                    span,
                }
            }
            (Ty::Int(from), Ty::Int(t)) => {
                let d = Diagnostic::new(
                    Code("E2001"),
                    file,
                    e.span,
                    format!("expected `{}`, found `{}`", t.name(), from.name()),
                )
                .with_label(format!("this is {}", article(from.name())))
                .with_note(format!(
                    "not every `{}` value is a `{}` value",
                    from.name(),
                    t.name()
                ))
                .with_help(format!(
                    "convert explicitly with `as {}`; a value that does not fit traps",
                    t.name()
                ));
                self.report(d);
                Expr::error(e.span)
            }
            (Ty::Array(from_elem, n), Ty::Array(to_elem, m)) if n == m => {
                // An array literal of untyped integers met its element type late.
                let span = e.span;
                let to_elem = (**to_elem).clone();
                match e.kind {
                    ExprKind::Array(items) if **from_elem == Ty::UntypedInt => {
                        let items = items
                            .into_iter()
                            .map(|i| self.coerce(file, i, &to_elem))
                            .collect();
                        Expr {
                            kind: ExprKind::Array(items),
                            ty: to.clone(),
                            span,
                        }
                    }
                    kind => self.mismatch(
                        file,
                        Expr {
                            kind,
                            ty: e.ty,
                            span,
                        },
                        to,
                    ),
                }
            }
            _ => self.mismatch(file, e, to),
        }
    }

    fn mismatch(&mut self, file: FileId, e: Expr, to: &Ty) -> Expr {
        let (want, found) = (self.ty_name(to), self.ty_name(&e.ty));
        let mut d = Diagnostic::new(
            Code("E2001"),
            file,
            e.span,
            format!("expected `{want}`, found `{found}`"),
        )
        .with_label(format!("this is {}", article(&found)));
        if let (Ty::Array(_, n), Ty::Array(_, m)) = (&e.ty, to)
            && n != m
        {
            d = Diagnostic::new(
                Code("E2004"),
                file,
                e.span,
                format!("expected {m} elements, found {n}"),
            )
            .with_label(format!("{n} elements"))
            .with_help(format!("the type `{want}` holds exactly {m}"));
        }
        self.report(d);
        Expr::error(e.span)
    }

    /// Fits an untyped integer literal into `t`, or reports the range it misses.
    pub(crate) fn fit_literal(&mut self, file: FileId, e: Expr, t: IntTy) -> Expr {
        let span = e.span;
        let ExprKind::Lit(Value::Int(v)) = &e.kind else {
            return e;
        };
        if t.fits(v) {
            return Expr {
                kind: e.kind,
                ty: Ty::Int(t),
                span,
            };
        }
        let v = v.clone();
        self.report(
            Diagnostic::new(
                Code("E2002"),
                file,
                span,
                format!("`{v}` does not fit `{}`", t.name()),
            )
            .with_label(format!("`{}` holds {} to {}", t.name(), t.min(), t.max()))
            .with_help("use a value inside the range, or a wider type"),
        );
        Expr::error(span)
    }

    /// Gives two operands one type: literals take the other side's type, and the narrower
    /// integer widens when no value can be lost. Reports operands that cannot meet.
    pub(crate) fn unify(&mut self, file: FileId, l: Expr, r: Expr, op: &str) -> (Expr, Expr, Ty) {
        if l.ty.has_error() || r.ty.has_error() {
            return (l, r, Ty::Error);
        }
        if l.ty == r.ty {
            let ty = l.ty.clone();
            return (l, r, ty);
        }
        match (&l.ty, &r.ty) {
            (Ty::MutSlice, Ty::Str) => {
                let l = self.coerce(file, l, &Ty::Str);
                (l, r, Ty::Str)
            }
            (Ty::Str, Ty::MutSlice) => {
                let r = self.coerce(file, r, &Ty::Str);
                (l, r, Ty::Str)
            }
            (Ty::UntypedInt, Ty::Int(_) | Ty::F64) => {
                let ty = r.ty.clone();
                let l = self.coerce(file, l, &ty);
                (l, r, ty)
            }
            (Ty::Int(_) | Ty::F64, Ty::UntypedInt) => {
                let ty = l.ty.clone();
                let r = self.coerce(file, r, &ty);
                (l, r, ty)
            }
            (Ty::Int(a), Ty::Int(b)) => {
                let (a, b) = (*a, *b);
                if a.widens_to(b) {
                    let ty = Ty::Int(b);
                    let l = self.coerce(file, l, &ty);
                    (l, r, ty)
                } else if b.widens_to(a) {
                    let ty = Ty::Int(a);
                    let r = self.coerce(file, r, &ty);
                    (l, r, ty)
                } else {
                    let span = l.span.to(r.span);
                    self.report(
                        Diagnostic::new(
                            Code("E2003"),
                            file,
                            span,
                            format!("`{op}` mixes `{}` and `{}`", a.name(), b.name()),
                        )
                        .with_label("no common type holds every value of both")
                        .with_secondary(file, l.span, format!("this is {}", article(a.name())))
                        .with_secondary(file, r.span, format!("this is {}", article(b.name())))
                        .with_help(format!(
                            "convert one side with `as`, e.g. `... as {}`",
                            widest(a, b).name()
                        )),
                    );
                    (l, r, Ty::Error)
                }
            }
            (Ty::Array(..), Ty::Array(..)) => {
                let ty = l.ty.clone();
                let r = self.coerce(file, r, &ty);
                (l, r, ty)
            }
            _ => {
                let span = l.span.to(r.span);
                let (lt, rt) = (self.ty_name(&l.ty), self.ty_name(&r.ty));
                self.report(
                    Diagnostic::new(
                        Code("E2009"),
                        file,
                        span,
                        format!("`{op}` cannot combine `{lt}` and `{rt}`"),
                    )
                    .with_secondary(file, l.span, format!("this is {}", article(&lt)))
                    .with_secondary(file, r.span, format!("this is {}", article(&rt)))
                    .with_label("operands of different types"),
                );
                (l, r, Ty::Error)
            }
        }
    }
}

fn widest(a: IntTy, b: IntTy) -> IntTy {
    if a.bits() >= b.bits() {
        if a.signed() { a } else { IntTy::I64 }
    } else if b.signed() {
        b
    } else {
        IntTy::I64
    }
}

/// "a `u32`", "an integer literal".
pub(crate) fn article(ty_name: &str) -> String {
    if ty_name == "integer literal" {
        "an integer literal".to_string()
    } else if ty_name.starts_with(['i', 'f']) {
        format!("an `{ty_name}`")
    } else {
        format!("a `{ty_name}`")
    }
}
