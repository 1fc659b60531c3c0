//! Copies of a token stream with one token changed, for the tests that hold the hand-written
//! parsers to chumsky's.

use crate::token::Token;
use chumsky::span::SimpleSpan;

/// Calls `f(at, how, mutant)` for tokens at about `positions` places of `tokens` (every place
/// of a shorter stream), each deleted (`how` 0), doubled (1), swapped with the next (2) and
/// replaced by one of `replacements` (3).
pub(crate) fn for_each_mutant<'s>(
    tokens: &[(Token<'s>, SimpleSpan)],
    positions: usize,
    replacements: &[Token<'s>],
    mut f: impl FnMut(usize, usize, &[(Token<'s>, SimpleSpan)]),
) {
    let step = (tokens.len() / positions).max(1);
    for at in (0..tokens.len()).step_by(step) {
        let replacement = replacements[at % replacements.len()];
        for how in 0..4 {
            let mut t = tokens.to_vec();
            match how {
                0 => drop(t.remove(at)),
                1 => t.insert(at, t[at]),
                2 if at + 1 < t.len() => t.swap(at, at + 1),
                3 => t[at].0 = replacement,
                _ => continue,
            }
            f(at, how, &t);
        }
    }
}
