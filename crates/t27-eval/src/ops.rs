//! The evaluator's operators on run-time values: integer fitting, comparisons, arithmetic
//! and casts.

use crate::interp::{Run, trap};
use crate::value::Rt;
use t27_diag::Span;
use t27_ir::*;

/// Checks that `v` fits the integer type `ty`, trapping with `kind` otherwise.
pub(crate) fn fit(v: i128, ty: &Ty, kind: TrapKind, span: Span) -> Run<i128> {
    fit_kind(v, ty, kind).or_else(|kind| trap(kind, span))
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
/// operand's type). Integer results that do not fit `ty` trap, except `<<`, which drops the
/// bits that leave the type.
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
        (Rt::Int(x), Rt::Int(y)) => match int_binary(op, x, y, ty) {
            Ok(v) => Ok(Rt::Int(v)),
            Err(kind) => trap(kind, span),
        },
        (a, _) => Ok(a),
    }
}

/// An arithmetic, bitwise or shift operator on two integers of type `ty` (for shifts, the
/// left operand's type), or the trap it makes: the one definition both the slow path
/// (`binary_values`) and the fast path (`fast.rs`) use.
pub(crate) fn int_binary(op: BinOp, x: i128, y: i128, ty: &Ty) -> Result<i128, TrapKind> {
    let r = match op {
        BinOp::Add => x.checked_add(y),
        BinOp::Sub => x.checked_sub(y),
        BinOp::Mul => x.checked_mul(y),
        BinOp::Div | BinOp::Rem if y == 0 => return Err(TrapKind::DivisionByZero),
        BinOp::Div => x.checked_div(y),
        BinOp::Rem => x.checked_rem(y),
        BinOp::BitAnd => Some(x & y),
        BinOp::BitOr => Some(x | y),
        BinOp::BitXor => Some(x ^ y),
        BinOp::Shl | BinOp::Shr => {
            let bits = ty.int().map_or(64, |t| t.bits()) as i128;
            if y < 0 || y >= bits {
                return Err(TrapKind::ShiftTooWide);
            }
            if op == BinOp::Shl {
                // Owner's rule (LANGUAGE.md 12.3): the bits `<<` pushes out of the type are
                // dropped, never a trap. `x` has at most 64 bits and `y` is below 64, so the
                // i128 shift keeps every bit `wrap` needs: the type's low ones.
                return Ok(ty.int().map_or(x << y, |t| t.wrap(x << y)));
            }
            Some(x >> y)
        }
        _ => Some(x),
    };
    match r {
        Some(v) => fit_kind(v, ty, TrapKind::Overflow),
        None => Err(TrapKind::Overflow),
    }
}

/// `fit` without a span: the trap kind alone.
pub(crate) fn fit_kind(v: i128, ty: &Ty, kind: TrapKind) -> Result<i128, TrapKind> {
    match ty {
        Ty::Int(t) => {
            let (min, max) = bounds(*t);
            if v < min || v > max { Err(kind) } else { Ok(v) }
        }
        _ => Ok(v),
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
