//! The search collection built from a projection: what ranking needs and nothing else. Owned and
//! serializable, so it can be cached under `.doc-bridge/cache/` and loaded without reading or
//! re-tokenizing the index (the cache is derived, never authoritative).

use std::collections::HashMap;

use doc_bridge_model::projection::RetrievalIndexV1;
use doc_bridge_model::retrieval::Field;
use doc_bridge_model::{ContentHash, RelPath};
use serde::{Deserialize, Serialize};

use crate::lexicon;

/// Number of indexed fields.
pub const FIELD_COUNT: usize = Field::ALL.len();

/// One entry's term frequencies for one term, by field (in `Field::ALL` order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Posting {
    /// Index into the entries.
    pub entry: u32,
    /// Term frequency per field, saturated at `u16::MAX`.
    pub tf: [u16; FIELD_COUNT],
}

/// What an exact name matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ExactKind {
    /// The entry id or an alias.
    Id,
    /// The path, file name or file stem.
    Path,
    /// A symbol the module declares.
    Symbol,
    /// A symbol the module only re-exports.
    ReexportedSymbol,
}

/// What ranking and result display need of one projected entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntryMeta {
    /// Entry id.
    pub id: String,
    /// Entry kind.
    pub kind: String,
    /// File or directory.
    pub path: RelPath,
    /// Display title.
    pub title: String,
    /// Content hash (evidence).
    pub content_hash: ContentHash,
    /// `observed`, `declared` or `proposed`.
    pub provenance: String,
    /// A document's language.
    pub language: Option<String>,
    /// Curated agent documentation.
    pub agent_doc: bool,
    /// Written for agents (audience `agent`).
    pub for_agents: bool,
    /// For routes: the entity they lead to.
    pub target: Option<String>,
    /// Accepted agent signal, 0..=1.
    pub signal: f64,
    /// PageRank.
    pub pagerank: f64,
    /// Entries one proximity edge away (either direction), sorted.
    pub neighbours: Vec<u32>,
}

/// The searchable collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Collection {
    /// Entries, in projection order.
    pub entries: Vec<EntryMeta>,
    /// Postings by term; each list sorted by entry.
    pub postings: HashMap<String, Vec<Posting>>,
    /// Field lengths in tokens per entry.
    pub lengths: Vec<[u32; FIELD_COUNT]>,
    /// Average field lengths.
    pub average: [f64; FIELD_COUNT],
    /// Normalized name → (entry, kind).
    pub exact: HashMap<String, Vec<(u32, ExactKind)>>,
}

/// Normalizes a name for exact matching: trimmed, folded, without `./`, a trailing `/` or `()`.
pub fn normalize_name(text: &str) -> String {
    let trimmed = text
        .trim()
        .trim_start_matches("./")
        .trim_end_matches('/')
        .trim_end_matches("()");
    lexicon::fold(trimmed)
}

