//! The Rust mirror: `pub const NAME: T = VALUE;` with exact integer types.

use crate::names;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use t27_ir::{ItemRef, ModuleId, Program, StructId, Ty, Value};

/// Whether a string value can be a Rust `&str` (else it is mirrored as `&[u8]`).
fn utf8(v: &Value) -> bool {
    match v {
        Value::Str(b) => std::str::from_utf8(b).is_ok(),
        Value::Array(xs) | Value::Tuple(xs) | Value::Struct(xs) => xs.iter().all(utf8),
        _ => true,
    }
}

/// The Rust type of `t`: in a struct field, a string is a `Cow<'static, [u8]>` (a constant's
/// borrows its bytes; a function's result may own them) and other references are `'static`;
/// in a constant's type, where Rust gives references that lifetime already (and Clippy asks
/// not to write it), without.
fn ty(p: &Program, t: &Ty, text: bool, field: bool) -> Option<String> {
    let lifetime = if field { "'static " } else { "" };
    Some(match t {
        Ty::Int(i) => i.name().to_string(),
        Ty::Bool => "bool".into(),
        Ty::F64 => "f64".into(),
        Ty::Str if field => "std::borrow::Cow<'static, [u8]>".into(),
        Ty::Str if text => format!("&{lifetime}str"),
        Ty::Str => format!("&{lifetime}[u8]"),
        Ty::Array(e, n) => format!("[{}; {n}]", ty(p, e, text, field)?),
        Ty::Tuple(ts) => {
            let parts = ts
                .iter()
                .map(|t| ty(p, t, text, field))
                .collect::<Option<Vec<_>>>()?;
            format!("({},)", parts.join(", "))
        }
        Ty::Struct(id) => names::rust(&p.structs[id.index()].decl.name),
        _ => return None,
    })
}

fn string(bytes: &[u8], text: bool) -> String {
    if !text {
        let inner: String = bytes.iter().map(|b| format!("\\x{b:02x}")).collect();
        return format!("b\"{inner}\"");
    }
    let s = String::from_utf8_lossy(bytes);
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// A value as Rust writes it; `field`: inside a struct, where a string is a `Cow`.
fn value(p: &Program, v: &Value, t: &Ty, text: bool, field: bool) -> String {
    match (v, t) {
        (Value::Int(i), _) => i.to_string(),
        (Value::Bool(b), _) => b.to_string(),
        (Value::F64(x), _) => format!("{x:?}"),
        (Value::Str(s), _) if field => {
            format!(
                "std::borrow::Cow::Borrowed({})",
                crate::rustfn::byte_string(s)
            )
        }
        (Value::Str(s), _) => string(s, text),
        (Value::Array(xs), Ty::Array(e, _)) => {
            let items: Vec<String> = xs.iter().map(|x| value(p, x, e, text, field)).collect();
            format!("[{}]", items.join(", "))
        }
        (Value::Tuple(xs), Ty::Tuple(ts)) => {
            let items: Vec<String> = xs
                .iter()
                .zip(ts)
                .map(|(x, t)| value(p, x, t, text, field))
                .collect();
            format!("({},)", items.join(", "))
        }
        (Value::Struct(xs), Ty::Struct(id)) => {
            let s = &p.structs[id.index()];
            let fields: Vec<String> = xs
                .iter()
                .zip(&s.fields)
                .map(|(x, f)| {
                    format!(
                        "{}: {}",
                        names::rust(&f.name),
                        value(p, x, &f.ty, text, true)
                    )
                })
                .collect();
            format!("{} {{ {} }}", names::rust(&s.decl.name), fields.join(", "))
        }
        _ => "()".to_string(),
    }
}

fn doc(out: &mut String, doc: &Option<String>) {
    if let Some(d) = doc {
        for line in d.lines() {
            out.push_str(&format!(
                "///{}{line}\n",
                if line.is_empty() { "" } else { " " }
            ));
        }
    }
}

/// The structs a type mentions that are not declared in module `m`.
fn foreign_struct(p: &Program, t: &Ty, m: ModuleId) -> Option<StructId> {
    match t {
        Ty::Struct(id) if p.structs[id.index()].decl.module != m => Some(*id),
        Ty::Struct(id) => p.structs[id.index()]
            .fields
            .iter()
            .find_map(|f| foreign_struct(p, &f.ty, m)),
        Ty::Array(e, _) => foreign_struct(p, e, m),
        Ty::Tuple(ts) => ts.iter().find_map(|t| foreign_struct(p, t, m)),
        _ => None,
    }
}

/// The Rust module mirroring module `m` of `p`; `spec_name` and `source` identify the spec.
/// `place` names a span of a module as a trap in its functions reports it; `tests` are the
/// blocks to write as `#[test]`s (`t27 gen rust --tests`), lowered; `mirror_of` gives the
/// path from this file to another module's mirror generated with it (`super::super::queen::
/// dispatch`), through which its functions name that module's structs.
pub fn rust_module(
    p: &Program,
    m: ModuleId,
    spec_name: &str,
    source: &str,
    place: &dyn Fn(ModuleId, t27_diag::Span) -> String,
    tests: &[(t27_ir::TestId, &t27_ir::Body)],
    mirror_of: &dyn Fn(ModuleId) -> Option<String>,
) -> String {
    let module = &p.modules[m.index()];
    let mut out = crate::header(spec_name, source);
    // No inner attributes or `//!` docs: a host may `include!` the file, where they are
    // not allowed (E0753). A name Rust would warn about carries its own `allow`; unused
    // items are allowed where the module is declared (`mod.rs`, or the host's `include!`).
    out.push_str(&format!(
        "// The constants and functions of the t27 module `{}`.\n",
        module.name
    ));
    for item in &module.items {
        match item {
            ItemRef::Struct(id) => {
                let s = &p.structs[id.index()];
                if !s.decl.is_pub {
                    continue;
                }
                let fields: Option<Vec<String>> = s
                    .fields
                    .iter()
                    .map(|f| {
                        ty(p, &f.ty, true, true)
                            .map(|t| format!("    pub {}: {t},\n", names::rust(&f.name)))
                    })
                    .collect();
                let Some(fields) = fields else { continue };
                out.push('\n');
                doc(&mut out, &s.decl.doc);
                if !is_upper_camel(&s.decl.name) {
                    out.push_str("#[allow(non_camel_case_types)]\n");
                }
                // A struct that holds a string is not `Copy`: its strings may be owned.
                let holds_str = crate::js::holds_str(p, &Ty::Struct(*id));
                out.push_str(if holds_str {
                    "#[derive(Debug, Clone, PartialEq)]\n"
                } else {
                    "#[derive(Debug, Clone, Copy, PartialEq)]\n"
                });
                out.push_str(&format!(
                    "pub struct {} {{\n{}}}\n",
                    names::rust(&s.decl.name),
                    fields.concat()
                ));
            }
            ItemRef::Const(id) => {
                let c = &p.consts[id.index()];
                let Some(v) = &c.value else { continue };
                if !c.decl.is_pub {
                    continue;
                }
                out.push('\n');
                if let Some(s) = foreign_struct(p, &c.ty, m) {
                    let name = &p.structs[s.index()].decl.name;
                    out.push_str(&format!(
                        "// not mirrored: {} (its type uses `{name}` from another module)\n",
                        c.decl.name
                    ));
                    continue;
                }
                let text = utf8(v);
                let Some(t) = ty(p, &c.ty, text, false) else {
                    out.push_str(&format!(
                        "// not mirrored: {} (an untyped constant)\n",
                        c.decl.name
                    ));
                    continue;
                };
                doc(&mut out, &c.decl.doc);
                if c.decl.name.chars().any(|ch| ch.is_lowercase()) {
                    out.push_str("#[allow(non_upper_case_globals)]\n");
                }
                out.push_str(&format!(
                    "pub const {}: {t} = {};\n",
                    names::rust(&c.decl.name),
                    value(p, v, &c.ty, text, false)
                ));
            }
            _ => {}
        }
    }
    out.push_str(&crate::rustfn::mirror_functions(
        p, m, place, tests, mirror_of,
    ));
    out
}

/// Whether the mirror of module `home` declares constant `c` (`pub const NAME: T`).
pub(crate) fn mirrors_const(p: &Program, c: &t27_ir::Const, home: ModuleId) -> bool {
    c.decl.is_pub
        && c.value.is_some()
        && foreign_struct(p, &c.ty, home).is_none()
        && c.value
            .as_ref()
            .is_some_and(|v| ty(p, &c.ty, utf8(v), false).is_some())
}

/// Whether Rust's `non_camel_case_types` lint accepts `name` (it starts upper case and has
/// no `_`; stricter than the lint, which is harmless: the `allow` is then merely not needed).
fn is_upper_camel(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase()) && !name.contains('_')
}

