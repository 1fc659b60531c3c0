//! The functions of the Rust mirrors, and the program `t27 test --host rust` compiles: every
//! block that would run, with the code it reaches, and a `main` that runs them in order and
//! prints what each ended in (as `js::HOST_RUNNER` does for Node).
//!
//! Not every function can be written in safe Rust with the spec's meaning yet: views of two
//! parts of one array in one call (two mutable borrows of it), and in a mirror a struct of
//! another module. Such a function is listed in the mirror as not mirrored, with why; such a
//! block is not run on the Rust host, with why.

mod emit;
pub(crate) use emit::byte_string;

use crate::js::Site;
use emit::{Emitter, fn_name};
use std::collections::{BTreeMap, BTreeSet};
use t27_diag::Span;
use t27_ir::*;

/// The runtime each Rust mirror with functions embeds as `mod t27_rt`.
const RUNTIME_RS: &str = include_str!("t27_rt.rs");
/// The `main` of the host program.
const HOST_MAIN: &str = include_str!("runner.rs");

/// Why a body cannot be written in Rust yet, if it cannot; `mirror` adds what a mirror file
/// cannot hold (a struct of another module than `home` that it cannot import).
fn why_not(
    p: &Program,
    body: &Body,
    home: ModuleId,
    mirror: bool,
    importable: &dyn Fn(StructId) -> bool,
) -> Option<String> {
    let mut why = None;
    let check_ty = |t: &Ty, why: &mut Option<String>| {
        t.for_each_struct(&mut |s| {
            let st = &p.structs[s.index()];
            if mirror && st.decl.module != home && !importable(s) {
                why.get_or_insert(format!(
                    "it uses the struct `{}` of another module, whose mirror is not generated with this one",
                    st.decl.name
                ));
            }
        });
    };
    for l in &body.locals {
        check_ty(&l.ty, &mut why);
    }
    walk_block(&body.block, &mut |e| {
        check_ty(&e.ty, &mut why);
        if let ExprKind::Call(_, args) = &e.kind {
            // Views of one place are one view; views of two places of one variable would be
            // two mutable borrows of it.
            let mut places: Vec<((bool, u32), String)> = Vec::new();
            for a in args {
                if let (Some(root), ExprKind::View(place)) = (view_root(a), &a.kind) {
                    let key = place_key(place);
                    if places.iter().any(|(r, k)| *r == root && *k != key) {
                        why.get_or_insert(
                            "it passes views of two parts of one array to one call".into(),
                        );
                    }
                    places.push((root, key));
                }
            }
        }
    });
    why
}

/// The variable a `&place` view argument shows: (is a module `var`, its id).
fn view_root(e: &Expr) -> Option<(bool, u32)> {
    fn root(e: &Expr) -> Option<(bool, u32)> {
        match &e.kind {
            ExprKind::Local(id) => Some((false, id.0)),
            ExprKind::Global(id) => Some((true, id.0)),
            ExprKind::Index(b, _) | ExprKind::Field(b, _) => root(b),
            _ => None,
        }
    }
    match &e.kind {
        ExprKind::View(place) => root(place),
        _ => None,
    }
}

/// A place written out, for telling whether two views show the same one.
fn place_key(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Local(id) => format!("l{}", id.0),
        ExprKind::Global(id) => format!("g{}", id.0),
        ExprKind::Field(b, i) => format!("{}.{i}", place_key(b)),
        ExprKind::Index(b, i) => match &i.kind {
            ExprKind::Lit(Value::Int(n)) => format!("{}[{n}]", place_key(b)),
            ExprKind::Local(id) => format!("{}[l{}]", place_key(b), id.0),
            _ => format!("{}[?{}]", place_key(b), i.span.start),
        },
        _ => "?".into(),
    }
}

fn walk_block(b: &Block, f: &mut dyn FnMut(&Expr)) {
    for s in &b.stmts {
        s.for_each_part(&mut |part| match part {
            Part::Expr(e) => walk_expr(e, f),
            Part::Block(b) => walk_block(b, f),
        });
    }
}

fn walk_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    e.for_each_child(&mut |x| walk_expr(x, f));
}

/// The functions a body reaches, each once, and the module `var`s and structs they and the
/// body use.
#[derive(Default)]
struct Reached {
    functions: BTreeSet<FnId>,
    globals: BTreeSet<u32>,
    structs: BTreeSet<u32>,
}

