//! `RetrievalIndexV1`: the retrieval projection stored in `index.json` under `projection`.
//!
//! A pure function of the snapshot, the accepted overlay and the configuration; what search ranks.
//! Struct fields are declared in their JSON key order, as in the snapshot module.

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
    /// Hash of the configuration sections the projection derives from.
    pub configuration_hash: ContentHash,
    /// sha256 over the canonical projection minus `contentHash` (so it covers the entries and
    /// every input hash below).
    pub content_hash: ContentHash,
    /// One entry per document, module, area, package and declared route, sorted by id.
    pub entries: Vec<ProjectedEntry>,
    /// The graph metrics definition.
    pub graph: GraphParams,
    /// What a reader needs to check it rebuilt the same collection.
    pub lexical: LexicalStats,
    /// The tokenizer version.
    pub lexicon_version: u32,
    /// Hash of the live accepted overlay set (the empty set's hash when there is none).
    pub overlay_hash: ContentHash,
    /// Always 1.
    pub schema_version: u32,
    /// The snapshot's `contentHash`.
    pub snapshot_hash: ContentHash,
}

/// The PageRank definition the graph metrics used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GraphParams {
    /// Damping factor.
    pub damping: f64,
    /// Relation kinds PageRank walks.
    pub edges: Vec<String>,
    /// Maximum iterations.
    pub iterations: u32,
    /// Convergence tolerance (L1 change per iteration).
    pub tolerance: f64,
    /// Version of the graph metrics definition.
    pub version: u32,
}

/// Collection statistics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LexicalStats {
    /// Average field length in tokens, by field.
    pub average_field_lengths: BTreeMap<String, f64>,
    /// Entries indexed.
    pub document_count: u64,
    /// Field names, in index order.
    pub fields: Vec<String>,
}

/// One ranked unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectedEntry {
    /// Curated agent documentation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub agent_doc: bool,
    /// Other names the entry answers to exactly.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// A document's audience.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub audience: Vec<String>,
    /// `observed` or `proposed`.
    pub confidence: String,
    /// The content hash of what the entry was projected from.
    pub content_hash: ContentHash,
    /// The text the ranker indexes, by field name.
    pub fields: BTreeMap<String, String>,
    /// Graph position.
    pub graph: EntryGraph,
    /// Entity id, or `ownership:<id>` / `intent:<n>` for routes.
    pub id: String,
    /// `document`, `module`, `area`, `package`, `ownership` or `intent`.
    pub kind: String,
    /// A document's language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Names a document writes as inline code (`createRawSnippet`, `$state.snapshot`): a query
    /// that is one of them names the document too, after the code that declares it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mentions: Vec<String>,
    /// The file or directory.
    pub path: RelPath,
    /// `observed`, `declared` or `proposed`.
    pub provenance: String,
    /// Accepted agent signal in 0..=1 (zero without an overlay).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub signal: f64,
    /// Exported symbols: (name, declared here rather than re-exported).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<ProjectedSymbol>,
    /// Tags (front matter tags, `canonical`, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// For routes: where the route leads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Display title.
    pub title: String,
}

fn is_zero(value: &f64) -> bool {
    *value == 0.0
}

/// An exported symbol of a module entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectedSymbol {
    /// Declared by this module (false: only re-exported).
    pub declared: bool,
    /// The name.
    pub name: String,
}

/// An entry's place in the relation graph.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EntryGraph {
    /// The area a module belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub area_id: Option<EntityId>,
    /// Documents that cover this entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub covered_by: Vec<EntityId>,
    /// Inbound `links-to` count.
    pub inbound_links: u32,
    /// Documents that mention this entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mentioned_by: Vec<EntityId>,
    /// Outbound edges used for proximity (bounded, sorted). The inbound ones are the other
    /// entries' outbound edges to this one, found by the reader (`collection::build`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outbound: Vec<Edge>,
    /// The package the entry belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package_id: Option<EntityId>,
    /// PageRank over links-to and covers edges (sums to 1 over all entries).
    pub pagerank: f64,
}

/// A relation edge as the ranker uses it. Ordered by kind, then endpoint, then confidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Edge {
    /// `observed`, `declared` or `proposed`.
    pub confidence: String,
    /// The other endpoint.
    pub entity: EntityId,
    /// The relation kind.
    pub kind: String,
}

impl Ord for Edge {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (&self.kind, &self.entity, &self.confidence).cmp(&(
            &other.kind,
            &other.entity,
            &other.confidence,
        ))
    }
}

impl PartialOrd for Edge {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
