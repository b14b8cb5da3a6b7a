//! The one secret pattern list (DESIGN, "The enrichment pipeline": nothing an agent wrote can
//! leak secrets into a pack, a log or the overlay).
//!
//! The validators reject a proposal whose free text contains a secret (`redaction`), and the
//! context packs (enrichment-overlay-v1, "Context packs and the cache": every string in a pack
//! passes `redactSecrets`) replace secrets before anything reaches an agent. Both use this list,
//! so what a pack hides and what a proposal may not say can never drift apart. Changing a
//! pattern changes what packs contain: bump [`REDACTION_PATTERNS_VERSION`].
//!
//! **Invisible characters.** Every pattern is matched on the text as given *and* on a view of it
//! with the [`INVISIBLE`] characters (zero-width space, ZWNJ, ZWJ, word joiner, BOM, soft hyphen,
//! …) removed. A match in the view is mapped back to the original bytes, from its first to its
//! last visible character, so redaction removes the whole original span, the invisible
//! characters inside it included: `AKIA` + U+200B + `IOSFODNN7EXAMPLE` is one secret.
//!
//! **One space inside a token.** The fixed-shape token patterns (AWS access key, GitHub, Stripe,
//! OpenAI-style, Slack, Google) also carry a `split` window: their prefix, key characters, one
//! ASCII space, key characters. A window is a secret only when, with the space taken out, the
//! pattern itself matches from the window's start *across* the space, the part before the space
//! is not already a secret on its own, the joined token holds a digit, and — for patterns that
//! need a digit anyway — the part before the space holds one too (so a prose word with a number
//! cannot complete `sk-learn-compatible`). Only the token the pattern matches (with the space) is
//! redacted, never the rest of the window. The window begins with the token's own prefix at a word
//! boundary and holds key characters only, so it never starts inside ordinary prose; it tolerates
//! exactly one space, so a key cut into three pieces or across a line break is not recognised.
//!
//! **Placeholders.** [`redact`] writes [`REDACTED`]. Ids and paths an agent must be able to echo
//! back use [`Restorations::redact`] instead: each secret span becomes [`placeholder`] of it,
//! `[redacted-<first 12 hex digits of sha256 of the span>]`, the same text for the same span in
//! every run, and the restorations remember which span each placeholder stands for.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use doc_bridge_model::ContentHash;
use regex::Regex;

/// Version of [`REDACTION_PATTERNS`]; part of anything derived from redacted text (pack hashes).
pub const REDACTION_PATTERNS_VERSION: u32 = 2;

/// What a secret is replaced with.
pub const REDACTED: &str = "[redacted]";

/// How a stable placeholder starts (see [`placeholder`]).
const PLACEHOLDER_PREFIX: &str = "[redacted-";
/// Hex digits of the span's sha256 in a placeholder.
const PLACEHOLDER_HEX: usize = 12;
/// Bytes of a placeholder: the prefix, the digits, `]`.
const PLACEHOLDER_LEN: usize = PLACEHOLDER_PREFIX.len() + PLACEHOLDER_HEX + 1;

/// Characters that render as nothing and are ignored inside secrets: soft hyphen, Mongolian vowel
/// separator, zero-width space, ZWNJ, ZWJ, word joiner, the invisible operators, BOM.
pub const INVISIBLE: &[char] = &[
    '\u{00AD}', '\u{180E}', '\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{2061}', '\u{2062}',
    '\u{2063}', '\u{2064}', '\u{FEFF}',
];

/// One named secret pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecretPattern {
    /// Stable name, used in rejection details (`aws-access-key`).
    pub name: &'static str,
    /// The regular expression (Rust `regex` syntax). When it has a group named `secret`, only
    /// that group is the secret and the rest of the match is kept (a URL's scheme and host).
    pub pattern: &'static str,
    /// A match counts only when it contains an ASCII digit (keeps `sk-learn-compatible-…`
    /// prose from being taken for a key).
    pub needs_digit: bool,
    /// For fixed-shape tokens: the window that finds the token split by one space (see the
    /// module documentation).
    pub split: Option<&'static str>,
}

