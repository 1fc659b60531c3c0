//! Tokens and comments to lines: where each line starts (the author's line breaks), the
//! spacing between the tokens of a line, and the indentation level of every line ([`reindent`]).
//! What the author wrote is recorded beside it (whether a line was indented, how each
//! declaration's `:` was spaced) for `style.rs`, which keeps the file's own habits.

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
    /// The author wrote whitespace before the line's first token.
    pub written_indented: bool,
}

/// A token as written, and whether a space comes before it on its line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Piece<'s> {
    pub token: Token<'s>,
    pub text: &'s str,
    pub space_before: bool,
    /// For a `:` that gives a declaration its type: which kind, and how it was spaced.
    pub colon: Option<(ColonRole, Written)>,
}

/// The kinds of `:` whose spacing follows the file's habit, each kind on its own (a file may
/// write `pub const N : T` and `fn f(n: T)`, and does, consistently).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ColonRole {
    /// A module-level `const` or `var`.
    Item,
    /// A field of a `struct`.
    Field,
    /// A `var`, `let` or `const` inside a body.
    Local,
    /// A parameter of a `fn`.
    Param,
}

/// How the author spaced a declaration's `:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Written {
    /// `name : T`
    Spaced,
    /// `name: T`
    Tight,
    /// Anything else (`name:T`, `name :T`, a line break beside it): no vote.
    Odd,
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
    // Where the source line of the next token starts (kept as the gaps and tokens pass, so
    // that a long line is not searched again for each of its tokens).
    let mut line_start = 0;
    for (i, &(token, span)) in tokens.iter().enumerate() {
        let before = &src[at..span.start];
        let newlines = b.gap(before);
        let text = src[span.start..span.end].trim_end();
        if let Some(n) = before.rfind('\n') {
            line_start = at + n + 1;
        }
        let indented = src[line_start..span.start].starts_with([' ', '\t']);
        if let Some(n) = src[span.start..span.end].rfind('\n') {
            line_start = span.start + n + 1;
        }
        let written = if token == Token::Colon {
            let after = tokens
                .get(i + 1)
                .map_or(&src[span.end..], |(_, next)| &src[span.end..next.start]);
            written(before, after)
        } else {
            Written::Odd
        };
        b.token(token, text, newlines, indented, written);
        at = span.end;
    }
    b.gap(&src[at..]);
    let mut lines = b.lines;
    reindent(&mut lines);
    lines
}

/// How a `:` between the gaps `before` and `after` was spaced.
fn written(before: &str, after: &str) -> Written {
    let one_line = |gap: &str| !gap.contains('\n');
    match (before.is_empty(), after.is_empty()) {
        _ if !one_line(before) || !one_line(after) => Written::Odd,
        (false, false) => Written::Spaced,
        (true, false) => Written::Tight,
        _ => Written::Odd,
    }
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
    /// The open brackets, innermost last.
    open: Vec<Open>,
    /// The previous token closed a `while` condition (`while (c) : (step)`).
    closed_while: bool,
    /// Where a declaration stands: after `fn` (its `(` opens the parameters), after `struct`
    /// (its `{` opens the fields), after `const`/`var`/`let` and its name (a `:` gives the
    /// type).
    decl: Decl,
}

/// An open bracket, and what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Open {
    /// A `while` condition's `(`.
    While,
    /// A `fn`'s parameters.
    Params,
    /// A `struct`'s fields.
    Fields,
    /// A body, a block, a struct literal (a `{` that is not a struct's).
    Block,
    /// Any other `(` or `[`.
    Other,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Decl {
    #[default]
    None,
    /// `fn`, or `fn NAME`.
    Fn,
    /// `struct`, or `struct NAME`.
    Struct,
    /// `const`, `var` or `let`.
    Binding,
    /// `const NAME`, `var NAME` or `let NAME`.
    BindingName,
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
                        written_indented: false,
                    });
                }
            }
            self.line_closed = true;
        }
        newlines
    }

    fn token(
        &mut self,
        token: Token<'s>,
        text: &'s str,
        newlines: usize,
        indented: bool,
        written: Written,
    ) {
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
            colon: (token == Token::Colon)
                .then(|| self.colon_role())
                .flatten()
                .map(|role| (role, written)),
        };
        if starts_line {
            self.lines.push(Line {
                indent: 0,
                blank_before: newlines >= 2 && !self.lines.is_empty(),
                pieces: vec![piece],
                comment: None,
                written_indented: indented,
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
            Token::LParen | Token::LBrace | Token::LBracket => {
                let open = match (token, self.decl) {
                    (Token::LParen, _) if self.prev == Some(Token::While) => Open::While,
                    (Token::LParen, Decl::Fn) => Open::Params,
                    (Token::LBrace, Decl::Struct) => Open::Fields,
                    (Token::LBrace, _) => Open::Block,
                    _ => Open::Other,
                };
                self.open.push(open);
            }
            Token::RParen | Token::RBrace | Token::RBracket => {
                self.closed_while = self.open.pop() == Some(Open::While);
            }
            _ => {}
        }
        self.decl = match (token, self.decl) {
            (Token::Fn, _) => Decl::Fn,
            (Token::Struct, _) => Decl::Struct,
            (Token::Ident(_), Decl::Fn | Decl::Struct) => self.decl,
            // `[]const u8` is a type, not a declaration.
            (Token::Const, _) if self.prev == Some(Token::RBracket) => Decl::None,
            (Token::Const | Token::Var | Token::Let, _) => Decl::Binding,
            (Token::Ident(_), Decl::Binding) => Decl::BindingName,
            _ => Decl::None,
        };
        self.prev = Some(token);
        self.prev_prefix = prefix;
    }

    /// The kind of a `:` read now, if it gives a declaration its type.
    fn colon_role(&self) -> Option<ColonRole> {
        let innermost = self.open.last().copied();
        if self.decl == Decl::BindingName {
            let in_body = self.open.iter().any(|o| *o != Open::Fields);
            return Some(if in_body {
                ColonRole::Local
            } else {
                ColonRole::Item
            });
        }
        let after_name = matches!(self.prev, Some(Token::Ident(_)));
        match innermost {
            Some(Open::Params) if after_name => Some(ColonRole::Param),
            Some(Open::Fields) if after_name => Some(ColonRole::Field),
            _ => None,
        }
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
fn reindent(lines: &mut [Line<'_>]) {
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

fn opens(t: Token<'_>) -> bool {
    matches!(t, Token::LBrace | Token::LParen | Token::LBracket)
}

fn closes(t: Token<'_>) -> bool {
    matches!(t, Token::RBrace | Token::RParen | Token::RBracket)
}
