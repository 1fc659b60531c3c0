//! Probes into function bodies: a copy of the program whose functions count what they run.
//!
//! A run adds to as few counters as the counts need: a function counts its calls; an `if`
//! counts its `then` (its `else` is the `if` reached, less the `then`); a statement is reached
//! as often as the one before it, unless that one can leave (a `return`, `break` or
//! `continue`, or an `if` whose arms can), when it follows from their counts. A loop counts its
//! turns, and the runs that entered it through a flag of its own set on the first turn; a loop
//! that can be left by `break` or `return` counts both outcomes of its condition and what comes
//! after it. In a chain of `and` (or of `or`) each operand counts only the outcome that ends
//! the chain, `false` (`true`), and the other follows from how often the operand is computed
//! (`Tally::WhenFalse`, `WhenTrue`: the outcome itself is added, no branch; the JIT's switch
//! over a chain of `x == K or ...` adds it in the case of each key). Each `switch` arm counts
//! when it is chosen. Nothing else changes: the same ids,
//! the same order of evaluation, the same traps (a run stopped by a trap counts the rest of
//! its straight line as reached).

use crate::plan::{Arm, ArmCount, Branch, BranchKind, FnPlan, Line, Plan};
use t27_diag::Span;
use t27_ir::*;

/// The program with probes in the functions of `modules`, and what each counter counts.
pub fn instrument(p: &Program, modules: &[ModuleId]) -> (Program, Plan) {
    let mut out = p.clone();
    let mut plan = Plan::default();
    for &m in modules {
        for &item in &p.modules[m.index()].items {
            let ItemRef::Fn(f) = item else { continue };
            let function = &mut out.functions[f.index()];
            let mut fp = FnPlan {
                function: f,
                module: m,
                entry: ArmCount::Zero,
                lines: Vec::new(),
                branches: Vec::new(),
            };
            let mut w = Writer {
                counters: &mut plan.counters,
                fp: &mut fp,
                locals: &mut function.body.locals,
            };
            fp_entry(&mut w, &mut function.body.block);
            // In source order (an `if` is recorded after the arms inside it).
            fp.branches.sort_by_key(|b| b.span.start);
            plan.functions.push(fp);
        }
    }
    (out, plan)
}

fn fp_entry(w: &mut Writer, block: &mut Block) {
    let (entered, _) = w.entered_block(block);
    w.fp.entry = entered;
    // In source order: a guarded block's `then`s are instrumented before the guards.
    w.fp.lines.sort_by_key(|l| l.span.start);
}

struct Writer<'a> {
    /// How many counters there are so far.
    counters: &'a mut u32,
    fp: &'a mut FnPlan,
    locals: &'a mut Vec<Local>,
}

fn count(id: u32, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Count(id),
        span: Span::new(span.start as usize, span.start as usize),
    }
}

/// What instrumenting a statement gives: statements to put at the start of its block and
/// just after it, and how often it falls through to the next.
struct Placed {
    /// A loop's flag is set at the start of the block that holds the loop (which runs the loop
    /// at most once each time it runs), not just before it: the statement before a loop is
    /// often what starts its counter, and the JIT unrolls a short loop it can see started.
    block_start: Vec<Stmt>,
    after: Vec<Stmt>,
    falls_through: ArmCount,
}

impl Placed {
    fn through(falls_through: ArmCount) -> Placed {
        Placed {
            block_start: Vec::new(),
            after: Vec::new(),
            falls_through,
        }
    }
}