/// The secret patterns, applied in this order (the private key block first, so its body goes
/// with its header; the generic assignment last).
pub const REDACTION_PATTERNS: &[SecretPattern] = &[
    SecretPattern {
        name: "private-key",
        // Any `-----BEGIN … PRIVATE KEY…-----` header (RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP
        // `PRIVATE KEY BLOCK`), through the END line, or to the end of the text when there is
        // none. Public keys and certificates are not secrets.
        pattern: r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY[A-Z0-9 ]*-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY[A-Z0-9 ]*-----|\z)",
        needs_digit: false,
        split: None,
    },
    SecretPattern {
        name: "url-credentials",
        // `scheme://user:password@host`: the `user:password` part only. A user without a
        // password (`ssh://git@host`), `git@github.com:` and e-mail addresses have no `://` and
        // colon before the `@` and are not matched; `[` cannot start the user, so a redacted
        // URL is not matched again.
        pattern: r"(?i)\b[a-z][a-z0-9+.-]*://(?P<secret>[^\s/?#@:\[\]]+:[^\s/@]+)@",
        needs_digit: false,
        split: None,
    },
    SecretPattern {
        name: "aws-access-key",
        pattern: r"(?:AKIA|ASIA)[0-9A-Z]{16}",
        needs_digit: false,
        split: Some(r"\b(?:AKIA|ASIA)[0-9A-Z]* [0-9A-Z]+"),
    },
    SecretPattern {
        name: "aws-secret-key",
        // `aws_secret_access_key <value>`, `=`, `:`, quoted or not, any case, any prefix
        // (`MY_AWS_SECRET_ACCESS_KEY`). The value (AWS: 40 base64 characters) must hold a digit,
        // so `aws_secret_access_key internationalization` is prose.
        pattern: r#"(?i)(?:aws_?)?secret_?access_?key["']?(?:\s*[:=]\s*|\s+)["']?[A-Za-z0-9/+=]{16,}"#,
        needs_digit: true,
        split: None,
    },
    SecretPattern {
        name: "github-token",
        pattern: r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
        needs_digit: false,
        split: Some(r"\b(?:gh[pousr]_[A-Za-z0-9]*|github_pat_[A-Za-z0-9_]*) [A-Za-z0-9_]+"),
    },
    SecretPattern {
        name: "stripe-key",
        // Secret (`sk_`) and restricted (`rk_`) keys, live and test. Publishable keys (`pk_`)
        // are meant to ship in web pages and are not secrets.
        pattern: r"\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}",
        needs_digit: false,
        split: Some(r"\b[rs]k_(?:live|test)_[0-9A-Za-z]* [0-9A-Za-z]+"),
    },
    SecretPattern {
        name: "openai-key",
        pattern: r"\bsk-[A-Za-z0-9_-]{20,}",
        needs_digit: true,
        split: Some(r"\bsk-[A-Za-z0-9_-]* [A-Za-z0-9_-]+"),
    },
    SecretPattern {
        name: "slack-token",
        pattern: r"\bxox[baprs]-[A-Za-z0-9-]{10,}",
        needs_digit: false,
        split: Some(r"\bxox[baprs]-[A-Za-z0-9-]* [A-Za-z0-9-]+"),
    },
    SecretPattern {
        name: "google-api-key",
        pattern: r"\bAIza[0-9A-Za-z_-]{35}",
        needs_digit: false,
        split: Some(r"\bAIza[0-9A-Za-z_-]* [0-9A-Za-z_-]+"),
    },
    SecretPattern {
        name: "jwt",
        pattern: r"\beyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*",
        needs_digit: false,
        split: None,
    },
    SecretPattern {
        name: "bearer-token",
        pattern: r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{20,}=*",
        needs_digit: false,
        split: None,
    },
    SecretPattern {
        name: "secret-assignment",
        // `api_key = …`, `client_secret: …`, `"password": "…"`. The value may not start with
        // `[`, so an already redacted value is not matched again.
        pattern: r#"(?i)(?:api[_-]?key|secret|token|passw(?:or)?d)["']?\s*[:=]\s*["']?[^\s"'\[][^\s"']{7,}"#,
        needs_digit: false,
        split: None,
    },
];

