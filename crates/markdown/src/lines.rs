//! Maps byte offsets of the original text to 1-based line numbers.

/// Start offsets of every line, built once so each lookup is a binary search
/// instead of a rescan (documents can be tens of megabytes).
///
/// Line endings follow CommonMark: `\n`, `\r\n` and a lone `\r` each end a
/// line, so line numbers agree with what the Markdown parser considers a line.
#[derive(Debug)]
pub(crate) struct LineIndex {
    starts: Vec<usize>,
    line_count: u32,
}

impl LineIndex {
    pub(crate) fn new(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for pos in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            // The `\r` of a `\r\n` pair is not a line end on its own: the `\n` is.
            if bytes[pos] == b'\r' && bytes.get(pos + 1) == Some(&b'\n') {
                continue;
            }
            starts.push(pos + 1);
        }
        // A line start at the very end of the text belongs to no line: a
        // trailing line ending does not add a line.
        if starts.last() == Some(&text.len()) {
            starts.pop();
        }
        let line_count = u32::try_from(starts.len()).unwrap_or(u32::MAX);
        Self { starts, line_count }
    }

    /// Number of lines of the text; 0 for the empty text.
    pub(crate) fn line_count(&self) -> u32 {
        self.line_count
    }

    /// 1-based line containing `offset`, clamped to `1..=line_count` (or 1 when
    /// the text is empty) so callers never see an out-of-range line.
    pub(crate) fn line_of(&self, offset: usize) -> u32 {
        let line = self.starts.partition_point(|&start| start <= offset);
        let line = u32::try_from(line).unwrap_or(u32::MAX);
        line.clamp(1, self.line_count.max(1))
    }
}

/// The lines of `text` without their endings, cut where [`LineIndex`] cuts them (`\n`,
/// `\r\n`, a lone `\r`); a trailing line ending adds no line.
pub(crate) fn split_lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    for pos in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if pos < start {
            continue;
        }
        lines.push(&text[start..pos]);
        start = if bytes[pos] == b'\r' && bytes.get(pos + 1) == Some(&b'\n') {
            pos + 2
        } else {
            pos + 1
        };
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::{LineIndex, split_lines};

    #[test]
    fn split_lines_agrees_with_the_line_index() {
        for text in ["", "a", "a\n", "a\r\nb\rc\n", "\n\n", "x\r", "\r\n\r\n"] {
            assert_eq!(
                split_lines(text).len(),
                LineIndex::new(text).line_count() as usize,
                "{text:?}"
            );
        }
        assert_eq!(split_lines("a\r\nb\rc"), vec!["a", "b", "c"]);
    }

    #[test]
    fn empty_text_has_no_lines() {
        assert_eq!(LineIndex::new("").line_count(), 0);
    }

    #[test]
    fn trailing_newline_does_not_add_a_line() {
        assert_eq!(LineIndex::new("a\nb\n").line_count(), 2);
        assert_eq!(LineIndex::new("a\nb").line_count(), 2);
        assert_eq!(LineIndex::new("\n").line_count(), 1);
        assert_eq!(LineIndex::new("\n\n").line_count(), 2);
    }

    #[test]
    fn crlf_and_lone_cr_end_lines() {
        let index = LineIndex::new("a\r\nb\rc\n");
        assert_eq!(index.line_count(), 3);
        assert_eq!(index.line_of(0), 1);
        assert_eq!(index.line_of(1), 1);
        assert_eq!(index.line_of(2), 1);
        assert_eq!(index.line_of(3), 2);
        assert_eq!(index.line_of(5), 3);
    }

    #[test]
    fn offsets_past_the_end_clamp_to_the_last_line() {
        let index = LineIndex::new("a\nb\n");
        assert_eq!(index.line_of(4), 2);
        assert_eq!(index.line_of(1000), 2);
    }
}
