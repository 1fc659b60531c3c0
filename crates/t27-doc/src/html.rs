//! Escaping, and the links between pages: every module has a page at its path under the spec
//! root (`queen/dispatch.html`), every declaration an anchor named by its kind and name
//! (`fn.next_state`), so links stay the same from one build to the next.

use t27_check::NameTarget;
use t27_ir::{ItemRef, ModuleId, Program};

pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON inside a `<script type="application/json">`: `</` cannot end the element early.
pub fn script_json(value: &serde_json::Value) -> String {
    value.to_string().replace("</", "<\\/")
}

pub fn page_path(p: &Program, m: ModuleId) -> String {
    format!("{}.html", p.modules[m.index()].path.join("/"))
}

/// From one page to the folder the site starts in: `../` once per folder.
pub fn up(p: &Program, from: ModuleId) -> String {
    "../".repeat(p.modules[from.index()].path.len().saturating_sub(1))
}

pub fn anchor(p: &Program, item: ItemRef) -> String {
    let kind = match item {
        ItemRef::Const(_) => "const",
        ItemRef::Global(_) => "var",
        ItemRef::Fn(_) => "fn",
        ItemRef::Struct(_) => "struct",
        ItemRef::Test(_) => "test",
    };
    format!("{kind}.{}", p.decl(item).name)
}

/// Where a link from module `from` to a declaration goes.
pub fn href_item(p: &Program, from: ModuleId, item: ItemRef) -> String {
    let to = p.decl(item).module;
    let hash = anchor(p, item);
    if to == from {
        format!("#{hash}")
    } else {
        format!("{}{}#{hash}", up(p, from), page_path(p, to))
    }
}

/// Where a name written in module `from` links to: its declaration, or its module's page.
pub fn href(p: &Program, from: ModuleId, target: &NameTarget) -> Option<String> {
    let item = match target {
        NameTarget::Const(id) => ItemRef::Const(*id),
        NameTarget::Global(id) => ItemRef::Global(*id),
        NameTarget::Fn(id) => ItemRef::Fn(*id),
        NameTarget::Struct(id) => ItemRef::Struct(*id),
        NameTarget::Test(id) => ItemRef::Test(*id),
        NameTarget::Module(m) => return Some(format!("{}{}", up(p, from), page_path(p, *m))),
        _ => return None,
    };
    Some(href_item(p, from, item))
}
