//! The JIT: every function and every test and invariant block of a checked program compiled
//! to native code with Cranelift, and called through `extern "C"` entry points.
//!
//! Traps are explicit checks in the generated code that record the trap in the context and
//! return; a caller returns as soon as a callee has stopped the block. Nothing raises a
//! signal or unwinds. Loops and calls poll an interrupt flag, so a block that runs too long
//! is stopped by the runner's watchdog.

mod arith;
mod compiler;
mod counting;
mod expr;
mod inline;
mod layout;
mod lookup;
mod loops;
mod memory;
mod runtime;
mod select;
mod switch;
mod table;
mod translate;
mod unroll;

pub use compiler::{JitError, JitProgram, NativeCode};
