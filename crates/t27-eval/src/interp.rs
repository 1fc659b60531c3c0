//! The interpreter proper.

use crate::fast::{Fast, Vars};
use crate::ops::{binary_values, cast, compare, fit};
use crate::value::Rt;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use t27_diag::Span;
use t27_ir::*;

/// Why a block stopped before its end.
pub(crate) enum Stop {
    Trap(TrapKind, Span),
    /// Boxed: every statement and expression returns a `Run`, which stays small this way
    /// (a false assert happens once a block).
    Fail(Box<Failed>),
    Timeout,
    /// The block ran past the budget it was given, or was told to stop
    /// (`Machine::run_block_watched`).
    OverBudget,
}

/// A false assert and the values of its comparison.
pub(crate) struct Failed {
    assert: Span,
    left: Option<Shown>,
    right: Option<Shown>,
}

/// How a statement hands control on.
enum Flow {
    Next,
    Break,
    Continue,
    Return(Rt),
}

pub(crate) type Run<T> = Result<T, Stop>;

/// Runs blocks and calls functions. Module `var`s start at their declared values when the
/// machine is made; a block's writes stay until [`Machine::reset_globals`], which the runner
/// calls before every block (LANGUAGE.md 17.1).
pub struct Machine<'p> {
    p: &'p Program,
    consts: Vec<Rt>,
    globals: Vec<Rt>,
    /// The module `var`s' declared values, converted at the first reset that needs them.
    initial_globals: Option<Vec<Rt>>,
    /// Whether a module `var` was written (or lent as a view) since the last reset.
    globals_dirty: bool,
    depth: u32,
    /// Per function: whether it calls none, so that calling it cannot nest deeper.
    leaf: Vec<bool>,
    interrupt: &'p AtomicBool,
    ticks: u32,
    /// Loop turns and calls the running block may still make before the next thing the
    /// caller asked for (`Watch`): its mark, then the end of its budget.
    budget: u64,
    /// What runs at the mark, and the budget left after it.
    at_mark: Option<(Box<dyn FnOnce() + 'p>, u64)>,
    /// Raised by another thread when the running block should stop (looked at with the
    /// interrupt).
    switch: Option<Arc<AtomicBool>>,
    /// A coverage run's counters (`set_counters`).
    counters: Option<t27_ir::Counters>,
}

/// What to watch for while a block runs besides its end (`Machine::run_block_watched`).
pub struct Watch<'p> {
    /// Loop turns and calls after which the block stops (`None`).
    pub budget: u64,
    /// After how many loop turns and calls to call the function (once), if the block is still
    /// running then and the mark is within the budget.
    pub mark: Option<(u64, Box<dyn FnOnce() + 'p>)>,
    /// Raised by another thread when the block should stop (`None`): looked at every 1,024
    /// loop turns and calls, with the interrupt.
    pub switch: Option<Arc<AtomicBool>>,
}

/// How a block's run ended, as the runner reports it.
fn outcome_of(ended: Run<Flow>) -> Outcome {
    ended.map_or_else(stopped, |_| Outcome::Pass)
}

/// How a run that stopped early ended.
fn stopped(s: Stop) -> Outcome {
    match s {
        Stop::Trap(kind, span) => Outcome::Trap { kind, span },
        Stop::Fail(failed) => Outcome::Fail {
            assert: failed.assert,
            left: failed.left,
            right: failed.right,
        },
        Stop::Timeout | Stop::OverBudget => Outcome::Timeout,
    }
}

/// The value a module `var` starts each module run with.
fn initial(g: &Global, p: &Program) -> Rt {
    g.value
        .as_ref()
        .map_or_else(|| Rt::zero(&g.ty, p), Rt::from_value)
}

pub(crate) fn trap<T>(kind: TrapKind, span: Span) -> Run<T> {
    Err(Stop::Trap(kind, span))
}

