//! Which guards the tests reach: probes put into a checked program's function bodies
//! ([`instrument`]), counted by either engine (`t27_run::CoverageRun`), and read back as
//! coverage per module and function, per line and per arm ([`Coverage`]): text, lcov, JSON.
//! The crate does no I/O.

#![deny(clippy::unwrap_used)]

mod instrument;
mod plan;
mod report;

pub use instrument::instrument;
pub use plan::{Arm, ArmCount, Branch, BranchKind, FnPlan, Line, Plan};
pub use report::{BranchCoverage, Coverage, FnCoverage, line_col};
