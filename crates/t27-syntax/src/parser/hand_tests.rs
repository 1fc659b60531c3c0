//! The hand-written statement parser (`hand.rs`) reads what chumsky's reads: every `{ ... }`
//! group of tokens in every fixture and seed, and in copies of them with one token deleted,
//! doubled, swapped with the next or replaced, gives the same block by hand as by chumsky's
//! statement parser, or makes the hand parser give up. And it does not give up on the
//! bodies of good specs.

use super::mutants::for_each_mutant;
use super::{hand, parse_block_by_chumsky};
use crate::token::Token;
use crate::{lexer, test_files};
use chumsky::span::SimpleSpan;
use t27_diag::FileId;

type Tokens<'s> = Vec<(Token<'s>, SimpleSpan)>;

/// The `{ ... }` groups of `tokens` (with their brackets), outermost first, as index ranges;
/// only those at most `max_depth` deep.
fn brace_groups(tokens: &[(Token<'_>, SimpleSpan)], max_depth: usize) -> Vec<(usize, usize)> {
    let mut open = Vec::new();
    let mut groups = Vec::new();
    for (i, (t, _)) in tokens.iter().enumerate() {
        match t {
            Token::LBrace => open.push(i),
            Token::RBrace => {
                if let Some(start) = open.pop()
                    && open.len() < max_depth
                {
                    groups.push((start, i + 1));
                }
            }
            _ => {}
        }
    }
    groups.sort();
    groups
}

/// Both parsers on one group: the same block, or the hand parser gave up. Whether the hand
/// parser read it.
fn agree(src_end: usize, group: &[(Token<'_>, SimpleSpan)], what: &dyn Fn() -> String) -> bool {
    let by_hand = hand::block(src_end, group);
    if let Some(block) = &by_hand {
        let by_chumsky = parse_block_by_chumsky(src_end, group);
        assert!(by_chumsky.as_ref() == Some(block), "{}", what());
    }
    by_hand.is_some()
}

#[test]
fn every_block_reads_the_same_by_hand_and_by_chumsky() {
    let (mut read, mut groups) = (0, 0);
    for (path, src) in test_files::specs() {
        let tokens: Tokens<'_> = lexer::lex(FileId(0), &src).tokens;
        let name = path.display().to_string();
        let good = !["/errors/", "/isolation/", "/hostile/"]
            .iter()
            .any(|bad| name.contains(bad));
        for (start, end) in brace_groups(&tokens, usize::MAX) {
            let group = &tokens[start..end];
            let what = || format!("{name}: tokens {start}..{end}");
            let by_hand = agree(src.len(), group, &what);
            let by_chumsky = parse_block_by_chumsky(src.len(), group).is_some();
            groups += 1;
            read += usize::from(by_hand);
            // A group chumsky reads as a block in a good spec is read by hand too (a struct
            // literal's braces are not a block: neither reads those).
            if good && by_chumsky {
                assert!(by_hand, "{}: the hand parser gave up", what());
            }
        }
    }
    assert!(
        read > 500 && groups > read / 2,
        "{read} of {groups} groups read by hand"
    );
}

/// Tokens that start, end or join statements and expressions.
const REPLACEMENTS: [Token<'static>; 20] = [
    Token::Semi,
    Token::Comma,
    Token::LParen,
    Token::RParen,
    Token::LBrace,
    Token::RBrace,
    Token::Colon,
    Token::Eq,
    Token::PlusEq,
    Token::Else,
    Token::If,
    Token::While,
    Token::Return,
    Token::Var,
    Token::As,
    Token::LBracket,
    Token::RBracket,
    Token::ColonColon,
    Token::Ident("x"),
    Token::Int("1"),
];

#[test]
fn mutated_blocks_read_the_same_by_hand_and_by_chumsky() {
    let (mut mutants, mut read) = (0, 0);
    for (path, src) in test_files::specs() {
        let tokens: Tokens<'_> = lexer::lex(FileId(0), &src).tokens;
        for_each_mutant(&tokens, 300, &REPLACEMENTS, |at, how, t| {
            // The outermost groups (bodies) around the change, and the groups in them.
            for (start, end) in brace_groups(t, 3) {
                if start <= at && at < end {
                    mutants += 1;
                    let what = || {
                        let file = path.display();
                        format!("{file}: mutation {how} at token {at}, tokens {start}..{end}")
                    };
                    read += usize::from(agree(src.len(), &t[start..end], &what));
                }
            }
        });
    }
    // Both ways: blocks the hand parser read (and matched), and blocks it gave up on.
    assert!(
        mutants > 10_000 && read > mutants / 10 && read < mutants,
        "mutants made: {mutants}, read by hand: {read}"
    );
}
