//! The mutants of a program's functions, found by walking each body (`walk.rs`): each is the
//! node of one number replaced, with the text edit that shows the change in the source.

use crate::facts::{Facts, disjuncts, equality, local};
use crate::ops::{AgainstConstant, known_int, range, replacements, same_everywhere};
use crate::walk::{Node, Role, walk};
use num_bigint::BigInt;
use t27_check::SourceMap;
use t27_diag::{FileId, Span};
use t27_ir::{
    BinOp, Block, Expr, ExprKind, FnId, ItemRef, LocalId, ModuleId, Program, Stmt, StmtKind, Ty,
    UnOp, Value,
};

/// The kinds of change, as `t27 mutate` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `<` and `<=`, `>` and `>=`; `==` to `<=` or `>=`, `!=` to `<` or `>`.
    Boundary,
    /// A comparison negated: `==` and `!=`, `<` and `>=`, `>` and `<=`.
    Comparison,
    /// `and` and `or`.
    AndOr,
    NotRemoved,
    /// A condition negated.
    NotAdded,
    /// An integer literal or constant one up or one down.
    Constant,
    /// An `if` without `else` taken out.
    GuardDropped,
    /// A returned value replaced by another of its type.
    ReturnValue,
    /// A loop's bound (its condition's right side) one up or one down.
    LoopBound,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Boundary => "boundary",
            Kind::Comparison => "comparison",
            Kind::AndOr => "and-or",
            Kind::NotRemoved => "not-removed",
            Kind::NotAdded => "not-added",
            Kind::Constant => "constant",
            Kind::GuardDropped => "guard-dropped",
            Kind::ReturnValue => "return-value",
            Kind::LoopBound => "loop-bound",
        }
    }
}

/// One mutant: a function with one node replaced.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub module: ModuleId,
    pub function: FnId,
    pub file: FileId,
    pub kind: Kind,
    /// The source the change replaces, and the text it puts there (the one-line diff).
    pub edit: Span,
    pub text: String,
    /// The number of the replaced node in `walk`'s order, and what replaces it.
    site: usize,
    change: Change,
}

#[derive(Clone, Debug)]
enum Change {
    Stmt(Stmt),
    Expr(Expr),
}

impl Mutant {
    /// A copy of `p` with the change made.
    pub fn apply(&self, p: &Program) -> Program {
        let mut out = p.clone();
        let mut change = Some(self.change.clone());
        let body = &mut out.functions[self.function.index()].body.block;
        walk(body, &mut |n, node| {
            if n != self.site {
                return;
            }
            match (node, change.take()) {
                (Node::Stmt(s), Some(Change::Stmt(new))) => *s = new,
                (Node::Expr(e, _), Some(Change::Expr(new))) => *e = new,
                _ => {}
            }
        });
        out
    }
}

/// Every mutant of the functions of `modules`, in source order within each function. None is
/// made twice (the same text put in the same place), and none that is the function unchanged
/// for every value its types allow (a comparison with a constant that agrees with the
/// original everywhere, a guard that does nothing).
pub fn mutants(p: &Program, sources: &SourceMap, modules: &[ModuleId]) -> Vec<Mutant> {
    let mut all = Vec::new();
    for &m in modules {
        let module = &p.modules[m.index()];
        let text = &sources.get(module.file).text;
        for item in &module.items {
            let ItemRef::Fn(f) = *item else { continue };
            let mut body = p.functions[f.index()].body.block.clone();
            let mut finder = Finder {
                p,
                text,
                site: 0,
                found: Vec::new(),
                facts: Facts::new(&body),
                or_chains: Vec::new(),
            };
            walk(&mut body, &mut |site, node| {
                finder.site = site;
                match node {
                    Node::Stmt(s) => finder.stmt(s),
                    Node::Expr(e, role) => finder.expr(e, role),
                    Node::BlockStart => finder.facts.block_start(),
                    Node::BlockEnd => finder.facts.block_end(),
                    Node::StmtEnd(s) => finder.facts.stmt_end(s, p),
                }
            });
            let mut found = finder.found;
            found.sort_by_key(|x| (x.edit.start, x.edit.end));
            let mut seen = std::collections::HashSet::new();
            for x in found {
                if !seen.insert((x.edit.start, x.edit.end, x.text.clone())) {
                    continue;
                }
                all.push(Mutant {
                    module: m,
                    function: f,
                    file: module.file,
                    kind: x.kind,
                    edit: x.edit,
                    text: x.text,
                    site: x.site,
                    change: x.change,
                });
            }
        }
    }
    all
}

