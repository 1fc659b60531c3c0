//! The t27 front end's first stage: source text to a syntax tree.
//!
//! [`parse`] lexes with logos ([`lexer`]), parses with chumsky ([`parser`]) and returns the tree
//! together with every lexical and syntax diagnostic. It never stops at the first error and
//! never panics; the tree is as complete as the input allows.

#![deny(clippy::unwrap_used)]

pub mod ast;
mod bodies;
pub mod lexer;
pub mod literal;
mod parser;
mod segments;
pub mod token;

use ast::SourceFile;
pub use bodies::{errors_in_bodies, parse_body, parse_body_with_errors};
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
    /// The file is a document, not t27 (W0008): it declares nothing and is no module.
    pub skipped: bool,
}

/// A file is lexed and parsed a piece at a time, each piece whole declarations and at least
/// this many tokens, so that the tokens of a large file are never all held at once (a
/// generated replay spec of 40 MB has 16 million, 640 MB of them). A smaller file is one
/// piece.
const PIECE_TOKENS: usize = 1 << 15;

/// The stack of a thread that parses or checks: both recurse once per level of nesting, up to
/// [`MAX_NESTING`], and a spawned thread's default (2 MB) is less than the main thread's; the
/// pages a run does not touch cost nothing.
pub const THREAD_STACK: usize = 256 << 20;

/// Lexes and parses one source file.
pub fn parse(file: FileId, src: &str) -> Parsed {
    if let Some(d) = markdown_document(file, src) {
        return Parsed {
            file: SourceFile::default(),
            diagnostics: vec![d],
            semicolon_comments: Vec::new(),
            token_count: 0,
            skipped: true,
        };
    }
    parse_in_pieces(file, src, PIECE_TOKENS, true, None)
}

/// A Markdown document saved with a `.t27` name (the owner keeps design notes so): a `#`
/// heading on its first line that is not blank. Such a file is skipped with one warning
/// (LANGUAGE.md 7), never read as a page of lexer errors. `#[test]` (a Rust attribute, W0004)
/// is not a heading.
fn markdown_document(file: FileId, src: &str) -> Option<Diagnostic> {
    let body = src.strip_prefix('\u{feff}').unwrap_or(src);
    let skipped = src.len() - body.len();
    let blank = body.len() - body.trim_start().len();
    let line = body.trim_start().lines().next()?;
    let hashes = line.len() - line.trim_start_matches('#').len();
    let heading = (1..=6).contains(&hashes) && line[hashes..].starts_with([' ', '\t']);
    if !heading {
        return None;
    }
    let start = skipped + blank;
    let line = line.trim_end_matches('\r');
    Some(
        Diagnostic::new(
            Code("W0008"),
            file,
            Span::new(start, start + line.len()),
            "this file is a Markdown document, not t27: it is skipped",
        )
        .with_label("a Markdown heading on the first line")
        .with_note(
            "t27 reads nothing of this file: it declares no module, constant, function or block",
        )
        .with_help("give the document a `.md` name, or write it as t27 (`module Name;` first)"),
    )
}

