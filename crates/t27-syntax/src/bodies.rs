//! Function, test and invariant bodies out of the tree: their statements are read again, from
//! the source, when the checker lowers them and when a block runs.
//!
//! Nothing needs a body's statements but the lowering of that body. A generated replay spec is
//! a million asserts in a thousand blocks, and a large tree mostly function bodies: held as
//! syntax until lowered, they were most of the memory (and so, through the kernel zeroing
//! fresh pages, of the time) of checking them. A body with a lexical or syntax error inside keeps its statements, recovered
//! as well as the parser could: reading it again would not give them.

use crate::ast::{Block, Item, ItemKind};
use crate::{lexer, parser};
use t27_diag::{Diagnostic, FileId, Span};

/// Empties the statements of every function, test and invariant body without an error inside
/// it.
pub(crate) fn leave_out_bodies(items: &mut [Item], diagnostics: &[Diagnostic]) {
    for item in items {
        let body = match &mut item.kind {
            ItemKind::Test(t) => &mut t.body,
            ItemKind::Fn(f) => &mut f.body,
            _ => continue,
        };
        let span = body.span;
        let broken = diagnostics.iter().any(|d| {
            d.is_error() && span.start <= d.primary.span.start && d.primary.span.start < span.end
        });
        if !broken {
            body.stmts = Vec::new();
        }
    }
}

/// The syntax errors inside the bodies of `items` that the tree left out (taken whole, they
/// were not read when the file was parsed): with the file's own, every syntax error of the
/// file. What a tool that needs the whole file sound without checking it asks (`t27 fmt`).
pub fn errors_in_bodies(file: FileId, src: &str, items: &[Item]) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    for item in items {
        let body = match &item.kind {
            ItemKind::Test(t) => &t.body,
            ItemKind::Fn(f) => &f.body,
            _ => continue,
        };
        if body.stmts.is_empty() && parse_body(file, src, body.span).is_none() {
            errors.extend(parse_body_with_errors(file, src, body.span).1);
        }
    }
    errors
}

/// The statements of a body the tree left out, read from `src`: `body` is
/// the body's span, `{` to `}`. `None` when they do not parse: [`parse_body_with_errors`]
/// then says why.
pub fn parse_body(file: FileId, src: &str, body: Span) -> Option<Block> {
    let (tokens, end) = body_tokens(file, src, body)?;
    parser::parse_block_fast(end, &tokens)
}

/// The statements of a body the tree left out, as far as they parse, and the syntax errors in
/// them: what parsing the whole file with rich errors gives for that body (the tests hold it
/// to that on every fixture, and on mutated copies of them).
pub fn parse_body_with_errors(file: FileId, src: &str, body: Span) -> (Block, Vec<Diagnostic>) {
    let empty = Block {
        stmts: Vec::new(),
        span: body,
    };
    let Some((tokens, end)) = body_tokens(file, src, body) else {
        return (empty, Vec::new());
    };
    let (block, errors) = parser::parse_block_rich(file, end, &tokens);
    (block.unwrap_or(empty), errors)
}

