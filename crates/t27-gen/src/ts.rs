//! The constants of the TypeScript and JavaScript mirrors: `export const NAME = VALUE;`, with
//! literal types in TypeScript.
//!
//! Integers are `number`s when they are safe integers (|v| <= 2^53 - 1) and `bigint`s
//! otherwise, so no value ever loses precision. Strings that are UTF-8 are string literals
//! with every non-printable or non-ASCII character escaped; other byte strings are
//! `Uint8Array`s. Arrays and structs are `as const`, so hosts get readonly tuples and objects.

use crate::names;
use num_bigint::BigInt;
use t27_ir::{ItemRef, Module, Program, Ty, Value};

const MAX_SAFE: i64 = (1 << 53) - 1;

pub(crate) fn safe(i: &BigInt) -> bool {
    *i <= BigInt::from(MAX_SAFE) && *i >= BigInt::from(-MAX_SAFE)
}

fn string(bytes: &[u8]) -> String {
    let Ok(s) = std::str::from_utf8(bytes) else {
        let items: Vec<String> = bytes.iter().map(|b| b.to_string()).collect();
        return format!("Uint8Array.of({})", items.join(", "));
    };
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    out.push('"');
    out
}

fn value(p: &Program, v: &Value, t: &Ty) -> String {
    match (v, t) {
        (Value::Int(i), _) if safe(i) => i.to_string(),
        (Value::Int(i), _) => format!("{i}n"),
        (Value::Bool(b), _) => b.to_string(),
        (Value::F64(x), _) => format!("{x:?}"),
        (Value::Str(s), _) => string(s),
        (Value::Array(xs), Ty::Array(e, _)) => {
            let items: Vec<String> = xs.iter().map(|x| value(p, x, e)).collect();
            format!("[{}]", items.join(", "))
        }
        (Value::Tuple(xs), Ty::Tuple(ts)) => {
            let items: Vec<String> = xs.iter().zip(ts).map(|(x, t)| value(p, x, t)).collect();
            format!("[{}]", items.join(", "))
        }
        (Value::Struct(xs), Ty::Struct(id)) => {
            let fields: Vec<String> = xs
                .iter()
                .zip(&p.structs[id.index()].fields)
                .map(|(x, f)| format!("{}: {}", f.name, value(p, x, &f.ty)))
                .collect();
            format!("{{ {} }}", fields.join(", "))
        }
        _ => "undefined".to_string(),
    }
}

pub(crate) fn doc(out: &mut String, doc: &Option<String>) {
    if let Some(d) = doc {
        out.push_str("/**\n");
        for line in d.lines() {
            let line = line.replace("*/", "*\\/");
            out.push_str(&format!(
                " *{}{line}\n",
                if line.is_empty() { "" } else { " " }
            ));
        }
        out.push_str(" */\n");
    }
}

/// `export const NAME = VALUE;` for each public constant of the module (`as const` on
/// aggregates in TypeScript, so hosts get readonly tuples and objects).
pub(crate) fn constants(p: &Program, module: &Module, typed: bool) -> String {
    let mut out = String::new();
    for item in &module.items {
        let ItemRef::Const(id) = item else { continue };
        let c = &p.consts[id.index()];
        let Some(v) = &c.value else { continue };
        if !c.decl.is_pub {
            continue;
        }
        out.push('\n');
        doc(&mut out, &c.decl.doc);
        let aggregate = matches!(c.ty, Ty::Array(..) | Ty::Tuple(_) | Ty::Struct(_));
        let suffix = if aggregate && typed { " as const" } else { "" };
        let name = &c.decl.name;
        if names::ts_reserved(name) {
            out.push_str(&format!(
                "const {name}_ = {}{suffix};\nexport {{ {name}_ as {name} }};\n",
                value(p, v, &c.ty)
            ));
        } else {
            out.push_str(&format!(
                "export const {name} = {}{suffix};\n",
                value(p, v, &c.ty)
            ));
        }
    }
    out
}
