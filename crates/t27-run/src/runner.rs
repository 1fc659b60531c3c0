//! Running the selected blocks, module by module, in declaration order.

use crate::ahead::Ahead;
use crate::engines::Engines;
use crate::naming::{ValueNames, value_names};
use crate::select::{Selected, select};
use crate::watchdog::Watchdog;
use std::sync::Arc;
use std::time::{Duration, Instant};
use t27_check::{Blocker, Checked, Isolation, LoweredBlock};
use t27_ir::{Body, ModuleId, Outcome, Program, TestId};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Native code through Cranelift.
    Jit,
    /// The reference evaluator.
    Eval,
    /// Each block where it is cheapest: started on the evaluator; a block that runs past its
    /// mark (`estimate.rs`: about the work compiling it costs) is compiled on another thread
    /// while the evaluator goes on, and run again natively, from where it started, if it is
    /// still running when the code is ready (`engines.rs`). Past `eval_budget` loop turns
    /// and calls the evaluator stops and the block waits for its native code (tests give a
    /// small budget to take that path every time).
    Tiered { eval_budget: u64 },
    /// A host the blocks were generated for and run on (`js`, `ts`, `rust`): the runner
    /// reports the outcomes it gave ([`run_answered`]).
    Host(&'static str),
}

impl Engine {
    /// The default engine: tiered, the evaluator never stopped before native code is ready.
    pub const DEFAULT: Engine = Engine::Tiered {
        eval_budget: u64::MAX,
    };

    pub fn name(self) -> &'static str {
        match self {
            Engine::Jit => "jit",
            Engine::Eval => "eval",
            Engine::Tiered { .. } => "tiered",
            Engine::Host(name) => name,
        }
    }
}

pub struct RunOptions {
    pub engine: Engine,
    /// The budget of each block.
    pub timeout: Duration,
    pub filter: Option<String>,
    pub exact: bool,
    /// How many threads lower the blocks ahead of the engine (`ahead.rs`): `None` for one a
    /// core when the blocks come to 64 KB of source or more, none (the engine's own thread
    /// lowers each block before it runs it) for fewer, where starting threads and handing
    /// blocks over would cost more than it saves.
    pub lowering_threads: Option<usize>,
    /// How many threads run blocks (`parallel.rs`): `None` for one a core when there are 64
    /// blocks or more whose source comes to less than 64 KB (so that no thread lowers them
    /// ahead: the cores are free), on the evaluator or the tiered engine; one otherwise.
    /// Every block starts from the declared module `var`s, so blocks are independent; the
    /// reports still come in declaration order. The JIT (one program for every block), the
    /// hosts and coverage runs always use one.
    pub engine_threads: Option<usize>,
    /// A coverage run: the blocks call the functions of this instrumented program, whose
    /// probes add to its counters.
    pub coverage: Option<CoverageRun>,
}

