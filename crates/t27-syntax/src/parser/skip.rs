//! Test and invariant bodies taken whole, unread: their statements are read when the block is
//! lowered (`bodies.rs`), once, instead of here and again there.
//!
//! Before a piece of a file is parsed, each `test NAME { ... }` (or `invariant`) whose body
//! nothing could make the parser end anywhere but at its matching `}` becomes `test NAME`
//! and one [`Token::Body`]: its brackets nest properly, and no token in it starts a
//! declaration (where the parser ends a block that lost its `}`) or was rejected by the lexer.
//! Any other body is parsed as before. Either way the tree is the same (`bodies.rs` tests it
//! against the whole parse, on every fixture and on mutated copies).

use crate::token::Token;
use chumsky::span::SimpleSpan;

/// Replaces, in place, each test and invariant body that can be taken unread with a
/// [`Token::Body`] spanning it.
pub(crate) fn take_bodies_whole(tokens: &mut Vec<(Token<'_>, SimpleSpan)>) {
    let kept = take_bodies_whole_in(tokens);
    tokens.truncate(kept);
}

/// [`take_bodies_whole`] within a slice: the tokens that remain are moved to its start, and
/// their number returned.
pub(crate) fn take_bodies_whole_in(tokens: &mut [(Token<'_>, SimpleSpan)]) -> usize {
    let mut kept = 0;
    let mut at = 0;
    while at < tokens.len() {
        let body_end = match (tokens.get(at), tokens.get(at + 1), tokens.get(at + 2)) {
            (
                Some((Token::Test | Token::Invariant, _)),
                Some((Token::Ident(_), _)),
                Some((Token::LBrace, _)),
            ) => body_end(tokens, at + 2),
            _ => None,
        };
        match body_end {
            Some(end) => {
                let span = SimpleSpan::from(tokens[at + 2].1.start..tokens[end].1.end);
                tokens[kept] = tokens[at];
                tokens[kept + 1] = tokens[at + 1];
                tokens[kept + 2] = (Token::Body, span);
                kept += 3;
                at = end + 1;
            }
            None => {
                tokens[kept] = tokens[at];
                kept += 1;
                at += 1;
            }
        }
    }
    kept
}

/// The index of the `}` that closes the `{` at `open`, when the body can be taken unread.
fn body_end(tokens: &[(Token<'_>, SimpleSpan)], open: usize) -> Option<usize> {
    // The closing brackets expected, innermost last.
    let mut expected: Vec<Token<'_>> = Vec::new();
    for (i, (t, _)) in tokens.iter().enumerate().skip(open) {
        match t {
            Token::LBrace => expected.push(Token::RBrace),
            Token::LParen => expected.push(Token::RParen),
            Token::LBracket => expected.push(Token::RBracket),
            Token::RBrace | Token::RParen | Token::RBracket => {
                if expected.pop() != Some(*t) {
                    return None;
                }
                if expected.is_empty() {
                    return Some(i);
                }
            }
            t if t.starts_declaration() || *t == Token::Error => return None,
            _ => {}
        }
    }
    None
}
