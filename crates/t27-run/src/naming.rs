//! Names for the values in a failure report: `right: 99 (ILLEGAL)`.

use t27_ir::*;

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
