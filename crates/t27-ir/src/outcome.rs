//! What running a block can end in. Both engines report exactly these, so that their results
//! can be compared block by block.

use t27_diag::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TrapKind {
    Overflow,
    DivisionByZero,
    ShiftTooWide,
    IndexOutOfBounds,
    LossyCast,
    RecursionTooDeep,
}

impl TrapKind {
    /// Every kind, in the order of their codes in native code.
    pub const ALL: [TrapKind; 6] = [
        TrapKind::Overflow,
        TrapKind::DivisionByZero,
        TrapKind::ShiftTooWide,
        TrapKind::IndexOutOfBounds,
        TrapKind::LossyCast,
        TrapKind::RecursionTooDeep,
    ];

    pub fn describe(self) -> &'static str {
        match self {
            TrapKind::Overflow => "integer overflow",
            TrapKind::DivisionByZero => "division by zero",
            TrapKind::ShiftTooWide => "shift by the type's width or more",
            TrapKind::IndexOutOfBounds => "index out of bounds",
            TrapKind::LossyCast => "`as` would lose the value",
            TrapKind::RecursionTooDeep => "recursion too deep",
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            TrapKind::Overflow => "overflow",
            TrapKind::DivisionByZero => "division_by_zero",
            TrapKind::ShiftTooWide => "shift_too_wide",
            TrapKind::IndexOutOfBounds => "index_out_of_bounds",
            TrapKind::LossyCast => "lossy_cast",
            TrapKind::RecursionTooDeep => "recursion_too_deep",
        }
    }
}

/// How deep calls may nest before the block traps with [`TrapKind::RecursionTooDeep`]; the
/// same in both engines. Calls of leaves (functions that call none) do not count: they
/// cannot recurse, and only the calls on the path that does are limited.
pub const MAX_CALL_DEPTH: u32 = 10_000;

/// A run-time value as shown in a failure report, with the type it was computed at.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    Int(i128),
    Bool(bool),
    F64(f64),
    Str(Vec<u8>),
    /// Arrays, tuples and structs, already formatted.
    Other(String),
}

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shown::Int(v) => write!(f, "{v}"),
            Shown::Bool(b) => write!(f, "{b}"),
            Shown::F64(x) => write!(f, "{x:?}"),
            Shown::Str(s) => write!(f, "{}", crate::Value::Str(s.clone())),
            Shown::Other(s) => f.write_str(s),
        }
    }
}

/// How a block ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Pass,
    /// The first false assert: its span and, for a comparison, the values of both sides.
    Fail {
        assert: Span,
        left: Option<Shown>,
        right: Option<Shown>,
    },
    Trap {
        kind: TrapKind,
        span: Span,
    },
    /// Stopped by the time budget.
    Timeout,
}

impl Outcome {
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail { .. } => "fail",
            Outcome::Trap { .. } => "trap",
            Outcome::Timeout => "timeout",
        }
    }
}
