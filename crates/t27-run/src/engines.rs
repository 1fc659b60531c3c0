//! The engines of one run: the evaluator, native code, and the tiered choice between them.
//! Every block starts from the declared values of every module `var` (LANGUAGE.md 17.1, the
//! owner's rule: the reference gives each block a process of its own), so nothing passes
//! from one block, or one engine, to the next.
//!
//! The tiered engine starts every block on the evaluator. A block that can run long (its
//! bound, `estimate.rs`, is past its mark) is watched: once the evaluator has made the mark's
//! loop turns and calls, the native thread (`native.rs`) compiles it while the evaluator goes
//! on, and when the code is ready the evaluator stops and the block runs again natively, from
//! where it started (module `var`s and coverage counts as they were). A block bounded far past
//! its mark (the compute sweep) is sent to the compiler as it starts, and the evaluator stops
//! at the mark and waits for it. Whichever finishes first answers: a guess that is wrong
//! costs the other core's time, never the engine's.

use crate::estimate::Estimate;
use crate::native::{Native, Ticket};
use crate::runner::{Answers, Engine};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use t27_eval::{Machine, Watch};
use t27_ir::{Body, Outcome, Program, TestId};
use t27_jit::{JitError, JitProgram, NativeCode};

pub struct Engines<'a> {
    p: &'a Program,
    /// The same program, for the native thread; `None` where there is none to share (mutation
    /// trials, whose workers keep every core busy): the tiered engine then compiles on the
    /// engine thread, at the block's mark.
    shared: Option<Arc<Program>>,
    /// The native thread, once a block needed it; `Err` once it could not be started.
    native: Option<Result<Native, ()>>,
    engine: Engine,
    interrupt: &'a Arc<AtomicBool>,
    /// The native code of the last blocks compiled: every runnable block on the JIT, the
    /// block that runs natively now on the tiered engine.
    jit: Option<JitProgram<'a>>,
    /// Why native code could not be built, once it could not.
    pub error: Option<String>,
    eval: Option<Machine<'a>>,
    estimate: Estimate<'a>,
    /// Where every compiled function and block lay, across the programs compiled.
    native_code: Vec<NativeCode>,
    /// On a host: the outcomes it gave.
    answers: Answers,
    /// A coverage run's counters, which both engines add to.
    counters: Option<t27_ir::Counters>,
}

