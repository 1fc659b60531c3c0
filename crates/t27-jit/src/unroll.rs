//! Short counted loops unrolled: `var rel : u32 = 0; while (rel < 2) { ...; rel += 1; }`.
//!
//! A loop that sweeps a small input (a flag, a count of three, a table of six) goes round a
//! few times from a start the statement before it sets. Its body then runs with the counter
//! equal to each value in turn, and nothing else can happen: the test `i < n` has no effect,
//! the body does not assign the counter, and without `break` or `continue` of this loop every
//! iteration runs the whole body. Compiled as that many copies of the body, each with the
//! counter a constant, the loop costs no test, increment or branch, and Cranelift folds what
//! the constant decides in each copy (the tests of an inlined decision function on that
//! input, the address of a table element). The copies need no poll: there are at most
//! [`MAX_TRIPS`], and any loop or call inside polls as it would in the loop.
//!
//! Unrolling grows code, and compile time counts (a replay spec compiles thousands of
//! blocks), so a loop is unrolled only when the copies, loops unrolled inside them included,
//! stay under [`MAX_WEIGHT`] nodes of IR, counting the body of every leaf function called
//! (Cranelift inlines the small ones). Coverage probes are not counted, so that counting
//! changes no unrolling.

use crate::loops::{counted, jumps};
use crate::translate::{FnTranslator, LocalStore};
use cranelift::prelude::InstBuilder;
use num_traits::ToPrimitive;
use t27_ir::{Expr, ExprKind, LocalId, Part, Program, Stmt, StmtKind, Ty, Value as IrValue};

/// The most times round a loop that is unrolled.
pub const MAX_TRIPS: u64 = 16;
/// The most IR nodes an unrolled loop may come to, copies of inner unrolled loops included.
pub const MAX_WEIGHT: usize = 4096;

pub struct Unroll<'s> {
    pub counter: LocalId,
    /// The counter's first value and its bound: the body runs for `start..end`.
    pub start: u64,
    pub end: u64,
    /// The body without the counter's increment.
    pub body: &'s [Stmt],
}

/// The unrolled form of `first; second` when `first` sets a counter to a constant and
/// `second` is a short counted loop on it.
pub fn plan<'s>(p: &Program, first: &Stmt, second: &'s Stmt) -> Option<Unroll<'s>> {
    let u = shape(p, first, second)?;
    let trips = (u.end - u.start) as usize;
    (weight(p, u.body).saturating_mul(trips) <= MAX_WEIGHT).then_some(u)
}

/// The loop's shape, whatever its size.
fn shape<'s>(p: &Program, first: &Stmt, second: &'s Stmt) -> Option<Unroll<'s>> {
    let (counter, start) = match &first.kind {
        StmtKind::Let { local, init } => (*local, init),
        _ => return None,
    };
    let ExprKind::Lit(IrValue::Int(start)) = &start.kind else {
        return None;
    };
    let start = start.to_u64()?;
    let StmtKind::While { cond, body, step } = &second.kind else {
        return None;
    };
    let c = counted(p, cond, body, step)?;
    let end = c.below?;
    if c.local != counter || end.saturating_sub(start) > MAX_TRIPS || jumps(&body.stmts, |_| true) {
        return None;
    }
    let body = if c.in_step {
        &body.stmts[..]
    } else {
        &body.stmts[..body.stmts.len() - 1]
    };
    Some(Unroll {
        counter,
        start,
        end: end.max(start),
        body,
    })
}

/// IR nodes of the statements once compiled: unrolled loops count once per copy, and calls
/// of leaves count their callee's body.
fn weight(p: &Program, stmts: &[Stmt]) -> usize {
    let mut total = 0usize;
    let mut i = 0;
    while i < stmts.len() {
        if let Some(u) = stmts.get(i + 1).and_then(|next| shape(p, &stmts[i], next)) {
            let trips = (u.end - u.start) as usize;
            total = total.saturating_add(weight(p, u.body).saturating_mul(trips) + 1);
            i += 2;
            continue;
        }
        total = total.saturating_add(stmt_weight(p, &stmts[i]));
        i += 1;
    }
    total
}

fn stmt_weight(p: &Program, s: &Stmt) -> usize {
    if let StmtKind::Count(_) = s.kind {
        // Coverage probes weigh nothing: a counted run unrolls the loops a plain one does.
        return 0;
    }
    let mut total = 1;
    s.for_each_part(&mut |part| {
        total += match part {
            Part::Expr(e) => expr_weight(p, e),
            Part::Block(b) => weight(p, &b.stmts),
        }
    });
    total
}

/// An expression's nodes; a call of a function that calls nothing (which Cranelift may
/// inline) adds its body.
fn expr_weight(p: &Program, e: &Expr) -> usize {
    if let ExprKind::Counted { value, .. } = &e.kind {
        return expr_weight(p, value);
    }
    let mut total = 1;
    if let ExprKind::Call(f, _) = &e.kind {
        let body = &p.functions[f.index()].body.block;
        if !body.makes_calls() {
            total += weight(p, &body.stmts);
        }
    }
    e.for_each_child(&mut |x| total += expr_weight(p, x));
    total
}

impl FnTranslator<'_, '_, '_> {
    /// Emits the loop's body once for each value of its counter, which leaves the loop at
    /// its bound. Returns false, having emitted nothing, when the counter is not a scalar.
    ///
    /// The counts at the top of each copy are added once, after the loop (or where the code
    /// leaves it); when the loop itself is at the top of an enclosing copy, after that loop.
    pub fn unrolled_loop(&mut self, u: &Unroll<'_>, in_copy: bool) -> bool {
        let LocalStore::Scalar(var) = self.locals[u.counter.index()] else {
            return false;
        };
        let Ty::Int(t) = self.local_tys[u.counter.index()] else {
            return false;
        };
        let ct = crate::compiler::int_type(t);
        self.below.push((u.counter, u.end));
        let mark = self.pending.len();
        for k in u.start..u.end {
            let v = self.b.ins().iconst(ct, k as i64);
            self.b.def_var(var, v);
            self.known.push((u.counter, k));
            self.deferring = true;
            self.stmts(u.body);
            self.known.pop();
        }
        if !in_copy {
            self.add_pending_from(mark);
            self.pending.truncate(mark);
        }
        self.below.pop();
        let v = self.b.ins().iconst(ct, u.end as i64);
        self.b.def_var(var, v);
        true
    }
}
