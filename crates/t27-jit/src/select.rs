//! Small decisions without branches: `if (idle >= FLOOR) { return FAILED; } return REJECTED;`.
//!
//! The arms of a decision function pick a constant by a few tests of their inputs. Compiled as
//! written, each test is a branch, and when the inputs change from call to call (as they do
//! when a caller sweeps an input domain, or replays recorded events) the processor guesses
//! many of them wrong. When statements always return a scalar, every test is a comparison of
//! locals and constants (joined by `and`, `or`, `!`), and every returned value is a local or
//! a constant, nothing they do can trap or have an effect: computing every test and choosing
//! the result with `select` means the same, without a branch. Only small decisions qualify
//! ([`MAX_TESTS`] comparisons): a large one costs more computed in full than its branches do.
//! Decisions are tried first; a chain of `if (x == K)` too large for one is left to
//! `switch.rs`, and its arms are then often small decisions.

use crate::translate::{FnTranslator, LocalStore};
use cranelift::prelude::*;
use t27_ir::{BinOp, Expr, ExprKind, Program, Stmt, StmtKind, Ty, UnOp, Value as IrValue};

/// The most comparisons a decision may make to be compiled without branches.
pub const MAX_TESTS: usize = 8;

/// Whether the statements always return and make at most [`MAX_TESTS`] comparisons (and at
/// least one) of the kind a decision may.
pub fn is_decision(p: &Program, locals: &[LocalStore], stmts: &[Stmt]) -> bool {
    matches!(scan(p, locals, stmts), Some((tests, true)) if (1..=MAX_TESTS).contains(&tests))
}

/// The comparisons in `stmts`, and whether they always return; `None` when a statement is
/// not a simple `if` or a `return` of a simple value.
fn scan(p: &Program, locals: &[LocalStore], stmts: &[Stmt]) -> Option<(usize, bool)> {
    let mut tests = 0;
    for s in stmts {
        match &s.kind {
            StmtKind::Return(Some(e)) if is_value(p, locals, e) => return Some((tests, true)),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let (t, then_returns) = scan(p, locals, &then.stmts)?;
                let (o, otherwise_returns) = scan(p, locals, &otherwise.stmts)?;
                tests += test_count(p, locals, cond)? + t + o;
                if tests > MAX_TESTS {
                    // Too large already: stop early, so that scanning each statement of a
                    // long run of `if`s stays linear.
                    return None;
                }
                if then_returns && otherwise_returns {
                    return Some((tests, true));
                }
            }
            _ => return None,
        }
    }
    Some((tests, false))
}

/// A scalar that costs nothing to read and cannot trap: a literal, a constant, a local, or a
/// lossless widening of one.
fn is_value(p: &Program, locals: &[LocalStore], e: &Expr) -> bool {
    if !matches!(e.ty, Ty::Int(_) | Ty::Bool) {
        return false;
    }
    match &e.kind {
        ExprKind::Lit(IrValue::Int(_) | IrValue::Bool(_)) => true,
        ExprKind::Const(id) => p.consts[id.index()].value.is_some(),
        ExprKind::Local(id) => matches!(locals[id.index()], LocalStore::Scalar(_)),
        ExprKind::Cast(x) => match (x.ty.int(), e.ty.int()) {
            (Some(from), Some(to)) => from.widens_to(to) && is_value(p, locals, x),
            _ => false,
        },
        _ => false,
    }
}

/// The tests in a condition made of comparisons of simple values, truth values, `and`, `or`
/// and `!`: one per comparison and per truth value read.
fn test_count(p: &Program, locals: &[LocalStore], e: &Expr) -> Option<usize> {
    match &e.kind {
        ExprKind::Binary(BinOp::And | BinOp::Or, a, b) => {
            Some(test_count(p, locals, a)? + test_count(p, locals, b)?)
        }
        ExprKind::Binary(
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge,
            a,
            b,
        ) if is_value(p, locals, a) && is_value(p, locals, b) => Some(1),
        ExprKind::Unary(UnOp::Not, a) => test_count(p, locals, a),
        _ if e.ty == Ty::Bool && is_value(p, locals, e) => Some(1),
        _ => None,
    }
}

/// Whether statements that [`is_decision`] accepted always return (as `scan` decides it).
fn returns(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::If {
            then, otherwise, ..
        } => returns(&then.stmts) && returns(&otherwise.stmts),
        _ => false,
    })
}

impl FnTranslator<'_, '_, '_> {
    /// Emits statements that [`is_decision`] accepted and returns their value.
    pub fn decide(&mut self, stmts: &[Stmt]) {
        let v = self
            .decided_value(stmts, None)
            .expect("a decision always returns");
        self.emit_return(&[v]);
        self.after_jump();
    }

    /// The value the statements return, or `next` (the value of the statements after them)
    /// when they fall through.
    fn decided_value(&mut self, stmts: &[Stmt], next: Option<Value>) -> Option<Value> {
        let Some((first, rest)) = stmts.split_first() else {
            return next;
        };
        match &first.kind {
            StmtKind::Return(Some(e)) => Some(self.expr(e).one()),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                // The statements after the `if` run when its taken branch falls through.
                let falls = !(returns(&then.stmts) && returns(&otherwise.stmts));
                let rest = if falls {
                    self.decided_value(rest, next)
                } else {
                    None
                };
                let t = self.decided_value(&then.stmts, rest)?;
                let o = self.decided_value(&otherwise.stmts, rest)?;
                let c = self.test(cond);
                Some(self.b.ins().select(c, t, o))
            }
            _ => unreachable!("is_decision() accepts only returns and ifs"),
        }
    }

    /// A test without branches: `and` and `or` of computed truth values.
    fn test(&mut self, e: &Expr) -> Value {
        match &e.kind {
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let x = self.test(a);
                let y = self.test(b);
                if *op == BinOp::And {
                    self.b.ins().band(x, y)
                } else {
                    self.b.ins().bor(x, y)
                }
            }
            ExprKind::Unary(UnOp::Not, a) => {
                let x = self.test(a);
                self.b.ins().bxor_imm_u(x, 1)
            }
            _ => self.expr(e).one(),
        }
    }
}
