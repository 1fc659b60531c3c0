//! The index: every module with the first line of its header, what it declares, and how its
//! blocks came out.

use crate::Site;
use crate::html::{escape, page_path};
use crate::page::frame;
use crate::prose;
use t27_check::ModuleFault;
use t27_ir::ItemRef;

fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub fn index_page(site: &Site, faults: &[Option<ModuleFault>]) -> String {
    let p = &site.checked.program;
    let mut main = String::from(
        "<h1>Specs</h1>\n<table class=\"modules\">\n<caption>Every module, with what it declares</caption>\n<thead>\n<tr><th scope=\"col\">Module</th><th scope=\"col\">About</th><th scope=\"col\">Declares</th><th scope=\"col\">Blocks</th></tr>\n</thead>\n<tbody>\n",
    );
    for m in &site.modules {
        let module = &p.modules[m.index()];
        let text = &site.checked.sources.get(module.file).text;
        let about = text
            .find("module ")
            .map(|at| prose::header(text, at))
            .and_then(|lines| lines.first().map(|l| prose::inline(l)))
            .unwrap_or_default();
        let (mut consts, mut functions, mut structs, mut blocks) = (0, 0, 0, Vec::new());
        for item in &module.items {
            match item {
                ItemRef::Const(_) | ItemRef::Global(_) => consts += 1,
                ItemRef::Fn(_) => functions += 1,
                ItemRef::Struct(_) => structs += 1,
                ItemRef::Test(t) => blocks.push(*t),
            }
        }
        let mut declares = vec![
            count(consts, "constant", "constants"),
            count(functions, "function", "functions"),
        ];
        if structs > 0 {
            declares.push(count(structs, "struct", "structs"));
        }
        let outcomes = if site.ran {
            let passed = blocks
                .iter()
                .filter(|t| site.reports.get(t).is_some_and(|r| r.passed()))
                .count();
            match blocks.len() {
                0 => "no blocks".to_string(),
                n => format!("{passed} of {n} passed"),
            }
        } else {
            count(blocks.len(), "block", "blocks")
        };
        let fault = match &faults[m.index()] {
            Some(f) => format!(
                "{}<span class=\"fault\">Not tried: {}</span>",
                if about.is_empty() { "" } else { "<br>" },
                escape(&f.describe(p, &site.checked.sources))
            ),
            None => String::new(),
        };
        main.push_str(&format!(
            "<tr><th scope=\"row\"><a href=\"{}\">{}</a></th><td>{about}{fault}</td><td>{}</td><td>{outcomes}</td></tr>\n",
            escape(&page_path(p, *m)),
            escape(&module.path.join("/")),
            declares.join(", ")
        ));
    }
    main.push_str("</tbody>\n</table>\n");
    frame(site, None, "Specs — t27", &main, &[])
}