/// The program `t27-cover` instrumented (run in place of the checked program: the same
/// declarations and ids, with probes in the function bodies) and the counters they add to.
#[derive(Clone)]
pub struct CoverageRun {
    pub program: std::sync::Arc<t27_ir::Program>,
    pub counters: t27_ir::Counters,
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
    /// The host it was to run on cannot run it: why (`Answers::cannot`).
    NotOnHost(String),
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
    /// Asserts that ran code, and asserts decided when the spec was compiled.
    pub runtime_asserts: u32,
    pub folded_asserts: u32,
    /// The block's own errors, found as it was lowered to run: what the check left to the
    /// runner (`t27_check::check_declarations`); empty when the program was checked with its
    /// blocks, whose diagnostics then hold them.
    pub errors: Vec<t27_diag::Diagnostic>,
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
pub(crate) const ENGINE_STACK: usize = 1 << 30;

/// Runs every selected block and hands each report to `on_block` as soon as it is known.
///
/// Other threads lower the blocks a few ahead of the engine (`ahead.rs`); a block's blocker
/// comes from what lowering it told (its own errors, when the program was checked without its
/// blocks, and what it refers to), and its IR is dropped once it has run. On the JIT every
/// block is lowered first, to be compiled as one program.
pub fn run(
    checked: &Checked,
    opts: &RunOptions,
    on_block: &mut (dyn FnMut(&BlockReport) + Send),
) -> Summary {
    run_answered(checked, opts, Answers::default(), on_block)
}

/// The outcomes a host gave, by block, with the time each took there: what
/// [`run_answered`] reports for the blocks that run, on `Engine::Host`. A block that runs
/// and has none is reported as not run (`NotRun::NoNativeCode`, with `Summary::engine_error`).
#[derive(Clone, Debug, Default)]
pub struct Answers {
    pub outcomes: std::collections::HashMap<TestId, (Outcome, Duration)>,
    /// Blocks the host cannot run, with why: reported as not run.
    pub cannot: std::collections::HashMap<TestId, String>,
}

/// [`run`] with the outcomes of the blocks given: which blocks run, why the others do not,
/// and every report are the runner's own; only the engine is the host's.
pub fn run_answered(
    checked: &Checked,
    opts: &RunOptions,
    answers: Answers,
    on_block: &mut (dyn FnMut(&BlockReport) + Send),
) -> Summary {
    let selected = select(checked, opts.filter.as_deref(), opts.exact);
    let blocks: Vec<TestId> = selected
        .iter()
        .flat_map(|m| m.blocks.iter().map(|(t, _)| *t))
        .collect();
    let mut summary = Summary::default();
    std::thread::scope(|scope| {
        let ahead = Ahead::start(checked, blocks.clone(), opts.lowering_threads, scope);
        let threads = engine_threads(checked, opts, &blocks);
        let worker = std::thread::Builder::new()
            .name("t27-engine".into())
            .stack_size(ENGINE_STACK)
            .spawn_scoped(scope, move || {
                if threads > 1 {
                    crate::parallel::run_blocks(checked, opts, &selected, ahead, threads, on_block)
                } else {
                    run_blocks(checked, opts, &selected, ahead, answers, on_block)
                }
            });
        if let Ok(handle) = worker {
            summary = handle.join().unwrap_or_default();
        }
    });
    summary
}

/// From how many blocks they run on one engine thread a core (unless told how many).
const PARALLEL_FROM_BLOCKS: usize = 64;

/// How many threads run the blocks (see `RunOptions::engine_threads`).
fn engine_threads(checked: &Checked, opts: &RunOptions, blocks: &[TestId]) -> usize {
    if !matches!(opts.engine, Engine::Eval | Engine::Tiered { .. }) || opts.coverage.is_some() {
        return 1;
    }
    let threads = opts.engine_threads.unwrap_or_else(|| {
        // The other cores go to lowering the blocks when their source is large (`ahead.rs`),
        // and to running them when many small blocks are lowered on this thread: the owner's
        // byte loops. Both at once only made the cores take turns (and a million-assert
        // replay held a quarter more memory).
        let lowered_here =
            crate::ahead::source_bytes(checked, blocks) < crate::ahead::THREADS_FROM_BYTES;
        if blocks.len() >= PARALLEL_FROM_BLOCKS && lowered_here {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            1
        }
    });
    threads.clamp(1, blocks.len().max(1))
}

/// A block lowered, and why it cannot run.
type Ready = (TestId, LoweredBlock, Option<Blocker>);

/// The engine thread's part of [`run`].
fn run_blocks(
    checked: &Checked,
    opts: &RunOptions,
    selected: &[Selected],
    mut ahead: Ahead,
    answers: Answers,
    on_block: &mut (dyn FnMut(&BlockReport) + Send),
) -> Summary {
    let p = opts
        .coverage
        .as_ref()
        .map_or(&*checked.program, |c| &*c.program);
    let watchdog = Watchdog::new();
    let mut summary = Summary::default();
    let mut isolation = Isolation::new(checked);
    let mut ready = |ahead: &mut Ahead| -> Option<Ready> {
        let (t, lowered) = ahead.next()?;
        let blocker = isolation.blocker_of(t, &lowered);
        Some((t, lowered, blocker))
    };
    let up_front: Vec<Ready> = match opts.engine {
        Engine::Jit => std::iter::from_fn(|| ready(&mut ahead)).collect(),
        _ => Vec::new(),
    };
    let runnable: Vec<(TestId, &Body)> = up_front
        .iter()
        .filter(|(_, _, blocker)| blocker.is_none())
        .map(|(t, lowered, _)| (*t, &lowered.body))
        .collect();
    let counters = opts.coverage.as_ref().map(|c| c.counters.clone());
    let shared = opts
        .coverage
        .as_ref()
        .map_or(&checked.program, |c| &c.program);
    let mut engines = Engines::new(
        p,
        Some(Arc::clone(shared)),
        opts.engine,
        &runnable,
        &watchdog.flag,
        answers,
        counters,
    );
    drop(runnable);
    let mut up_front = up_front.into_iter();
    for module in selected {
        for _ in &module.blocks {
            let next = match opts.engine {
                Engine::Jit => up_front.next(),
                _ => ready(&mut ahead),
            };
            // Only a lowering thread that panicked gives none; the scope passes its panic on.
            let Some((t, lowered, blocker)) = next else {
                return summary;
            };
            let (body, about) = About::of(module.module, t, lowered);
            let ran = match blocker {
                Some(b) => Ran::blocked(b),
                None => run_one(&mut engines, &watchdog, opts.timeout, p, t, body),
            };
            let report = about.report(checked, ran);
            tally(&mut summary, &report);
            on_block(&report);
        }
    }
    summary.engine_error = engines.error.clone();
    summary.native_code = engines.native_code();
    summary
}

/// What running a block gave (or why it did not run).
pub(crate) struct Ran {
    pub result: Result,
    pub duration: Duration,
    pub engine: Option<Engine>,
    pub names: ValueNames,
}

impl Ran {
    pub(crate) fn blocked(b: Blocker) -> Ran {
        Ran::not_run(NotRun::Blocked(Box::new(b)))
    }

