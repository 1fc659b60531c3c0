//! Names for the values in a failure report: `right: 99 (ILLEGAL)`.

use t27_ir::*;

/// The constants a failed assert's two values stand for, when they can be told: named by the
/// runner while the block's body is at hand (it is dropped once the block has run).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueNames {
    pub left: Option<String>,
    pub right: Option<String>,
}

/// The names of the values of a failed assert of `body`.
pub fn value_names(p: &Program, body: &Body, outcome: &Outcome) -> ValueNames {
    let Outcome::Fail {
        assert,
        left: Some(l),
        right: Some(r),
    } = outcome
    else {
        return ValueNames::default();
    };
    match assert_sides(p, &body.block, *assert, l, r) {
        Some((ls, rs)) => ValueNames {
            left: constant_name(p, ls, l),
            right: constant_name(p, rs, r),
        },
        None => ValueNames::default(),
    }
}

/// The constant a reported value stands for, when one can be told: the constant the side
/// names itself, or, for a call, the constant among those the function returns that has the
/// value (`next_state(...)` returning 3 is `S_ENDED`).
pub fn constant_name(p: &Program, side: &Expr, value: &Shown) -> Option<String> {
    match &side.kind {
        ExprKind::Const(id) => Some(p.consts[id.index()].decl.name.clone()),
        ExprKind::Cast(inner) => constant_name(p, inner, value),
        ExprKind::Call(f, _) => {
            let mut found = None;
            returned_constants(&p.functions[f.index()].body.block, &mut |id| {
                let c = &p.consts[id.index()];
                if found.is_none() && c.value.as_ref().is_some_and(|v| same(v, value)) {
                    found = Some(c.decl.name.clone());
                }
            });
            found
        }
        _ => None,
    }
}

fn same(v: &Value, shown: &Shown) -> bool {
    match (v, shown) {
        (Value::Int(a), Shown::Int(b)) => *a == num_bigint::BigInt::from(*b),
        (Value::Bool(a), Shown::Bool(b)) => a == b,
        (Value::Str(a), Shown::Str(b)) => a == b,
        _ => false,
    }
}

fn returned_constants(b: &Block, f: &mut dyn FnMut(ConstId)) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Return(Some(e)) => {
                if let ExprKind::Const(id) = e.kind {
                    f(id);
                }
            }
            StmtKind::If {
                then, otherwise, ..
            } => {
                returned_constants(then, f);
                returned_constants(otherwise, f);
            }
            StmtKind::While { body, .. } => returned_constants(body, f),
            StmtKind::Block(b) => returned_constants(b, f),
            _ => {}
        }
    }
}

/// The assert at `span` in a block.
fn find_assert(b: &t27_ir::Block, span: t27_diag::Span) -> Option<&Expr> {
    b.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Assert { cond, .. } if s.span == span => Some(cond),
        StmtKind::If {
            then, otherwise, ..
        } => find_assert(then, span).or_else(|| find_assert(otherwise, span)),
        StmtKind::While { body, .. } => find_assert(body, span),
        StmtKind::Block(b) => find_assert(b, span),
        _ => None,
    })
}

/// Whether an operand could have produced `value`: a literal or constant must hold it.
fn could_be(p: &Program, e: &Expr, value: &Shown) -> bool {
    let v = match &e.kind {
        ExprKind::Lit(v) => v,
        ExprKind::Const(id) => match &p.consts[id.index()].value {
            Some(v) => v,
            None => return false,
        },
        _ => return true,
    };
    match (v, value) {
        (Value::Int(a), Shown::Int(b)) => *a == num_bigint::BigInt::from(*b),
        (Value::Bool(a), Shown::Bool(b)) => a == b,
        (Value::Str(a), Shown::Str(b)) => a == b,
        _ => true,
    }
}

/// The two sides of the comparison that failed in the assert at `span`, to name their
/// values. In an `and` chain it is the first comparison whose literal and constant sides
/// hold the reported values.
fn assert_sides<'a>(
    p: &Program,
    b: &'a t27_ir::Block,
    span: t27_diag::Span,
    left: &Shown,
    right: &Shown,
) -> Option<(&'a Expr, &'a Expr)> {
    let mut parts = vec![find_assert(b, span)?];
    let mut comparisons = Vec::new();
    while let Some(e) = parts.pop() {
        match &e.kind {
            ExprKind::Binary(BinOp::And, l, r) => {
                parts.push(r);
                parts.push(l);
            }
            ExprKind::Binary(op, l, r) if op.is_comparison() => comparisons.push((&**l, &**r)),
            _ => {}
        }
    }
    comparisons
        .into_iter()
        .find(|(l, r)| could_be(p, l, left) && could_be(p, r, right))
}