/// A `mod.rs` declaring the child modules of one output folder, each a file or, with `true`,
/// a folder (by a module name that may not be the file's: `names::rust_mod_decl`); a host
/// uses some of each module's items, so unused ones are allowed.
pub fn rust_mod_file(children: &[(String, bool)]) -> String {
    let mut out = String::from("// Code generated by t27. DO NOT EDIT.\n// @generated\n");
    for (c, dir) in children {
        out.push_str(&format!(
            "#[allow(dead_code)]\n{}\n",
            names::rust_mod_decl(c, *dir)
        ));
    }
    out
}

/// The file a host `include!`s from a build script's output (`t27-build`): one inline module
/// per mirror in `out_dir` (`queen/dispatch.rs` is
/// `pub mod queen { pub mod dispatch { include!("OUT/queen/dispatch.rs"); } }`), since a
/// `mod x;` in an included file would be looked for beside the host's own source.
pub fn rust_include_file<'a>(out_dir: &Path, mirrors: impl Iterator<Item = &'a PathBuf>) -> String {
    #[derive(Default)]
    struct Tree {
        children: BTreeMap<String, Tree>,
        file: Option<PathBuf>,
    }
    let mut root = Tree::default();
    for rel in mirrors.filter(|r| !r.ends_with("mod.rs")) {
        let mut node = &mut root;
        for part in rel.with_extension("").components() {
            let name = part.as_os_str().to_string_lossy().into_owned();
            node = node.children.entry(name).or_default();
        }
        node.file = Some(out_dir.join(rel));
    }
    fn write(out: &mut String, tree: &Tree, depth: usize) {
        let pad = "    ".repeat(depth);
        if let Some(file) = &tree.file {
            out.push_str(&format!(
                "{pad}include!({:?});\n",
                file.display().to_string()
            ));
        }
        for (name, child) in &tree.children {
            if child.file.is_some() {
                out.push_str(&format!("{pad}#[allow(dead_code)]\n"));
            }
            out.push_str(&format!("{pad}pub mod {} {{\n", names::rust_module(name)));
            write(out, child, depth + 1);
            out.push_str(&format!("{pad}}}\n"));
        }
    }
    let mut out = String::from("// Code generated by t27-build. DO NOT EDIT.\n// @generated\n");
    write(&mut out, &root, 0);
    out
}
