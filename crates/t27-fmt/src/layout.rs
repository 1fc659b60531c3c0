//! Tokens and comments to lines: where each line starts (the author's line breaks), the
//! spacing between the tokens of a line, and the indentation of every line ([`reindent`]).

use t27_syntax::lexer::TokenSpan;
use t27_syntax::token::Token;

/// One line of the output.
#[derive(Clone, Debug)]
pub(crate) struct Line<'s> {
    /// Levels of four spaces (set by [`reindent`]).
    pub indent: usize,
    /// Preceded by one blank line.
    pub blank_before: bool,
    pub pieces: Vec<Piece<'s>>,
    /// A comment to the end of the line: after the pieces, or the whole line.
    pub comment: Option<&'s str>,
}

/// A token as written, and whether a space comes before it on its line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece<'s> {
    pub token: Token<'s>,
    pub text: &'s str,
    pub space_before: bool,
}

impl Line<'_> {
    /// A line that is a `;` comment and nothing else: written at column 0.
    pub fn is_semicolon_comment(&self) -> bool {
        self.pieces.is_empty() && self.comment.is_some_and(|c| c.starts_with(';'))
    }
}

/// The lines of `src`, whose tokens are `tokens` (a file without syntax errors).
pub(crate) fn lines<'s>(src: &'s str, tokens: &[(Token<'s>, TokenSpan)]) -> Vec<Line<'s>> {
    let mut b = Builder::default();
    let mut at = 0;
    for &(token, span) in tokens {
        let newlines = b.gap(&src[at..span.start]);
        let text = src[span.start..span.end].trim_end();
        b.token(token, text, newlines);
        at = span.end;
    }
    b.gap(&src[at..]);
    let mut lines = b.lines;
    reindent(&mut lines);
    lines
}

/// Every comment of `src` in order, as the formatter keeps it: its text, and whether it
/// ends a line of code (rather than standing alone).
pub(crate) fn comments<'s>(
    src: &'s str,
    tokens: &[(Token<'s>, TokenSpan)],
) -> Vec<(&'s str, bool)> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut after_token = false;
    let gap = |gap: &'s str, after_token: bool, out: &mut Vec<(&'s str, bool)>| {
        for_each_comment(gap, |text, newlines| {
            out.push((text, after_token && newlines == 0))
        });
    };
    for &(_, span) in tokens {
        gap(&src[at..span.start], after_token, &mut out);
        after_token = true;
        at = span.end;
    }
    gap(&src[at..], after_token, &mut out);
    out
}

/// Calls `f` with each comment in a gap between tokens and the line ends before it (since
/// the last token or comment); returns the line ends after the last.
fn for_each_comment<'s>(gap: &'s str, mut f: impl FnMut(&'s str, usize)) -> usize {
    let mut newlines = 0;
    let mut rest = gap;
    loop {
        let start = rest
            .find(|c: char| !matches!(c, ' ' | '\t' | '\r' | '\n' | '\u{c}' | '\u{feff}'))
            .unwrap_or(rest.len());
        newlines += rest[..start].matches('\n').count();
        rest = &rest[start..];
        if rest.is_empty() {
            return newlines;
        }
        let end = rest.find('\n').unwrap_or(rest.len());
        f(rest[..end].trim_end(), newlines);
        rest = &rest[end..];
        newlines = 0;
    }
}

#[derive(Default)]
struct Builder<'s> {
    lines: Vec<Line<'s>>,
    /// The current line has a trailing comment: the next token starts a new line.
    line_closed: bool,
    prev: Option<Token<'s>>,
    /// The previous token was a prefix operator.
    prev_prefix: bool,
    /// Inside `module NAME;`, whose name is written without spaces (`queen-task-analysis`).
    in_module_line: bool,
    /// Open `(`, and whether each is a `while` condition's.
    parens: Vec<bool>,
    /// The previous token closed a `while` condition (`while (c) : (step)`).
    closed_while: bool,
}

impl<'s> Builder<'s> {
    /// Takes the comments of a gap; returns the line ends between the last of them (or the
    /// previous token) and the next token.
    fn gap(&mut self, gap: &'s str) -> usize {
        let mut comments = Vec::new();
        let newlines = for_each_comment(gap, |text, newlines| comments.push((text, newlines)));
        for (text, newlines) in comments {
            match self.lines.last_mut() {
                Some(line) if newlines == 0 && !self.line_closed && !line.pieces.is_empty() => {
                    line.comment = Some(text);
                }
                _ => {
                    let blank_before = newlines >= 2 && !self.lines.is_empty();
                    self.lines.push(Line {
                        indent: 0,
                        blank_before,
                        pieces: Vec::new(),
                        comment: Some(text),
                    });
                }
            }
            self.line_closed = true;
        }
        newlines
    }

    fn token(&mut self, token: Token<'s>, text: &'s str, newlines: usize) {
        let starts_line = newlines > 0 || self.line_closed || self.lines.is_empty();
        if starts_line {
            // `module NAME` without its `;` (W0001) ends at its line.
            self.in_module_line = false;
        }
        let prefix = match token {
            Token::Bang => true,
            Token::Minus | Token::Amp => !self.prev.is_some_and(ends_operand),
            _ => false,
        };
        let piece = Piece {
            token,
            text,
            space_before: !starts_line && self.space_before(token),
        };
        if starts_line {
            self.lines.push(Line {
                indent: 0,
                blank_before: newlines >= 2 && !self.lines.is_empty(),
                pieces: vec![piece],
                comment: None,
            });
        } else if let Some(line) = self.lines.last_mut() {
            line.pieces.push(piece);
        }
        // A doc comment runs to the end of its line.
        self.line_closed = matches!(token, Token::DocComment(_));
        self.closed_while = false;
        match token {
            Token::Module => self.in_module_line = true,
            Token::Semi => self.in_module_line = false,
            Token::LParen => self.parens.push(self.prev == Some(Token::While)),
            Token::RParen => self.closed_while = self.parens.pop().unwrap_or(false),
            _ => {}
        }
        self.prev = Some(token);
        self.prev_prefix = prefix;
    }

    /// Whether a space separates the previous token from `next` on one line.
    fn space_before(&self, next: Token<'_>) -> bool {
        use Token::*;
        let Some(prev) = self.prev else {
            return false;
        };
        if self.prev_prefix || matches!(prev, LParen | LBracket | ColonColon | Dot | Hash) {
            return false;
        }
        if self.in_module_line && prev != Module {
            return false;
        }
        match next {
            RParen | RBracket | Comma | Semi | Dot | ColonColon => false,
            Colon => self.closed_while,
            LParen | LBracket => !ends_operand(prev),
            RBrace => prev != LBrace,
            // `[4]u8`, `[]const u8`
            Ident(_) | Const => prev != RBracket,
            _ => true,
        }
    }
}

/// Whether an expression can end with `t` (so that a `-` or `&` after it is binary).
fn ends_operand(t: Token<'_>) -> bool {
    use Token::*;
    matches!(
        t,
        Ident(_)
            | Int(_)
            | Float(_)
            | Str(_)
            | Char(_)
            | True
            | False
            | Undefined
            | RParen
            | RBracket
    )
}

/// Sets every line's indentation: one level for each line that opened a bracket still open
/// where the line starts (the bracket a line starts by closing does not count), so the items
/// of a list opened at the end of a line sit one level in, however many brackets that line
/// opened. A `;` comment line stays at column 0.
pub(crate) fn reindent(lines: &mut [Line<'_>]) {
    // The open brackets, each with the line that opened it.
    let mut open: Vec<usize> = Vec::new();
    for (i, line) in lines.iter_mut().enumerate() {
        let closes_first = line.pieces.first().is_some_and(|p| closes(p.token));
        let counted = open.len() - usize::from(closes_first && !open.is_empty());
        line.indent = if line.is_semicolon_comment() {
            0
        } else {
            distinct_lines(&open[..counted])
        };
        for p in &line.pieces {
            if opens(p.token) {
                open.push(i);
            } else if closes(p.token) {
                open.pop();
            }
        }
    }
}

fn distinct_lines(open: &[usize]) -> usize {
    let mut n = 0;
    let mut last = None;
    for &line in open {
        if last != Some(line) {
            n += 1;
            last = Some(line);
        }
    }
    n
}

pub(crate) fn opens(t: Token<'_>) -> bool {
    matches!(t, Token::LBrace | Token::LParen | Token::LBracket)
}

pub(crate) fn closes(t: Token<'_>) -> bool {
    matches!(t, Token::RBrace | Token::RParen | Token::RBracket)
}
