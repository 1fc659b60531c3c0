//! Counted loops: `while (i < n) { ...; i += 1; }`, and `for` loops of that shape.
//!
//! Two checks the language asks for cost more than the loop's own work when loops are short
//! and nested, as the loops that sweep a decision function's input domain are: the overflow
//! check of the counter's increment, and the poll of the watchdog's flag. For a counted loop
//! the compiler knows what they would find:
//! - the increment cannot overflow: it runs only after `i < n` held, with `i` unchanged since
//!   (nothing else assigns it), so `i + 1 <= n`, which fits `i`'s type;
//! - a counted loop with a constant bound ends on its own: `i` starts at 0 or more (its type
//!   is unsigned) and grows by one each time round, so the loop runs at most `n` times. When
//!   every loop inside it is such a loop too, and all of them together go round at most
//!   [`MAX_UNPOLLED`] times, none of them polls: the poll of the enclosing loop (or of the
//!   function's entry) stops the block soon enough;
//! - in the body of a counted loop with a constant bound `n` and an unsigned counter, the
//!   counter is below `n`: indexing an array of `n` or more elements with it needs no bounds
//!   check.

use crate::table::word;
use crate::translate::{FnTranslator, LocalStore};
use cranelift::prelude::{Block as ClifBlock, InstBuilder};
use t27_ir::{BinOp, Block, Expr, ExprKind, LocalId, Program, Stmt, StmtKind, Ty, Value};

/// The most iterations a nest of loops may make without polling. A body without loops runs
/// in microseconds at most, and a leaf it calls may hold one more such nest: `MAX_UNPOLLED`
/// squared iterations, milliseconds, is the longest stretch without a poll.
pub const MAX_UNPOLLED: u64 = 4096;

pub struct Counted {
    /// The counter.
    pub local: LocalId,
    /// Whether the increment is the loop's step (a `for` loop) rather than the last statement
    /// of its body.
    pub in_step: bool,
    /// Whether the loop needs no poll of the watchdog's flag.
    pub unpolled: bool,
    /// The constant bound, when the counter is unsigned: all through the body, the counter
    /// lies in `0..below`.
    pub below: Option<u64>,
}

/// The counted loop `while (cond) body` with `step`, if it is one.
pub fn counted(p: &Program, cond: &Expr, body: &Block, step: &Block) -> Option<Counted> {
    let ExprKind::Binary(BinOp::Lt, counter, bound) = &cond.kind else {
        return None;
    };
    let (ExprKind::Local(i), Ty::Int(t)) = (&counter.kind, &counter.ty) else {
        return None;
    };
    if bound.ty != counter.ty {
        return None;
    }
    let i = *i;
    let in_step = match (step.stmts.as_slice(), body.stmts.split_last()) {
        ([inc], _) if is_increment(inc, i) => {
            if assigns(&body.stmts, i) {
                return None;
            }
            true
        }
        ([], Some((inc, rest))) if is_increment(inc, i) => {
            // A `continue` would skip the increment.
            if assigns(rest, i) || jumps(rest, |k| matches!(k, StmtKind::Continue)) {
                return None;
            }
            false
        }
        _ => return None,
    };
    // An unsigned bound above `i64::MAX` reads as negative here; it is simply not used.
    let below = word(p, bound)
        .filter(|n| !t.signed() && *n >= 0)
        .map(|n| n as u64);
    // Each time round: the body once, and every loop inside it as often as it goes round.
    let iterations = below
        .zip(iterations(p, &body.stmts))
        .map(|(n, inner)| n.saturating_mul(1 + inner));
    let unpolled = iterations.is_some_and(|n| n <= MAX_UNPOLLED);
    Some(Counted {
        local: i,
        in_step,
        unpolled,
        below,
    })
}

/// `i += 1` or `i = i + 1`.
fn is_increment(s: &Stmt, i: LocalId) -> bool {
    let StmtKind::Assign { place, op, value } = &s.kind else {
        return false;
    };
    if !matches!(place.kind, ExprKind::Local(x) if x == i) {
        return false;
    }
    match op {
        Some(BinOp::Add) => is_one(value),
        None => matches!(&value.kind, ExprKind::Binary(BinOp::Add, a, b)
            if matches!(a.kind, ExprKind::Local(x) if x == i) && is_one(b)),
        _ => false,
    }
}

fn is_one(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Lit(Value::Int(v)) if *v == 1.into())
}

