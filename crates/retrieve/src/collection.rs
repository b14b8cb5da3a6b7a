//! The search collection built from a projection: what ranking needs and nothing else. Owned and
//! serializable, so it can be cached under `.doc-bridge/cache/` and loaded without reading or
//! re-tokenizing the index (the cache is derived, never authoritative).

use rustc_hash::FxHashMap;
use std::sync::Arc;

use doc_bridge_model::projection::RetrievalIndexV1;
use doc_bridge_model::retrieval::Field;
use doc_bridge_model::{ContentHash, RelPath};
use serde::{Deserialize, Serialize};

use rayon::prelude::*;

use crate::lexicon;
use crate::table::{Table, TableBuilder, read_varint, write_varint};

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
#[repr(u8)]
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

impl ExactKind {
    fn from_byte(byte: u8) -> Option<Self> {
        match byte {
            0 => Some(ExactKind::Id),
            1 => Some(ExactKind::Path),
            2 => Some(ExactKind::Symbol),
            3 => Some(ExactKind::ReexportedSymbol),
            _ => None,
        }
    }
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

/// One entry's terms with their per-field frequencies, and its field lengths.
pub(crate) type AnalysedEntry = (Vec<(String, [u16; FIELD_COUNT])>, [u32; FIELD_COUNT]);

/// Tokenizes one entry's fields (in `Field::ALL` order): a pure function of the texts.
fn analyse(texts: &[&str; FIELD_COUNT]) -> AnalysedEntry {
    let mut counts: FxHashMap<String, [u16; FIELD_COUNT]> = FxHashMap::default();
    let mut length = [0u32; FIELD_COUNT];
    for (f, text) in texts.iter().enumerate() {
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
    }
    (counts.into_iter().collect(), length)
}

/// The searchable collection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Collection {
    /// Entries, in projection order (which is id order).
    pub entries: Vec<EntryMeta>,
    /// Field lengths in tokens per entry.
    pub lengths: Vec<[u32; FIELD_COUNT]>,
    /// Average field lengths.
    pub average: [f64; FIELD_COUNT],
    /// Term → encoded postings (entry deltas, field masks, frequencies).
    postings: Table,
    /// Normalized name → encoded (entry, kind) list.
    exact: Table,
}

/// A term's postings, decoded while iterated. Stops at the first malformed or out-of-range
/// posting, so a corrupt cache can shorten a list but never index out of bounds.
pub struct PostingList<'a> {
    bytes: &'a [u8],
    at: usize,
    next_entry: u64,
    remaining: u32,
    entries: usize,
}

impl Iterator for PostingList<'_> {
    type Item = Posting;

    fn next(&mut self) -> Option<Posting> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let decoded = (|| {
            let delta = read_varint(self.bytes, &mut self.at)?;
            let entry = self.next_entry.checked_add(delta)?;
            let mask = *self.bytes.get(self.at)?;
            self.at += 1;
            let mut tf = [0u16; FIELD_COUNT];
            for (f, slot) in tf.iter_mut().enumerate() {
                if mask & (1 << f) != 0 {
                    *slot =
                        u16::try_from(read_varint(self.bytes, &mut self.at)?).unwrap_or(u16::MAX);
                }
            }
            let entry = u32::try_from(entry)
                .ok()
                .filter(|e| (*e as usize) < self.entries)?;
            Some(Posting { entry, tf })
        })();
        match decoded {
            Some(posting) => {
                self.next_entry = u64::from(posting.entry) + 1;
                Some(posting)
            }
            None => {
                self.remaining = 0;
                None
            }
        }
    }
}

