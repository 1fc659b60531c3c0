//! What a Try-it panel offers for each parameter of a function, read from the function
//! itself: the constants it compares a parameter with (through the functions it passes the
//! parameter to, too), and the constants it returns, which name its answers.

use std::collections::BTreeSet;
use t27_ir::Expr;
use t27_ir::{Block, ConstId, ExprKind, FnId, IntTy, LocalId, Part, Program, StmtKind, Ty, Value};

/// A named integer constant: its value and name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub value: i128,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Bool,
    Int {
        ty: IntTy,
        /// The type's range: what the number field accepts.
        min: i128,
        max: i128,
        /// The slider's range: around the constants the function compares the parameter with.
        low: i128,
        high: i128,
        /// The constants of one family (`KIND_*`) the parameter is compared with, offered as a
        /// select in declaration order.
        family: Option<Vec<Named>>,
    },
    Str,
    /// An `f64`: a number field.
    Real,
    /// A `[N]T` of integers or flags, typed as a list separated by commas.
    List {
        elem: ListElem,
        len: u64,
    },
    /// A type the page has no input for (structs, tuples, views, arrays of those or of arrays).
    Other(String),
}

/// What a list's elements are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListElem {
    Bool,
    Int(IntTy),
}

/// The longest array the page offers a list for.
const LIST_MAX: u64 = 64;

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub input: Input,
}

/// A public function as the page runs it.
#[derive(Clone, Debug)]
pub struct Tried {
    pub function: FnId,
    pub params: Vec<Param>,
    /// The constants it returns, which name its integer answers.
    pub answers: Vec<Named>,
    /// The answers drawn greyed out in its tables: the returned constants outside the family
    /// most of them belong to (`ILLEGAL` beside `S_*`).
    pub sentinels: BTreeSet<i128>,
}

impl Tried {
    pub fn runnable(&self) -> bool {
        !self
            .params
            .iter()
            .any(|p| matches!(p.input, Input::Other(_)))
    }
}

/// How far past the compared constants a slider reaches.
const SLIDER_MARGIN: i128 = 32;

/// The family a constant's name belongs to: its name up to and including the first `_`
/// (`KIND_` of `KIND_BACKLOG`), or none for a name without one.
fn family_prefix(name: &str) -> Option<&str> {
    let end = name.find('_')?;
    (end > 0 && end + 1 < name.len()).then(|| &name[..=end])
}

fn int_value(p: &Program, c: ConstId) -> Option<i128> {
    match &p.consts[c.index()].value {
        Some(Value::Int(v)) => i128::try_from(v).ok(),
        _ => None,
    }
}

/// Every integer constant of `c`'s module in `c`'s family and of its type, in declaration
/// order (`SENDBACK_CEILING: u32` and `SENDBACK_FLOOR_MS: u64` are no family).
fn family_of(p: &Program, c: ConstId) -> Option<Vec<Named>> {
    let decl = &p.consts[c.index()].decl;
    let prefix = family_prefix(&decl.name)?;
    let ty = &p.consts[c.index()].ty;
    // The module's own items, in declaration order: not every constant of the program.
    let members: Vec<Named> = p.modules[decl.module.index()]
        .items
        .iter()
        .filter_map(|item| match item {
            t27_ir::ItemRef::Const(k) => Some(*k),
            _ => None,
        })
        .filter(|k| {
            let k = &p.consts[k.index()];
            k.decl.name.starts_with(prefix) && k.ty.is_integer() && k.ty == *ty
        })
        .filter_map(|k| {
            Some(Named {
                value: int_value(p, k)?,
                name: p.consts[k.index()].decl.name.clone(),
            })
        })
        .collect();
    (members.len() >= 2).then_some(members)
}

/// The key most of `keys` share, with how many share it (of equals, the last seen).
fn most_common<K: PartialEq>(keys: impl IntoIterator<Item = K>) -> Option<(K, usize)> {
    let mut counts: Vec<(K, usize)> = Vec::new();
    for key in keys {
        match counts.iter_mut().find(|(k, _)| *k == key) {
            Some(entry) => entry.1 += 1,
            None => counts.push((key, 1)),
        }
    }
    counts.into_iter().max_by_key(|(_, n)| *n)
}

