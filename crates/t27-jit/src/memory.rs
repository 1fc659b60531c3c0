//! Where values live: locals, loads and stores, assignable places, array elements.

use crate::compiler::{abi_parts, is_aggregate};
use crate::layout;
use crate::runtime::OFF_GLOBALS;
use crate::translate::{FnTranslator, LocalStore, Place, Val};
use cranelift::prelude::*;
use t27_ir::{Expr, ExprKind, LocalId, TrapKind, Ty};

impl FnTranslator<'_, '_, '_> {
    pub fn store_local(&mut self, id: LocalId, v: Val) {
        match (self.locals[id.index()], v) {
            (LocalStore::Scalar(var), Val::One(x)) => self.b.def_var(var, x),
            (LocalStore::Str(p, l), Val::Str(a, b)) => {
                self.b.def_var(p, a);
                self.b.def_var(l, b);
            }
            (LocalStore::Agg(var), Val::Agg(src)) => {
                let dst = self.b.use_var(var);
                let ty = self.local_tys[id.index()].clone();
                self.copy_memory(dst, src, &ty);
            }
            _ => {}
        }
    }

    pub fn load_local(&mut self, id: LocalId) -> Val {
        match self.locals[id.index()] {
            LocalStore::Scalar(v) => Val::One(self.b.use_var(v)),
            LocalStore::Str(p, l) => Val::Str(self.b.use_var(p), self.b.use_var(l)),
            LocalStore::Agg(v) => Val::Agg(self.b.use_var(v)),
            LocalStore::None => Val::Unit,
        }
    }

    /// Loads a value of type `ty` from memory.
    pub fn load(&mut self, addr: Value, ty: &Ty) -> Val {
        let flags = MemFlagsData::trusted();
        match ty {
            Ty::Str | Ty::MutSlice => {
                let p = self.b.ins().load(types::I64, flags, addr, 0);
                let l = self.b.ins().load(types::I64, flags, addr, 8);
                Val::Str(p, l)
            }
            t if is_aggregate(t) => Val::Agg(addr),
            Ty::Int(_) | Ty::Bool | Ty::F64 => {
                let ct = abi_parts(ty)[0];
                Val::One(self.b.ins().load(ct, flags, addr, 0))
            }
            _ => Val::Unit,
        }
    }

    /// Loads a scalar from memory that never changes, where the load cannot fail: Cranelift
    /// may then move it, or share it between loads of the same address.
    pub fn load_constant(&mut self, addr: Value, ty: &Ty) -> Val {
        match ty {
            Ty::Int(_) | Ty::Bool | Ty::F64 => {
                let flags = MemFlagsData::trusted().with_readonly().with_can_move();
                let ct = abi_parts(ty)[0];
                Val::One(self.b.ins().load(ct, flags, addr, 0))
            }
            _ => self.load(addr, ty),
        }
    }

    /// Stores a value of type `ty` to memory (aggregates are copied).
    pub fn store(&mut self, addr: Value, v: Val, ty: &Ty) {
        let flags = MemFlagsData::trusted();
        match v {
            Val::One(x) => {
                self.b.ins().store(flags, x, addr, 0);
            }
            Val::Str(p, l) => {
                self.b.ins().store(flags, p, addr, 0);
                self.b.ins().store(flags, l, addr, 8);
            }
            Val::Agg(src) => self.copy_memory(addr, src, ty),
            Val::Unit => {}
        }
    }

    /// Evaluates a place's indexes (outermost first, each checked against its array) and
    /// returns where it is.
    pub fn place(&mut self, e: &Expr) -> Place {
        match &e.kind {
            ExprKind::Local(id) => match self.locals[id.index()] {
                LocalStore::Agg(v) => Place::Mem(self.b.use_var(v), e.ty.clone()),
                _ => Place::Local(*id),
            },
            ExprKind::Global(id) => {
                let base =
                    self.b
                        .ins()
                        .load(types::I64, MemFlagsData::trusted(), self.ctx, OFF_GLOBALS);
                let off = self.s.global_offsets[id.index()] as i64;
                Place::Mem(self.b.ins().iadd_imm_s(base, off), e.ty.clone())
            }
            ExprKind::Field(base, i) => match self.place(base) {
                Place::Mem(addr, bty) => {
                    let off = layout::field_offset(&bty, *i as usize, self.s.p) as i64;
                    Place::Mem(self.b.ins().iadd_imm_s(addr, off), e.ty.clone())
                }
                local => local,
            },
            // A byte of a `[]u8`: the view's pointer and length are values, not a place.
            ExprKind::Index(base, index) if base.ty == Ty::MutSlice => {
                Place::Mem(self.byte_address(base, index), e.ty.clone())
            }
            ExprKind::Index(base, index) => match self.place(base) {
                Place::Mem(addr, bty) => {
                    let elem_addr = self.element_address(addr, &bty, index);
                    Place::Mem(elem_addr, e.ty.clone())
                }
                local => local,
            },
            _ => Place::Local(LocalId(0)),
        }
    }

    pub fn read_place(&mut self, p: &Place, ty: &Ty) -> Val {
        match p {
            Place::Local(id) => self.load_local(*id),
            Place::Mem(addr, _) => self.load(*addr, ty),
        }
    }

    pub fn write_place(&mut self, p: Place, v: Val, ty: &Ty) {
        match p {
            Place::Local(id) => self.store_local(id, v),
            Place::Mem(addr, _) => self.store(addr, v, ty),
        }
    }

    /// The address of `bytes[index]` of a string or a `[]u8` (a pointer and a length),
    /// trapping when the index is out of bounds.
    pub fn byte_address(&mut self, bytes: &Expr, index: &Expr) -> Value {
        let (ptr, len) = match self.expr(bytes) {
            Val::Str(p, l) => (p, l),
            other => (other.one(), self.b.ins().iconst(types::I64, 0)),
        };
        let i = self.expr(index).one();
        let i = self.widen_to_i64(i, &index.ty);
        let out = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, i, len);
        self.trap_if(out, TrapKind::IndexOutOfBounds, index.span);
        self.b.ins().iadd(ptr, i)
    }

    /// The address of `array[index]`, trapping when the index is out of bounds.
    pub fn element_address(&mut self, array: Value, array_ty: &Ty, index: &Expr) -> Value {
        let (elem, n) = match array_ty {
            Ty::Array(elem, n) => ((**elem).clone(), *n),
            _ => (Ty::Error, 0),
        };
        let i = self.expr(index).one();
        let i = self.widen_to_i64(i, &index.ty);
        if !self.counter_in_bounds(index, n) {
            let out = self.icmp_k(IntCC::UnsignedGreaterThanOrEqual, i, n as i64);
            self.trap_if(out, TrapKind::IndexOutOfBounds, index.span);
        }
        let stride = layout::stride(&elem, self.s.p) as i64;
        let off = self.b.ins().imul_imm_u(i, stride);
        self.b.ins().iadd(array, off)
    }

    /// Whether the index is the counter of an enclosing counted loop that stays below `n`
    /// (`loops.rs`), so that it indexes an array of `n` elements in bounds.
    pub fn counter_in_bounds(&self, index: &Expr, n: u64) -> bool {
        matches!(index.kind, ExprKind::Local(x)
            if self.below.iter().any(|&(c, below)| c == x && below <= n))
    }

    /// Extends an integer of type `ty` to 64 bits.
    pub fn widen_to_i64(&mut self, v: Value, ty: &Ty) -> Value {
        let vt = self.b.func.dfg.value_type(v);
        if vt == types::I64 {
            return v;
        }
        match ty {
            Ty::Int(t) if t.signed() => self.b.ins().sextend(types::I64, v),
            _ => self.b.ins().uextend(types::I64, v),
        }
    }
}
