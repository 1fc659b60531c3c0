//! One function or block body to Cranelift IR: locals, statements, control flow, traps.

use crate::compiler::{JitError, Shared, abi_parts, is_aggregate, trap_code};
use crate::layout;
use crate::runtime::*;
use cranelift::codegen::ir::StackSlot;
use cranelift::prelude::*;
use cranelift_module::Module;
use t27_diag::Span;
use t27_ir::{
    Block as IrBlock, Body, Expr, ExprKind, LocalId, MAX_CALL_DEPTH, Stmt, StmtKind, TrapKind, Ty,
};

/// A compiled value: nothing, one scalar, a string's pointer and length, or the address of an
/// aggregate.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Val {
    Unit,
    One(Value),
    Str(Value, Value),
    Agg(Value),
}

impl Val {
    pub fn one(self) -> Value {
        match self {
            Val::One(v) | Val::Agg(v) | Val::Str(v, _) => v,
            Val::Unit => panic!("a unit value has no parts"),
        }
    }
    pub fn parts(self) -> Vec<Value> {
        match self {
            Val::Unit => Vec::new(),
            Val::One(v) | Val::Agg(v) => vec![v],
            Val::Str(p, l) => vec![p, l],
        }
    }
}

/// Where a local lives: SSA variables for scalars and strings, a variable holding the
/// address of its memory for aggregates.
#[derive(Clone, Copy)]
pub(crate) enum LocalStore {
    Scalar(Variable),
    Str(Variable, Variable),
    Agg(Variable),
    None,
}

/// An assignable place.
pub(crate) enum Place {
    Local(LocalId),
    Mem(Value, Ty),
}

pub(crate) struct FnTranslator<'a, 'b, 'p> {
    pub s: &'a mut Shared<'p>,
    pub b: FunctionBuilder<'b>,
    pub ctx: Value,
    pub ret_ptr: Option<Value>,
    pub ret_ty: Ty,
    pub locals: Vec<LocalStore>,
    pub local_tys: Vec<Ty>,
    /// `(continue target, break target)` of the enclosing loops.
    pub loops: Vec<(Block, Block)>,
    /// Returns default values: where every trap, failure and timeout ends.
    pub exit: Block,
    /// Counters of the enclosing counted loops, each with the constant it stays below.
    pub below: Vec<(LocalId, u64)>,
    /// Counters of the enclosing unrolled loops, each with its value in the copy being
    /// compiled.
    pub known: Vec<(LocalId, u64)>,
    /// The call depth on entry, read once: calls restore it, so it holds all through the
    /// body, and a loop of calls need not read it from memory each time. A leaf, which
    /// makes no calls, does not read it (a dead load in every inlined copy otherwise).
    pub entry_depth: Value,
    /// Whether the code can stop the block (trap, fail or time out); a caller of a leaf
    /// that cannot need not check after each call.
    pub may_stop: bool,
    /// Coverage counts made in the copies of an unrolled loop and not yet added to their
    /// counters (`unroll.rs`): each counter with the amount, known as the code is compiled.
    pub pending: Vec<(u32, u64)>,
    /// Whether the statements `stmts` is about to compile are the body of an unrolled copy
    /// itself, whose counts are deferred into `pending`.
    pub deferring: bool,
}

impl<'a, 'b, 'p> FnTranslator<'a, 'b, 'p> {
    pub fn translate(
        s: &'a mut Shared<'p>,
        func: &'b mut cranelift::codegen::ir::Function,
        fctx: &'b mut FunctionBuilderContext,
        body: &Body,
        ret: &Ty,
        params: usize,
        poll_on_entry: bool,
    ) -> Result<bool, JitError> {
        let mut b = FunctionBuilder::new(func, fctx);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let args: Vec<Value> = b.block_params(entry).to_vec();
        let exit = b.create_block();
        // Only leaves (which make no calls) skip the poll on entry; they never use the depth.
        let entry_depth = if poll_on_entry {
            b.ins()
                .load(types::I32, MemFlagsData::trusted(), args[0], OFF_DEPTH)
        } else {
            b.ins().iconst(types::I32, 0)
        };
        let mut t = FnTranslator {
            s,
            b,
            ctx: args[0],
            ret_ptr: None,
            ret_ty: ret.clone(),
            locals: Vec::new(),
            local_tys: body.locals.iter().map(|l| l.ty.clone()).collect(),
            loops: Vec::new(),
            exit,
            below: Vec::new(),
            known: Vec::new(),
            entry_depth,
            may_stop: false,
            pending: Vec::new(),
            deferring: false,
        };
        let mut next = 1;
        if is_aggregate(ret) {
            t.ret_ptr = Some(args[1]);
            next = 2;
        }
        for (i, local) in body.locals.iter().enumerate() {
            let store = t.declare_local(&local.ty);
            t.locals.push(store);
            if i < params {
                // Parameters arrive in their ABI parts; an aggregate arrives as the address
                // of the caller's private copy.
                match store {
                    LocalStore::Scalar(v) | LocalStore::Agg(v) => {
                        t.b.def_var(v, args[next]);
                        next += 1;
                    }
                    LocalStore::Str(p, l) => {
                        t.b.def_var(p, args[next]);
                        t.b.def_var(l, args[next + 1]);
                        next += 2;
                    }
                    LocalStore::None => {}
                }
            } else {
                t.init_local(LocalId(i as u32), store);
            }
        }
        if poll_on_entry {
            t.check_interrupt();
        }
        t.block(&body.block);
        t.finish_with_return();
        t.b.switch_to_block(exit);
        t.emit_default_return();
        t.b.seal_all_blocks();
        let cfg = t.s.module.target_config();
        let may_stop = t.may_stop;
        t.b.finalize(cfg);
        Ok(may_stop)
    }

