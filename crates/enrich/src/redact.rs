//! The one secret pattern list (DESIGN, "The enrichment pipeline": nothing an agent wrote can
//! leak secrets into a pack, a log or the overlay).
//!
//! The validators reject a proposal whose free text contains a secret (`redaction`), and the
//! context packs (enrichment-overlay-v1, "Context packs and the cache": every string in a pack
//! passes `redactSecrets`) replace secrets before anything reaches an agent. Both use this list,
//! so what a pack hides and what a proposal may not say can never drift apart. Changing a
//! pattern changes what packs contain: bump [`REDACTION_PATTERNS_VERSION`].

use std::sync::LazyLock;

use regex::Regex;

/// Version of [`REDACTION_PATTERNS`]; part of anything derived from redacted text (pack hashes).
pub const REDACTION_PATTERNS_VERSION: u32 = 1;

/// What a secret is replaced with.
pub const REDACTED: &str = "[redacted]";

/// One named secret pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecretPattern {
    /// Stable name, used in rejection details (`aws-access-key`).
    pub name: &'static str,
    /// The regular expression (Rust `regex` syntax).
    pub pattern: &'static str,
    /// A match counts only when it contains an ASCII digit (keeps `sk-learn-compatible-…`
    /// prose from being taken for a key).
    pub needs_digit: bool,
}

/// The secret patterns, applied in this order (the private key block first, so its body goes
/// with its header; the generic assignment last).
pub const REDACTION_PATTERNS: &[SecretPattern] = &[
    SecretPattern {
        name: "private-key",
        // Through the END line, or to the end of the text when there is none.
        pattern: r"-----BEGIN [A-Z ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z ]*PRIVATE KEY-----|\z)",
        needs_digit: false,
    },
    SecretPattern {
        name: "aws-access-key",
        pattern: r"(?:AKIA|ASIA)[0-9A-Z]{16}",
        needs_digit: false,
    },
    SecretPattern {
        name: "github-token",
        pattern: r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
        needs_digit: false,
    },
    SecretPattern {
        name: "openai-key",
        pattern: r"\bsk-[A-Za-z0-9_-]{20,}",
        needs_digit: true,
    },
    SecretPattern {
        name: "slack-token",
        pattern: r"\bxox[baprs]-[A-Za-z0-9-]{10,}",
        needs_digit: false,
    },
    SecretPattern {
        name: "google-api-key",
        pattern: r"\bAIza[0-9A-Za-z_-]{35}",
        needs_digit: false,
    },
    SecretPattern {
        name: "jwt",
        pattern: r"\beyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*",
        needs_digit: false,
    },
    SecretPattern {
        name: "bearer-token",
        pattern: r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{20,}=*",
        needs_digit: false,
    },
    SecretPattern {
        name: "secret-assignment",
        // `api_key = …`, `client_secret: …`, `"password": "…"`. The value may not start with
        // `[`, so an already redacted value is not matched again.
        pattern: r#"(?i)(?:api[_-]?key|secret|token|passw(?:or)?d)["']?\s*[:=]\s*["']?[^\s"'\[][^\s"']{7,}"#,
        needs_digit: false,
    },
];

/// The compiled patterns, built once.
static COMPILED: LazyLock<Vec<(SecretPattern, Regex)>> = LazyLock::new(|| {
    REDACTION_PATTERNS
        .iter()
        .filter_map(|p| Regex::new(p.pattern).ok().map(|re| (*p, re)))
        .collect()
});

fn counts(pattern: &SecretPattern, matched: &str) -> bool {
    !pattern.needs_digit || matched.bytes().any(|b| b.is_ascii_digit())
}

/// The name of the first pattern that finds a secret in `text`, if any.
pub fn find_secret(text: &str) -> Option<&'static str> {
    COMPILED.iter().find_map(|(pattern, re)| {
        re.find_iter(text)
            .any(|m| counts(pattern, m.as_str()))
            .then_some(pattern.name)
    })
}

/// Whether `text` contains a secret.
pub fn contains_secret(text: &str) -> bool {
    find_secret(text).is_some()
}

/// `text` with every secret replaced by [`REDACTED`]. Idempotent, and the result never
/// [`contains_secret`]: replacing one secret can bring two pieces of text together, so the
/// patterns are applied until nothing changes (a handful of passes at most, since every match
/// is at least as long as the replacement).
pub fn redact(text: &str) -> String {
    let mut current = text.to_owned();
    for _ in 0..8 {
        let next = redact_once(&current);
        if next == current {
            break;
        }
        current = next;
    }
    current
}

fn redact_once(text: &str) -> String {
    let mut current = text.to_owned();
    for (pattern, re) in COMPILED.iter() {
        if !re.is_match(&current) {
            continue;
        }
        let replaced = re.replace_all(&current, |caps: &regex::Captures<'_>| {
            let matched = caps.get(0).map_or("", |m| m.as_str());
            if counts(pattern, matched) {
                REDACTED.to_owned()
            } else {
                matched.to_owned()
            }
        });
        current = replaced.into_owned();
    }
    current
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
