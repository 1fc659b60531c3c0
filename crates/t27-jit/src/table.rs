//! Runs of similar asserts as a table and a loop.
//!
//! The owner's replay specs are long lists of `assert f(constants) == constant;`. Compiled
//! one by one, every assert is a call, a status check, a comparison and a failure path:
//! hundreds of thousands of them make Cranelift's compile time the whole cost. A run of such
//! asserts is compiled instead as a table of rows (which call, its arguments, the expected
//! value, the source site) and one loop that makes the call of each row. The loop does what
//! the asserts would, in the same order: the first false row stops the block with its own
//! span and both values.

use crate::compiler::{abi_parts, int_type};
use crate::runtime::*;
use crate::translate::{FnTranslator, Val};
use cranelift::codegen::ir::JumpTableData;
use cranelift::prelude::*;
use cranelift_module::Module;
use num_traits::ToPrimitive;
use t27_ir::{BinOp, Expr, ExprKind, FnId, Program, Stmt, StmtKind, Ty, Value as IrValue};

/// Shorter runs are compiled assert by assert.
pub const MIN_RUN: usize = 8;

/// The compile-time value of a constant scalar operand, as a table word.
pub(crate) fn word(p: &Program, e: &Expr) -> Option<i64> {
    if !matches!(e.ty, Ty::Int(_) | Ty::Bool) {
        return None;
    }
    let v = match &e.kind {
        ExprKind::Lit(v) => v,
        ExprKind::Const(id) => p.consts[id.index()].value.as_ref()?,
        _ => return None,
    };
    match v {
        IrValue::Int(i) => i.to_i64().or_else(|| i.to_u64().map(|u| u as i64)),
        IrValue::Bool(b) => Some(*b as i64),
        _ => None,
    }
}

/// `assert f(c1, c2, ...) op c;`: the function, the operator and the row's words.
fn shape(p: &Program, s: &Stmt) -> Option<(FnId, BinOp, Vec<i64>)> {
    let StmtKind::Assert { cond, .. } = &s.kind else {
        return None;
    };
    let ExprKind::Binary(op, l, r) = &cond.kind else {
        return None;
    };
    if !op.is_comparison() || !matches!(l.ty, Ty::Int(_) | Ty::Bool) || l.ty != r.ty {
        return None;
    }
    let ExprKind::Call(f, args) = &l.kind else {
        return None;
    };
    let mut row = args
        .iter()
        .map(|a| word(p, a))
        .collect::<Option<Vec<i64>>>()?;
    row.push(word(p, r)?);
    Some((*f, *op, row))
}

/// How many statements from the start form one run of table-able asserts (on any functions,
/// with any comparison).
pub fn assert_run(p: &Program, stmts: &[Stmt]) -> usize {
    stmts.iter().take_while(|s| shape(p, s).is_some()).count()
}