/// Calls `f` on every expression of `block`, operands included.
fn each_expr<'a>(block: &'a Block, f: &mut dyn FnMut(&'a Expr)) {
    fn expr<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
        f(e);
        e.for_each_child(&mut |c| expr(c, f));
    }
    for s in &block.stmts {
        s.for_each_part(&mut |part| match part {
            Part::Expr(e) => expr(e, f),
            Part::Block(b) => each_expr(b, f),
        });
    }
}

/// An operand without the widening cast the checker puts around it.
fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(inner) => inner,
        _ => e,
    }
}

/// What a parameter is compared with: constants and literals.
#[derive(Default)]
struct Compared {
    consts: Vec<ConstId>,
    values: Vec<i128>,
}

fn compared_with(
    p: &Program,
    f: FnId,
    param: LocalId,
    out: &mut Compared,
    seen: &mut Vec<(FnId, LocalId)>,
) {
    if seen.contains(&(f, param)) {
        return;
    }
    seen.push((f, param));
    let is_param = |e: &Expr| matches!(e.kind, ExprKind::Local(l) if l == param);
    let mut calls = Vec::new();
    each_expr(&p.functions[f.index()].body.block, &mut |e| match &e.kind {
        ExprKind::Binary(op, a, b) if op.is_comparison() => {
            let (a, b) = (strip(a), strip(b));
            let other = if is_param(a) {
                b
            } else if is_param(b) {
                a
            } else {
                return;
            };
            match &other.kind {
                ExprKind::Const(c) => out.consts.push(*c),
                ExprKind::Lit(Value::Int(v)) => out.values.extend(i128::try_from(v).ok()),
                _ => {}
            }
        }
        ExprKind::Switch(scrutinee, arms, _) if is_param(strip(scrutinee)) => {
            for arm in arms {
                for v in &arm.patterns {
                    if let Value::Int(v) = v {
                        out.values.extend(i128::try_from(v).ok());
                    }
                }
            }
        }
        ExprKind::Call(callee, args) => {
            for (i, a) in args.iter().enumerate() {
                if is_param(strip(a)) {
                    calls.push((*callee, i));
                }
            }
        }
        _ => {}
    });
    for (callee, i) in calls {
        if let Some(&q) = p.functions[callee.index()].params.get(i) {
            compared_with(p, callee, q, out, seen);
        }
    }
}

fn input(p: &Program, f: FnId, param: LocalId, ty: &Ty) -> Input {
    let ty = match ty {
        Ty::Bool => return Input::Bool,
        Ty::Str => return Input::Str,
        Ty::F64 => return Input::Real,
        Ty::Int(t) => *t,
        Ty::Array(elem, len) if *len <= LIST_MAX => {
            let elem = match **elem {
                Ty::Bool => ListElem::Bool,
                Ty::Int(t) => ListElem::Int(t),
                _ => return Input::Other(p.ty_name(ty)),
            };
            return Input::List { elem, len: *len };
        }
        other => return Input::Other(p.ty_name(other)),
    };
    let (min, max) = match (i128::try_from(ty.min()), i128::try_from(ty.max())) {
        (Ok(min), Ok(max)) => (min, max),
        _ => return Input::Other(ty.name().to_string()),
    };
    let mut compared = Compared::default();
    compared_with(p, f, param, &mut compared, &mut Vec::new());
    compared.consts.sort();
    compared.consts.dedup();
    let mut values = compared.values.clone();
    values.extend(compared.consts.iter().filter_map(|c| int_value(p, *c)));
    let (low, high) = match (values.iter().min(), values.iter().max()) {
        // Zero stays on the slider: it is where the field starts.
        (Some(lo), Some(hi)) => (
            (lo - SLIDER_MARGIN).min(0).max(min),
            (hi + SLIDER_MARGIN).max(0).min(max),
        ),
        _ => (min.max(-SLIDER_MARGIN), max.min(SLIDER_MARGIN * 4)),
    };
    // The family most of the compared constants belong to: two of them at least, so that
    // one comparison with a constant that shares a prefix by chance makes no select.
    let family_key = |c: &ConstId| {
        let decl = &p.consts[c.index()].decl;
        family_prefix(&decl.name).map(|prefix| (decl.module, prefix))
    };
    let family = most_common(compared.consts.iter().filter_map(family_key))
        .filter(|(_, n)| *n >= 2)
        .and_then(|(key, _)| compared.consts.iter().find(|c| family_key(c) == Some(key)))
        .and_then(|c| family_of(p, *c))
        .filter(|members| members.iter().all(|m| m.value >= min && m.value <= max));
    Input::Int {
        ty,
        min,
        max,
        low,
        high,
        family,
    }
}

