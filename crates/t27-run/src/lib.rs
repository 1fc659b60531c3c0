//! The test runner: which blocks run, on which engine, under which time budget, and what
//! their results look like to people (human text), to tools (JSON lines) and to CI (JUnit).
//!
//! It does no file or terminal I/O: results are handed to a callback as each block finishes,
//! and formatted into strings the CLI prints or writes.

#![deny(clippy::unwrap_used)]

mod ahead;
mod engines;
mod estimate;
mod naming;
mod native;
mod parallel;
mod report;
mod runner;
mod select;
mod trials;
mod watchdog;

pub use report::{human_block, human_summary, json_block, json_summary, junit, outcome_words};
pub use runner::{
    Answers, BlockReport, CoverageRun, Engine, NotRun, Result as BlockResult, RunOptions, Summary,
    run, run_answered,
};
pub use select::{Selected, select};
pub use t27_jit::NativeCode;
pub use trials::{Trials, Verdict};
