//! One module's page: its header comments, its declarations in source order under the
//! section rulers, each with its doc comment, its value or signature and its linked source,
//! a Try-it panel and a table for every public function, and its blocks with their outcomes.

use crate::code::linked;
use crate::domain::{self, Tried};
use crate::html::{anchor, escape, page_path, up};
use crate::prose;
use crate::tryit;
use crate::{Run, Site};
use t27_ir::{ExprKind, ItemRef, ModuleId, TestKind};

/// The frame every page shares: head, skip link, the list of modules, and `main`.
pub fn frame(
    site: &Site,
    from: Option<ModuleId>,
    title: &str,
    main: &str,
    scripts: &[String],
) -> String {
    let p = &site.checked.program;
    let root = from.map(|m| up(p, m)).unwrap_or_default();
    let mut nav = String::new();
    for m in &site.modules {
        let current = Some(*m) == from;
        nav.push_str(&format!(
            "<li><a href=\"{root}{}\"{}>{}</a></li>\n",
            escape(&page_path(p, *m)),
            if current {
                " aria-current=\"page\""
            } else {
                ""
            },
            escape(&p.modules[m.index()].path.join("/"))
        ));
    }
    let scripts: String = scripts
        .iter()
        .map(|s| format!("<script src=\"{}\"></script>\n", escape(s)))
        .collect();
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<link rel=\"stylesheet\" href=\"{root}doc.css\">\n</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to the content</a>\n<nav aria-label=\"Modules\">\n<p><a href=\"{root}index.html\">All modules</a></p>\n<ul>\n{nav}</ul>\n</nav>\n<main id=\"main\">\n{main}</main>\n{scripts}</body>\n</html>\n",
        escape(title)
    )
}

fn ty(site: &Site, t: &t27_ir::Ty) -> String {
    escape(&site.checked.program.ty_name(t))
}

/// The source of a declaration (without its doc lines), names linked.
fn source(site: &Site, m: ModuleId, span: t27_diag::Span) -> String {
    let p = &site.checked.program;
    let text = &site.checked.sources.get(p.modules[m.index()].file).text;
    let start = prose::code_start(text, span.start as usize, span.end as usize);
    let code = linked(
        site.checked,
        &site.names,
        m,
        t27_diag::Span::new(start, span.end as usize),
    );
    format!("<pre class=\"source\"><code>{code}</code></pre>\n")
}

fn doc(text: &Option<String>) -> String {
    match text {
        Some(d) => format!(
            "<div class=\"doc\">{}</div>\n",
            prose::paragraphs(&d.lines().collect::<Vec<_>>())
        ),
        None => String::new(),
    }
}

/// `tried` holds the module's public functions as the page runs them ([`domain::tried`]).
fn declaration(site: &Site, m: ModuleId, item: ItemRef, run: &Run, tried: &[Tried]) -> String {
    let p = &site.checked.program;
    let id = anchor(p, item);
    let mut out = format!("<section class=\"decl\" id=\"{}\">\n", escape(&id));
    match item {
        ItemRef::Const(c) => {
            let k = &p.consts[c.index()];
            out.push_str(&format!(
                "<h3><code>{}const {}: {}</code></h3>\n",
                if k.decl.is_pub { "pub " } else { "" },
                escape(&k.decl.name),
                ty(site, &k.ty)
            ));
            out.push_str(&doc(&k.decl.doc));
            out.push_str(&source(site, m, k.decl.span));
            out.push_str(&value_line(site, m, &k.init, k.value.as_ref()));
        }
        ItemRef::Global(g) => {
            let v = &p.globals[g.index()];
            out.push_str(&format!(
                "<h3><code>{}var {}: {}</code></h3>\n",
                if v.decl.is_pub { "pub " } else { "" },
                escape(&v.decl.name),
                ty(site, &v.ty)
            ));
            out.push_str(&doc(&v.decl.doc));
            out.push_str(&source(site, m, v.decl.span));
            out.push_str(&value_line(site, m, &v.init, v.value.as_ref()));
        }
        ItemRef::Struct(s) => {
            let st = &p.structs[s.index()];
            out.push_str(&format!(
                "<h3><code>{}struct {}</code></h3>\n",
                if st.decl.is_pub { "pub " } else { "" },
                escape(&st.decl.name)
            ));
            out.push_str(&doc(&st.decl.doc));
            out.push_str(&source(site, m, st.decl.span));
        }
        ItemRef::Fn(f) => {
            let function = &p.functions[f.index()];
            out.push_str(&format!(
                "<h3 id=\"{}.title\"><code>{}{}</code></h3>\n",
                escape(&id),
                if function.decl.is_pub { "pub " } else { "" },
                escape(&p.signature(f))
            ));
            out.push_str(&doc(&function.decl.doc));
            if let Some(t) = tried.iter().find(|t| t.function == f) {
                out.push_str(&tryit::panel(site, t, run.mirrored));
            }
            out.push_str(&format!(
                "<details{}>\n<summary>Source of <code>{}</code></summary>\n{}</details>\n",
                if function.decl.is_pub { "" } else { " open" },
                escape(&function.decl.name),
                source(site, m, function.decl.span)
            ));
        }
        ItemRef::Test(t) => {
            let test = &p.tests[t.index()];
            let word = match test.kind {
                TestKind::Test => "test",
                TestKind::Invariant => "invariant",
            };
            out.push_str(&format!(
                "<h3><code>{word} {}</code></h3>\n",
                escape(&test.decl.name)
            ));
            out.push_str(&doc(&test.decl.doc));
            out.push_str(&crate::blocks::outcome(site, t));
            out.push_str(&format!(
                "<details>\n<summary>Source of <code>{}</code></summary>\n{}</details>\n",
                escape(&test.decl.name),
                source(site, m, test.decl.span)
            ));
        }
    }
    out.push_str("</section>\n");
    out
}

