//! Lexing a file a piece at a time, and a large file in two halves at once.
//!
//! A file is lexed a piece (whole declarations, at least a given number of tokens) at a time,
//! each piece's test bodies taken whole and the piece parsed as soon as it is cut (see
//! [`crate::parse`]). A large file is cut in two at a line that starts a declaration, and each
//! half is lexed and parsed on its own thread. A line start is where a token starts (no token
//! spans a line), and what the lexer and the scan carry across it is nothing but bracket
//! depths; so the second half is lexed assuming they are all zero there, and when the first
//! half ends otherwise, or the cut is not where a piece could end, the halves are dropped and
//! the file lexed in order (the tests cut every fixture at every line).

use crate::lexer::{Lexed, Lexer, TokenSpan};
use crate::token::Token;
use crate::{Scan, THREAD_STACK, next_piece, parser};
use t27_diag::FileId;

/// Files of this size or more are lexed in two halves: below it, a second thread costs more
/// than it saves.
pub(crate) const SPLIT_BYTES: usize = 1 << 20;

/// What lexing part of a file gave.
pub(crate) struct Segment<'s> {
    /// Where each piece starts, and what parsing it gave (`None`: something to report).
    pub starts: Vec<usize>,
    pub parsed: Vec<Option<Vec<parser::TopLevel>>>,
    pub scan: Scan,
    /// The lexer's diagnostics and `;` comments (its tokens all went to pieces).
    pub out: Lexed<'s>,
    /// Whether the lexer ended outside every parenthesis and square bracket.
    top_level: bool,
    first: Option<Token<'s>>,
    last: Option<Token<'s>>,
}

/// A piece of a file on its way to the thread that parses it.
struct Piece<'s> {
    index: usize,
    /// Where the piece ends in the file (the file's length for the last).
    end: usize,
    tokens: Vec<(Token<'s>, TokenSpan)>,
}

/// Where to cut a large file in two: the start of the first line from its middle on that
/// begins with a word that starts a declaration. `None` for a smaller file, or no such line.
pub(crate) fn split_point(src: &str) -> Option<usize> {
    if src.len() < SPLIT_BYTES {
        return None;
    }
    let bytes = src.as_bytes();
    let words: [&[u8]; 5] = [b"test ", b"invariant ", b"pub ", b"fn ", b"struct "];
    (src.len() / 2..src.len() - 1)
        .filter(|&i| bytes[i] == b'\n')
        .map(|i| i + 1)
        .find(|&at| words.iter().any(|w| bytes[at..].starts_with(w)))
}

/// Lexes and parses `src` in two halves, cut at `at`, on two threads; `None` when the second
/// half cannot be joined to the first (the caller then lexes the file in order).
pub(crate) fn lex_in_two<'s>(
    file: FileId,
    src: &'s str,
    at: usize,
    piece_tokens: usize,
) -> Option<Segment<'s>> {
    if at == 0 || at >= src.len() || !src.is_char_boundary(at) || !src[..at].ends_with('\n') {
        return None;
    }
    std::thread::scope(|scope| {
        let second = std::thread::Builder::new()
            .name("t27-lex".into())
            .stack_size(THREAD_STACK)
            .spawn_scoped(scope, move || {
                lex_segment(file, src, at, src.len(), piece_tokens, false)
            })
            .ok()?;
        let first = lex_segment(file, src, 0, at, piece_tokens, false);
        // A panic there is a bug; the file is then lexed in order, where it reaches the caller.
        let second = second.join().ok()?;
        join(first, second)
    })
}

/// The second half after the first, when it was lexed in the state the first ends in and
/// starts where a piece may end.
fn join<'s>(mut first: Segment<'s>, second: Segment<'s>) -> Option<Segment<'s>> {
    let scan = &first.scan;
    let joinable = scan.verdict.is_none()
        && scan.piece_depth == 0
        && scan.nesting.depth == 0
        && scan.dialect_depth == 0
        && first.top_level
        && matches!(first.last, Some(Token::Semi | Token::RBrace))
        && second
            .first
            .is_some_and(|t| t.starts_declaration() || matches!(t, Token::Const | Token::Var));
    if !joinable {
        return None;
    }
    first.starts.extend(second.starts);
    first.parsed.extend(second.parsed);
    let (scan, more) = (&mut first.scan, second.scan);
    scan.tokens += more.tokens;
    scan.symbolic_logic_ops.extend(more.symbolic_logic_ops);
    scan.word_logic_ops += more.word_logic_ops;
    scan.bad_token_ends.extend(more.bad_token_ends);
    scan.piece_depth = more.piece_depth;
    scan.nesting = more.nesting;
    scan.dialect_depth = more.dialect_depth;
    scan.verdict = more.verdict;
    first.out.diagnostics.extend(second.out.diagnostics);
    first
        .out
        .semicolon_comments
        .extend(second.out.semicolon_comments);
    first.top_level = second.top_level;
    first.last = second.last;
    Some(first)
}