/// The tokens of a body, lexed again from its `{`, and where it ends.
fn body_tokens(
    file: FileId,
    src: &str,
    body: Span,
) -> Option<(Vec<(crate::token::Token<'_>, lexer::TokenSpan)>, usize)> {
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
    let tokens = lexer.out.tokens;
    if tokens.last().is_none_or(|(_, s)| s.end != end) {
        return None;
    }
    Some((tokens, end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::{FnDecl, Item, TestDecl};
    use crate::{parse_in_pieces, test_files};

    /// What the whole file parsed with rich errors and every body read gives: the items, and
    /// the syntax errors.
    fn read_whole(src: &str) -> (Vec<Item>, Vec<Diagnostic>) {
        let tokens = lexer::lex(FileId(0), src).tokens;
        let (tops, mut errors) = parser::parse_rich(FileId(0), src.len(), &tokens);
        // As the front end does: a `;` missing right after a token the lexer rejected is not
        // reported.
        let bad_ends: Vec<u32> = tokens
            .iter()
            .filter(|(t, _)| *t == crate::token::Token::Error)
            .map(|(_, s)| s.end as u32)
            .collect();
        errors
            .retain(|d| !(d.code.as_str() == "E0101" && bad_ends.contains(&d.primary.span.start)));
        let items = tops
            .into_iter()
            .filter_map(|top| match top {
                parser::TopLevel::Item(item) => Some(item),
                parser::TopLevel::Module(_) => None,
            })
            .collect();
        (items, errors)
    }

    /// The file as the front end reads it gives what the whole read gives: the same items, a
    /// body left out reads again to the same statements, with the same errors; the count of
    /// bodies left out is returned.
    fn reads_as_whole(src: &str, what: &dyn Fn() -> String) -> usize {
        let parsed = parse_in_pieces(FileId(0), src, usize::MAX, false, None);
        let (whole, whole_errors) = read_whole(src);
        let mut errors: Vec<Diagnostic> = parsed
            .diagnostics
            .iter()
            .filter(|d| whole_errors.contains(d))
            .cloned()
            .collect();
        let mut left_out = 0;
        let mut items = parsed.file.items.clone();
        for item in &mut items {
            let body = match &mut item.kind {
                ItemKind::Test(TestDecl { body, .. }) | ItemKind::Fn(FnDecl { body, .. }) => body,
                _ => continue,
            };
            if !body.stmts.is_empty() {
                continue;
            }
            left_out += 1;
            match parse_body(FileId(0), src, body.span) {
                Some(read) => *body = read,
                None => {
                    let (read, more) = parse_body_with_errors(FileId(0), src, body.span);
                    *body = read;
                    errors.extend(more);
                }
            }
        }
        // The whole read's items, bodies and all, when the file got as far as items.
        if !items.is_empty() || parsed.diagnostics.iter().all(|d| !d.is_error()) {
            assert_eq!(items, whole, "{}", what());
        }
        let key = |d: &Diagnostic| (d.primary.span.start, d.primary.span.end, d.message.clone());
        errors.sort_by_key(key);
        errors.dedup();
        let mut expected = whole_errors.clone();
        expected.sort_by_key(key);
        expected.dedup();
        if !items.is_empty() {
            assert_eq!(
                errors,
                expected,
                "{}\nthe front end's: {:#?}",
                what(),
                parsed.diagnostics
            );
        }
        left_out
    }

    /// Every fixture and seed.
    #[test]
    fn a_body_left_out_reads_again_as_it_was() {
        let mut bodies = 0;
        for (path, src) in test_files::specs() {
            bodies += reads_as_whole(&src, &|| path.display().to_string());
        }
        assert!(bodies > 100, "bodies read again: {bodies}");
    }

    /// Copies of the fixtures with a token deleted, doubled, or replaced by text that starts,
    /// ends or breaks a statement.
    #[test]
    fn mutated_bodies_read_again_as_they_were() {
        const TEXTS: [&str; 8] = ["", "{", "}", "(", ")", ";", "pub ", "1 +"];
        let mut mutants = 0;
        for (path, src) in test_files::specs() {
            let tokens = lexer::lex(FileId(0), &src).tokens;
            let step = (tokens.len() / 150).max(1);
            for (i, (_, at)) in tokens.iter().enumerate().step_by(step) {
                for how in 0..2 {
                    let text = match how {
                        0 => TEXTS[i % TEXTS.len()].to_string(),
                        _ => src[at.start..at.end].repeat(2),
                    };
                    let mutant = format!("{}{text}{}", &src[..at.start], &src[at.end..]);
                    mutants += 1;
                    reads_as_whole(&mutant, &|| {
                        format!("{}: token {i} -> {text:?}", path.display())
                    });
                }
            }
        }
        assert!(mutants > 5_000, "mutants: {mutants}");
    }
}
