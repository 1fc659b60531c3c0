//! Untyped float arithmetic, folded in IEEE binary128 as Zig's `comptime_float` is
//! (LANGUAGE.md 11.2).
//!
//! An untyped float (a float literal, an untyped constant or local `const` initialised from
//! one, and `+ - * /` and unary minus between such values) has an exact binary128 value that
//! the IR does not carry: the IR holds the value rounded once to `f64`, which is what every
//! engine and host sees. The binary128 value lives beside the IR while a body or constant is
//! lowered: in the body's `Exacts` (`BodyCtx::floats`), by the span of the literal node that
//! stands for it (a folded node is always a `Lit`) or by local for an untyped `const`, and in
//! `Checker::float_consts` for an untyped module constant. Operators consult it only when an
//! operand is an `f64`, so integer expressions never reach this file.

use crate::body::BodyCtx;
use crate::checker::Checker;
use num_bigint::BigInt;
use rustc_apfloat::ieee::{Double, Quad};
use rustc_apfloat::{Float, FloatConvert, Status};
use rustc_hash::FxHashMap;
use t27_diag::{Code, Diagnostic, Span};
use t27_ir::*;

/// The exact values of one body's (or constant's) untyped floats.
#[derive(Default)]
pub(crate) struct Exacts {
    /// By the span of the literal node that stands for each.
    by_span: FxHashMap<Span, Quad>,
    /// The untyped local `const`s and `let`s initialised from an untyped float.
    locals: FxHashMap<LocalId, Quad>,
    /// The two sides of each comparison folded exactly, by its span: a false folded assert
    /// shows them (E3008).
    compared: FxHashMap<Span, (Quad, Quad)>,
}

impl BodyCtx {
    pub(crate) fn exact_at(&self, span: Span) -> Option<Quad> {
        self.floats.as_ref()?.by_span.get(&span).copied()
    }
    fn exact_local(&self, id: LocalId) -> Option<Quad> {
        self.floats.as_ref()?.locals.get(&id).copied()
    }
    pub(crate) fn record_exact(&mut self, span: Span, q: Quad) {
        self.floats.get_or_insert_default().by_span.insert(span, q);
    }
    pub(crate) fn record_exact_local(&mut self, id: LocalId, q: Quad) {
        self.floats.get_or_insert_default().locals.insert(id, q);
    }
    /// What was recorded of the literal node at `from` (an untyped float, or a comparison of
    /// two), now the node at `to` (the parentheses around it).
    pub(crate) fn carry_exact(&mut self, from: Span, to: Span) {
        let Some(f) = self.floats.as_mut() else {
            return;
        };
        if let Some(q) = f.by_span.get(&from).copied() {
            f.by_span.insert(to, q);
        }
        if let Some(sides) = f.compared.get(&from).copied() {
            f.compared.insert(to, sides);
        }
    }
    /// The exact sides of the comparison folded at `span`.
    pub(crate) fn compared_at(&self, span: Span) -> Option<(Quad, Quad)> {
        self.floats.as_ref()?.compared.get(&span).copied()
    }
}

/// An exact untyped float, or an untyped integer literal met beside one (`3 * 0.1`).
#[derive(Clone, Copy)]
pub(crate) enum Exact {
    Float(Quad),
    /// An integer literal, converted (rounded to nearest, ties to even) when it meets a float.
    Int(Quad),
}

impl Exact {
    fn value(self) -> Quad {
        match self {
            Exact::Float(q) | Exact::Int(q) => q,
        }
    }
}

/// The binary128 value of a float literal's text (`1.5`, `1_000.25`): the decimal
/// rounded to nearest, ties to even. `fallback` is the lexer's `f64`, widened exactly, for a
/// spelling the decimal reader does not take.
pub(crate) fn literal(text: &str, fallback: f64) -> Quad {
    let clean: String = text
        .chars()
        .filter(|c| *c != '_' && !c.is_whitespace())
        .collect();
    clean.parse::<Quad>().unwrap_or_else(|_| widen(fallback))
}

/// An integer, rounded to binary128 (exact up to 113 bits).
pub(crate) fn from_int(v: &BigInt) -> Quad {
    v.to_string().parse::<Quad>().unwrap_or(Quad::NAN)
}

