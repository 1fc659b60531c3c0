//! The hand-written expression parser of the fast pass (`climb.rs`) reads what chumsky's reads:
//! on every fixture and seed, and on copies of them with one token deleted, doubled, swapped
//! with the next or replaced, the fast pass gives the same declarations (or the same failure)
//! whichever parser reads the expressions.

use super::mutants::for_each_mutant;
use super::parse_fast_by;
use crate::token::Token;
use crate::{lexer, test_files};
use chumsky::span::SimpleSpan;
use t27_diag::FileId;

type Tokens<'s> = Vec<(Token<'s>, SimpleSpan)>;

fn agree(src_end: usize, tokens: &[(Token<'_>, SimpleSpan)], what: &dyn Fn() -> String) {
    let by_hand = parse_fast_by(src_end, tokens, true);
    let by_chumsky = parse_fast_by(src_end, tokens, false);
    assert!(by_hand == by_chumsky, "{}", what());
}

/// Tokens that start, end or join expressions: the places where the two parsers could part.
const REPLACEMENTS: [Token<'static>; 18] = [
    Token::Comma,
    Token::LParen,
    Token::RParen,
    Token::LBracket,
    Token::RBracket,
    Token::LBrace,
    Token::RBrace,
    Token::Minus,
    Token::Amp,
    Token::Bang,
    Token::Star,
    Token::As,
    Token::Dot,
    Token::Else,
    Token::FatArrow,
    Token::ColonColon,
    Token::Ident("x"),
    Token::Int("1"),
];

#[test]
fn fixtures_parse_the_same_by_hand_and_by_chumsky() {
    for (path, src) in test_files::specs() {
        let tokens: Tokens<'_> = lexer::lex(FileId(0), &src).tokens;
        let name = path.display().to_string();
        agree(src.len(), &tokens, &|| name.clone());
        assert!(
            parse_fast_by(src.len(), &tokens, true).is_some()
                || name.contains("/errors/")
                || name.contains("/isolation/")
                || name.contains("/hostile/")
                // A warning the parser gives (`#[test] fn`) is for the rich pass to explain.
                || !crate::parse(FileId(0), &src).diagnostics.is_empty(),
            "{name}: the fast pass reads no good fixture"
        );
    }
}

#[test]
fn mutated_fixtures_parse_the_same_by_hand_and_by_chumsky() {
    let mut mutants = 0;
    for (path, src) in test_files::specs() {
        let tokens: Tokens<'_> = lexer::lex(FileId(0), &src).tokens;
        // Every position in a small file; every few in a large one.
        for_each_mutant(&tokens, 400, &REPLACEMENTS, |at, how, t| {
            mutants += 1;
            let what = || format!("{}: mutation {how} at token {at}", path.display());
            agree(src.len(), t, &what);
        });
    }
    assert!(mutants > 10_000, "mutants made: {mutants}");
}
