//! The sealed artifacts' form on disk: one line of RFC 8785 canonical JSON, then a newline.
//!
//! A seal (`sha256-semantic-v1`) is the sha256 of the canonical JSON of the artifact without
//! some top-level members. Because the file *is* that canonical JSON, the seal is the hash of the
//! file's bytes with those members cut out: [`seal_of`] finds the members by scanning the top
//! level ([`members`]) and hashes around them, with no tree built. The writer encodes once,
//! seals from the bytes, and writes the seal into its slot ([`replace_string`]); a reader checks
//! a seal the same way.
//!
//! The scanner reads untrusted files: any malformed structure gives `None`, never a panic. It
//! accepts whitespace between tokens (a file indented by hand or by an older doc-bridge is still
//! read), but then the bytes are not canonical and [`seal_of`] does not give the seal; readers
//! fall back to hashing the parsed value.

use std::ops::Range;

use doc_bridge_model::ContentHash;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::artifact::ArtifactError;

/// The canonical JSON of `value` and a newline: a sealed artifact's bytes.
pub fn encode<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>, ArtifactError> {
    encode_in(value, Vec::new())
}

/// [`encode`] into `buffer` (emptied first; see `sorted_json::to_vec_in`).
pub fn encode_in<T: ?Sized + Serialize>(
    value: &T,
    buffer: Vec<u8>,
) -> Result<Vec<u8>, ArtifactError> {
    let mut bytes = doc_bridge_model::sorted_json::to_vec_in(
        value,
        doc_bridge_model::sorted_json::Style::Canonical,
        buffer,
    )
    .map_err(|e| ArtifactError::Encode(e.to_string()))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// One member of a JSON object, as byte ranges of the text it was found in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The key as written between its quotes (escapes left as they are).
    pub key: Range<usize>,
    /// The whole member: from the key's opening quote to the end of the value.
    pub entry: Range<usize>,
    /// The value.
    pub value: Range<usize>,
}

/// The members of the JSON object that `text` holds (surrounding whitespace allowed), in the
/// order written; `None` unless `text` is one well-formed object at the top level. Values are
/// checked for balance and terminated strings only, not parsed.
pub fn members(text: &[u8]) -> Option<Vec<Member>> {
    let mut at = skip_space(text, 0);
    if text.get(at) != Some(&b'{') {
        return None;
    }
    at = skip_space(text, at + 1);
    let mut found = Vec::new();
    if text.get(at) == Some(&b'}') {
        return (skip_space(text, at + 1) == text.len()).then_some(found);
    }
    loop {
        if text.get(at) != Some(&b'"') {
            return None;
        }
        let key_end = string_end(text, at)?;
        let colon = skip_space(text, key_end);
        if text.get(colon) != Some(&b':') {
            return None;
        }
        let value_start = skip_space(text, colon + 1);
        let value_end = value_end(text, value_start)?;
        found.push(Member {
            key: at + 1..key_end - 1,
            entry: at..value_end,
            value: value_start..value_end,
        });
        at = skip_space(text, value_end);
        match text.get(at) {
            Some(b',') => at = skip_space(text, at + 1),
            Some(b'}') => {
                return (skip_space(text, at + 1) == text.len()).then_some(found);
            }
            _ => return None,
        }
    }
}

/// The range of the value of the top-level member `key` of the object in `text`; `None` when
/// `text` is not an object or has no such member.
pub fn member(text: &[u8], key: &str) -> Option<Range<usize>> {
    members(text)?
        .into_iter()
        .find(|m| text.get(m.key.clone()) == Some(key.as_bytes()))
        .map(|m| m.value)
}

/// The elements of the JSON array at `range` of `text`, as byte ranges of `text`, in order;
/// `None` unless `range` holds exactly one well-formed array (checked as [`members`] checks
/// values: balance and terminated strings). A reader that knows where an artifact's array
/// elements lie can parse one of them without parsing the rest (the query image keeps these
/// ranges of `snapshot.json`).
pub fn elements(text: &[u8], range: Range<usize>) -> Option<Vec<Range<usize>>> {
    let end = range.end;
    let text = text.get(..end)?;
    let mut at = skip_space(text, range.start);
    if text.get(at) != Some(&b'[') {
        return None;
    }
    at = skip_space(text, at + 1);
    let mut found = Vec::new();
    if text.get(at) == Some(&b']') {
        return (skip_space(text, at + 1) == end).then_some(found);
    }
    loop {
        let value_end = value_end(text, at)?;
        found.push(at..value_end);
        at = skip_space(text, value_end);
        match text.get(at) {
            Some(b',') => at = skip_space(text, at + 1),
            Some(b']') => return (skip_space(text, at + 1) == end).then_some(found),
            _ => return None,
        }
    }
}

