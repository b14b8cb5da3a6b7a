//! Indexes sealed with the legacy `sha256-normalized-v1`: read for migration only
//! (docs/index-artifact.md, "Legacy indexes").
//!
//! The legacy seal is the sha256 of the canonical JSON of an object holding only the index's
//! `schemaVersion`, `knowledge`, `handoffs`, `lookup`, `retrieval`, `inputs` (when the index
//! has them) and `projection.contentHash` (when it has a projection). A legacy index is read as
//! plain JSON, never as [`DocBridgeIndexV1`]: its sections predate today's shapes. Queries never
//! answer from one; `index --check` and `index` compare it, file by file, with a rebuild of the
//! tree under the same algorithm.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use doc_bridge_model::ContentHash;
use doc_bridge_model::hash::hash_canonical;
use doc_bridge_model::index::DocBridgeIndexV1;

/// The legacy algorithm's name.
pub const LEGACY_HASH_ALGO: &str = "sha256-normalized-v1";

/// The top-level sections the legacy seal covers, when present.
const SEALED: &[&str] = &[
    "schemaVersion",
    "knowledge",
    "handoffs",
    "lookup",
    "retrieval",
    "inputs",
];

/// A legacy index whose seal holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegacyIndex {
    /// Its (valid) `contentHash`.
    pub content_hash: ContentHash,
    /// Whether it has `inputs` (an index written before they existed does not).
    pub has_inputs: bool,
    /// The content hash of every file its `knowledge` entries name, by path.
    pub files: BTreeMap<String, String>,
}

/// Why a file declaring the legacy algorithm is not a valid legacy index.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LegacyError {
    /// Not an object with a string `contentHash`.
    #[error("it is not a legacy index: {0}")]
    Malformed(&'static str),
    /// The seal does not match the content.
    #[error("its `sha256-normalized-v1` seal does not match its content (edited or corrupt)")]
    SealMismatch,
}

/// The legacy seal of `index` (a JSON object), `None` when it is not an object.
pub fn legacy_hash(index: &Value) -> Option<ContentHash> {
    let object = index.as_object()?;
    let mut sealed = Map::new();
    for key in SEALED {
        if let Some(value) = object.get(*key) {
            sealed.insert((*key).to_owned(), value.clone());
        }
    }
    if let Some(hash) = object.get("projection").and_then(|p| p.get("contentHash")) {
        let mut projection = Map::new();
        projection.insert("contentHash".to_owned(), hash.clone());
        sealed.insert("projection".to_owned(), Value::Object(projection));
    }
    hash_canonical(&Value::Object(sealed)).ok()
}

/// Reads a file that declares the legacy algorithm, verifying its seal.
pub fn read(index: &Value) -> Result<LegacyIndex, LegacyError> {
    let object = index
        .as_object()
        .ok_or(LegacyError::Malformed("not a JSON object"))?;
    let stored = object
        .get("contentHash")
        .and_then(Value::as_str)
        .ok_or(LegacyError::Malformed("no `contentHash`"))?;
    let computed = legacy_hash(index).ok_or(LegacyError::Malformed("not a JSON object"))?;
    if computed.as_str() != stored {
        return Err(LegacyError::SealMismatch);
    }
    Ok(LegacyIndex {
        content_hash: computed,
        has_inputs: object.contains_key("inputs"),
        files: knowledge_files(object.get("knowledge")),
    })
}

/// Path → content hash of the knowledge entries that carry both.
fn knowledge_files(knowledge: Option<&Value>) -> BTreeMap<String, String> {
    knowledge
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let path = entry.get("path")?.as_str()?;
            let hash = entry.get("contentHash")?.as_str()?;
            Some((path.to_owned(), hash.to_owned()))
        })
        .collect()
}

/// What changed between a legacy index and a rebuild of the tree as it is now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Drift {
    /// Files whose content changed.
    pub changed: Vec<String>,
    /// Files the rebuild has and the legacy index does not.
    pub added: Vec<String>,
    /// Files the legacy index has and the rebuild does not.
    pub removed: Vec<String>,
    /// Whether the rebuild, sealed under the legacy algorithm, has the legacy index's seal.
    pub same_seal: bool,
}

impl Drift {
    /// Whether no file drifted.
    pub fn no_file_drifted(&self) -> bool {
        self.changed.is_empty() && self.added.is_empty() && self.removed.is_empty()
    }

