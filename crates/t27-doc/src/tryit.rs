//! The Try-it panel of a public function: a form with an input per parameter and the answer
//! computed in the page by the function's JavaScript mirror (`doc.js`), and, where one says
//! it better, a grid of two small-domain parameters or a truth table of a few flags. The
//! page's JSON (`page_data`) tells `doc.js` each function's parameters, answers and sentinels.

use crate::Site;
use crate::domain::{self, Input, ListElem, Table, Tried};
use crate::html::escape;
use serde_json::{Value as Json, json};
use t27_ir::ModuleId;

fn name(site: &Site, t: &Tried) -> String {
    site.checked.program.functions[t.function.index()]
        .decl
        .name
        .clone()
}

/// `KIND_BACKLOG` as the label of value 0, when a constant names it.
fn labelled(value: i128, name: &str) -> String {
    format!("{value} ({name})")
}

fn field(f: &str, i: usize, param: &domain::Param) -> String {
    let id = format!("try-{f}-{}", param.name);
    let label = format!(
        "<label for=\"{}\">{}</label>\n",
        escape(&id),
        escape(&param.name)
    );
    let control = match &param.input {
        Input::Bool => format!(
            "<input type=\"checkbox\" id=\"{}\" data-param=\"{i}\">\n",
            escape(&id)
        ),
        Input::Str => format!(
            "<input type=\"text\" id=\"{}\" data-param=\"{i}\" value=\"\">\n",
            escape(&id)
        ),
        Input::Int {
            family: Some(members),
            ..
        } => {
            let options: String = members
                .iter()
                .map(|m| {
                    format!(
                        "<option value=\"{}\">{}</option>\n",
                        m.value,
                        escape(&labelled(m.value, &m.name))
                    )
                })
                .collect();
            format!(
                "<select id=\"{}\" data-param=\"{i}\">\n{options}</select>\n",
                escape(&id)
            )
        }
        Input::Int {
            ty,
            min,
            max,
            low,
            high,
            family: None,
        } => {
            let start = 0i128.clamp(*low, *high);
            format!(
                "<input type=\"number\" id=\"{0}\" data-param=\"{i}\" min=\"{min}\" max=\"{max}\" step=\"1\" value=\"{start}\" inputmode=\"numeric\" aria-describedby=\"{0}-range\">\n<input type=\"range\" id=\"{0}-slider\" data-slider-of=\"{0}\" min=\"{low}\" max=\"{high}\" step=\"1\" value=\"{start}\" aria-label=\"{1}, on a slider from {low} to {high}\">\n<span class=\"range\" id=\"{0}-range\">{2}: {min} to {max}</span>\n",
                escape(&id),
                escape(&param.name),
                ty.name()
            )
        }
        Input::Real => format!(
            "<input type=\"number\" id=\"{}\" data-param=\"{i}\" step=\"any\" value=\"0\">\n",
            escape(&id)
        ),
        Input::List { elem, len } => {
            let (zero, ty) = match elem {
                ListElem::Bool => ("false", "bool".to_string()),
                ListElem::Int(t) => ("0", t.name().to_string()),
            };
            let start = vec![zero; *len as usize].join(", ");
            format!(
                "<input type=\"text\" id=\"{0}\" data-param=\"{i}\" value=\"{start}\" spellcheck=\"false\" aria-describedby=\"{0}-range\">\n<span class=\"range\" id=\"{0}-range\">{len} × {ty}, separated by commas</span>\n",
                escape(&id)
            )
        }
        Input::Other(_) => String::new(),
    };
    format!("<div class=\"param\">\n{label}{control}</div>\n")
}

pub fn panel(site: &Site, t: &Tried, mirrored: bool) -> String {
    if !mirrored {
        return String::new();
    }
    let f = name(site, t);
    if let Some(other) = t.params.iter().find_map(|p| match &p.input {
        Input::Other(ty) => Some((p, ty)),
        _ => None,
    }) {
        return format!(
            "<p class=\"tryit-off\">No Try it: <code>{}</code> is a <code>{}</code>, which the page has no input for.</p>\n",
            escape(&other.0.name),
            escape(other.1)
        );
    }
    let fields: String = t
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| field(&f, i, p))
        .collect();
    let inputs: Vec<String> = t
        .params
        .iter()
        .map(|p| format!("try-{f}-{}", p.name))
        .collect();
    let mut out = format!(
        "<form class=\"tryit\" id=\"try-{0}\" data-fn=\"{0}\" aria-label=\"Try {0}\">\n<fieldset>\n<legend>Try it</legend>\n{fields}<p class=\"answer\">Answer: <output id=\"try-{0}-out\" for=\"{1}\" aria-live=\"polite\"></output></p>\n</fieldset>\n</form>\n",
        escape(&f),
        escape(&inputs.join(" "))
    );
    out.push_str(&table(site, t));
    out
}

fn args(values: &[String]) -> String {
    escape(&Json::from(values.to_vec()).to_string())
}

fn arg_text(value: i128, input: &Input) -> String {
    match input {
        Input::Bool => (value != 0).to_string(),
        _ => value.to_string(),
    }
}