/// Whether any statement, at any depth, assigns the local.
fn assigns(stmts: &[Stmt], i: LocalId) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Assign { place, .. } => matches!(place.kind, ExprKind::Local(x) if x == i),
        StmtKind::If {
            then, otherwise, ..
        } => assigns(&then.stmts, i) || assigns(&otherwise.stmts, i),
        StmtKind::While { body, step, .. } => assigns(&body.stmts, i) || assigns(&step.stmts, i),
        StmtKind::Block(b) => assigns(&b.stmts, i),
        _ => false,
    })
}

/// Whether a `break` or `continue` of this loop (not of a loop inside it) that `which`
/// accepts is among the statements.
pub fn jumps(stmts: &[Stmt], which: fn(&StmtKind) -> bool) -> bool {
    stmts.iter().any(|s| match &s.kind {
        k @ (StmtKind::Break | StmtKind::Continue) => which(k),
        StmtKind::If {
            then, otherwise, ..
        } => jumps(&then.stmts, which) || jumps(&otherwise.stmts, which),
        StmtKind::Block(b) => jumps(&b.stmts, which),
        _ => false,
    })
}

/// How many times, at most, the loops among the statements go round in all (0 without
/// loops); `None` when one of them is not a counted loop with a constant bound, or the count
/// passes [`MAX_UNPOLLED`] (so the products stay small).
fn iterations(p: &Program, stmts: &[Stmt]) -> Option<u64> {
    let mut total: u64 = 0;
    for s in stmts {
        let n = match &s.kind {
            StmtKind::While { cond, body, step } => {
                let c = counted(p, cond, body, step)?;
                c.below?.saturating_mul(1 + iterations(p, &body.stmts)?)
            }
            StmtKind::If {
                then, otherwise, ..
            } => iterations(p, &then.stmts)?.saturating_add(iterations(p, &otherwise.stmts)?),
            StmtKind::Block(b) => iterations(p, &b.stmts)?,
            _ => 0,
        };
        total = total.saturating_add(n);
        if total > MAX_UNPOLLED {
            return None;
        }
    }
    Some(total)
}

impl FnTranslator<'_, '_, '_> {
    /// `while (cond) body`, with `step` after the body and after every `continue` (a `for`
    /// loop's third part).
    pub fn while_loop(&mut self, cond: &Expr, body: &Block, step: &Block) {
        // Rotated: the test is compiled before the loop and again after the step, so
        // an iteration ends in one conditional branch back rather than a jump to a
        // test at the top. The test runs at the same points either way.
        let counted = counted(self.s.p, cond, body, step)
            .filter(|c| matches!(self.locals[c.local.index()], LocalStore::Scalar(_)));
        let poll = !counted.as_ref().is_some_and(|c| c.unpolled);
        let body_b = self.b.create_block();
        let step_b = self.b.create_block();
        let exit = self.b.create_block();
        // No poll before the first test: every time round ends in one (at the test after
        // the step), so a loop still cannot go round unpolled.
        self.loop_test(cond, body_b, exit, false);
        self.b.switch_to_block(body_b);
        self.loops.push((step_b, exit));
        // Through the body (not the increment), the counter stays below its bound.
        let bounded = counted.as_ref().and_then(|c| Some((c.local, c.below?)));
        self.below.extend(bounded);
        let body_stmts = match &counted {
            Some(c) if !c.in_step => &body.stmts[..body.stmts.len() - 1],
            _ => &body.stmts[..],
        };
        self.stmts(body_stmts);
        if bounded.is_some() {
            self.below.pop();
        }
        if let Some(c) = counted.as_ref().filter(|c| !c.in_step) {
            self.increment(c.local);
        }
        self.loops.pop();
        self.b.ins().jump(step_b, &[]);
        self.b.switch_to_block(step_b);
        match &counted {
            Some(c) if c.in_step => self.increment(c.local),
            _ => self.block(step),
        }
        self.loop_test(cond, body_b, exit, poll);
        self.b.switch_to_block(exit);
    }

    /// Polls the interrupt (if `poll`), then goes on to `body` if `cond` holds and to `exit`
    /// if not.
    fn loop_test(&mut self, cond: &Expr, body: ClifBlock, exit: ClifBlock, poll: bool) {
        if poll {
            self.check_interrupt();
        }
        let c = self.expr(cond).one();
        self.b.ins().brif(c, body, &[], exit, &[]);
    }

    /// The counter of a counted loop plus one: it cannot overflow.
    fn increment(&mut self, counter: LocalId) {
        let LocalStore::Scalar(var) = self.locals[counter.index()] else {
            return;
        };
        let i = self.b.use_var(var);
        let next = self.b.ins().iadd_imm_u(i, 1);
        self.b.def_var(var, next);
    }
}