impl FnTranslator<'_, '_, '_> {
    pub fn assert_table(&mut self, stmts: &[Stmt]) {
        let p = self.s.p;
        let shapes: Vec<(FnId, BinOp, Vec<i64>)> =
            stmts.iter().filter_map(|s| shape(p, s)).collect();
        if shapes.len() != stmts.len() {
            return;
        }
        // Each distinct (function, operator) pair is a kind with its own call site in the loop.
        let mut kinds: Vec<(FnId, BinOp)> = Vec::new();
        for (f, op, _) in &shapes {
            if !kinds.contains(&(*f, *op)) {
                kinds.push((*f, *op));
            }
        }
        let max_args = shapes
            .iter()
            .map(|(_, _, row)| row.len() - 1)
            .max()
            .unwrap_or(0);
        // A row: kind, site, expected value, arguments.
        let width = 3 + max_args;
        let mut words: Vec<u64> = Vec::with_capacity(stmts.len() * width);
        for (s, (f, op, row)) in stmts.iter().zip(&shapes) {
            let StmtKind::Assert { cond, .. } = &s.kind else {
                return;
            };
            let ExprKind::Binary(_, l, r) = &cond.kind else {
                return;
            };
            let site = self.s.site(s.span, Some((l.ty.clone(), r.ty.clone())));
            let kind = kinds.iter().position(|k| *k == (*f, *op)).unwrap_or(0);
            words.push(kind as u64);
            words.push(site as u64);
            words.push(row[row.len() - 1] as u64);
            words.extend(row[..row.len() - 1].iter().map(|w| *w as u64));
            words.extend(std::iter::repeat_n(0, max_args - (row.len() - 1)));
        }
        let table: Box<[u64]> = words.into_boxed_slice();
        let base_addr = table.as_ptr() as i64;
        self.s.blocks.push(table);

        let flags = MemFlagsData::trusted();
        let rows = stmts.len() as i64;
        let i = self.b.declare_var(types::I64);
        let zero = self.b.ins().iconst(types::I64, 0);
        self.b.def_var(i, zero);
        let header = self.b.create_block();
        let dispatch = self.b.create_block();
        let next = self.b.create_block();
        let fail = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        let iv = self.b.use_var(i);
        let more = self.icmp_k(IntCC::SignedLessThan, iv, rows);
        self.b.ins().brif(more, dispatch, &[], done, &[]);

        self.b.switch_to_block(dispatch);
        let base = self.b.ins().iconst(types::I64, base_addr);
        let off = self.b.ins().imul_imm_u(iv, (width * 8) as i64);
        let row = self.b.ins().iadd(base, off);
        let kind_blocks: Vec<Block> = kinds.iter().map(|_| self.b.create_block()).collect();
        let kind = self.b.ins().load(types::I64, flags, row, 0);
        let kind = self.b.ins().ireduce(types::I32, kind);
        let calls: Vec<_> = kind_blocks
            .iter()
            .map(|b| self.b.func.dfg.block_call(*b, &[]))
            .collect();
        let default = self.b.func.dfg.block_call(next, &[]);
        let jt = self
            .b
            .create_jump_table(JumpTableData::new(default, &calls));
        self.b.ins().br_table(kind, jt);

        for ((f, op), block) in kinds.iter().zip(&kind_blocks) {
            self.b.switch_to_block(*block);
            let func = &p.functions[f.index()];
            let param_tys: Vec<Ty> = func
                .params
                .iter()
                .map(|l| func.body.locals[l.index()].ty.clone())
                .collect();
            let ret_ty = func.ret.clone();
            let mut args = vec![self.ctx];
            for (k, t) in param_tys.iter().enumerate() {
                let w = self
                    .b
                    .ins()
                    .load(types::I64, flags, row, ((3 + k) * 8) as i32);
                args.push(narrow(self, w, t));
            }
            // A block calls at depth 0, so the depth check cannot trip; the depth is still
            // counted for the calls the function makes.
            let one = self.b.ins().iconst(types::I32, 1);
            self.b.ins().store(flags, one, self.ctx, OFF_DEPTH);
            let callee = self
                .s
                .module
                .declare_func_in_func(self.s.fns[f.index()], self.b.func);
            let call = self.b.ins().call(callee, &args);
            let result = self.b.inst_results(call)[0];
            let zero32 = self.b.ins().iconst(types::I32, 0);
            self.b.ins().store(flags, zero32, self.ctx, OFF_DEPTH);
            self.propagate_stop();
            let expected_word = self.b.ins().load(types::I64, flags, row, 16);
            let expected = narrow(self, expected_word, &ret_ty);
            let ok = self.compare(*op, Val::One(result), Val::One(expected), &ret_ty);
            let left = self.widen_to_i64(result, &ret_ty);
            self.b.ins().store(flags, left, self.ctx, OFF_LEFT);
            self.b
                .ins()
                .store(flags, expected_word, self.ctx, OFF_RIGHT);
            self.b.ins().brif(ok, next, &[], fail, &[]);
        }

        // The sides are in the context already; the row says which assert this is.
        self.b.switch_to_block(fail);
        let iv = self.b.use_var(i);
        let base = self.b.ins().iconst(types::I64, base_addr);
        let off = self.b.ins().imul_imm_u(iv, (width * 8) as i64);
        let row = self.b.ins().iadd(base, off);
        let site = self.b.ins().load(types::I32, flags, row, 8);
        self.set_status(STATUS_FAIL, 0, 0);
        self.b.ins().store(flags, site, self.ctx, OFF_SITE);
        self.capture_and_stop();

        self.b.switch_to_block(next);
        let iv = self.b.use_var(i);
        let inc = self.b.ins().iadd_imm_s(iv, 1);
        self.b.def_var(i, inc);
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(done);
    }
}

/// A table word as a value of a parameter or result type.
fn narrow(t: &mut FnTranslator<'_, '_, '_>, w: Value, ty: &Ty) -> Value {
    let ct = match ty {
        Ty::Int(i) => int_type(*i),
        other => abi_parts(other).first().copied().unwrap_or(types::I64),
    };
    if ct == types::I64 {
        w
    } else {
        t.b.ins().ireduce(ct, w)
    }
}