impl<'p> Machine<'p> {
    pub fn new(p: &'p Program, interrupt: &'p AtomicBool) -> Machine<'p> {
        let consts = p
            .consts
            .iter()
            .map(|c| c.value.as_ref().map_or(Rt::Unit, Rt::from_value))
            .collect();
        let globals = p.globals.iter().map(|g| initial(g, p)).collect();
        Machine {
            p,
            consts,
            globals,
            initial_globals: None,
            globals_dirty: false,
            depth: 0,
            leaf: p
                .functions
                .iter()
                .map(|f| !f.body.block.makes_calls())
                .collect(),
            interrupt,
            ticks: 0,
            budget: u64::MAX,
            at_mark: None,
            switch: None,
            counters: None,
        }
    }

    /// Counts into `counters` the probes of a program `t27-cover` instrumented.
    pub fn set_counters(&mut self, counters: t27_ir::Counters) {
        self.counters = Some(counters);
    }

    fn count(&self, id: u32) {
        if let Some(c) = &self.counters {
            c.add(id);
        }
    }

    /// Sets every module `var` to its declared value: the start of every block (LANGUAGE.md
    /// 17.1). The values are converted once, then copied.
    pub fn reset_globals(&mut self) {
        if !std::mem::take(&mut self.globals_dirty) {
            return;
        }
        let p = self.p;
        let initial = self
            .initial_globals
            .get_or_insert_with(|| p.globals.iter().map(|g| initial(g, p)).collect());
        self.globals.clone_from(initial);
    }

    /// Runs a block as [`Machine::run_block`] does, but gives up once it has made `budget`
    /// loop turns and calls: `None` then.
    pub fn run_block_within(&mut self, body: &Body, budget: u64) -> Option<Outcome> {
        self.run_block_watched(
            body,
            Watch {
                budget,
                mark: None,
                switch: None,
            },
        )
    }

    /// Runs a block as [`Machine::run_block_within`] does, calling the mark's function once
    /// the block has made its number of loop turns and calls, and stopping (`None`) when
    /// `switch` is raised: the tiered runner starts native code at the mark, and raises
    /// `switch` when it is ready.
    pub fn run_block_watched(&mut self, body: &Body, watch: Watch<'p>) -> Option<Outcome> {
        match watch.mark {
            Some((mark, f)) if mark < watch.budget => {
                self.budget = mark;
                self.at_mark = Some((f, watch.budget - mark));
            }
            _ => self.budget = watch.budget,
        }
        self.switch = watch.switch;
        let outcome = self.run(body);
        self.budget = u64::MAX;
        self.at_mark = None;
        self.switch = None;
        match outcome {
            Err(Stop::OverBudget) => None,
            other => Some(outcome_of(other)),
        }
    }

    /// Runs one test or invariant block (its body, as `t27_check::BlockLowerer` lowers it) to
    /// its end, its first false assert, a trap, or the interrupt, from the module `var`s as
    /// they are ([`Machine::reset_globals`] sets them to their declared values).
    pub fn run_block(&mut self, body: &Body) -> Outcome {
        outcome_of(self.run(body))
    }

    fn run(&mut self, body: &Body) -> Run<Flow> {
        let mut frame: Vec<Rt> = body
            .locals
            .iter()
            .map(|l| Rt::zero(&l.ty, self.p))
            .collect();
        self.depth = 0;
        self.block(&mut frame, &body.block)
    }

    /// Calls a function with argument values (for benchmarks and tools).
    pub fn call(&mut self, f: FnId, args: Vec<Rt>) -> Result<Rt, Outcome> {
        self.call_fn(f, args, Span::default()).map_err(stopped)
    }

    /// Polls the interrupt now and then: at every loop iteration and call.
    fn tick(&mut self) -> Run<()> {
        self.budget = match self.budget.checked_sub(1) {
            Some(left) => left,
            None => self.past_budget()?,
        };
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(1024) {
            if self.interrupt.load(Ordering::Relaxed) {
                return Err(Stop::Timeout);
            }
            if self
                .switch
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                return Err(Stop::OverBudget);
            }
        }
        Ok(())
    }

    /// The countdown ran out: at the mark, its function runs and the rest of the budget
    /// starts (the budget left after this tick); past the budget, the block stops.
    #[cold]
    fn past_budget(&mut self) -> Run<u64> {
        let Some((f, rest)) = self.at_mark.take() else {
            return Err(Stop::OverBudget);
        };
        f();
        rest.checked_sub(1).ok_or(Stop::OverBudget)
    }

    /// What the fast path (`fast.rs`) reads variables from.
    fn vars<'a>(&'a self, frame: &'a [Rt]) -> Vars<'a> {
        Vars {
            consts: &self.consts,
            globals: &self.globals,
            frame,
        }
    }

    /// A condition: comparisons of fast integers (and `and`/`or` of them) decided without
    /// building values, anything else through `eval`.
    fn cond(&mut self, frame: &mut Vec<Rt>, e: &Expr) -> Run<bool> {
        match &e.kind {
            ExprKind::Binary(BinOp::And, l, r) => Ok(self.cond(frame, l)? && self.cond(frame, r)?),
            ExprKind::Binary(BinOp::Or, l, r) => Ok(self.cond(frame, l)? || self.cond(frame, r)?),
            ExprKind::Binary(op, l, r) => match self.vars(frame).compare(*op, l, r) {
                Some(Ok(holds)) => Ok(holds),
                Some(Err(Fast::Trap(kind, span))) => trap(kind, span),
                _ => Ok(self.eval(frame, e)?.bool()),
            },
            _ => Ok(self.eval(frame, e)?.bool()),
        }
    }

    fn block(&mut self, frame: &mut Vec<Rt>, b: &Block) -> Run<Flow> {
        for s in &b.stmts {
            match self.stmt(frame, s)? {
                Flow::Next => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Next)
    }

    fn stmt(&mut self, frame: &mut Vec<Rt>, s: &Stmt) -> Run<Flow> {
        match &s.kind {
            StmtKind::Let { local, init } => {
                let v = match init.kind {
                    ExprKind::Undefined => Rt::undefined(&init.ty, self.p),
                    _ => self.eval(frame, init)?,
                };
                frame[local.index()] = v;
            }
            StmtKind::LetTuple { locals, init } => {
                if let Rt::Agg(items) = self.eval(frame, init)? {
                    for (l, v) in locals.iter().zip(items) {
                        frame[l.index()] = v;
                    }
                }
            }
            StmtKind::Assign { place, op, value } => self.assign(frame, place, *op, value)?,
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let b = if self.cond(frame, cond)? {
                    then
                } else {
                    otherwise
                };
                return self.block(frame, b);
            }
            StmtKind::While { cond, body, step } => loop {
                self.tick()?;
                if !self.cond(frame, cond)? {
                    break;
                }
                match self.block(frame, body)? {
                    Flow::Break => break,
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    Flow::Next | Flow::Continue => {}
                }
                if let Flow::Return(v) = self.block(frame, step)? {
                    return Ok(Flow::Return(v));
                }
            },
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Return(value) => {
                let v = match value {
                    Some(e) => self.eval(frame, e)?,
                    None => Rt::Unit,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::Assert { cond, .. } => self.assert(frame, cond, s.span)?,
            StmtKind::Expr(e) => {
                self.eval(frame, e)?;
            }
            StmtKind::Block(b) => return self.block(frame, b),
            StmtKind::Count(id) => self.count(*id),
        }
        Ok(Flow::Next)
    }

    /// An assert; for a comparison, both sides are computed once and kept for the report.
    fn assert(&mut self, frame: &mut Vec<Rt>, cond: &Expr, span: Span) -> Run<()> {
        // `assert a and b` is `assert a; assert b;`: the report then shows the values of the
        // comparison that failed.
        if let ExprKind::Binary(BinOp::And, l, r) = &cond.kind {
            self.assert(frame, l, span)?;
            return self.assert(frame, r, span);
        }
        if let ExprKind::Binary(op, l, r) = &cond.kind
            && op.is_comparison()
        {
            match self.vars(frame).compare(*op, l, r) {
                Some(Ok(true)) => return Ok(()),
                Some(Err(Fast::Trap(kind, span))) => return trap(kind, span),
                _ => {}
            }
            let a = self.eval(frame, l)?;
            let b = self.eval(frame, r)?;
            if compare(*op, &a, &b) {
                return Ok(());
            }
            return Err(Stop::Fail(Box::new(Failed {
                assert: span,
                left: Some(a.shown()),
                right: Some(b.shown()),
            })));
        }
        if self.eval(frame, cond)?.bool() {
            Ok(())
        } else {
            Err(Stop::Fail(Box::new(Failed {
                assert: span,
                left: None,
                right: None,
            })))
        }
    }

    fn assign(
        &mut self,
        frame: &mut Vec<Rt>,
        place: &Expr,
        op: Option<BinOp>,
        value: &Expr,
    ) -> Run<()> {
        // Zig's order: the place (its indexes, outermost first, each checked), then for a
        // compound assignment the target's current value, then the value, then the store.
        // So `hits += bump()` adds to what `hits` held before `bump` ran.
        let mut path = Vec::new();
        let root = match place.kind {
            // A plain variable (`i += 1`): no walk of a path.
            ExprKind::Local(id) => Root::Local(id),
            ExprKind::Global(id) => Root::Global(id),
            _ => self.place_path(frame, place, &mut path)?,
        };
        let old = op.map(|_| load_at(self.root_slot(frame, &root), &path));
        let v = match self.vars(frame).int(value) {
            Fast::Int(v) => Rt::Int(v),
            Fast::Trap(kind, span) => return trap(kind, span),
            Fast::Slow => self.eval(frame, value)?,
        };
        let new = match (op, old) {
            (Some(op), Some(Rt::Int(x))) => match v {
                Rt::Int(y) => match crate::ops::int_binary(op, x, y, &place.ty) {
                    Ok(r) => Rt::Int(r),
                    Err(kind) => return trap(kind, place.span),
                },
                v => binary_values(op, Rt::Int(x), v, &place.ty, place.span)?,
            },
            (Some(op), Some(old)) => binary_values(op, old, v, &place.ty, place.span)?,
            _ => v,
        };
        let slot = match root {
            Root::Local(id) => &mut frame[id.index()],
            Root::Global(id) => {
                self.globals_dirty = true;
                &mut self.globals[id.index()]
            }
        };
        if path.is_empty() && !matches!(slot, Rt::Shared(_)) {
            *slot = new;
            return Ok(());
        }
        let mut new = Some(new);
        store(slot, &path, &mut |target| {
            if let Some(new) = new.take() {
                *target = new;
            }
            Ok(())
        })
    }

    fn root_slot<'a>(&'a self, frame: &'a [Rt], root: &Root) -> &'a Rt {
        match root {
            Root::Local(id) => &frame[id.index()],
            Root::Global(id) => &self.globals[id.index()],
        }
    }

    /// Resolves a place to its root variable and the element indexes below it, checking
    /// every index against its array's length.
    fn place_path(
        &mut self,
        frame: &mut Vec<Rt>,
        place: &Expr,
        path: &mut Vec<usize>,
    ) -> Run<Root> {
        match &place.kind {
            ExprKind::Local(id) => Ok(Root::Local(*id)),
            ExprKind::Global(id) => Ok(Root::Global(*id)),
            ExprKind::Field(base, i) => {
                let root = self.place_path(frame, base, path)?;
                path.push(*i as usize);
                Ok(root)
            }
            ExprKind::Index(base, index) => {
                let root = self.place_path(frame, base, path)?;
                let i = self.eval(frame, index)?.int();
                let len = match &base.ty {
                    Ty::Array(_, n) => *n as i128,
                    // A view: as long as the array it shows.
                    Ty::MutSlice => {
                        let slot = match root {
                            Root::Local(id) => &frame[id.index()],
                            Root::Global(id) => &self.globals[id.index()],
                        };
                        len_at(slot, path) as i128
                    }
                    _ => 0,
                };
                if i < 0 || i >= len {
                    return trap(TrapKind::IndexOutOfBounds, index.span);
                }
                path.push(i as usize);
                Ok(root)
            }
            _ => trap(TrapKind::IndexOutOfBounds, place.span),
        }
    }

    fn call_fn(&mut self, f: FnId, args: Vec<Rt>, span: Span) -> Run<Rt> {
        self.tick()?;
        // A leaf cannot recurse: only calls of functions that call count against the limit.
        if self.depth >= MAX_CALL_DEPTH && !self.leaf[f.index()] {
            return trap(TrapKind::RecursionTooDeep, span);
        }
        let func = &self.p.functions[f.index()];
        // The arguments become the frame: a call's values are evaluated into a vector with
        // room for every local already (see `ExprKind::Call`), so this grows nothing.
        let mut frame = args;
        frame.reserve_exact(func.body.locals.len().saturating_sub(frame.len()));
        frame.extend(
            func.body.locals[func.params.len()..]
                .iter()
                .map(|l| Rt::zero(&l.ty, self.p)),
        );
        self.depth += 1;
        let flow = self.block(&mut frame, &func.body.block);
        self.depth -= 1;
        Ok(match flow? {
            Flow::Return(v) => v,
            _ => Rt::Unit,
        })
    }

    fn eval(&mut self, frame: &mut Vec<Rt>, e: &Expr) -> Run<Rt> {
        Ok(match &e.kind {
            ExprKind::Lit(v) => Rt::from_value(v),
            ExprKind::Const(id) => self.consts[id.index()].clone(),
            // Reading a variable copies it; a `[]u8` is the view itself, passed on as it is.
            ExprKind::Global(id) => self.globals[id.index()].snapshot(),
            ExprKind::Local(id) if e.ty == Ty::MutSlice => frame[id.index()].clone(),
            ExprKind::Local(id) => frame[id.index()].snapshot(),
            ExprKind::Call(f, args) => {
                let locals = self.p.functions[f.index()].body.locals.len();
                let mut values = Vec::with_capacity(locals.max(args.len()));
                for a in args {
                    values.push(self.eval(frame, a)?);
                }
                self.call_fn(*f, values, e.span)?
            }
            ExprKind::Len(x) => match &x.ty {
                Ty::Array(_, n) => Rt::Int(*n as i128),
                _ => match self.eval(frame, x)? {
                    Rt::Str(s) => Rt::Int(s.len() as i128),
                    Rt::Shared(cell) => match &*cell.borrow() {
                        Rt::Agg(items) => Rt::Int(items.len() as i128),
                        _ => Rt::Int(0),
                    },
                    _ => Rt::Int(0),
                },
            },
            ExprKind::View(place) => {
                let mut path = Vec::new();
                let root = self.place_path(frame, place, &mut path)?;
                let slot = match root {
                    Root::Local(id) => &mut frame[id.index()],
                    Root::Global(id) => {
                        self.globals_dirty = true;
                        &mut self.globals[id.index()]
                    }
                };
                share(slot, &path)
            }
            ExprKind::Contains(s, t) => match (self.eval(frame, s)?, self.eval(frame, t)?) {
                (Rt::Str(s), Rt::Str(t)) => {
                    Rt::Bool(t.is_empty() || s.windows(t.len()).any(|w| w == &*t))
                }
                _ => Rt::Bool(false),
            },
            ExprKind::Unary(op, x) => {
                let v = self.eval(frame, x)?;
                match (op, v) {
                    (UnOp::Not, Rt::Bool(b)) => Rt::Bool(!b),
                    (UnOp::Neg, Rt::F64(x)) => Rt::F64(-x),
                    (UnOp::Neg, Rt::Int(v)) => Rt::Int(fit(-v, &e.ty, TrapKind::Overflow, e.span)?),
                    (_, other) => other,
                }
            }
            ExprKind::Binary(BinOp::And, l, r) => {
                Rt::Bool(self.eval(frame, l)?.bool() && self.eval(frame, r)?.bool())
            }
            ExprKind::Binary(BinOp::Or, l, r) => {
                Rt::Bool(self.eval(frame, l)?.bool() || self.eval(frame, r)?.bool())
            }
            ExprKind::Binary(op, l, r) => {
                let fast = if op.is_comparison() {
                    match self.vars(frame).compare(*op, l, r) {
                        Some(Ok(holds)) => return Ok(Rt::Bool(holds)),
                        Some(Err(fast)) => fast,
                        None => Fast::Slow,
                    }
                } else {
                    self.vars(frame).int(e)
                };
                match fast {
                    Fast::Int(v) => return Ok(Rt::Int(v)),
                    Fast::Trap(kind, span) => return trap(kind, span),
                    Fast::Slow => {}
                }
                let a = self.eval(frame, l)?;
                let b = self.eval(frame, r)?;
                if op.is_comparison() {
                    Rt::Bool(compare(*op, &a, &b))
                } else {
                    binary_values(*op, a, b, &l.ty, e.span)?
                }
            }
            // A `[]u8` read as `[]const u8`: the bytes it holds now.
            ExprKind::Cast(x) if x.ty == Ty::MutSlice => {
                Rt::Str(self.eval(frame, x)?.bytes().into())
            }
            ExprKind::Cast(x) => {
                let v = self.eval(frame, x)?;
                cast(v, &e.ty, e.span)?
            }
            ExprKind::Index(base, index) => {
                // Index constants in place: copying a whole constant array to read one element
                // would make every lookup cost the array's size.
                let i = |me: &mut Self, frame: &mut Vec<Rt>| me.eval(frame, index).map(|v| v.int());
                match &base.kind {
                    ExprKind::Const(id) => {
                        let i = i(self, frame)?;
                        element(&self.consts[id.index()], i, index.span)?
                    }
                    ExprKind::Local(id) => {
                        let i = i(self, frame)?;
                        element(&frame[id.index()], i, index.span)?
                    }
                    _ => {
                        let b = self.eval(frame, base)?;
                        let i = i(self, frame)?;
                        element(&b, i, index.span)?
                    }
                }
            }
            ExprKind::Field(x, i) => match self.eval(frame, x)? {
                Rt::Agg(mut items) if (*i as usize) < items.len() => items.swap_remove(*i as usize),
                other => other,
            },
            ExprKind::Array(items) | ExprKind::Tuple(items) | ExprKind::Struct(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.eval(frame, item)?);
                }
                Rt::Agg(values)
            }
            ExprKind::AddrOf(x) => match self.eval(frame, x)? {
                Rt::Agg(bytes) => Rt::Str(
                    bytes
                        .iter()
                        .map(|b| b.int() as u8)
                        .collect::<Vec<u8>>()
                        .into(),
                ),
                other => other,
            },
            ExprKind::If(c, a, b) => {
                if self.eval(frame, c)?.bool() {
                    self.eval(frame, a)?
                } else {
                    self.eval(frame, b)?
                }
            }
            ExprKind::Switch(x, arms, default) => {
                let v = self.eval(frame, x)?;
                for arm in arms {
                    if arm.patterns.iter().any(|p| Rt::from_value(p) == v) {
                        return self.eval(frame, &arm.value);
                    }
                }
                match default {
                    Some(d) => self.eval(frame, d)?,
                    None => Rt::zero(&e.ty, self.p),
                }
            }
            ExprKind::Undefined => Rt::undefined(&e.ty, self.p),
            ExprKind::Counted { value, tally } => {
                let v = self.eval(frame, value)?;
                match *tally {
                    Tally::Each(c) => self.count(c),
                    Tally::WhenTrue(c) if v.bool() => self.count(c),
                    Tally::WhenFalse(c) if !v.bool() => self.count(c),
                    Tally::Both { on_true, .. } if v.bool() => self.count(on_true),
                    Tally::Both { on_false, .. } => self.count(on_false),
                    Tally::WhenTrue(_) | Tally::WhenFalse(_) => {}
                }
                v
            }
            ExprKind::Error => Rt::Unit,
        })
    }
}

