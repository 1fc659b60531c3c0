//! Checked arithmetic and conversions, trapping exactly where the engines trap (with their
//! kinds). Integers of 32 bits or fewer are computed in i64, where no operation on them can
//! wrap, and the result's range is checked; 64-bit integers use the classic overflow tests.

use crate::emit::{FnEmit, R};
use crate::repr::Repr;
use t27_diag::Span;
use t27_ir::{BinOp, IntTy, TrapKind, Ty};
use wasm_encoder::{Instruction as I, ValType};

impl FnEmit<'_, '_> {
    /// `a op b` with `a` (of type `ty`) and `b` (of type `ty`, or `rty` for a shift) on the
    /// stack.
    pub fn arith(&mut self, op: BinOp, ty: &Ty, rty: &Ty, span: Span) -> R<()> {
        if *ty == Ty::F64 {
            let i = match op {
                BinOp::Add => I::F64Add,
                BinOp::Sub => I::F64Sub,
                BinOp::Mul => I::F64Mul,
                BinOp::Div => I::F64Div,
                _ => return Err("`%` of floats".into()),
            };
            self.code.push(i);
            return Ok(());
        }
        let t = crate::repr::int_of(ty);
        let b = self.stash_val(Repr::of(rty)?);
        let a = self.stash_val(Repr::of(ty)?);
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            // The count, as an i64: negative counts are huge unsigned ones, too wide.
            self.get(b);
            self.widen(rty);
            let n = self.stash_val(Repr::I64);
            self.get(n);
            self.code.push(I::I64Const(i64::from(t.bits())));
            self.code.push(I::I64GeU);
            self.trap_if(TrapKind::ShiftTooWide, span);
            return self.shift(op, t, a, n);
        }
        if matches!(op, BinOp::Div | BinOp::Rem) {
            self.get(b);
            self.code
                .push(if t.bits() <= 32 { I::I32Eqz } else { I::I64Eqz });
            self.trap_if(TrapKind::DivisionByZero, span);
        }
        if matches!(op, BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor) {
            // Closed on the canonical forms: nothing to check.
            self.get(a);
            self.get(b);
            let wide = t.bits() > 32;
            self.code.push(match (op, wide) {
                (BinOp::BitAnd, false) => I::I32And,
                (BinOp::BitOr, false) => I::I32Or,
                (BinOp::BitXor, false) => I::I32Xor,
                (BinOp::BitAnd, true) => I::I64And,
                (BinOp::BitOr, true) => I::I64Or,
                _ => I::I64Xor,
            });
            return Ok(());
        }
        if t.bits() <= 32 {
            self.narrow_op(op, t, a, b, span)
        } else {
            self.wide_op(op, t, a, b, span)
        }
    }

    fn get(&mut self, local: u32) {
        self.code.push(I::LocalGet(local));
    }

    fn stash_val(&mut self, repr: Repr) -> u32 {
        let v = repr.vals()[0];
        let l = self.temp_local(v);
        self.code.push(I::LocalSet(l));
        l
    }

    /// A 32-bit-or-narrower operation, computed exactly in i64 and range-checked.
    fn narrow_op(&mut self, op: BinOp, t: IntTy, a: u32, b: u32, span: Span) -> R<()> {
        let ext = if t.signed() {
            I::I64ExtendI32S
        } else {
            I::I64ExtendI32U
        };
        self.get(a);
        self.code.push(ext.clone());
        self.get(b);
        self.code.push(ext);
        self.code.push(match (op, t.signed()) {
            (BinOp::Add, _) => I::I64Add,
            (BinOp::Sub, _) => I::I64Sub,
            (BinOp::Mul, _) => I::I64Mul,
            (BinOp::Div, true) => I::I64DivS,
            (BinOp::Div, false) => I::I64DivU,
            (BinOp::Rem, true) => I::I64RemS,
            (BinOp::Rem, false) => I::I64RemU,
            _ => return Err("an operator of this kind".into()),
        });
        self.fit_i64(t, TrapKind::Overflow, span);
        self.code.push(I::I32WrapI64);
        Ok(())
    }

    /// Checks that the i64 on the stack (an exact value) fits `t`, leaving it there.
    pub fn fit_i64(&mut self, t: IntTy, kind: TrapKind, span: Span) {
        let r = self.stash_val(Repr::I64);
        let (min, max) = bounds(t);
        if min == 0 {
            // Unsigned: a negative result is a huge unsigned one.
            self.get(r);
            self.code.push(I::I64Const(max as i64));
            self.code.push(I::I64GtU);
        } else {
            self.get(r);
            self.code.push(I::I64Const(min as i64));
            self.code.push(I::I64LtS);
            self.get(r);
            self.code.push(I::I64Const(max as i64));
            self.code.push(I::I64GtS);
            self.code.push(I::I32Or);
        }
        self.trap_if(kind, span);
        self.get(r);
    }

    fn wide_op(&mut self, op: BinOp, t: IntTy, a: u32, b: u32, span: Span) -> R<()> {
        let signed = t.signed();
        let r = self.temp_local(ValType::I64);
        match (op, signed) {
            (BinOp::Add, false) => {
                self.get(a);
                self.get(b);
                self.code.push(I::I64Add);
                self.code.push(I::LocalTee(r));
                self.get(a);
                self.code.push(I::I64LtU);
                self.trap_if(TrapKind::Overflow, span);
            }
            (BinOp::Sub, false) => {
                self.get(a);
                self.get(b);
                self.code.push(I::I64LtU);
                self.trap_if(TrapKind::Overflow, span);
                self.get(a);
                self.get(b);
                self.code.push(I::I64Sub);
                self.code.push(I::LocalSet(r));
            }
            (BinOp::Add | BinOp::Sub, true) => {
                self.get(a);
                self.get(b);
                self.code.push(if op == BinOp::Add {
                    I::I64Add
                } else {
                    I::I64Sub
                });
                self.code.push(I::LocalSet(r));
                // Add: a and b agree in sign and r does not. Sub: a and b differ, r and a differ.
                self.get(a);
                if op == BinOp::Add {
                    self.get(r);
                } else {
                    self.get(b);
                }
                self.code.push(I::I64Xor);
                if op == BinOp::Add {
                    self.get(b);
                } else {
                    self.get(a);
                }
                self.get(r);
                self.code.push(I::I64Xor);
                self.code.push(I::I64And);
                self.code.push(I::I64Const(0));
                self.code.push(I::I64LtS);
                self.trap_if(TrapKind::Overflow, span);
            }
            (BinOp::Mul, _) => {
                self.get(a);
                self.get(b);
                self.code.push(I::I64Mul);
                self.code.push(I::LocalSet(r));
                if signed {
                    // a = -1: only b = MIN overflows (and r / a would trap on it).
                    self.get(a);
                    self.code.push(I::I64Const(-1));
                    self.code.push(I::I64Eq);
                    self.code
                        .push(I::If(wasm_encoder::BlockType::Result(ValType::I32)));
                    self.get(b);
                    self.code.push(I::I64Const(i64::MIN));
                    self.code.push(I::I64Eq);
                    self.code.push(I::Else);
                }
                self.get(a);
                self.code.push(I::I64Const(0));
                self.code.push(I::I64Ne);
                self.code
                    .push(I::If(wasm_encoder::BlockType::Result(ValType::I32)));
                self.get(r);
                self.get(a);
                self.code.push(if signed { I::I64DivS } else { I::I64DivU });
                self.get(b);
                self.code.push(I::I64Ne);
                self.code.push(I::Else);
                self.code.push(I::I32Const(0));
                self.code.push(I::End);
                if signed {
                    self.code.push(I::End);
                }
                self.trap_if(TrapKind::Overflow, span);
            }
            (BinOp::Div | BinOp::Rem, _) => {
                if signed {
                    // MIN / -1 overflows; MIN % -1 is 0, which wasm gives without trapping.
                    if op == BinOp::Div {
                        self.get(a);
                        self.code.push(I::I64Const(i64::MIN));
                        self.code.push(I::I64Eq);
                        self.get(b);
                        self.code.push(I::I64Const(-1));
                        self.code.push(I::I64Eq);
                        self.code.push(I::I32And);
                        self.trap_if(TrapKind::Overflow, span);
                    }
                }
                self.get(a);
                self.get(b);
                self.code.push(match (op, signed) {
                    (BinOp::Div, true) => I::I64DivS,
                    (BinOp::Div, false) => I::I64DivU,
                    (_, true) => I::I64RemS,
                    _ => I::I64RemU,
                });
                self.code.push(I::LocalSet(r));
            }
            _ => return Err("an operator of this kind".into()),
        }
        self.get(r);
        Ok(())
    }

    /// `a << n` or `a >> n`, `n` (an i64 in a local) already below the width. Owner's rule
    /// (LANGUAGE.md 12.3): `<<` drops the bits pushed out of the type, never a trap.
    fn shift(&mut self, op: BinOp, t: IntTy, a: u32, n: u32) -> R<()> {
        let signed = t.signed();
        if t.bits() <= 32 {
            self.get(a);
            self.code.push(if signed {
                I::I64ExtendI32S
            } else {
                I::I64ExtendI32U
            });
            self.get(n);
            if op == BinOp::Shr {
                self.code.push(if signed { I::I64ShrS } else { I::I64ShrU });
                self.code.push(I::I32WrapI64);
                return Ok(());
            }
            self.code.push(I::I64Shl);
            self.code.push(I::I32WrapI64);
            // Back to the canonical form of a narrower type: its low bits, sign- or
            // zero-extended to 32.
            let up = 32 - t.bits() as i32;
            if up > 0 {
                self.code.push(I::I32Const(up));
                self.code.push(I::I32Shl);
                self.code.push(I::I32Const(up));
                self.code.push(if signed { I::I32ShrS } else { I::I32ShrU });
            }
            return Ok(());
        }
        self.get(a);
        self.get(n);
        self.code.push(if op == BinOp::Shl {
            I::I64Shl
        } else if signed {
            I::I64ShrS
        } else {
            I::I64ShrU
        });
        Ok(())
    }

    /// `-a` of an integer of type `ty` on the stack.
    pub fn negate(&mut self, ty: &Ty, span: Span) -> R<()> {
        let t = crate::repr::int_of(ty);
        let repr = Repr::of(ty)?;
        let a = self.stash_val(repr);
        if !t.signed() {
            // Only -0 fits an unsigned type.
            self.get(a);
            self.code.push(if repr == Repr::I32 {
                I::I32Eqz
            } else {
                I::I64Eqz
            });
            self.code.push(I::I32Eqz);
            self.trap_if(TrapKind::Overflow, span);
            self.get(a);
            return Ok(());
        }
        if repr == Repr::I32 {
            self.code.push(I::I64Const(0));
            self.get(a);
            self.code.push(I::I64ExtendI32S);
            self.code.push(I::I64Sub);
            self.fit_i64(t, TrapKind::Overflow, span);
            self.code.push(I::I32WrapI64);
        } else {
            self.get(a);
            self.code.push(I::I64Const(i64::MIN));
            self.code.push(I::I64Eq);
            self.trap_if(TrapKind::Overflow, span);
            self.code.push(I::I64Const(0));
            self.get(a);
            self.code.push(I::I64Sub);
        }
        Ok(())
    }

    /// `x as to` with `x`, of type `from`, on the stack.
    pub fn cast(&mut self, from: &Ty, to: &Ty, span: Span) -> R<()> {
        match (from, to) {
            _ if from == to => Ok(()),
            (Ty::Int(_) | Ty::UntypedInt, Ty::Int(t)) => {
                let s = crate::repr::int_of(from);
                if s.widens_to(*t) {
                    self.widen_int(s, *t);
                    return Ok(());
                }
                self.widen(from);
                let v = self.stash_val(Repr::I64);
                let (min, max) = bounds(*t);
                self.get(v);
                if s.signed() || s.bits() <= 32 {
                    // An exact signed i64: compare signed, the bounds capped at i64's.
                    let max = max.min(i128::from(i64::MAX)) as i64;
                    self.code
                        .push(I::I64Const(min.max(i128::from(i64::MIN)) as i64));
                    self.code.push(I::I64LtS);
                    self.get(v);
                    self.code.push(I::I64Const(max));
                    self.code.push(I::I64GtS);
                    self.code.push(I::I32Or);
                } else {
                    // An unsigned 64-bit value: only the upper bound can be passed.
                    self.code.push(I::I64Const(max as i64));
                    self.code.push(I::I64GtU);
                }
                self.trap_if(TrapKind::LossyCast, span);
                self.get(v);
                if t.bits() <= 32 {
                    self.code.push(I::I32WrapI64);
                }
                Ok(())
            }
            (Ty::Int(_) | Ty::UntypedInt, Ty::F64) => {
                let s = crate::repr::int_of(from);
                self.code.push(match (s.bits() <= 32, s.signed()) {
                    (true, true) => I::F64ConvertI32S,
                    (true, false) => I::F64ConvertI32U,
                    (false, true) => I::F64ConvertI64S,
                    (false, false) => I::F64ConvertI64U,
                });
                Ok(())
            }
            (Ty::F64, Ty::Int(t)) => {
                // min <= trunc(x) < max + 1, both powers of two and exact; NaN fails both.
                let (min, max) = bounds(*t);
                self.code.push(I::F64Trunc);
                let w = self.stash_val(Repr::F64);
                self.get(w);
                self.code.push(I::F64Const((min as f64).into()));
                self.code.push(I::F64Ge);
                self.get(w);
                self.code.push(I::F64Const(((max + 1) as f64).into()));
                self.code.push(I::F64Lt);
                self.code.push(I::I32And);
                self.code.push(I::I32Eqz);
                self.trap_if(TrapKind::LossyCast, span);
                self.get(w);
                self.code.push(match (t.bits() <= 32, t.signed()) {
                    (true, true) => I::I32TruncF64S,
                    (true, false) => I::I32TruncF64U,
                    (false, true) => I::I64TruncF64S,
                    (false, false) => I::I64TruncF64U,
                });
                Ok(())
            }
            _ => Err(format!("a conversion of this kind ({from:?} to {to:?})")),
        }
    }

    /// A lossless conversion between integer representations.
    fn widen_int(&mut self, s: IntTy, t: IntTy) {
        if s.bits() <= 32 && t.bits() > 32 {
            self.code.push(if s.signed() {
                I::I64ExtendI32S
            } else {
                I::I64ExtendI32U
            });
        }
    }
}

pub fn bounds(t: IntTy) -> (i128, i128) {
    (
        i128::try_from(&t.min()).unwrap_or(0),
        i128::try_from(&t.max()).unwrap_or(0),
    )
}