fn encode_posting(out: &mut Vec<u8>, previous_end: u32, entry: u32, tf: &[u16; FIELD_COUNT]) {
    write_varint(out, u64::from(entry - previous_end));
    let mask = tf
        .iter()
        .enumerate()
        .fold(0u8, |m, (f, t)| if *t > 0 { m | (1 << f) } else { m });
    out.push(mask);
    for t in tf.iter().filter(|t| **t > 0) {
        write_varint(out, u64::from(*t));
    }
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
        // term → (encoded postings, count, next entry index for delta coding)
        // Fx, not SipHash: terms are the repository's own text, and the merge below hashes every
        // term of every entry (the table is sorted afterwards, so map order never shows).
        let mut postings: FxHashMap<String, (Vec<u8>, u32, u32)> = FxHashMap::default();
        let mut lengths = Vec::with_capacity(projection.entries.len());
        let mut totals = [0f64; FIELD_COUNT];
        let mut exact: FxHashMap<String, Vec<(u32, ExactKind)>> = FxHashMap::default();
        let by_id: FxHashMap<&str, u32> = projection
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id.as_str(), u32::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        // Tokenizing is the expensive part and independent per entry: do it in parallel, then
        // merge in entry order so every posting list stays sorted.
        let memo = crate::token_memo::active();
        let analysed: Vec<Arc<AnalysedEntry>> = projection
            .entries
            .par_iter()
            .map(|entry| {
                let texts: [&str; FIELD_COUNT] = std::array::from_fn(|f| {
                    entry
                        .fields
                        .get(Field::ALL[f].name())
                        .map(String::as_str)
                        .unwrap_or("")
                });
                match &memo {
                    Some(memo) => memo.get_or_analyse(&texts, analyse),
                    None => Arc::new(analyse(&texts)),
                }
            })
            .collect();
        let mut entries = Vec::with_capacity(projection.entries.len());
        for ((index, entry), analysed) in projection.entries.iter().enumerate().zip(analysed) {
            let (terms, length) = &*analysed;
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            for (f, total) in totals.iter_mut().enumerate() {
                *total += f64::from(length[f]);
            }
            for (term, tf) in terms {
                let list = match postings.get_mut(term.as_str()) {
                    Some(list) => list,
                    None => postings.entry(term.clone()).or_insert((Vec::new(), 0, 0)),
                };
                encode_posting(&mut list.0, list.2, index, tf);
                list.1 += 1;
                list.2 = index + 1;
            }
            lengths.push(*length);

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
        // Postings were appended in entry order, so each list is sorted by entry.
        let n = projection.entries.len().max(1) as f64;
        let mut average = [0f64; FIELD_COUNT];
        for f in 0..FIELD_COUNT {
            average[f] = totals[f] / n;
        }
        let mut posting_table = TableBuilder::new();
        for (term, (bytes, count, _)) in postings {
            posting_table.push(term, bytes, count);
        }
        let mut exact_table = TableBuilder::new();
        for (name, mut list) in exact {
            list.sort();
            let mut bytes = Vec::new();
            for (entry, kind) in &list {
                write_varint(&mut bytes, u64::from(*entry));
                bytes.push(*kind as u8);
            }
            exact_table.push(name, bytes, u32::try_from(list.len()).unwrap_or(u32::MAX));
        }
        Collection {
            entries,
            lengths,
            average,
            postings: posting_table.build(),
            exact: exact_table.build(),
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

    /// Whether the per-entry tables agree with the entries (a decoded cache is untrusted input:
    /// ranking indexes by these numbers). Postings and names are checked as they are decoded.
    pub fn is_consistent(&self) -> bool {
        let n = self.entries.len();
        self.lengths.len() == n
            && self
                .entries
                .iter()
                .all(|e| e.neighbours.iter().all(|i| (*i as usize) < n))
            && self.average.iter().all(|a| a.is_finite() && *a >= 0.0)
    }

    /// A term's postings and its document frequency.
    pub fn postings(&self, term: &str) -> Option<(usize, PostingList<'_>)> {
        let (bytes, count) = self.postings.get(term)?;
        let list = PostingList {
            bytes,
            at: 0,
            next_entry: 0,
            remaining: count,
            entries: self.entries.len(),
        };
        Some((count as usize, list))
    }

    /// The entries a normalized name names exactly, with what it matched.
    pub fn exact(&self, name: &str) -> Vec<(u32, ExactKind)> {
        let Some((bytes, count)) = self.exact.get(name) else {
            return Vec::new();
        };
        let mut at = 0;
        let mut out = Vec::new();
        for _ in 0..count {
            let Some(entry) = read_varint(bytes, &mut at) else {
                break;
            };
            let Some(kind) = bytes.get(at).and_then(|k| ExactKind::from_byte(*k)) else {
                break;
            };
            at += 1;
            match u32::try_from(entry) {
                Ok(entry) if (entry as usize) < self.entries.len() => out.push((entry, kind)),
                _ => break,
            }
        }
        out
    }

    /// Number of distinct terms.
    pub fn term_count(&self) -> usize {
        self.postings.len()
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