/// [`parse`] with pieces of at least `piece_tokens` tokens, parsed on two threads when
/// `parallel` and there are two pieces or more, and a large file lexed in two halves cut at
/// `split` (by default, with `parallel`, where `segments::split_point` says): the result is
/// the same for any size and any cut, on one thread or two (the tests cut every fixture at
/// every declaration, both ways, and in two at every line).
fn parse_in_pieces(
    file: FileId,
    src: &str,
    piece_tokens: usize,
    parallel: bool,
    split: Option<usize>,
) -> Parsed {
    let split = split.or_else(|| parallel.then(|| segments::split_point(src)).flatten());
    let segments::Segment {
        starts,
        parsed,
        mut scan,
        out: lexed,
        ..
    } = split
        .and_then(|at| segments::lex_in_two(file, src, at, piece_tokens))
        .unwrap_or_else(|| segments::lex_segment(file, src, 0, src.len(), piece_tokens, parallel));
    let mut tops = Vec::new();
    let mut syntax = Vec::new();
    // A file that is not to be parsed (nested too deeply, an older dialect) is not: its
    // pieces up to there were, and are dropped.
    let parsed = if scan.verdict.is_none() {
        parsed
    } else {
        Vec::new()
    };
    for (i, result) in parsed.into_iter().enumerate() {
        match result {
            Some(more) => append(&mut tops, more),
            None => {
                // A piece with something to report: the rest of the file is parsed again as
                // one piece, with rich errors, exactly as if it had never been cut.
                let mut rest =
                    lexer::Lexer::from(file, src, starts[i], (src.len() - starts[i]) / 2 + 1);
                while rest.step() {}
                parser::skip::take_bodies_whole(&mut rest.out.tokens);
                let (more, errors) = parser::parse_tokens(file, src.len(), &rest.out.tokens);
                append(&mut tops, more);
                syntax.extend(errors);
                break;
            }
        }
    }
    let mut diagnostics = lexed.diagnostics;
    let mut tree = SourceFile {
        symbolic_logic_ops: scan.symbolic_logic_ops,
        word_logic_ops: scan.word_logic_ops,
        ..SourceFile::default()
    };
    if let Some(d) = scan.verdict.take().map(Verdict::into_diagnostic) {
        // Not t27 at all: one precise error beats a page of syntax errors.
        diagnostics.push(d);
        return Parsed {
            file: tree,
            diagnostics,
            semicolon_comments: lexed.semicolon_comments,
            token_count: scan.tokens,
            skipped: false,
        };
    }
    let (module, mut items) = parser::assemble(file, tops, &mut syntax);
    // A `;` "missing" right after a token the lexer rejected is that token's fault, not news.
    diagnostics.extend(syntax.into_iter().filter(|d| {
        !(d.code == Code("E0101") && scan.bad_token_ends.contains(&d.primary.span.start))
    }));
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
    bodies::leave_out_bodies(&mut items, &diagnostics);
    tree.module = module;
    tree.items = items;
    diagnostics.sort_by_key(|d| (d.primary.span.start, d.primary.span.end));
    Parsed {
        file: tree,
        diagnostics,
        semicolon_comments: lexed.semicolon_comments,
        token_count: scan.tokens,
        skipped: false,
    }
}

/// Appends a piece's declarations; the first piece's vector becomes the file's (a small file is
/// one piece, and its declarations are not copied).
fn append<T>(all: &mut Vec<T>, more: Vec<T>) {
    if all.is_empty() {
        *all = more;
    } else {
        all.extend(more);
    }
}

/// Lexes up to the end of the next piece: returns where it ends in `lexer.out.tokens` (the
/// token there, which starts the next piece, is lexed already), or `None` at the end of the
/// file. A piece ends before a token that starts a declaration, outside every bracket, right
/// after a `;` or `}`, once it has `piece_tokens` tokens. `depth` is the bracket depth at
/// the end of what has been lexed.
fn next_piece(lexer: &mut lexer::Lexer<'_>, depth: &mut u32, piece_tokens: usize) -> Option<usize> {
    loop {
        let before = lexer.out.tokens.len();
        if !lexer.step() {
            return None;
        }
        let tokens = &lexer.out.tokens;
        if tokens.len() == before {
            continue;
        }
        let at = tokens.len() - 1;
        let t = &tokens[at].0;
        let ends_piece = *depth == 0
            && at >= piece_tokens.max(1)
            && (t.starts_declaration() || matches!(t, Token::Const | Token::Var))
            && matches!(tokens[at - 1].0, Token::Semi | Token::RBrace);
        match t {
            Token::LParen | Token::LBracket | Token::LBrace => *depth += 1,
            Token::RParen | Token::RBracket | Token::RBrace => *depth = depth.saturating_sub(1),
            _ => {}
        }
        if ends_piece {
            return Some(at);
        }
    }
}