impl Writer<'_> {
    fn counter(&mut self) -> u32 {
        *self.counters += 1;
        *self.counters - 1
    }

    /// Instruments a chain of `and` (or of `or`) computed `evaluations` times: each operand
    /// counts only the outcome that ends the chain (`false` for `and`, `true` for `or`), and
    /// the other outcome follows, as does how often the next operand is computed.
    fn chain(&mut self, e: &mut Expr, evaluations: ArmCount) {
        let ExprKind::Binary(op @ (BinOp::And | BinOp::Or), ..) = e.kind else {
            return self.expr(e);
        };
        let mut operands = Vec::new();
        operands_of(e, op, &mut operands);
        let mut computed = evaluations;
        for operand in operands {
            match &operand.kind {
                ExprKind::Binary(o @ (BinOp::And | BinOp::Or), ..) if *o != op => {
                    self.chain(operand, computed.clone())
                }
                _ => self.expr(operand),
            }
            let c = self.counter();
            let (tally, ends) = match op {
                BinOp::And => (Tally::WhenFalse(c), ArmCount::Counter(c)),
                _ => (Tally::WhenTrue(c), ArmCount::Counter(c)),
            };
            let span = operand.span;
            wrap(operand, tally);
            let goes_on = ArmCount::difference(computed, ends.clone());
            let (t, f) = match op {
                BinOp::And => (goes_on.clone(), ends),
                _ => (ends, goes_on.clone()),
            };
            self.branch(
                BranchKind::Operand(op),
                span,
                vec![("true".into(), t), ("false".into(), f)],
            );
            computed = goes_on;
        }
    }

    /// [`Writer::chain`] for a chain in no context that says how often it is computed: a
    /// counter of its own counts that.
    fn counted_chain(&mut self, e: &mut Expr) {
        let c = self.counter();
        self.chain(e, ArmCount::Counter(c));
        wrap(e, Tally::Each(c));
    }

    fn branch(&mut self, kind: BranchKind, span: Span, arms: Vec<(String, ArmCount)>) {
        let arms = arms
            .into_iter()
            .map(|(label, count)| Arm {
                label,
                count,
                span: None,
            })
            .collect();
        self.fp.branches.push(Branch { kind, span, arms });
    }

    /// Instruments a block entered `entered` times; returns how often its end is reached.
    fn block(&mut self, b: &mut Block, entered: ArmCount) -> ArmCount {
        let stmts = std::mem::take(&mut b.stmts);
        let mut reached = entered;
        let mut start = Vec::new();
        for mut s in stmts {
            self.fp.lines.push(Line {
                span: s.span,
                count: reached.clone(),
                is_return: matches!(s.kind, StmtKind::Return(_)),
            });
            let placed = self.stmt(&mut s, reached);
            start.extend(placed.block_start);
            b.stmts.push(s);
            b.stmts.extend(placed.after);
            reached = placed.falls_through;
        }
        b.stmts.splice(0..0, start);
        reached
    }

    /// Instruments a block that has no count from its context (a function's body, an
    /// `if`'s `then`); returns how often it is entered and how often its end is reached.
    /// When the block starts with guards that leave it (`if (c) { ... return X; }`, no
    /// `else`, a condition that cannot trap), it is entered as often as their `then`s are
    /// taken plus the times the rest is reached, which a counter after the guards counts: a
    /// run through a chain of guards then adds to one counter, that of the `then` it takes,
    /// not to one for each block around it. Otherwise a counter at its start counts it.
    fn entered_block(&mut self, b: &mut Block) -> (ArmCount, ArmCount) {
        let guards = b.stmts.iter().take_while(|s| leaving_guard(s)).count();
        if guards == 0 {
            let c = self.counter();
            let after = self.block(b, ArmCount::Counter(c));
            b.stmts.insert(0, count(c, b.span));
            return (ArmCount::Counter(c), after);
        }
        let mut rest = b.stmts.split_off(guards);
        let thens: Vec<ArmCount> = b
            .stmts
            .iter_mut()
            .map(|g| match &mut g.kind {
                StmtKind::If { then, .. } => self.entered_block(then).0,
                _ => unreachable!("a guard is an `if`"),
            })
            .collect();
        let r = self.counter();
        // Guard `i` is reached as often as the `then`s from `i` on are taken, plus the rest.
        let mut reached = vec![ArmCount::Counter(r)];
        for t in thens.iter().rev() {
            let after = reached.last().expect("the rest's count").clone();
            reached.push(ArmCount::sum(t.clone(), after));
        }
        reached.reverse();
        for (i, g) in b.stmts.iter_mut().enumerate() {
            self.fp.lines.push(Line {
                span: g.span,
                count: reached[i].clone(),
                is_return: false,
            });
            let StmtKind::If { cond, .. } = &mut g.kind else {
                unreachable!("a guard is an `if`")
            };
            self.chain(cond, reached[i].clone());
            self.branch(
                BranchKind::If,
                cond.span,
                vec![
                    ("then".into(), thens[i].clone()),
                    ("else".into(), reached[i + 1].clone()),
                ],
            );
        }
        let rest_span = rest.first().map_or(b.span, |s| s.span);
        let mut rest_block = Block {
            stmts: std::mem::take(&mut rest),
            span: b.span,
        };
        let after = self.block(&mut rest_block, ArmCount::Counter(r));
        b.stmts.push(count(r, rest_span));
        b.stmts.extend(rest_block.stmts);
        (reached.swap_remove(0), after)
    }

    /// A new counter at the start of `b`, which is entered that often.
    fn counted_block(&mut self, b: &mut Block) -> ArmCount {
        let c = self.counter();
        let after = self.block(b, ArmCount::Counter(c));
        b.stmts.insert(0, count(c, b.span));
        after
    }

    /// Instruments one statement, reached `reached` times.
    fn stmt(&mut self, s: &mut Stmt, reached: ArmCount) -> Placed {
        let span = s.span;
        match &mut s.kind {
            StmtKind::Let { init: e, .. }
            | StmtKind::Expr(e)
            | StmtKind::Assert { cond: e, .. } => self.expr(e),
            StmtKind::Return(Some(e)) => {
                self.expr(e);
                return Placed::through(ArmCount::Zero);
            }
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue => {
                return Placed::through(ArmCount::Zero);
            }
            StmtKind::LetTuple { init, .. } => self.expr(init),
            StmtKind::Assign { place, value, .. } => {
                self.expr(place);
                self.expr(value);
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                // The condition is computed as often as the `if` is reached.
                self.chain(cond, reached.clone());
                let (t, then_after) = self.entered_block(then);
                let else_count = ArmCount::difference(reached, t.clone());
                let else_after = self.block(otherwise, else_count.clone());
                self.branch(
                    BranchKind::If,
                    cond.span,
                    vec![("then".into(), t), ("else".into(), else_count)],
                );
                return Placed::through(ArmCount::sum(then_after, else_after));
            }
            StmtKind::While { cond, body, step } => {
                return self.while_loop(span, cond, body, step, reached);
            }
            StmtKind::Block(b) => return Placed::through(self.block(b, reached)),
            StmtKind::Count(_) => {}
        }
        Placed::through(reached)
    }

    fn while_loop(
        &mut self,
        span: Span,
        cond: &mut Expr,
        body: &mut Block,
        step: &mut Block,
        reached: ArmCount,
    ) -> Placed {
        let leaves = leaves_loop(body) || leaves_loop(step);
        let mut placed = Placed::through(reached.clone());
        // The turns are the condition's `true`; without a `break` or `return`, every run that
        // reaches the loop leaves it by the condition's `false`, once.
        let (turns, exits, turn_counter, both) = if leaves {
            let (t, f) = (self.counter(), self.counter());
            let after = self.counter();
            placed.after.push(count(after, span));
            placed.falls_through = ArmCount::Counter(after);
            (
                ArmCount::Counter(t),
                ArmCount::Counter(f),
                None,
                Some((t, f)),
            )
        } else {
            let t = self.counter();
            (ArmCount::Counter(t), reached.clone(), Some(t), None)
        };
        self.chain(cond, ArmCount::sum(turns.clone(), exits.clone()));
        if let Some((on_true, on_false)) = both {
            wrap(cond, Tally::Both { on_true, on_false });
        }
        self.block(body, turns.clone());
        if let Some(t) = turn_counter {
            body.stmts.insert(0, count(t, body.span));
        }
        if !step.stmts.is_empty() {
            self.counted_block(step);
        }
        let entered = self.counter();
        self.branch(
            BranchKind::Loop,
            cond.span,
            vec![
                ("entered".into(), ArmCount::Counter(entered)),
                (
                    "not entered".into(),
                    ArmCount::difference(reached, ArmCount::Counter(entered)),
                ),
            ],
        );
        self.branch(
            BranchKind::Condition,
            cond.span,
            vec![("true".into(), turns), ("false".into(), exits)],
        );
        // The body's first turn sets the loop's flag and counts the run as entered.
        let flag = LocalId(self.locals.len() as u32);
        self.locals.push(Local {
            name: format!("$entered{entered}"),
            ty: Ty::Bool,
            mutable: true,
            span,
        });
        let at = Span::new(span.start as usize, span.start as usize);
        let local = |flag| Expr {
            kind: ExprKind::Local(flag),
            ty: Ty::Bool,
            span: at,
        };
        let lit = |b| Expr {
            kind: ExprKind::Lit(Value::Bool(b)),
            ty: Ty::Bool,
            span: at,
        };
        let first_turn = Stmt {
            kind: StmtKind::If {
                cond: Box::new(Expr {
                    kind: ExprKind::Unary(UnOp::Not, Box::new(local(flag))),
                    ty: Ty::Bool,
                    span: at,
                }),
                then: Block {
                    stmts: vec![
                        Stmt {
                            kind: StmtKind::Assign {
                                place: Box::new(local(flag)),
                                op: None,
                                value: Box::new(lit(true)),
                            },
                            span: at,
                        },
                        count(entered, at),
                    ],
                    span: at,
                },
                otherwise: Block {
                    stmts: Vec::new(),
                    span: at,
                },
            },
            span: at,
        };
        body.stmts.insert(0, first_turn);
        placed.block_start.push(Stmt {
            kind: StmtKind::Let {
                local: flag,
                init: lit(false),
            },
            span: at,
        });
        placed
    }

    fn expr(&mut self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Binary(BinOp::And | BinOp::Or, ..) => self.counted_chain(e),
            ExprKind::If(c, a, b) => {
                self.expr(a);
                self.expr(b);
                let (t, f) = (self.counter(), self.counter());
                self.chain(c, ArmCount::sum(ArmCount::Counter(t), ArmCount::Counter(f)));
                wrap(
                    c,
                    Tally::Both {
                        on_true: t,
                        on_false: f,
                    },
                );
                self.branch(
                    BranchKind::IfExpression,
                    c.span,
                    vec![
                        ("then".into(), ArmCount::Counter(t)),
                        ("else".into(), ArmCount::Counter(f)),
                    ],
                );
            }
            ExprKind::Switch(x, arms, default) => {
                self.expr(x);
                let mut counted = Vec::new();
                for arm in arms.iter_mut() {
                    self.expr(&mut arm.value);
                    let label = arm
                        .patterns
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ");
                    let span = arm.value.span;
                    counted.push((format!("{label} =>"), self.chosen(&mut arm.value), span));
                }
                if let Some(d) = default {
                    self.expr(d);
                    let span = d.span;
                    counted.push(("else =>".into(), self.chosen(d), span));
                }
                let arms = counted
                    .into_iter()
                    .map(|(label, count, span)| Arm {
                        label,
                        count,
                        span: Some(span),
                    })
                    .collect();
                self.fp.branches.push(Branch {
                    kind: BranchKind::Switch,
                    span: x.span,
                    arms,
                });
            }
            _ => e.for_each_child_mut(&mut |x| self.expr(x)),
        }
    }

    /// Counts each time the arm `value` is chosen.
    fn chosen(&mut self, value: &mut Expr) -> ArmCount {
        let c = self.counter();
        wrap(value, Tally::Each(c));
        ArmCount::Counter(c)
    }
}

