//! `t27 fmt`: one canonical layout of a spec.
//!
//! The formatter changes whitespace and nothing else: the tokens of the formatted file are the
//! tokens of the original, in order, and every comment is where it stood (a trailing comment
//! after the same token, a comment line between the same two tokens). What it decides:
//!
//! - indentation: four spaces for each bracket still open at the start of a line, brackets
//!   opened on one line counting once (`layout.rs`); a `;` comment line at column 0, where
//!   the lexer's rule reads it as a comment and no lint calls it indented;
//! - spacing: one space around binary operators, `=`, `=>`, `->` and `as`, after `,` and
//!   `:`, none inside brackets, before `,`/`;`, around `.`/`::`, after a prefix operator, or
//!   between a name and its `(` or `[`;
//! - lines: the author's line breaks are kept, runs of blank lines become one, and a line over
//!   [`MAX_WIDTH`] columns with a bracketed list on it is wrapped one item a line (`wrap.rs`);
//! - a CRLF file stays CRLF, a byte order mark stays, and the file ends with one line end.
//!
//! A file with syntax errors is not formatted: [`format`] gives its errors. The result is
//! checked before it is returned: lexed again, it must give the same tokens and comments, or
//! the file is left as it was ([`Unformatted::Changed`], a bug to report).

#![deny(clippy::unwrap_used)]

mod layout;
mod render;
mod wrap;

use t27_diag::{Diagnostic, FileId};
use t27_syntax::token::Token;

/// Lines longer than this (in characters, indentation included) are wrapped where they hold
/// a bracketed list.
pub const MAX_WIDTH: usize = 100;

/// Why a file was not formatted.
#[derive(Debug)]
pub enum Unformatted {
    /// The file has syntax errors (these); it is left as it is.
    Syntax(Vec<Diagnostic>),
    /// Formatting would have changed the tokens or the comments: a formatter bug; the file is
    /// left as it is.
    Changed,
}

/// The file `src` in the canonical layout.
pub fn format(file: FileId, src: &str) -> Result<String, Unformatted> {
    let parsed = t27_syntax::parse(file, src);
    let in_bodies = t27_syntax::errors_in_bodies(file, src, &parsed.file.items);
    let mut errors: Vec<Diagnostic> = parsed
        .diagnostics
        .into_iter()
        .chain(in_bodies)
        .filter(Diagnostic::is_error)
        .collect();
    errors.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    if !errors.is_empty() {
        return Err(Unformatted::Syntax(errors));
    }
    let tokens = t27_syntax::lexer::lex(file, src).tokens;
    let mut lines = layout::lines(src, &tokens);
    wrap::wrap_long_lines(&mut lines);
    let out = render::render(src, &lines);
    if same_tokens_and_comments(file, src, &tokens, &out) {
        Ok(out)
    } else {
        Err(Unformatted::Changed)
    }
}

/// Whether `b` lexes to the tokens (kinds and texts) and the comments of `a`, whose tokens are
/// `a_tokens` (lexed once, for the layout too).
fn same_tokens_and_comments(file: FileId, a: &str, a_tokens: &Tokens<'_>, b: &str) -> bool {
    let b_tokens = t27_syntax::lexer::lex(file, b).tokens;
    texts(a, a_tokens) == texts(b, &b_tokens)
        && layout::comments(a, a_tokens) == layout::comments(b, &b_tokens)
}

type Tokens<'s> = [(Token<'s>, t27_syntax::lexer::TokenSpan)];

/// Each token's kind and text (without the line end a doc comment carries).
fn texts<'s>(
    src: &'s str,
    tokens: &Tokens<'s>,
) -> Vec<(std::mem::Discriminant<Token<'s>>, &'s str)> {
    tokens
        .iter()
        .map(|(t, s)| (std::mem::discriminant(t), src[s.start..s.end].trim_end()))
        .collect()
}
