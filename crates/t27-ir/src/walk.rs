//! Questions about bodies that more than one engine asks.

use crate::program::{Block, Expr, ExprKind, FnId, StmtKind};

impl Block {
    /// Whether the block calls any function. A function whose body calls none (a leaf)
    /// cannot recurse: the call depth limit does not apply to calling it.
    pub fn makes_calls(&self) -> bool {
        block_calls(self, &mut |_| true)
    }

    /// Every function the block calls, in order, with repeats.
    pub fn callees(&self) -> Vec<FnId> {
        let mut found = Vec::new();
        block_calls(self, &mut |f| {
            found.push(f);
            false
        });
        found
    }
}

/// Calls `stop` on each call in the block, in order, until it returns true; whether it did.
fn block_calls(b: &Block, stop: &mut impl FnMut(FnId) -> bool) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Let { init, .. } | StmtKind::LetTuple { init, .. } => expr_calls(init, stop),
        StmtKind::Assign { place, value, .. } => expr_calls(place, stop) || expr_calls(value, stop),
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => expr_calls(cond, stop) || block_calls(then, stop) || block_calls(otherwise, stop),
        StmtKind::While { cond, body, step } => {
            expr_calls(cond, stop) || block_calls(body, stop) || block_calls(step, stop)
        }
        StmtKind::Return(Some(e)) | StmtKind::Expr(e) | StmtKind::Assert { cond: e, .. } => {
            expr_calls(e, stop)
        }
        StmtKind::Block(b) => block_calls(b, stop),
        StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue => false,
    })
}

fn expr_calls(e: &Expr, stop: &mut impl FnMut(FnId) -> bool) -> bool {
    match &e.kind {
        ExprKind::Call(f, args) => stop(*f) || args.iter().any(|a| expr_calls(a, stop)),
        ExprKind::Lit(_)
        | ExprKind::Const(_)
        | ExprKind::Global(_)
        | ExprKind::Local(_)
        | ExprKind::Undefined
        | ExprKind::Error => false,
        ExprKind::Len(x)
        | ExprKind::Unary(_, x)
        | ExprKind::Cast(x)
        | ExprKind::Field(x, _)
        | ExprKind::AddrOf(x) => expr_calls(x, stop),
        ExprKind::Contains(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            expr_calls(a, stop) || expr_calls(b, stop)
        }
        ExprKind::Array(xs) | ExprKind::Tuple(xs) | ExprKind::Struct(xs) => {
            xs.iter().any(|x| expr_calls(x, stop))
        }
        ExprKind::If(c, a, b) => expr_calls(c, stop) || expr_calls(a, stop) || expr_calls(b, stop),
        ExprKind::Switch(x, arms, d) => {
            expr_calls(x, stop)
                || arms.iter().any(|a| expr_calls(&a.value, stop))
                || d.as_ref().is_some_and(|d| expr_calls(d, stop))
        }
    }
}