    /// `N file(s) drifted (a.md, +new.md, -old.md)`, naming at most `limit` of them.
    pub fn summary(&self, limit: usize) -> String {
        let names: Vec<String> = self
            .changed
            .iter()
            .cloned()
            .chain(self.added.iter().map(|p| format!("+{p}")))
            .chain(self.removed.iter().map(|p| format!("-{p}")))
            .collect();
        let more = names.len().saturating_sub(limit);
        let mut shown = names
            .iter()
            .take(limit)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        if more > 0 {
            shown.push_str(&format!(", and {more} more"));
        }
        format!("{} file(s) drifted ({shown})", names.len())
    }
}

/// Compares `legacy` with `rebuilt`, the index the tree gives now: file by file through the
/// knowledge entries, and as a whole through the legacy seal of the rebuild.
pub fn drift(legacy: &LegacyIndex, rebuilt: &DocBridgeIndexV1) -> Drift {
    let current: BTreeMap<&str, &str> = rebuilt
        .knowledge
        .iter()
        .filter_map(|k| Some((k.path.as_str(), k.content_hash.as_ref()?.as_str())))
        .collect();
    let mut drift = Drift::default();
    for (path, hash) in &legacy.files {
        match current.get(path.as_str()) {
            Some(now) if *now == hash => {}
            Some(_) => drift.changed.push(path.clone()),
            None => drift.removed.push(path.clone()),
        }
    }
    drift.added = current
        .keys()
        .filter(|p| !legacy.files.contains_key(**p))
        .map(|p| (*p).to_owned())
        .collect();
    drift.same_seal = serde_json::to_value(rebuilt)
        .ok()
        .and_then(|value| legacy_hash(&value))
        .is_some_and(|hash| hash == legacy.content_hash);
    drift
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sealed(mut index: Value) -> Value {
        let hash = legacy_hash(&index).unwrap();
        index["contentHash"] = json!(hash.as_str());
        index
    }

    fn sample() -> Value {
        json!({
            "schemaVersion": 1,
            "contentHashAlgo": LEGACY_HASH_ALGO,
            "generatedAt": "2026-07-09T00:00:00.000Z",
            "project": {"name": "p", "root": "."},
            "knowledge": [
                {"id": "document:docs/a.md", "type": "document", "title": "A",
                 "path": "docs/a.md", "contentHash": "aa"},
                {"id": "auth", "type": "agent-doc", "title": "Auth", "path": "docs/for-agents/auth.md"}
            ],
            "handoffs": {},
            "lookup": {"packages": [], "ownership": {}},
            "retrieval": {"lexiconVersion": 1, "weights": {"title": 6}, "params": {"k1": 1.2, "b": 0.75}}
        })
    }

    #[test]
    fn a_sealed_legacy_index_reads_and_names_its_files() {
        let legacy = read(&sealed(sample())).unwrap();
        assert!(!legacy.has_inputs);
        assert_eq!(
            legacy.files,
            BTreeMap::from([("docs/a.md".to_owned(), "aa".to_owned())])
        );
    }

    /// The seal covers the listed sections and `projection.contentHash`, and nothing else.
    #[test]
    fn the_seal_covers_exactly_the_legacy_sections() {
        let index = sealed(sample());
        let mut outside = index.clone();
        outside["generatedAt"] = json!("2027-01-01T00:00:00.000Z");
        outside["project"]["name"] = json!("renamed");
        outside["projection"] = json!({"contentHash": "p1", "entries": [1]});
        let mut projected = outside.clone();
        projected["projection"]["entries"] = json!([2]);
        assert_eq!(legacy_hash(&outside), legacy_hash(&projected));
        assert_ne!(legacy_hash(&index), legacy_hash(&outside));
        for key in SEALED {
            let mut edited = index.clone();
            edited[*key] = json!("edited");
            assert_eq!(
                read(&edited),
                Err(LegacyError::SealMismatch),
                "{key} is not sealed"
            );
        }
        let mut edited = outside.clone();
        edited["projection"]["contentHash"] = json!("p2");
        assert_ne!(legacy_hash(&edited), legacy_hash(&outside));
    }

    #[test]
    fn malformed_files_are_named_apart_from_broken_seals() {
        assert_eq!(
            read(&json!([1])),
            Err(LegacyError::Malformed("not a JSON object"))
        );
        assert_eq!(
            read(&json!({"knowledge": []})),
            Err(LegacyError::Malformed("no `contentHash`"))
        );
    }

    #[test]
    fn drift_summary_names_changed_added_and_removed() {
        let drift = Drift {
            changed: vec!["a.md".into()],
            added: vec!["b.md".into()],
            removed: vec!["c.md".into(), "d.md".into()],
            same_seal: false,
        };
        assert_eq!(
            drift.summary(3),
            "4 file(s) drifted (a.md, +b.md, -c.md, and 1 more)"
        );
    }
}
