//! Probes into function bodies: a copy of the program whose functions count what they run.
//!
//! Every statement gets a counter before it (its line is reached), every function one at its
//! start; every condition of an `if` (statement or expression) and of a `while`, and every
//! operand of `and` and `or`, counts its two outcomes (`ExprKind::Counted` with `on_false`);
//! every arm of a `switch` counts when it is chosen; a loop counts the runs in which its body
//! ran at least once, through a flag of its own set on the first turn (the runs in which it
//! did not are the loop's reached count less those). Nothing else changes: the same ids, the
//! same order of evaluation, the same traps.

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
                entry: 0,
                lines: Vec::new(),
                branches: Vec::new(),
            };
            let mut w = Writer {
                plan: &mut plan.counters,
                fp: &mut fp,
                locals: &mut function.body.locals,
            };
            fp_entry(&mut w, &mut function.body.block);
            plan.functions.push(fp);
        }
    }
    (out, plan)
}

fn fp_entry(w: &mut Writer, block: &mut Block) {
    let entry = w.counter();
    w.fp.entry = entry;
    w.block(block);
    block.stmts.insert(0, count(entry, block.span));
}

struct Writer<'a> {
    /// How many counters there are so far.
    plan: &'a mut u32,
    fp: &'a mut FnPlan,
    locals: &'a mut Vec<Local>,
}

fn count(id: u32, span: Span) -> Stmt {
    Stmt {
        kind: StmtKind::Count(id),
        span: Span::new(span.start as usize, span.start as usize),
    }
}

impl Writer<'_> {
    fn counter(&mut self) -> u32 {
        *self.plan += 1;
        *self.plan - 1
    }

    /// Counts both outcomes of the condition `e`; returns the two counters.
    fn outcomes(&mut self, e: &mut Expr) -> (u32, u32) {
        let (t, f) = (self.counter(), self.counter());
        let span = e.span;
        let ty = e.ty.clone();
        let inner = std::mem::replace(e, Expr::error(span));
        *e = Expr {
            kind: ExprKind::Counted {
                value: Box::new(inner),
                counter: t,
                on_false: Some(f),
            },
            ty,
            span,
        };
        (t, f)
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

    fn block(&mut self, b: &mut Block) {
        let stmts = std::mem::take(&mut b.stmts);
        for mut s in stmts {
            let line = self.counter();
            self.fp.lines.push(Line {
                span: s.span,
                counter: line,
                is_return: matches!(s.kind, StmtKind::Return(_)),
            });
            b.stmts.push(count(line, s.span));
            let before_loop = self.stmt(&mut s, line);
            b.stmts.extend(before_loop);
            b.stmts.push(s);
        }
    }

    /// Instruments one statement; returns the statements that must run just before it (a
    /// loop's flag). `reached` is the statement's own line counter.
    fn stmt(&mut self, s: &mut Stmt, reached: u32) -> Vec<Stmt> {
        let span = s.span;
        match &mut s.kind {
            StmtKind::Let { init: e, .. }
            | StmtKind::Expr(e)
            | StmtKind::Return(Some(e))
            | StmtKind::Assert { cond: e, .. } => self.expr(e),
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
                self.expr(cond);
                let (t, f) = self.outcomes(cond);
                self.branch(
                    BranchKind::If,
                    cond.span,
                    vec![("then".into(), ArmCount::Counter(t)), ("else".into(), ArmCount::Counter(f))],
                );
                self.block(then);
                self.block(otherwise);
            }
            StmtKind::While { cond, body, step } => {
                self.expr(cond);
                let (t, f) = self.outcomes(cond);
                let entered = self.counter();
                self.branch(
                    BranchKind::Loop,
                    cond.span,
                    vec![
                        ("entered".into(), ArmCount::Counter(entered)),
                        ("not entered".into(), ArmCount::Difference(reached, entered)),
                    ],
                );
                self.branch(
                    BranchKind::Condition,
                    cond.span,
                    vec![("true".into(), ArmCount::Counter(t)), ("false".into(), ArmCount::Counter(f))],
                );
                self.block(body);
                self.block(step);
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
                return vec![Stmt {
                    kind: StmtKind::Let {
                        local: flag,
                        init: lit(false),
                    },
                    span: at,
                }];
            }
            StmtKind::Block(b) => self.block(b),
            StmtKind::Return(None)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Count(_) => {}
        }
        Vec::new()
    }

    fn expr(&mut self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                let op = *op;
                self.expr(a);
                self.expr(b);
                // `a or b or c`: the operands are `a`, `b` and `c`, not `a or b`.
                let chained = |x: &Expr| matches!(&x.kind, ExprKind::Binary(o, ..) if *o == op);
                for operand in [a, b] {
                    if chained(operand) {
                        continue;
                    }
                    let (t, f) = self.outcomes(operand);
                    self.branch(
                        BranchKind::Operand(op),
                        operand.span,
                        vec![("true".into(), ArmCount::Counter(t)), ("false".into(), ArmCount::Counter(f))],
                    );
                }
            }
            ExprKind::If(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
                let (t, f) = self.outcomes(c);
                self.branch(
                    BranchKind::IfExpression,
                    c.span,
                    vec![("then".into(), ArmCount::Counter(t)), ("else".into(), ArmCount::Counter(f))],
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
        let span = value.span;
        let ty = value.ty.clone();
        let inner = std::mem::replace(value, Expr::error(span));
        *value = Expr {
            kind: ExprKind::Counted {
                value: Box::new(inner),
                counter: c,
                on_false: None,
            },
            ty,
            span,
        };
        ArmCount::Counter(c)
    }
}
