//! Byte offsets to 1-based lines and columns.

/// Line starts of one source text, for turning byte offsets into line and column numbers.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// The 1-based line and 1-based column (counted in characters) of a byte offset.
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let column = text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, column + 1)
    }

    /// The byte range of the 1-based line `line`, without its line break.
    pub fn line_text<'a>(&self, text: &'a str, line: usize) -> &'a str {
        let start = self.starts.get(line - 1).copied().unwrap_or(text.len());
        let end = self.starts.get(line).map_or(text.len(), |e| e - 1);
        text.get(start..end).unwrap_or("").trim_end_matches('\r')
    }
}
