//! Integer and float arithmetic with the language's traps: overflow, division by zero,
//! shifts too wide, casts that lose the value.

use crate::compiler::int_type;
use crate::translate::{FnTranslator, Val};
use cranelift::prelude::*;
use cranelift_module::Module;
use t27_diag::Span;
use t27_ir::{BinOp, IntTy, TrapKind, Ty};

impl FnTranslator<'_, '_, '_> {
    /// Arithmetic, bitwise and shift operators with the evaluator's traps. `ty` is the type
    /// of the left operand (and of the result); `rty` the right operand's (a shift amount's).
    pub fn binary_values(
        &mut self,
        op: BinOp,
        a: Val,
        b: Val,
        ty: &Ty,
        rty: &Ty,
        span: Span,
    ) -> Val {
        let (x, y) = (a.one(), b.one());
        if *ty == Ty::F64 {
            return Val::One(match op {
                BinOp::Add => self.b.ins().fadd(x, y),
                BinOp::Sub => self.b.ins().fsub(x, y),
                BinOp::Mul => self.b.ins().fmul(x, y),
                BinOp::Div => self.b.ins().fdiv(x, y),
                _ => {
                    let f = self
                        .s
                        .module
                        .declare_func_in_func(self.s.imports.fmod, self.b.func);
                    let call = self.b.ins().call(f, &[x, y]);
                    self.b.inst_results(call)[0]
                }
            });
        }
        let Some(t) = ty.int() else { return a };
        Val::One(self.int_op(op, x, y, t, rty, span))
    }

    fn int_op(&mut self, op: BinOp, x: Value, y: Value, t: IntTy, rty: &Ty, span: Span) -> Value {
        let ct = int_type(t);
        let signed = t.signed();
        match op {
            BinOp::BitAnd => return self.b.ins().band(x, y),
            BinOp::BitOr => return self.b.ins().bor(x, y),
            BinOp::BitXor => return self.b.ins().bxor(x, y),
            BinOp::Shl | BinOp::Shr => return self.shift(op, x, y, t, rty, span),
            _ => {}
        }
        if matches!(op, BinOp::Div | BinOp::Rem) {
            let zero = self.icmp_k(IntCC::Equal, y, 0);
            self.trap_if(zero, TrapKind::DivisionByZero, span);
        }
        if t.bits() == 64 {
            let (r, overflow) = match (op, signed) {
                (BinOp::Add, true) => self.b.ins().sadd_overflow(x, y),
                (BinOp::Add, false) => {
                    let r = self.b.ins().iadd(x, y);
                    let o = self.b.ins().icmp(IntCC::UnsignedLessThan, r, x);
                    (r, o)
                }
                (BinOp::Sub, true) => self.b.ins().ssub_overflow(x, y),
                (BinOp::Sub, false) => self.b.ins().usub_overflow(x, y),
                (BinOp::Mul, true) => self.b.ins().smul_overflow(x, y),
                (BinOp::Mul, false) => self.b.ins().umul_overflow(x, y),
                (BinOp::Div, _) | (BinOp::Rem, _) => {
                    if signed {
                        // MIN / -1 overflows; MIN % -1 is 0 (and would fault in hardware).
                        let minus_one = self.icmp_k(IntCC::Equal, y, -1);
                        let is_min = self.icmp_k(IntCC::Equal, x, i64::MIN);
                        let both = self.b.ins().band(minus_one, is_min);
                        if op == BinOp::Div {
                            self.trap_if(both, TrapKind::Overflow, span);
                            return self.b.ins().sdiv(x, y);
                        }
                        let one = self.b.ins().iconst(ct, 1);
                        let safe_y = self.b.ins().select(minus_one, one, y);
                        let r = self.b.ins().srem(x, safe_y);
                        let zero = self.b.ins().iconst(ct, 0);
                        return self.b.ins().select(minus_one, zero, r);
                    }
                    return if op == BinOp::Div {
                        self.b.ins().udiv(x, y)
                    } else {
                        self.b.ins().urem(x, y)
                    };
                }
                _ => return x,
            };
            self.trap_if(overflow, TrapKind::Overflow, span);
            return r;
        }
        if t.bits() == 32 && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
            // The machine's own 32-bit overflow flags: an add and a jump on carry, where
            // widening would take a widen, an add, a compare and the jump.
            let (r, overflow) = match (op, signed) {
                (BinOp::Add, true) => self.b.ins().sadd_overflow(x, y),
                (BinOp::Add, false) => self.b.ins().uadd_overflow(x, y),
                (BinOp::Sub, true) => self.b.ins().ssub_overflow(x, y),
                (BinOp::Sub, false) => self.b.ins().usub_overflow(x, y),
                (_, true) => self.b.ins().smul_overflow(x, y),
                (_, false) => self.b.ins().umul_overflow(x, y),
            };
            self.trap_if(overflow, TrapKind::Overflow, span);
            return r;
        }
        // Narrower types: compute exactly in 64 bits, then check the result fits.
        let wx = if signed {
            self.b.ins().sextend(types::I64, x)
        } else {
            self.b.ins().uextend(types::I64, x)
        };
        let wy = if signed {
            self.b.ins().sextend(types::I64, y)
        } else {
            self.b.ins().uextend(types::I64, y)
        };
        let r = match op {
            BinOp::Add => self.b.ins().iadd(wx, wy),
            BinOp::Sub => self.b.ins().isub(wx, wy),
            BinOp::Mul => self.b.ins().imul(wx, wy),
            BinOp::Div if signed => self.b.ins().sdiv(wx, wy),
            BinOp::Div => self.b.ins().udiv(wx, wy),
            BinOp::Rem if signed => self.b.ins().srem(wx, wy),
            BinOp::Rem => self.b.ins().urem(wx, wy),
            _ => wx,
        };
        let (min, max) = bounds(t);
        let bad = if signed {
            let lo = self.icmp_k(IntCC::SignedLessThan, r, min as i64);
            let hi = self.icmp_k(IntCC::SignedGreaterThan, r, max as i64);
            self.b.ins().bor(lo, hi)
        } else {
            self.icmp_k(IntCC::UnsignedGreaterThan, r, max as i64)
        };
        self.trap_if(bad, TrapKind::Overflow, span);
        self.b.ins().ireduce(ct, r)
    }

    fn shift(&mut self, op: BinOp, x: Value, y: Value, t: IntTy, rty: &Ty, span: Span) -> Value {
        let ct = int_type(t);
        let amount = self.widen_to_i64(y, rty);
        // Negative amounts are huge unsigned numbers: one unsigned comparison covers both.
        let too_wide = self.icmp_k(IntCC::UnsignedGreaterThanOrEqual, amount, t.bits() as i64);
        self.trap_if(too_wide, TrapKind::ShiftTooWide, span);
        let n = if ct == types::I64 {
            amount
        } else {
            self.b.ins().ireduce(ct, amount)
        };
        if op == BinOp::Shr {
            return if t.signed() {
                self.b.ins().sshr(x, n)
            } else {
                self.b.ins().ushr(x, n)
            };
        }
        // Owner's rule (LANGUAGE.md 12.3): the bits pushed out of the type are dropped. A
        // value lives in a register of its type's width, so `ishl` keeps exactly its low bits.
        self.b.ins().ishl(x, n)
    }

    /// `v as to` from `from`: integers must fit, floats are truncated and must then fit.
    pub fn cast(&mut self, v: Value, from: &Ty, to: &Ty, span: Span) -> Value {
        match (from, to) {
            (Ty::Int(s), Ty::Int(t)) => self.int_cast(v, *s, *t, span),
            (Ty::Int(s), Ty::F64) => {
                let w = self.widen_to_i64(v, from);
                if s.signed() {
                    self.b.ins().fcvt_from_sint(types::F64, w)
                } else {
                    self.b.ins().fcvt_from_uint(types::F64, w)
                }
            }
            (Ty::F64, Ty::Int(t)) => {
                let whole = self.b.ins().trunc(v);
                let (min, max) = bounds(*t);
                let lo = self.b.ins().f64const(min as f64);
                let hi = self.b.ins().f64const((max + 1) as f64);
                let ge = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, whole, lo);
                let lt = self.b.ins().fcmp(FloatCC::LessThan, whole, hi);
                let ok = self.b.ins().band(ge, lt);
                let bad = self.b.ins().bxor_imm_u(ok, 1);
                self.trap_if(bad, TrapKind::LossyCast, span);
                let wide = if t.signed() || t.bits() < 64 {
                    self.b.ins().fcvt_to_sint(types::I64, whole)
                } else {
                    self.b.ins().fcvt_to_uint(types::I64, whole)
                };
                if t.bits() == 64 {
                    wide
                } else {
                    self.b.ins().ireduce(int_type(*t), wide)
                }
            }
            _ => v,
        }
    }

    fn int_cast(&mut self, v: Value, s: IntTy, t: IntTy, span: Span) -> Value {
        let (smin, smax) = bounds(s);
        let (tmin, tmax) = bounds(t);
        // Range checks in the source type, where both bounds are representable.
        if tmin > smin {
            let cc = if s.signed() {
                IntCC::SignedLessThan
            } else {
                IntCC::UnsignedLessThan
            };
            let low = self.icmp_k(cc, v, tmin as i64);
            self.trap_if(low, TrapKind::LossyCast, span);
        }
        if tmax < smax {
            let cc = if s.signed() {
                IntCC::SignedGreaterThan
            } else {
                IntCC::UnsignedGreaterThan
            };
            let high = self.icmp_k(cc, v, tmax as i64);
            self.trap_if(high, TrapKind::LossyCast, span);
        }
        let (sb, tb) = (s.bits(), t.bits());
        let tt = int_type(t);
        if tb < sb {
            self.b.ins().ireduce(tt, v)
        } else if tb > sb {
            if s.signed() {
                self.b.ins().sextend(tt, v)
            } else {
                self.b.ins().uextend(tt, v)
            }
        } else {
            v
        }
    }
}

impl FnTranslator<'_, '_, '_> {
    /// Compares with a constant; the constant is sign-extended when negative.
    pub fn icmp_k(&mut self, cc: IntCC, v: Value, k: i64) -> Value {
        if k < 0 {
            self.b.ins().icmp_imm_s(cc, v, k)
        } else {
            self.b.ins().icmp_imm_u(cc, v, k)
        }
    }
}

pub(crate) fn bounds(t: IntTy) -> (i128, i128) {
    if t.signed() {
        (-(1i128 << (t.bits() - 1)), (1i128 << (t.bits() - 1)) - 1)
    } else {
        (0, (1i128 << t.bits()) - 1)
    }
}
