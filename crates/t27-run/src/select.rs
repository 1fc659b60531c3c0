//! Which blocks were asked for, and which of them can run.

use t27_check::{Blocker, Checked, Isolation};
use t27_ir::{ItemRef, ModuleId, TestId};

/// The requested blocks of one module, in declaration order.
pub struct Selected {
    pub module: ModuleId,
    /// Each block, with why it cannot run when something it reaches has an error (see
    /// `t27_check::Isolation`). Known only when the program was checked with its blocks
    /// (`t27_check::check`, as `t27 test --list` does); otherwise `None` here, and the runner
    /// finds each block's blocker as it lowers it.
    pub blocks: Vec<(TestId, Option<Blocker>)>,
}

/// The requested modules, in order, with the blocks whose `module::name` contains `filter`
/// (or equals it, with `exact`).
pub fn select(checked: &Checked, filter: Option<&str>, exact: bool) -> Vec<Selected> {
    let p = &checked.program;
    let mut isolation = Isolation::new(checked);
    p.modules
        .iter()
        .enumerate()
        .filter(|(_, m)| m.requested)
        .map(|(i, m)| {
            let blocks = m
                .items
                .iter()
                .filter_map(|it| match it {
                    ItemRef::Test(t) => Some(*t),
                    _ => None,
                })
                .filter(|t| {
                    let full = format!("{}::{}", m.name, p.tests[t.index()].decl.name);
                    match filter {
                        None => true,
                        Some(f) if exact => full == f,
                        Some(f) => full.contains(f),
                    }
                })
                .map(|t| {
                    let blocker = if checked.blocks_checked {
                        isolation.blocker(t)
                    } else {
                        None
                    };
                    (t, blocker)
                })
                .collect();
            Selected {
                module: ModuleId(i as u32),
                blocks,
            }
        })
        .filter(|s| !s.blocks.is_empty() || filter.is_none())
        .collect()
}
