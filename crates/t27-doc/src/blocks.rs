//! The test and invariant blocks on a page: each one's outcome from a run (`t27 doc --run`),
//! without its time (the page is the same bytes from one build to the next), and a flag on a
//! block that runs no code because every assert of it was decided when the spec was compiled.

use crate::Site;
use crate::html::{anchor, escape};
use t27_ir::{ItemRef, ModuleId, TestId};

fn line_of(text: &str, offset: u32) -> usize {
    t27_diag::LineIndex::new(text)
        .line_col(text, offset as usize)
        .0
}

/// The asserts of block `t` that ran code and that were folded: the run's counts, or the
/// check's when there was no run.
fn counts(site: &Site, t: TestId) -> (u32, u32) {
    match site.reports.get(&t) {
        Some(r) => (r.runtime_asserts, r.folded_asserts),
        None => {
            let test = &site.checked.program.tests[t.index()];
            (test.runtime_asserts, test.folded_asserts)
        }
    }
}

fn plural(n: u32, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

pub fn outcome(site: &Site, t: TestId) -> String {
    let p = &site.checked.program;
    let test = &p.tests[t.index()];
    let text = &site
        .checked
        .sources
        .get(p.modules[test.decl.module.index()].file)
        .text;
    let (runtime, folded) = counts(site, t);
    let mut out = String::new();
    match site.reports.get(&t) {
        None if site.ran => out.push_str(
            "<p class=\"outcome none\">Not run.</p>\n",
        ),
        None => out.push_str(
            "<p class=\"outcome none\">Not run: <code>t27 doc --run</code> shows each block's outcome.</p>\n",
        ),
        Some(r) => {
            let (word, title, notes, at) = t27_run::outcome_words(site.checked, r);
            let class = word.replace(' ', "-");
            let mut line = format!(
                "<p class=\"outcome {class}\"><strong>{}</strong>",
                escape(word)
            );
            // `trap: division by zero` under the word `trap` says it once.
            let title = title
                .strip_prefix(&format!("{word}: "))
                .unwrap_or(&title)
                .to_string();
            if !title.is_empty() {
                line.push_str(&format!(": {}", escape(&title)));
            }
            if let Some(span) = at {
                line.push_str(&format!(" (line {})", line_of(text, span.start)));
            }
            line.push_str("</p>\n");
            out.push_str(&line);
            if !notes.is_empty() {
                out.push_str("<ul class=\"notes\">\n");
                for n in notes {
                    out.push_str(&format!("<li><code>{}</code></li>\n", escape(&n)));
                }
                out.push_str("</ul>\n");
            }
        }
    }
    out.push_str(&format!(
        "<p class=\"counts\">{} that run code, {} decided when the spec was compiled.</p>\n",
        plural(runtime, "assert"),
        folded
    ));
    if runtime == 0 {
        out.push_str(&format!(
            "<p class=\"flag\" role=\"note\">Folded: this {} runs no code. {}</p>\n",
            match test.kind {
                t27_ir::TestKind::Test => "test",
                t27_ir::TestKind::Invariant => "invariant",
            },
            if folded > 0 {
                "Every assert in it is about constants only, so it was decided when the spec was compiled; it guards the constants, not the functions."
            } else {
                "It has no assert."
            }
        ));
    }
    out
}

/// A line under the header: how many blocks the module has and how they came out, each
/// linked.
pub fn summary(site: &Site, m: ModuleId) -> String {
    let p = &site.checked.program;
    let blocks: Vec<TestId> = p.modules[m.index()]
        .items
        .iter()
        .filter_map(|i| match i {
            ItemRef::Test(t) => Some(*t),
            _ => None,
        })
        .collect();
    if blocks.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<section class=\"blocks\" aria-labelledby=\"blocks\">\n<h2 id=\"blocks\">Tests and invariants</h2>\n<ul>\n",
    );
    for t in &blocks {
        let test = &p.tests[t.index()];
        let word = match site.reports.get(t) {
            Some(r) => t27_run::outcome_words(site.checked, r).0,
            None => "not run",
        };
        let (runtime, _) = counts(site, *t);
        out.push_str(&format!(
            "<li><a href=\"#{}\">{}</a> <span class=\"outcome {}\">{}</span>{}</li>\n",
            escape(&anchor(p, ItemRef::Test(*t))),
            escape(&test.decl.name),
            word.replace(' ', "-"),
            escape(word),
            if runtime == 0 {
                " <span class=\"flag\">folded</span>"
            } else {
                ""
            }
        ));
    }
    out.push_str("</ul>\n</section>\n");
    out
}
