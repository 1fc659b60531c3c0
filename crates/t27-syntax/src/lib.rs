//! The t27 front end's first stage: source text to a syntax tree.
//!
//! [`parse`] lexes with logos ([`lexer`]), parses with chumsky ([`parser`]) and returns the tree
//! together with every lexical and syntax diagnostic. It never stops at the first error and
//! never panics; the tree is as complete as the input allows.

#![deny(clippy::unwrap_used)]

pub mod ast;
pub mod lexer;
pub mod literal;
mod parser;
pub mod token;

use ast::SourceFile;
use lexer::{SemicolonComment, TokenSpan};
use t27_diag::{Code, Diagnostic, FileId, Span};
use token::Token;

/// The result of parsing one file.
pub struct Parsed {
    pub file: SourceFile,
    pub diagnostics: Vec<Diagnostic>,
    pub semicolon_comments: Vec<SemicolonComment>,
    /// How many tokens the lexer produced (for throughput figures).
    pub token_count: usize,
}

/// Lexes and parses one source file.
pub fn parse(file: FileId, src: &str) -> Parsed {
    let lexed = lexer::lex(file, src);
    let mut diagnostics = lexed.diagnostics;
    let token_count = lexed.tokens.len();
    let mut tree = SourceFile::default();
    for (t, s) in &lexed.tokens {
        match t {
            Token::AmpAmp | Token::PipePipe => {
                tree.symbolic_logic_ops.push(Span::new(s.start, s.end))
            }
            Token::And | Token::Or => tree.word_logic_ops += 1,
            _ => {}
        }
    }
    if let Some(d) =
        too_deep(file, &lexed.tokens).or_else(|| older_dialect(file, src, &lexed.tokens))
    {
        // Not t27 at all: one precise error beats a page of syntax errors.
        diagnostics.push(d);
        return Parsed {
            file: tree,
            diagnostics,
            semicolon_comments: lexed.semicolon_comments,
            token_count,
        };
    }
    let (module, items, syntax) = parser::parse_tokens(file, src.len(), &lexed.tokens);
    // A `;` "missing" right after a token the lexer rejected is that token's fault, not news.
    let bad_token_ends: Vec<u32> = lexed
        .tokens
        .iter()
        .filter(|(t, _)| *t == Token::Error)
        .map(|(_, s)| s.end as u32)
        .collect();
    diagnostics.extend(
        syntax.into_iter().filter(|d| {
            !(d.code == Code("E0101") && bad_token_ends.contains(&d.primary.span.start))
        }),
    );
    if module.is_none() && !diagnostics.iter().any(|d| d.code == Code("E0108")) {
        let at = items.first().map_or(Span::new(0, 0), |i| Span {
            start: i.span.start,
            end: i.span.start,
        });
        diagnostics.push(
            Diagnostic::new(
                Code("E0103"),
                file,
                at,
                "this file has no `module` declaration",
            )
            .with_label("expected `module Name;` before this")
            .with_help("add `module Name;` at the top of the file, after the header comments"),
        );
    }
    tree.module = module;
    tree.items = items;
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    Parsed {
        file: tree,
        diagnostics,
        semicolon_comments: lexed.semicolon_comments,
        token_count,
    }
}

/// How deeply `(`, `[` and `{` may nest, and how long an `else if` chain may be: every
/// later phase walks the tree recursively, and these limits keep them within their stack.
pub const MAX_NESTING: u32 = 256;

