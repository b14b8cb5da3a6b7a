//! A sealed artifact on its way to disk: encoded once into its canonical bytes, sealed from
//! those bytes, its excluded members (`contentHash`, `generatedAt`) written into place, and
//! compared with the file already there before anything is written.
//!
//! ```text
//! value ─encode→ bytes ─seal_of→ contentHash ─replace→ bytes ─compare/rename→ file
//! ```
//!
//! One encoding serves the seal and the write: the file is the canonical JSON the seal hashes
//! (see `canonical.rs`), so nothing is encoded twice and no piece of it is remembered.

use std::path::Path;

use doc_bridge_model::ContentHash;
use serde::Serialize;

use crate::artifact::{ArtifactError, PendingWrite, prepare_bytes_if_changed};
use crate::canonical::{self, Member, hash_members};

/// An artifact's canonical bytes and its top-level members, kept in step as members change.
#[derive(Debug)]
pub struct Encoded {
    bytes: Vec<u8>,
    members: Vec<Member>,
}

impl Encoded {
    /// Encodes `value`, which must serialize to an object.
    pub fn new<T: ?Sized + Serialize>(value: &T) -> Result<Self, ArtifactError> {
        Self::new_in(value, Vec::new())
    }

    /// [`Encoded::new`] into `buffer`, whose contents are discarded and whose memory is reused
    /// (as [`Encoded::into_buffer`] gives it back).
    pub fn new_in<T: ?Sized + Serialize>(
        value: &T,
        buffer: Vec<u8>,
    ) -> Result<Self, ArtifactError> {
        let bytes = canonical::encode_in(value, buffer)?;
        let members = canonical::members(&bytes)
            .ok_or_else(|| ArtifactError::Encode("an artifact must be a JSON object".to_owned()))?;
        Ok(Self { bytes, members })
    }

    /// The seal: sha256-semantic-v1 of the artifact without the members `excluded` names.
    pub fn seal(&self, excluded: &[&str]) -> ContentHash {
        hash_members(&self.bytes, &self.members, excluded)
    }

    /// Seals the object at member `key` on its own (without its members `excluded` names) and
    /// writes the seal into its `contentHash`: an artifact inside an artifact, such as the
    /// index's projection. Returns the seal.
    pub fn seal_member(
        &mut self,
        key: &str,
        excluded: &[&str],
    ) -> Result<ContentHash, ArtifactError> {
        let at = self.position(key)?;
        let range = self.members[at].value.clone();
        let inner_text = &self.bytes[range.clone()];
        let inner = canonical::members(inner_text)
            .ok_or_else(|| ArtifactError::Encode(format!("`{key}` is not an object")))?;
        let hash = hash_members(inner_text, &inner, excluded);
        let Some(slot) = inner
            .iter()
            .find(|m| inner_text.get(m.key.clone()) == Some(b"contentHash".as_slice()))
        else {
            return Err(ArtifactError::Encode(format!("`{key}` has no contentHash")));
        };
        let slot = range.start + slot.value.start..range.start + slot.value.end;
        let moved = canonical::replace_string(&mut self.bytes, slot, hash.as_str())?;
        self.shift(at, moved);
        Ok(hash)
    }

    /// Replaces the value of the top-level member `key` with the string `text`.
    pub fn set_string(&mut self, key: &str, text: &str) -> Result<(), ArtifactError> {
        let at = self.position(key)?;
        let range = self.members[at].value.clone();
        let moved = canonical::replace_string(&mut self.bytes, range, text)?;
        self.shift(at, moved);
        Ok(())
    }

    /// The artifact's bytes as they stand.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The memory of the bytes, for the next encoding to reuse ([`Encoded::new_in`]).
    pub fn into_buffer(self) -> Vec<u8> {
        self.bytes
    }

    /// Its top-level members, as ranges of [`Encoded::bytes`] (kept in step with every change).
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// Puts the bytes in a temporary file beside `path`, unless `path` already holds exactly
    /// them; [`PendingWrite::commit`] syncs and renames.
    pub fn prepare_write(&self, path: &Path) -> Result<PendingWrite, ArtifactError> {
        prepare_bytes_if_changed(path, &self.bytes)
    }

    fn position(&self, key: &str) -> Result<usize, ArtifactError> {
        self.members
            .iter()
            .position(|m| self.bytes.get(m.key.clone()) == Some(key.as_bytes()))
            .ok_or_else(|| ArtifactError::Encode(format!("the artifact has no `{key}`")))
    }

