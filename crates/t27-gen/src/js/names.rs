//! The names a JavaScript file gives the spec's declarations and locals.
//!
//! A file holds its own module's functions under their spec names (a reserved word gets a
//! `_`), and the declarations of other modules that they reach as `Module$name`. The file's
//! own bindings start with `$` (`$` is the runtime, `$k3` a constant, `$g0` a module `var`,
//! `$s1` a string), which no spec name can, so only a local named like one of the module's
//! functions needs renaming (`name$7`).

use super::emit::contains_str;
use crate::names::ts_reserved;
use std::collections::HashSet;
use t27_ir::{Body, FnId, ModuleId, Program};

/// Globals the generated code names: a local must not hide them.
const USED_GLOBALS: &[&str] = &[
    "Number",
    "Math",
    "Array",
    "Uint8Array",
    "BigInt",
    "undefined",
    "NaN",
    "Infinity",
];

/// Whether a host's argument of this type is checked by the function's entry (`$.arg`,
/// `$.arg64`, `$.flag`, `$.real`).
pub(crate) fn checked_at_entry(ty: &t27_ir::Ty) -> bool {
    matches!(ty, t27_ir::Ty::Int(_) | t27_ir::Ty::Bool | t27_ir::Ty::F64)
}

pub(crate) struct Names {
    pub structs: Vec<String>,
    /// Per constant: the exported name the code reads it by (a public constant of the home
    /// module without strings, in a mirror), or `None` for a private `$kN`.
    pub consts: Vec<Option<String>>,
    functions: Vec<String>,
    exported: Vec<String>,
    wrapped: Vec<bool>,
    /// The names a local may not take.
    taken: HashSet<String>,
}

fn escape(name: &str) -> String {
    if ts_reserved(name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

impl Names {
    /// The names of a file whose own module is `home`; `exports` when the file exports the
    /// module's public constants (a mirror, not a test file).
    pub fn new(p: &Program, home: ModuleId, exports: bool) -> Names {
        let prefixes = crate::names::module_prefixes(p);
        let qualified = |module: ModuleId, name: &str| {
            if module == home {
                escape(name)
            } else {
                format!("{}${name}", prefixes[module.index()])
            }
        };
        let structs = p
            .structs
            .iter()
            .map(|s| qualified(s.decl.module, &s.decl.name))
            .collect();
        let consts: Vec<Option<String>> = p
            .consts
            .iter()
            .map(|c| {
                let exported = exports
                    && c.decl.module == home
                    && c.decl.is_pub
                    && c.value.is_some()
                    && !contains_str(p, &c.ty);
                exported.then(|| escape(&c.decl.name))
            })
            .collect();
        let mut taken: HashSet<String> = USED_GLOBALS.iter().map(|s| s.to_string()).collect();
        taken.extend(consts.iter().flatten().cloned());
        let mut names = Names {
            structs,
            consts,
            functions: Vec::new(),
            exported: Vec::new(),
            wrapped: Vec::new(),
            taken,
        };
        for f in &p.functions {
            let exported = qualified(f.decl.module, &f.decl.name);
            // The host's entry checks its numbers and flags and converts its strings, and
            // counts a call of a function that calls others against the depth limit, as a
            // spec's own call does.
            let wrapped = f.decl.module == home
                && f.decl.is_pub
                && (f.body.block.makes_calls()
                    || f.params.iter().any(|l| {
                        let ty = &f.body.locals[l.index()].ty;
                        checked_at_entry(ty) || contains_str(p, ty)
                    }));
            let internal = if wrapped {
                format!("{exported}$")
            } else {
                exported.clone()
            };
            names.taken.insert(exported.clone());
            names.functions.push(internal);
            names.exported.push(exported);
            names.wrapped.push(wrapped);
        }
        names
    }

    /// The name the file's code calls a function by.
    pub fn function(&self, id: FnId) -> &str {
        &self.functions[id.index()]
    }

    /// The name a function of the file's own module is exported under.
    pub fn exported(&self, id: FnId) -> &str {
        &self.exported[id.index()]
    }

    /// Whether a function's export is a wrapper in front of its body.
    pub fn wrapped(&self, id: FnId) -> bool {
        self.wrapped[id.index()]
    }

    /// A name for each local of a body: its own, unless another local of the body or a name
    /// the code uses has it.
    pub fn locals(&self, body: &Body) -> Vec<String> {
        let mut seen = HashSet::new();
        body.locals
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let name = escape(&l.name);
                let name = if self.taken.contains(&name) || seen.contains(&name) {
                    format!("{name}${i}")
                } else {
                    name
                };
                seen.insert(name.clone());
                name
            })
            .collect()
    }
}
