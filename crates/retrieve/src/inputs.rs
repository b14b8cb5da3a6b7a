//! The inputs fingerprint: every input file's hash plus the configuration sections and the
//! analyzer and lexicon versions the index derives from. Freshness compares fingerprints; it
//! never rebuilds.

use std::collections::BTreeMap;

use doc_bridge_model::config::Config;
use doc_bridge_model::hash::hash_canonical;
use doc_bridge_model::index::{INPUTS_VERSION, Inputs};
use doc_bridge_model::retrieval::LEXICON_VERSION;
use doc_bridge_model::{ContentHash, RelPath};

/// Version of the projection definition, recorded in `inputs.projectionVersion`.
pub const PROJECTION_VERSION: u32 = 1;

/// sha256 over the configuration sections the index derives from (everything but `rules` and
/// `intelligence`, which steer `check` and `enrich`).
pub fn configuration_hash(config: &Config) -> ContentHash {
    let mut value = serde_json::to_value(config).unwrap_or(serde_json::Value::Null);
    if let Some(object) = value.as_object_mut() {
        object.remove("rules");
        object.remove("intelligence");
    }
    hash_canonical(&value).unwrap_or_else(|_| ContentHash::of_bytes(b""))
}

/// Builds the fingerprint.
pub fn fingerprint(
    files: BTreeMap<RelPath, ContentHash>,
    configuration_hash: ContentHash,
    analyzers: BTreeMap<String, u32>,
) -> Inputs {
    let hash = hash_canonical(&serde_json::json!({
        "version": INPUTS_VERSION,
        "files": files,
        "configuration": configuration_hash,
        "analyzers": analyzers,
        "lexiconVersion": LEXICON_VERSION,
        "projectionVersion": PROJECTION_VERSION,
    }))
    .unwrap_or_else(|_| ContentHash::of_bytes(b""));
    Inputs {
        hash,
        file_count: files.len() as u64,
        projection_version: PROJECTION_VERSION,
        version: INPUTS_VERSION,
        files,
        configuration_hash,
        analyzers,
    }
}
