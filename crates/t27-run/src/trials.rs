//! The same blocks run again and again, against changed copies of the program's functions
//! (mutation testing, `t27 mutate`). The blocks are lowered once and run once as they are
//! (the baseline: a block that fails unchanged says nothing about a change, and its time sets
//! the budget of its runs); then each copy runs only the blocks that reach the function it
//! changed, module by module, and stops at the first that does not pass.

use crate::engines::Engines;
use crate::runner::{Answers, ENGINE_STACK, Engine};
use crate::watchdog::Watchdog;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use t27_check::Checked;
use t27_ir::{Body, FnId, ItemRef, ModuleId, Outcome, Program, TestId};

/// The blocks of the requested modules, lowered, with what each reaches and how it ran
/// unchanged.
pub struct Trials {
    modules: Vec<TrialModule>,
    engine: Engine,
    /// The budget of a block's run against a change: its own time unchanged times
    /// [`Trials::TIME_FACTOR`], plus this.
    pub budget: Duration,
}

struct TrialModule {
    blocks: Vec<TrialBlock>,
}

struct TrialBlock {
    test: TestId,
    body: std::sync::Arc<Body>,
    /// Every function the block calls, directly or not, indexed by `FnId`.
    reaches: Vec<bool>,
    /// How it ran on the program unchanged, and how long that took.
    baseline: Outcome,
    took: Duration,
}

/// What a changed program did to the blocks that reach the change.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// This block failed or trapped: the change was noticed.
    Killed(TestId),
    /// This block ran past its budget.
    TimedOut(TestId),
    /// Every block that reaches the change passed.
    Survived,
    /// No block that passes unchanged reaches the changed function.
    NotReached,
}

impl Trials {
    /// A block's budget against a change is this many times its time unchanged (plus
    /// [`Trials::budget`]): a change that makes it loop for ever is stopped, one that only
    /// makes it slower is not.
    pub const TIME_FACTOR: u32 = 10;

    /// Lowers the blocks of `modules` (which, with everything they import, must have no
    /// errors: a block that reaches one would not run) and runs each on the program as it
    /// is, on `engine`, each within `timeout`.
    pub fn new(
        checked: &Checked,
        modules: &[ModuleId],
        engine: Engine,
        timeout: Duration,
    ) -> Trials {
        let p = &*checked.program;
        let reach = FnReach::new(p);
        let mut lowerer = checked.block_lowerer();
        let modules: Vec<TrialModule> = modules
            .iter()
            .map(|&m| &p.modules[m.index()])
            .map(|m| TrialModule {
                blocks: m
                    .items
                    .iter()
                    .filter_map(|it| match it {
                        ItemRef::Test(t) => Some(*t),
                        _ => None,
                    })
                    .map(|t| {
                        let body = std::sync::Arc::new(lowerer.lower(t).body);
                        TrialBlock {
                            test: t,
                            reaches: reach.of(&body),
                            body,
                            baseline: Outcome::Pass,
                            took: Duration::ZERO,
                        }
                    })
                    .collect(),
            })
            .collect();
        let mut trials = Trials {
            modules,
            engine,
            budget: Duration::from_millis(200),
        };
        trials.run_baseline(p, timeout);
        trials
    }

    /// The blocks that do not pass on the program unchanged, with how they ran: left out of
    /// every run against a change.
    pub fn failing(&self) -> Vec<(TestId, Outcome)> {
        self.blocks()
            .filter(|b| b.baseline != Outcome::Pass)
            .map(|b| (b.test, b.baseline.clone()))
            .collect()
    }

    /// How many blocks there are, and how long they took unchanged, in all.
    pub fn size(&self) -> (usize, Duration) {
        (self.blocks().count(), self.blocks().map(|b| b.took).sum())
    }

    /// Whether a block that passes unchanged reaches `f`.
    pub fn reached(&self, f: FnId) -> bool {
        self.blocks().any(|b| b.counts() && b.reaches[f.index()])
    }

    fn blocks(&self) -> impl Iterator<Item = &TrialBlock> {
        self.modules.iter().flat_map(|m| &m.blocks)
    }

    fn run_baseline(&mut self, p: &Program, timeout: Duration) {
        let modules = &mut self.modules;
        let engine = self.engine;
        on_engine_thread(|| {
            let watchdog = Watchdog::new();
            let up_front: Vec<(TestId, &Body)> = modules
                .iter()
                .flat_map(|m| &m.blocks)
                .map(|b| (b.test, &*b.body))
                .collect();
            let mut runs = Vec::new();
            let mut engines = Engines::new(
                p,
                None,
                engine,
                &up_front,
                &watchdog.flag,
                Answers::default(),
                None,
            );
            for m in modules.iter() {
                for b in &m.blocks {
                    let started = Instant::now();
                    watchdog.arm(timeout);
                    let outcome = run_one(&mut engines, p, &watchdog, b, timeout);
                    watchdog.disarm();
                    runs.push((outcome, started.elapsed()));
                }
            }
            drop(engines);
            for (b, (outcome, took)) in modules.iter_mut().flat_map(|m| &mut m.blocks).zip(runs) {
                b.baseline = outcome;
                b.took = took;
            }
        });
    }

