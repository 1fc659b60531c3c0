//! What a guard says about the code after it: after `if (x == K) { ... return ...; }`, `x` is
//! not `K`. The owner's decision functions are chains of such guards, and a mutant of a later
//! comparison that differs from it only at values an earlier guard already took
//! (`event <= E_REFUSE` for `event == E_REFUSE`, after `event == E_START` returned, with
//! `E_START` 0 and `E_REFUSE` 1) is the function unchanged: it is not made. Within one
//! condition likewise: in `state == S_STALE or state == S_REFUSED`, the first disjunct's
//! value does not matter when `state` is `S_REFUSED` (`Finder::or_chains`).

use crate::ops::known_int;
use num_bigint::BigInt;
use t27_ir::BinOp;
use t27_ir::{Block, Expr, ExprKind, LocalId, Program, Stmt, StmtKind};

/// The values locals cannot have at the statement being walked, as the walk goes.
#[derive(Default)]
pub(crate) struct Facts {
    /// Locals the function assigns: nothing is known of them after a guard.
    assigned: Vec<LocalId>,
    excluded: Vec<(LocalId, BigInt)>,
    /// Where each open block's facts start.
    marks: Vec<usize>,
}

impl Facts {
    pub(crate) fn new(body: &Block) -> Facts {
        let mut assigned = Vec::new();
        assigned_in(body, &mut assigned);
        Facts {
            assigned,
            ..Facts::default()
        }
    }

    pub(crate) fn block_start(&mut self) {
        self.marks.push(self.excluded.len());
    }

    pub(crate) fn block_end(&mut self) {
        let mark = self.marks.pop().unwrap_or(0);
        self.excluded.truncate(mark);
    }

    /// After an `if` whose `then` always leaves: every `x == K` its condition ors together
    /// is false from here to the end of the block.
    pub(crate) fn stmt_end(&mut self, s: &Stmt, p: &Program) {
        let StmtKind::If { cond, then, .. } = &s.kind else {
            return;
        };
        if !then.always_leaves() {
            return;
        }
        let mut terms = Vec::new();
        disjuncts(cond, &mut terms);
        for (x, k) in terms.into_iter().filter_map(|t| equality(t, p)) {
            if !self.assigned.contains(&x) {
                self.excluded.push((x, k));
            }
        }
    }

    /// The values `e` cannot have here, when it is a local the guards before say something of.
    pub(crate) fn excluded(&self, e: &Expr) -> Vec<BigInt> {
        match local(e) {
            Some(x) => self
                .excluded
                .iter()
                .filter(|(l, _)| *l == x)
                .map(|(_, k)| k.clone())
                .collect(),
            None => Vec::new(),
        }
    }
}

/// `x == K` (or `K == x`) of a local and a known integer.
pub(crate) fn equality(e: &Expr, p: &Program) -> Option<(LocalId, BigInt)> {
    let ExprKind::Binary(BinOp::Eq, a, b) = &e.kind else {
        return None;
    };
    match (local(a), known_int(b, p), local(b), known_int(a, p)) {
        (Some(x), Some(k), _, _) | (_, _, Some(x), Some(k)) => Some((x, k)),
        _ => None,
    }
}

pub(crate) fn local(e: &Expr) -> Option<LocalId> {
    match &e.kind {
        ExprKind::Local(x) => Some(*x),
        ExprKind::Cast(x) => local(x),
        _ => None,
    }
}

pub(crate) fn disjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Binary(BinOp::Or, a, b) => {
            disjuncts(a, out);
            disjuncts(b, out);
        }
        _ => out.push(e),
    }
}

fn assigned_in(b: &Block, out: &mut Vec<LocalId>) {
    for s in &b.stmts {
        if let StmtKind::Assign { place, .. } = &s.kind
            && let Some(x) = root_local(place)
        {
            out.push(x);
        }
        s.for_each_part(&mut |part| {
            if let t27_ir::Part::Block(inner) = part {
                assigned_in(inner, out);
            }
        });
    }
}

/// The local a place writes to (`x`, `x[i]`, `x.f`).
fn root_local(e: &Expr) -> Option<LocalId> {
    match &e.kind {
        ExprKind::Local(x) => Some(*x),
        ExprKind::Index(x, _) | ExprKind::Field(x, _) => root_local(x),
        _ => None,
    }
}