/// sha256-semantic-v1 of the canonical object in `text` without the members named in
/// `excluded`: the hash of `{`, the other members' bytes joined by `,`, and `}`. Equal to
/// [`doc_bridge_model::hash::semantic_hash`] of the value when `text` is that value's canonical
/// JSON (the tests hold it to that); any other text gives some other hash. `None` when `text`
/// is not an object.
pub fn seal_of(text: &[u8], excluded: &[&str]) -> Option<ContentHash> {
    Some(hash_members(text, &members(text)?, excluded))
}

/// The seal of the object in `text` whose members are `members` (see [`seal_of`]).
pub(crate) fn hash_members(text: &[u8], members: &[Member], excluded: &[&str]) -> ContentHash {
    let mut hasher = Sha256::new();
    hasher.update(b"{");
    let mut first = true;
    for member in members {
        let key = text.get(member.key.clone()).unwrap_or_default();
        if excluded.iter().any(|e| e.as_bytes() == key) {
            continue;
        }
        if !first {
            hasher.update(b",");
        }
        first = false;
        hasher.update(text.get(member.entry.clone()).unwrap_or_default());
    }
    hasher.update(b"}");
    ContentHash::from_digest(&hasher.finalize())
}

/// Replaces the value at `range` of `bytes` with the JSON string `text` (escaped as canonical
/// JSON escapes it). Returns how far everything after `range` moved (new length minus old).
pub fn replace_string(
    bytes: &mut Vec<u8>,
    range: Range<usize>,
    text: &str,
) -> Result<isize, ArtifactError> {
    if range.end > bytes.len() || range.start > range.end {
        return Err(ArtifactError::Encode("no such value to replace".to_owned()));
    }
    let encoded = encode(text)?;
    let encoded = encoded.strip_suffix(b"\n").unwrap_or(&encoded);
    let moved = encoded.len() as isize - range.len() as isize;
    bytes.splice(range, encoded.iter().copied());
    Ok(moved)
}

