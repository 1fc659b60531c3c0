//! The JavaScript and TypeScript mirrors: a module's constants and functions, and its test
//! and invariant blocks as a test file; the runtime they share (`t27_runtime.js`, with its
//! `.d.ts`); and the program `t27 test --host` runs them with.
//!
//! Each file holds everything its functions reach, from any module (what another module
//! contributes is private, named `Module$name`), so a file works alone beside the runtime.

mod emit;
mod names;
mod types;
mod values;

pub use emit::Site;

use crate::ts;
use emit::Emitter;
use names::Names;
use std::collections::{BTreeMap, BTreeSet};
use t27_diag::Span;
use t27_ir::{Body, FnId, ItemRef, ModuleId, Program, TestId};

/// The runtime every mirror with functions imports, as a file beside them.
pub const RUNTIME_JS: &str = include_str!("t27_runtime.js");
/// The runtime's types (TypeScript hosts and JavaScript hosts with types read these).
pub const RUNTIME_DTS: &str = include_str!("t27_runtime.d.ts");
/// The program `t27 test --host js|ts` runs: `node runner.mjs TIMEOUT_MS FILE...`.
pub const HOST_RUNNER: &str = include_str!("runner.mjs");

/// The runtime's file name, for imports and for writing it out.
pub const RUNTIME_FILE: &str = "t27_runtime.js";
pub const RUNTIME_DTS_FILE: &str = "t27_runtime.d.ts";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    TypeScript,
    JavaScript,
}

/// What a file needs besides its text: where it is in the output folder (the runtime's
/// import is relative to it) and how to name a place in the spec.
pub struct FileContext<'a> {
    /// `../` once per folder between the file and the output folder.
    pub up: String,
    /// `queen/dispatch.t27:12:8-12:19` for a span of a module.
    pub place: &'a dyn Fn(ModuleId, Span) -> String,
}

/// A generated file and the places its traps and asserts name.
pub struct JsFile {
    pub text: String,
    pub sites: BTreeMap<String, Site>,
}

/// Everything a set of roots reaches, each once.
#[derive(Default)]
struct Reached {
    functions: BTreeSet<FnId>,
    consts: BTreeSet<u32>,
    globals: BTreeSet<u32>,
    structs: BTreeSet<u32>,
}

impl Reached {
    /// What a block's body reaches.
    fn body(&mut self, p: &Program, body: &Body) {
        let mut work = Vec::new();
        body.for_each_reference(&mut |r| self.item(r, &mut work));
        self.follow(p, work);
    }

    /// A function and what it reaches.
    fn function(&mut self, p: &Program, f: FnId) {
        let mut work = Vec::new();
        self.item(ItemRef::Fn(f), &mut work);
        self.follow(p, work);
    }

    fn follow(&mut self, p: &Program, mut work: Vec<FnId>) {
        while let Some(f) = work.pop() {
            let func = &p.functions[f.index()];
            func.ret.for_each_struct(&mut |s| {
                self.structs.insert(s.0);
            });
            func.body
                .for_each_reference(&mut |r| self.item(r, &mut work));
        }
    }

    fn item(&mut self, r: ItemRef, work: &mut Vec<FnId>) {
        match r {
            ItemRef::Fn(f) => {
                if self.functions.insert(f) {
                    work.push(f);
                }
            }
            ItemRef::Const(c) => {
                self.consts.insert(c.0);
            }
            ItemRef::Global(g) => {
                self.globals.insert(g.0);
            }
            ItemRef::Struct(s) => {
                self.structs.insert(s.0);
            }
            ItemRef::Test(_) => {}
        }
    }
}

/// The mirror of module `m`: its public constants and every function, public ones exported.
pub fn js_module(
    p: &Program,
    m: ModuleId,
    flavor: Flavor,
    spec_name: &str,
    source: &str,
    cx: &FileContext,
) -> String {
    let module = &p.modules[m.index()];
    let typed = flavor == Flavor::TypeScript;
    let mut out = crate::header(spec_name, source);
    let own = own_functions(p, m);
    out.push_str(&format!(
        "// The constants{} of the t27 module `{}`.\n",
        if own.is_empty() { "" } else { " and functions" },
        module.name
    ));
    let mut reached = Reached::default();
    for f in &own {
        reached.function(p, *f);
    }
    for item in &module.items {
        if let ItemRef::Struct(s) = item {
            reached.structs.insert(s.0);
        }
    }
    if !reached.functions.is_empty() {
        out.push_str(&format!(
            "import * as $ from \"{}{RUNTIME_FILE}\";\n",
            cx.up
        ));
    }
    out.push_str(&ts::constants(p, module, typed));
    let names = Names::new(p, m, true);
    let mut e = Emitter::new(p, typed, &names, cx.place);
    let mut functions = String::new();
    // The module's own functions first, in source order; then what they reach elsewhere.
    for f in own
        .iter()
        .chain(reached.functions.iter().filter(|f| !own.contains(f)))
    {
        let export = p.functions[f.index()].decl.module == m && p.functions[f.index()].decl.is_pub;
        e.out.push('\n');
        e.function(*f, export);
        functions.push_str(&std::mem::take(&mut e.out));
    }
    let support = support(&mut e, &reached, m, typed);
    out.push_str(&support);
    out.push_str(&functions);
    out
}

