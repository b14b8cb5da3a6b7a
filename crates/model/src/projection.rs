//! `RetrievalIndexV1`: the retrieval projection stored in `index.json` under `projection`.
//!
//! A pure function of the snapshot, the accepted overlay and the configuration; what search ranks.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::hash::ContentHash;
use crate::ids::{EntityId, RelPath};

/// Top-level fields left out of the projection's `contentHash`.
pub const PROJECTION_HASH_EXCLUDED: &[&str] = &["contentHash"];

/// The projection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetrievalIndexV1 {
    /// Always 1.
    pub schema_version: u32,
    /// sha256 over the canonical projection minus `contentHash` (so it covers the entries and
    /// every input hash below).
    pub content_hash: ContentHash,
    /// The snapshot's `contentHash`.
    pub snapshot_hash: ContentHash,
    /// Hash of the live accepted overlay set (the empty set's hash when there is none).
    pub overlay_hash: ContentHash,
    /// Hash of the configuration sections the projection derives from.
    pub configuration_hash: ContentHash,
    /// The tokenizer version.
    pub lexicon_version: u32,
    /// The graph metrics definition.
    pub graph: GraphParams,
    /// What a reader needs to check it rebuilt the same collection.
    pub lexical: LexicalStats,
    /// One entry per document, module, area, package and declared route, sorted by id.
    pub entries: Vec<ProjectedEntry>,
}

/// The PageRank definition the graph metrics used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GraphParams {
    /// Version of the graph metrics definition.
    pub version: u32,
    /// Damping factor.
    pub damping: f64,
    /// Maximum iterations.
    pub iterations: u32,
    /// Convergence tolerance (L1 change per iteration).
    pub tolerance: f64,
    /// Relation kinds PageRank walks.
    pub edges: Vec<String>,
}

/// Collection statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LexicalStats {
    /// Entries indexed.
    pub document_count: u64,
    /// Field names, in index order.
    pub fields: Vec<String>,
    /// Average field length in tokens, by field.
    pub average_field_lengths: BTreeMap<String, f64>,
}

/// One ranked unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectedEntry {
    /// Entity id, or `ownership:<id>` / `intent:<n>` for routes.
    pub id: String,
    /// `document`, `module`, `area`, `package`, `ownership` or `intent`.
    pub kind: String,
    /// The file or directory.
    pub path: RelPath,
    /// Display title.
    pub title: String,
    /// Other names the entry answers to exactly.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// Exported symbols: (name, declared here rather than re-exported).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<ProjectedSymbol>,
    /// Tags (front matter tags, `canonical`, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The text the ranker indexes, by field name.
    pub fields: BTreeMap<String, String>,
    /// Graph position.
    pub graph: EntryGraph,
    /// The content hash of what the entry was projected from.
    pub content_hash: ContentHash,
    /// `observed`, `declared` or `proposed`.
    pub provenance: String,
    /// `observed` or `proposed`.
    pub confidence: String,
    /// A document's language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// A document's audience.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub audience: Vec<String>,
    /// Curated agent documentation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub agent_doc: bool,
    /// For routes: where the route leads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Accepted agent signal in 0..=1 (zero without an overlay).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub signal: f64,
}

fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

/// An exported symbol of a module entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectedSymbol {
    /// The name.
    pub name: String,
    /// Declared by this module (false: only re-exported).
    pub declared: bool,
}

/// An entry's place in the relation graph.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EntryGraph {
    /// PageRank over links-to and covers edges (sums to 1 over all entries).
    pub pagerank: f64,
    /// Inbound `links-to` count.
    pub inbound_links: u32,
    /// Documents that cover this entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub covered_by: Vec<EntityId>,
    /// Documents that mention this entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mentioned_by: Vec<EntityId>,
    /// The area a module belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area_id: Option<EntityId>,
    /// The package the entry belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package_id: Option<EntityId>,
    /// Inbound edges used for proximity (bounded, sorted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inbound: Vec<Edge>,
    /// Outbound edges used for proximity (bounded, sorted).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outbound: Vec<Edge>,
}

/// A relation edge as the ranker uses it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Edge {
    /// The relation kind.
    pub kind: String,
    /// The other endpoint.
    pub entity: EntityId,
    /// `observed`, `declared` or `proposed`.
    pub confidence: String,
}