    fn declare_local(&mut self, ty: &Ty) -> LocalStore {
        match ty {
            Ty::Int(_) | Ty::Bool | Ty::F64 => {
                LocalStore::Scalar(self.b.declare_var(abi_parts(ty)[0]))
            }
            Ty::Str | Ty::MutSlice => LocalStore::Str(
                self.b.declare_var(types::I64),
                self.b.declare_var(types::I64),
            ),
            Ty::Array(..) | Ty::Tuple(_) | Ty::Struct(_) => {
                LocalStore::Agg(self.b.declare_var(types::I64))
            }
            _ => LocalStore::None,
        }
    }

    /// Locals start zeroed, with aggregate locals given their own stack memory.
    fn init_local(&mut self, id: LocalId, store: LocalStore) {
        let ty = self.local_tys[id.index()].clone();
        match store {
            LocalStore::Scalar(v) => {
                let z = self.zero_scalar(&ty);
                self.b.def_var(v, z);
            }
            LocalStore::Str(p, l) => {
                let z = self.b.ins().iconst(types::I64, 0);
                self.b.def_var(p, z);
                self.b.def_var(l, z);
            }
            LocalStore::Agg(v) => {
                let addr = self.temp(&ty);
                self.zero_memory(addr, &ty);
                self.b.def_var(v, addr);
            }
            LocalStore::None => {}
        }
    }

    /// Sets a local declared `= undefined` to what such memory reads as: 0xAA bytes, with
    /// `bool`s false and strings empty ([`t27_ir::undefined`]).
    fn undefined_local(&mut self, id: LocalId, store: LocalStore) {
        let ty = self.local_tys[id.index()].clone();
        match store {
            LocalStore::Scalar(v) => {
                let x = self.undefined_scalar(&ty);
                self.b.def_var(v, x);
            }
            LocalStore::Agg(v) => {
                let addr = self.temp(&ty);
                self.undefined_memory(addr, &ty);
                self.b.def_var(v, addr);
            }
            LocalStore::Str(..) | LocalStore::None => self.init_local(id, store),
        }
    }

    /// The scalar an `undefined` integer, `f64` or `bool` reads as.
    pub fn undefined_scalar(&mut self, ty: &Ty) -> Value {
        match ty {
            Ty::F64 => self.b.ins().f64const(t27_ir::undefined::f64()),
            Ty::Int(t) => {
                let ct = abi_parts(ty).first().copied().unwrap_or(types::I64);
                // `iconst` takes the bits as an i64; the narrow types keep their low bits.
                let bits = t27_ir::undefined::int(*t) as i64;
                let bits = match ct.bits() {
                    64 => bits,
                    n => bits & ((1i64 << n) - 1),
                };
                self.b.ins().iconst(ct, bits)
            }
            _ => self.zero_scalar(ty),
        }
    }

