//! The nodes of a function body in one fixed order, each with its number: how a mutant is
//! found (on a copy, looking) and put in (on another copy, replacing the node of that number).

use t27_ir::{Block, Expr, ExprKind, Stmt, StmtKind};

/// A node of a body, to look at or to replace; and, unnumbered, where blocks start and end
/// and statements end (what `facts.rs` follows).
pub(crate) enum Node<'a> {
    Stmt(&'a mut Stmt),
    Expr(&'a mut Expr, Role),
    BlockStart,
    BlockEnd,
    StmtEnd(&'a Stmt),
}

/// What an expression is to the node around it (a cast passes its own role on: `return x`
/// and `return x as u64` are both returned values).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Role {
    /// The condition of an `if`, a loop or an `if` expression.
    Cond,
    /// The value of a `return`.
    Returned,
    /// An operand of a comparison.
    Compared,
    Operand,
}

/// Calls `visit` on every statement and expression of `block`, each after the node that
/// holds it, with its number in that order (`usize::MAX` for the unnumbered nodes).
pub(crate) fn walk(block: &mut Block, visit: &mut dyn FnMut(usize, Node<'_>)) {
    Walk { next: 0, visit }.block(block);
}

struct Walk<'v> {
    next: usize,
    visit: &'v mut dyn FnMut(usize, Node<'_>),
}

impl Walk<'_> {
    fn number(&mut self) -> usize {
        self.next += 1;
        self.next - 1
    }

    fn block(&mut self, b: &mut Block) {
        (self.visit)(usize::MAX, Node::BlockStart);
        for s in &mut b.stmts {
            self.stmt(s);
            (self.visit)(usize::MAX, Node::StmtEnd(s));
        }
        (self.visit)(usize::MAX, Node::BlockEnd);
    }

    fn stmt(&mut self, s: &mut Stmt) {
        let n = self.number();
        (self.visit)(n, Node::Stmt(s));
        match &mut s.kind {
            StmtKind::Let { init, .. } => self.expr(init, Role::Operand),
            StmtKind::LetTuple { init, .. } => self.expr(init, Role::Operand),
            StmtKind::Assign { place, value, .. } => {
                self.expr(place, Role::Operand);
                self.expr(value, Role::Operand);
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expr(cond, Role::Cond);
                self.block(then);
                self.block(otherwise);
            }
            StmtKind::While { cond, body, step } => {
                self.expr(cond, Role::Cond);
                self.block(body);
                self.block(step);
            }
            StmtKind::Return(Some(e)) => self.expr(e, Role::Returned),
            StmtKind::Expr(e) | StmtKind::Assert { cond: e, .. } => self.expr(e, Role::Operand),
            StmtKind::Block(b) => self.block(b),
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue | StmtKind::Count(_) => {}
        }
    }

    fn expr(&mut self, e: &mut Expr, role: Role) {
        let n = self.number();
        (self.visit)(n, Node::Expr(e, role));
        let (first, rest) = match &e.kind {
            ExprKind::Cast(_) => (role, role),
            ExprKind::If(..) => (Role::Cond, Role::Operand),
            ExprKind::Binary(op, ..) if op.is_comparison() => (Role::Compared, Role::Compared),
            _ => (Role::Operand, Role::Operand),
        };
        let mut next_role = first;
        e.for_each_child_mut(&mut |x| {
            let r = std::mem::replace(&mut next_role, rest);
            self.expr(x, r);
        });
    }
}