impl Reached {
    fn add(&mut self, p: &Program, body: &Body) {
        let mut work = Vec::new();
        let note = |r: ItemRef, this: &mut Reached, work: &mut Vec<FnId>| match r {
            ItemRef::Fn(f) if this.functions.insert(f) => work.push(f),
            ItemRef::Global(g) => {
                this.globals.insert(g.0);
            }
            ItemRef::Struct(s) => {
                this.structs.insert(s.0);
            }
            _ => {}
        };
        body.for_each_reference(&mut |r| note(r, self, &mut work));
        while let Some(f) = work.pop() {
            let func = &p.functions[f.index()];
            func.ret.for_each_struct(&mut |s| {
                self.structs.insert(s.0);
            });
            func.body
                .for_each_reference(&mut |r| note(r, self, &mut work));
        }
    }

    /// Why the reached code cannot be written in Rust, if it cannot.
    fn why_not(
        &self,
        p: &Program,
        home: ModuleId,
        mirror: bool,
        importable: &dyn Fn(StructId) -> bool,
    ) -> Option<String> {
        self.functions.iter().find_map(|f| {
            let func = &p.functions[f.index()];
            why_not(p, &func.body, home, mirror, importable).map(|why| {
                if func.decl.module == home {
                    format!("`{}`: {why}", func.decl.name)
                } else {
                    format!(
                        "`{}::{}`: {why}",
                        p.modules[func.decl.module.index()].name,
                        func.decl.name
                    )
                }
            })
        })
    }
}

/// The functions of module `m` for its Rust mirror (after its constants and structs): the
/// runtime, the module `var`s and private structs they use, and each function that can be
/// written in Rust (`pub` when the spec's is; what it calls in other modules private); a
/// comment for each other, with why.
///
/// With `tests` (the module's blocks, lowered), they follow as `#[test]`s in a `#[cfg(test)]`
/// module, with what they reach.
pub(crate) fn mirror_functions(
    p: &Program,
    m: ModuleId,
    place: &dyn Fn(ModuleId, Span) -> String,
    tests: &[(TestId, &Body)],
    mirror_of: &dyn Fn(ModuleId) -> Option<String>,
) -> String {
    let module = &p.modules[m.index()];
    // Another module's public struct is named through that module's mirror, when it is
    // generated alongside and no struct of this module has its name.
    let own_names: BTreeSet<&str> = p
        .structs
        .iter()
        .filter(|s| s.decl.module == m)
        .map(|s| s.decl.name.as_str())
        .collect();
    let import = |s: StructId| -> Option<String> {
        let st = &p.structs[s.index()];
        if st.decl.module == m || !st.decl.is_pub || own_names.contains(st.decl.name.as_str()) {
            return None;
        }
        let path = mirror_of(st.decl.module)?;
        Some(format!("{path}::{}", crate::names::rust(&st.decl.name)))
    };
    let importable = |s: StructId| import(s).is_some();
    let mut reached = Reached::default();
    let mut skipped = Vec::new();
    for item in &module.items {
        let ItemRef::Fn(f) = item else { continue };
        let func = &p.functions[f.index()];
        let mut one = Reached::default();
        one.functions.insert(*f);
        one.add(p, &func.body);
        match one.why_not(p, m, true, &importable) {
            None => {
                reached.functions.extend(one.functions);
                reached.globals.extend(one.globals);
                reached.structs.extend(one.structs);
            }
            Some(why) => skipped.push(format!(
                "// not mirrored: {} ({why}; not written in Rust yet)\n",
                crate::signature(p, func)
            )),
        }
    }
    let mut tested = Vec::new();
    for (t, body) in tests {
        let mut one = Reached::default();
        one.add(p, body);
        let why =
            why_not(p, body, m, true, &importable).or_else(|| one.why_not(p, m, true, &importable));
        let name = &p.tests[t.index()].decl.name;
        match why {
            None => {
                reached.functions.extend(one.functions);
                reached.globals.extend(one.globals);
                reached.structs.extend(one.structs);
                tested.push((*t, *body));
            }
            Some(why) => skipped.push(format!(
                "// not tested here: {name} ({why}; not written in Rust yet)\n"
            )),
        }
    }
    let mut out = String::new();
    if !reached.functions.is_empty() || !tested.is_empty() {
        let mut e = Emitter::new(p, m, place);
        e.named_consts = true;
        out.push_str("\n// The functions, with the engines' meaning: a trap panics with its kind and place.\n");
        for s in &reached.structs {
            if let Some(path) = import(StructId(*s)) {
                out.push_str(&format!("#[allow(unused_imports)]\nuse {path};\n"));
            }
        }
        out.push_str(&runtime());
        structs(
            &mut e,
            &reached,
            |s| s.decl.module == m && !s.decl.is_pub,
            false,
        );
        globals(&mut e, &reached);
        for f in &reached.functions {
            e.out.push('\n');
            if p.functions[f.index()].decl.module == m {
                doc(&mut e.out, &p.functions[f.index()].decl.doc);
            }
            let name = fn_name(p, &e.prefixes, m, *f);
            e.function(*f, &name);
            let func = &p.functions[f.index()];
            if func.decl.module == m && func.decl.is_pub && takes_views(func) {
                e.view_wrapper(*f);
            }
        }
        if !tested.is_empty() {
            test_module(&mut e, &reached, &tested);
        }
        out.push_str(&e.out);
    }
    if !skipped.is_empty() {
        out.push('\n');
        out.push_str(&skipped.concat());
    }
    out
}

