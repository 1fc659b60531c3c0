//! Questions about bodies that more than one engine asks.

use crate::program::{Block, Expr, ExprKind, StmtKind};

impl Block {
    /// Whether the block calls any function. A function whose body calls none (a leaf)
    /// cannot recurse: the call depth limit does not apply to calling it.
    pub fn makes_calls(&self) -> bool {
        block_calls(self)
    }
}

fn block_calls(b: &Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Let { init, .. } | StmtKind::LetTuple { init, .. } => expr_calls(init),
        StmtKind::Assign { place, value, .. } => expr_calls(place) || expr_calls(value),
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => expr_calls(cond) || block_calls(then) || block_calls(otherwise),
        StmtKind::While { cond, body, step } => {
            expr_calls(cond) || block_calls(body) || block_calls(step)
        }
        StmtKind::Return(Some(e)) | StmtKind::Expr(e) | StmtKind::Assert { cond: e, .. } => {
            expr_calls(e)
        }
        StmtKind::Block(b) => block_calls(b),
        StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue => false,
    })
}

fn expr_calls(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Call(..) => true,
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
        | ExprKind::AddrOf(x) => expr_calls(x),
        ExprKind::Contains(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            expr_calls(a) || expr_calls(b)
        }
        ExprKind::Array(xs) | ExprKind::Tuple(xs) | ExprKind::Struct(xs) => {
            xs.iter().any(expr_calls)
        }
        ExprKind::If(c, a, b) => expr_calls(c) || expr_calls(a) || expr_calls(b),
        ExprKind::Switch(x, arms, d) => {
            expr_calls(x)
                || arms.iter().any(|a| expr_calls(&a.value))
                || d.as_ref().is_some_and(|d| expr_calls(d))
        }
    }
}
