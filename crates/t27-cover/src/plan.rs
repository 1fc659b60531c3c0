//! What each counter of an instrumented program counts.

use t27_diag::Span;
use t27_ir::{BinOp, FnId, ModuleId};

#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// How many counters the probes use.
    pub counters: u32,
    pub functions: Vec<FnPlan>,
}

#[derive(Clone, Debug)]
pub struct FnPlan {
    pub function: FnId,
    pub module: ModuleId,
    /// How often it is called.
    pub entry: ArmCount,
    /// Each statement, in source order of where it was written.
    pub lines: Vec<Line>,
    pub branches: Vec<Branch>,
}

#[derive(Clone, Debug)]
pub struct Line {
    pub span: Span,
    /// How often the statement is reached.
    pub count: ArmCount,
    pub is_return: bool,
}

/// A place where the code goes one of several ways, and each way.
#[derive(Clone, Debug)]
pub struct Branch {
    pub kind: BranchKind,
    /// The condition, or the value switched on.
    pub span: Span,
    pub arms: Vec<Arm>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BranchKind {
    /// An `if` statement: `then`, `else` (written or not).
    If,
    /// `if (c) a else b`.
    IfExpression,
    /// A `while` (or `for`) loop: entered, not entered, in each run that reaches it.
    Loop,
    /// A loop's condition: true, false.
    Condition,
    /// An operand of `and` or `or`: true, false.
    Operand(BinOp),
    /// A `switch`: each arm, `else` among them.
    Switch,
}

impl BranchKind {
    pub fn describe(self) -> &'static str {
        match self {
            BranchKind::If => "`if`",
            BranchKind::IfExpression => "`if` expression",
            BranchKind::Loop => "loop",
            BranchKind::Condition => "loop condition",
            BranchKind::Operand(BinOp::And) => "operand of `and`",
            BranchKind::Operand(_) => "operand of `or`",
            BranchKind::Switch => "`switch`",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BranchKind::If => "if",
            BranchKind::IfExpression => "if_expression",
            BranchKind::Loop => "loop",
            BranchKind::Condition => "loop_condition",
            BranchKind::Operand(BinOp::And) => "and_operand",
            BranchKind::Operand(_) => "or_operand",
            BranchKind::Switch => "switch",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Arm {
    /// `then`, `else`, `true`, `false`, `entered`, `not entered`, or a switch arm's patterns.
    pub label: String,
    pub count: ArmCount,
    /// Where the arm is, when it is not the branch's own place: a switch arm's value.
    pub span: Option<Span>,
}

/// How a count is read from the counters: most counts are not counted but follow from
/// others (the statement after an `if` whose `then` always returns is reached as often as the
/// `if`, less its `then`), so that a run adds to as few counters as it can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArmCount {
    Counter(u32),
    /// Never: after a `return`, `break` or `continue`.
    Zero,
    Sum(Box<ArmCount>, Box<ArmCount>),
    /// The first less the second (an `else`: the `if` reached, less its `then`).
    Difference(Box<ArmCount>, Box<ArmCount>),
}

impl ArmCount {
    pub fn read(&self, counts: &[u64]) -> u64 {
        match self {
            ArmCount::Counter(c) => counts.get(*c as usize).copied().unwrap_or(0),
            ArmCount::Zero => 0,
            ArmCount::Sum(a, b) => a.read(counts).saturating_add(b.read(counts)),
            ArmCount::Difference(a, b) => a.read(counts).saturating_sub(b.read(counts)),
        }
    }

    pub fn sum(a: ArmCount, b: ArmCount) -> ArmCount {
        match (a, b) {
            (ArmCount::Zero, x) | (x, ArmCount::Zero) => x,
            (a, b) => ArmCount::Sum(Box::new(a), Box::new(b)),
        }
    }

    pub fn difference(a: ArmCount, b: ArmCount) -> ArmCount {
        match (a, b) {
            (a, ArmCount::Zero) => a,
            (ArmCount::Zero, _) => ArmCount::Zero,
            (a, b) => ArmCount::Difference(Box::new(a), Box::new(b)),
        }
    }
}
