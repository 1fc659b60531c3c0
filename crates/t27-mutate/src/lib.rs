//! Mutation testing (`t27 mutate`): small changes to the functions of a checked program
//! (`make.rs`: comparisons and their boundaries, `and`/`or`, `!` removed or added, integer
//! constants one up and one down, guards dropped, returned values replaced, loop bounds
//! moved), each run against the blocks that reach it (`t27_run::Trials`), and the report of
//! which changes no block noticed (`report.rs`). The crate does no I/O.

#![deny(clippy::unwrap_used)]

mod facts;
mod make;
mod ops;
mod report;
mod walk;

pub use make::{Kind, Mutant, mutants};
pub use report::{ModuleScore, Report};

use std::time::Duration;
use t27_check::{Checked, ModuleFault, module_faults};
use t27_ir::ModuleId;
use t27_run::{Engine, Trials};

/// What a block may take against a mutant beyond [`Trials::TIME_FACTOR`] times its own time
/// unchanged: what `t27 mutate` gives.
pub const MUTANT_BUDGET: Duration = Duration::from_millis(200);

/// The requested modules mutants are made of: those that, with every module they import,
/// have no error; and the others, each with why it is left out.
pub struct Modules {
    pub sound: Vec<ModuleId>,
    pub skipped: Vec<(ModuleId, ModuleFault)>,
}

impl Modules {
    pub fn of(checked: &Checked) -> Modules {
        let p = &*checked.program;
        let faults = module_faults(checked);
        let mut modules = Modules {
            sound: Vec::new(),
            skipped: Vec::new(),
        };
        for (i, fault) in faults.into_iter().enumerate() {
            let m = ModuleId(i as u32);
            match fault {
                _ if !p.modules[i].requested => {}
                None => modules.sound.push(m),
                Some(f) => modules.skipped.push((m, f)),
            }
        }
        modules
    }
}

/// Makes the mutants of every function of `modules` (sound ones: see [`Modules`]) and runs
/// the blocks of those modules against each (`timeout`: the budget of each block unchanged;
/// `budget`: what a block may take against a mutant beyond ten times that,
/// [`MUTANT_BUDGET`] for `t27 mutate`).
pub fn run(
    checked: &Checked,
    modules: &[ModuleId],
    engine: Engine,
    timeout: Duration,
    budget: Duration,
) -> Report {
    let p = &*checked.program;
    let mutants = mutants(p, &checked.sources, modules);
    let mut trials = Trials::new(checked, modules, engine, timeout);
    trials.budget = budget;
    let verdicts = trials.run_changes(mutants.len(), &|i| {
        (mutants[i].apply(p), mutants[i].function)
    });
    Report {
        mutants,
        verdicts,
        failing: trials.failing(),
        modules: modules.to_vec(),
    }
}
