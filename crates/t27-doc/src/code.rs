//! Spec source as HTML, every name that stands for a declaration a link to it.

use crate::html::{escape, href};
use t27_check::{Checked, NameUse};
use t27_diag::{FileId, Span};
use t27_ir::ModuleId;

/// The names written in each file, in source order.
pub struct Names<'a> {
    uses: Vec<&'a NameUse>,
}

impl<'a> Names<'a> {
    pub fn new(checked: &'a Checked) -> Names<'a> {
        let mut uses: Vec<&NameUse> = checked.names.iter().collect();
        uses.sort_by_key(|u| (u.file, u.span.start));
        Names { uses }
    }

    fn within(&self, file: FileId, span: Span) -> &[&'a NameUse] {
        let start = self
            .uses
            .partition_point(|u| (u.file, u.span.start) < (file, span.start));
        let end = self
            .uses
            .partition_point(|u| (u.file, u.span.start) < (file, span.end));
        &self.uses[start..end]
    }
}

/// The source of `span` in module `m`'s file, escaped, with its names linked.
pub fn linked(checked: &Checked, names: &Names, m: ModuleId, span: Span) -> String {
    let p = &checked.program;
    let file = p.modules[m.index()].file;
    let text = &checked.sources.get(file).text;
    let end = (span.end as usize).min(text.len());
    let mut at = (span.start as usize).min(end);
    let mut out = String::new();
    for u in names.within(file, span) {
        let (s, e) = (u.span.start as usize, (u.span.end as usize).min(end));
        if s < at || e <= s {
            continue;
        }
        let Some(link) = href(p, m, &u.target) else {
            continue;
        };
        out.push_str(&escape(&text[at..s]));
        out.push_str(&format!(
            "<a href=\"{}\">{}</a>",
            escape(&link),
            escape(&text[s..e])
        ));
        at = e;
    }
    out.push_str(&escape(&text[at..end]));
    out
}
