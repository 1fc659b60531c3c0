//! The engines of one run: the evaluator, native code, and the tiered choice between them,
//! with the module `var`s carried from one to the other so that blocks see the state the
//! blocks before them left, whichever engine ran those.

use crate::estimate::Estimate;
use crate::runner::{Answers, Engine};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use t27_eval::Machine;
use t27_ir::{Body, Outcome, Program, TestId};
use t27_jit::{JitError, JitProgram, NativeCode};

/// Which engine holds the module `var`s as the last block left them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holder {
    /// Both are at their initial values (a module's first block).
    Both,
    Eval,
    Jit,
}

pub struct Engines<'a> {
    p: &'a Program,
    engine: Engine,
    interrupt: &'a Arc<AtomicBool>,
    /// The native code of the last blocks compiled: every runnable block on the JIT, the
    /// block that runs natively now on the tiered engine.
    jit: Option<JitProgram<'a>>,
    /// Why native code could not be built, once it could not.
    pub error: Option<String>,
    eval: Option<Machine<'a>>,
    holder: Holder,
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
    /// run, with their bodies, compiled here in one program.
    pub fn new(
        p: &'a Program,
        engine: Engine,
        up_front: &[(TestId, &Body)],
        interrupt: &'a Arc<AtomicBool>,
        answers: Answers,
        counters: Option<t27_ir::Counters>,
    ) -> Engines<'a> {
        let mut engines = Engines {
            p,
            engine,
            interrupt,
            jit: None,
            error: None,
            eval: None,
            holder: Holder::Both,
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

    /// A module's blocks start: its `var`s are at their initial values.
    pub fn start_module(&mut self) {
        // One machine for the whole run: making one converts every constant of the program.
        if let Some(eval) = &mut self.eval {
            eval.reset_globals();
        }
        if let Some(jit) = &mut self.jit {
            jit.reset_globals();
        }
        self.holder = Holder::Both;
    }

    /// Runs a block, whose body is `body`; which engine answered, or `None` when native code
    /// it needs could not be built.
    pub fn run(&mut self, test: TestId, body: &Body) -> Option<(Outcome, Engine)> {
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
            Engine::Eval => Some((self.machine().run_block(body), Engine::Eval)),
            Engine::Tiered { .. } if self.estimate.heavy(body) => self.compile_and_run(test, body),
            Engine::Tiered { eval_budget } => {
                self.hand_to_eval();
                let before = self.counters.as_ref().map(t27_ir::Counters::counts);
                match self.machine().run_block_within(body, eval_budget) {
                    Some(outcome) => Some((outcome, Engine::Eval)),
                    // Past its budget: run it again, natively, from where it started (and
                    // with the counts it started with).
                    None => {
                        if let (Some(c), Some(before)) = (&self.counters, before) {
                            c.restore(&before);
                        }
                        self.compile_and_run(test, body)
                    }
                }
            }
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

    /// The tiered engine's native run: the block compiled alone (with what it calls).
    fn compile_and_run(&mut self, test: TestId, body: &Body) -> Option<(Outcome, Engine)> {
        self.compile(&[(test, body)]);
        self.native(test)
    }

    fn native(&mut self, test: TestId) -> Option<(Outcome, Engine)> {
        self.hand_to_jit();
        let outcome = self.jit.as_mut()?.run_block(test)?;
        Some((outcome, Engine::Jit))
    }

    /// Compiles `blocks` into a new program, which takes over the module `var`s where the old
    /// one left them.
    fn compile(&mut self, blocks: &[(TestId, &Body)]) {
        if self.error.is_some() {
            return;
        }
        let counters = self.counters.clone();
        match JitProgram::compile_counting(self.p, blocks, Arc::clone(self.interrupt), counters) {
            Ok(mut program) => {
                match (&self.jit, self.holder) {
                    (Some(old), Holder::Jit) => program.set_globals(&old.globals()),
                    _ => program.reset_globals(),
                }
                if let Some(old) = self.jit.replace(program) {
                    self.native_code.extend_from_slice(old.native_code());
                }
            }
            Err(JitError(e)) => self.error = Some(format!("JIT: {e}")),
        }
    }

    /// The evaluator takes over the module `var`s from native code.
    fn hand_to_eval(&mut self) {
        if self.holder == Holder::Jit
            && !self.p.globals.is_empty()
            && let Some(values) = self.jit.as_ref().map(JitProgram::globals)
        {
            self.machine().set_globals(&values);
        }
        self.holder = Holder::Eval;
    }

    /// Native code takes over the module `var`s from the evaluator.
    fn hand_to_jit(&mut self) {
        if self.holder == Holder::Eval && !self.p.globals.is_empty() {
            let values = self.machine().globals();
            if let Some(jit) = &mut self.jit {
                jit.set_globals(&values);
            }
        }
        self.holder = Holder::Jit;
    }
}
