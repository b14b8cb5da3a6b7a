//! The head of a previous artifact: its `contentHash` and `generatedAt`, the two fields that
//! decide whether this run keeps the previous `generatedAt` (so an unchanged repository gives
//! byte-identical files), and its `contentHashAlgo`, which says whether this build can read it.
//!
//! Read from the start of the file when it can be: an artifact's members are in canonical
//! order, so an index's `contentHash`, `contentHashAlgo` and `generatedAt` are its first three
//! members and the rest (hundreds of megabytes on a large repository, parsed in full by an
//! ordinary deserialization just to be skipped) is never read. A snapshot's `generatedAt` comes
//! after its entities: that one is parsed through.

use std::io::Read;
use std::path::Path;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};

use doc_bridge_model::ContentHash;

/// The two fields of a previous artifact that decide whether `generatedAt` is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The artifact's `contentHash`.
    pub content_hash: ContentHash,
    /// The artifact's `generatedAt`.
    pub generated_at: String,
}

/// Reads a previous artifact's hash and time; `None` when the file is missing or not a JSON
/// object holding both (as strings, the hash a valid one) before any syntax error. The reading
/// stops once both are found: a file damaged further on still gives its head (the head only
/// decides a timestamp, and the damaged file is rewritten anyway, its bytes being different).
pub fn read_head(path: &Path) -> Option<Head> {
    let found = read_until(path, |found| {
        found.content_hash.is_some() && found.generated_at.is_some()
    })?;
    Some(Head {
        content_hash: ContentHash::parse(&found.content_hash?)?,
        generated_at: found.generated_at?,
    })
}

/// An artifact's `contentHashAlgo`, read from the start of the file; `None` when the file is
/// missing or not a JSON object holding it (as a string) before any syntax error.
pub fn read_algorithm(path: &Path) -> Option<String> {
    read_until(path, |found| found.algorithm.is_some())?.algorithm
}

/// The head's fields found in the file at `path` until `enough` says so: from its first 64 KB
/// when they are there, else from the whole file.
fn read_until(path: &Path, enough: fn(&Found) -> bool) -> Option<Found> {
    /// Where an index's head is (a few hundred bytes in).
    const PREFIX: u64 = 1 << 16;
    let mut file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    (&mut file).take(PREFIX).read_to_end(&mut bytes).ok()?;
    let found = found_in(&bytes, enough);
    if enough(&found) || (bytes.len() as u64) < PREFIX {
        return Some(found);
    }
    file.read_to_end(&mut bytes).ok()?;
    Some(found_in(&bytes, enough))
}

/// The head's fields at the start of `bytes`, which may stop anywhere after them.
fn found_in(bytes: &[u8], enough: fn(&Found) -> bool) -> Found {
    let mut found = Found::default();
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    // Ends in an error when it stops early, on purpose (see `Seed::visit_map`), or at the end
    // of a prefix.
    let _ = Seed(&mut found, enough).deserialize(&mut deserializer);
    found
}

/// The head's fields as they are found.
#[derive(Default)]
struct Found {
    // Text, checked by `read_head`: a hash of another form must not stop `read_algorithm`.
    content_hash: Option<String>,
    generated_at: Option<String>,
    algorithm: Option<String>,
}

/// Reads the top-level members into [`Found`] until the function says it has enough.
struct Seed<'a>(&'a mut Found, fn(&Found) -> bool);

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("an artifact (a JSON object)")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "contentHash" => self.0.content_hash = Some(map.next_value()?),
                "generatedAt" => self.0.generated_at = Some(map.next_value()?),
                "contentHashAlgo" => self.0.algorithm = Some(map.next_value()?),
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            if (self.1)(self.0) {
                // Enough found: stop reading (the deserializer reports the unread rest).
                return Err(de::Error::custom("head read"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn head_in_file(text: &str) -> Option<Head> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        std::fs::write(&path, text).unwrap();
        read_head(&path)
    }

    #[test]
    fn the_head_is_read_from_the_start_of_an_artifact_whatever_follows() {
        let hash = ContentHash::of_bytes(b"x");
        let expected = Head {
            content_hash: hash.clone(),
            generated_at: "2026-11-30T00:00:00.000Z".to_owned(),
        };
        let head = format!(
            "{{\n  \"contentHash\": \"{hash}\",\n  \"contentHashAlgo\": \"sha256-semantic-v1\",\n  \"generatedAt\": \"2026-11-30T00:00:00.000Z\""
        );
        // Whole, truncated after the head, or damaged after it.
        for rest in [
            ",\n  \"x\": [1, 2]\n}\n",
            ",\n  \"x\": [1, 2",
            ", \"x\": nonsense}",
        ] {
            assert_eq!(
                head_in_file(&format!("{head}{rest}")),
                Some(expected.clone()),
                "{rest}"
            );
        }
        // Far into a large file (a snapshot's `generatedAt` follows its entities).
        let far = format!(
            "{{\"contentHash\": \"{hash}\", \"entities\": [\"{}\"], \"generatedAt\": \"2026-11-30T00:00:00.000Z\"}}",
            "x".repeat(200_000)
        );
        assert_eq!(head_in_file(&far), Some(expected.clone()));
        // Members in another order, nested fields of the same names ignored.
        let reordered = format!(
            "{{\"projection\": {{\"contentHash\": \"{}\"}}, \"generatedAt\": \"2026-11-30T00:00:00.000Z\", \"contentHash\": \"{hash}\"}}",
            ContentHash::of_bytes(b"y")
        );
        assert_eq!(head_in_file(&reordered), Some(expected));
    }

    #[test]
    fn no_head_without_both_fields_before_any_damage() {
        let hash = ContentHash::of_bytes(b"x");
        for text in [
            String::new(),
            "[]".to_owned(),
            "{}".to_owned(),
            format!("{{\"contentHash\": \"{hash}\"}}"),
            format!("{{\"contentHash\": \"{hash}\", nonsense, \"generatedAt\": \"t\"}}"),
            "{\"contentHash\": \"not a hash\", \"generatedAt\": \"t\"}".to_owned(),
            format!("{{\"contentHash\": \"{hash}\", \"generatedAt\": 5}}"),
        ] {
            assert_eq!(head_in_file(&text), None, "{text}");
        }
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_head(&dir.path().join("missing.json")), None);
    }

    #[test]
    fn the_algorithm_is_read_from_the_head_whatever_follows_or_precedes_it() {
        let algorithm_in = |text: &str| {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("a.json");
            std::fs::write(&path, text).unwrap();
            read_algorithm(&path)
        };
        let algo = Some("sha256-semantic-v9".to_owned());
        assert_eq!(
            algorithm_in(
                "{\"contentHash\": \"junk\", \"contentHashAlgo\": \"sha256-semantic-v9\", \"x\": [1,"
            ),
            algo
        );
        // Far in (another writer's member order), or the only member.
        let far = format!(
            "{{\"a\": \"{}\", \"contentHashAlgo\": \"sha256-semantic-v9\"}}",
            "x".repeat(200_000)
        );
        assert_eq!(algorithm_in(&far), algo);
        for text in [
            "",
            "{}",
            "{\"contentHashAlgo\": 1}",
            "{nonsense, \"contentHashAlgo\": \"v\"}",
            "{\"projection\": {\"contentHashAlgo\": \"v\"}}",
        ] {
            assert_eq!(algorithm_in(text), None, "{text}");
        }
    }
}
