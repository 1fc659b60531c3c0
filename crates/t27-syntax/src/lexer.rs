//! Turns source text into tokens, applying the rules logos cannot express alone:
//! the `;` comment rule, escape and literal checks, and merging runs of bad characters.

use crate::literal;
use crate::token::Token;
use logos::Logos;
use t27_diag::{Code, Diagnostic, FileId, Span};

/// A `;` comment line. Kept so that a lint can flag indented ones inside bodies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemicolonComment {
    pub span: Span,
    /// Whether white space precedes the `;` on its line.
    pub indented: bool,
}

/// A token's byte range, in the form the parser reads directly.
pub type TokenSpan = chumsky::span::SimpleSpan;

pub struct Lexed<'src> {
    pub tokens: Vec<(Token<'src>, TokenSpan)>,
    pub semicolon_comments: Vec<SemicolonComment>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Lexes a whole file. Never fails: bad input becomes [`Token::Error`] plus a diagnostic.
pub fn lex(file: FileId, src: &str) -> Lexed<'_> {
    // Dense code has a token every two or three bytes. Reserving for the densest spares
    // the copies (and the doubled peak) of a growing vector; the pages of capacity left
    // unused are never touched, so they cost no memory.
    let mut lexer = Lexer::new(file, src, src.len() / 2 + 1);
    while lexer.step() {}
    lexer.out
}

/// A lexer that goes a token at a time, so that its caller can take the tokens in pieces
/// (see `parse`): `out.tokens` holds what it has produced since the caller last took them.
pub struct Lexer<'src> {
    file: FileId,
    src: &'src str,
    logos: logos::Lexer<'src, Token<'src>>,
    /// Depth of `(` and `[`: inside them a `;` always separates (as in `for (a; b; c)`).
    paren_depth: u32,
    /// The end of the last statement-ending `;`, to spot `return X; ; why`.
    last_semi_end: Option<usize>,
    lines: LineStart,
    pub out: Lexed<'src>,
}

