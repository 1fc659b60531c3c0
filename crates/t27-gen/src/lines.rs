//! Places in a spec as generated code names them: `queen/dispatch.t27:12:8-12:19` (lines and
//! columns from 1, columns in characters, the end just past the span, as `t27 check --format
//! json` counts them).

use std::cell::RefCell;
use std::collections::HashMap;
use t27_diag::Span;
use t27_ir::{ModuleId, Program};

pub struct Places<'a> {
    p: &'a Program,
    source: &'a dyn Fn(ModuleId) -> String,
    /// Per module read so far: its source and where each of its lines starts.
    files: RefCell<HashMap<ModuleId, (String, Vec<usize>)>>,
}

impl<'a> Places<'a> {
    pub fn new(p: &'a Program, source: &'a dyn Fn(ModuleId) -> String) -> Places<'a> {
        Places {
            p,
            source,
            files: RefCell::new(HashMap::new()),
        }
    }

    pub fn place(&self, m: ModuleId, span: Span) -> String {
        let mut files = self.files.borrow_mut();
        let (text, starts) = files.entry(m).or_insert_with(|| {
            let text = (self.source)(m);
            let starts = std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect();
            (text, starts)
        });
        let at = |offset: usize| {
            let offset = offset.min(text.len());
            let line = starts.partition_point(|&s| s <= offset).max(1);
            let start = starts[line - 1];
            let column = text
                .get(start..offset)
                .map_or(offset - start, |s| s.chars().count());
            (line, column + 1)
        };
        let (l1, c1) = at(span.start as usize);
        let (l2, c2) = at(span.end as usize);
        let name = crate::spec_name(&self.p.modules[m.index()]);
        format!("{name}:{l1}:{c1}-{l2}:{c2}")
    }
}
