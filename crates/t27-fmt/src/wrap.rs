//! Long lines wrapped: a line wider than [`crate::MAX_WIDTH`] that holds a bracketed list
//! (arguments, an array, a tuple) opened and closed on it is cut after the opening bracket,
//! after each comma of the list and before the closing bracket, each item on a line of its
//! own. The lines are indented again after each round, and a round runs while one changes
//! something, so formatting the result again changes nothing.

use crate::layout::{Line, Piece, closes, opens, reindent};
use crate::render::width;
use t27_syntax::token::Token;

/// Rounds of wrapping at most: each round wraps the outermost list of every long line, and
/// lists nest only so deep on one line.
const MAX_ROUNDS: usize = 16;

pub(crate) fn wrap_long_lines(lines: &mut Vec<Line<'_>>) {
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        let mut out = Vec::with_capacity(lines.len());
        for line in lines.drain(..) {
            if width(&line) > crate::MAX_WIDTH
                && let Some(cut) = cut_list(&line)
            {
                out.extend(cut);
                changed = true;
            } else {
                out.push(line);
            }
        }
        *lines = out;
        if !changed {
            return;
        }
        reindent(lines);
    }
}

/// The line cut at its first list: an opening `(` or `[` closed on the same line with a
/// comma directly inside.
fn cut_list<'s>(line: &Line<'s>) -> Option<Vec<Line<'s>>> {
    let pieces = &line.pieces;
    let (open, close) = (0..pieces.len()).find_map(|i| {
        if !matches!(pieces[i].token, Token::LParen | Token::LBracket) {
            return None;
        }
        let close = matching(pieces, i)?;
        let has_comma = top_level_commas(pieces, i, close).next().is_some();
        has_comma.then_some((i, close))
    })?;
    let starts_line = |mut p: Vec<Piece<'s>>| {
        if let Some(first) = p.first_mut() {
            first.space_before = false;
        }
        p
    };
    let mut cut = vec![Line {
        indent: line.indent,
        blank_before: line.blank_before,
        pieces: pieces[..=open].to_vec(),
        comment: None,
    }];
    let mut from = open + 1;
    for comma in top_level_commas(pieces, open, close).chain([close - 1]) {
        if from <= comma {
            cut.push(Line {
                indent: line.indent + 1,
                blank_before: false,
                pieces: starts_line(pieces[from..=comma].to_vec()),
                comment: None,
            });
        }
        from = comma + 1;
    }
    cut.push(Line {
        indent: line.indent,
        blank_before: false,
        pieces: starts_line(pieces[close..].to_vec()),
        comment: line.comment,
    });
    Some(cut)
}

/// The index of the bracket that closes the one at `open`, on the same line.
fn matching(pieces: &[Piece<'_>], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, p) in pieces.iter().enumerate().skip(open) {
        if opens(p.token) {
            depth += 1;
        } else if closes(p.token) {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// The commas directly inside the brackets at `open` and `close`.
fn top_level_commas<'a>(
    pieces: &'a [Piece<'_>],
    open: usize,
    close: usize,
) -> impl Iterator<Item = usize> + 'a {
    let mut depth = 0usize;
    (open + 1..close).filter(move |&i| {
        let t = pieces[i].token;
        if opens(t) {
            depth += 1;
        } else if closes(t) {
            depth = depth.saturating_sub(1);
        }
        depth == 0 && t == Token::Comma
    })
}