    fn not_run(why: NotRun) -> Ran {
        Ran {
            result: Result::NotRun(why),
            duration: Duration::ZERO,
            engine: None,
            names: ValueNames::default(),
        }
    }
}

/// Runs one block on `engines`, under the watchdog's budget.
pub(crate) fn run_one(
    engines: &mut Engines,
    watchdog: &Watchdog,
    timeout: Duration,
    p: &Program,
    t: TestId,
    body: Body,
) -> Ran {
    // Shared with the native thread, which may compile the block as it runs.
    let body = Arc::new(body);
    let started = Instant::now();
    watchdog.arm(timeout);
    let ran = engines.run(t, &body);
    watchdog.disarm();
    match ran {
        None => match engines.cannot(t) {
            Some(why) => Ran::not_run(NotRun::NotOnHost(why.to_string())),
            None => Ran::not_run(NotRun::NoNativeCode),
        },
        Some((o, engine)) => {
            let duration = engines
                .answered_duration(t)
                .unwrap_or_else(|| started.elapsed());
            let names = value_names(p, &body, &o);
            Ran {
                result: Result::Ran(o),
                duration,
                engine: Some(engine),
                names,
            }
        }
    }
}

/// What a block's report says besides how it ran: whose it is, and what lowering found.
pub(crate) struct About {
    module: ModuleId,
    test: TestId,
    diagnostics: Vec<t27_diag::Diagnostic>,
    runtime_asserts: u32,
    folded_asserts: u32,
}

impl About {
    /// The body to run, and the rest of the lowered block.
    pub(crate) fn of(module: ModuleId, test: TestId, lowered: LoweredBlock) -> (Body, About) {
        let about = About {
            module,
            test,
            diagnostics: lowered.diagnostics,
            runtime_asserts: lowered.runtime_asserts,
            folded_asserts: lowered.folded_asserts,
        };
        (lowered.body, about)
    }

    /// The block's report, once it ran (or did not).
    pub(crate) fn report(self, checked: &Checked, ran: Ran) -> BlockReport {
        let errors = self
            .diagnostics
            .into_iter()
            .filter(|d| d.is_error() && !checked.blocks_checked)
            .collect();
        BlockReport {
            module: self.module,
            test: self.test,
            result: ran.result,
            duration: ran.duration,
            engine: ran.engine,
            names: ran.names,
            runtime_asserts: self.runtime_asserts,
            folded_asserts: self.folded_asserts,
            errors,
        }
    }
}

pub(crate) fn tally(s: &mut Summary, r: &BlockReport) {
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
    if r.runtime_asserts == 0 && matches!(r.result, Result::Ran(_)) {
        s.no_runtime_asserts += 1;
    }
}
