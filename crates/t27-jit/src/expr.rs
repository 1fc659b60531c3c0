//! Expressions to Cranelift IR.

use crate::arith::bounds;
use crate::compiler::{abi_parts, int_type, is_aggregate};
use crate::layout;
use crate::translate::{FnTranslator, Val};
use cranelift::prelude::*;
use cranelift_module::Module;
use num_traits::ToPrimitive;
use t27_ir::{BinOp, Expr, ExprKind, FnId, TrapKind, Ty, UnOp, Value as IrValue};

impl FnTranslator<'_, '_, '_> {
    pub fn expr(&mut self, e: &Expr) -> Val {
        if let ExprKind::Index(base, index) = &e.kind
            && let Some(v) = self.known_element(base, index)
        {
            return self.constant(&v, &e.ty);
        }
        match &e.kind {
            ExprKind::Lit(v) => self.constant(v, &e.ty),
            ExprKind::Const(id) => match &self.s.p.consts[id.index()].value {
                Some(v) if is_aggregate(&e.ty) => {
                    let addr = match self.s.const_mem.get(id) {
                        Some(a) => *a,
                        None => {
                            let a = self.s.constant_memory(v, &e.ty);
                            self.s.const_mem.insert(*id, a);
                            a
                        }
                    };
                    Val::Agg(self.b.ins().iconst(types::I64, addr as i64))
                }
                Some(v) => {
                    let v = v.clone();
                    self.constant(&v, &e.ty)
                }
                None => Val::Unit,
            },
            ExprKind::Global(_) | ExprKind::Field(..) | ExprKind::Index(..)
                if self.is_memory_place(e) =>
            {
                let addr = self.address_of(e);
                if self.reads_constant_in_bounds(e) {
                    self.load_constant(addr, &e.ty)
                } else {
                    self.load(addr, &e.ty)
                }
            }
            ExprKind::Local(id) => self.load_local(*id),
            ExprKind::Global(_) => Val::Unit,
            ExprKind::Call(f, args) => self.call(*f, args, e),
            ExprKind::Len(x) => match &x.ty {
                Ty::Array(_, n) => Val::One(self.b.ins().iconst(types::I64, *n as i64)),
                _ => match self.expr(x) {
                    Val::Str(_, len) => Val::One(len),
                    _ => Val::One(self.b.ins().iconst(types::I64, 0)),
                },
            },
            ExprKind::Contains(s, t) => {
                let a = self.expr(s);
                let b = self.expr(t);
                let f = self
                    .s
                    .module
                    .declare_func_in_func(self.s.imports.str_contains, self.b.func);
                let mut args = a.parts();
                args.extend(b.parts());
                let call = self.b.ins().call(f, &args);
                Val::One(self.b.inst_results(call)[0])
            }
            ExprKind::Unary(op, x) => {
                let v = self.expr(x).one();
                match (op, &e.ty) {
                    (UnOp::Not, _) => Val::One(self.b.ins().bxor_imm_u(v, 1)),
                    (UnOp::Neg, Ty::F64) => Val::One(self.b.ins().fneg(v)),
                    (UnOp::Neg, Ty::Int(t)) => {
                        let (min, _) = bounds(*t);
                        let is_min = self.icmp_k(IntCC::Equal, v, min as i64);
                        self.trap_if(is_min, TrapKind::Overflow, e.span);
                        Val::One(self.b.ins().ineg(v))
                    }
                    _ => Val::One(v),
                }
            }
            ExprKind::Binary(BinOp::And, l, r) | ExprKind::Binary(BinOp::Or, l, r) => {
                let is_and = matches!(e.kind, ExprKind::Binary(BinOp::And, ..));
                let a = self.expr(l).one();
                let rhs = self.b.create_block();
                let join = self.b.create_block();
                self.b.append_block_param(join, types::I8);
                if is_and {
                    self.b.ins().brif(a, rhs, &[], join, &[a.into()]);
                } else {
                    self.b.ins().brif(a, join, &[a.into()], rhs, &[]);
                }
                self.b.switch_to_block(rhs);
                let b = self.expr(r).one();
                self.b.ins().jump(join, &[b.into()]);
                self.b.switch_to_block(join);
                Val::One(self.b.block_params(join)[0])
            }
            ExprKind::Binary(op, l, r) => {
                let a = self.expr(l);
                let b = self.expr(r);
                if op.is_comparison() {
                    Val::One(self.compare(*op, a, b, &l.ty))
                } else {
                    self.binary_values(*op, a, b, &l.ty, &r.ty, e.span)
                }
            }
            // A `[]u8` read as `[]const u8`: a copy of the bytes it holds now, as in the
            // evaluator (a later write through the view does not show through).
            ExprKind::Cast(x) if x.ty == Ty::MutSlice => {
                let v = self.expr(x);
                let f = self
                    .s
                    .module
                    .declare_func_in_func(self.s.imports.snapshot, self.b.func);
                let mut args = vec![self.ctx];
                args.extend(v.parts());
                let call = self.b.ins().call(f, &args);
                let copy = self.b.inst_results(call)[0];
                let len = v.parts()[1];
                Val::Str(copy, len)
            }
            ExprKind::View(place) => {
                let n = match &place.ty {
                    Ty::Array(_, n) => *n,
                    _ => 0,
                };
                match self.place(place) {
                    crate::translate::Place::Mem(addr, _) => {
                        Val::Str(addr, self.b.ins().iconst(types::I64, n as i64))
                    }
                    _ => self.zero_value(&Ty::MutSlice),
                }
            }
            ExprKind::Cast(x) => {
                let v = self.expr(x).one();
                Val::One(self.cast(v, &x.ty, &e.ty, e.span))
            }
            ExprKind::Index(base, index) => {
                // A string or a `[]u8` (an array is a memory place, handled above).
                let addr = self.byte_address(base, index);
                Val::One(
                    self.b
                        .ins()
                        .load(types::I8, MemFlagsData::trusted(), addr, 0),
                )
            }
            ExprKind::Field(x, i) => {
                let base = self.expr(x).one();
                let off = layout::field_offset(&x.ty, *i as usize, self.s.p) as i64;
                let addr = self.b.ins().iadd_imm_s(base, off);
                self.load(addr, &e.ty)
            }
            ExprKind::Array(items) | ExprKind::Tuple(items) | ExprKind::Struct(items) => {
                let addr = self.temp(&e.ty);
                for (i, item) in items.iter().enumerate() {
                    let v = self.expr(item);
                    let off = match &e.ty {
                        Ty::Array(elem, _) => layout::stride(elem, self.s.p) * i as u64,
                        ty => layout::field_offset(ty, i, self.s.p),
                    };
                    let at = self.b.ins().iadd_imm_s(addr, off as i64);
                    self.store(at, v, &item.ty);
                }
                Val::Agg(addr)
            }
            ExprKind::AddrOf(x) => {
                // The slice holds the bytes as they are now, as the evaluator does.
                let src = self.expr(x).one();
                let copy = self.temp(&x.ty);
                self.copy_memory(copy, src, &x.ty);
                let n = match &x.ty {
                    Ty::Array(_, n) => *n,
                    _ => 0,
                };
                Val::Str(copy, self.b.ins().iconst(types::I64, n as i64))
            }
            ExprKind::If(c, a, b) => {
                let cond = self.expr(c).one();
                let then_b = self.b.create_block();
                let else_b = self.b.create_block();
                let join = self.b.create_block();
                let parts = abi_parts(&e.ty);
                for t in &parts {
                    self.b.append_block_param(join, *t);
                }
                self.b.ins().brif(cond, then_b, &[], else_b, &[]);
                self.b.switch_to_block(then_b);
                let va = self.expr(a);
                self.jump_with(join, va);
                self.b.switch_to_block(else_b);
                let vb = self.expr(b);
                self.jump_with(join, vb);
                self.b.switch_to_block(join);
                self.joined(join, &e.ty)
            }
            ExprKind::Switch(x, arms, default) => {
                let v = self.expr(x);
                let join = self.b.create_block();
                for t in abi_parts(&e.ty) {
                    self.b.append_block_param(join, t);
                }
                for arm in arms {
                    let take = self.b.create_block();
                    let next = self.b.create_block();
                    let mut hit = self.b.ins().iconst(types::I8, 0);
                    for p in &arm.patterns {
                        let pv = self.constant(p, &x.ty);
                        let eq = self.compare(BinOp::Eq, v, pv, &x.ty);
                        hit = self.b.ins().bor(hit, eq);
                    }
                    self.b.ins().brif(hit, take, &[], next, &[]);
                    self.b.switch_to_block(take);
                    let r = self.expr(&arm.value);
                    self.jump_with(join, r);
                    self.b.switch_to_block(next);
                }
                let r = match default {
                    Some(d) => self.expr(d),
                    None => self.zero_value(&e.ty),
                };
                self.jump_with(join, r);
                self.b.switch_to_block(join);
                self.joined(join, &e.ty)
            }
            ExprKind::Undefined => self.undefined_value(&e.ty),
            ExprKind::Counted { value, tally } => {
                let v = self.expr(value);
                match *tally {
                    t27_ir::Tally::Each(c) => self.count(c, None),
                    // The outcome itself (0 or 1) is what is added: no branch.
                    t27_ir::Tally::WhenTrue(c) => {
                        let b = v.one();
                        self.count_by(c, b, false);
                    }
                    t27_ir::Tally::WhenFalse(c) => {
                        let b = v.one();
                        self.count_by(c, b, true);
                    }
                    t27_ir::Tally::Both { on_true, on_false } => {
                        // The counter of the outcome, chosen without a branch.
                        let b = v.one();
                        let t = self.b.ins().iconst(types::I64, i64::from(on_true));
                        let f = self.b.ins().iconst(types::I64, i64::from(on_false));
                        let index = self.b.ins().select(b, t, f);
                        self.count(0, Some(index));
                    }
                }
                v
            }
            ExprKind::Error => Val::Unit,
        }
    }

    fn jump_with(&mut self, block: Block, v: Val) {
        let args: Vec<cranelift::codegen::ir::BlockArg> =
            v.parts().into_iter().map(Into::into).collect();
        self.b.ins().jump(block, &args);
    }

    fn joined(&mut self, block: Block, ty: &Ty) -> Val {
        let ps = self.b.block_params(block).to_vec();
        match ty {
            Ty::Str | Ty::MutSlice => Val::Str(ps[0], ps[1]),
            t if is_aggregate(t) => Val::Agg(ps[0]),
            _ => ps.first().map_or(Val::Unit, |v| Val::One(*v)),
        }
    }

    /// What `undefined` of type `ty` reads as ([`t27_ir::undefined`]).
    fn undefined_value(&mut self, ty: &Ty) -> Val {
        match ty {
            t if is_aggregate(t) => {
                let addr = self.temp(t);
                self.undefined_memory(addr, t);
                Val::Agg(addr)
            }
            Ty::Int(_) | Ty::Bool | Ty::F64 => Val::One(self.undefined_scalar(ty)),
            _ => self.zero_value(ty),
        }
    }

    fn zero_value(&mut self, ty: &Ty) -> Val {
        match ty {
            Ty::Str | Ty::MutSlice => {
                let z = self.b.ins().iconst(types::I64, 0);
                Val::Str(z, z)
            }
            t if is_aggregate(t) => {
                let addr = self.temp(t);
                self.zero_memory(addr, t);
                Val::Agg(addr)
            }
            Ty::Int(_) | Ty::Bool | Ty::F64 => Val::One(self.zero_scalar(ty)),
            _ => Val::Unit,
        }
    }

    /// Whether a global, field or index expression names memory (an element of an array
    /// rather than a byte of a string).
    fn is_memory_place(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Global(_) => true,
            ExprKind::Field(..) => false,
            ExprKind::Index(base, _) => matches!(base.ty, Ty::Array(..)),
            _ => false,
        }
    }

    /// The scalar element of a constant array at a literal index, or at the counter of an
    /// unrolled loop (known in each copy of the body): a constant, which Cranelift then
    /// folds into what it decides.
    fn known_element(&self, base: &Expr, index: &Expr) -> Option<IrValue> {
        let ExprKind::Const(id) = &base.kind else {
            return None;
        };
        let k = match &index.kind {
            ExprKind::Lit(IrValue::Int(k)) => k.to_u64()?,
            ExprKind::Local(i) => self.known.iter().rev().find(|(c, _)| c == i)?.1,
            _ => return None,
        };
        match self.s.p.consts[id.index()].value.as_ref()? {
            IrValue::Array(items) => items
                .get(k as usize)
                .filter(|v| matches!(v, IrValue::Int(_) | IrValue::Bool(_) | IrValue::F64(_)))
                .cloned(),
            _ => None,
        }
    }

    /// Whether `e` reads an element of a constant array at an index that needs no bounds
    /// check: the memory never changes and the read cannot fail, so the load may move (out
    /// of the loops that do not change the index, for one).
    fn reads_constant_in_bounds(&self, e: &Expr) -> bool {
        let ExprKind::Index(base, index) = &e.kind else {
            return false;
        };
        match (&base.kind, &base.ty) {
            (ExprKind::Const(_), Ty::Array(_, n)) => self.counter_in_bounds(index, *n),
            _ => false,
        }
    }

    /// The address of a global or an array element (evaluating the array and index).
    fn address_of(&mut self, e: &Expr) -> Value {
        match &e.kind {
            ExprKind::Global(id) => {
                let base = self.b.ins().load(
                    types::I64,
                    MemFlagsData::trusted(),
                    self.ctx,
                    crate::runtime::OFF_GLOBALS,
                );
                self.b
                    .ins()
                    .iadd_imm_s(base, self.s.global_offsets[id.index()] as i64)
            }
            ExprKind::Index(base, index) => {
                let arr = self.expr(base).one();
                self.element_address(arr, &base.ty, index)
            }
            _ => self.b.ins().iconst(types::I64, 0),
        }
    }

    /// A compile-time value as native code.
    pub fn constant(&mut self, v: &IrValue, ty: &Ty) -> Val {
        match (v, ty) {
            (IrValue::Int(i), Ty::Int(t)) => Val::One(self.b.ins().iconst(
                int_type(*t),
                i.to_i64().unwrap_or(i.to_u64().unwrap_or(0) as i64),
            )),
            (IrValue::Int(i), _) => Val::One(
                self.b
                    .ins()
                    .iconst(types::I64, i.to_i64().unwrap_or_default()),
            ),
            (IrValue::Bool(b), _) => Val::One(self.b.ins().iconst(types::I8, *b as i64)),
            (IrValue::F64(x), _) => Val::One(self.b.ins().f64const(*x)),
            (IrValue::Str(s), _) => {
                let (ptr, len) = self.s.arena.intern(s);
                Val::Str(
                    self.b.ins().iconst(types::I64, ptr as i64),
                    self.b.ins().iconst(types::I64, len as i64),
                )
            }
            (v, ty) => {
                let addr = self.s.constant_memory(v, ty);
                Val::Agg(self.b.ins().iconst(types::I64, addr as i64))
            }
        }
    }

    fn call(&mut self, f: FnId, args: &[Expr], e: &Expr) -> Val {
        let mut values = vec![self.ctx];
        let ret_slot = if is_aggregate(&e.ty) {
            let slot = self.temp(&e.ty);
            values.push(slot);
            Some(slot)
        } else {
            None
        };
        for a in args {
            let v = self.expr(a);
            match v {
                // Aggregates are passed as the address of a private copy.
                Val::Agg(src) => {
                    let copy = self.temp(&a.ty);
                    self.copy_memory(copy, src, &a.ty);
                    values.push(copy);
                }
                other => values.extend(other.parts()),
            }
        }
        // A leaf cannot recurse: calling it neither counts against the depth limit nor
        // changes the depth.
        let leaf = self.s.leaf[f.index()];
        let depth = (!leaf).then(|| self.enter_call(e.span));
        let callee = self
            .s
            .module
            .declare_func_in_func(self.s.fns[f.index()], self.b.func);
        let call = self.b.ins().call(callee, &values);
        let results = self.b.inst_results(call).to_vec();
        if leaf {
            if self.s.may_stop[f.index()] {
                self.propagate_stop();
            }
        } else if let Some(depth) = depth {
            self.leave_call(depth);
        }
        match (&e.ty, ret_slot) {
            (_, Some(slot)) => Val::Agg(slot),
            (Ty::Str | Ty::MutSlice, _) => Val::Str(results[0], results[1]),
            _ => results.first().map_or(Val::Unit, |v| Val::One(*v)),
        }
    }

    /// `a op b` for a comparison operator, as an `i8` truth value.
    pub fn compare(&mut self, op: BinOp, a: Val, b: Val, ty: &Ty) -> Value {
        let eq = match ty {
            Ty::Str => {
                let f = self
                    .s
                    .module
                    .declare_func_in_func(self.s.imports.str_eq, self.b.func);
                let mut args = a.parts();
                args.extend(b.parts());
                let call = self.b.ins().call(f, &args);
                Some(self.b.inst_results(call)[0])
            }
            t if is_aggregate(t) => {
                let f = self
                    .s
                    .module
                    .declare_func_in_func(self.s.imports.agg_eq, self.b.func);
                let idx = self.s.agg_type(t);
                let idx = self.b.ins().iconst(types::I64, idx as i64);
                let call = self.b.ins().call(f, &[self.ctx, a.one(), b.one(), idx]);
                Some(self.b.inst_results(call)[0])
            }
            _ => None,
        };
        if let Some(eq) = eq {
            return if op == BinOp::Ne {
                self.b.ins().bxor_imm_u(eq, 1)
            } else {
                eq
            };
        }
        let (x, y) = (a.one(), b.one());
        if *ty == Ty::F64 {
            let cc = match op {
                BinOp::Eq => FloatCC::Equal,
                BinOp::Ne => FloatCC::NotEqual,
                BinOp::Lt => FloatCC::LessThan,
                BinOp::Le => FloatCC::LessThanOrEqual,
                BinOp::Gt => FloatCC::GreaterThan,
                _ => FloatCC::GreaterThanOrEqual,
            };
            return self.b.ins().fcmp(cc, x, y);
        }
        let signed = ty.int().is_some_and(|t| t.signed());
        let cc = match (op, signed) {
            (BinOp::Eq, _) => IntCC::Equal,
            (BinOp::Ne, _) => IntCC::NotEqual,
            (BinOp::Lt, true) => IntCC::SignedLessThan,
            (BinOp::Lt, false) => IntCC::UnsignedLessThan,
            (BinOp::Le, true) => IntCC::SignedLessThanOrEqual,
            (BinOp::Le, false) => IntCC::UnsignedLessThanOrEqual,
            (BinOp::Gt, true) => IntCC::SignedGreaterThan,
            (BinOp::Gt, false) => IntCC::UnsignedGreaterThan,
            (_, true) => IntCC::SignedGreaterThanOrEqual,
            (_, false) => IntCC::UnsignedGreaterThanOrEqual,
        };
        self.b.ins().icmp(cc, x, y)
    }
}