struct Found {
    kind: Kind,
    edit: Span,
    text: String,
    site: usize,
    change: Change,
}

struct Finder<'a> {
    p: &'a Program,
    text: &'a str,
    site: usize,
    found: Vec<Found>,
    /// What the guards before the statement being walked say.
    facts: Facts,
    /// Each chain of `or` seen, as the `x == K` among its disjuncts (with their places): a
    /// disjunct's value does not matter where another of its chain is true.
    or_chains: Vec<Vec<(Span, LocalId, BigInt)>>,
}

impl Finder<'_> {
    fn add(&mut self, kind: Kind, edit: Span, text: String, change: Change) {
        self.found.push(Found {
            kind,
            edit,
            text,
            site: self.site,
            change,
        });
    }

    fn source(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::If {
                then, otherwise, ..
            } if otherwise.stmts.is_empty() && !then.stmts.is_empty() => {
                let gone = Stmt {
                    kind: StmtKind::Block(Block {
                        stmts: Vec::new(),
                        span: s.span,
                    }),
                    span: s.span,
                };
                self.add(
                    Kind::GuardDropped,
                    s.span,
                    String::new(),
                    Change::Stmt(gone),
                );
            }
            StmtKind::While { cond, body, step } => {
                let ExprKind::Binary(op, lhs, rhs) = &cond.kind else {
                    return;
                };
                if !op.is_comparison() || !rhs.ty.is_integer() || known_int(rhs, self.p).is_some() {
                    // A constant bound moves with the constants.
                    return;
                }
                for (by, sign) in [(BinOp::Add, "+"), (BinOp::Sub, "-")] {
                    let moved = Expr {
                        kind: ExprKind::Binary(by, rhs.clone(), Box::new(int_lit(1.into(), rhs))),
                        ty: rhs.ty.clone(),
                        span: rhs.span,
                    };
                    let cond = Expr {
                        kind: ExprKind::Binary(*op, lhs.clone(), Box::new(moved)),
                        ..(**cond).clone()
                    };
                    let new = Stmt {
                        kind: StmtKind::While {
                            cond: Box::new(cond),
                            body: body.clone(),
                            step: step.clone(),
                        },
                        span: s.span,
                    };
                    let src = self.source(rhs.span);
                    let text = if is_name(src) {
                        format!("({src} {sign} 1)")
                    } else {
                        format!("(({src}) {sign} 1)")
                    };
                    self.add(Kind::LoopBound, rhs.span, text, Change::Stmt(new));
                }
            }
            StmtKind::Return(Some(e)) => {
                for (value, text) in self.other_values(e) {
                    let new = Stmt {
                        kind: StmtKind::Return(Some(value)),
                        span: s.span,
                    };
                    self.add(Kind::ReturnValue, e.span, text, Change::Stmt(new));
                }
            }
            _ => {}
        }
    }

    /// Values of `e`'s type to return instead of it, with how each is written: the other
    /// `bool` (both, when `e` is not known); for an integer constant of a family (`R_ADMIT`
    /// among `R_*` of its type), the next of the family; for another integer, one down (one
    /// up at its type's least); `0` for an integer computed.
    fn other_values(&self, e: &Expr) -> Vec<(Expr, String)> {
        let lit = |v: Value, text: String| {
            (
                Expr {
                    kind: ExprKind::Lit(v),
                    ty: e.ty.clone(),
                    span: e.span,
                },
                text,
            )
        };
        if e.ty == Ty::Bool {
            return match known_bool(e, self.p) {
                Some(b) => vec![lit(Value::Bool(!b), (!b).to_string())],
                None => [true, false]
                    .map(|b| lit(Value::Bool(b), b.to_string()))
                    .into(),
            };
        }
        let Some((lo, hi)) = range(e).filter(|_| e.ty.is_integer()) else {
            return Vec::new();
        };
        let fits = |v: &BigInt| *v >= lo && *v <= hi;
        match known_int(e, self.p) {
            None if fits(&BigInt::from(0)) => vec![lit(Value::Int(0.into()), "0".into())],
            None => Vec::new(),
            Some(v) => {
                if let Some((name, other)) = self.sibling(e, &v).filter(|(_, o)| fits(o)) {
                    return vec![lit(Value::Int(other), name)];
                }
                let other = if v > lo { &v - 1 } else { &v + 1 };
                if !fits(&other) {
                    return Vec::new();
                }
                let text = self.shift_text(e, &v, &other);
                vec![lit(Value::Int(other), text)]
            }
        }
    }

    /// For a constant of a family (the constants of its module and type whose names start as
    /// its does up to the first `_`), the one with the next value (or the least, after the
    /// last).
    fn sibling(&self, e: &Expr, v: &BigInt) -> Option<(String, BigInt)> {
        let ExprKind::Const(id) = &inner(e).kind else {
            return None;
        };
        let c = &self.p.consts[id.index()];
        let prefix = &c.decl.name[..=c.decl.name.find('_')?];
        let mut family: Vec<(BigInt, &str)> = self
            .p
            .consts
            .iter()
            .filter(|o| o.decl.module == c.decl.module && o.ty == c.ty)
            .filter(|o| o.decl.name.starts_with(prefix))
            .filter_map(|o| match &o.value {
                Some(Value::Int(x)) if x != v => Some((x.clone(), o.decl.name.as_str())),
                _ => None,
            })
            .collect();
        family.sort();
        let next = family
            .iter()
            .find(|(x, _)| x > v)
            .or_else(|| family.first())?;
        Some((next.1.to_string(), next.0.clone()))
    }

    /// How `other` is written in place of `e`, whose value is `v`: a decimal literal as the
    /// new number, anything else (a constant's name) as itself plus or minus one.
    fn shift_text(&self, e: &Expr, v: &BigInt, other: &BigInt) -> String {
        let src = self.source(e.span);
        if !src.is_empty() && src.bytes().all(|b| b.is_ascii_digit() || b == b'_') {
            return other.to_string();
        }
        let sign = if other > v { "+" } else { "-" };
        if is_name(src) {
            format!("({src} {sign} 1)")
        } else {
            // A folded expression (`1 << 3`): its own operators must not bind the `1`.
            format!("(({src}) {sign} 1)")
        }
    }

    fn expr(&mut self, e: &Expr, role: Role) {
        if let ExprKind::Binary(BinOp::Or, ..) = e.kind
            && !self
                .or_chains
                .iter()
                .flatten()
                .any(|(s, ..)| e.span.start <= s.start && s.end <= e.span.end)
        {
            let mut terms = Vec::new();
            disjuncts(e, &mut terms);
            let chain = terms
                .into_iter()
                .filter_map(|t| equality(t, self.p).map(|(x, k)| (t.span, x, k)))
                .collect();
            self.or_chains.push(chain);
        }
        match &e.kind {
            ExprKind::Binary(op, a, b) if op.is_comparison() => self.comparison(e, *op, a, b),
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let other = if *op == BinOp::And {
                    BinOp::Or
                } else {
                    BinOp::And
                };
                let (at, spelling) = self.operator(*op, a.span, b.span, e.span);
                let text = match spelling {
                    "&&" => "||",
                    "||" => "&&",
                    _ => other.symbol(),
                };
                let new = with_kind(e, ExprKind::Binary(other, a.clone(), b.clone()));
                self.add(Kind::AndOr, at, text.into(), Change::Expr(new));
            }
            ExprKind::Unary(UnOp::Not, x) => {
                // The `!` is before the operand (the expression's span may hold parentheses).
                let before = Span::new(e.span.start as usize, x.span.start as usize);
                if let Some(i) = self.source(before).rfind('!') {
                    let at = before.start as usize + i;
                    let bang = Span::new(at, at + 1);
                    self.add(
                        Kind::NotRemoved,
                        bang,
                        String::new(),
                        Change::Expr((**x).clone()),
                    );
                }
            }
            _ => {}
        }
        if role == Role::Cond && known_bool(e, self.p).is_none() && !negation_of_a_kind(e) {
            let src = self.source(e.span);
            let text = match e.kind {
                // `if (c)`: the condition's span holds the parentheses.
                _ if is_grouped(src) => format!("(!{src})"),
                ExprKind::Local(_)
                | ExprKind::Const(_)
                | ExprKind::Call(..)
                | ExprKind::Field(..) => {
                    format!("!{src}")
                }
                _ => format!("!({src})"),
            };
            let new = with_kind(e, ExprKind::Unary(UnOp::Not, Box::new(e.clone())));
            self.add(Kind::NotAdded, e.span, text, Change::Expr(new));
        }
        if matches!(role, Role::Operand | Role::Cond)
            && matches!(e.kind, ExprKind::Lit(_) | ExprKind::Const(_))
        {
            // A compared or returned constant is changed with its comparison or `return`.
            for (value, text) in self.shifted(e) {
                self.add(Kind::Constant, e.span, text, Change::Expr(value));
            }
        }
    }

    /// An integer constant one up and one down, where its type holds the value.
    fn shifted(&self, e: &Expr) -> Vec<(Expr, String)> {
        let (Some(v), Some((lo, hi))) = (known_int(e, self.p), range(e)) else {
            return Vec::new();
        };
        [&v + 1, &v - 1]
            .into_iter()
            .filter(|x| *x >= lo && *x <= hi)
            .map(|x| {
                let text = self.shift_text(e, &v, &x);
                (int_lit(x, e), text)
            })
            .collect()
    }

    /// The mutants of `a op b`: the operator changed, and a constant side one up or down;
    /// none that agrees with the comparison on every value of its variable side.
    fn comparison(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) {
        let ordered = a.ty.is_integer() && b.ty.is_integer();
        let (ka, kb) = (known_int(a, self.p), known_int(b, self.p));
        // One side a constant, the other not: the comparison as a function of the other.
        let against = match (&ka, &kb) {
            (None, Some(c)) => range(a).map(|r| (c.clone(), false, r, self.dont_care(e, a))),
            (Some(c), None) => range(b).map(|r| (c.clone(), true, r, self.dont_care(e, b))),
            _ => None,
        };
        let same = |op2: BinOp, c2: Option<&BigInt>| match &against {
            Some((c, flipped, r, excluded)) => same_everywhere(
                &AgainstConstant {
                    op,
                    constant: c.clone(),
                    flipped: *flipped,
                },
                &AgainstConstant {
                    op: op2,
                    constant: c2.unwrap_or(c).clone(),
                    flipped: *flipped,
                },
                r,
                excluded,
            ),
            None => false,
        };
        let (at, _) = self.operator(op, a.span, b.span, e.span);
        for &(op2, boundary) in replacements(op, ordered) {
            if same(op2, None) {
                continue;
            }
            let kind = if boundary {
                Kind::Boundary
            } else {
                Kind::Comparison
            };
            let new = with_kind(
                e,
                ExprKind::Binary(op2, Box::new(a.clone()), Box::new(b.clone())),
            );
            self.add(kind, at, op2.symbol().into(), Change::Expr(new));
        }
        if against.is_none() || !ordered {
            return;
        }
        let constant_left = ka.is_some();
        let side = if constant_left { a } else { b };
        for (value, text) in self.shifted(side) {
            if same(op, known_int(&value, self.p).as_ref()) {
                continue;
            }
            let (na, nb) = if constant_left {
                (value, b.clone())
            } else {
                (a.clone(), value)
            };
            let new = with_kind(e, ExprKind::Binary(op, Box::new(na), Box::new(nb)));
            self.add(Kind::Constant, side.span, text, Change::Expr(new));
        }
    }

    /// The values of `x`, the variable side of comparison `e`, at which the result of `e`
    /// does not matter: those the guards before exclude, and those at which another `x == K`
    /// of its `or` chain is true.
    fn dont_care(&self, e: &Expr, x: &Expr) -> Vec<BigInt> {
        let mut values = self.facts.excluded(x);
        if let Some(x) = local(x)
            && let Some(chain) = self
                .or_chains
                .iter()
                .find(|c| c.iter().any(|(s, ..)| *s == e.span))
        {
            values.extend(
                chain
                    .iter()
                    .filter(|(s, l, _)| *s != e.span && *l == x)
                    .map(|(_, _, k)| k.clone()),
            );
        }
        values
    }

    /// Where the operator of `a op b` is written, and how: searched for between the operands
    /// (the whole expression when it cannot be found).
    fn operator(&self, op: BinOp, a: Span, b: Span, whole: Span) -> (Span, &'static str) {
        let spellings: &[&'static str] = match op {
            BinOp::And => &["and", "&&"],
            BinOp::Or => &["or", "||"],
            _ => &[],
        };
        let gap = self
            .text
            .get(a.end as usize..b.start as usize)
            .unwrap_or("");
        let symbol = op.symbol();
        for s in spellings.iter().copied().chain([symbol]) {
            if let Some(i) = gap.find(s) {
                let start = a.end as usize + i;
                return (Span::new(start, start + s.len()), s);
            }
        }
        (whole, symbol)
    }
}

