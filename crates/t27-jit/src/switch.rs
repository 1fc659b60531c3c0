//! Chains of `if (x == K) { ... return ...; }` as one switch.
//!
//! Decision functions test one variable against constant after constant:
//! `if (state == S_NONE) { ... return ...; } if (state == S_RUNNING) { ... } ...`. Compiled as
//! written, the last case costs a compare and a branch for every case before it. When every
//! `if` of a run tests the same integer local against constants (with `==`, joined by `or`),
//! has no `else`, and its body always leaves (by `return`, `break` or `continue`), the run
//! means exactly a switch on that local: the tests have no effects, the local cannot change
//! between them, and no body falls through to the next test. Cranelift's `Switch` then emits
//! jump tables or a binary search. A constant matched by two `if`s belongs to the first, as
//! in the chain.

use crate::table::word;
use crate::translate::{FnTranslator, LocalStore};
use cranelift::frontend::Switch;
use cranelift::prelude::*;
use t27_ir::{BinOp, Block as IrBlock, Expr, ExprKind, LocalId, Program, Stmt, StmtKind, Ty};

/// Shorter chains are compiled as written: a few compares are as fast as a jump table.
pub const MIN_CASES: usize = 4;

/// One `if` of a chain: the constants it matches (each with the coverage counter its test
/// adds to when it holds, in a program `t27-cover` instrumented) and the body they lead to.
pub struct Arm<'s> {
    keys: Vec<(i64, Option<u32>)>,
    body: &'s IrBlock,
}

/// A run of `if`s that is a switch on `local`.
pub struct Chain<'s> {
    pub local: LocalId,
    pub arms: Vec<Arm<'s>>,
}

impl Chain<'_> {
    /// How many statements of the block the chain stands for.
    pub fn len(&self) -> usize {
        self.arms.len()
    }
}

/// The chain that starts the statements, if they start with one worth a switch.
pub fn chain<'s>(p: &Program, stmts: &'s [Stmt]) -> Option<Chain<'s>> {
    let mut local = None;
    let mut arms = Vec::new();
    for s in stmts {
        let StmtKind::If {
            cond,
            then,
            otherwise,
        } = &s.kind
        else {
            break;
        };
        if !otherwise.stmts.is_empty() || !leaves(then) {
            break;
        }
        let mut keys = Vec::new();
        if !collect_keys(p, cond, &mut local, &mut keys) {
            break;
        }
        arms.push(Arm { keys, body: then });
    }
    let cases: usize = arms.iter().map(|a| a.keys.len()).sum();
    match local {
        Some(local) if arms.len() >= 2 && cases >= MIN_CASES => Some(Chain { local, arms }),
        _ => None,
    }
}

/// Adds the constants of `x == K or x == L ...` to `keys`; false when `cond` has another
/// shape or tests another local than `local` (which the first test sets).
fn collect_keys(
    p: &Program,
    cond: &Expr,
    local: &mut Option<LocalId>,
    keys: &mut Vec<(i64, Option<u32>)>,
) -> bool {
    // A test of the chain that counts when it holds (coverage): its key counts when chosen.
    if let ExprKind::Counted {
        value,
        tally: t27_ir::Tally::WhenTrue(c),
    } = &cond.kind
    {
        let first = keys.len();
        let found = collect_keys(p, value, local, keys);
        if found && keys.len() == first + 1 && keys[first].1.is_none() {
            keys[first].1 = Some(*c);
            return true;
        }
        return false;
    }
    let ExprKind::Binary(op, a, b) = &cond.kind else {
        return false;
    };
    match op {
        BinOp::Or => collect_keys(p, a, local, keys) && collect_keys(p, b, local, keys),
        BinOp::Eq => {
            let (x, k) = match (&a.kind, &b.kind) {
                (ExprKind::Local(x), _) => (*x, b),
                (_, ExprKind::Local(x)) => (*x, a),
                _ => return false,
            };
            if !matches!(k.ty, Ty::Int(_)) || local.is_some_and(|l| l != x) {
                return false;
            }
            let Some(key) = word(p, k) else {
                return false;
            };
            *local = Some(x);
            keys.push((key, None));
            true
        }
        _ => false,
    }
}

/// Whether running the block always ends in a `return`, `break` or `continue`.
fn leaves(b: &IrBlock) -> bool {
    b.stmts.last().is_some_and(|s| match &s.kind {
        StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue => true,
        StmtKind::If {
            then, otherwise, ..
        } => leaves(then) && leaves(otherwise),
        StmtKind::Block(inner) => leaves(inner),
        _ => false,
    })
}

impl FnTranslator<'_, '_, '_> {
    /// Emits the chain as a switch; the code after it runs when no constant matches.
    /// Returns false, having emitted nothing, when the local is not a plain scalar.
    pub fn switch_chain(&mut self, chain: &Chain<'_>) -> bool {
        let LocalStore::Scalar(var) = self.locals[chain.local.index()] else {
            return false;
        };
        let x = self.b.use_var(var);
        let bits = self.b.func.dfg.value_type(x).bits();
        let mask = if bits >= 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let otherwise = self.b.create_block();
        let mut switch = Switch::new();
        let mut targets = Vec::with_capacity(chain.arms.len());
        // Keys whose test counts (coverage): a block of their own adds to the counter, then
        // goes to the arm.
        let mut counting: Vec<(Block, u32, Block)> = Vec::new();
        for arm in &chain.arms {
            let mut target = None;
            for (key, counter) in &arm.keys {
                // The key as the bit pattern of the local's type: signed values wrap.
                let key = u128::from(*key as u64 & mask);
                if !switch.entries().contains_key(&key) {
                    let block = *target.get_or_insert_with(|| self.b.create_block());
                    let entry = match counter {
                        Some(c) => {
                            let counts = self.b.create_block();
                            counting.push((counts, *c, block));
                            counts
                        }
                        None => block,
                    };
                    switch.set_entry(key, entry);
                }
            }
            targets.push(target);
        }
        fill_holes(&mut switch, otherwise);
        switch.emit(&mut self.b, x, otherwise);
        for (counts, c, target) in counting {
            self.b.switch_to_block(counts);
            self.count(c, None);
            self.b.ins().jump(target, &[]);
        }
        for (arm, target) in chain.arms.iter().zip(targets) {
            // An arm whose constants all belong to earlier arms never runs.
            let Some(target) = target else { continue };
            self.b.switch_to_block(target);
            self.block(arm.body);
            // The body has left; the block the translator is in now is unreachable.
            self.b.ins().jump(otherwise, &[]);
        }
        self.b.switch_to_block(otherwise);
        true
    }
}

/// Sends the values missing between a dense set of keys to `otherwise`: Cranelift builds a
/// jump table only over contiguous keys, and otherwise splits them into ranges found by a
/// binary search, a compare and a branch more for each split.
fn fill_holes(switch: &mut Switch, otherwise: Block) {
    let keys: Vec<u128> = switch.entries().keys().copied().collect();
    let (Some(&min), Some(&max)) = (keys.iter().min(), keys.iter().max()) else {
        return;
    };
    // Keys that start near zero start at zero: the table then needs no check of its low
    // end, and when every case picks a constant it becomes one table load (`lookup.rs`).
    let min = if min <= 8 { 0 } else { min };
    let span = max - min + 1;
    if span > keys.len() as u128 * 2 + 8 || span > 256 {
        return;
    }
    for key in min..=max {
        if !switch.entries().contains_key(&key) {
            switch.set_entry(key, otherwise);
        }
    }
}
