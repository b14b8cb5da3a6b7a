//! The shared secret pattern list: redaction removes every secret, keeps everything else, and
//! is idempotent.

#![allow(clippy::unwrap_used)]

use doc_bridge_enrich::redact::{
    REDACTED, REDACTION_PATTERNS, contains_secret, find_secret, redact,
};
use proptest::prelude::*;

const SECRETS: &[&str] = &[
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB",
    "gho_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
    "sk-proj-abc123def456ghi789jkl0",
    "xoxp-1234567890-0987654321-abcdef",
    "AIzaSyA1234567890abcdefghijklmnopqrstuv",
    "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI\n-----END EC PRIVATE KEY-----",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.dGVzdA",
    "token=abcdef123456",
    "API-KEY: 'zzzzzzzz9'",
];

fn arb_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => "[ -~]{0,12}",
        1 => prop::sample::select(SECRETS.to_vec()).prop_map(str::to_owned),
        1 => prop::sample::select(vec![" ", "\n", "=", ":", "\"", "sk-", "AKIA", "eyJ", "."])
            .prop_map(str::to_owned),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn redacted_text_contains_no_secret_and_redaction_is_idempotent(text in arb_text()) {
        let once = redact(&text);
        prop_assert!(!contains_secret(&once), "{:?} -> {:?}", text, once);
        prop_assert_eq!(redact(&once), once.clone());
        if !contains_secret(&text) {
            prop_assert_eq!(once, text);
        }
    }

    #[test]
    fn every_listed_secret_is_found_wherever_it_sits(
        before in "[ a-z.,]{0,10}",
        after in "[ a-z.,]{0,10}",
        which in 0..SECRETS.len(),
    ) {
        let text = format!("{before} {} {after}", SECRETS[which]);
        prop_assert!(find_secret(&text).is_some());
        prop_assert!(redact(&text).contains(REDACTED));
    }
}

#[test]
fn the_pattern_names_are_unique() {
    let mut names: Vec<&str> = REDACTION_PATTERNS.iter().map(|p| p.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), REDACTION_PATTERNS.len());
}
