//! Which modules can run and which blocks were asked for.

use t27_check::Checked;
use t27_ir::{ItemRef, ModuleId, TestId};

/// The blocks of one module, in declaration order, and whether the module compiled.
pub struct Selected {
    pub module: ModuleId,
    pub blocks: Vec<TestId>,
    /// False when the module, or a module it imports, has an error: its blocks are reported
    /// as not run.
    pub runnable: bool,
}

/// The requested modules, in order, with the blocks whose `module::name` contains `filter`
/// (or equals it, with `exact`).
pub fn select(checked: &Checked, filter: Option<&str>, exact: bool) -> Vec<Selected> {
    let p = &checked.program;
    let broken: Vec<bool> = p
        .modules
        .iter()
        // A false folded assert (E3008) is not a compile error for the runner: its block runs
        // and fails at that assert like any other.
        .map(|m| {
            checked
                .diagnostics
                .iter()
                .any(|d| d.is_error() && d.file == m.file && d.code.as_str() != "E3008")
        })
        .collect();
    let imports: Vec<Vec<usize>> = p
        .modules
        .iter()
        .map(|m| m.imports.iter().map(|i| i.index()).collect())
        .collect();
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
                .collect();
            Selected {
                module: ModuleId(i as u32),
                blocks,
                runnable: !depends_on_broken(i, &imports, &broken),
            }
        })
        .filter(|s| !s.blocks.is_empty() || filter.is_none())
        .collect()
}

fn depends_on_broken(m: usize, imports: &[Vec<usize>], broken: &[bool]) -> bool {
    let mut seen = vec![false; broken.len()];
    let mut stack = vec![m];
    while let Some(x) = stack.pop() {
        if std::mem::replace(&mut seen[x], true) {
            continue;
        }
        if broken[x] {
            return true;
        }
        stack.extend(imports[x].iter().copied());
    }
    false
}