fn table(site: &Site, t: &Tried) -> String {
    let f = name(site, t);
    match domain::table(t) {
        Some(Table::Grid(rows, columns)) => {
            let (a, b) = (&t.params[0], &t.params[1]);
            let mut out = format!(
                "<table class=\"grid\" id=\"grid-{0}\" data-fn=\"{0}\">\n<caption><code>{0}({1}, {2})</code>: {1} down, {2} across; greyed out: {3}</caption>\n<thead>\n<tr><th scope=\"col\"><span class=\"visually-hidden\">{1} \\ {2}</span></th>",
                escape(&f),
                escape(&a.name),
                escape(&b.name),
                sentinel_words(t)
            );
            for (label, _) in &columns {
                out.push_str(&format!("<th scope=\"col\">{}</th>", escape(label)));
            }
            out.push_str("</tr>\n</thead>\n<tbody>\n");
            for (row, x) in &rows {
                out.push_str(&format!("<tr><th scope=\"row\">{}</th>", escape(row)));
                for (column, y) in &columns {
                    out.push_str(&format!(
                        "<td id=\"grid-{}-{}-{}\" data-args=\"{}\"></td>",
                        escape(&f),
                        escape(row),
                        escape(column),
                        args(&[arg_text(*x, &a.input), arg_text(*y, &b.input)])
                    ));
                }
                out.push_str("</tr>\n");
            }
            out.push_str("</tbody>\n</table>\n");
            out
        }
        Some(Table::Truth(n)) => {
            let mut out = format!(
                "<table class=\"truth\" id=\"truth-{0}\" data-fn=\"{0}\">\n<caption>Every combination of <code>{0}</code>'s flags</caption>\n<thead>\n<tr>",
                escape(&f)
            );
            for p in &t.params {
                out.push_str(&format!("<th scope=\"col\">{}</th>", escape(&p.name)));
            }
            out.push_str("<th scope=\"col\">answer</th></tr>\n</thead>\n<tbody>\n");
            for row in 0..(1usize << n) {
                let flags: Vec<String> = (0..n)
                    .map(|i| (row >> (n - 1 - i) & 1 == 1).to_string())
                    .collect();
                out.push_str("<tr>");
                for v in &flags {
                    out.push_str(&format!("<td>{v}</td>"));
                }
                out.push_str(&format!(
                    "<td id=\"truth-{}-{row}\" data-args=\"{}\"></td></tr>\n",
                    escape(&f),
                    args(&flags)
                ));
            }
            out.push_str("</tbody>\n</table>\n");
            out
        }
        None => String::new(),
    }
}

fn sentinel_words(t: &Tried) -> String {
    let mut names: Vec<String> = t
        .answers
        .iter()
        .filter(|a| t.sentinels.contains(&a.value))
        .map(|a| format!("<code>{}</code>", escape(&a.name)))
        .collect();
    names.push("traps".to_string());
    names.join(", ")
}

/// An integer parameter as `doc.js` checks it: its type's range, and whether it is 64-bit
/// (a bigint past a safe integer).
fn int_param(name: &str, ty: t27_ir::IntTy) -> Json {
    json!({
        "name": name,
        "type": ty.name(),
        "min": ty.min().to_string(),
        "max": ty.max().to_string(),
        "wide": ty.bits() == 64,
    })
}

/// What `doc.js` needs to run the page's functions: each public function's parameters (type,
/// range), the constants that name its answers, and the answers its tables grey out.
pub fn page_data(site: &Site, m: ModuleId, tried: &[Tried]) -> Json {
    let p = &site.checked.program;
    let module = &p.modules[m.index()];
    let mut functions = serde_json::Map::new();
    for t in tried.iter().filter(|t| t.runnable()) {
        let function = &p.functions[t.function.index()];
        let params: Vec<Json> = t
            .params
            .iter()
            .map(|param| match &param.input {
                Input::Bool => json!({"name": param.name, "type": "bool"}),
                Input::Str => json!({"name": param.name, "type": "str"}),
                Input::Real => json!({"name": param.name, "type": "f64"}),
                Input::Int { ty, .. } => int_param(&param.name, *ty),
                Input::List { elem, len } => json!({
                    "name": param.name,
                    "type": "list",
                    "len": len,
                    "elem": match elem {
                        ListElem::Bool => json!({"name": param.name, "type": "bool"}),
                        ListElem::Int(t) => int_param(&param.name, *t),
                    },
                }),
                Input::Other(ty) => json!({"name": param.name, "type": ty}),
            })
            .collect();
        let answers: serde_json::Map<String, Json> = t
            .answers
            .iter()
            .map(|a| (a.value.to_string(), Json::from(a.name.clone())))
            .collect();
        let sentinels: Vec<String> = t.sentinels.iter().map(|v| v.to_string()).collect();
        functions.insert(
            function.decl.name.clone(),
            json!({
                "js": t27_gen::js_name(&function.decl.name),
                "params": params,
                "answers": answers,
                "sentinels": sentinels,
            }),
        );
    }
    json!({
        "module": module.path.join("/"),
        "functions": functions,
    })
}