impl<'a> Engines<'a> {
    /// Prepares to run blocks on `engine`; on the JIT, `up_front` are every block that will
    /// run, with their bodies, compiled here in one program. `shared` is `p` again, for the
    /// tiered engine's native thread.
    pub fn new(
        p: &'a Program,
        shared: Option<Arc<Program>>,
        engine: Engine,
        up_front: &[(TestId, &Body)],
        interrupt: &'a Arc<AtomicBool>,
        answers: Answers,
        counters: Option<t27_ir::Counters>,
    ) -> Engines<'a> {
        let mut engines = Engines {
            p,
            shared,
            native: None,
            engine,
            interrupt,
            jit: None,
            error: None,
            eval: None,
            estimate: Estimate::new(p),
            native_code: Vec::new(),
            answers,
            counters,
        };
        if engine == Engine::Jit && !up_front.is_empty() {
            engines.compile(up_front);
        }
        engines
    }

    /// Every compiled function and block, where it lay.
    pub fn native_code(mut self) -> Vec<NativeCode> {
        if let Some(jit) = self.jit.take() {
            self.native_code.extend_from_slice(jit.native_code());
        }
        self.native_code
    }

    /// Runs a block, whose body is `body`; which engine answered, or `None` when native code
    /// it needs could not be built.
    pub fn run(&mut self, test: TestId, body: &Arc<Body>) -> Option<(Outcome, Engine)> {
        match self.engine {
            Engine::Host(_) => match self.answers.outcomes.get(&test) {
                Some((outcome, _)) => Some((outcome.clone(), self.engine)),
                None if self.answers.cannot.contains_key(&test) => None,
                None => {
                    let name = &self.p.tests[test.index()].decl.name;
                    self.error
                        .get_or_insert_with(|| format!("the host gave no outcome for `{name}`"));
                    None
                }
            },
            Engine::Jit => self.native(test),
            Engine::Eval => {
                let machine = self.machine();
                machine.reset_globals();
                Some((machine.run_block(body), Engine::Eval))
            }
            Engine::Tiered { eval_budget } => self.tiered(test, body, eval_budget),
        }
    }

    /// The tiered engine: the evaluator, and native code built beside it (see the top).
    fn tiered(&mut self, test: TestId, body: &Arc<Body>, budget: u64) -> Option<(Outcome, Engine)> {
        self.machine().reset_globals();
        let bounds = self.estimate.bounds(body);
        let mark = bounds.mark.min(budget);
        let before = self.counters.as_ref().map(t27_ir::Counters::counts);
        // Light for sure (no thread is started for it), or no thread to compile on: the
        // evaluator alone, up to its budget (up to the mark without a native thread, then the
        // engine thread's compiler).
        let light = !bounds.beyond(mark);
        if light || self.native_thread().is_none() {
            let within = if light { budget } else { mark };
            if let Some(outcome) = self.machine().run_block_within(body, within) {
                return Some((outcome, Engine::Eval));
            }
            self.restore_counts(before);
            return match self.native_thread() {
                Some(native) => {
                    let ticket = native.ticket(test, body);
                    self.switch(&ticket)
                }
                None => self.compile_and_run(test, body),
            };
        }
        let ticket = self.native_thread()?.ticket(test, body);
        let watch = if bounds.certain() {
            // Compiled at once; the evaluator goes on only up to the mark (in case the block
            // ends early, as a search does), so as not to take the compiler's core for long.
            ticket.send();
            Watch {
                budget: mark,
                mark: None,
                switch: Some(Arc::clone(&ticket.wanted.ready)),
            }
        } else {
            let at_mark = {
                let ticket = ticket.clone();
                Box::new(move || ticket.send()) as Box<dyn FnOnce() + 'a>
            };
            Watch {
                budget,
                mark: Some((mark, at_mark)),
                switch: Some(Arc::clone(&ticket.wanted.ready)),
            }
        };
        match self.machine().run_block_watched(body, watch) {
            Some(outcome) => {
                ticket.wanted.dropped.store(true, Ordering::Relaxed);
                Some((outcome, Engine::Eval))
            }
            // The code is ready (or the budget ran out): the block runs again natively, from
            // where it started.
            None => {
                self.restore_counts(before);
                self.switch(&ticket)
            }
        }
    }

    /// Waits for a block's native code and runs it (from the declared module `var`s).
    fn switch(&mut self, ticket: &Ticket) -> Option<(Outcome, Engine)> {
        let Some(Ok(native)) = &self.native else {
            return None;
        };
        match native.compiled(ticket) {
            Ok(code) => self.native_code.extend(code),
            Err(e) => {
                self.error.get_or_insert(e);
                return None;
            }
        }
        let outcome = native.run(ticket)?;
        Some((outcome, Engine::Jit))
    }

    /// The native thread, started on first use; `None` when there is none.
    fn native_thread(&mut self) -> Option<&mut Native> {
        if self.native.is_none() {
            let started = self
                .shared
                .clone()
                .and_then(|p| Native::start(p, Arc::clone(self.interrupt), self.counters.clone()));
            self.native = Some(started.ok_or(()));
        }
        self.native.as_mut()?.as_mut().ok()
    }

    /// A coverage run's counts back to what they were when the block started.
    fn restore_counts(&self, before: Option<Vec<u64>>) {
        if let (Some(c), Some(before)) = (&self.counters, before) {
            c.restore(&before);
        }
    }

    /// How long a block took on the host that answered it.
    pub fn answered_duration(&self, test: TestId) -> Option<std::time::Duration> {
        self.answers.outcomes.get(&test).map(|(_, d)| *d)
    }

    /// Why the host cannot run a block, when it cannot.
    pub fn cannot(&self, test: TestId) -> Option<&str> {
        self.answers.cannot.get(&test).map(String::as_str)
    }

    fn machine(&mut self) -> &mut Machine<'a> {
        let (p, interrupt, counters) = (self.p, self.interrupt, &self.counters);
        self.eval.get_or_insert_with(|| {
            let mut m = Machine::new(p, interrupt);
            if let Some(c) = counters {
                m.set_counters(c.clone());
            }
            m
        })
    }

    /// The tiered engine's native run without a native thread: the block compiled alone (with
    /// what it calls), here.
    fn compile_and_run(&mut self, test: TestId, body: &Body) -> Option<(Outcome, Engine)> {
        self.compile(&[(test, body)]);
        self.native(test)
    }

    fn native(&mut self, test: TestId) -> Option<(Outcome, Engine)> {
        let jit = self.jit.as_mut()?;
        jit.reset_globals();
        let outcome = jit.run_block(test)?;
        Some((outcome, Engine::Jit))
    }

    /// Compiles `blocks` into a new program.
    fn compile(&mut self, blocks: &[(TestId, &Body)]) {
        if self.error.is_some() {
            return;
        }
        let counters = self.counters.clone();
        match JitProgram::compile_counting(self.p, blocks, Arc::clone(self.interrupt), counters) {
            Ok(program) => {
                if let Some(old) = self.jit.replace(program) {
                    self.native_code.extend_from_slice(old.native_code());
                }
            }
            Err(JitError(e)) => self.error = Some(format!("JIT: {e}")),
        }
    }
}