/// Reports the first place where delimiters nest deeper than [`MAX_NESTING`], or an
/// `else if` chain runs longer: such a file is not parsed at all.
fn too_deep(file: FileId, tokens: &[(Token<'_>, TokenSpan)]) -> Option<Diagnostic> {
    let mut depth = 0u32;
    let mut else_ifs = 0u32;
    for (i, (t, s)) in tokens.iter().enumerate() {
        match t {
            Token::LParen | Token::LBracket | Token::LBrace => depth += 1,
            Token::RParen | Token::RBracket | Token::RBrace => depth = depth.saturating_sub(1),
            Token::Else if matches!(tokens.get(i + 1), Some((Token::If, _))) => else_ifs += 1,
            _ => {}
        }
        if depth == 0 {
            else_ifs = 0;
        }
        let (over, what) = if depth > MAX_NESTING {
            (true, "brackets, parentheses and braces nest")
        } else if else_ifs > MAX_NESTING {
            (true, "`else if` chains run")
        } else {
            (false, "")
        };
        if over {
            return Some(
                Diagnostic::new(
                    Code("E0109"),
                    file,
                    Span::new(s.start, s.end),
                    format!("{what} more than {MAX_NESTING} deep here"),
                )
                .with_label("nested too deeply")
                .with_note("t27 reads no further in this file")
                .with_help("split the code into functions or constants"),
            );
        }
    }
    None
}

/// Recognises the older dialects in the owner's tree (`module X { ... }` with braces, and the
/// assembler-like `.const`/`.code`/`.test` form) by their first line that is not t27.
fn older_dialect(file: FileId, src: &str, tokens: &[(Token<'_>, TokenSpan)]) -> Option<Diagnostic> {
    let mut depth = 0i32;
    for (i, (t, s)) in tokens.iter().enumerate() {
        match t {
            Token::LBrace => depth += 1,
            Token::RBrace => depth -= 1,
            Token::Module if depth == 0 => {
                let mut j = i + 1;
                while matches!(tokens.get(j), Some((Token::Ident(_) | Token::Minus, _))) {
                    j += 1;
                }
                if j > i + 1 && matches!(tokens.get(j), Some((Token::LBrace, _))) {
                    return Some(dialect_error(
                        file,
                        src,
                        Span::new(s.start, s.end),
                        "a module with a braced body is the older dialect",
                    ));
                }
            }
            Token::Dot if depth == 0 => {
                let line_start = src[..s.start].rfind('\n').map_or(0, |p| p + 1);
                let first_on_line = src[line_start..s.start].trim().is_empty();
                let section = matches!(
                    tokens.get(i + 1),
                    Some((Token::Ident(_) | Token::Const | Token::Test, _))
                );
                if first_on_line && section {
                    return Some(dialect_error(
                        file,
                        src,
                        Span::new(s.start, s.end),
                        "a `.section` line is the older assembler-like dialect",
                    ));
                }
            }
            _ => {}
        }
    }
    None
}

fn dialect_error(file: FileId, src: &str, at: Span, why: &str) -> Diagnostic {
    let start = src[..at.start as usize].rfind('\n').map_or(0, |p| p + 1);
    let end = src[start..].find('\n').map_or(src.len(), |p| start + p);
    let line = Span::new(start, end.max(start));
    Diagnostic::new(Code("E0105"), file, line, "this file is not t27: it is written in an older dialect")
        .with_label(why)
        .with_note("t27 reads no further than the first line that is not t27")
        .with_help("port the file: `module X;` followed by `pub const`, `pub fn`, `test` and `invariant` declarations")
}

/// Decodes file bytes as UTF-8. Invalid bytes are reported (E0006) with their offset and
/// replaced by spaces one for one, so every later span still matches the file's bytes.
pub fn decode(file: FileId, bytes: &[u8]) -> (String, Vec<Diagnostic>) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), Vec::new()),
        Err(first) => {
            let mut text = String::with_capacity(bytes.len());
            let mut rest = bytes;
            let mut offset = 0;
            let bad_at = first.valid_up_to();
            loop {
                match std::str::from_utf8(rest) {
                    Ok(s) => {
                        text.push_str(s);
                        break;
                    }
                    Err(e) => {
                        let good = e.valid_up_to();
                        text.push_str(std::str::from_utf8(&rest[..good]).unwrap_or_default());
                        let bad = e.error_len().unwrap_or(rest.len() - good);
                        text.extend(std::iter::repeat_n(' ', bad));
                        rest = &rest[good + bad..];
                        offset += good + bad;
                    }
                }
            }
            let _ = offset;
            let d = Diagnostic::new(
                Code("E0006"),
                file,
                Span::new(bad_at, bad_at + 1),
                format!(
                    "this file is not valid UTF-8: the byte at offset {bad_at} cannot be decoded"
                ),
            )
            .with_label("not UTF-8")
            .with_help("save the file as UTF-8");
            (text, vec![d])
        }
    }
}
