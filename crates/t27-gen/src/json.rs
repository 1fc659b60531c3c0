//! `t27 consts --format json`: every constant as one JSON object per line.

use crate::ts::safe;
use serde_json::{Value as Json, json};
use t27_ir::{ItemRef, Program, Ty, Value};

/// A value as JSON: integers as numbers when they are safe integers and as decimal strings
/// otherwise; strings as strings (or, when not UTF-8, arrays of their bytes); arrays and
/// tuples as arrays; structs as objects.
pub fn value_json(p: &Program, v: &Value, t: &Ty) -> Json {
    match (v, t) {
        (Value::Int(i), _) if safe(i) => json!(i.to_string().parse::<i64>().unwrap_or_default()),
        (Value::Int(i), _) => json!(i.to_string()),
        (Value::Bool(b), _) => json!(b),
        (Value::F64(x), _) => json!(x),
        (Value::Str(s), _) => match std::str::from_utf8(s) {
            Ok(text) => json!(text),
            Err(_) => json!(s),
        },
        (Value::Array(xs), Ty::Array(e, _)) => {
            Json::Array(xs.iter().map(|x| value_json(p, x, e)).collect())
        }
        (Value::Tuple(xs), Ty::Tuple(ts)) => Json::Array(
            xs.iter()
                .zip(ts)
                .map(|(x, t)| value_json(p, x, t))
                .collect(),
        ),
        (Value::Struct(xs), Ty::Struct(id)) => {
            let mut obj = serde_json::Map::new();
            for (x, f) in xs.iter().zip(&p.structs[id.index()].fields) {
                obj.insert(f.name.clone(), value_json(p, x, &f.ty));
            }
            Json::Object(obj)
        }
        _ => Json::Null,
    }
}

/// One line per constant of the requested modules that `listed` says yes to, in declaration
/// order. `file_name` gives each module's spec file as shown to the user.
pub fn consts_json(
    p: &Program,
    file_name: &dyn Fn(t27_ir::ModuleId) -> String,
    listed: &dyn Fn(t27_ir::ModuleId) -> bool,
) -> Vec<String> {
    let mut lines = Vec::new();
    for (mi, m) in p.modules.iter().enumerate() {
        if !m.requested || !listed(t27_ir::ModuleId(mi as u32)) {
            continue;
        }
        for item in &m.items {
            let ItemRef::Const(id) = item else { continue };
            let c = &p.consts[id.index()];
            let Some(v) = &c.value else { continue };
            lines.push(
                json!({
                    "module": m.name,
                    "file": file_name(t27_ir::ModuleId(mi as u32)),
                    "name": c.decl.name,
                    "pub": c.decl.is_pub,
                    "type": p.ty_name(&c.ty),
                    "value": value_json(p, v, &c.ty),
                })
                .to_string(),
            );
        }
    }
    lines
}
