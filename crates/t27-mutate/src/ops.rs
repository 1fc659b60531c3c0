//! Comparisons: what each becomes in a mutant, and whether a mutant of one is the same
//! comparison over every value its variable side can take (`x <= 0` for `x == 0` on a `u32`),
//! which is then not made.

use num_bigint::BigInt;
use t27_ir::{BinOp, Expr, ExprKind, Program, Value};

/// The operators a comparison is changed to, each with whether it moves a boundary: `<` and
/// `<=`, `>` and `>=`, and an equality made one-sided (`==` to `<=` and `>=`, `!=` to `<` and
/// `>`); the others negate it. Only `==` and `!=` for operands that are not integers.
pub(crate) fn replacements(op: BinOp, ordered: bool) -> &'static [(BinOp, bool)] {
    match (op, ordered) {
        (BinOp::Eq, false) => &[(BinOp::Ne, false)],
        (BinOp::Ne, false) => &[(BinOp::Eq, false)],
        (BinOp::Eq, true) => &[(BinOp::Ne, false), (BinOp::Le, true), (BinOp::Ge, true)],
        (BinOp::Ne, true) => &[(BinOp::Eq, false), (BinOp::Lt, true), (BinOp::Gt, true)],
        (BinOp::Lt, true) => &[(BinOp::Le, true), (BinOp::Ge, false)],
        (BinOp::Le, true) => &[(BinOp::Lt, true), (BinOp::Gt, false)],
        (BinOp::Gt, true) => &[(BinOp::Ge, true), (BinOp::Le, false)],
        (BinOp::Ge, true) => &[(BinOp::Gt, true), (BinOp::Lt, false)],
        _ => &[],
    }
}

/// The integer an expression always has: a literal or a constant, through casts.
pub(crate) fn known_int(e: &Expr, p: &Program) -> Option<BigInt> {
    match &e.kind {
        ExprKind::Lit(Value::Int(v)) => Some(v.clone()),
        ExprKind::Const(id) => match &p.consts[id.index()].value {
            Some(Value::Int(v)) => Some(v.clone()),
            _ => None,
        },
        ExprKind::Cast(x) => known_int(x, p),
        _ => None,
    }
}

/// The values an integer expression can take: its type's, before any widening.
pub(crate) fn range(e: &Expr) -> Option<(BigInt, BigInt)> {
    match &e.kind {
        ExprKind::Cast(x) if x.ty.is_integer() => range(x),
        _ => e.ty.int().map(|t| (t.min(), t.max())),
    }
}

/// A comparison of one variable side with a constant: `x op c`, or `c op x` when `flipped`.
pub(crate) struct AgainstConstant {
    pub op: BinOp,
    pub constant: BigInt,
    pub flipped: bool,
}

impl AgainstConstant {
    fn at(&self, x: &BigInt) -> bool {
        if self.flipped {
            self.op.compare(&self.constant, x) == Some(true)
        } else {
            self.op.compare(x, &self.constant) == Some(true)
        }
    }
}

/// Whether `a` and `b` (the same variable side, between `lo` and `hi` and none of
/// `excluded`) agree on every value it can take. Each is constant between its constant's
/// neighbours, so the ends of each stretch of values it can take (the ends of the range, the
/// constants' neighbours, the neighbours of the excluded values) and the constants are every
/// case there is.
pub(crate) fn same_everywhere(
    a: &AgainstConstant,
    b: &AgainstConstant,
    (lo, hi): &(BigInt, BigInt),
    excluded: &[BigInt],
) -> bool {
    let one = BigInt::from(1);
    let mut points = vec![lo.clone(), hi.clone()];
    for c in [&a.constant, &b.constant].into_iter().chain(excluded) {
        points.extend([c - &one, c.clone(), c + &one]);
    }
    points
        .iter()
        .filter(|x| *x >= lo && *x <= hi && !excluded.contains(x))
        .all(|x| a.at(x) == b.at(x))
}