/// `e` counted as `tally` says.
fn wrap(e: &mut Expr, tally: Tally) {
    let span = e.span;
    let ty = e.ty.clone();
    let inner = std::mem::replace(e, Expr::error(span));
    *e = Expr {
        kind: ExprKind::Counted {
            value: Box::new(inner),
            tally,
        },
        ty,
        span,
    };
}

/// The operands of a chain of `op` (`a or b or c`: `a`, `b`, `c`), in order.
fn operands_of<'e>(e: &'e mut Expr, op: BinOp, out: &mut Vec<&'e mut Expr>) {
    if !matches!(&e.kind, ExprKind::Binary(o, ..) if *o == op) {
        out.push(e);
        return;
    }
    if let ExprKind::Binary(_, a, b) = &mut e.kind {
        operands_of(a, op, out);
        operands_of(b, op, out);
    }
}

/// An `if` without `else` whose `then` never falls through and whose condition cannot stop
/// the block (no call, no arithmetic, no index: it is computed whenever it is reached).
fn leaving_guard(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => otherwise.stmts.is_empty() && then.always_leaves() && cannot_stop(cond),
        _ => false,
    }
}

fn cannot_stop(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Lit(_) | ExprKind::Const(_) | ExprKind::Global(_) | ExprKind::Local(_) => true,
        ExprKind::Unary(UnOp::Not, x) => cannot_stop(x),
        ExprKind::Binary(op, a, b)
            if op.is_comparison() || matches!(op, BinOp::And | BinOp::Or) =>
        {
            cannot_stop(a) && cannot_stop(b)
        }
        _ => false,
    }
}

/// Whether a loop's body can leave the loop other than by its condition: a `break` of this
/// loop, or a `return`.
fn leaves_loop(b: &Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Break | StmtKind::Return(_) => true,
        StmtKind::If {
            then, otherwise, ..
        } => leaves_loop(then) || leaves_loop(otherwise),
        StmtKind::Block(b) => leaves_loop(b),
        // A `break` in an inner loop leaves that loop; a `return` leaves this one too.
        StmtKind::While { body, step, .. } => returns(body) || returns(step),
        _ => false,
    })
}

fn returns(b: &Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Return(_) => true,
        StmtKind::If {
            then, otherwise, ..
        } => returns(then) || returns(otherwise),
        StmtKind::Block(b) | StmtKind::While { body: b, .. } => returns(b),
        _ => false,
    })
}
