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
    ///
    /// Runs of ASCII other than whitespace are copied whole (most text is such runs, and
    /// copying a run costs about what one character pushed alone does); everything else goes a
    /// character at a time. The result is the character loop's (property-tested).
    pub(crate) fn push(&mut self, fragment: &str) {
        let bytes = fragment.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let room = self
                .limit
                .map_or(usize::MAX, |limit| limit.saturating_sub(self.chars));
            if room == 0 {
                return;
            }
            let run = bytes[at..]
                .iter()
                .position(|b| !b.is_ascii() || is_ascii_whitespace(*b))
                .unwrap_or(bytes.len() - at);
            if run > 0 {
                self.space_if_pending();
                // ASCII: one byte, one character. As a character at a time: the limit is
                // checked before a character and its pending space, so the first one after a
                // space goes in even when the space filled the buffer.
                let room = self
                    .limit
                    .map_or(usize::MAX, |limit| limit.saturating_sub(self.chars));
                let take = run.min(room.max(1));
                self.text.push_str(&fragment[at..at + take]);
                self.chars += take;
                at += run;
                continue;
            }
            // A whitespace byte or the first byte of a longer character: one character.
            let Some(c) = fragment[at..].chars().next() else {
                return;
            };
            at += c.len_utf8();
            if c.is_whitespace() {
                self.pending_space = !self.text.is_empty();
                continue;
            }
            self.space_if_pending();
            self.text.push(c);
            self.chars += 1;
        }
    }

    /// Writes the space a whitespace run left pending, before the next visible character.
    fn space_if_pending(&mut self) {
        if self.pending_space {
            self.text.push(' ');
            self.chars += 1;
            self.pending_space = false;
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

/// `char::is_whitespace` for an ASCII byte (which, unlike `u8::is_ascii_whitespace`, counts
/// the vertical tab).
fn is_ascii_whitespace(byte: u8) -> bool {
    matches!(byte, b'\t'..=b'\r' | b' ')
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

    /// The definition: a character at a time.
    fn collapsed_by_chars(fragments: &[String], limit: Option<usize>) -> String {
        let (mut text, mut chars, mut pending) = (String::new(), 0usize, false);
        for fragment in fragments {
            for c in fragment.chars() {
                if limit.is_some_and(|limit| chars >= limit) {
                    break;
                }
                if c.is_whitespace() {
                    pending = !text.is_empty();
                    continue;
                }
                if pending {
                    text.push(' ');
                    chars += 1;
                    pending = false;
                }
                text.push(c);
                chars += 1;
            }
        }
        text
    }

    proptest::proptest! {
        #[test]
        fn runs_collapse_exactly_as_characters_do(
            fragments in proptest::collection::vec("[a-c \t\n\x0b\u{a0}\u{2003}é日]{0,12}", 0..6),
            limit in proptest::option::of(0usize..20),
        ) {
            let mut buffer = limit.map_or_else(Collapsed::default, Collapsed::bounded);
            for fragment in &fragments {
                buffer.push(fragment);
            }
            proptest::prop_assert_eq!(buffer.into_string(), collapsed_by_chars(&fragments, limit));
        }
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
