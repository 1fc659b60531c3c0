//! Bodies taken whole, unread: their statements are read when the body is lowered
//! (`bodies.rs`), once, instead of here and again there.
//!
//! Before a piece of a file is parsed, each `test NAME { ... }` (or `invariant`), and each
//! `fn NAME(...) -> T { ... }`, whose body nothing could make the parser end anywhere but at
//! its matching `}` becomes the same tokens up to the body and one [`Token::Body`]: its
//! brackets nest properly, and no token in it starts a declaration (where the parser ends a
//! block that lost its `}`) or was rejected by the lexer. A function's signature must be as
//! plain: brackets that nest, and nothing before the `{` that could end the declaration.
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
        let open = match (tokens.get(at), tokens.get(at + 1), tokens.get(at + 2)) {
            (
                Some((Token::Test | Token::Invariant, _)),
                Some((Token::Ident(_), _)),
                Some((Token::LBrace, _)),
            ) => Some(at + 2),
            (Some((Token::Fn, _)), Some((Token::Ident(_), _)), Some((Token::LParen, _))) => {
                signature_end(tokens, at + 2)
            }
            _ => None,
        };
        let body = open.and_then(|open| Some((open, body_end(tokens, open)?)));
        match body {
            Some((open, end)) => {
                let span = SimpleSpan::from(tokens[open].1.start..tokens[end].1.end);
                tokens.copy_within(at..open, kept);
                kept += open - at;
                tokens[kept] = (Token::Body, span);
                kept += 1;
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

/// The index of the `{` that opens a function's body, the parameter list starting at `params`:
/// only after a signature that parses as written (`(a: T, ...)`, then `-> T` or nothing), so
/// that the parser reads it exactly as it would with the body in place.
fn signature_end(tokens: &[(Token<'_>, SimpleSpan)], params: usize) -> Option<usize> {
    let mut at = Signature { tokens, at: params };
    at.eat(Token::LParen)?;
    while !at.peek_is(Token::RParen) {
        at.ident()?;
        at.eat(Token::Colon)?;
        at.ty(0)?;
        if !at.peek_is(Token::RParen) {
            at.eat(Token::Comma)?;
        }
    }
    at.eat(Token::RParen)?;
    if at.peek_is(Token::Arrow) {
        at.eat(Token::Arrow)?;
        at.ty(0)?;
    }
    at.peek_is(Token::LBrace).then_some(at.at)
}

/// A reader of a function signature's tokens for [`signature_end`]: each step `None` when the
/// tokens are not what the parser's grammar wants there.
struct Signature<'a, 't> {
    tokens: &'a [(Token<'t>, SimpleSpan)],
    at: usize,
}

impl Signature<'_, '_> {
    fn peek_is(&self, t: Token<'_>) -> bool {
        self.tokens.get(self.at).is_some_and(|(next, _)| *next == t)
    }
    fn eat(&mut self, t: Token<'_>) -> Option<()> {
        self.peek_is(t).then(|| self.at += 1)
    }
    fn ident(&mut self) -> Option<()> {
        matches!(self.tokens.get(self.at), Some((Token::Ident(_), _))).then(|| self.at += 1)
    }
    /// `a` or `a::b::c`.
    fn path(&mut self) -> Option<()> {
        self.ident()?;
        while self.eat(Token::ColonColon).is_some() {
            self.ident()?;
        }
        Some(())
    }
    /// A type as `expr::type_expr` reads it: `[]T`, `[]const T`, `[N]T`, a path, a tuple.
    /// Nesting is bounded; a deeper type is left to the parser.
    fn ty(&mut self, depth: usize) -> Option<()> {
        if depth > 16 {
            return None;
        }
        match self.tokens.get(self.at).map(|(t, _)| *t)? {
            Token::LBracket => {
                self.at += 1;
                if self.eat(Token::RBracket).is_some() {
                    let _ = self.eat(Token::Const);
                } else {
                    if !matches!(self.tokens.get(self.at), Some((Token::Int(_), _))) {
                        self.path()?;
                    } else {
                        self.at += 1;
                    }
                    self.eat(Token::RBracket)?;
                }
                self.ty(depth + 1)
            }
            Token::LParen => {
                self.at += 1;
                while !self.peek_is(Token::RParen) {
                    self.ty(depth + 1)?;
                    if !self.peek_is(Token::RParen) {
                        self.eat(Token::Comma)?;
                    }
                }
                self.eat(Token::RParen)
            }
            _ => self.path(),
        }
    }
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