/// The position of the first byte at or after `at` that is not JSON whitespace.
fn skip_space(text: &[u8], mut at: usize) -> usize {
    while matches!(text.get(at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        at += 1;
    }
    at
}

/// The position just past the string whose opening quote is at `start`.
fn string_end(text: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    loop {
        let rest = text.get(at..)?;
        at += memchr::memchr2(b'"', b'\\', rest)?;
        match text.get(at)? {
            b'"' => return Some(at + 1),
            // An escape: the next byte is taken as it is (`\"`, `\\`, `\u...`).
            _ => at += 2,
        }
    }
}

/// The position just past the value starting at `start`: a string, an object or array
/// (balanced, strings inside skipped), or a scalar (up to the next delimiter).
fn value_end(text: &[u8], start: usize) -> Option<usize> {
    match text.get(start)? {
        b'"' => string_end(text, start),
        b'{' | b'[' => {
            let mut open: Vec<u8> = Vec::new();
            let mut at = start;
            loop {
                match text.get(at)? {
                    b'"' => {
                        at = string_end(text, at)?;
                        continue;
                    }
                    byte @ (b'{' | b'[') => open.push(*byte),
                    close @ (b'}' | b']') => {
                        let opener = if *close == b'}' { b'{' } else { b'[' };
                        if open.pop()? != opener {
                            return None;
                        }
                    }
                    _ => {}
                }
                at += 1;
                if open.is_empty() {
                    return Some(at);
                }
            }
        }
        b'}' | b']' | b',' | b':' => None,
        _ => {
            let mut at = start;
            while let Some(byte) = text.get(at) {
                if matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                at += 1;
            }
            Some(at)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use doc_bridge_model::hash::semantic_hash;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn members_are_found_with_their_ranges_whatever_the_values() {
        let text = br#"{"a":"x\"}","b":{"c":[1,{"d":"]"}]},"e":-1.5e3,"f":null}"#;
        let found = members(text).unwrap();
        let keys: Vec<&[u8]> = found.iter().map(|m| &text[m.key.clone()]).collect();
        assert_eq!(keys, [&b"a"[..], b"b", b"e", b"f"]);
        assert_eq!(&text[found[0].value.clone()], br#""x\"}""#);
        assert_eq!(&text[found[1].value.clone()], br#"{"c":[1,{"d":"]"}]}"#);
        assert_eq!(&text[found[2].entry.clone()], br#""e":-1.5e3"#);
        assert_eq!(&text[found[3].value.clone()], b"null");
    }

    #[test]
    fn malformed_objects_have_no_members() {
        for text in [
            &b""[..],
            b"[]",
            b"{",
            b"{\"a\"}",
            b"{\"a\":}",
            b"{\"a\":1,}",
            b"{\"a\":[1}",
            b"{\"a\":\"open}",
            b"{\"a\":1} x",
            b"{\"a\":{\"b\":1]}",
            b"{\"a\\",
        ] {
            assert_eq!(members(text), None, "{}", String::from_utf8_lossy(text));
        }
        assert_eq!(members(b" { } \n"), Some(Vec::new()));
    }

    #[test]
    fn the_seal_of_canonical_bytes_is_the_semantic_hash() {
        let value = json!({
            "contentHash": "x", "generatedAt": "t", "b": [1, "two", {"z": 1, "a": null}],
            "a": "é\u{1}", "stats": {"n": 3}
        });
        let bytes = encode(&value).unwrap();
        let excluded = ["contentHash", "generatedAt", "stats"];
        assert_eq!(
            seal_of(&bytes, &excluded),
            Some(semantic_hash(&value, &excluded).unwrap())
        );
        // Nothing excluded, everything excluded.
        assert_eq!(
            seal_of(&bytes, &[]),
            Some(semantic_hash(&value, &[]).unwrap())
        );
        let all = ["a", "b", "contentHash", "generatedAt", "stats"];
        assert_eq!(seal_of(&bytes, &all), Some(ContentHash::of_bytes(b"{}")));
    }

    #[test]
    fn elements_of_what_is_not_one_array_are_none() {
        for text in [
            &b""[..],
            b"{}",
            b"[",
            b"[1,]",
            b"[1 2]",
            b"[1] [2]",
            b"[\"open]",
            b"[{]",
        ] {
            assert_eq!(elements(text, 0..text.len()), None);
        }
        assert_eq!(elements(b" [ ] ", 0..5), Some(Vec::new()));
        assert_eq!(elements(b"[1, \"a,b\"]", 0..10), Some(vec![1..2, 4..9]));
        // The range bounds the array: what follows it is not read.
        let within = elements(b"[1]xyz", 0..3).unwrap();
        assert_eq!((within.len(), within.first()), (1, Some(&(1..2))));
    }

    #[test]
    fn replacing_a_string_moves_what_follows() {
        let mut bytes = encode(&json!({"a": "old", "b": 1})).unwrap();
        let range = member(&bytes, "a").unwrap();
        let moved = replace_string(&mut bytes, range, "longer \"one\"").unwrap();
        assert_eq!(moved, 11);
        assert_eq!(bytes, b"{\"a\":\"longer \\\"one\\\"\",\"b\":1}\n");
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
                prop::collection::btree_map("[a-e\"\\\\{}]{0,3}", inner, 0..8)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn the_byte_seal_equals_the_semantic_hash(
            fields in prop::collection::btree_map("[a-e]{1,3}", arb_json(), 0..6),
            excluded in prop::collection::vec("[a-e]{1,3}", 0..3),
        ) {
            let value = serde_json::Value::Object(fields.into_iter().collect());
            let bytes = encode(&value).unwrap();
            let excluded: Vec<&str> = excluded.iter().map(String::as_str).collect();
            prop_assert_eq!(
                seal_of(&bytes, &excluded),
                Some(semantic_hash(&value, &excluded).unwrap())
            );
        }

        #[test]
        fn a_flipped_byte_outside_the_excluded_members_changes_the_seal(
            fields in prop::collection::btree_map("[a-e]{1,3}", arb_json(), 1..6),
            at in any::<prop::sample::Index>(),
            flip in 1u8..=255,
        ) {
            let value = serde_json::Value::Object(fields.into_iter().collect());
            let bytes = encode(&value).unwrap();
            let seal = seal_of(&bytes, &[]).unwrap();
            let mut damaged = bytes.clone();
            let i = at.index(damaged.len() - 1); // not the final newline
            damaged[i] ^= flip;
            prop_assert_ne!(seal_of(&damaged, &[]), Some(seal));
        }

        #[test]
        fn array_elements_are_the_ranges_of_their_values(
            items in prop::collection::vec(arb_json(), 0..8),
        ) {
            let value = json!({"a": 1, "rows": items.clone(), "z": [2]});
            let bytes = encode(&value).unwrap();
            let range = member(&bytes, "rows").unwrap();
            let found = elements(&bytes, range).unwrap();
            // Each range holds exactly the element's own canonical JSON.
            let held: Vec<&[u8]> = found.iter().map(|r| &bytes[r.clone()]).collect();
            let expected: Vec<Vec<u8>> = items
                .iter()
                .map(|item| encode(item).unwrap().strip_suffix(b"\n").unwrap().to_vec())
                .collect();
            prop_assert_eq!(held, expected);
        }

        #[test]
        fn the_scanner_never_panics(text in prop::collection::vec(any::<u8>(), 0..64)) {
            let _ = members(&text);
            let _ = seal_of(&text, &["a"]);
            let _ = elements(&text, 0..text.len());
        }
    }
}