impl<'src> Lexer<'src> {
    pub fn new(file: FileId, src: &'src str, capacity: usize) -> Lexer<'src> {
        Lexer {
            file,
            src,
            logos: Token::lexer(src),
            paren_depth: 0,
            last_semi_end: None,
            lines: LineStart::default(),
            out: Lexed {
                tokens: Vec::with_capacity(capacity),
                semicolon_comments: Vec::new(),
                diagnostics: Vec::new(),
            },
        }
    }

    /// A lexer of `src` from `start` on, spans counted from the start of `src`, with room for
    /// `capacity` tokens: the rest of a file from the start of a piece, or a block's body, read
    /// again. (A piece starts outside every bracket with a token that starts a declaration, and
    /// a body with its `{`, so the state the lexer would have there is this one.)
    pub fn from(file: FileId, src: &'src str, start: usize, capacity: usize) -> Lexer<'src> {
        let mut lexer = Lexer::new(file, src, capacity);
        lexer.logos.bump(start);
        lexer.lines = LineStart {
            scanned: start,
            start: src[..start].rfind('\n').map_or(0, |i| i + 1),
        };
        lexer
    }

    /// Whether what has been lexed so far is outside every parenthesis and square bracket.
    pub(crate) fn at_top_level(&self) -> bool {
        self.paren_depth == 0
    }

    /// Reads the next piece of the source: a token (pushed to `out.tokens`, or merged into
    /// the bad token before it), a comment, or a bad character. False at the end of the file.
    pub fn step(&mut self) -> bool {
        let (file, src) = (self.file, self.src);
        let Some(result) = self.logos.next() else {
            return false;
        };
        let range = self.logos.span();
        let span = Span::new(range.start, range.end);
        let token = match result {
            Ok(t) => t,
            Err(()) => {
                push_invalid(&mut self.out, file, src, span);
                return true;
            }
        };
        let out = &mut self.out;
        match token {
            Token::LineComment => return true,
            Token::DocComment(text) if text.starts_with("////") => return true,
            Token::Semi
                if self.paren_depth == 0
                    && !plainly_ends_a_statement(src, range.start, self.last_semi_end)
                    && starts_comment(
                        src,
                        range.start,
                        self.lines.of(src, range.start),
                        self.last_semi_end,
                    ) =>
            {
                let rest = &src[range.end..];
                let len = rest.find('\n').unwrap_or(rest.len());
                self.logos.bump(len);
                let line_start = self.lines.of(src, range.start);
                out.semicolon_comments.push(SemicolonComment {
                    span: Span::new(range.start, range.end + len),
                    // Only a comment line counts; `return X; ; why` is a trailing comment.
                    indented: range.start > line_start
                        && src[line_start..range.start].trim().is_empty(),
                });
                return true;
            }
            Token::Semi => self.last_semi_end = Some(range.end),
            Token::LParen | Token::LBracket => self.paren_depth += 1,
            Token::RParen | Token::RBracket => {
                self.paren_depth = self.paren_depth.saturating_sub(1)
            }
            Token::LBrace | Token::RBrace => self.paren_depth = 0,
            _ => {}
        }
        // A bad character glued to a name or number (`$5`, `5$`) makes one bad token.
        if let Some((Token::Error, last)) = out.tokens.last_mut()
            && last.end == span.start as usize
            && matches!(token, Token::Ident(_) | Token::Int(_) | Token::Float(_))
        {
            *last = TokenSpan::from(last.start..span.end as usize);
            return true;
        }
        let token = check_literal(&mut out.diagnostics, file, token, span);
        out.tokens.push((token, TokenSpan::from(span.range())));
        true
    }
}

/// Where the line of an offset starts, for offsets asked in increasing order: each byte is
/// looked at once, however long the line (a 3 MB line of 100,000 `;` once took seconds).
#[derive(Default)]
struct LineStart {
    /// Every newline before here has been seen.
    scanned: usize,
    start: usize,
}

impl LineStart {
    fn of(&mut self, src: &str, at: usize) -> usize {
        if at > self.scanned {
            if let Some(i) = src[self.scanned..at].rfind('\n') {
                self.start = self.scanned + i + 1;
            }
            self.scanned = at;
        }
        self.start
    }
}

/// Whether the `;` at `at` cannot start a comment, seen from the byte before it alone: a
/// visible ASCII character that does not end a statement's `;` (`assert x == 1;`, nearly
/// every `;` of a file). [`starts_comment`] decides the rest.
fn plainly_ends_a_statement(src: &str, at: usize, last_semi_end: Option<usize>) -> bool {
    at > 0 && last_semi_end != Some(at) && src.as_bytes()[at - 1].is_ascii_graphic()
}

/// Whether the `;` at `at` (on the line starting at `line_start`) starts a comment: it is the
/// first non-blank character of its line, or only blanks separate it from a statement's `;`
/// on the same line.
fn starts_comment(src: &str, at: usize, line_start: usize, last_semi_end: Option<usize>) -> bool {
    let before = &src[line_start..at];
    if before
        .trim_matches(|c: char| c == ' ' || c == '\t' || c == '\r' || c == '\u{feff}')
        .is_empty()
    {
        return true;
    }
    match last_semi_end {
        Some(end) if end >= line_start && end <= at => src[end..at].trim().is_empty(),
        _ => false,
    }
}

fn push_invalid(out: &mut Lexed<'_>, file: FileId, src: &str, span: Span) {
    // Merge adjacent bad characters into one token and one diagnostic.
    if let Some((Token::Error, last)) = out.tokens.last_mut()
        && last.end == span.start as usize
        && out
            .diagnostics
            .last()
            .is_some_and(|d| d.code == Code("E0001"))
    {
        *last = TokenSpan::from(last.start..span.end as usize);
        if let Some(d) = out.diagnostics.last_mut() {
            d.primary.span = Span::new(last.start, last.end);
        }
        return;
    }
    let text = &src[span.range()];
    let shown = text
        .chars()
        .next()
        .map_or(String::new(), |c| c.escape_debug().to_string());
    let mut d = Diagnostic::new(
        Code("E0001"),
        file,
        span,
        format!("`{shown}` cannot start a token"),
    )
    .with_label("not part of the language");
    if !text.is_ascii() {
        d = d.with_note("non-ASCII characters may appear only in comments and strings");
    }
    out.diagnostics
        .push(d.with_help("delete it, or move the text into a `//` comment or a string"));
    out.tokens
        .push((Token::Error, TokenSpan::from(span.range())));
}

fn check_literal<'src>(
    diags: &mut Vec<Diagnostic>,
    file: FileId,
    token: Token<'src>,
    span: Span,
) -> Token<'src> {
    match token {
        Token::Int(text) | Token::Float(text) => match literal::check_number(text) {
            Ok(()) => token,
            Err(why) => {
                diags.push(
                    Diagnostic::new(
                        Code("E0005"),
                        file,
                        span,
                        format!("malformed number literal `{text}`"),
                    )
                    .with_label(why)
                    .with_help(
                        "integers are written `42`, `0xff`, `0b1010` or `1_000`; floats `0.5`",
                    ),
                );
                Token::Error
            }
        },
        Token::Str(text) => {
            let bad = literal::bad_escapes(&text[1..text.len() - 1]);
            for (offset, len) in &bad {
                let start = span.start as usize + 1 + offset;
                diags.push(escape_error(file, Span::new(start, start + len)));
            }
            if bad.is_empty() { token } else { Token::Error }
        }
        Token::Char(text) => {
            let inner = &text[1..text.len() - 1];
            let bad = literal::bad_escapes(inner);
            for (offset, len) in &bad {
                let start = span.start as usize + 1 + offset;
                diags.push(escape_error(file, Span::new(start, start + len)));
            }
            if !bad.is_empty() {
                return Token::Error;
            }
            match literal::unescape(inner).len() {
                1 => token,
                n => {
                    let why = if n == 0 {
                        "an empty character literal"
                    } else {
                        "more than one byte"
                    };
                    diags.push(
                        Diagnostic::new(Code("E0004"), file, span, "a character literal holds exactly one byte")
                            .with_label(why)
                            .with_help("write one ASCII character, such as 'A' or '\\n', or use a string \"...\""),
                    );
                    Token::Error
                }
            }
        }
        Token::UnterminatedStr => {
            diags.push(
                Diagnostic::new(
                    Code("E0002"),
                    file,
                    span,
                    "this string literal is never closed",
                )
                .with_label("the string starts here and runs to the end of the line")
                .with_help("add the closing `\"`"),
            );
            Token::Error
        }
        Token::UnterminatedChar => {
            diags.push(
                Diagnostic::new(
                    Code("E0004"),
                    file,
                    span,
                    "this character literal is never closed",
                )
                .with_label("expected a closing `'`")
                .with_help("write one character between single quotes, such as 'A'"),
            );
            Token::Error
        }
        other => other,
    }
}

fn escape_error(file: FileId, span: Span) -> Diagnostic {
    Diagnostic::new(Code("E0003"), file, span, "unknown escape sequence")
        .with_label("not an escape t27 knows")
        .with_note("the escapes are \\\" \\' \\\\ \\n \\t \\r and \\xNN")
        .with_help("write `\\\\` for a backslash")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut never calls a `;` a statement's end where the full rule sees a comment:
    /// every `;` of every fixture and seed, with the last statement's `;` ending nowhere on
    /// its line, right before it, one byte before it, and at the line's start.
    #[test]
    fn a_plain_statement_end_is_never_a_comment() {
        let mut checked = 0;
        for (path, src) in crate::test_files::specs() {
            for (at, _) in src.match_indices(';') {
                let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
                for last in [None, Some(at), Some(at.saturating_sub(1)), Some(line_start)] {
                    if plainly_ends_a_statement(&src, at, last) {
                        assert!(
                            !starts_comment(&src, at, line_start, last),
                            "{}: the `;` at byte {at}",
                            path.display()
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "only {checked} cases");
    }
}
