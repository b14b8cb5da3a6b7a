//! Content hashing: sha256 over raw bytes, and sha256 over RFC 8785 canonical JSON.
//!
//! Every `contentHash` in every artifact is computed here, so there is exactly one definition of
//! each algorithm. Never change what a name hashes: a new definition needs a new algorithm name.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use sha2::{Digest, Sha256};

use crate::sorted_json;

/// The algorithm name written next to semantic content hashes (`contentHashAlgo`).
///
/// doc-bridge-index-v1, "Content Hash": sha256 over the RFC 8785 canonical JSON of the whole
/// artifact minus the fields the artifact excludes (`contentHash`, `generatedAt`, ...).
pub const SEMANTIC_HASH_ALGO: &str = "sha256-semantic-v1";

/// A lowercase hex sha256 digest (64 characters). Validated on parse, so a value of this type is
/// always well formed.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, JsonSchema)]
#[serde(transparent)]
#[schemars(with = "String")]
pub struct ContentHash(String);

impl ContentHash {
    /// The hash of `bytes` exactly as given, so `sha256sum` agrees with it.
    pub fn of_bytes(bytes: &[u8]) -> Self {
        Self::from_digest(&Sha256::digest(bytes))
    }

    /// Wraps an already computed digest.
    pub fn from_digest(digest: &[u8]) -> Self {
        // `hex::encode` goes character by character through an iterator; a fingerprint encodes
        // one hash per file, so encode into a buffer in one go.
        let mut text = vec![0; digest.len() * 2];
        match hex::encode_to_slice(digest, &mut text) {
            Ok(()) => Self(String::from_utf8(text).unwrap_or_default()),
            Err(_) => Self(hex::encode(digest)),
        }
    }

    /// Parses a 64-character lowercase hex string.
    pub fn parse(text: &str) -> Option<Self> {
        let ok = text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        ok.then(|| Self(text.to_owned()))
    }

    /// The hex digest.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ContentHash({})", &self.0)
    }
}

impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for ContentHash {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        ContentHash::parse(&text).ok_or_else(|| {
            serde::de::Error::custom("expected a 64-character lowercase hex sha256 digest")
        })
    }
}

/// A streaming sha256 for files read in chunks (files too large to hold in memory).
#[derive(Default)]
pub struct StreamingHasher(Sha256);

impl StreamingHasher {
    /// Feeds more bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    /// The hash of everything fed so far.
    pub fn finish(self) -> ContentHash {
        ContentHash::from_digest(&self.0.finalize())
    }
}

/// RFC 8785 canonical JSON of a value: sorted keys (by UTF-16 code unit), ECMAScript number and
/// string forms, no insignificant whitespace.
pub fn canonical_json<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>, HashError> {
    sorted_json::to_vec(value, sorted_json::Style::Canonical).map_err(|e| HashError(e.to_string()))
}

/// sha256 of the canonical JSON of `value`.
pub fn hash_canonical<T: ?Sized + Serialize>(value: &T) -> Result<ContentHash, HashError> {
    Ok(ContentHash::of_bytes(&canonical_json(value)?))
}

/// sha256-semantic-v1: the canonical-JSON hash of `value` (which must serialize to an object)
/// with the top-level keys in `excluded` removed.
pub fn semantic_hash<T: ?Sized + Serialize>(
    value: &T,
    excluded: &[&str],
) -> Result<ContentHash, HashError> {
    sorted_json::canonical_hash_without(value, excluded).map_err(|e| HashError(e.to_string()))
}

/// A value could not be turned into canonical JSON (a non-finite number, a map with non-string
/// keys). Artifacts built by doc-bridge never hit this; it exists so hashing cannot panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot canonicalize JSON for hashing: {0}")]
pub struct HashError(String);

impl HashError {
    /// A failure to canonicalize, in words (for the encoders outside this crate).
    pub fn new(message: impl Into<String>) -> Self {
        HashError(message.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn bytes_hash_matches_sha256sum_test_vector() {
        assert_eq!(
            ContentHash::of_bytes(b"abc").as_str(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn canonical_json_sorts_keys_and_normalises_numbers() {
        let bytes = canonical_json(&json!({"b": 1.0, "a": [1e21, -0.0], "c": "\u{7}"})).unwrap();
        assert_eq!(
            String::from_utf8(bytes).unwrap(),
            r#"{"a":[1e+21,0],"b":1,"c":"\u0007"}"#
        );
    }

    #[test]
    fn canonical_key_order_is_utf16_not_code_point() {
        // U+1F600 is a surrogate pair (0xD83D ...) and sorts before U+E000 in UTF-16.
        let bytes = canonical_json(&json!({"\u{E000}": 1, "😀": 2})).unwrap();
        assert!(String::from_utf8(bytes).unwrap().starts_with("{\"😀\""));
    }

    #[test]
    fn semantic_hash_ignores_excluded_keys_only() {
        let a = json!({"x": 1, "generatedAt": "2026-01-01", "contentHash": "aa"});
        let b = json!({"x": 1, "generatedAt": "2027-02-02"});
        let c = json!({"x": 2, "generatedAt": "2026-01-01"});
        let excluded = ["generatedAt", "contentHash"];
        assert_eq!(
            semantic_hash(&a, &excluded).unwrap(),
            semantic_hash(&b, &excluded).unwrap()
        );
        assert_ne!(
            semantic_hash(&a, &excluded).unwrap(),
            semantic_hash(&c, &excluded).unwrap()
        );
    }

    #[test]
    fn content_hash_parse_rejects_uppercase_and_wrong_length() {
        assert!(ContentHash::parse(&"a".repeat(64)).is_some());
        assert!(ContentHash::parse(&"A".repeat(64)).is_none());
        assert!(ContentHash::parse(&"a".repeat(63)).is_none());
        assert!(serde_json::from_str::<ContentHash>("\"zz\"").is_err());
    }

    fn arb_json() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            (-1e300f64..1e300).prop_map(serde_json::Value::from),
            ".*".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::Array),
                prop::collection::btree_map(".*", inner, 0..8)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn canonical_json_is_idempotent_and_reparses(value in arb_json()) {
            let once = canonical_json(&value).unwrap();
            let reparsed: serde_json::Value = serde_json::from_slice(&once).unwrap();
            let twice = canonical_json(&reparsed).unwrap();
            prop_assert_eq!(once, twice);
        }

        #[test]
        fn hash_is_independent_of_key_insertion_order(
            pairs in prop::collection::vec((".{0,6}", any::<i32>()), 0..12)
        ) {
            let forward: serde_json::Map<String, serde_json::Value> =
                pairs.iter().map(|(k, v)| (k.clone(), (*v).into())).collect();
            let backward: serde_json::Map<String, serde_json::Value> =
                pairs.iter().rev().map(|(k, v)| (k.clone(), (*v).into())).collect();
            // Later duplicates win in `collect`, so compare only when keys are unique.
            prop_assume!(forward == backward);
            prop_assert_eq!(hash_canonical(&forward).unwrap(), hash_canonical(&backward).unwrap());
        }

        #[test]
        fn semantic_hash_ignores_any_value_of_an_excluded_key(
            value in arb_json(), noise in arb_json()
        ) {
            let base = serde_json::json!({"payload": value.clone()});
            let noisy = serde_json::json!({"payload": value, "generatedAt": noise});
            prop_assert_eq!(
                semantic_hash(&base, &["generatedAt"]).unwrap(),
                semantic_hash(&noisy, &["generatedAt"]).unwrap()
            );
        }
    }
}
