//! Test and invariant bodies out of the tree: their statements are read again, from the
//! source, when the checker lowers them and when a block runs.
//!
//! Nothing refers to a block, so nothing needs its statements but the lowering of that block.
//! A generated replay spec is a million asserts in a thousand blocks: held as syntax, they
//! were most of the memory (and so, through the kernel zeroing fresh pages, of the time) of
//! checking it. A body with a lexical or syntax error inside keeps its statements, recovered
//! as well as the parser could: reading it again would not give them.

use crate::ast::{Block, Item, ItemKind};
use crate::{lexer, parser};
use t27_diag::{Diagnostic, FileId, Span};

/// Empties the statements of every test and invariant body without an error inside it.
pub(crate) fn leave_out_test_bodies(items: &mut [Item], diagnostics: &[Diagnostic]) {
    for item in items {
        if let ItemKind::Test(t) = &mut item.kind {
            let span = t.body.span;
            let broken = diagnostics.iter().any(|d| {
                d.is_error() && span.start <= d.primary.span.start && d.primary.span.start < span.end
            });
            if !broken {
                t.body.stmts = Vec::new();
            }
        }
    }
}

/// The statements of a test or invariant body whose statements the tree left out, read again
/// from `src`: `body` is the body's span, `{` to `}`. `None` when they do not parse, which
/// does not happen for a body the parser left out (it had no error).
pub fn parse_body(file: FileId, src: &str, body: Span) -> Option<Block> {
    let (start, end) = (body.start as usize, body.end as usize);
    if start >= end || end > src.len() || !src.is_char_boundary(start) {
        return None;
    }
    let mut lexer = lexer::Lexer::from(file, src, start, (end - start) / 2 + 1);
    while lexer.out.tokens.last().is_none_or(|(_, s)| s.end < end) {
        if !lexer.step() {
            break;
        }
    }
    let tokens = &lexer.out.tokens;
    if tokens.last().is_none_or(|(_, s)| s.end != end) {
        return None;
    }
    parser::parse_block_fast(end, tokens)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{decode, parse_in_pieces, test_files};

    /// Every body left out of a fixture's or seed's tree reads again to what the whole-file
    /// parse gives it when nothing is left out.
    #[test]
    fn a_body_left_out_reads_again_as_it_was() {
        let mut bodies = 0;
        for path in test_files::specs() {
            let bytes = std::fs::read(&path).expect("fixture read");
            let (src, _) = decode(FileId(0), &bytes);
            let tokens = lexer::lex(FileId(0), &src).tokens;
            let kept = parser::parse_rich(FileId(0), src.len(), &tokens).0;
            let parsed = parse_in_pieces(FileId(0), &src, usize::MAX, false);
            let kept: Vec<&Item> = kept
                .iter()
                .filter_map(|top| match top {
                    parser::TopLevel::Item(item) => Some(item),
                    parser::TopLevel::Module(_) => None,
                })
                .collect();
            for item in &parsed.file.items {
                let ItemKind::Test(t) = &item.kind else {
                    continue;
                };
                if !t.body.stmts.is_empty() {
                    continue;
                }
                let Some(ItemKind::Test(whole)) = kept
                    .iter()
                    .find(|k| k.span == item.span)
                    .map(|k| &k.kind)
                else {
                    panic!("{}: no block at {:?} in the whole parse", path.display(), item.span);
                };
                let again = parse_body(FileId(0), &src, t.body.span);
                assert_eq!(again.as_ref(), Some(&whole.body), "{}: {}", path.display(), t.name.name);
                bodies += 1;
            }
        }
        assert!(bodies > 100, "bodies read again: {bodies}");
    }
}