/// What is learnt of a whole file from its tokens, read a piece at a time.
#[derive(Default)]
struct Scan {
    tokens: usize,
    symbolic_logic_ops: Vec<Span>,
    word_logic_ops: usize,
    /// Where each token the lexer rejected ends.
    bad_token_ends: Vec<u32>,
    /// The bracket depth at the end of what has been lexed (for [`next_piece`]).
    piece_depth: u32,
    nesting: Nesting,
    dialect_depth: i32,
    verdict: Option<Verdict>,
}

/// The first sign that a file is not to be parsed. Nesting too deep wins over an older
/// dialect wherever each is found.
enum Verdict {
    TooDeep(Diagnostic),
    OlderDialect(Diagnostic),
}

impl Verdict {
    fn into_diagnostic(self) -> Diagnostic {
        match self {
            Verdict::TooDeep(d) | Verdict::OlderDialect(d) => d,
        }
    }
}

impl Scan {
    /// Reads the next tokens of the file. (A piece ends after a `;` or `}`, so no look
    /// ahead below needs the next piece.)
    fn read(&mut self, file: FileId, src: &str, tokens: &[(Token<'_>, TokenSpan)]) {
        self.tokens += tokens.len();
        for (t, s) in tokens {
            match t {
                Token::AmpAmp | Token::PipePipe => {
                    self.symbolic_logic_ops.push(Span::new(s.start, s.end))
                }
                Token::And | Token::Or => self.word_logic_ops += 1,
                Token::Error => self.bad_token_ends.push(s.end as u32),
                _ => {}
            }
        }
        if matches!(self.verdict, Some(Verdict::TooDeep(_))) {
            return;
        }
        if let Some(d) = self.nesting.read(file, tokens) {
            self.verdict = Some(Verdict::TooDeep(d));
        } else if self.verdict.is_none()
            && let Some(d) = older_dialect(file, src, tokens, &mut self.dialect_depth)
        {
            self.verdict = Some(Verdict::OlderDialect(d));
        }
    }
}

/// How deeply `(`, `[` and `{` may nest, and how long an `else if` chain may be: every
/// later phase walks the tree recursively, and these limits keep them within their stack.
pub const MAX_NESTING: u32 = 256;

/// How deeply delimiters nest and how long the current `else if` chain is, so far.
#[derive(Default)]
struct Nesting {
    depth: u32,
    else_ifs: u32,
}

impl Nesting {
    /// Reports the first place where delimiters nest deeper than [`MAX_NESTING`], or an
    /// `else if` chain runs longer: such a file is not parsed at all.
    fn read(&mut self, file: FileId, tokens: &[(Token<'_>, TokenSpan)]) -> Option<Diagnostic> {
        let Nesting { depth, else_ifs } = self;
        for (i, (t, s)) in tokens.iter().enumerate() {
            match t {
                Token::LParen | Token::LBracket | Token::LBrace => *depth += 1,
                Token::RParen | Token::RBracket | Token::RBrace => *depth = depth.saturating_sub(1),
                Token::Else if matches!(tokens.get(i + 1), Some((Token::If, _))) => *else_ifs += 1,
                _ => {}
            }
            if *depth == 0 {
                *else_ifs = 0;
            }
            let (over, what) = if *depth > MAX_NESTING {
                (true, "brackets, parentheses and braces nest")
            } else if *else_ifs > MAX_NESTING {
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
}

/// Recognises the older dialects in the owner's tree (`module X { ... }` with braces, and the
/// assembler-like `.const`/`.code`/`.test` form) by their first line that is not t27.
/// `depth` is the brace depth before `tokens`.
fn older_dialect(
    file: FileId,
    src: &str,
    tokens: &[(Token<'_>, TokenSpan)],
    depth: &mut i32,
) -> Option<Diagnostic> {
    for (i, (t, s)) in tokens.iter().enumerate() {
        match t {
            Token::LBrace => *depth += 1,
            Token::RBrace => *depth -= 1,
            Token::Module if *depth == 0 => {
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
            Token::Dot if *depth == 0 => {
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
/// replaced by spaces one for one, so every later span still matches the file's bytes. Valid
/// bytes become the text as they are, without a copy (a replay spec is tens of megabytes).
pub fn decode(file: FileId, bytes: Vec<u8>) -> (String, Vec<Diagnostic>) {
    match String::from_utf8(bytes) {
        Ok(text) => (text, Vec::new()),
        Err(first) => {
            let bytes = first.as_bytes();
            let first = first.utf8_error();
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

#[cfg(test)]
mod test_files;

#[cfg(test)]
mod pieces {
    use super::*;

    /// Every fixture and seed parses to the same tree and diagnostics whole and cut at every
    /// declaration where a piece may end (and at every seventh token's first such place), on
    /// one thread and on two.
    #[test]
    fn a_file_parses_the_same_in_pieces_of_any_size() {
        for (path, src) in &test_files::specs() {
            let whole = parse_in_pieces(FileId(0), src, usize::MAX, false, None);
            for (size, parallel) in [(1, false), (7, false), (1, true), (7, true)] {
                let cut = parse_in_pieces(FileId(0), src, size, parallel, None);
                let name = path.display();
                assert_eq!(cut.file, whole.file, "{name}, pieces of {size}");
                assert_eq!(
                    cut.diagnostics, whole.diagnostics,
                    "{name}, pieces of {size}"
                );
                assert_eq!(cut.semicolon_comments, whole.semicolon_comments, "{name}");
                assert_eq!(cut.token_count, whole.token_count, "{name}");
            }
        }
    }

    /// Every fixture and seed cut in two at a line (every line of a small file, every fifth of
    /// a larger one) parses as it does whole: the halves lexed on two threads when they join,
    /// in order when they do not.
    #[test]
    fn a_file_parses_the_same_lexed_in_two_halves() {
        let (mut joined, mut cuts) = (0, 0);
        for (path, src) in &test_files::specs() {
            let whole = parse_in_pieces(FileId(0), src, usize::MAX, false, None);
            let lines: Vec<usize> = src.match_indices('\n').map(|(i, _)| i + 1).collect();
            let step = if lines.len() > 300 { 5 } else { 1 };
            for &at in lines.iter().step_by(step) {
                let name = format!("{}, cut at byte {at}", path.display());
                let cut = parse_in_pieces(FileId(0), src, 7, false, Some(at));
                assert_eq!(cut.file, whole.file, "{name}");
                assert_eq!(cut.diagnostics, whole.diagnostics, "{name}");
                assert_eq!(cut.semicolon_comments, whole.semicolon_comments, "{name}");
                assert_eq!(cut.token_count, whole.token_count, "{name}");
                cuts += 1;
                joined += usize::from(segments::lex_in_two(FileId(0), src, at, 7).is_some());
            }
        }
        // Both ways are taken, and often.
        assert!(
            joined > 500 && cuts - joined > 500,
            "{joined} of {cuts} joined"
        );
    }

    /// A large file is cut at a line that starts a declaration, from its middle on.
    #[test]
    fn a_large_file_is_cut_at_a_declaration_past_its_middle() {
        let mut src = String::from("module M;\n");
        while src.len() < segments::SPLIT_BYTES {
            src.push_str("test t {\n    assert 1 + 1 == 2;\n}\n");
        }
        let at = segments::split_point(&src).expect("a place to cut");
        assert!(
            at >= src.len() / 2 && src[at..].starts_with("test "),
            "{at}"
        );
        assert!(segments::split_point(&src[..1000]).is_none());
    }
}
