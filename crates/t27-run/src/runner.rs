//! Running the selected blocks, module by module, in declaration order.

use crate::engines::Engines;
use crate::naming::{ValueNames, value_names};
use crate::select::select;
use crate::watchdog::Watchdog;
use std::time::{Duration, Instant};
use t27_check::{BlockLowerer, Blocker, Checked};
use t27_ir::{Body, ModuleId, Outcome, TestId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Native code through Cranelift.
    Jit,
    /// The reference evaluator.
    Eval,
    /// Each block where it is cheapest: compiled up front when its code says it is heavy
    /// (`estimate.rs`), otherwise evaluated, and run again natively, from where it started,
    /// if the evaluation makes more than `eval_budget` loop turns and calls.
    Tiered { eval_budget: u64 },
}

impl Engine {
    /// The default engine: tiered, with the evaluator's budget about the time it takes to
    /// compile a block.
    pub const DEFAULT: Engine = Engine::Tiered {
        eval_budget: 20_000,
    };

    pub fn name(self) -> &'static str {
        match self {
            Engine::Jit => "jit",
            Engine::Eval => "eval",
            Engine::Tiered { .. } => "tiered",
        }
    }
}

pub struct RunOptions {
    pub engine: Engine,
    /// The budget of each block.
    pub timeout: Duration,
    pub filter: Option<String>,
    pub exact: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Result {
    Ran(Outcome),
    NotRun(NotRun),
}

/// Why a block did not run.
#[derive(Clone, Debug, PartialEq)]
pub enum NotRun {
    /// Something the block reaches has an error.
    Blocked(Box<Blocker>),
    /// The native code could not be built (`Summary::engine_error` says why).
    NoNativeCode,
}

#[derive(Clone, Debug)]
pub struct BlockReport {
    pub module: ModuleId,
    pub test: TestId,
    pub result: Result,
    pub duration: Duration,
    /// The engine that answered (`Jit` or `Eval`); `None` for a block not run.
    pub engine: Option<Engine>,
    /// For a failed assert: the constants its values stand for.
    pub names: ValueNames,
}

impl BlockReport {
    pub fn passed(&self) -> bool {
        self.result == Result::Ran(Outcome::Pass)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub passed: usize,
    /// Failed, trapped, timed out or not run.
    pub failed: usize,
    pub trapped: usize,
    pub timed_out: usize,
    pub not_run: usize,
    /// Blocks that ran without a single runtime assert: they tested no code.
    pub no_runtime_asserts: usize,
    /// Why native code could not be built (its blocks are then reported as not run).
    pub engine_error: Option<String>,
    /// Where the JIT put each compiled function and block (empty on the evaluator).
    pub native_code: Vec<t27_jit::NativeCode>,
}

/// The stack the engines run on: deep recursion in a spec stops at the engines' own depth
/// limit (a trap), long before this is used up.
const ENGINE_STACK: usize = 1 << 30;

/// How many lowered blocks may wait for the engine: the lowering thread keeps a few ahead.
const LOWERED_AHEAD: usize = 4;

/// Runs every selected block and hands each report to `on_block` as soon as it is known.
///
/// The checked program holds no block's statements (see `t27_check::BlockLowerer`): a second
/// thread lowers each block that can run, in the order they run, a few ahead of the engine,
/// and each block's IR is dropped once it has run. On the JIT, every block is compiled before
/// the first runs, so all of them are lowered first.
pub fn run(
    checked: &Checked,
    opts: &RunOptions,
    on_block: &mut (dyn FnMut(&BlockReport) + Send),
) -> Summary {
    let selected = select(checked, opts.filter.as_deref(), opts.exact);
    let p = &*checked.program;
    let runnable: Vec<TestId> = selected.iter().flat_map(|m| m.runnable()).collect();
    let mut summary = Summary::default();
    std::thread::scope(|scope| {
        let mut lowered = Lowered::start(checked, runnable, scope);
        let worker = std::thread::Builder::new()
            .name("t27-engine".into())
            .stack_size(ENGINE_STACK)
            .spawn_scoped(scope, move || {
                let watchdog = Watchdog::new();
                let mut summary = Summary::default();
                let up_front: Vec<(TestId, Body)> = match opts.engine {
                    Engine::Jit => std::iter::from_fn(|| lowered.next()).collect(),
                    _ => Vec::new(),
                };
                let refs: Vec<(TestId, &Body)> = up_front.iter().map(|(t, b)| (*t, b)).collect();
                let mut engines = Engines::new(p, opts.engine, &refs, &watchdog.flag);
                let mut up_front = up_front.iter();
                'modules: for module in &selected {
                    let mut record = |test: TestId,
                                      result: Result,
                                      duration: Duration,
                                      engine: Option<Engine>,
                                      names: ValueNames| {
                        let report = BlockReport {
                            module: module.module,
                            test,
                            result,
                            duration,
                            engine,
                            names,
                        };
                        tally(&mut summary, &report, p.tests[test.index()].runtime_asserts);
                        on_block(&report);
                    };
                    // Module `var`s start at their initial values for each module.
                    engines.start_module();
                    for (t, blocker) in &module.blocks {
                        let t = *t;
                        if let Some(b) = blocker {
                            let why = NotRun::Blocked(Box::new(b.clone()));
                            record(t, Result::NotRun(why), Duration::ZERO, None, ValueNames::default());
                            continue;
                        }
                        // Lowered ahead, or up front for the JIT; dropped once the block ran.
                        let lowered_now;
                        let body = match opts.engine {
                            Engine::Jit => up_front.next().map(|(_, b)| b),
                            _ => {
                                lowered_now = lowered.next().map(|(_, b)| b);
                                lowered_now.as_ref()
                            }
                        };
                        // Only a lowering thread that panicked gives none; the scope passes
                        // its panic on.
                        let Some(body) = body else {
                            break 'modules;
                        };
                        let started = Instant::now();
                        watchdog.arm(opts.timeout);
                        let ran = engines.run(t, body);
                        watchdog.disarm();
                        match ran {
                            Some((o, engine)) => {
                                let took = started.elapsed();
                                let names = value_names(p, body, &o);
                                record(t, Result::Ran(o), took, Some(engine), names)
                            }
                            None => record(
                                t,
                                Result::NotRun(NotRun::NoNativeCode),
                                Duration::ZERO,
                                None,
                                ValueNames::default(),
                            ),
                        }
                    }
                }
                summary.engine_error = engines.error.clone();
                summary.native_code = engines.native_code();
                summary
            });
        if let Ok(handle) = worker {
            summary = handle.join().unwrap_or_default();
        }
    });
    summary
}

/// The lowered bodies of the blocks that run, in order: from a thread that lowers them ahead
/// of the engine, or lowered on demand when no thread can be had.
struct Lowered {
    from_thread: Option<std::sync::mpsc::Receiver<(TestId, Body)>>,
    here: Option<(BlockLowerer, std::vec::IntoIter<TestId>)>,
}

impl Lowered {
    fn start<'s, 'e>(
        checked: &'e Checked,
        blocks: Vec<TestId>,
        scope: &'s std::thread::Scope<'s, 'e>,
    ) -> Lowered {
        let (send, receive) = std::sync::mpsc::sync_channel(LOWERED_AHEAD);
        let mut lowerer = checked.block_lowerer();
        let ahead = blocks.clone();
        let thread = std::thread::Builder::new()
            .name("t27-lower".into())
            .stack_size(t27_check::THREAD_STACK)
            .spawn_scoped(scope, move || {
                for t in ahead {
                    // The engine stopped taking them: it is done.
                    if send.send((t, lowerer.lower(t))).is_err() {
                        break;
                    }
                }
            });
        match thread {
            Ok(_) => Lowered {
                from_thread: Some(receive),
                here: None,
            },
            Err(_) => Lowered {
                from_thread: None,
                here: Some((checked.block_lowerer(), blocks.into_iter())),
            },
        }
    }

    fn next(&mut self) -> Option<(TestId, Body)> {
        if let Some(receive) = &self.from_thread {
            return receive.recv().ok();
        }
        let (lowerer, blocks) = self.here.as_mut()?;
        let t = blocks.next()?;
        Some((t, lowerer.lower(t)))
    }
}

fn tally(s: &mut Summary, r: &BlockReport, runtime_asserts: u32) {
    match &r.result {
        Result::Ran(Outcome::Pass) => s.passed += 1,
        Result::Ran(Outcome::Fail { .. }) => s.failed += 1,
        Result::Ran(Outcome::Trap { .. }) => {
            s.failed += 1;
            s.trapped += 1;
        }
        Result::Ran(Outcome::Timeout) => {
            s.failed += 1;
            s.timed_out += 1;
        }
        Result::NotRun(_) => {
            s.failed += 1;
            s.not_run += 1;
        }
    }
    if runtime_asserts == 0 && matches!(r.result, Result::Ran(_)) {
        s.no_runtime_asserts += 1;
    }
}
