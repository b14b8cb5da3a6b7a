//! Finds raw URLs in plain text, as GitHub's extended autolinks do.
//!
//! pulldown-cmark only knows `<…>` autolinks; GitHub also links bare
//! `https://…`, `http://…` and `www.…` text, and readers expect those links.

/// A raw URL found in a text slice.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct RawUrl {
    /// Byte offset of the URL within the scanned slice.
    pub(crate) start: usize,
    /// Destination a browser would open (`www.` gets an `http://` scheme).
    pub(crate) target: String,
}

const PREFIXES: [&str; 3] = ["https://", "http://", "www."];

/// All raw URLs of `text`, in order. Linear in the length of `text`.
pub(crate) fn find_raw_urls(text: &str) -> Vec<RawUrl> {
    if !may_hold_url(text.as_bytes()) {
        return Vec::new();
    }
    scan_raw_urls(text)
}

/// Whether `bytes` may hold a raw URL at all: every one has `://` (`https://`, `http://`) or
/// `www.` (in any case). One vectorized pass rules most text out, where the scan would stop at
/// every `h` and `w` that starts a word.
fn may_hold_url(bytes: &[u8]) -> bool {
    memchr::memmem::find(bytes, b"://").is_some()
        || memchr::memchr_iter(b'.', bytes).any(|dot| {
            dot.checked_sub(3)
                .and_then(|start| bytes.get(start..dot))
                .is_some_and(|www| www.eq_ignore_ascii_case(b"www"))
        })
}

/// [`find_raw_urls`] without the quick check.
fn scan_raw_urls(text: &str) -> Vec<RawUrl> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let starts_candidate = matches!(bytes[i], b'h' | b'H' | b'w' | b'W')
            && (i == 0
                || matches!(
                    bytes[i - 1],
                    b' ' | b'\t' | b'\n' | b'\r' | b'*' | b'_' | b'~' | b'('
                ));
        if starts_candidate && let Some(end) = url_end(text, i) {
            // `i` and `end` are char boundaries: `i` is an ASCII byte and
            // `url_end` only stops before a char.
            if let Some(url) = text.get(i..end) {
                let is_www = url
                    .get(..4)
                    .is_some_and(|head| head.eq_ignore_ascii_case("www."));
                let target = if is_www {
                    format!("http://{url}")
                } else {
                    url.to_owned()
                };
                found.push(RawUrl { start: i, target });
            }
            i = end;
            continue;
        }
        i += 1;
    }
    found
}

/// End offset of the URL starting at `start`, or None if none starts there.
fn url_end(text: &str, start: usize) -> Option<usize> {
    let rest = text.get(start..)?;
    let prefix = PREFIXES.iter().find(|prefix| {
        rest.get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
    })?;
    let after_prefix = &rest[prefix.len()..];
    let domain_len = after_prefix
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(after_prefix.len());
    let domain = &after_prefix[..domain_len];
    if !domain.chars().any(char::is_alphanumeric) {
        return None;
    }
    let tail = &after_prefix[domain_len..];
    let tail_len = tail
        .find(|c: char| c.is_whitespace() || c == '<')
        .unwrap_or(tail.len());
    let url = trim_trailing(&rest[..prefix.len() + domain_len + tail_len]);
    Some(start + url.len())
}

/// Drops what GitHub does not consider part of a URL at its end: trailing
/// punctuation, an unbalanced closing parenthesis and an entity reference.
fn trim_trailing(mut url: &str) -> &str {
    // Counted once: rescanning on every step would be quadratic for a URL
    // followed by a long run of `)`.
    let opening = url.matches('(').count();
    let mut closing = url.matches(')').count();
    loop {
        let before = url.len();
        if let Some(stripped) =
            url.strip_suffix(['?', '!', '.', ',', ':', '*', '_', '~', '\'', '"'])
        {
            url = stripped;
        } else if closing > opening && url.ends_with(')') {
            url = &url[..url.len() - 1];
            closing -= 1;
        } else if let Some(stripped) = url.strip_suffix(';') {
            let entity_start = stripped.trim_end_matches(|c: char| c.is_ascii_alphanumeric());
            if entity_start.len() < stripped.len() && entity_start.ends_with('&') {
                url = &entity_start[..entity_start.len() - 1];
            }
        }
        if url.len() == before {
            return url;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(text: &str) -> Vec<String> {
        find_raw_urls(text)
            .into_iter()
            .map(|url| url.target)
            .collect()
    }

    #[test]
    fn finds_scheme_and_www_urls() {
        assert_eq!(
            targets("see https://example.com/a?b=1, and www.rust-lang.org."),
            ["https://example.com/a?b=1", "http://www.rust-lang.org"]
        );
    }

    #[test]
    fn keeps_balanced_parentheses_and_drops_unbalanced_ones() {
        assert_eq!(
            targets("(https://en.wikipedia.org/wiki/Rust_(language))"),
            ["https://en.wikipedia.org/wiki/Rust_(language)"]
        );
    }

    #[test]
    fn ignores_urls_inside_words_and_bare_prefixes() {
        assert!(targets("xhttps://example.com").is_empty());
        assert!(targets("https:// and www.").is_empty());
    }

    proptest::proptest! {
        #[test]
        fn the_quick_check_never_hides_a_url(
            text in "(https?|www|WwW|://|[.]|[ (]|x|h|w|/a|é){0,24}"
        ) {
            let scanned: Vec<String> = scan_raw_urls(&text).into_iter().map(|u| u.target).collect();
            proptest::prop_assert_eq!(targets(&text), scanned);
        }
    }

    #[test]
    fn reports_offsets_within_the_slice() {
        let found = find_raw_urls("ab https://x.io");
        assert_eq!(found[0].start, 3);
    }
}