/// The `f64` nearest `q`, ties to even: the one rounding at a typed boundary.
pub(crate) fn to_f64(q: Quad) -> f64 {
    let mut lost = false;
    let d: Double = q.convert(&mut lost).value;
    f64::from_bits(d.to_bits() as u64)
}

fn widen(x: f64) -> Quad {
    let mut lost = false;
    Double::from_bits(x.to_bits() as u128)
        .convert(&mut lost)
        .value
}

/// Why a fold has no finite value.
enum Refusal {
    DivisionByZero,
    NotFinite,
}

/// `a op b` in binary128, each step rounded to nearest, ties to even.
fn arith(op: BinOp, a: Quad, b: Quad) -> Option<Result<Quad, Refusal>> {
    let r = match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div if b.is_zero() => return Some(Err(Refusal::DivisionByZero)),
        BinOp::Div => a / b,
        _ => return None,
    };
    let q = r.value;
    Some(if q.is_finite() && !r.status.contains(Status::INVALID_OP) {
        Ok(q)
    } else {
        Err(Refusal::NotFinite)
    })
}

fn compare(op: BinOp, a: Quad, b: Quad) -> Option<bool> {
    let ord = a.partial_cmp(&b)?;
    Some(match op {
        BinOp::Eq => ord.is_eq(),
        BinOp::Ne => ord.is_ne(),
        BinOp::Lt => ord.is_lt(),
        BinOp::Le => ord.is_le(),
        BinOp::Gt => ord.is_gt(),
        BinOp::Ge => ord.is_ge(),
        _ => return None,
    })
}

impl Checker {
    /// The binary128 value of a float literal written at `span`, recorded for the operators
    /// around it; the literal itself is that value rounded once to `f64`.
    pub(crate) fn float_literal(&mut self, cx: &mut BodyCtx, lexed: f64, span: Span) -> Expr {
        let file = self.file_of(cx.module);
        let text = self
            .sources
            .get(file)
            .text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("");
        let q = literal(text, lexed);
        self.exact_float(cx, q, span)
    }

    /// A literal node standing for the untyped float `q`, recorded in `cx`. A value beyond
    /// binary128 (a literal like `1e5000`) is refused.
    fn exact_float(&mut self, cx: &mut BodyCtx, q: Quad, span: Span) -> Expr {
        if !q.is_finite() {
            self.refuse_fold(cx, Refusal::NotFinite, span);
            return Expr::error(span);
        }
        cx.record_exact(span, q);
        Expr {
            kind: ExprKind::Lit(Value::F64(to_f64(q))),
            ty: Ty::F64,
            span,
        }
    }

    /// The exact value `e` stands for, if it is an untyped float or an untyped integer
    /// literal. Cheap: no walk, since every untyped float expression is folded into a
    /// literal as it is lowered.
    pub(crate) fn exact_of(&self, cx: &BodyCtx, e: &Expr) -> Option<Exact> {
        match (&e.kind, &e.ty) {
            (ExprKind::Lit(Value::F64(_)), Ty::F64) => cx.exact_at(e.span).map(Exact::Float),
            (ExprKind::Lit(Value::Int(v)), Ty::UntypedInt) => Some(Exact::Int(from_int(v))),
            (ExprKind::Local(id), Ty::F64) => cx.exact_local(*id).map(Exact::Float),
            (ExprKind::Const(id), Ty::F64) => self.float_consts.get(id).copied().map(Exact::Float),
            _ => None,
        }
    }

    /// The untyped float `e` stands for (not an integer literal).
    pub(crate) fn exact_float_of(&self, cx: &BodyCtx, e: &Expr) -> Option<Quad> {
        match self.exact_of(cx, e)? {
            Exact::Float(q) => Some(q),
            Exact::Int(_) => None,
        }
    }

