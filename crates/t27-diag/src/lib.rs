//! The one diagnostic type of t27.
//!
//! Every phase (lexer, parser, resolver, type checker, constant evaluator) reports a
//! [`Diagnostic`]: a stable [`Code`], a severity, a message, labelled byte spans and notes.
//! Only [`render`] knows about ariadne, so the terminal, JSON lines and any later editor
//! integration all read the same structure.

#![deny(clippy::unwrap_used)]

mod codes;
mod diagnostic;
mod json;
mod lines;
mod render;

pub use codes::{CODES, Code, CodeInfo, explain};
pub use diagnostic::{Diagnostic, Edit, FileId, Label, Severity, Span};
pub use json::to_json_line;
pub use lines::LineIndex;
pub use render::{Sources, render, render_snippet};