/// The computed value of a constant, unless its source already says it; and the constant
/// it stands for when it is written as one (`pub const DEFAULT: u8 = KIND_BACKLOG;`).
fn value_line(
    site: &Site,
    m: ModuleId,
    init: &t27_ir::Expr,
    value: Option<&t27_ir::Value>,
) -> String {
    let p = &site.checked.program;
    let Some(value) = value else {
        return "<p class=\"value\">Value: not known (the declaration has an error)</p>\n".into();
    };
    let shown = value.to_string();
    let text = &site.checked.sources.get(p.modules[m.index()].file).text;
    let stands_for = match &init.kind {
        ExprKind::Const(c) => format!(
            " (the value of <code>{}</code>)",
            escape(&p.consts[c.index()].decl.name)
        ),
        _ => String::new(),
    };
    let written = text
        .get(init.span.start as usize..init.span.end as usize)
        .map(str::trim);
    // A number or a flag is shown even when written as it is: the value line is where a
    // reader looks. A string or an array written out in the source is not shown twice.
    let scalar = matches!(value, t27_ir::Value::Int(_) | t27_ir::Value::Bool(_));
    if stands_for.is_empty() && !scalar && written == Some(shown.as_str()) {
        return String::new();
    }
    format!(
        "<p class=\"value\">Value: <code>{}</code>{stands_for}</p>\n",
        escape(&shown)
    )
}

pub fn module_page(site: &Site, m: ModuleId, run: &Run) -> String {
    let p = &site.checked.program;
    let module = &p.modules[m.index()];
    let text = &site.checked.sources.get(module.file).text;
    let module_at = module_offset(text);
    let mut main = format!(
        "<h1>{} <small>{}.t27</small></h1>\n",
        escape(&module.name),
        escape(&module.path.join("/"))
    );
    let header = prose::header(text, module_at);
    if !header.is_empty() {
        main.push_str(&format!(
            "<div class=\"header\">\n{}</div>\n",
            prose::paragraphs(&header)
        ));
    }
    if let Some(why) = &run.fault {
        main.push_str(&format!(
            "<p class=\"fault\" role=\"note\">Try it is off on this page: {}.</p>\n",
            escape(why)
        ));
    }
    if !module.imports.is_empty() {
        let uses: Vec<String> = module
            .imports
            .iter()
            .map(|i| {
                format!(
                    "<a href=\"{}{}\">{}</a>",
                    up(p, m),
                    escape(&page_path(p, *i)),
                    escape(&p.modules[i.index()].path.join("/"))
                )
            })
            .collect();
        main.push_str(&format!(
            "<p class=\"uses\">Uses {}.</p>\n",
            uses.join(", ")
        ));
    }
    main.push_str(&crate::blocks::summary(site, m));
    let tried: Vec<Tried> = module
        .items
        .iter()
        .filter_map(|item| match item {
            ItemRef::Fn(f) if p.functions[f.index()].decl.is_pub => Some(domain::tried(p, *f)),
            _ => None,
        })
        .collect();
    let mut rulers = prose::rulers(text, module_at).into_iter().peekable();
    let mut open = false;
    for item in &module.items {
        let start = p.decl(*item).span.start as usize;
        while let Some((_, title)) = rulers.next_if(|(at, _)| *at < start) {
            if open {
                main.push_str("</section>\n");
            }
            main.push_str(&format!(
                "<section class=\"part\" aria-labelledby=\"{0}\">\n<h2 id=\"{0}\">{1}</h2>\n",
                escape(&prose::slug(&title)),
                prose::inline(&title)
            ));
            open = true;
        }
        main.push_str(&declaration(site, m, *item, run, &tried));
    }
    if open {
        main.push_str("</section>\n");
    }
    main.push_str(&format!(
        "<script type=\"application/json\" id=\"t27-page\">{}</script>\n",
        crate::html::script_json(&tryit::page_data(site, m, &tried))
    ));
    let root = up(p, m);
    let scripts = if run.mirrored {
        vec![
            format!("{root}t27_runtime.js"),
            format!("{root}{}.js", module.path.join("/")),
            format!("{root}doc.js"),
        ]
    } else {
        Vec::new()
    };
    frame(
        site,
        Some(m),
        &format!("{} — t27", module.path.join("/")),
        &main,
        &scripts,
    )
}

/// Where the `module` declaration starts (the end of the file when it has none).
fn module_offset(text: &str) -> usize {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("module ") || t.starts_with("pub module ") {
            return at;
        }
        at += line.len();
    }
    text.len()
}
