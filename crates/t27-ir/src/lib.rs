//! The typed intermediate representation (IR) of a checked t27 program.
//!
//! The checker (`t27-check`) lowers the syntax tree to this IR: every name is resolved to an
//! id, every expression carries its type and span, integer literals are fitted to their
//! types, and every constant has its computed [`Value`]. The evaluator, the JIT and the code
//! generators read this IR and nothing else.

#![deny(clippy::unwrap_used)]

mod counters;
mod outcome;
mod program;
mod types;
pub mod undefined;
mod value;
mod walk;

pub use counters::Counters;
pub use outcome::{MAX_CALL_DEPTH, Outcome, Shown, TrapKind};
pub use program::*;
pub use t27_syntax::ast::{BinOp, LocalKind, TestKind, UnOp};
pub use types::{IntTy, Ty};
pub use value::Value;
pub use walk::Part;