    /// Runs the blocks that reach each change, `count` of them, on every core: `change(i)`
    /// gives the `i`th changed program and the function it changed. The verdicts, in order.
    pub fn run_changes(
        &self,
        count: usize,
        change: &(dyn Fn(usize) -> (Program, FnId) + Sync),
    ) -> Vec<Verdict> {
        let next = AtomicUsize::new(0);
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min(count.max(1));
        let mut verdicts: Vec<(usize, Verdict)> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .filter_map(|_| {
                    std::thread::Builder::new()
                        .name("t27-mutants".into())
                        .stack_size(ENGINE_STACK)
                        .spawn_scoped(scope, || {
                            let watchdog = Watchdog::new();
                            let mut done = Vec::new();
                            loop {
                                let i = next.fetch_add(1, Ordering::Relaxed);
                                if i >= count {
                                    return done;
                                }
                                let (program, changed) = change(i);
                                done.push((i, self.judge(&program, changed, &watchdog)));
                            }
                        })
                        .ok()
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().unwrap_or_default())
                .collect()
        });
        // A worker that could not be started (or panicked) leaves its changes to this thread.
        let mut seen = vec![false; count];
        verdicts.iter().for_each(|(i, _)| seen[*i] = true);
        if seen.iter().any(|s| !s) {
            on_engine_thread(|| {
                let watchdog = Watchdog::new();
                for i in (0..count).filter(|i| !seen[*i]) {
                    let (program, changed) = change(i);
                    verdicts.push((i, self.judge(&program, changed, &watchdog)));
                }
            });
        }
        verdicts.sort_by_key(|(i, _)| *i);
        verdicts.into_iter().map(|(_, v)| v).collect()
    }

    /// Runs the blocks that reach `changed` on `p`, until one does not pass.
    fn judge(&self, p: &Program, changed: FnId, watchdog: &Watchdog) -> Verdict {
        // Every block starts from the declared module `var`s (LANGUAGE.md 17.1), so only the
        // blocks that reach the change, and passed unchanged, need to run.
        let runs = |b: &TrialBlock| b.counts() && b.reaches[changed.index()];
        let blocks: Vec<&TrialBlock> = self
            .modules
            .iter()
            .flat_map(|m| &m.blocks)
            .filter(|b| runs(b))
            .collect();
        let up_front: Vec<(TestId, &Body)> = match self.engine {
            Engine::Jit => blocks.iter().map(|b| (b.test, &*b.body)).collect(),
            _ => Vec::new(),
        };
        let mut engines = Engines::new(
            p,
            None,
            self.engine,
            &up_front,
            &watchdog.flag,
            Answers::default(),
            None,
        );
        for b in &blocks {
            let budget = self.budget + b.took * Self::TIME_FACTOR;
            watchdog.arm(budget);
            let outcome = run_one(&mut engines, p, watchdog, b, budget);
            watchdog.disarm();
            match outcome {
                Outcome::Pass => {}
                Outcome::Timeout => return Verdict::TimedOut(b.test),
                Outcome::Fail { .. } | Outcome::Trap { .. } => return Verdict::Killed(b.test),
            }
        }
        if blocks.is_empty() {
            Verdict::NotReached
        } else {
            Verdict::Survived
        }
    }
}

impl TrialBlock {
    /// Whether the block passes unchanged, so that its failing says something about a change.
    fn counts(&self) -> bool {
        self.baseline == Outcome::Pass
    }
}

/// Runs one block; where native code cannot be built for it, on the evaluator.
fn run_one(
    engines: &mut Engines,
    p: &Program,
    watchdog: &Watchdog,
    b: &TrialBlock,
    budget: Duration,
) -> Outcome {
    match engines.run(b.test, &b.body) {
        Some((outcome, _)) => outcome,
        None => {
            let mut machine = t27_eval::Machine::new(p, &watchdog.flag);
            watchdog.arm(budget);
            machine.run_block(&b.body)
        }
    }
}

/// Runs `work` on a thread with the engines' stack (or here, when none can be started).
fn on_engine_thread<F: FnOnce() + Send>(work: F) {
    let work = std::sync::Mutex::new(Some(work));
    let take = || work.lock().ok().and_then(|mut w| w.take());
    std::thread::scope(|scope| {
        let started = std::thread::Builder::new()
            .name("t27-engine".into())
            .stack_size(ENGINE_STACK)
            .spawn_scoped(scope, || {
                if let Some(w) = take() {
                    w()
                }
            });
        if let Ok(handle) = started {
            let _ = handle.join();
        }
    });
    if let Some(w) = take() {
        w()
    }
}

/// Which functions each function calls, directly or not.
struct FnReach {
    callees: Vec<Vec<FnId>>,
}

impl FnReach {
    fn new(p: &Program) -> FnReach {
        FnReach {
            callees: p.functions.iter().map(|f| f.body.block.callees()).collect(),
        }
    }

    /// Every function `body` calls, directly or not, as flags indexed by `FnId`.
    fn of(&self, body: &Body) -> Vec<bool> {
        let mut reached = vec![false; self.callees.len()];
        let mut todo = body.block.callees();
        while let Some(f) = todo.pop() {
            if !std::mem::replace(&mut reached[f.index()], true) {
                todo.extend_from_slice(&self.callees[f.index()]);
            }
        }
        reached
    }
}
