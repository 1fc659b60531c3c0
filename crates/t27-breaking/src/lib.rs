//! `t27 breaking`, pure: the public surface of a checked tree compared with the same tree
//! checked at an earlier revision (or from another folder). The hosts store the spec's codes
//! in databases and on public boards, so a moved code silently changes what every stored row
//! means; this says which changes a host built against the old tree would notice, which
//! break it, and which of those the spec allows (`allow-break` comments, `allow.rs`).
//!
//! `surface.rs` reads what the mirrors export, `compare.rs` finds the changes, `report.rs`
//! renders them (text like diagnostics, with both places; JSON lines).

mod allow;
mod compare;
mod kind;
mod report;
mod surface;

pub use allow::{Allow, Problem};
pub use compare::{Change, Site};
pub use kind::Kind;
pub use report::Names;
pub use surface::{ModuleSurface, surface};

use t27_check::Checked;

/// Everything `t27 breaking` reports.
pub struct Comparison {
    pub changes: Vec<Change>,
    /// The new tree's `allow-break` comments.
    pub allows: Vec<Allow>,
    /// Comments that cannot be read, and kinds they allow that did not change.
    pub problems: Vec<Problem>,
}

impl Comparison {
    /// The breaking changes no comment allows.
    pub fn breaks(&self) -> impl Iterator<Item = &Change> {
        self.changes
            .iter()
            .filter(|c| c.kind.is_breaking() && c.allowed_by.is_none())
    }
    pub fn not_compared(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(|c| c.kind == Kind::NotCompared)
    }
}

/// Compares the requested modules of `new` with those of `old`.
pub fn compare(old: &Checked, new: &Checked) -> Comparison {
    let new_surface = surface(new);
    let mut changes = compare::compare(&surface(old), &new_surface);
    let mut allows = Vec::new();
    let mut problems = Vec::new();
    for m in &new_surface {
        let (a, p) = allow::scan(m, &new.sources.get(m.file).text);
        allows.extend(a);
        problems.extend(p);
    }
    let mut used: Vec<Vec<kind::Kind>> = vec![Vec::new(); allows.len()];
    for c in changes.iter_mut().filter(|c| c.kind.is_breaking()) {
        c.allowed_by = allows.iter().position(|a| allows_change(a, c));
        if let Some(i) = c.allowed_by {
            used[i].push(c.kind);
        }
    }
    for (a, used) in allows.iter().zip(&used) {
        for k in a.kinds.iter().filter(|k| !used.contains(k)) {
            let what = match (k, a.subject()) {
                (Kind::ModuleRemoved, Some(m)) => format!("module `{m}` is still here"),
                (k, _) if k.is_module_kind() => format!("module `{}` did not change so", a.module),
                (_, Some(name)) => format!("`{name}` has no such change"),
                (_, None) => "nothing follows it".to_string(),
            };
            problems.push(Problem {
                file: a.file,
                span: a.span,
                message: format!("`allow-break {}` allows nothing: {what}", k.as_str()),
                help: Some(
                    "remove it once the break has landed: left in, it would allow the next such change unnoticed".into(),
                ),
            });
        }
    }
    problems.sort_by_key(|p| (p.file, p.span.start));
    Comparison {
        changes,
        allows,
        problems,
    }
}

fn allows_change(a: &Allow, c: &Change) -> bool {
    if !a.kinds.contains(&c.kind) {
        return false;
    }
    match c.kind {
        Kind::ModuleRemoved => a.name.as_deref() == Some(&c.module),
        Kind::ModuleMoved | Kind::ModuleRenamed => a.module == c.module,
        _ => a.module == c.module && a.subject() == Some(&c.name),
    }
}