/// The blocks as `#[test]`s, one a block, each from the declared module `var`s.
fn test_module(e: &mut Emitter, reached: &Reached, tested: &[(TestId, &Body)]) {
    let p = e.p;
    let mut code = std::mem::take(&mut e.out);
    code.push_str("\n#[cfg(test)]\nmod t27_tests {\n    use super::*;\n");
    for s in &reached.structs {
        let st = &p.structs[*s as usize];
        let parts: Vec<String> = st
            .fields
            .iter()
            .map(|f| format!("t27_rt::Show::show(&self.{})", crate::names::rust(&f.name)))
            .collect();
        code.push_str(&format!(
            "    impl t27_rt::Show for {} {{\n        fn show(&self) -> String {{\n            t27_rt::parts(&[{}])\n        }}\n    }}\n",
            crate::names::rust(&st.decl.name),
            parts.join(", ")
        ));
    }
    let names: Vec<String> = tested
        .iter()
        .map(|(t, _)| crate::names::rust(&p.tests[t.index()].decl.name))
        .collect();
    for ((t, body), name) in tested.iter().zip(&names) {
        e.out.clear();
        e.block(
            p.tests[t.index()].decl.module,
            body,
            &format!("block_{}", name.trim_start_matches("r#")),
        );
        code.push('\n');
        code.push_str(&e.out);
    }
    let budget =
        "t27_rt::start(Some(std::time::Instant::now() + std::time::Duration::from_secs(10)));";
    // Every block starts from the declared module `var`s (LANGUAGE.md 17.1): a test's thread
    // starts with them, and `reset` says so where a test harness reuses threads.
    let fresh = if reached.globals.is_empty() {
        ""
    } else {
        code.push_str(&reset_fn(e, reached, "    "));
        "\n        reset();"
    };
    for name in &names {
        let bare = name.trim_start_matches("r#");
        code.push_str(&format!(
            "\n    #[test]\n    fn {name}() {{\n        {budget}{fresh}\n        block_{bare}();\n    }}\n"
        ));
    }
    code.push_str("}\n");
    e.out = code;
}

/// Whether a function has a `[]u8` parameter (its body takes `&[Cell<u8>]`; hosts call a
/// wrapper that takes `&mut [u8]`).
pub(crate) fn takes_views(f: &Function) -> bool {
    f.params
        .iter()
        .any(|l| f.body.locals[l.index()].ty == Ty::MutSlice)
}

fn doc(out: &mut String, doc: &Option<String>) {
    if let Some(d) = doc {
        for line in d.lines() {
            let pad = if line.is_empty() { "" } else { " " };
            out.push_str(&format!("///{pad}{line}\n"));
        }
    }
}

