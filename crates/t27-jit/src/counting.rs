//! Coverage counts in native code: a load, an add and a store at the counter's address,
//! which is built into the code (one thread runs it, so no atomic add is needed). The counts
//! at the top of an unrolled loop's copies are not made one by one but added once
//! (`pending`), after the loop or where the code leaves it: the same counter counted in
//! each straight-line copy would make each add wait for the store before it.

use crate::translate::FnTranslator;
use cranelift::prelude::*;

impl FnTranslator<'_, '_, '_> {
    /// Adds one to coverage counter `index` (a value of the code, an `i64`), or to `fixed`
    /// when `index` is `None`: a load and a store at an address built into the code (one
    /// thread runs the code, so no atomic add is needed).
    pub fn count(&mut self, fixed: u32, index: Option<Value>) {
        if self.s.counters.is_null() {
            return;
        }
        let base = self.b.ins().iconst(types::I64, self.s.counters as i64);
        let addr = match index {
            None => self.b.ins().iadd_imm_s(base, i64::from(fixed) * 8),
            Some(i) => {
                let offset = self.b.ins().ishl_imm_u(i, 3);
                self.b.ins().iadd(base, offset)
            }
        };
        let n = self
            .b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), addr, 0);
        let n = self.b.ins().iadd_imm_s(n, 1);
        self.b.ins().store(MemFlagsData::trusted(), n, addr, 0);
    }

    /// Counts one for counter `id` later: at the end of the unrolled loop, or when the code
    /// leaves before it. In straight-line copies of a loop's body the same counter counts
    /// once in each copy; added one at a time, the copies would wait on each other's stores.
    pub fn defer_count(&mut self, id: u32) {
        if self.s.counters.is_null() {
            return;
        }
        match self.pending.iter_mut().find(|(c, _)| *c == id) {
            Some((_, n)) => *n += 1,
            None => self.pending.push((id, 1)),
        }
    }

    /// Adds the pending counts from `from` on to their counters, here.
    pub fn add_pending_from(&mut self, from: usize) {
        if self.pending.len() <= from {
            return;
        }
        let base = self.b.ins().iconst(types::I64, self.s.counters as i64);
        for i in from..self.pending.len() {
            let (id, n) = self.pending[i];
            let addr = self.b.ins().iadd_imm_s(base, i64::from(id) * 8);
            let flags = MemFlagsData::trusted();
            let old = self.b.ins().load(types::I64, flags, addr, 0);
            let new = self.b.ins().iadd_imm_s(old, n as i64);
            self.b.ins().store(flags, new, addr, 0);
        }
    }

    pub fn add_pending(&mut self) {
        self.add_pending_from(0);
    }

    /// Adds a boolean (`i8`, 0 or 1; negated when `negate`) to coverage counter `id`.
    pub fn count_by(&mut self, id: u32, b: Value, negate: bool) {
        if self.s.counters.is_null() {
            return;
        }
        let base = self.b.ins().iconst(types::I64, self.s.counters as i64);
        let addr = self.b.ins().iadd_imm_s(base, i64::from(id) * 8);
        let b = if negate {
            self.b.ins().bxor_imm_s(b, 1)
        } else {
            b
        };
        let add = self.b.ins().uextend(types::I64, b);
        let n = self
            .b
            .ins()
            .load(types::I64, MemFlagsData::trusted(), addr, 0);
        let n = self.b.ins().iadd(n, add);
        self.b.ins().store(MemFlagsData::trusted(), n, addr, 0);
    }
}