    /// Fills the memory of a value of type `ty` at `addr` as `undefined` does: one `memset`
    /// of 0xAA when the type holds no `bool` or string, else a copy of its pattern.
    pub fn undefined_memory(&mut self, addr: Value, ty: &Ty) {
        match t27_ir::undefined::fill(ty, self.s.p) {
            t27_ir::undefined::Fill::Bytes => {
                let (size, _) = layout::size_align(ty, self.s.p);
                let byte = self
                    .b
                    .ins()
                    .iconst(types::I8, i64::from(t27_ir::undefined::BYTE));
                let len = self.b.ins().iconst(types::I64, size as i64);
                let cfg = self.s.module.target_config();
                self.b.call_memset(cfg, addr, byte, len);
            }
            t27_ir::undefined::Fill::Zeroes => self.zero_memory(addr, ty),
            t27_ir::undefined::Fill::Mixed => {
                // The pattern lives in the arena as long as the code does.
                let bytes = layout::undefined_bytes(ty, self.s.p);
                let (ptr, len) = self.s.arena.intern(&bytes);
                let src = self.b.ins().iconst(types::I64, ptr as i64);
                let len = self.b.ins().iconst(types::I64, len as i64);
                let cfg = self.s.module.target_config();
                self.b.call_memcpy(cfg, addr, src, len);
            }
        }
    }

    pub fn zero_scalar(&mut self, ty: &Ty) -> Value {
        match ty {
            Ty::F64 => self.b.ins().f64const(0.0),
            other => {
                let t = abi_parts(other).first().copied().unwrap_or(types::I64);
                self.b.ins().iconst(t, 0)
            }
        }
    }

