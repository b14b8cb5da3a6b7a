//! The shared secret pattern list: redaction removes every secret, keeps everything else, and
//! is idempotent, whatever invisible characters (or, in a fixed-shape token, one space) sit
//! inside a secret.

#![allow(clippy::unwrap_used)]

use doc_bridge_enrich::redact::{
    INVISIBLE, REDACTED, REDACTION_PATTERNS, Restorations, contains_secret, find_secret, redact,
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
    "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF0\n-----END PGP PRIVATE KEY BLOCK-----",
    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1r\n-----END OPENSSH PRIVATE KEY-----",
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "AWS_SECRET_ACCESS_KEY: \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\"",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "rk_test_51H0abcdefghijklmnopqrstu",
    "https://alice:s3cret@example.com/x",
];

/// Fixed-shape tokens, with the range of places one space may go (after the prefix; for the
/// OpenAI-style key, after its first digit) and still leave a secret.
const SPLITTABLE: &[(&str, usize, usize)] = &[
    ("AKIAIOSFODNN7EXAMPLE", 4, 19),
    ("ghp_abcdefghijklmnopqrstuvwxyz0123456789AB", 4, 41),
    ("sk_live_4eC39HqLyjWDarjtT1zdp7dc", 8, 31),
    ("sk-proj-abc123def456ghi789jkl0", 12, 29),
    ("xoxp-1234567890-0987654321-abcdef", 5, 32),
    ("AIzaSyA1234567890abcdefghijklmnopqrstuv", 4, 38),
];

/// `text` with `insert` put before its `at`-th character (counted modulo its length).
fn insert_at(text: &str, at: usize, insert: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = at % (chars.len() + 1);
    let mut out: String = chars[..at].iter().collect();
    out.push_str(insert);
    out.extend(&chars[at..]);
    out
}

fn arb_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => "[ -~]{0,12}",
        1 => prop::sample::select(SECRETS.to_vec()).prop_map(str::to_owned),
        1 => prop::sample::select(vec![" ", "\n", "=", ":", "\"", "sk-", "AKIA", "eyJ", ".", "://", "@", "sk_live_", "-----BEGIN "])
            .prop_map(str::to_owned),
        1 => prop::sample::select(INVISIBLE.to_vec()).prop_map(String::from),
        1 => (prop::sample::select(SECRETS.to_vec()), any::<usize>(), prop::sample::select(INVISIBLE.to_vec()))
            .prop_map(|(secret, at, c)| insert_at(secret, at, &c.to_string())),
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

    #[test]
    fn an_invisible_character_anywhere_inside_a_secret_does_not_hide_it(
        before in "[ a-z.,]{0,10}",
        after in "[ a-z.,]{0,10}",
        which in 0..SECRETS.len(),
        at in any::<usize>(),
        invisible in prop::sample::select(INVISIBLE.to_vec()),
    ) {
        let secret = insert_at(SECRETS[which], at, &invisible.to_string());
        let text = format!("{before} {secret} {after}");
        prop_assert!(find_secret(&text).is_some(), "{:?}", text);
        let redacted = redact(&text);
        prop_assert!(redacted.contains(REDACTED), "{:?}", redacted);
        prop_assert!(!contains_secret(&redacted), "{:?}", redacted);
        prop_assert_eq!(redact(&redacted), redacted.clone());
    }

    #[test]
    fn one_space_inside_a_fixed_shape_token_does_not_hide_it(
        before in "[ a-z.,]{0,10}",
        after in "[ a-z.,]{0,10}",
        which in 0..SPLITTABLE.len(),
        at in any::<usize>(),
    ) {
        let (token, lo, hi) = SPLITTABLE[which];
        let split = insert_at(token, lo + at % (hi - lo + 1), " ");
        let text = format!("{before} {split} {after}");
        prop_assert!(find_secret(&text).is_some(), "{:?}", text);
        let redacted = redact(&text);
        prop_assert!(redacted.contains(REDACTED), "{:?}", redacted);
        prop_assert!(!contains_secret(&redacted), "{:?}", redacted);
    }

    #[test]
    fn stable_redaction_never_leaves_a_secret_and_restores_the_text(text in arb_text()) {
        let mut restorations = Restorations::default();
        let shown = restorations.redact(&text);
        prop_assert!(!contains_secret(&shown), "{:?} -> {:?}", text, shown);
        prop_assert_eq!(Restorations::default().redact(&text), shown.clone());
        prop_assert_eq!(restorations.redact(&shown), shown.clone());
        prop_assert_eq!(restorations.restore(&shown), text.clone());
        prop_assert!(!contains_secret(&restorations.redact_known(&text)));
    }
}

#[test]
fn the_pattern_names_are_unique() {
    let mut names: Vec<&str> = REDACTION_PATTERNS.iter().map(|p| p.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), REDACTION_PATTERNS.len());
}