    /// Member `at`'s value grew by `moved` bytes: its end and every later member move with it.
    fn shift(&mut self, at: usize, moved: isize) {
        let by = |offset: usize| offset.saturating_add_signed(moved);
        if let Some(member) = self.members.get_mut(at) {
            member.entry.end = by(member.entry.end);
            member.value.end = by(member.value.end);
        }
        for member in self.members.iter_mut().skip(at + 1) {
            member.key = by(member.key.start)..by(member.key.end);
            member.entry = by(member.entry.start)..by(member.entry.end);
            member.value = by(member.value.start)..by(member.value.end);
        }
    }
}

/// Writes a sealed artifact that already holds its seal: its canonical bytes, unless the file
/// holds exactly them. Returns whether it wrote.
pub fn write_if_changed<T: ?Sized + Serialize>(
    path: &Path,
    value: &T,
) -> Result<bool, ArtifactError> {
    Encoded::new(value)?.prepare_write(path)?.commit()
}

/// Whether `bytes` (a whole artifact file) are canonical JSON sealed to `claimed` without the
/// members `excluded` names: checked on the bytes, with no tree built. `false` says only that
/// the bytes do not show it (they may be an indented or reordered file of the same content,
/// which only hashing the parsed value can tell).
pub fn bytes_carry_seal(bytes: &[u8], excluded: &[&str], claimed: &ContentHash) -> bool {
    canonical::seal_of(bytes, excluded).as_ref() == Some(claimed)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use doc_bridge_model::hash::semantic_hash;
    use serde_json::json;

    fn artifact() -> serde_json::Value {
        json!({
            "contentHash": ContentHash::of_bytes(b""),
            "generatedAt": "2026-01-01T00:00:00.000Z",
            "inner": {"contentHash": ContentHash::of_bytes(b""), "rows": [1, 2, "three"]},
            "rows": ["a", {"b": "c"}],
            "zeta": "last",
        })
    }

    #[test]
    fn one_encoding_gives_the_seals_and_the_file_of_the_sealed_value() {
        let mut value = artifact();
        let mut encoded = Encoded::new(&value).unwrap();
        let inner = encoded.seal_member("inner", &["contentHash"]).unwrap();
        let outer_excluded = ["contentHash", "generatedAt"];
        let hash = encoded.seal(&outer_excluded);
        encoded.set_string("contentHash", hash.as_str()).unwrap();
        encoded
            .set_string("generatedAt", "a later, longer time")
            .unwrap();

        // The value sealed the ordinary way: the same seals, the same bytes.
        assert_eq!(
            inner,
            semantic_hash(&value["inner"], &["contentHash"]).unwrap()
        );
        value["inner"]["contentHash"] = json!(inner);
        assert_eq!(hash, semantic_hash(&value, &outer_excluded).unwrap());
        value["contentHash"] = json!(hash);
        value["generatedAt"] = json!("a later, longer time");
        assert_eq!(encoded.bytes(), canonical::encode(&value).unwrap());
        // And the bytes carry the seal; any other seal, or a changed member, is not carried.
        assert!(bytes_carry_seal(encoded.bytes(), &outer_excluded, &hash));
        assert!(!bytes_carry_seal(encoded.bytes(), &outer_excluded, &inner));
        let edited = String::from_utf8(encoded.bytes().to_vec())
            .unwrap()
            .replace("last", "lost");
        assert!(!bytes_carry_seal(edited.as_bytes(), &outer_excluded, &hash));
        // The excluded members are really excluded.
        let retimed = String::from_utf8(encoded.bytes().to_vec())
            .unwrap()
            .replace("a later, longer time", "another");
        assert!(bytes_carry_seal(retimed.as_bytes(), &outer_excluded, &hash));
    }

    #[test]
    fn an_indented_file_does_not_carry_its_seal_on_the_bytes() {
        let value = artifact();
        let hash = semantic_hash(&value, &["contentHash"]).unwrap();
        let pretty = serde_json::to_vec_pretty(&value).unwrap();
        assert!(!bytes_carry_seal(&pretty, &["contentHash"], &hash));
    }

    #[test]
    fn an_unchanged_artifact_is_not_written_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        assert!(write_if_changed(&path, &artifact()).unwrap());
        let before = std::fs::metadata(&path).unwrap();
        assert!(!write_if_changed(&path, &artifact()).unwrap());
        let after = std::fs::metadata(&path).unwrap();
        assert_eq!(before.modified().unwrap(), after.modified().unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 1, "one line of canonical JSON");
        assert!(text.ends_with("}\n"));
    }

    #[test]
    fn members_that_are_missing_or_not_objects_are_errors() {
        let mut encoded = Encoded::new(&json!({"a": 1, "b": {"x": 1}})).unwrap();
        assert!(encoded.set_string("missing", "x").is_err());
        assert!(encoded.seal_member("a", &[]).is_err());
        assert!(
            encoded.seal_member("b", &[]).is_err(),
            "no contentHash in it"
        );
        assert!(Encoded::new(&json!([1, 2])).is_err());
    }
}
