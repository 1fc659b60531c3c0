//! Between t27's byte offsets and paths and LSP's positions (UTF-16 code units on a line) and
//! URIs.

use lsp_types::{Position, Range, Url};
use std::path::PathBuf;
use t27_diag::Span;

/// The starts of a text's lines, to turn offsets into positions and back.
pub struct LineIndex<'t> {
    text: &'t str,
    starts: Vec<u32>,
}

impl<'t> LineIndex<'t> {
    pub fn new(text: &'t str) -> LineIndex<'t> {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        LineIndex { text, starts }
    }

    pub fn position(&self, offset: u32) -> Position {
        let offset = offset.min(self.text.len() as u32);
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line] as usize;
        let mut end = offset as usize;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let character = self.text[start..end].encode_utf16().count() as u32;
        Position {
            line: line as u32,
            character,
        }
    }

    pub fn range(&self, span: Span) -> Range {
        Range {
            start: self.position(span.start),
            end: self.position(span.end),
        }
    }

    /// The byte offset of `position`; a position past a line's end is its end, past the last
    /// line the text's end.
    pub fn offset(&self, position: Position) -> u32 {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return self.text.len() as u32;
        };
        let line_end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |&s| s as usize - 1);
        let line = &self.text[start as usize..line_end];
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= position.character {
                return start + i as u32;
            }
            units += c.len_utf16() as u32;
        }
        line_end as u32
    }

    pub fn span(&self, range: Range) -> Span {
        Span {
            start: self.offset(range.start),
            end: self.offset(range.end),
        }
    }
}

/// The path a document is checked under: its file for a `file:` URI, the URI itself for any
/// other (an unsaved buffer is checked from the editor's text alone).
pub fn path_of(uri: &Url) -> PathBuf {
    match uri.to_file_path() {
        Ok(path) => t27_check::normalize(&path),
        Err(()) => PathBuf::from(uri.as_str()),
    }
}

pub fn uri_of(path: &std::path::Path) -> Option<Url> {
    Url::from_file_path(path)
        .ok()
        .or_else(|| Url::parse(path.to_str()?).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_positions_round_trip_through_utf16() {
        let text = "ab\n// é𝄞x\r\nlast";
        let index = LineIndex::new(text);
        for offset in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
            let p = index.position(offset as u32);
            assert_eq!(index.offset(p), offset as u32, "{offset} {p:?}");
        }
        // `𝄞` is two UTF-16 units: `x` is at character 6 of line 1.
        let x = text.find('x').expect("x") as u32;
        assert_eq!(
            index.position(x),
            Position {
                line: 1,
                character: 6
            }
        );
        assert_eq!(
            index.offset(Position {
                line: 9,
                character: 0
            }),
            text.len() as u32
        );
        assert_eq!(
            index.offset(Position {
                line: 0,
                character: 99
            }),
            2
        );
    }
}
