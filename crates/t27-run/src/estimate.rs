//! How much work a block can do, from its code alone: the loop turns and calls it can make at
//! most, with loops bounded by a constant (`while (i < N)`) counted `N + 1` times and any other
//! loop, or recursion, unbounded. The tiered engine never compiles on this alone (see
//! `engines.rs`): a block starts on the evaluator, and native code is built on another thread
//! only once the evaluator has made [`HEAVY`] plus [`COMPILE_PER_NODE`] loop turns and calls
//! for each node of the block's code ([`Estimate::mark`]), or at once when the bound is
//! [`CERTAIN`] times that (the compute sweep); a block bounded below its mark needs no watching.
//! Unbounded is common (a loop to `s.len()`, a `while (x > 0)`), and an upper bound often far
//! above what runs (a search that returns early): the owner's byte loops over strings of a few
//! KB were compiled up front on it, 7-16 ms each, where evaluating them took under 1 ms.

use t27_ir::{BinOp, Block, Body, Expr, ExprKind, FnId, Part, Program, StmtKind, Value};

/// Loop turns and calls past which a block is worth compiling: about the work the evaluator
/// does in the time Cranelift takes to compile a small block.
pub const HEAVY: u64 = 10_000;

/// What compiling one more statement or expression of a block costs, in units of the
/// estimate. Measured on the 1,000,000-assert replay spec (BENCHMARKS.md), whose blocks of
/// 1,000 asserts estimate at 39,500 with 7,500 nodes: evaluated, a block took about 1 ms (25 ns
/// a unit); compiled and run natively, about 2 ms (270 ns a node). A little under that ratio,
/// so that a block at the margin is compiled.
pub const COMPILE_PER_NODE: u64 = 8;

/// How many times its mark a block's bound must be for native code to be built as it starts:
/// so far above that the evaluator cannot finish first (the compute sweep: 10^8 calls).
pub const CERTAIN: u64 = 100;

/// What the tiered engine needs to know of a block before it runs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The most loop turns and calls it can make; `None` when unbounded.
    pub bound: Option<u64>,
    /// The loop turns and calls after which compiling it pays ([`HEAVY`] plus
    /// [`COMPILE_PER_NODE`] a node of its code).
    pub mark: u64,
}

impl Bounds {
    /// Whether it can make more loop turns and calls than `ticks`.
    pub fn beyond(self, ticks: u64) -> bool {
        self.bound.is_none_or(|b| b > ticks)
    }

    /// Whether its bound is so far past its mark that native code should be built at once.
    pub fn certain(self) -> bool {
        self.bound.is_some_and(|b| b / CERTAIN >= self.mark.max(1))
    }
}

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

    /// The block's bound and mark.
    pub fn bounds(&mut self, body: &Body) -> Bounds {
        self.nodes = 0;
        let bound = self.block(&body.block);
        debug_assert_eq!(self.nodes, nodes(&body.block));
        Bounds {
            bound,
            mark: HEAVY.saturating_add(COMPILE_PER_NODE.saturating_mul(self.nodes)),
        }
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

    /// The bound of a block; the walk goes on past an unbounded part, to count every node.
    fn block(&mut self, b: &Block) -> Option<u64> {
        let mut total = Some(0);
        for s in &b.stmts {
            self.count_node();
            let cost = match &s.kind {
                StmtKind::While { cond, body, step } => {
                    let turns = loop_bound(self.p, cond);
                    let once = add(add(self.expr(cond), self.block(body)), self.block(step));
                    // A bounded loop too long to count is as good as unbounded, and certain.
                    Some(turns?.saturating_mul(once?.saturating_add(1)))
                }
                _ => {
                    let mut cost = Some(1u64);
                    s.for_each_part(&mut |part| {
                        let c = match part {
                            Part::Expr(e) => self.expr(e),
                            Part::Block(b) => self.block(b),
                        };
                        cost = add(cost, c);
                    });
                    cost
                }
            };
            total = add(total, cost);
        }
        total
    }

    fn count_node(&mut self) {
        if self.in_functions == 0 {
            self.nodes += 1;
        }
    }

    fn expr(&mut self, e: &Expr) -> Option<u64> {
        self.count_node();
        let mut cost = match &e.kind {
            ExprKind::Call(f, _) => self.function(*f).map(|c| c.saturating_add(1)),
            _ => Some(0),
        };
        e.for_each_child(&mut |x| {
            let c = self.expr(x);
            cost = add(cost, c);
        });
        cost
    }
}

/// Two bounds added (saturating: a bound past `u64::MAX` is certainly heavy).
fn add(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    Some(a?.saturating_add(b?))
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
