//! The evaluator's fast path for integer expressions that read only variables, constants and
//! literals: the loop conditions, indexes and counters of byte loops (`i < s.len()`,
//! `s[i] == b`, `a + s[i] * (i % 7 + 1)`). They are computed straight to an `i128`, without
//! building, cloning and dropping run-time values or copying a string to take its length.
//!
//! Exactness first: this path gives the value, or the trap, that `Machine::eval` gives for the
//! same expression, through the same helpers (`int_binary`, `fit`). What it does not know it
//! leaves to the slow path (`Fast::Slow`); since the expressions it takes have no effects (no
//! calls, no views, no counters), computing part of one and then leaving it is harmless, and a
//! trap it reports is the one the slow path, evaluating in the same order, would meet first.

use crate::ops::{fit_kind, int_binary};
use crate::value::Rt;
use t27_diag::Span;
use t27_ir::*;

/// What the fast path made of an expression.
pub(crate) enum Fast {
    Int(i128),
    Trap(TrapKind, Span),
    /// Not an expression of its shapes: the slow path computes it.
    Slow,
}

/// Where the fast path reads variables from.
pub(crate) struct Vars<'a> {
    pub consts: &'a [Rt],
    pub globals: &'a [Rt],
    pub frame: &'a [Rt],
}

/// Tries `Fast` on each expression and returns from the function unless it gave an integer.
macro_rules! int {
    ($e:expr) => {
        match $e {
            Fast::Int(v) => v,
            other => return other,
        }
    };
}

impl Vars<'_> {
    /// The variable or constant `e` names, if it is one.
    fn var(&self, e: &Expr) -> Option<&Rt> {
        match &e.kind {
            ExprKind::Local(id) => self.frame.get(id.index()),
            ExprKind::Const(id) => self.consts.get(id.index()),
            ExprKind::Global(id) => self.globals.get(id.index()),
            _ => None,
        }
    }

    /// `e` computed as `Machine::eval` computes it, when it is an integer of the fast shapes.
    pub(crate) fn int(&self, e: &Expr) -> Fast {
        match &e.kind {
            ExprKind::Local(_) | ExprKind::Const(_) | ExprKind::Global(_) => match self.var(e) {
                Some(Rt::Int(v)) => Fast::Int(*v),
                _ => Fast::Slow,
            },
            ExprKind::Lit(Value::Int(v)) => i128::try_from(v).map_or(Fast::Slow, Fast::Int),
            ExprKind::Len(x) => match &x.ty {
                Ty::Array(_, n) => Fast::Int(*n as i128),
                _ => match self.var(x) {
                    Some(Rt::Str(s)) => Fast::Int(s.len() as i128),
                    Some(Rt::Shared(cell)) => match &*cell.borrow() {
                        Rt::Agg(items) => Fast::Int(items.len() as i128),
                        _ => Fast::Int(0),
                    },
                    _ => Fast::Slow,
                },
            },
            ExprKind::Index(base, index) => {
                let Some(b) = self.var(base) else {
                    return Fast::Slow;
                };
                let i = int!(self.int(index));
                element(b, i, index.span)
            }
            ExprKind::Binary(op, l, r)
                if !op.is_comparison() && !matches!(op, BinOp::And | BinOp::Or) =>
            {
                let a = int!(self.int(l));
                let b = int!(self.int(r));
                match int_binary(*op, a, b, &l.ty) {
                    Ok(v) => Fast::Int(v),
                    Err(kind) => Fast::Trap(kind, e.span),
                }
            }
            ExprKind::Cast(x) if matches!(e.ty, Ty::Int(_)) && x.ty != Ty::MutSlice => {
                let v = int!(self.int(x));
                fit_kind(v, &e.ty, TrapKind::LossyCast)
                    .map_or_else(|k| Fast::Trap(k, e.span), Fast::Int)
            }
            ExprKind::Unary(UnOp::Neg, x) => {
                let v = int!(self.int(x));
                fit_kind(-v, &e.ty, TrapKind::Overflow)
                    .map_or_else(|k| Fast::Trap(k, e.span), Fast::Int)
            }
            _ => Fast::Slow,
        }
    }

    /// A comparison of two fast integers: `Some(holds)`, `Err` for a trap on the way, `None`
    /// for the slow path.
    pub(crate) fn compare(&self, op: BinOp, l: &Expr, r: &Expr) -> Option<Result<bool, Fast>> {
        if !op.is_comparison() {
            return None;
        }
        let a = match self.int(l) {
            Fast::Int(v) => v,
            Fast::Slow => return None,
            trap => return Some(Err(trap)),
        };
        let b = match self.int(r) {
            Fast::Int(v) => v,
            Fast::Slow => return None,
            trap => return Some(Err(trap)),
        };
        op.compare(&a, &b).map(Ok)
    }
}

/// Element `i` of an array or string, as `interp::element` reads it, when it is an integer.
fn element(v: &Rt, i: i128, span: Span) -> Fast {
    match v {
        Rt::Shared(cell) => element(&cell.borrow(), i, span),
        Rt::Agg(items) if i >= 0 && (i as usize) < items.len() => match &items[i as usize] {
            Rt::Int(v) => Fast::Int(*v),
            _ => Fast::Slow,
        },
        Rt::Str(s) if i >= 0 && (i as usize) < s.len() => Fast::Int(s[i as usize] as i128),
        Rt::Agg(_) | Rt::Str(_) => Fast::Trap(TrapKind::IndexOutOfBounds, span),
        _ => Fast::Slow,
    }
}
