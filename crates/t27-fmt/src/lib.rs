//! `t27 fmt`: a spec's layout made consistent, in the file's own habits.
//!
//! The formatter changes whitespace and nothing else: the tokens of the formatted file are the
//! tokens of the original, in order, and every comment is where it stood (a trailing comment
//! after the same token, a comment line between the same two tokens). It is adopted only if it
//! leaves a consistent author alone, so what it decides is what a file is *not* consistent
//! about, by the file's own majority (`style.rs`):
//!
//! - indentation: a file that writes its bodies, blocks and lists flat (most of the lines
//!   inside brackets at column 0, as the owner does) is written flat; any other file is
//!   indented four spaces for each bracket still open at the start of a line, brackets opened
//!   on one line counting once (`layout.rs`); a `;` comment line is always at column 0, where
//!   the lexer's rule reads it as a comment and no lint calls it indented;
//! - the `:` of a declaration: `name : T` or `name: T`, each kind (module-level `const` and
//!   `var`, struct fields, locals, parameters) as the file writes that kind most, the first
//!   spelling on a tie, `name: T` when the file has no habit;
//! - other spacing: one space around binary operators, `=`, `=>`, `->` and `as`, after `,` and
//!   `:`, none inside brackets, before `,`/`;`, around `.`/`::`, after a prefix operator, or
//!   between a name and its `(` or `[`;
//! - lines: the author's line breaks are kept (a long line stays long: nothing is wrapped for
//!   its length), and runs of blank lines become one;
//! - a CRLF file stays CRLF, a byte order mark stays, and the file ends with one line end.
//!
//! A file with syntax errors is not formatted: [`format`] gives its errors. A Markdown document
//! saved with a `.t27` name (W0008) is given back as it is. The result is
//! checked before it is returned: lexed again, it must give the same tokens and comments, or
//! the file is left as it was ([`Unformatted::Changed`], a bug to report).

#![deny(clippy::unwrap_used)]

mod layout;
mod render;
mod style;

use t27_diag::{Diagnostic, FileId};
use t27_syntax::token::Token;

/// Why a file was not formatted.
#[derive(Debug)]
pub enum Unformatted {
    /// The file has syntax errors (these); it is left as it is.
    Syntax(Vec<Diagnostic>),
    /// Formatting would have changed the tokens or the comments: a formatter bug; the file is
    /// left as it is.
    Changed,
}

/// The file `src` formatted: its layout made consistent, in its own habits.
pub fn format(file: FileId, src: &str) -> Result<String, Unformatted> {
    let parsed = t27_syntax::parse(file, src);
    // A document saved with a `.t27` name (W0008) is not t27: it stays exactly as it is.
    if parsed.skipped {
        return Ok(src.to_string());
    }
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
    style::keep_habits(&mut lines);
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
