//! The file's own habits, kept: where the author is consistent the formatter writes as they
//! do, and where they are not it writes what they do most (a deterministic vote, per file).
//!
//! - Indentation: every code line that starts inside an open bracket (a body, a block, the
//!   items of a list written over several lines) votes with what it was written with: some
//!   indentation, or none. More flat lines than indented ones: the file is flat, and every line
//!   is written at column 0 (the owner writes bodies, blocks and array elements so). Otherwise
//!   (a tie, or no such line) the file is indented, four spaces a level.
//! - The `:` of a declaration: each kind on its own ([`ColonRole`]: module-level `const` and
//!   `var`, struct fields, locals, parameters) is written `name : T` or `name: T`, whichever
//!   the file writes more of that kind; on a tie, the one it writes first; a kind the file
//!   never spells either way gets `name: T`. Other spellings (`name:T`, `name :T`) do not vote:
//!   they are what gets normalised.
//!
//! Both rules read only what the formatter writes back the same way, so a formatted file
//! votes as it did and formatting it again changes nothing.

use crate::layout::{ColonRole, Line, Written};

/// Sets the indentation (already computed by levels) to the file's habit, and every
/// declaration's `:` to the file's spelling for its kind.
pub(crate) fn keep_habits(lines: &mut [Line<'_>]) {
    if is_flat(lines) {
        for line in lines.iter_mut() {
            line.indent = 0;
        }
    }
    for role in [
        ColonRole::Item,
        ColonRole::Field,
        ColonRole::Local,
        ColonRole::Param,
    ] {
        let spaced = spaced(lines, role);
        for line in lines.iter_mut() {
            // A `:` that starts its line has no space before it to choose.
            for p in line.pieces.iter_mut().skip(1) {
                if p.colon.is_some_and(|(r, _)| r == role) {
                    p.space_before = spaced;
                }
            }
        }
    }
}

/// Whether the file writes its bodies flat: more of its code lines inside brackets were
/// written at column 0 than indented.
fn is_flat(lines: &[Line<'_>]) -> bool {
    let (mut flat, mut indented) = (0usize, 0usize);
    for line in lines
        .iter()
        .filter(|l| l.indent > 0 && !l.pieces.is_empty())
    {
        if line.written_indented {
            indented += 1;
        } else {
            flat += 1;
        }
    }
    flat > indented
}

/// Whether the declarations' `:` of kind `role` are written `name : T` in this file.
fn spaced(lines: &[Line<'_>], role: ColonRole) -> bool {
    let votes = lines
        .iter()
        .flat_map(|l| l.pieces.iter().skip(1))
        .filter_map(|p| p.colon)
        .filter(|&(r, w)| r == role && w != Written::Odd)
        .map(|(_, w)| w);
    let (mut spaced, mut tight, mut first) = (0usize, 0usize, None);
    for w in votes {
        first.get_or_insert(w);
        if w == Written::Spaced {
            spaced += 1;
        } else {
            tight += 1;
        }
    }
    spaced > tight || (spaced == tight && first == Some(Written::Spaced))
}