/// One pattern, compiled.
struct Compiled {
    pattern: SecretPattern,
    strict: Regex,
    /// Whether `strict` has a `secret` group.
    group: bool,
    split: Option<Regex>,
}

/// The compiled patterns, built once. A pattern whose regex (or split window) does not compile
/// is left out, which `every_pattern_compiles` catches.
static COMPILED: LazyLock<Vec<Compiled>> = LazyLock::new(|| {
    REDACTION_PATTERNS
        .iter()
        .filter_map(|p| {
            let strict = Regex::new(p.pattern).ok()?;
            let split = match p.split {
                Some(window) => Some(Regex::new(window).ok()?),
                None => None,
            };
            let group = strict.capture_names().any(|n| n == Some("secret"));
            Some(Compiled {
                pattern: *p,
                strict,
                group,
                split,
            })
        })
        .collect()
});

/// Most redaction passes before the whole text is replaced (see [`redact`]).
const MAX_PASSES: usize = 8;

fn has_digit(text: &str) -> bool {
    text.bytes().any(|b| b.is_ascii_digit())
}

fn counts(pattern: &SecretPattern, matched: &str) -> bool {
    !pattern.needs_digit || has_digit(matched)
}

fn is_invisible(c: char) -> bool {
    INVISIBLE.contains(&c)
}

/// `text` without its invisible characters, with the offset in `text` of every byte of the
/// view; `None` when there is none to remove.
fn visible_view(text: &str) -> Option<(String, Vec<usize>)> {
    if !text.chars().any(is_invisible) {
        return None;
    }
    let mut view = String::with_capacity(text.len());
    let mut offsets = Vec::with_capacity(text.len());
    for (at, c) in text.char_indices() {
        if !is_invisible(c) {
            view.push(c);
            offsets.extend(at..at + c.len_utf8());
        }
    }
    Some((view, offsets))
}

/// The byte ranges of `text` that `compiled` finds secret (unsorted, possibly overlapping).
fn ranges_in(text: &str, compiled: &Compiled) -> Vec<(usize, usize)> {
    let pattern = &compiled.pattern;
    let mut ranges = Vec::new();
    if compiled.group {
        for caps in compiled.strict.captures_iter(text) {
            let Some(whole) = caps.get(0) else {
                continue;
            };
            if counts(pattern, whole.as_str()) {
                let secret = caps.name("secret").unwrap_or(whole);
                ranges.push((secret.start(), secret.end()));
            }
        }
    } else {
        for found in compiled.strict.find_iter(text) {
            if counts(pattern, found.as_str()) {
                ranges.push((found.start(), found.end()));
            }
        }
    }
    let Some(split) = &compiled.split else {
        return ranges;
    };
    let whole_tokens = ranges.len();
    for window in split.find_iter(text) {
        let text = window.as_str();
        let Some(gap) = text.find(' ') else {
            continue;
        };
        let (head, tail) = (&text[..gap], &text[gap + 1..]);
        let start = window.start();
        // The part before the space is a secret on its own: that one is redacted already.
        if ranges[..whole_tokens]
            .iter()
            .any(|&(s, e)| s < start + gap && start < e)
        {
            continue;
        }
        let joined = format!("{head}{tail}");
        let Some(token) = compiled.strict.find(&joined) else {
            continue;
        };
        let token = token.as_str();
        if token.len() > gap
            && joined.starts_with(token)
            && counts(pattern, token)
            && has_digit(token)
            && (!pattern.needs_digit || has_digit(head))
        {
            ranges.push((start, start + token.len() + 1));
        }
    }
    ranges
}

