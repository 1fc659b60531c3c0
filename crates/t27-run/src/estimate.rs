//! How much work a block can do, from its code alone: the loop turns and calls it can make at
//! most, with loops bounded by a constant (`while (i < N)`) counted `N + 1` times and any other
//! loop, or recursion, unbounded. The tiered engine compiles a block to native code up front
//! when this is above [`HEAVY`] plus [`COMPILE_PER_NODE`] for each node of the block's code
//! (compiling a long block costs in proportion: a replay block of 1,000 asserts, each a call,
//! evaluates faster than it compiles); every other block starts on the evaluator, under a
//! budget (see `runner.rs`), so an estimate that is wrong costs time, never a different answer.

use t27_ir::{BinOp, Block, Body, Expr, ExprKind, FnId, Part, Program, StmtKind, Value};

/// Loop turns and calls above which a block is compiled rather than evaluated: about the
/// work the evaluator does in the time Cranelift takes to compile a small block.
pub const HEAVY: u64 = 10_000;

/// What compiling one more statement or expression of a block costs, in units of the
/// estimate. Measured on the 1,000,000-assert replay spec (BENCHMARKS.md), whose blocks of
/// 1,000 asserts estimate at 39,500 with 7,500 nodes: evaluated, a block took about 1 ms (25 ns
/// a unit); compiled and run natively, about 2 ms (270 ns a node). A little under that ratio,
/// so that a block at the margin is compiled.
pub const COMPILE_PER_NODE: u64 = 8;

/// Memoised costs of functions, for every block of a program.
pub struct Estimate<'p> {
    p: &'p Program,
    /// `None`: not known yet; `Some(None)`: being computed (a call back here is recursion).
    costs: Vec<Option<Option<u64>>>,
    /// Statements and expressions of the block being estimated, counted on the same walk
    /// (a function's own are not: `in_functions` says when the walk is inside one).
    nodes: u64,
    in_functions: u32,
}

impl<'p> Estimate<'p> {
    pub fn new(p: &'p Program) -> Estimate<'p> {
        Estimate {
            p,
            costs: vec![None; p.functions.len()],
            nodes: 0,
            in_functions: 0,
        }
    }

    /// Whether the block is worth compiling before it runs.
    pub fn heavy(&mut self, body: &Body) -> bool {
        self.nodes = 0;
        let cost = self.block(&body.block);
        let compiling = HEAVY.saturating_add(COMPILE_PER_NODE.saturating_mul(self.nodes));
        debug_assert!(cost.is_none() || self.nodes == nodes(&body.block));
        cost.is_none_or(|c| c > compiling)
    }

    /// The cost of a function body; `None` when it is unbounded.
    fn function(&mut self, f: FnId) -> Option<u64> {
        match self.costs[f.index()] {
            Some(known) => return known,
            None => self.costs[f.index()] = Some(None),
        }
        let p = self.p;
        self.in_functions += 1;
        let cost = self.block(&p.functions[f.index()].body.block);
        self.in_functions -= 1;
        self.costs[f.index()] = Some(cost);
        cost
    }

    fn block(&mut self, b: &Block) -> Option<u64> {
        let mut total: u64 = 0;
        for s in &b.stmts {
            self.count_node();
            let cost = match &s.kind {
                StmtKind::While { cond, body, step } => {
                    let turns = loop_bound(self.p, cond)?;
                    let once = self
                        .expr(cond)?
                        .checked_add(self.block(body)?)?
                        .checked_add(self.block(step)?)?
                        .checked_add(1)?;
                    turns.checked_mul(once)?
                }
                _ => {
                    let mut cost = Some(1u64);
                    s.for_each_part(&mut |part| {
                        let c = match part {
                            Part::Expr(e) => self.expr(e),
                            Part::Block(b) => self.block(b),
                        };
                        cost = cost.zip(c).and_then(|(a, b)| a.checked_add(b));
                    });
                    cost?
                }
            };
            total = total.checked_add(cost)?;
        }
        Some(total)
    }

    fn count_node(&mut self) {
        if self.in_functions == 0 {
            self.nodes += 1;
        }
    }

    fn expr(&mut self, e: &Expr) -> Option<u64> {
        self.count_node();
        let mut cost = match &e.kind {
            ExprKind::Call(f, _) => self.function(*f)?.checked_add(1)?,
            _ => 0,
        };
        let mut ok = true;
        e.for_each_child(&mut |x| match self.expr(x) {
            Some(c) if ok => cost = cost.saturating_add(c),
            _ => ok = false,
        });
        ok.then_some(cost)
    }
}

/// How many statements and expressions a block has (what [`Estimate::heavy`] counts as it
/// goes; debug builds check the two agree).
fn nodes(b: &Block) -> u64 {
    fn expr(e: &Expr) -> u64 {
        let mut n = 1;
        e.for_each_child(&mut |x| n += expr(x));
        n
    }
    b.stmts
        .iter()
        .map(|s| {
            let mut n = 1;
            s.for_each_part(&mut |part| {
                n += match part {
                    Part::Expr(e) => expr(e),
                    Part::Block(b) => nodes(b),
                }
            });
            n
        })
        .sum()
}

/// At most how many times a loop on `cond` turns, when `cond` compares a local with a
/// constant from below (`i < N`, `i <= N`): a counter that starts at zero or above.
fn loop_bound(p: &Program, cond: &Expr) -> Option<u64> {
    let ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le), l, r) = &cond.kind else {
        return None;
    };
    if !matches!(strip(l).kind, ExprKind::Local(_)) {
        return None;
    }
    let limit = match &strip(r).kind {
        ExprKind::Lit(Value::Int(v)) => v.clone(),
        ExprKind::Const(id) => match &p.consts[id.index()].value {
            Some(Value::Int(v)) => v.clone(),
            _ => return None,
        },
        _ => return None,
    };
    let limit = u64::try_from(limit).ok()?;
    let turns = if *op == BinOp::Le {
        limit.checked_add(1)?
    } else {
        limit
    };
    turns.checked_add(1)
}

/// An expression without the widening casts the checker inserts.
fn strip(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(x) => strip(x),
        _ => e,
    }
}
