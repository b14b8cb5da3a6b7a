//! The index artifact (`.doc-bridge/index.json`): `DocBridgeIndexV1` from doc-bridge-index-v1.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::hash::ContentHash;
use crate::ids::RelPath;
use crate::snapshot::Project;

/// The index schema version.
pub const INDEX_SCHEMA_VERSION: u32 = 1;
/// Top-level fields left out of the index `contentHash` (doc-bridge-index-v1, "Content Hash").
pub const INDEX_HASH_EXCLUDED: &[&str] = &["contentHash", "generatedAt", "publication"];
/// Version of the `inputs` fingerprint definition.
pub const INPUTS_VERSION: u32 = 2;

/// The digest of an input file list, the part of `inputs.hash` that covers the files: sha256
/// over `file <contentHash> <path>\0` per file, in path order (NUL cannot occur in a path, a
/// newline can). Kept apart from the rest of the fingerprint so the stamp cache can record it,
/// and a freshness check that finds no file moved combines it with the configuration instead of
/// hashing the whole list again.
#[derive(Default)]
pub struct FilesDigest(crate::hash::StreamingHasher);

impl FilesDigest {
    /// Adds the next file (callers feed files in path order).
    pub fn add(&mut self, path: &str, content_hash: &str) {
        self.0.update(b"file ");
        self.0.update(content_hash.as_bytes());
        self.0.update(b" ");
        self.0.update(path.as_bytes());
        self.0.update(b"\0");
    }

    /// The digest of the files added.
    pub fn finish(self) -> ContentHash {
        self.0.finish()
    }
}

/// `DocBridgeIndexV1`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DocBridgeIndexV1 {
    /// Always 1.
    pub schema_version: u32,
    /// sha256-semantic-v1 over the index minus [`INDEX_HASH_EXCLUDED`].
    pub content_hash: ContentHash,
    /// `sha256-semantic-v1`.
    pub content_hash_algo: String,
    /// RFC 3339; kept when the hash did not change.
    pub generated_at: String,
    /// Project identity.
    pub project: Project,
    /// Curated agent docs, then every document and module (no bodies).
    pub knowledge: Vec<KnowledgeEntry>,
    /// Handoffs by package or ownership id.
    pub handoffs: BTreeMap<String, Handoff>,
    /// Package and ownership routing.
    pub lookup: Lookup,
    /// The fingerprint of every input.
    pub inputs: Inputs,
    /// Ranking parameters.
    pub retrieval: RetrievalSettings,
    /// The retrieval projection.
    pub projection: crate::projection::RetrievalIndexV1,
    /// The typed entities, only with `index.knowledgeEntities.enabled` (absent by default, so
    /// strict readers of the original contract never receive it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knowledge_entities: Option<Vec<KnowledgeEntity>>,
    /// Publication provenance; outside the hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publication: Option<serde_json::Value>,
}

/// An entry of `knowledge[]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeEntry {
    /// sha256 of the file the entry was projected from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<ContentHash>,
    /// One-line description (a document's summary).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// `agent-doc` entries use the document's path stem under the corpus root; projected
    /// entries use the entity id.
    pub id: String,
    /// The file.
    pub path: RelPath,
    /// A module's exported symbols.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<String>,
    /// Tags: the kind, then front matter tags or the language and top directory.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Title (a module's file name).
    pub title: String,
    /// `agent-doc`, `document` or `module`.
    #[serde(rename = "type")]
    pub entry_type: String,
}

/// One entry of the opt-in `knowledgeEntities` section: an observed entity with its typed,
/// observed outbound relations (docs/index-artifact.md, "Knowledge entities").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeEntity {
    /// The content hash of what the entity was observed from.
    pub content_hash: ContentHash,
    /// The entity id (`document:docs/auth.md`).
    pub id: String,
    /// `document`, `module`, `package` or `area`.
    pub kind: String,
    /// Its name (title, file name, package name, directory).
    pub name: String,
    /// Its file or directory.
    pub path: RelPath,
    /// Always `observed`: nothing an agent proposed is here.
    pub provenance: String,
    /// Its outbound relations, sorted by kind then target.
    pub relations: Vec<KnowledgeRelation>,
}

/// A typed relation of a [`KnowledgeEntity`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeRelation {
    /// `links-to`, `imports`, `covers`, `contains`, ...
    pub kind: String,
    /// The other entity's id.
    pub to: String,
}

/// `AgentHandoffV1`: where to start when changing a package or an owned area.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Handoff {
    /// Commands that verify a change.
    pub checks: Vec<String>,
    /// Directories an edit is expected to touch.
    pub edit_roots: Vec<RelPath>,
    /// Short notes for the reader.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Files to read before editing.
    pub read_before_editing: Vec<RelPath>,
    /// Always 1.
    pub schema_version: u32,
    /// Always `.doc-bridge/index.json`.
    pub source: String,
    /// The first file to read: the best document, or (when no document covers the target yet)
    /// the package manifest or the target's own path. Always present, as `AgentHandoffV1` has it.
    pub start_here: RelPath,
    /// What the handoff is for.
    pub target: HandoffTarget,
    /// Always `agent-handoff`.
    #[serde(rename = "type")]
    pub handoff_type: String,
}

/// The target of a handoff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HandoffTarget {
    /// The package name or ownership id (or entity id for other kinds).
    pub id: String,
    /// The directory or file.
    pub path: RelPath,
    /// `package`, `area`, `module`, `document` or `ownership`.
    #[serde(rename = "type")]
    pub target_type: String,
}

/// `lookup`: routing tables.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lookup {
    /// Ownership records by id.
    pub ownership: BTreeMap<String, OwnershipRecord>,
    /// Package names, sorted.
    pub packages: Vec<String>,
}

/// One ownership record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OwnershipRecord {
    /// The curated agent doc that owns it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_doc: Option<RelPath>,
    /// Checks for changes under it.
    pub checks: Vec<String>,
    /// The owner id (package name or configured ownership key).
    pub id: String,
    /// The owned directory.
    pub path: RelPath,
}

/// `inputs`: what the index was built from, for freshness checks without rebuilding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Inputs {
    /// Analyzer versions by name.
    pub analyzers: BTreeMap<String, u32>,
    /// sha256 of the configuration sections the index derives from.
    pub configuration_hash: ContentHash,
    /// Number of input files.
    pub file_count: u64,
    /// Every input file's content hash, by path.
    pub files: BTreeMap<RelPath, ContentHash>,
    /// sha256 of canonical `{version, files, configuration, analyzers, lexiconVersion}`.
    pub hash: ContentHash,
    /// Version of the projection definition.
    pub projection_version: u32,
    /// Version of this fingerprint definition.
    pub version: u32,
}

/// `retrieval`: ranking parameters, recorded so a reader can rebuild the same ranking.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetrievalSettings {
    /// The tokenizer version.
    pub lexicon_version: u32,
    /// BM25 parameters (`k1`, `b`).
    pub params: BTreeMap<String, f64>,
    /// BM25F field weights.
    pub weights: BTreeMap<String, f64>,
}