/// Sorted, overlapping ranges merged.
fn merge(mut ranges: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (start, end) in ranges {
        match merged.last_mut() {
            Some(last) if start < last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// Every secret range of `text` for one pattern, sorted and merged: found in the text as given,
/// and in its visible view, mapped back to the original bytes.
fn secret_ranges(text: &str, compiled: &Compiled) -> Vec<(usize, usize)> {
    let mut ranges = ranges_in(text, compiled);
    if let Some((view, offsets)) = visible_view(text) {
        for (start, end) in ranges_in(&view, compiled) {
            if let (Some(&first), Some(&last)) = (
                offsets.get(start),
                end.checked_sub(1).and_then(|e| offsets.get(e)),
            ) {
                ranges.push((first, last + 1));
            }
        }
    }
    merge(ranges)
}

/// The name of the first pattern that finds a secret in `text`, if any.
pub fn find_secret(text: &str) -> Option<&'static str> {
    COMPILED
        .iter()
        .find(|compiled| !secret_ranges(text, compiled).is_empty())
        .map(|compiled| compiled.pattern.name)
}

/// Whether `text` contains a secret.
pub fn contains_secret(text: &str) -> bool {
    find_secret(text).is_some()
}

/// One pass of every pattern in order, each over the previous one's output; `None` when nothing
/// was found.
fn replace_pass(text: &str, replacement: &mut dyn FnMut(&str) -> String) -> Option<String> {
    let mut current: Option<String> = None;
    for compiled in COMPILED.iter() {
        let now = current.as_deref().unwrap_or(text);
        let ranges = secret_ranges(now, compiled);
        if ranges.is_empty() {
            continue;
        }
        let mut out = String::with_capacity(now.len());
        let mut at = 0;
        for (start, end) in ranges {
            let (Some(before), Some(secret)) = (now.get(at..start), now.get(start..end)) else {
                // Ranges always fall on character boundaries; should one not, hide everything.
                return Some(replacement(now));
            };
            out.push_str(before);
            out.push_str(&replacement(secret));
            at = end;
        }
        out.push_str(now.get(at..).unwrap_or_default());
        current = Some(out);
    }
    current
}

/// `text` with every secret span replaced by `replacement(span)`, pass after pass until nothing
/// is found: replacing one secret can bring two pieces of text together. Should secrets remain
/// after [`MAX_PASSES`] passes, the whole text is replaced, so the result never
/// [`contains_secret`].
fn redact_with(text: &str, replacement: &mut dyn FnMut(&str) -> String) -> String {
    let mut current = text.to_owned();
    for _ in 0..MAX_PASSES {
        match replace_pass(&current, replacement) {
            Some(next) => current = next,
            None => return current,
        }
    }
    if contains_secret(&current) {
        replacement(&current)
    } else {
        current
    }
}

/// `text` with every secret replaced by [`REDACTED`]. Idempotent, and the result never
/// [`contains_secret`].
pub fn redact(text: &str) -> String {
    redact_with(text, &mut |_| REDACTED.to_owned())
}

/// [`redact`], keeping the line count: a secret that spans lines (a private key block) becomes
/// [`REDACTED`] on each of its lines, so the lines around it keep their numbers.
pub fn redact_keeping_lines(text: &str) -> String {
    redact_with(text, &mut |span| {
        vec![REDACTED; span.matches('\n').count() + 1].join("\n")
    })
}

/// The stable placeholder of a secret span: `[redacted-<first 12 hex digits of its sha256>]`.
/// The same span always gives the same text, in every run; the text is never a secret itself.
pub fn placeholder(secret: &str) -> String {
    let hash = ContentHash::of_bytes(secret.as_bytes());
    let hex = hash.as_str().get(..PLACEHOLDER_HEX).unwrap_or_default();
    format!("{PLACEHOLDER_PREFIX}{hex}]")
}

/// Every string of a JSON value (object keys included) passed through `f`.
pub fn map_strings(value: &mut serde_json::Value, f: &mut dyn FnMut(&str) -> String) {
    match value {
        serde_json::Value::String(text) => *text = f(text),
        serde_json::Value::Array(items) => items.iter_mut().for_each(|item| map_strings(item, f)),
        serde_json::Value::Object(object) => {
            let entries = std::mem::take(object);
            for (key, mut item) in entries {
                map_strings(&mut item, f);
                object.insert(f(&key), item);
            }
        }
        serde_json::Value::Null | serde_json::Value::Bool(_) | serde_json::Value::Number(_) => {}
    }
}

/// Which secret span each stable placeholder stands for: what a pack replaced in its ids and
/// paths, so that the ids an agent echoes back can be resolved (see [`Restorations::restore`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Restorations(BTreeMap<String, String>);

impl Restorations {
    /// `text` with every secret replaced by its [`placeholder`], remembered. Idempotent, and the
    /// result never [`contains_secret`].
    pub fn redact(&mut self, text: &str) -> String {
        let known = &mut self.0;
        redact_with(text, &mut |secret| {
            let placeholder = placeholder(secret);
            known
                .entry(placeholder.clone())
                .or_insert_with(|| secret.to_owned());
            placeholder
        })
    }

    /// The placeholder of the whole of `text`, remembered.
    pub fn hide(&mut self, text: &str) -> String {
        let placeholder = placeholder(text);
        self.0
            .entry(placeholder.clone())
            .or_insert_with(|| text.to_owned());
        placeholder
    }

    /// `text` with every secret replaced by its placeholder when that placeholder is one of these
    /// (a secret of the pack's own ids, which the agent was shown as that placeholder), and by
    /// [`REDACTED`] otherwise (so no digest of any other secret is written down).
    pub fn redact_known(&self, text: &str) -> String {
        redact_with(text, &mut |secret| {
            let placeholder = placeholder(secret);
            if self.0.contains_key(&placeholder) {
                placeholder
            } else {
                REDACTED.to_owned()
            }
        })
    }

    /// Whether nothing was replaced.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds every placeholder of `other`.
    pub fn extend(&mut self, other: &Restorations) {
        for (placeholder, secret) in &other.0 {
            self.0
                .entry(placeholder.clone())
                .or_insert_with(|| secret.clone());
        }
    }

    /// `text` with every known placeholder replaced by the span it stands for (repeatedly, since
    /// a span may hold an earlier placeholder). Unknown placeholders stay as they are.
    pub fn restore(&self, text: &str) -> String {
        let mut current = text.to_owned();
        for _ in 0..=MAX_PASSES {
            if self.0.is_empty() || !current.contains(PLACEHOLDER_PREFIX) {
                break;
            }
            let mut out = String::with_capacity(current.len());
            let mut rest = current.as_str();
            let mut changed = false;
            while let Some(at) = rest.find(PLACEHOLDER_PREFIX) {
                let known = rest
                    .get(at..at + PLACEHOLDER_LEN)
                    .and_then(|candidate| self.0.get(candidate));
                out.push_str(&rest[..at]);
                match known {
                    Some(secret) => {
                        out.push_str(secret);
                        rest = &rest[at + PLACEHOLDER_LEN..];
                        changed = true;
                    }
                    None => {
                        out.push_str(PLACEHOLDER_PREFIX);
                        rest = &rest[at + PLACEHOLDER_PREFIX.len()..];
                    }
                }
            }
            out.push_str(rest);
            current = out;
            if !changed {
                break;
            }
        }
        current
    }

    /// Every string value of `value` restored (keys are field names and stay). Whether anything
    /// changed.
    pub fn restore_value(&self, value: &mut serde_json::Value) -> bool {
        if self.0.is_empty() {
            return false;
        }
        let mut changed = false;
        restore_strings(value, &mut |text| {
            let restored = self.restore(text);
            changed |= restored != text;
            restored
        });
        changed
    }
}

fn restore_strings(value: &mut serde_json::Value, f: &mut dyn FnMut(&str) -> String) {
    match value {
        serde_json::Value::String(text) => *text = f(text),
        serde_json::Value::Array(items) => items.iter_mut().for_each(|i| restore_strings(i, f)),
        serde_json::Value::Object(object) => {
            object.values_mut().for_each(|i| restore_strings(i, f))
        }
        serde_json::Value::Null | serde_json::Value::Bool(_) | serde_json::Value::Number(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_across_lines_is_redacted_line_for_line() {
        let text = "one\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIB\nAAKCAQEA\n-----END RSA PRIVATE KEY-----\nsix";
        let redacted = redact_keeping_lines(text);
        let lines: Vec<&str> = redacted.lines().collect();
        assert_eq!(lines.len(), 6, "{redacted}");
        assert_eq!((lines[0], lines[5]), ("one", "six"));
        assert!(lines[1..5].iter().all(|l| *l == REDACTED), "{redacted}");
        assert!(!contains_secret(&redacted));
    }

    #[test]
    fn every_pattern_compiles() {
        assert_eq!(COMPILED.len(), REDACTION_PATTERNS.len());
    }

    #[test]
    fn each_secret_shape_is_found_and_named() {
        let cases = [
            ("key AKIAIOSFODNN7EXAMPLE here", "aws-access-key"),
            ("ghp_abcdefghijklmnopqrstuvwxyz0123456789AB", "github-token"),
            ("use sk-proj-abc123def456ghi789jkl0", "openai-key"),
            ("xoxb-1234567890-abcdef", "slack-token"),
            ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "google-api-key"),
            (
                "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
                "private-key",
            ),
            ("eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl", "jwt"),
            (
                "Authorization: Bearer abcdefghijklmnopqrstuvwxyz",
                "bearer-token",
            ),
            ("api_key = s3cr3tvalue", "secret-assignment"),
            (r#""password": "hunter2hunter2""#, "secret-assignment"),
            ("client_secret:abcdefgh1234", "secret-assignment"),
        ];
        for (text, name) in cases {
            assert_eq!(find_secret(text), Some(name), "{text}");
            let redacted = redact(text);
            assert!(redacted.contains(REDACTED), "{redacted}");
            assert!(!contains_secret(&redacted), "{redacted}");
        }
    }

    #[test]
    fn ordinary_prose_is_not_a_secret() {
        for text in [
            "Use scikit's sk-learn-compatible-estimators-api for models.",
            "The tokenizer splits words; the password field is hashed.",
            "risk-assessment-framework-overview-2026 is in docs/",
            "token: short",
            "Read AKIA docs",
        ] {
            assert_eq!(find_secret(text), None, "{text}");
            assert_eq!(redact(text), text);
        }
    }

    #[test]
    fn a_private_key_without_end_is_redacted_to_the_end_of_the_text() {
        let text = "before -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\nmore";
        assert_eq!(redact(text), "before [redacted]");
    }

    #[test]
    fn redaction_keeps_surrounding_text() {
        assert_eq!(
            redact("a AKIAIOSFODNN7EXAMPLE b"),
            format!("a {REDACTED} b")
        );
    }

    /// `text` is found by `name` and redacts to `expected`; `near_miss` is left alone.
    fn check(name: &str, text: &str, expected: &str, near_miss: &str) {
        assert_eq!(find_secret(text), Some(name), "{text:?}");
        assert_eq!(redact(text), expected, "{text:?}");
        assert!(!contains_secret(expected), "{expected:?}");
        assert_eq!(find_secret(near_miss), None, "{near_miss:?}");
        assert_eq!(redact(near_miss), near_miss);
    }

    #[test]
    fn pgp_and_every_private_key_header_variant() {
        for header in [
            "PGP PRIVATE KEY BLOCK",
            "OPENSSH PRIVATE KEY",
            "RSA PRIVATE KEY",
            "EC PRIVATE KEY",
            "ENCRYPTED PRIVATE KEY",
            "PRIVATE KEY",
        ] {
            let text =
                format!("a\n-----BEGIN {header}-----\nlQOYBF0\n=abc\n-----END {header}-----\nb");
            check(
                "private-key",
                &text,
                "a\n[redacted]\nb",
                "-----BEGIN PGP PUBLIC KEY BLOCK-----\nmQENBF0\n-----END PGP PUBLIC KEY BLOCK-----",
            );
        }
        assert_eq!(find_secret("-----BEGIN CERTIFICATE-----\nMIIB\n"), None);
        assert_eq!(find_secret("the file holds a PRIVATE KEY block"), None);
    }

    #[test]
    fn aws_secret_access_keys_with_any_separator() {
        let value = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
        for text in [
            format!("aws_secret_access_key {value}"),
            format!("aws_secret_access_key={value}"),
            format!("AWS_SECRET_ACCESS_KEY: \"{value}\""),
            format!("MY_AWS_SECRET_ACCESS_KEY = '{value}'"),
            format!("\"SecretAccessKey\": \"{value}\""),
        ] {
            assert_eq!(find_secret(&text), Some("aws-secret-key"), "{text}");
            let redacted = redact(&text);
            assert!(!redacted.contains("EXAMPLEKEY"), "{redacted}");
            assert!(!contains_secret(&redacted));
        }
        check(
            "aws-secret-key",
            &format!("x aws_secret_access_key {value} y"),
            "x [redacted] y",
            "Set aws_secret_access_key in ~/.aws/credentials; aws_secret_access_key internationalization.",
        );
    }

    #[test]
    fn stripe_secret_and_restricted_keys_but_not_publishable_ones() {
        for key in [
            "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
            "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
            "rk_live_51H0abcdefghijklmnopqrstu",
            "rk_test_51H0abcdefghijklmnopqrstu",
        ] {
            check(
                "stripe-key",
                &format!("key {key}."),
                "key [redacted].",
                "pk_live_51H0abcdefghijklmnopqrstu in the page; sk_live_mode, sk_test_helpers, risk_test_results",
            );
        }
    }

    #[test]
    fn credentials_in_urls_keep_the_scheme_and_host() {
        check(
            "url-credentials",
            "clone https://alice:s3cret@example.com/repo.git now",
            "clone https://[redacted]@example.com/repo.git now",
            "git@github.com:org/repo.git, ssh://git@github.com/org, mail ada@example.com, https://example.com:8080/a@b",
        );
        assert_eq!(
            redact("postgres://app:p%40ss@db:5432/x"),
            "postgres://[redacted]@db:5432/x"
        );
        // A token as the password goes with the rest of the user part.
        assert_eq!(
            redact("https://x:ghp_abcdefghijklmnopqrstuvwxyz0123456789AB@github.com"),
            "https://[redacted]@github.com"
        );
    }

    #[test]
    fn invisible_characters_inside_a_key_do_not_hide_it() {
        for invisible in INVISIBLE {
            let text = format!("key AKIA{invisible}IOSFODNN7EXAMPLE here");
            assert_eq!(find_secret(&text), Some("aws-access-key"), "{text:?}");
            assert_eq!(redact(&text), "key [redacted] here", "{text:?}");
            let token = format!("ghp_abcdefghij{invisible}klmnopqrstuvwxyz0123456789AB");
            assert_eq!(redact(&token), REDACTED, "{token:?}");
        }
        let sprinkled = "s\u{200b}k\u{200c}-proj-abc123\u{2060}def456ghi789jkl0\u{feff}";
        assert_eq!(redact(sprinkled), "[redacted]\u{feff}");
        let key = "-----BEGIN\u{200b} PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----";
        assert_eq!(redact(key), REDACTED);
        // Invisible characters in prose stay.
        let prose = "soft\u{00ad}hyphen and zero\u{200b}width";
        assert_eq!(redact(prose), prose);
    }

    #[test]
    fn a_token_split_by_one_space_is_still_one_secret() {
        for (text, name, expected) in [
            (
                "key AKIA IOSFODNN7EXAMPLE here",
                "aws-access-key",
                "key [redacted] here",
            ),
            (
                "ghp_abcdefghijklmnopqr stuvwxyz0123456789AB and more",
                "github-token",
                "[redacted] and more",
            ),
            (
                "sk-proj-abc123 def456ghi789jkl0 works",
                "openai-key",
                "[redacted] works",
            ),
            (
                "sk_live_4eC39HqLyj WDarjtT1zdp7dc.",
                "stripe-key",
                "[redacted].",
            ),
            ("xoxb-12345 67890-abcdef", "slack-token", "[redacted]"),
            (
                "AIzaSyA1234567890 abcdefghijklmnopqrstuv",
                "google-api-key",
                "[redacted]",
            ),
        ] {
            assert_eq!(find_secret(text), Some(name), "{text}");
            assert_eq!(redact(text), expected, "{text}");
        }
        // A whole token followed by a word: the word stays.
        assert_eq!(
            redact("ghp_abcdefghijklmnopqrstuvwxyz0123456789AB abc123"),
            "[redacted] abc123"
        );
    }

    #[test]
    fn one_space_never_lets_prose_complete_a_token() {
        for text in [
            "Use sk-learn-compatible-estimators-api 2 for models.",
            "Use sk-learn-compatible estimators2026 instead.",
            "ASIA INTERNATIONALIZATION",
            "ghp_ is the prefix of GitHub tokens",
            "ghp_abcdefghijklmnopqrstuvwxyz release 2026",
            "AKIA is the prefix of AWS access keys",
            "xoxb- tokens are for bots",
        ] {
            assert_eq!(find_secret(text), None, "{text}");
            assert_eq!(redact(text), text);
        }
        // Two spaces are not one.
        assert_eq!(find_secret("AKIA IOSF ODNN7EXAMPLE"), None);
    }

    #[test]
    fn stable_placeholders_are_the_same_every_time_and_restore() {
        let mut restorations = Restorations::default();
        let id = "document:docs/AKIAIOSFODNN7EXAMPLE.md";
        let shown = restorations.redact(id);
        let expected = format!("document:docs/{}.md", placeholder("AKIAIOSFODNN7EXAMPLE"));
        assert_eq!(shown, expected);
        assert_eq!(placeholder("AKIAIOSFODNN7EXAMPLE").len(), PLACEHOLDER_LEN);
        assert!(!contains_secret(&shown));
        assert_eq!(Restorations::default().redact(id), shown);
        assert_eq!(restorations.redact(&shown), shown);
        assert_eq!(restorations.restore(&shown), id);
        assert_eq!(
            restorations.restore(&format!("see {shown} and [redacted-000000000000]")),
            format!("see {id} and [redacted-000000000000]")
        );
        // What the cache writes: the pack's own placeholder, plain redaction for anything else.
        assert_eq!(
            restorations
                .redact_known("AKIAIOSFODNN7EXAMPLE or ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"),
            format!("{} or [redacted]", placeholder("AKIAIOSFODNN7EXAMPLE"))
        );
    }

    #[test]
    fn every_string_of_a_json_value_is_mapped() {
        let mut value = serde_json::json!({"reason": "AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE": [1, "a AKIAIOSFODNN7EXAMPLE"]});
        map_strings(&mut value, &mut |text| redact(text));
        assert_eq!(
            value,
            serde_json::json!({"reason": "[redacted]", "[redacted]": [1, "a [redacted]"]})
        );
    }
}
