//! Warnings about style that the language accepts: forms seen in the wild (section 7).

use crate::checker::Checker;
use std::sync::Arc;
use t27_diag::{Code, Diagnostic, Span};
use t27_syntax::ast::ItemKind;

impl Checker {
    pub(crate) fn lint_modules(&mut self) {
        let modules = Arc::clone(&self.modules);
        for m in modules.iter() {
            // `&&`/`||` beside `and`/`or` in one file.
            if m.ast.word_logic_ops > 0 {
                for span in &m.ast.symbolic_logic_ops {
                    let text = self.sources.get(m.file).text.as_bytes();
                    let word = if span.len() == 2 && text.get(span.start as usize) == Some(&b'&') {
                        "and"
                    } else {
                        "or"
                    };
                    // `a&&b` becomes `a and b`: a word needs space either side.
                    let spaced = |at: Option<usize>| {
                        at.and_then(|i| text.get(i))
                            .is_none_or(u8::is_ascii_whitespace)
                    };
                    let before = if spaced((span.start as usize).checked_sub(1)) {
                        ""
                    } else {
                        " "
                    };
                    let after = if spaced(Some(span.end as usize)) {
                        ""
                    } else {
                        " "
                    };
                    let replacement = format!("{before}{word}{after}");
                    self.report(
                        Diagnostic::new(
                            Code("W0003"),
                            m.file,
                            *span,
                            "this file mixes symbolic and word logic operators",
                        )
                        .with_label(format!("the rest of the file writes `{word}`"))
                        .with_help(format!("write `{word}`"))
                        .with_fix(*span, replacement),
                    );
                }
            }
            // Indented `;` comment lines inside function, test and invariant bodies.
            let bodies: Vec<_> = m
                .ast
                .items
                .iter()
                .filter_map(|i| match &i.kind {
                    ItemKind::Fn(f) => Some(f.body.span),
                    ItemKind::Test(t) => Some(t.body.span),
                    _ => None,
                })
                .collect();
            for c in m.semicolon_comments.iter().filter(|c| c.indented) {
                if bodies
                    .iter()
                    .any(|b| b.start <= c.span.start && c.span.end <= b.end)
                {
                    self.report(
                        Diagnostic::new(
                            Code("W0006"),
                            m.file,
                            c.span,
                            "an indented `;` comment inside a body",
                        )
                        .with_label("read as a comment, easily mistaken for an empty statement")
                        .with_help("write the comment with `//`")
                        .with_fix(
                            Span::new(c.span.start as usize, c.span.start as usize + 1),
                            "//",
                        ),
                    );
                }
            }
        }
    }
}