enum Root {
    Local(LocalId),
    Global(GlobalId),
}

/// Stores into the element at `path` below `slot` with `f`, through the cells of views.
fn store(slot: &mut Rt, path: &[usize], f: &mut dyn FnMut(&mut Rt) -> Run<()>) -> Run<()> {
    match slot {
        Rt::Shared(cell) => {
            let cell = Rc::clone(cell);
            let mut inner = cell.borrow_mut();
            store(&mut inner, path, f)
        }
        _ if path.is_empty() => f(slot),
        Rt::Agg(items) => match items.get_mut(path[0]) {
            Some(item) => store(item, &path[1..], f),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// The value at `path` below `slot`, through the cells of views.
fn load_at(slot: &Rt, path: &[usize]) -> Rt {
    match slot {
        Rt::Shared(cell) => load_at(&cell.borrow(), path),
        _ if path.is_empty() => slot.clone(),
        Rt::Agg(items) => items
            .get(path[0])
            .map_or(Rt::Unit, |item| load_at(item, &path[1..])),
        _ => Rt::Unit,
    }
}

/// The length of the array at `path` below `slot`.
fn len_at(slot: &Rt, path: &[usize]) -> usize {
    match slot {
        Rt::Shared(cell) => len_at(&cell.borrow(), path),
        Rt::Agg(items) => match path.split_first() {
            None => items.len(),
            Some((i, rest)) => items.get(*i).map_or(0, |item| len_at(item, rest)),
        },
        _ => 0,
    }
}

/// A view of the array at `path` below `slot`: the array moves into a cell that the slot
/// and the view share (once; a second view shares the same cell).
fn share(slot: &mut Rt, path: &[usize]) -> Rt {
    match slot {
        Rt::Shared(cell) if path.is_empty() => Rt::Shared(Rc::clone(cell)),
        Rt::Shared(cell) => {
            let cell = Rc::clone(cell);
            let mut inner = cell.borrow_mut();
            share(&mut inner, path)
        }
        _ if path.is_empty() => {
            let cell = Rc::new(RefCell::new(std::mem::replace(slot, Rt::Unit)));
            *slot = Rt::Shared(Rc::clone(&cell));
            Rt::Shared(cell)
        }
        Rt::Agg(items) => match items.get_mut(path[0]) {
            Some(item) => share(item, &path[1..]),
            None => Rt::Unit,
        },
        _ => Rt::Unit,
    }
}

fn element(v: &Rt, i: i128, span: Span) -> Run<Rt> {
    match v {
        Rt::Shared(cell) => element(&cell.borrow(), i, span),
        Rt::Agg(items) if i >= 0 && (i as usize) < items.len() => Ok(items[i as usize].snapshot()),
        Rt::Str(s) if i >= 0 && (i as usize) < s.len() => Ok(Rt::Int(s[i as usize] as i128)),
        _ => trap(TrapKind::IndexOutOfBounds, span),
    }
}