    /// Folds `a op b` when both are untyped and at least one is a float (rules 2 and 4 of
    /// 11.2): arithmetic gives a new untyped float, a comparison a `bool`, both computed
    /// exactly in binary128. `None` leaves the operation to the typed path (an operand has
    /// a type, or the operator does not fold: `%` and the bitwise ones).
    pub(crate) fn fold_floats(
        &mut self,
        cx: &mut BodyCtx,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        span: Span,
    ) -> Option<Expr> {
        // A pattern, not `Ty`'s `==` (a call): this runs for every arithmetic operation.
        if !matches!(a.ty, Ty::F64) && !matches!(b.ty, Ty::F64) {
            return None;
        }
        let (x, y) = (self.exact_of(cx, a)?, self.exact_of(cx, b)?);
        if matches!((x, y), (Exact::Int(_), Exact::Int(_))) {
            return None;
        }
        let (x, y) = (x.value(), y.value());
        if op.is_comparison() {
            let holds = compare(op, x, y)?;
            cx.floats
                .get_or_insert_default()
                .compared
                .insert(span, (x, y));
            return Some(Expr {
                kind: ExprKind::Lit(Value::Bool(holds)),
                ty: Ty::Bool,
                span,
            });
        }
        Some(match arith(op, x, y)? {
            Ok(q) => self.exact_float(cx, q, span),
            Err(why) => {
                self.refuse_fold(cx, why, span);
                Expr::error(span)
            }
        })
    }

    /// `-x` of an untyped float: exact (rule 3).
    pub(crate) fn negate_float(&mut self, cx: &mut BodyCtx, x: &Expr, span: Span) -> Option<Expr> {
        let q = self.exact_float_of(cx, x)?;
        Some(self.exact_float(cx, -q, span))
    }

    fn refuse_fold(&mut self, cx: &BodyCtx, why: Refusal, span: Span) {
        let file = self.file_of(cx.module);
        let d = match why {
            Refusal::DivisionByZero => Diagnostic::new(
                Code("E3002"),
                file,
                span,
                "this untyped float division divides by zero",
            )
            .with_label("folded when the spec is compiled: the result would be infinite or NaN")
            .with_note("untyped floats are folded in binary128, as Zig's `comptime_float`, and a fold has to give a finite number")
            .with_help("check the divisor, or give an operand a type (`const x : f64 = ...;`) to divide at run time"),
            Refusal::NotFinite => Diagnostic::new(
                Code("E3009"),
                file,
                span,
                "this untyped float is too large for binary128",
            )
            .with_label("folded when the spec is compiled, this is infinite")
            .with_note("untyped floats are folded in binary128 (largest about 1.19e4932), as Zig's `comptime_float`")
            .with_help("change the expression so that its value stays finite"),
        };
        self.report(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_round_to_nearest_binary128() {
        // 0.1 in binary128, as Zig's `@as(u128, @bitCast(@as(f128, 0.1)))` gives it.
        assert_eq!(
            literal("0.1", 0.1).to_bits(),
            0x3FFB_9999_9999_9999_9999_9999_9999_999A
        );
        assert_eq!(
            literal("1_000.25", 0.0).to_bits(),
            literal("1000.25", 0.0).to_bits()
        );
        assert_eq!(to_f64(literal("0.1", 0.0)), 0.1);
    }

    /// `a op b` folded, or NaN when the fold is refused.
    fn fold(op: BinOp, a: Quad, b: Quad) -> Quad {
        match arith(op, a, b) {
            Some(Ok(q)) => q,
            _ => Quad::NAN,
        }
    }

    #[test]
    fn folds_differ_from_f64_where_zig_says() {
        let q = |s: &str| literal(s, 0.0);
        let sum = fold(BinOp::Add, q("0.1"), q("0.2"));
        assert_eq!(to_f64(sum), 0.3);
        assert_eq!(compare(BinOp::Gt, sum, q("0.3")), Some(true));
        let phi = q("1.618033988749895");
        let gap = fold(BinOp::Sub, fold(BinOp::Mul, phi, phi), phi);
        assert_eq!(to_f64(gap), 1.0000000000000004);
        assert!(matches!(
            arith(BinOp::Div, q("1.0"), q("0.0")),
            Some(Err(Refusal::DivisionByZero))
        ));
        assert!(arith(BinOp::Rem, q("1.0"), q("0.5")).is_none());
    }
}