/// The `.d.ts` beside a JavaScript mirror: the types of its constants and functions.
pub fn dts_module(
    p: &Program,
    m: ModuleId,
    spec_name: &str,
    source: &str,
    cx: &FileContext,
) -> String {
    let module = &p.modules[m.index()];
    let mut out = crate::header(spec_name, source);
    out.push_str(&format!(
        "// The types of the JavaScript mirror of the t27 module `{}`.\n",
        module.name
    ));
    let own = own_functions(p, m);
    let exported: Vec<FnId> = own
        .iter()
        .copied()
        .filter(|f| p.functions[f.index()].decl.is_pub)
        .collect();
    let mut reached = Reached::default();
    for f in &exported {
        reached.function(p, *f);
    }
    for item in &module.items {
        if let ItemRef::Struct(s) = item {
            reached.structs.insert(s.0);
        }
    }
    if !reached.structs.is_empty() || !exported.is_empty() {
        out.push_str(&format!(
            "import type * as $ from \"{}{RUNTIME_FILE}\";\n",
            cx.up
        ));
    }
    out.push_str(&types::constants(p, module));
    let names = Names::new(p, m, true);
    let e = Emitter::new(p, true, &names, cx.place);
    out.push_str(&interfaces(&e, &reached, m));
    for f in exported {
        let func = &p.functions[f.index()];
        out.push('\n');
        doc(&mut out, &func.decl.doc);
        out.push_str(&format!(
            "export declare function {};\n",
            e.host_signature(f)
        ));
    }
    out
}

fn own_functions(p: &Program, m: ModuleId) -> Vec<FnId> {
    p.modules[m.index()]
        .items
        .iter()
        .filter_map(|i| match i {
            ItemRef::Fn(f) => Some(*f),
            _ => None,
        })
        .collect()
}

/// A test file for the blocks `blocks` of module `m`, lowered (`bodies`): each block as an
/// entry of `blocks` (its id, its name `Module::block`, and a function that runs it), with
/// everything they reach; run with `node --test`, every block is a `node:test` test.
pub fn js_tests(
    p: &Program,
    m: ModuleId,
    flavor: Flavor,
    spec_name: &str,
    source: &str,
    blocks: &[(TestId, &Body)],
    cx: &FileContext,
) -> JsFile {
    let module = &p.modules[m.index()];
    let typed = flavor == Flavor::TypeScript;
    let mut out = crate::header(spec_name, source);
    out.push_str(&format!(
        "// The test and invariant blocks of the t27 module `{}`, with the code they reach.\n",
        module.name
    ));
    out.push_str(&format!(
        "import * as $ from \"{}{RUNTIME_FILE}\";\n",
        cx.up
    ));
    let mut reached = Reached::default();
    for (_, body) in blocks {
        reached.body(p, body);
    }
    let names = Names::new(p, m, false);
    let mut e = Emitter::new(p, typed, &names, cx.place);
    let mut code = String::new();
    for f in &reached.functions {
        e.out.push('\n');
        e.function(*f, false);
        code.push_str(&std::mem::take(&mut e.out));
    }
    let annot = if typed { ": $.Block[]" } else { "" };
    code.push_str(&format!("\nexport const blocks{annot} = [\n"));
    // Every block starts from the declared module `var`s (LANGUAGE.md 17.1).
    let fresh = if reached.globals.is_empty() {
        ""
    } else {
        "    $reset();\n"
    };
    for (t, body) in blocks {
        let test = &p.tests[t.index()];
        let name = format!("{}::{}", module.name, test.decl.name);
        code.push_str(&format!(
            "  {{ id: {}, name: {}, run: () => {{\n{fresh}",
            t.0,
            serde_json::Value::String(name)
        ));
        e.block_body(m, body);
        code.push_str(&std::mem::take(&mut e.out));
        code.push_str("  } },\n");
    }
    code.push_str("];\n");
    let host = if typed {
        "(globalThis as { t27HostRunner?: boolean })"
    } else {
        "globalThis"
    };
    let specifier = if typed { ": string" } else { "" };
    code.push_str(&format!(
        "\n// `node --test` runs each block as a test; `t27 test --host` runs `blocks` itself.\n\
         if (!{host}.t27HostRunner) {{\n  const nodeTest{specifier} = \"node:test\";\n  \
         const {{ test }} = await import(nodeTest);\n  \
         for (const b of blocks) test(b.name, () => $.runBlock(b));\n}}\n"
    ));
    // Before `support`, which writes out the strings the values use.
    let reset = reset(&mut e, &reached);
    let support = support(&mut e, &reached, m, typed);
    out.push_str(&support);
    out.push_str(&reset);
    out.push_str(&code);
    JsFile {
        text: out,
        sites: e.sites,
    }
}