/// Whether `src` is one name (a constant's, maybe through `alias::`).
fn is_name(src: &str) -> bool {
    !src.is_empty()
        && src
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == ':')
}

/// Whether `src` is one parenthesized group, `(...)`.
fn is_grouped(src: &str) -> bool {
    if !(src.starts_with('(') && src.ends_with(')')) {
        return false;
    }
    let mut depth = 0i32;
    for (i, c) in src.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if depth == 0 && i + 1 < src.len() {
            return false;
        }
    }
    true
}

/// `e` with another kind, same type and place.
fn with_kind(e: &Expr, kind: ExprKind) -> Expr {
    Expr {
        kind,
        ty: e.ty.clone(),
        span: e.span,
    }
}

/// The literal `v` with `like`'s type and place.
fn int_lit(v: BigInt, like: &Expr) -> Expr {
    with_kind(like, ExprKind::Lit(Value::Int(v)))
}

fn inner(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(x) => inner(x),
        _ => e,
    }
}

fn known_bool(e: &Expr, p: &Program) -> Option<bool> {
    match &e.kind {
        ExprKind::Lit(Value::Bool(b)) => Some(*b),
        ExprKind::Const(id) => match &p.consts[id.index()].value {
            Some(Value::Bool(b)) => Some(*b),
            _ => None,
        },
        _ => None,
    }
}

/// A condition whose negation another mutant already makes: a comparison (negated by its
/// operator) or a `!` (removed).
fn negation_of_a_kind(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(op, ..) => op.is_comparison(),
        ExprKind::Unary(UnOp::Not, _) => true,
        _ => false,
    }
}
