//! LANGUAGE.md 9.6: the owner's compiler decides an `invariant` while it compiles, so an
//! invariant may not write a module `var`, not even in a function it calls: such a file is
//! refused there. t27 runs invariants with the tests (for pure code the verdict is the same)
//! and refuses the same invariants, with E2030 at the write or at the call that leads to one.
//!
//! Both ways of lowering a block give the same error: `t27 check` finds an invariant's own
//! writes and calls as it lowers the block ([`Reach::of`]) and follows the calls once every
//! function is lowered; the runner, lowering a block to run, has the functions already.

use std::collections::HashMap;
use t27_diag::{Code, Diagnostic, Span};
use t27_ir::{
    Block, Body, Expr, ExprKind, FnId, GlobalId, Part, Program, StmtKind, TestId, TestKind,
};

/// What an invariant's body does that can write a module `var`: its own first write, and
/// the functions it calls (each once, at its first call).
#[derive(Debug, Clone, Default)]
pub(crate) struct Reach {
    write: Option<(GlobalId, Span)>,
    calls: Vec<(FnId, Span)>,
}

impl Reach {
    pub(crate) fn of(body: &Body) -> Reach {
        let mut reach = Reach::default();
        block(&body.block, &mut reach);
        reach
    }
}

fn block(b: &Block, reach: &mut Reach) {
    for s in &b.stmts {
        if let StmtKind::Assign { place, .. } = &s.kind
            && let Some(g) = root_global(place)
        {
            reach.write.get_or_insert((g, place.span));
        }
        s.for_each_part(&mut |part| match part {
            Part::Expr(e) => expr(e, reach),
            Part::Block(b) => block(b, reach),
        });
    }
}

fn expr(e: &Expr, reach: &mut Reach) {
    match &e.kind {
        ExprKind::Call(f, _) if !reach.calls.iter().any(|(g, _)| g == f) => {
            reach.calls.push((*f, e.span));
        }
        // `&G` lent as a `[]u8`: the callee may write through it.
        ExprKind::View(place) => {
            if let Some(g) = root_global(place) {
                reach.write.get_or_insert((g, e.span));
            }
        }
        _ => {}
    }
    e.for_each_child(&mut |x| expr(x, reach));
}

/// The module `var` a place is part of (`G`, `G[i]`, `G.f`).
fn root_global(place: &Expr) -> Option<GlobalId> {
    match &place.kind {
        ExprKind::Global(g) => Some(*g),
        ExprKind::Field(base, _) | ExprKind::Index(base, _) => root_global(base),
        _ => None,
    }
}

/// For each function looked at: the write it makes or leads to, with the chain of calls
/// that leads there (`None`: it writes nothing).
#[derive(Default)]
pub(crate) struct Writers {
    known: HashMap<FnId, Option<Found>>,
    /// What functions whose bodies the program does not hold do (`t27 check` keeps none).
    reach: HashMap<FnId, Reach>,
}

#[derive(Clone)]
struct Found {
    global: GlobalId,
    /// The write, in the last function of `through`.
    at: Span,
    /// The functions called on the way, the first one first.
    through: Vec<FnId>,
}

impl Writers {
    /// What function `f` does, where the program does not hold its body.
    pub(crate) fn know(&mut self, f: FnId, reach: Reach) {
        self.reach.insert(f, reach);
    }

    fn reach_of(&self, p: &Program, f: FnId) -> Reach {
        match self.reach.get(&f) {
            Some(reach) => reach.clone(),
            None => Reach::of(&p.functions[f.index()].body),
        }
    }

    /// E2030 for test `t` when it is an invariant whose body (`reach`) writes a module `var`.
    pub(crate) fn error(&mut self, p: &Program, t: TestId, reach: &Reach) -> Option<Diagnostic> {
        let test = &p.tests[t.index()];
        if test.kind != TestKind::Invariant {
            return None;
        }
        let file = p.modules[test.decl.module.index()].file;
        let name = &test.decl.name;
        let help = "make it a `test` (tests run at run time and may change module `var`s), or compute with local `var`s";
        let note = "the owner's compiler decides invariants while it compiles, where no module `var` can change (LANGUAGE.md 9.6)";
        if let Some((g, at)) = reach.write {
            let var = &p.globals[g.index()].decl.name;
            return Some(
                Diagnostic::new(
                    Code("E2030"),
                    file,
                    at,
                    format!("invariant `{name}` writes the module `var` `{var}`"),
                )
                .with_label("written here")
                .with_note(note)
                .with_help(help),
            );
        }
        for (f, call) in &reach.calls {
            let Some(found) = self.writes(p, *f) else {
                continue;
            };
            let var = &p.globals[found.global.index()].decl.name;
            let chain: Vec<String> = found
                .through
                .iter()
                .map(|f| format!("`{}`", p.functions[f.index()].decl.name))
                .collect();
            let last = *found.through.last().unwrap_or(f);
            let last_file = p.modules[p.functions[last.index()].decl.module.index()].file;
            return Some(
                Diagnostic::new(
                    Code("E2030"),
                    file,
                    *call,
                    format!("invariant `{name}` writes the module `var` `{var}` through a call"),
                )
                .with_label(format!(
                    "calls {}, which writes `{var}`",
                    chain.join(", which calls ")
                ))
                .with_secondary(last_file, found.at, format!("`{var}` is written here"))
                .with_note(note)
                .with_help(help),
            );
        }
        None
    }

    /// The write function `f` makes or leads to, first found in the order of its body. The
    /// walk keeps its own stack: a chain of calls may be as long as a spec makes it.
    fn writes(&mut self, p: &Program, f: FnId) -> Option<Found> {
        if let Some(known) = self.known.get(&f) {
            return known.clone();
        }
        // A function is known to write nothing until found otherwise: a call back to one on
        // the stack adds nothing it does not do itself.
        self.known.insert(f, None);
        let mut stack = vec![(f, self.reach_of(p, f), 0)];
        // What the callee just taken off the stack writes, through it.
        let mut from_callee: Option<Found> = None;
        while let Some((g, reach, next)) = stack.last_mut() {
            let g = *g;
            let found = match (from_callee.take(), reach.write) {
                (Some(mut found), _) => {
                    found.through.insert(0, g);
                    Some(found)
                }
                (None, Some((global, at))) => Some(Found {
                    global,
                    at,
                    through: vec![g],
                }),
                (None, None) => match reach.calls.get(*next) {
                    Some(&(callee, _)) => {
                        *next += 1;
                        match self.known.get(&callee) {
                            Some(known) => from_callee = known.clone(),
                            None => {
                                self.known.insert(callee, None);
                                let reach = self.reach_of(p, callee);
                                stack.push((callee, reach, 0));
                            }
                        }
                        continue;
                    }
                    // Every call looked at: `g` writes nothing.
                    None => None,
                },
            };
            stack.pop();
            if let Some(found) = found {
                self.known.insert(g, Some(found.clone()));
                from_callee = Some(found);
            }
        }
        self.known.get(&f).cloned().flatten()
    }
}