    /// Fresh stack memory for a value of `ty`; returns its address.
    pub fn temp(&mut self, ty: &Ty) -> Value {
        let (size, _) = layout::size_align(ty, self.s.p);
        let slot: StackSlot = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            size.max(1) as u32,
            3,
        ));
        self.b.ins().stack_addr(types::I64, slot, 0)
    }

    pub fn zero_memory(&mut self, addr: Value, ty: &Ty) {
        let (size, _) = layout::size_align(ty, self.s.p);
        let zero = self.b.ins().iconst(types::I8, 0);
        let len = self.b.ins().iconst(types::I64, size as i64);
        let cfg = self.s.module.target_config();
        self.b.call_memset(cfg, addr, zero, len);
    }

    pub fn copy_memory(&mut self, dst: Value, src: Value, ty: &Ty) {
        let (size, _) = layout::size_align(ty, self.s.p);
        let len = self.b.ins().iconst(types::I64, size as i64);
        let cfg = self.s.module.target_config();
        self.b.call_memcpy(cfg, dst, src, len);
    }

    /// Starts a new block after a jump, so that the code after a `return` or `break` has a
    /// place to go (it is unreachable).
    pub fn after_jump(&mut self) {
        let dead = self.b.create_block();
        self.b.switch_to_block(dead);
    }

    pub fn set_status(&mut self, status: u32, code: u32, site: u32) {
        self.may_stop = true;
        let st = self.b.ins().iconst(types::I32, status as i64);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), st, self.ctx, OFF_STATUS);
        let c = self.b.ins().iconst(types::I32, code as i64);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), c, self.ctx, OFF_CODE);
        let si = self.b.ins().iconst(types::I32, site as i64);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), si, self.ctx, OFF_SITE);
    }

    /// Traps with `kind` at `span` when `cond` is nonzero; execution continues after it
    /// otherwise.
    pub fn trap_if(&mut self, cond: Value, kind: TrapKind, span: Span) {
        let trap = self.b.create_block();
        let cont = self.b.create_block();
        self.b.ins().brif(cond, trap, &[], cont, &[]);
        self.b.switch_to_block(trap);
        let site = self.s.site(span, None);
        self.set_status(STATUS_TRAP, trap_code(kind), site);
        self.jump_to_exit();
        self.b.switch_to_block(cont);
    }

    /// Leaves the function when a callee stopped the block (a trap, failure or timeout).
    pub fn propagate_stop(&mut self) {
        // What a callee stops, the caller passes on.
        self.may_stop = true;
        let st = self
            .b
            .ins()
            .load(types::I32, MemFlagsData::trusted(), self.ctx, OFF_STATUS);
        let cont = self.b.create_block();
        if self.pending.is_empty() {
            self.b.ins().brif(st, self.exit, &[], cont, &[]);
        } else {
            let adds = self.b.create_block();
            self.b.ins().brif(st, adds, &[], cont, &[]);
            self.b.switch_to_block(adds);
            self.jump_to_exit();
        }
        self.b.switch_to_block(cont);
    }

    /// Stops the block when the watchdog has raised the interrupt flag.
    pub fn check_interrupt(&mut self) {
        // The flag's address is a constant of the code (see `Shared::interrupt`): a poll is
        // one load, and holds no register between polls.
        let flag_ptr = self.b.ins().iconst(types::I64, self.s.interrupt as i64);
        // An atomic load: the optimiser may merge a plain load with an earlier one, and the
        // loop would never see the flag change.
        let flag = self
            .b
            .ins()
            .atomic_load(types::I8, MemFlagsData::trusted(), flag_ptr);
        let stop = self.b.create_block();
        let cont = self.b.create_block();
        self.b.ins().brif(flag, stop, &[], cont, &[]);
        self.b.switch_to_block(stop);
        self.set_status(STATUS_TIMEOUT, 0, 0);
        self.jump_to_exit();
        self.b.switch_to_block(cont);
    }

    /// Checks and counts the depth around a call at `span` (of a function that makes calls);
    /// returns the depth to restore.
    pub fn enter_call(&mut self, span: Span) -> Value {
        let depth = self.entry_depth;
        let too_deep = self.icmp_k(
            IntCC::UnsignedGreaterThanOrEqual,
            depth,
            MAX_CALL_DEPTH as i64,
        );
        self.trap_if(too_deep, TrapKind::RecursionTooDeep, span);
        let deeper = self.b.ins().iadd_imm_s(depth, 1);
        self.b
            .ins()
            .store(MemFlagsData::trusted(), deeper, self.ctx, OFF_DEPTH);
        depth
    }

    pub fn leave_call(&mut self, depth: Value) {
        self.b
            .ins()
            .store(MemFlagsData::trusted(), depth, self.ctx, OFF_DEPTH);
        self.propagate_stop();
    }

    /// Returns `parts`, with the counts still pending added first.
    pub fn emit_return(&mut self, parts: &[Value]) {
        self.add_pending();
        self.b.ins().return_(parts);
    }

    /// Jumps to `exit`, with the counts still pending added first.
    fn jump_to_exit(&mut self) {
        self.add_pending();
        self.b.ins().jump(self.exit, &[]);
    }

    fn emit_default_return(&mut self) {
        if is_aggregate(&self.ret_ty) {
            self.emit_return(&[]);
            return;
        }
        let parts = abi_parts(&self.ret_ty);
        let zeros: Vec<Value> = parts
            .iter()
            .map(|t| {
                if *t == types::F64 {
                    self.b.ins().f64const(0.0)
                } else {
                    self.b.ins().iconst(*t, 0)
                }
            })
            .collect();
        self.emit_return(&zeros);
    }

    /// The end of the body: a function without a return type returns here; one with a return
    /// type cannot reach it (the checker proved every path returns).
    fn finish_with_return(&mut self) {
        self.emit_default_return();
    }

    pub fn block(&mut self, b: &IrBlock) {
        self.stmts(&b.stmts);
    }

    pub fn stmts(&mut self, stmts: &[Stmt]) {
        // Only the copy's own statements defer their counts: not those of the blocks in them.
        let deferring = std::mem::replace(&mut self.deferring, false);
        let mut i = 0;
        while i < stmts.len() {
            if let StmtKind::Count(id) = stmts[i].kind
                && deferring
            {
                self.defer_count(id);
                i += 1;
                continue;
            }
            if crate::select::is_decision(self.s.p, &self.locals, &stmts[i..]) {
                self.decide(&stmts[i..]);
                return;
            }
            if let Some(u) = stmts
                .get(i + 1)
                .and_then(|next| crate::unroll::plan(self.s.p, &stmts[i], next))
            {
                self.stmt(&stmts[i]);
                if self.unrolled_loop(&u, deferring) {
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            if let Some(chain) = crate::switch::chain(self.s.p, &stmts[i..])
                && self.switch_chain(&chain)
            {
                i += chain.len();
                continue;
            }
            let run = crate::table::assert_run(self.s.p, &stmts[i..]);
            if run >= crate::table::MIN_RUN {
                self.assert_table(&stmts[i..i + run]);
                i += run;
            } else {
                self.stmt(&stmts[i]);
                i += 1;
            }
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { local, init } => {
                if let ExprKind::Undefined = init.kind {
                    let store = self.locals[local.index()];
                    self.undefined_local(*local, store);
                } else {
                    let v = self.expr(init);
                    self.store_local(*local, v);
                }
            }
            StmtKind::LetTuple { locals, init } => {
                let v = self.expr(init);
                let addr = v.one();
                for (i, l) in locals.iter().enumerate() {
                    let off = layout::field_offset(&init.ty, i, self.s.p) as i32;
                    let fty = self.local_tys[l.index()].clone();
                    let field_addr = self.b.ins().iadd_imm_s(addr, off as i64);
                    let fv = self.load(field_addr, &fty);
                    self.store_local(*l, fv);
                }
            }
            StmtKind::Assign { place, op, value } => {
                // Zig's order: the place, the target's current value (compound), the value.
                let target = self.place(place);
                let cur = op.map(|_| self.read_place(&target, &place.ty));
                let v = self.expr(value);
                let v = match (op, cur) {
                    (Some(op), Some(cur)) => {
                        self.binary_values(*op, cur, v, &place.ty, &value.ty, place.span)
                    }
                    _ => v,
                };
                self.write_place(target, v, &place.ty);
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.expr(cond).one();
                let then_b = self.b.create_block();
                let else_b = self.b.create_block();
                let join = self.b.create_block();
                self.b.ins().brif(c, then_b, &[], else_b, &[]);
                self.b.switch_to_block(then_b);
                self.block(then);
                self.b.ins().jump(join, &[]);
                self.b.switch_to_block(else_b);
                self.block(otherwise);
                self.b.ins().jump(join, &[]);
                self.b.switch_to_block(join);
            }
            StmtKind::While { cond, body, step } => self.while_loop(cond, body, step),
            StmtKind::Count(id) => self.count(*id, None),
            StmtKind::Break | StmtKind::Continue => {
                if let Some(&(cont, brk)) = self.loops.last() {
                    let target = if matches!(s.kind, StmtKind::Break) {
                        brk
                    } else {
                        cont
                    };
                    self.b.ins().jump(target, &[]);
                    self.after_jump();
                }
            }
            StmtKind::Return(value) => {
                match value {
                    None => self.emit_default_return(),
                    Some(e) => {
                        let v = self.expr(e);
                        match (self.ret_ptr, v) {
                            (Some(dst), Val::Agg(src)) => {
                                let ty = self.ret_ty.clone();
                                self.copy_memory(dst, src, &ty);
                                self.emit_return(&[]);
                            }
                            _ => {
                                let parts = v.parts();
                                self.emit_return(&parts);
                            }
                        }
                    }
                }
                self.after_jump();
            }
            StmtKind::Assert { cond, .. } => self.assert(cond, s.span),
            StmtKind::Expr(e) => {
                self.expr(e);
            }
            StmtKind::Block(b) => self.block(b),
        }
    }

    fn assert(&mut self, cond: &Expr, span: Span) {
        // `assert a and b` is `assert a; assert b;`, as in the evaluator.
        if let ExprKind::Binary(t27_ir::BinOp::And, l, r) = &cond.kind {
            self.assert(l, span);
            self.assert(r, span);
            return;
        }
        if let ExprKind::Binary(op, l, r) = &cond.kind
            && op.is_comparison()
        {
            let a = self.expr(l);
            let b = self.expr(r);
            let ok = self.compare(*op, a, b, &l.ty);
            let fail = self.b.create_block();
            let cont = self.b.create_block();
            self.b.ins().brif(ok, cont, &[], fail, &[]);
            self.b.switch_to_block(fail);
            self.store_side(a, &l.ty, OFF_LEFT);
            self.store_side(b, &r.ty, OFF_RIGHT);
            let site = self.s.site(span, Some((l.ty.clone(), r.ty.clone())));
            self.set_status(STATUS_FAIL, 0, site);
            self.capture_and_stop();
            self.b.switch_to_block(cont);
            return;
        }
        let c = self.expr(cond).one();
        let fail = self.b.create_block();
        let cont = self.b.create_block();
        self.b.ins().brif(c, cont, &[], fail, &[]);
        self.b.switch_to_block(fail);
        let site = self.s.site(span, None);
        self.set_status(STATUS_FAIL, 0, site);
        self.jump_to_exit();
        self.b.switch_to_block(cont);
    }

    /// After a failed comparison has stored its sides and set the status: has the host read
    /// the values while they are alive, then leaves the block.
    pub fn capture_and_stop(&mut self) {
        let capture = self
            .s
            .module
            .declare_func_in_func(self.s.imports.capture, self.b.func);
        self.b.ins().call(capture, &[self.ctx]);
        self.jump_to_exit();
    }

    /// Stores one side of a failed comparison in the context for the host to read.
    fn store_side(&mut self, v: Val, ty: &Ty, off: i32) {
        let flags = MemFlagsData::trusted();
        match v {
            Val::Str(p, l) => {
                self.b.ins().store(flags, p, self.ctx, off);
                self.b.ins().store(flags, l, self.ctx, off + 8);
            }
            Val::Agg(p) => {
                self.b.ins().store(flags, p, self.ctx, off);
            }
            Val::One(x) => {
                let word = match ty {
                    Ty::F64 => self.b.ins().bitcast(types::I64, MemFlagsData::new(), x),
                    _ if self.b.func.dfg.value_type(x) == types::I64 => x,
                    _ => self.b.ins().uextend(types::I64, x),
                };
                self.b.ins().store(flags, word, self.ctx, off);
            }
            Val::Unit => {}
        }
    }
}
