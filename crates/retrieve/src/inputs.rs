//! The inputs fingerprint: every input file's hash plus the configuration sections and the
//! analyzer and lexicon versions the index derives from. Freshness compares fingerprints; it
//! never rebuilds.

use std::collections::BTreeMap;

use doc_bridge_model::config::Config;
use doc_bridge_model::hash::{StreamingHasher, hash_canonical};
use doc_bridge_model::index::{FilesDigest, INPUTS_VERSION, Inputs};
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
        // The publication gate decides whether an index is written, never what it holds.
        let index = object.get_mut("index").and_then(|i| i.as_object_mut());
        if let Some(index) = index {
            index.remove("referenceFindingsGate");
            if index.is_empty() {
                object.remove("index");
            }
        }
    }
    hash_canonical(&value).unwrap_or_else(|_| ContentHash::of_bytes(b""))
}

/// Builds the fingerprint. `inputs.hash` (version 2) is sha256 over a short line-oriented
/// stream that ends in the [`FilesDigest`] of the file list, so it costs one pass and no
/// allocation per file:
///
/// ```text
/// doc-bridge-inputs v2\n
/// lexicon <lexiconVersion> projection <projectionVersion>\n
/// analyzer <name> <version>\n            (per analyzer, in name order)
/// configuration <configurationHash>\n
/// files <count> <filesDigest>\n
/// ```
pub fn fingerprint(
    files: BTreeMap<RelPath, ContentHash>,
    configuration_hash: ContentHash,
    analyzers: BTreeMap<String, u32>,
) -> Inputs {
    let mut digest = FilesDigest::default();
    for (path, hash) in &files {
        digest.add(path.as_str(), hash.as_str());
    }
    let hash = inputs_hash(
        &digest.finish(),
        files.len() as u64,
        &configuration_hash,
        &analyzers,
    );
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

/// `inputs.hash` from the digest of the file list (see [`fingerprint`]): what a freshness check
/// computes when the stamp cache vouches for every file.
pub fn inputs_hash(
    files_digest: &ContentHash,
    file_count: u64,
    configuration_hash: &ContentHash,
    analyzers: &BTreeMap<String, u32>,
) -> ContentHash {
    let mut hasher = StreamingHasher::default();
    hasher.update(format!("doc-bridge-inputs v{INPUTS_VERSION}\n").as_bytes());
    hasher
        .update(format!("lexicon {LEXICON_VERSION} projection {PROJECTION_VERSION}\n").as_bytes());
    for (name, version) in analyzers {
        hasher.update(format!("analyzer {name} {version}\n").as_bytes());
    }
    hasher.update(format!("configuration {configuration_hash}\n").as_bytes());
    hasher.update(format!("files {file_count} {files_digest}\n").as_bytes());
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(entries: &[(&str, &[u8])]) -> BTreeMap<RelPath, ContentHash> {
        entries
            .iter()
            .map(|(p, b)| (RelPath::new(p).unwrap(), ContentHash::of_bytes(b)))
            .collect()
    }

    #[test]
    fn fingerprint_moves_with_any_file_path_content_or_configuration() {
        let config = ContentHash::of_bytes(b"c");
        let base = fingerprint(
            files(&[("a.md", b"1"), ("b.md", b"2")]),
            config.clone(),
            BTreeMap::new(),
        );
        let renamed = fingerprint(
            files(&[("a.md", b"1"), ("c.md", b"2")]),
            config.clone(),
            BTreeMap::new(),
        );
        let edited = fingerprint(
            files(&[("a.md", b"1"), ("b.md", b"3")]),
            config.clone(),
            BTreeMap::new(),
        );
        let reconfigured = fingerprint(
            files(&[("a.md", b"1"), ("b.md", b"2")]),
            ContentHash::of_bytes(b"d"),
            BTreeMap::new(),
        );
        let reanalysed = fingerprint(
            files(&[("a.md", b"1"), ("b.md", b"2")]),
            config.clone(),
            BTreeMap::from([("markdown".to_owned(), 2)]),
        );
        for other in [&renamed, &edited, &reconfigured, &reanalysed] {
            assert_ne!(base.hash, other.hash);
        }
        assert_eq!(
            base.hash,
            fingerprint(
                files(&[("b.md", b"2"), ("a.md", b"1")]),
                config,
                BTreeMap::new()
            )
            .hash
        );
    }

    #[test]
    fn paths_with_newlines_cannot_forge_another_file_list() {
        let config = ContentHash::of_bytes(b"c");
        let hash = ContentHash::of_bytes(b"x");
        let sneaky = format!("a\nfile {hash} b");
        let one = fingerprint(
            files(&[(sneaky.as_str(), b"x")]),
            config.clone(),
            BTreeMap::new(),
        );
        let two = fingerprint(files(&[("a", b"x"), ("b", b"x")]), config, BTreeMap::new());
        assert_ne!(one.hash, two.hash);
    }
}
