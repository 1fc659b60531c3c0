//! The evaluator's operators on run-time values: integer fitting, comparisons (with the fast
//! path for two plain integers), arithmetic and casts.

use crate::interp::{Run, trap};
use crate::value::Rt;
use t27_diag::Span;
use t27_ir::*;

/// A comparison of two integers each read without work (a local, a constant, a literal),
/// decided without building and dropping run-time values: the guards of a decision
/// function are mostly these. `None` for anything else.
pub(crate) fn compare_ints(
    consts: &[Rt],
    frame: &[Rt],
    op: BinOp,
    l: &Expr,
    r: &Expr,
) -> Option<bool> {
    let int = |e: &Expr| match &e.kind {
        ExprKind::Local(id) => match frame.get(id.index())? {
            Rt::Int(v) => Some(*v),
            _ => None,
        },
        ExprKind::Const(id) => match consts.get(id.index())? {
            Rt::Int(v) => Some(*v),
            _ => None,
        },
        ExprKind::Lit(Value::Int(v)) => i128::try_from(v).ok(),
        _ => None,
    };
    if !op.is_comparison() {
        return None;
    }
    let (a, b) = (int(l)?, int(r)?);
    op.compare(&a, &b)
}

/// Checks that `v` fits the integer type `ty`, trapping with `kind` otherwise.
pub(crate) fn fit(v: i128, ty: &Ty, kind: TrapKind, span: Span) -> Run<i128> {
    match ty {
        Ty::Int(t) => {
            let (min, max) = bounds(*t);
            if v < min || v > max {
                trap(kind, span)
            } else {
                Ok(v)
            }
        }
        _ => Ok(v),
    }
}

pub(crate) fn bounds(t: IntTy) -> (i128, i128) {
    if t.signed() {
        (-(1i128 << (t.bits() - 1)), (1i128 << (t.bits() - 1)) - 1)
    } else {
        (0, (1i128 << t.bits()) - 1)
    }
}

pub(crate) fn compare(op: BinOp, a: &Rt, b: &Rt) -> bool {
    use std::cmp::Ordering::*;
    let ord = match (a, b) {
        (Rt::Int(x), Rt::Int(y)) => x.partial_cmp(y),
        (Rt::F64(x), Rt::F64(y)) => x.partial_cmp(y),
        _ => None,
    };
    match op {
        BinOp::Eq => a == b,
        BinOp::Ne => a != b,
        BinOp::Lt => ord == Some(Less),
        BinOp::Le => matches!(ord, Some(Less | Equal)),
        BinOp::Gt => ord == Some(Greater),
        BinOp::Ge => matches!(ord, Some(Greater | Equal)),
        _ => false,
    }
}

/// Arithmetic, bitwise and shift operators on two values of type `ty` (for shifts, the left
/// operand's type). Integer results that do not fit `ty` trap.
pub(crate) fn binary_values(op: BinOp, a: Rt, b: Rt, ty: &Ty, span: Span) -> Run<Rt> {
    match (a, b) {
        (Rt::F64(x), Rt::F64(y)) => Ok(Rt::F64(match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
            BinOp::Div => x / y,
            BinOp::Rem => x % y,
            _ => x,
        })),
        (Rt::Int(x), Rt::Int(y)) => {
            let r = match op {
                BinOp::Add => x.checked_add(y),
                BinOp::Sub => x.checked_sub(y),
                BinOp::Mul => x.checked_mul(y),
                BinOp::Div | BinOp::Rem if y == 0 => return trap(TrapKind::DivisionByZero, span),
                BinOp::Div => x.checked_div(y),
                BinOp::Rem => x.checked_rem(y),
                BinOp::BitAnd => Some(x & y),
                BinOp::BitOr => Some(x | y),
                BinOp::BitXor => Some(x ^ y),
                BinOp::Shl | BinOp::Shr => {
                    let bits = ty.int().map_or(64, |t| t.bits()) as i128;
                    if y < 0 || y >= bits {
                        return trap(TrapKind::ShiftTooWide, span);
                    }
                    Some(if op == BinOp::Shl { x << y } else { x >> y })
                }
                _ => Some(x),
            };
            match r {
                Some(v) => Ok(Rt::Int(fit(v, ty, TrapKind::Overflow, span)?)),
                None => trap(TrapKind::Overflow, span),
            }
        }
        (a, _) => Ok(a),
    }
}

pub(crate) fn cast(v: Rt, ty: &Ty, span: Span) -> Run<Rt> {
    match (v, ty) {
        (Rt::Int(x), Ty::Int(_)) => Ok(Rt::Int(fit(x, ty, TrapKind::LossyCast, span)?)),
        (Rt::Int(x), Ty::F64) => Ok(Rt::F64(x as f64)),
        (Rt::F64(x), Ty::Int(t)) => {
            // The bounds are powers of two, exact as floats: min <= whole < max + 1.
            let (min, max) = bounds(*t);
            let whole = x.trunc();
            if !x.is_finite() || whole < min as f64 || whole >= (max + 1) as f64 {
                return trap(TrapKind::LossyCast, span);
            }
            Ok(Rt::Int(whole as i128))
        }
        (v, _) => Ok(v),
    }
}
