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
use t27_check::Checked;
use t27_ir::ModuleId;
use t27_run::{Engine, Trials};

/// What a block may take against a mutant beyond [`Trials::TIME_FACTOR`] times its own time
/// unchanged: what `t27 mutate` gives.
pub const MUTANT_BUDGET: Duration = Duration::from_millis(200);

/// Makes the mutants of every function of the requested modules and runs the blocks of
/// those modules against each (`timeout`: the budget of each block unchanged; `budget`: what
/// a block may take against a mutant beyond ten times that, [`MUTANT_BUDGET`] for
/// `t27 mutate`). The program must have no errors.
pub fn run(checked: &Checked, engine: Engine, timeout: Duration, budget: Duration) -> Report {
    let p = &*checked.program;
    let requested: Vec<ModuleId> = (0..p.modules.len())
        .filter(|&i| p.modules[i].requested)
        .map(|i| ModuleId(i as u32))
        .collect();
    let mutants = mutants(p, &checked.sources, &requested);
    let mut trials = Trials::new(checked, engine, timeout);
    trials.budget = budget;
    let verdicts = trials.run_changes(mutants.len(), &|i| {
        (mutants[i].apply(p), mutants[i].function)
    });
    Report {
        mutants,
        verdicts,
        failing: trials.failing(),
        modules: requested,
    }
}