/// The constants `f` returns, directly or as a branch of an `if` or a `switch`.
fn answers(p: &Program, f: FnId) -> Vec<Named> {
    fn leaves<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
        match &e.kind {
            ExprKind::If(_, a, b) => {
                leaves(a, out);
                leaves(b, out);
            }
            ExprKind::Switch(_, arms, default) => {
                for arm in arms {
                    leaves(&arm.value, out);
                }
                if let Some(d) = default {
                    leaves(d, out);
                }
            }
            _ => out.push(e),
        }
    }
    fn returns<'a>(block: &'a Block, out: &mut Vec<&'a Expr>) {
        for s in &block.stmts {
            if let StmtKind::Return(Some(e)) = &s.kind {
                leaves(e, out);
            }
            s.for_each_part(&mut |part| {
                if let Part::Block(b) = part {
                    returns(b, out);
                }
            });
        }
    }
    let function = &p.functions[f.index()];
    if !function.ret.is_integer() {
        return Vec::new();
    }
    let mut exprs = Vec::new();
    returns(&function.body.block, &mut exprs);
    let mut named: Vec<Named> = Vec::new();
    for e in exprs {
        if let ExprKind::Const(c) = e.kind {
            let Some(value) = int_value(p, c) else {
                continue;
            };
            if !named.iter().any(|n| n.value == value) {
                named.push(Named {
                    value,
                    name: p.consts[c.index()].decl.name.clone(),
                });
            }
        }
    }
    named
}

/// The answers outside the family most of the answers belong to.
fn sentinels(answers: &[Named]) -> BTreeSet<i128> {
    let prefix = |n: &Named| family_prefix(&n.name).unwrap_or(&n.name).to_string();
    let Some((major, n)) = most_common(answers.iter().map(prefix)) else {
        return BTreeSet::new();
    };
    if n < 2 {
        return BTreeSet::new();
    }
    answers
        .iter()
        .filter(|a| prefix(a) != major)
        .map(|a| a.value)
        .collect()
}

pub fn tried(p: &Program, f: FnId) -> Tried {
    let function = &p.functions[f.index()];
    let params = function
        .params
        .iter()
        .filter_map(|l| {
            let local = function.body.locals.get(l.index())?;
            Some(Param {
                name: local.name.clone(),
                input: input(p, f, *l, &local.ty),
            })
        })
        .collect();
    let answers = answers(p, f);
    Tried {
        function: f,
        params,
        sentinels: sentinels(&answers),
        answers,
    }
}

/// How a function is drawn as a table, when one says it better than a form.
pub enum Table {
    /// Two parameters with small domains: a grid of answers, the first on the rows.
    Grid(Vec<(String, i128)>, Vec<(String, i128)>),
    /// Only `bool` parameters, at most five: every combination.
    Truth(usize),
}

/// The values of a small-domain parameter, each with its label.
fn small_domain(input: &Input) -> Option<Vec<(String, i128)>> {
    match input {
        Input::Bool => Some(vec![("false".into(), 0), ("true".into(), 1)]),
        Input::Int {
            family: Some(members),
            ..
        } => Some(members.iter().map(|m| (m.name.clone(), m.value)).collect()),
        _ => None,
    }
}

pub fn table(t: &Tried) -> Option<Table> {
    if !t.params.is_empty()
        && t.params.len() <= 5
        && t.params.iter().all(|p| p.input == Input::Bool)
    {
        return Some(Table::Truth(t.params.len()));
    }
    if let [a, b] = t.params.as_slice()
        && let (Some(rows), Some(columns)) = (small_domain(&a.input), small_domain(&b.input))
        && (matches!(a.input, Input::Int { .. }) || matches!(b.input, Input::Int { .. }))
    {
        return Some(Table::Grid(rows, columns));
    }
    None
}
