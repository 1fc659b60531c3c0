//! Lines to text: indentation, the spaces between pieces, comments, blank lines, and the
//! file's own line ending and byte order mark.

use crate::layout::Line;

/// Four spaces a level.
pub(crate) const INDENT: usize = 4;

/// The text of `lines`, with the line ending of `original` (CRLF when its first line ends so)
/// and its byte order mark, if it has one; one line end at the end.
pub(crate) fn render(original: &str, lines: &[Line<'_>]) -> String {
    let crlf = original
        .find('\n')
        .is_some_and(|i| original[..i].ends_with('\r'));
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut out = String::with_capacity(original.len() + original.len() / 8);
    if original.starts_with('\u{feff}') {
        out.push('\u{feff}');
    }
    for (i, line) in lines.iter().enumerate() {
        if line.blank_before && i > 0 {
            out.push_str(eol);
        }
        out.push_str(&line_text(line));
        out.push_str(eol);
    }
    out
}

/// One line without its line end.
fn line_text(line: &Line<'_>) -> String {
    let mut s = " ".repeat(line.indent * INDENT);
    for p in &line.pieces {
        if p.space_before {
            s.push(' ');
        }
        s.push_str(p.text);
    }
    if let Some(c) = line.comment {
        if !line.pieces.is_empty() {
            s.push(' ');
        }
        s.push_str(c);
    }
    s
}
