//! Walking bodies: the parts of a statement and the operands of an expression, in the order
//! they run, and the questions about calls that more than one engine asks.

use crate::program::{Block, Body, Expr, ExprKind, FnId, ItemRef, Stmt, StmtKind, StructId};
use crate::types::Ty;

/// A part of a statement: an expression it evaluates, or a block it holds.
pub enum Part<'a> {
    Expr(&'a Expr),
    Block(&'a Block),
}

impl Stmt {
    /// Calls `f` on each expression and block directly in the statement, in source order.
    pub fn for_each_part<'a>(&'a self, f: &mut impl FnMut(Part<'a>)) {
        match &self.kind {
            StmtKind::Let { init, .. } => f(Part::Expr(init)),
            StmtKind::LetTuple { init, .. } => f(Part::Expr(init)),
            StmtKind::Assign { place, value, .. } => {
                f(Part::Expr(place));
                f(Part::Expr(value));
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                f(Part::Expr(cond));
                f(Part::Block(then));
                f(Part::Block(otherwise));
            }
            StmtKind::While { cond, body, step } => {
                f(Part::Expr(cond));
                f(Part::Block(body));
                f(Part::Block(step));
            }
            StmtKind::Return(Some(e)) | StmtKind::Expr(e) | StmtKind::Assert { cond: e, .. } => {
                f(Part::Expr(e))
            }
            StmtKind::Block(b) => f(Part::Block(b)),
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue | StmtKind::Count(_) => {}
        }
    }
}

impl Expr {
    /// Calls `f` on each operand of the expression (not deeper), in order.
    pub fn for_each_child<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        match &self.kind {
            ExprKind::Lit(_)
            | ExprKind::Const(_)
            | ExprKind::Global(_)
            | ExprKind::Local(_)
            | ExprKind::Undefined
            | ExprKind::Error => {}
            ExprKind::Len(x)
            | ExprKind::Unary(_, x)
            | ExprKind::Cast(x)
            | ExprKind::Field(x, _)
            | ExprKind::AddrOf(x)
            | ExprKind::View(x)
            | ExprKind::Counted { value: x, .. } => f(x),
            ExprKind::Contains(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                f(a);
                f(b);
            }
            ExprKind::Call(_, xs)
            | ExprKind::Array(xs)
            | ExprKind::Tuple(xs)
            | ExprKind::Struct(xs) => xs.iter().for_each(f),
            ExprKind::If(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            ExprKind::Switch(x, arms, default) => {
                f(x);
                arms.iter().for_each(|a| f(&a.value));
                if let Some(d) = default {
                    f(d);
                }
            }
        }
    }

    /// [`Expr::for_each_child`], to change them (what `t27-cover` puts its probes in with).
    pub fn for_each_child_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        match &mut self.kind {
            ExprKind::Lit(_)
            | ExprKind::Const(_)
            | ExprKind::Global(_)
            | ExprKind::Local(_)
            | ExprKind::Undefined
            | ExprKind::Error => {}
            ExprKind::Len(x)
            | ExprKind::Unary(_, x)
            | ExprKind::Cast(x)
            | ExprKind::Field(x, _)
            | ExprKind::AddrOf(x)
            | ExprKind::View(x)
            | ExprKind::Counted { value: x, .. } => f(x),
            ExprKind::Contains(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                f(a);
                f(b);
            }
            ExprKind::Call(_, xs)
            | ExprKind::Array(xs)
            | ExprKind::Tuple(xs)
            | ExprKind::Struct(xs) => xs.iter_mut().for_each(f),
            ExprKind::If(c, a, b) => {
                f(c);
                f(a);
                f(b);
            }
            ExprKind::Switch(x, arms, default) => {
                f(x);
                arms.iter_mut().for_each(|a| f(&mut a.value));
                if let Some(d) = default {
                    f(d);
                }
            }
        }
    }
}

impl Block {
    /// Whether the block calls any function. A function whose body calls none (a leaf)
    /// cannot recurse: the call depth limit does not apply to calling it.
    pub fn makes_calls(&self) -> bool {
        block_calls(self, &mut |_| true)
    }

    /// Whether running the block always ends in a `return`, `break` or `continue`: control
    /// never reaches its end.
    pub fn always_leaves(&self) -> bool {
        self.stmts.iter().any(|s| match &s.kind {
            StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue => true,
            StmtKind::If {
                then, otherwise, ..
            } => then.always_leaves() && otherwise.always_leaves(),
            StmtKind::Block(inner) => inner.always_leaves(),
            _ => false,
        })
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
    let mut stopped = false;
    for s in &b.stmts {
        s.for_each_part(&mut |part| {
            stopped = stopped
                || match part {
                    Part::Expr(e) => expr_calls(e, stop),
                    Part::Block(b) => block_calls(b, stop),
                }
        });
        if stopped {
            return true;
        }
    }
    false
}

fn expr_calls(e: &Expr, stop: &mut impl FnMut(FnId) -> bool) -> bool {
    if let ExprKind::Call(f, _) = &e.kind
        && stop(*f)
    {
        return true;
    }
    let mut stopped = false;
    e.for_each_child(&mut |x| stopped = stopped || expr_calls(x, stop));
    stopped
}

impl Body {
    /// Every declaration the body refers to, in source order, with repeats: the functions it
    /// calls, the constants and module `var`s it reads or writes, and the structs in the
    /// types of its locals and expressions.
    pub fn for_each_reference(&self, f: &mut impl FnMut(ItemRef)) {
        for local in &self.locals {
            local.ty.for_each_struct(&mut |s| f(ItemRef::Struct(s)));
        }
        block_references(&self.block, f);
    }
}

impl Expr {
    /// Whether the expression calls any function: the only way an expression can change a
    /// variable (a module `var`, or the bytes behind a view) before it ends.
    pub fn makes_calls(&self) -> bool {
        expr_calls(self, &mut |_| true)
    }

    /// Every declaration the expression refers to, as [`Body::for_each_reference`].
    pub fn for_each_reference(&self, f: &mut impl FnMut(ItemRef)) {
        match &self.kind {
            ExprKind::Call(id, _) => f(ItemRef::Fn(*id)),
            ExprKind::Const(id) => f(ItemRef::Const(*id)),
            ExprKind::Global(id) => f(ItemRef::Global(*id)),
            _ => {}
        }
        self.ty.for_each_struct(&mut |s| f(ItemRef::Struct(s)));
        self.for_each_child(&mut |x| x.for_each_reference(f));
    }
}

impl Ty {
    /// Every struct named in the type (in an array's element, a tuple's parts).
    pub fn for_each_struct(&self, f: &mut impl FnMut(StructId)) {
        match self {
            Ty::Struct(id) => f(*id),
            Ty::Array(elem, _) => elem.for_each_struct(f),
            Ty::Tuple(parts) => parts.iter().for_each(|t| t.for_each_struct(f)),
            _ => {}
        }
    }
}

fn block_references(b: &Block, f: &mut impl FnMut(ItemRef)) {
    for s in &b.stmts {
        s.for_each_part(&mut |part| match part {
            Part::Expr(e) => e.for_each_reference(f),
            Part::Block(b) => block_references(b, f),
        });
    }
}
