//! Structs that hold themselves by value (E2026), and structs nested by value past a depth
//! every later phase can walk (E2027).
//!
//! A struct's value holds its fields' values inline (through arrays and tuples too), so a
//! struct that holds itself would be infinitely large: laying it out, filling it for
//! `undefined`, building its zero value or mirroring its type would never end. Each such field
//! is reported, and its type becomes `Ty::Error` once the walk is done, so the struct types of
//! the program form a finite, acyclic graph for every phase after this one; the error blocks
//! what reaches the struct (`isolate.rs`). The walk is iterative (a chain of 100,000 structs
//! is one loop), and a chain deeper than [`MAX_STRUCT_DEPTH`] is refused at the field that goes
//! past it, because the other phases walk types recursively.

use crate::checker::Checker;
use t27_diag::{Code, Diagnostic};
use t27_ir::{StructId, Ty};

/// How deeply a struct's value may nest: structs holding structs by value, with the arrays
/// and tuples around each.
pub(crate) const MAX_STRUCT_DEPTH: u32 = 256;

/// How deeply `ty` nests arrays and tuples (1 for a type that holds none); a struct counts 1
/// here, its own depth is the walk's business. Types are at most 256 deep (`types.rs`).
fn type_depth(ty: &Ty) -> u32 {
    match ty {
        Ty::Array(elem, _) => 1 + type_depth(elem),
        Ty::Tuple(parts) => 1 + parts.iter().map(type_depth).max().unwrap_or(0),
        _ => 1,
    }
}

/// Each struct named in `ty`, with how many arrays and tuples are around it.
fn structs_in(ty: &Ty, around: u32, f: &mut impl FnMut(StructId, u32)) {
    match ty {
        Ty::Struct(id) => f(*id, around),
        Ty::Array(elem, _) => structs_in(elem, around + 1, f),
        Ty::Tuple(parts) => parts.iter().for_each(|t| structs_in(t, around + 1, f)),
        _ => {}
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    New,
    /// On the walk's stack: an edge back to it closes a cycle.
    Open,
    Done,
}

/// One struct on the walk's stack and the edge of it being followed.
struct Frame {
    id: usize,
    edge: usize,
}

impl Checker {
    /// Reports every field that closes a cycle of structs held by value, or nests values
    /// deeper than [`MAX_STRUCT_DEPTH`], and makes its type `Ty::Error`.
    pub(crate) fn check_struct_cycles(&mut self) {
        let p = &self.program;
        // Per struct: (field, struct it holds by value, the arrays and tuples around that
        // struct in the field's type), each pair once at its deepest.
        let mut edges: Vec<Vec<(usize, usize, u32)>> = Vec::with_capacity(p.structs.len());
        // How deeply a struct's value nests types (itself, arrays, tuples and the structs it
        // holds), as far as known: its own fields' types first.
        let mut depth: Vec<u32> = Vec::with_capacity(p.structs.len());
        for s in &p.structs {
            let mut out: Vec<(usize, usize, u32)> = Vec::new();
            let mut own = 1;
            for (fi, f) in s.fields.iter().enumerate() {
                own = own.max(1 + type_depth(&f.ty));
                structs_in(&f.ty, 0, &mut |t: StructId, around| match out
                    .iter_mut()
                    .find(|e| e.0 == fi && e.1 == t.index())
                {
                    Some(e) => e.2 = e.2.max(around),
                    None => out.push((fi, t.index(), around)),
                });
            }
            edges.push(out);
            depth.push(own);
        }
        let n = edges.len();
        let mut mark = vec![Mark::New; n];
        let mut cut: Vec<(usize, usize)> = Vec::new();
        let mut stack: Vec<Frame> = Vec::new();
        for root in 0..n {
            if mark[root] != Mark::New {
                continue;
            }
            mark[root] = Mark::Open;
            stack.push(Frame { id: root, edge: 0 });
            while let Some(top) = stack.last_mut() {
                let s = top.id;
                let Some(&(field, target, around)) = edges[s].get(top.edge) else {
                    mark[s] = Mark::Done;
                    stack.pop();
                    continue;
                };
                match mark[target] {
                    Mark::New => {
                        // Followed again once the target is done, to take its depth.
                        mark[target] = Mark::Open;
                        stack.push(Frame {
                            id: target,
                            edge: 0,
                        });
                        continue;
                    }
                    Mark::Open => {
                        let from = stack.iter().position(|f| f.id == target).unwrap_or(0);
                        let cycle: Vec<(usize, usize)> = stack[from..]
                            .iter()
                            .map(|f| (f.id, edges[f.id][f.edge].0))
                            .collect();
                        self.report(self.cycle_error(&cycle));
                        cut.push((s, field));
                    }
                    Mark::Done => {
                        let nested = 1 + around + depth[target];
                        if nested > MAX_STRUCT_DEPTH {
                            self.report(self.too_deep_error(s, field));
                            cut.push((s, field));
                        } else {
                            depth[s] = depth[s].max(nested);
                        }
                    }
                }
                if let Some(top) = stack.last_mut() {
                    top.edge += 1;
                }
            }
        }
        if cut.is_empty() {
            return;
        }
        let p = self.program_mut();
        for (s, field) in cut {
            p.structs[s].fields[field].ty = Ty::Error;
        }
    }

    /// E2026 for a cycle, given as the (struct, field) steps from the struct met again; the
    /// last step is the field that closes it, where the error is.
    fn cycle_error(&self, cycle: &[(usize, usize)]) -> Diagnostic {
        let p = &self.program;
        let step = |&(s, f): &(usize, usize)| {
            let st = &p.structs[s];
            (st, &st.fields[f])
        };
        let name = |s: usize| p.structs[s].decl.name.as_str();
        let mut shown: Vec<String> = cycle
            .iter()
            .map(|&(s, f)| format!("{}.{}", name(s), p.structs[s].fields[f].name))
            .collect();
        shown.push(name(cycle[0].0).to_string());
        let shown = shown.join(" -> ");
        let start = name(cycle[0].0);
        let last = cycle[cycle.len() - 1];
        let (closing, field) = step(&last);
        let file = self.file_of(closing.decl.module);
        let mut d = Diagnostic::new(
            Code("E2026"),
            file,
            field.span,
            format!("struct `{start}` contains itself by value: {shown}"),
        )
        .with_label(format!(
            "`{}.{}` holds `{start}` by value, closing the cycle",
            closing.decl.name, field.name
        ));
        for (i, other) in cycle[..cycle.len() - 1].iter().enumerate() {
            let (st, f) = step(other);
            let holds = name(cycle[i + 1].0);
            d = d.with_secondary(
                self.file_of(st.decl.module),
                f.span,
                format!("`{}.{}` holds `{holds}` by value", st.decl.name, f.name),
            );
        }
        d.with_note(
            "a struct holds its fields' values in place, so one that holds itself would never end",
        )
        .with_help("keep the parts in an array of their own and refer to them by index")
    }

    /// E2027 at a field that nests values deeper than [`MAX_STRUCT_DEPTH`].
    fn too_deep_error(&self, s: usize, field: usize) -> Diagnostic {
        let st = &self.program.structs[s];
        let f = &st.fields[field];
        Diagnostic::new(
            Code("E2027"),
            self.file_of(st.decl.module),
            f.span,
            format!(
                "`{}.{}` nests values more than {MAX_STRUCT_DEPTH} deep",
                st.decl.name, f.name
            ),
        )
        .with_label(format!(
            "more than {MAX_STRUCT_DEPTH} structs, arrays and tuples, one inside the next"
        ))
        .with_help("flatten the structs: hold the inner parts side by side")
    }
}