/// Lexes `src[start..end]` a piece at a time (`start` a line start, or 0), taking each piece's
/// test bodies whole and parsing it; with `parallel`, every other piece on a second thread.
pub(crate) fn lex_segment<'s>(
    file: FileId,
    src: &'s str,
    start: usize,
    end: usize,
    piece_tokens: usize,
    parallel: bool,
) -> Segment<'s> {
    let part = &src[..end];
    let capacity = ((end - start) / 2 + 1).min(piece_tokens.max(1 << 10).saturating_mul(2));
    let mut lexer = Lexer::from(file, part, start, capacity);
    let mut scan = Scan::default();
    let mut starts: Vec<usize> = Vec::new();
    let mut parsed: Vec<Option<Vec<parser::TopLevel>>> = Vec::new();
    let (mut first, mut last) = (None, None);
    std::thread::scope(|scope| {
        let (to_worker, jobs) = std::sync::mpsc::sync_channel::<Piece<'_>>(1);
        let (from_worker, results) = std::sync::mpsc::channel();
        let mut jobs = Some((jobs, from_worker));
        let mut to_worker = parallel.then_some(to_worker);
        let mut worker = None;
        loop {
            let cut = next_piece(&mut lexer, &mut scan.piece_depth, piece_tokens);
            let tokens = &mut lexer.out.tokens;
            let piece_len = cut.unwrap_or(tokens.len());
            scan.read(file, src, &tokens[..piece_len]);
            if piece_len > 0 {
                first.get_or_insert(tokens[0].0);
                last = Some(tokens[piece_len - 1].0);
            }
            if scan.verdict.is_none() && piece_len > 0 {
                let piece = Piece {
                    index: parsed.len(),
                    end: if cut.is_some() || end < src.len() {
                        tokens[piece_len - 1].1.end
                    } else {
                        src.len()
                    },
                    // The last piece (all of a small file) takes the lexer's vector itself;
                    // another is copied out once its test bodies are taken whole (a replay
                    // spec's pieces are then a few tokens, and the lexer's buffer is reused).
                    tokens: match cut {
                        Some(_) => {
                            let kept = parser::skip::take_bodies_whole_in(&mut tokens[..piece_len]);
                            let piece = tokens[..kept].to_vec();
                            tokens.drain(..piece_len);
                            piece
                        }
                        None => {
                            let mut piece = std::mem::take(tokens);
                            parser::skip::take_bodies_whole(&mut piece);
                            piece
                        }
                    },
                };
                starts.push(piece.tokens[0].1.start);
                parsed.push(None);
                // Every other piece goes to a second thread, started with the second piece.
                if to_worker.is_some() && piece.index % 2 == 1 && worker.is_none() {
                    if let Some((jobs, done)) = jobs.take() {
                        worker = std::thread::Builder::new()
                            .name("t27-parse".into())
                            .stack_size(THREAD_STACK)
                            .spawn_scoped(scope, move || {
                                for p in jobs.iter() {
                                    let parsed = parser::parse_fast(p.end, &p.tokens);
                                    let _ = done.send((p.index, parsed));
                                }
                            })
                            .ok();
                    }
                    // No second thread to be had: this one parses every piece.
                    if worker.is_none() {
                        to_worker = None;
                    }
                }
                if let (Some(tx), true) = (&to_worker, piece.index % 2 == 1) {
                    let _ = tx.send(piece);
                } else {
                    parsed[piece.index] = parser::parse_fast(piece.end, &piece.tokens);
                }
            } else {
                tokens.drain(..piece_len);
            }
            if cut.is_none() {
                break;
            }
        }
        drop(to_worker.take());
        if let Some(w) = worker {
            let _ = w.join();
        }
        for (index, result) in results.try_iter() {
            parsed[index] = result;
        }
    });
    let top_level = lexer.at_top_level();
    Segment {
        starts,
        parsed,
        scan,
        out: lexer.out,
        top_level,
        first,
        last,
    }
}
