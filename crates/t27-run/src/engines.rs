//! The engines of one run: the evaluator, native code, and the tiered choice between them,
//! with the module `var`s carried from one to the other so that blocks see the state the
//! blocks before them left, whichever engine ran those.

use crate::estimate::Estimate;
use crate::runner::Engine;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use t27_eval::Machine;
use t27_ir::{Outcome, Program, TestId};
use t27_jit::{JitError, JitProgram};

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
    jit: Option<JitProgram<'a>>,
    /// The blocks `jit` holds native code for.
    compiled: Vec<TestId>,
    /// Why native code could not be built, once it could not.
    pub error: Option<String>,
    eval: Option<Machine<'a>>,
    holder: Holder,
    /// Per block: whether the tiered engine compiles it before it runs.
    heavy: Vec<bool>,
}

impl<'a> Engines<'a> {
    /// Prepares to run `blocks` on `engine`: compiles up front what will run natively
    /// (every block on the JIT; on the tiered engine, the blocks estimated heavy).
    pub fn new(
        p: &'a Program,
        engine: Engine,
        blocks: &[TestId],
        interrupt: &'a Arc<AtomicBool>,
    ) -> Engines<'a> {
        let mut heavy = vec![false; p.tests.len()];
        if matches!(engine, Engine::Tiered { .. }) {
            let mut estimate = Estimate::new(p);
            for t in blocks {
                heavy[t.index()] = estimate.heavy(&p.tests[t.index()]);
            }
        }
        let mut engines = Engines {
            p,
            engine,
            interrupt,
            jit: None,
            compiled: Vec::new(),
            error: None,
            eval: None,
            holder: Holder::Both,
            heavy,
        };
        let native: Vec<TestId> = match engine {
            Engine::Jit => blocks.to_vec(),
            Engine::Tiered { .. } => blocks
                .iter()
                .copied()
                .filter(|t| engines.heavy[t.index()])
                .collect(),
            Engine::Eval => Vec::new(),
        };
        if !native.is_empty() {
            engines.compile(native);
        }
        engines
    }

    /// Every compiled function and block, where it lies.
    pub fn native_code(&self) -> Vec<t27_jit::NativeCode> {
        self.jit
            .as_ref()
            .map_or_else(Vec::new, |j| j.native_code().to_vec())
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

    /// Runs a block; which engine answered, or `None` when native code it needs could not be
    /// built.
    pub fn run(&mut self, test: TestId) -> Option<(Outcome, Engine)> {
        match self.engine {
            Engine::Jit => self.native(test),
            Engine::Eval => Some((self.machine().run_block(test), Engine::Eval)),
            Engine::Tiered { .. } if self.heavy[test.index()] => self.native(test),
            Engine::Tiered { eval_budget } => {
                self.hand_to_eval();
                match self.machine().run_block_within(test, eval_budget) {
                    Some(outcome) => Some((outcome, Engine::Eval)),
                    // Past its budget: run it again, natively, from where it started.
                    None => self.native(test),
                }
            }
        }
    }

    fn machine(&mut self) -> &mut Machine<'a> {
        let (p, interrupt) = (self.p, self.interrupt);
        self.eval.get_or_insert_with(|| Machine::new(p, interrupt))
    }

    fn native(&mut self, test: TestId) -> Option<(Outcome, Engine)> {
        if !self.compiled.contains(&test) {
            let mut blocks = self.compiled.clone();
            blocks.push(test);
            self.compile(blocks);
        }
        self.hand_to_jit();
        let outcome = self.jit.as_mut()?.run_block(test)?;
        Some((outcome, Engine::Jit))
    }

    /// Compiles `blocks` (the ones compiled before among them) into a new program, which
    /// takes over the module `var`s where the old one left them.
    fn compile(&mut self, blocks: Vec<TestId>) {
        if self.error.is_some() {
            return;
        }
        match JitProgram::compile(self.p, &blocks, Arc::clone(self.interrupt)) {
            Ok(mut program) => {
                match (&self.jit, self.holder) {
                    (Some(old), Holder::Jit) => program.set_globals(&old.globals()),
                    _ => program.reset_globals(),
                }
                self.jit = Some(program);
                self.compiled = blocks;
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
