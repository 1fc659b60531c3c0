//! The `.d.ts` declarations of a JavaScript mirror's constants: each value's literal type,
//! the type TypeScript infers for the same constant in the TypeScript mirror (an integer, a
//! boolean or a text is declared with its literal, `export declare const X = 0;`, so that it
//! widens as a `const` does).

use crate::names::ts_reserved;
use crate::ts::safe;
use t27_ir::{ItemRef, Module, Program, Ty, Value};

fn literal_type(p: &Program, v: &Value, t: &Ty) -> String {
    match (v, t) {
        (Value::Int(i), _) if safe(i) => i.to_string(),
        (Value::Int(i), _) => format!("{i}n"),
        (Value::Bool(b), _) => b.to_string(),
        (Value::F64(_), _) => "number".into(),
        (Value::Str(s), _) => match std::str::from_utf8(s) {
            Ok(text) => serde_json::Value::String(text.to_string()).to_string(),
            Err(_) => "Uint8Array".into(),
        },
        (Value::Array(xs), Ty::Array(e, _)) => {
            let items: Vec<String> = xs.iter().map(|x| literal_type(p, x, e)).collect();
            format!("readonly [{}]", items.join(", "))
        }
        (Value::Tuple(xs), Ty::Tuple(ts)) => {
            let items: Vec<String> = xs
                .iter()
                .zip(ts)
                .map(|(x, t)| literal_type(p, x, t))
                .collect();
            format!("readonly [{}]", items.join(", "))
        }
        (Value::Struct(xs), Ty::Struct(id)) => {
            let fields: Vec<String> = xs
                .iter()
                .zip(&p.structs[id.index()].fields)
                .map(|(x, f)| {
                    format!(
                        "readonly {}: {}",
                        super::emit::js_key(&f.name),
                        literal_type(p, x, &f.ty)
                    )
                })
                .collect();
            format!("{{ {} }}", fields.join("; "))
        }
        _ => "undefined".into(),
    }
}

/// `export declare const NAME: TYPE;` for each public constant of the module.
pub(crate) fn constants(p: &Program, module: &Module) -> String {
    let mut out = String::new();
    for item in &module.items {
        let ItemRef::Const(id) = item else { continue };
        let c = &p.consts[id.index()];
        let Some(v) = &c.value else { continue };
        if !c.decl.is_pub {
            continue;
        }
        out.push('\n');
        crate::ts::doc(&mut out, &c.decl.doc);
        let name = &c.decl.name;
        // A literal initializer, as tsc declares `export const X = 0;`: a type that widens
        // (`let x = X` is a `number`), like the TypeScript mirror's.
        let declared = match v {
            Value::Int(_) | Value::Bool(_) => format!(" = {}", literal_type(p, v, &c.ty)),
            Value::Str(s) if std::str::from_utf8(s).is_ok() => {
                format!(" = {}", literal_type(p, v, &c.ty))
            }
            _ => format!(": {}", literal_type(p, v, &c.ty)),
        };
        if ts_reserved(name) {
            out.push_str(&format!(
                "declare const {name}_{declared};\nexport {{ {name}_ as {name} }};\n"
            ));
        } else {
            out.push_str(&format!("export declare const {name}{declared};\n"));
        }
    }
    out
}
