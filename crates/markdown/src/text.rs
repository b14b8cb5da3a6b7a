//! Plain-text helpers: whitespace collapsing and summary truncation.

use crate::SUMMARY_MAX_CHARS;

/// Accumulates text with every run of whitespace collapsed to one space and
/// no leading or trailing whitespace, optionally keeping only the first
/// `limit` characters so a capture of a huge paragraph stays small.
#[derive(Debug, Default)]
pub(crate) struct Collapsed {
    text: String,
    chars: usize,
    limit: Option<usize>,
    pending_space: bool,
}

impl Collapsed {
    /// A buffer that stops growing after `limit` characters.
    pub(crate) fn bounded(limit: usize) -> Self {
        Self {
            limit: Some(limit),
            ..Self::default()
        }
    }

    /// Appends `fragment`, collapsing whitespace across fragment boundaries.
    pub(crate) fn push(&mut self, fragment: &str) {
        for c in fragment.chars() {
            if self.limit.is_some_and(|limit| self.chars >= limit) {
                return;
            }
            if c.is_whitespace() {
                self.pending_space = !self.text.is_empty();
                continue;
            }
            if self.pending_space {
                self.text.push(' ');
                self.chars += 1;
                self.pending_space = false;
            }
            self.text.push(c);
            self.chars += 1;
        }
    }

    /// True when nothing but whitespace was pushed.
    pub(crate) fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The collapsed text.
    pub(crate) fn into_string(self) -> String {
        self.text
    }
}

/// A buffer sized for a summary: one character more than the maximum is
/// enough to know that the text must be cut.
pub(crate) fn summary_buffer() -> Collapsed {
    Collapsed::bounded(SUMMARY_MAX_CHARS + 1)
}

/// Shortens already collapsed `text` to at most [`SUMMARY_MAX_CHARS`]
/// characters. When it has to cut, it prefers the last word boundary (unless
/// that would drop more than half of the text) and ends with "…", which counts
/// towards the maximum.
pub(crate) fn truncate_summary(text: String) -> String {
    if text.chars().count() <= SUMMARY_MAX_CHARS {
        return text;
    }
    let keep = SUMMARY_MAX_CHARS - 1;
    let cut = text
        .char_indices()
        .nth(keep)
        .map_or(text.len(), |(index, _)| index);
    let head = &text[..cut];
    // The cut falls between words when the next character is a space.
    let at_word_boundary = text[cut..].starts_with(' ');
    let head = if at_word_boundary {
        head
    } else {
        match head.rfind(' ') {
            Some(space) if head[..space].chars().count() >= keep / 2 => &head[..space],
            _ => head,
        }
    };
    let mut summary = String::with_capacity(head.len() + '…'.len_utf8());
    summary.push_str(head.trim_end());
    summary.push('…');
    summary
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_runs_collapse_across_fragments() {
        let mut buffer = Collapsed::default();
        buffer.push("  a \n ");
        buffer.push("\tb  ");
        buffer.push("c");
        assert_eq!(buffer.into_string(), "a b c");
    }

    #[test]
    fn bounded_buffer_stops_at_its_limit() {
        let mut buffer = Collapsed::bounded(3);
        buffer.push("abcdef");
        assert_eq!(buffer.into_string(), "abc");
    }

    #[test]
    fn short_summary_is_unchanged() {
        assert_eq!(truncate_summary("short text".into()), "short text");
        let exact = "x".repeat(SUMMARY_MAX_CHARS);
        assert_eq!(truncate_summary(exact.clone()), exact);
    }

    #[test]
    fn long_summary_is_cut_at_a_word_boundary_with_ellipsis() {
        let text = "word ".repeat(100).trim_end().to_string();
        let summary = truncate_summary(text);
        assert!(summary.chars().count() <= SUMMARY_MAX_CHARS);
        assert!(summary.ends_with("word…"), "{summary}");
    }

    #[test]
    fn long_summary_without_spaces_is_cut_at_a_char_boundary() {
        let text = "é".repeat(400);
        let summary = truncate_summary(text);
        assert_eq!(summary.chars().count(), SUMMARY_MAX_CHARS);
        assert!(summary.ends_with("é…"));
    }
}
