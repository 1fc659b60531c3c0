//! The reference evaluator: runs `test` and `invariant` blocks by walking the typed IR.
//!
//! It defines what a t27 program means at run time (integer traps, evaluation order, the
//! values an assert failure shows), so the JIT is checked against it block by block. It does
//! no I/O; a block that runs too long is stopped through the `interrupt` flag that the caller
//! raises from a watchdog.

#![deny(clippy::unwrap_used)]

mod fast;
mod interp;
mod ops;
mod value;

pub use interp::{Machine, Watch};
pub use value::Rt;