/// The file's private bindings: struct interfaces (TypeScript), strings, constants and
/// module `var`s, emitted after the functions (which add strings) but placed before them.
fn support(e: &mut Emitter, reached: &Reached, home: ModuleId, typed: bool) -> String {
    let p = e.p;
    let mut out = String::new();
    if typed {
        out.push_str(&interfaces(e, reached, home));
    }
    let mut bindings = String::new();
    for c in &reached.consts {
        let k = &p.consts[*c as usize];
        // An exported constant has its name; a number or a flag is written where it is read.
        if e.names.consts[*c as usize].is_some() || k.value.as_ref().is_some_and(emit::inlined) {
            continue;
        }
        let value = match &k.value {
            Some(v) => e.literal(v, &k.ty),
            None => e.zero(&k.ty),
        };
        let annot = if typed {
            format!(": {}", e.ty(&k.ty, true))
        } else {
            String::new()
        };
        bindings.push_str(&format!(
            "const $k{c}{annot} = {value}; // {}\n",
            k.decl.name
        ));
    }
    for g in &reached.globals {
        let v = &p.globals[*g as usize];
        let value = e.declared(v);
        let annot = if typed {
            format!(": {}", e.ty(&v.ty, false))
        } else {
            String::new()
        };
        bindings.push_str(&format!(
            "let $g{g}{annot} = {value}; // var {}\n",
            v.decl.name
        ));
    }
    if !e.strings.is_empty() {
        let mut strings: Vec<(&Vec<u8>, &usize)> = e.strings.iter().collect();
        strings.sort_by_key(|(_, n)| **n);
        out.push('\n');
        for (bytes, n) in strings {
            out.push_str(&format!("const $s{n} = {};\n", bytes_literal(bytes)));
        }
    }
    if !bindings.is_empty() {
        out.push('\n');
        out.push_str(&bindings);
    }
    out
}

/// `$reset()`, which sets every module `var` the file holds to its declared value (a fresh
/// array for an array): what each block runs first.
fn reset(e: &mut Emitter, reached: &Reached) -> String {
    if reached.globals.is_empty() {
        return String::new();
    }
    let p = e.p;
    let mut out = String::from("\nfunction $reset() {\n");
    for g in &reached.globals {
        let v = &p.globals[*g as usize];
        let value = e.declared(v);
        out.push_str(&format!("  $g{g} = {value};\n"));
    }
    out.push_str("}\n");
    out
}

/// A TypeScript interface for each struct reached: exported when it is a public struct of
/// the file's own module. Fields are readonly, so that the mirror's constants fit them.
fn interfaces(e: &Emitter, reached: &Reached, home: ModuleId) -> String {
    let mut out = String::new();
    for s in &reached.structs {
        let st = &e.p.structs[*s as usize];
        let export = if st.decl.module == home && st.decl.is_pub {
            "export "
        } else {
            ""
        };
        let fields: String = st
            .fields
            .iter()
            .map(|f| {
                format!(
                    "  readonly {}: {};\n",
                    emit::js_key(&f.name),
                    e.ty(&f.ty, true)
                )
            })
            .collect();
        out.push_str(&format!(
            "\n{export}interface {} {{\n{fields}}}\n",
            e.names.structs[*s as usize]
        ));
    }
    out
}

/// A byte string: `$.utf8("...")` for UTF-8 text, else the bytes.
fn bytes_literal(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => format!("$.utf8({})", serde_json::Value::String(s.to_string())),
        Err(_) => {
            let items: Vec<String> = bytes.iter().map(u8::to_string).collect();
            format!("Uint8Array.of({})", items.join(", "))
        }
    }
}

/// Whether a value of type `t` holds a string anywhere.
pub(crate) fn holds_str(p: &Program, t: &t27_ir::Ty) -> bool {
    emit::contains_str(p, t)
}

/// A doc comment as JSDoc.
pub(crate) fn doc(out: &mut String, doc: &Option<String>) {
    ts::doc(out, doc);
}