impl Collection {
    /// Tokenizes every entry's fields and builds the tables.
    pub fn build(projection: &RetrievalIndexV1) -> Self {
        let mut postings: HashMap<String, Vec<Posting>> = HashMap::new();
        let mut lengths = Vec::with_capacity(projection.entries.len());
        let mut totals = [0f64; FIELD_COUNT];
        let mut counts: HashMap<String, [u16; FIELD_COUNT]> = HashMap::new();
        let mut exact: HashMap<String, Vec<(u32, ExactKind)>> = HashMap::new();
        let by_id: HashMap<&str, u32> = projection
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id.as_str(), u32::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        let mut entries = Vec::with_capacity(projection.entries.len());
        for (index, entry) in projection.entries.iter().enumerate() {
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            counts.clear();
            let mut length = [0u32; FIELD_COUNT];
            for (f, field) in Field::ALL.iter().enumerate() {
                let text = entry
                    .fields
                    .get(field.name())
                    .map(String::as_str)
                    .unwrap_or("");
                lexicon::tokenize(text, &mut |token| {
                    length[f] += 1;
                    match counts.get_mut(token) {
                        Some(tf) => tf[f] = tf[f].saturating_add(1),
                        None => {
                            let mut tf = [0u16; FIELD_COUNT];
                            tf[f] = 1;
                            counts.insert(token.to_owned(), tf);
                        }
                    }
                });
                totals[f] += f64::from(length[f]);
            }
            for (term, tf) in counts.drain() {
                postings
                    .entry(term)
                    .or_default()
                    .push(Posting { entry: index, tf });
            }
            lengths.push(length);

            let mut add = |name: &str, kind: ExactKind| {
                let key = normalize_name(name);
                if !key.is_empty() {
                    let list = exact.entry(key).or_default();
                    if !list.contains(&(index, kind)) {
                        list.push((index, kind));
                    }
                }
            };
            add(&entry.id, ExactKind::Id);
            for alias in &entry.aliases {
                add(alias, ExactKind::Id);
            }
            if entry.kind != "intent" {
                add(entry.path.as_str(), ExactKind::Path);
                if matches!(entry.kind.as_str(), "document" | "module") {
                    add(entry.path.file_name(), ExactKind::Path);
                    add(entry.path.file_stem(), ExactKind::Path);
                    if let Some((without_ext, _)) = entry.path.as_str().rsplit_once('.') {
                        add(without_ext, ExactKind::Path);
                    }
                }
            }
            for symbol in &entry.symbols {
                let kind = if symbol.declared {
                    ExactKind::Symbol
                } else {
                    ExactKind::ReexportedSymbol
                };
                add(&symbol.name, kind);
            }

            let mut neighbours: Vec<u32> = entry
                .graph
                .inbound
                .iter()
                .chain(&entry.graph.outbound)
                .filter_map(|edge| by_id.get(edge.entity.as_str()).copied())
                .filter(|n| *n != index)
                .collect();
            neighbours.sort_unstable();
            neighbours.dedup();
            entries.push(EntryMeta {
                id: entry.id.clone(),
                kind: entry.kind.clone(),
                path: entry.path.clone(),
                title: entry.title.clone(),
                content_hash: entry.content_hash.clone(),
                provenance: entry.provenance.clone(),
                language: entry.language.clone(),
                agent_doc: entry.agent_doc,
                for_agents: entry
                    .audience
                    .iter()
                    .any(|a| a.eq_ignore_ascii_case("agent") || a.eq_ignore_ascii_case("agents")),
                target: entry.target.clone(),
                signal: entry.signal,
                pagerank: entry.graph.pagerank,
                neighbours,
            });
        }
        // Postings were pushed in entry order, so each list is sorted by entry.
        let n = projection.entries.len().max(1) as f64;
        let mut average = [0f64; FIELD_COUNT];
        for f in 0..FIELD_COUNT {
            average[f] = totals[f] / n;
        }
        Collection {
            entries,
            postings,
            lengths,
            average,
            exact,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether every internal reference is in range (a decoded cache is untrusted input: ranking
    /// indexes by these numbers and must never be handed one that is out of bounds).
    pub fn is_consistent(&self) -> bool {
        let n = self.entries.len();
        let in_range = |i: u32| (i as usize) < n;
        self.lengths.len() == n
            && self.postings.values().all(|list| {
                list.iter().all(|p| in_range(p.entry))
                    && list.windows(2).all(|w| w[0].entry < w[1].entry)
            })
            && self
                .exact
                .values()
                .all(|list| list.iter().all(|(i, _)| in_range(*i)))
            && self
                .entries
                .iter()
                .all(|e| e.neighbours.iter().all(|i| in_range(*i)))
            && self.average.iter().all(|a| a.is_finite() && *a >= 0.0)
    }

    /// Serializes the collection for the derived cache.
    pub fn to_bytes(&self) -> Result<Vec<u8>, postcard::Error> {
        postcard::to_allocvec(self)
    }

    /// Reads a cached collection; any malformed input is an error, never a panic.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, postcard::Error> {
        postcard::from_bytes(bytes)
    }
}