fn runtime() -> String {
    let mut out = String::from("#[allow(dead_code, clippy::all)]\nmod t27_rt {\n");
    for line in RUNTIME_RS.lines() {
        if line.is_empty() {
            out.push('\n');
        } else {
            out.push_str("    ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str("}\n");
    out
}

/// Struct definitions for the reached structs `which` says to define (`show`: with the
/// `Show` the host program prints failure values with).
fn structs(e: &mut Emitter, reached: &Reached, which: impl Fn(&Struct) -> bool, show: bool) {
    let p = e.p;
    for s in &reached.structs {
        let st = &p.structs[*s as usize];
        if !which(st) {
            continue;
        }
        let name = crate::names::rust(&st.decl.name);
        let fields: String = st
            .fields
            .iter()
            .map(|f| {
                format!(
                    "    pub {}: {},\n",
                    crate::names::rust(&f.name),
                    e.ty(&f.ty)
                )
            })
            .collect();
        let copy = if crate::js::holds_str(p, &Ty::Struct(StructId(*s))) {
            ""
        } else {
            " Copy,"
        };
        e.out.push_str(&format!(
            "\n#[allow(non_camel_case_types, dead_code)]\n#[derive(Debug, Clone,{copy} PartialEq)]\npub struct {name} {{\n{fields}}}\n"
        ));
        if show {
            let parts: Vec<String> = st
                .fields
                .iter()
                .map(|f| format!("t27_rt::Show::show(&self.{})", crate::names::rust(&f.name)))
                .collect();
            e.out.push_str(&format!(
                "impl t27_rt::Show for {name} {{\n    fn show(&self) -> String {{\n        t27_rt::parts(&[{}])\n    }}\n}}\n",
                parts.join(", ")
            ));
        }
    }
}

/// The module `var`s, each a thread-local starting at its initial value.
fn globals(e: &mut Emitter, reached: &Reached) {
    let p = e.p;
    for g in &reached.globals {
        let v = &p.globals[*g as usize];
        let init = e.declared(v);
        let ty = e.ty(&v.ty);
        e.out.push_str(&format!(
            "\nthread_local! {{\n    // var {}\n    #[allow(unused_parens)]\n    static G{g}: std::cell::RefCell<{ty}> = std::cell::RefCell::new({init});\n}}\n",
            v.decl.name
        ));
    }
}

/// `reset()`, indented by `indent`, which sets every module `var` the blocks reach to its
/// declared value: run before each block (LANGUAGE.md 17.1).
fn reset_fn(e: &mut Emitter, reached: &Reached, indent: &str) -> String {
    let p = e.p;
    let mut body = String::new();
    for g in &reached.globals {
        let v = &p.globals[*g as usize];
        let init = e.declared(v);
        body.push_str(&format!("{indent}    G{g}.set({init});\n"));
    }
    format!("\n{indent}#[allow(unused_parens)]\n{indent}pub fn reset() {{\n{body}{indent}}}\n")
}

/// The host program for `blocks` (per module, lowered), the places its traps and asserts
/// name, and the blocks it leaves out with why.
pub fn rust_host_program(
    p: &Program,
    blocks: &BTreeMap<ModuleId, Vec<(TestId, &Body)>>,
    place: &dyn Fn(ModuleId, Span) -> String,
) -> (String, BTreeMap<String, Site>, Vec<(TestId, String)>) {
    let mut out = String::from(
        "// The t27 host program of `t27 test --host rust`. Generated by t27. DO NOT EDIT.\n",
    );
    out.push_str(&runtime());
    let mut sites = BTreeMap::new();
    let mut left_out = Vec::new();
    let mut all = Vec::new();
    for (m, blocks) in blocks {
        let mut reached = Reached::default();
        let mut runnable = Vec::new();
        for (t, body) in blocks {
            let mut one = Reached::default();
            one.add(p, body);
            let why = why_not(p, body, *m, false, &|_| true)
                .or_else(|| one.why_not(p, *m, false, &|_| true));
            match why {
                Some(why) => left_out.push((*t, why)),
                None => {
                    reached.functions.extend(one.functions);
                    reached.globals.extend(one.globals);
                    reached.structs.extend(one.structs);
                    runnable.push((*t, *body));
                }
            }
        }
        let mut e = Emitter::new(p, *m, place);
        structs(&mut e, &reached, |_| true, true);
        globals(&mut e, &reached);
        let reset = reset_fn(&mut e, &reached, "");
        e.out.push_str(&reset);
        for f in &reached.functions {
            e.out.push('\n');
            let name = fn_name(p, &e.prefixes, *m, *f);
            e.function(*f, &name);
        }
        for (t, body) in &runnable {
            e.out.push('\n');
            e.block(*m, body, &format!("block{}", t.0));
            all.push(format!("(m{0}::reset, m{0}::block{1}, {1})", m.0, t.0));
        }
        out.push_str(&format!(
            "\n#[allow(dead_code)]\nmod m{} {{\nuse super::t27_rt;\n{}}}\n",
            m.0, e.out
        ));
        sites.extend(e.sites);
    }
    out.push_str(&format!(
        "\n/// Every block, in order, with what sets its module's `var`s to their declared values\n/// and its id.\nconst BLOCKS: &[(fn(), fn(), u32)] = &[{}];\n\n",
        all.join(", ")
    ));
    out.push_str(HOST_MAIN);
    (out, sites, left_out)
}
