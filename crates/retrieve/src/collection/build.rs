//! Building a collection from a projection: tokenize every entry (in parallel), merge postings
//! in entry order, and lay the columns out as an image.

use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use doc_bridge_model::projection::{ProjectedEntry, RetrievalIndexV1};
use doc_bridge_model::retrieval::Field;
use doc_bridge_model::timing::phase;

use super::analyse::{AnalysedEntry, SHARDS, TermList, analyse};
use super::image::{self, Section};
use super::{Collection, ExactKind, FIELD_COUNT, normalize_name, stem_without_order, style_key};
use crate::table::{TableBuilder, TableBytes, write_varint};
use crate::token_memo::TokenMemo;

/// One term's postings as they are appended, in entry order.
#[derive(Default)]
struct PostingList {
    bytes: Vec<u8>,
    count: u32,
    /// One past the last entry appended (postings are delta-coded from it).
    next: u32,
}

impl PostingList {
    /// Appends `entry`, with its frequencies already in posting form (see
    /// `analyse::encode_frequencies`).
    fn push(&mut self, entry: u32, frequencies: &[u8]) {
        write_varint(&mut self.bytes, u64::from(entry - self.next));
        self.bytes.extend_from_slice(frequencies);
        self.count += 1;
        self.next = entry + 1;
    }
}

/// Every term's posting list of one shard. A term is found by its vocabulary and id first
/// (nearly every lookup hashes one integer), and a pair not seen before by its text: terms of
/// different threads' vocabularies meet there.
#[derive(Default)]
struct Postings {
    // Fx, not SipHash: the keys are numbers and the repository's own text, and the table is
    // sorted afterwards, so map order never shows.
    lists: Vec<(Arc<str>, PostingList)>,
    by_text: FxHashMap<Arc<str>, usize>,
    by_term: FxHashMap<u64, usize>,
}

impl Postings {
    /// The list of term `id` of vocabulary number `vocabulary`, whose texts are `texts`; `None`
    /// for an id the vocabulary does not have (never, for ids its entries hold).
    fn list(&mut self, vocabulary: u32, id: u32, texts: &[Arc<str>]) -> Option<&mut PostingList> {
        let key = u64::from(vocabulary) << 32 | u64::from(id);
        let slot = match self.by_term.get(&key) {
            Some(slot) => *slot,
            None => {
                let term = texts.get(id as usize)?;
                let slot = match self.by_text.get(&**term) {
                    Some(slot) => *slot,
                    None => {
                        self.lists.push((Arc::clone(term), PostingList::default()));
                        self.by_text.insert(Arc::clone(term), self.lists.len() - 1);
                        self.lists.len() - 1
                    }
                };
                self.by_term.insert(key, slot);
                slot
            }
        };
        self.lists.get_mut(slot).map(|(_, list)| list)
    }
}

/// The per-entry columns of the image, filled in entry order.
#[derive(Default)]
struct Columns {
    lengths: Vec<u8>,
    numbers: Vec<u8>,
    flags: Vec<u8>,
    string_ends: Vec<u8>,
    strings: Vec<u8>,
    neighbour_ends: Vec<u8>,
    neighbours: Vec<u8>,
}

impl Columns {
    fn push_string(&mut self, text: &str) {
        self.strings.extend_from_slice(text.as_bytes());
        let end = u32::try_from(self.strings.len()).unwrap_or(u32::MAX);
        self.string_ends.extend_from_slice(&end.to_le_bytes());
    }

    fn push(&mut self, entry: &ProjectedEntry, length: &[u32; FIELD_COUNT], neighbours: &[u32]) {
        for l in length {
            self.lengths.extend_from_slice(&l.to_le_bytes());
        }
        self.numbers
            .extend_from_slice(&entry.signal.to_bits().to_le_bytes());
        self.numbers
            .extend_from_slice(&entry.graph.pagerank.to_bits().to_le_bytes());
        let for_agents = entry
            .audience
            .iter()
            .any(|a| a.eq_ignore_ascii_case("agent") || a.eq_ignore_ascii_case("agents"));
        let flags = [
            (entry.agent_doc, image::AGENT_DOC),
            (for_agents, image::FOR_AGENTS),
            (entry.language.is_some(), image::HAS_LANGUAGE),
            (entry.target.is_some(), image::HAS_TARGET),
        ]
        .iter()
        .fold(
            0u8,
            |flags, (set, bit)| if *set { flags | bit } else { flags },
        );
        let role = entry
            .tags
            .iter()
            .find_map(|t| crate::file_role::FileRole::from_tag(t))
            .map_or(0, crate::file_role::FileRole::code);
        self.flags
            .push(flags | (role << image::ROLE_SHIFT) & image::ROLE_MASK);
        // In the order of the slots in `image`.
        for text in [
            entry.id.as_str(),
            entry.kind.as_str(),
            entry.path.as_str(),
            entry.title.as_str(),
            entry.content_hash.as_str(),
            entry.provenance.as_str(),
            entry.language.as_deref().unwrap_or(""),
            entry.target.as_deref().unwrap_or(""),
        ] {
            self.push_string(text);
        }
        for n in neighbours {
            self.neighbours.extend_from_slice(&n.to_le_bytes());
        }
        let end = u32::try_from(self.neighbours.len() / 4).unwrap_or(u32::MAX);
        self.neighbour_ends.extend_from_slice(&end.to_le_bytes());
    }
}

impl Collection {
    /// Tokenizes every entry's fields and lays out the image.
    pub fn build(projection: &RetrievalIndexV1) -> Self {
        Self::build_with(projection, None)
    }

    /// [`Collection::build`], taking each entry's tokens from `tokens` where its texts are
    /// the ones tokenized before (a long-running process's memo, [`TokenMemo`]); the collection
    /// is the same.
    pub fn build_with(projection: &RetrievalIndexV1, tokens: Option<&TokenMemo>) -> Self {
        // Tokenizing is the expensive part and independent per entry: in parallel. Then the
        // postings (merged per shard of terms, each in entry order so every list stays sorted),
        // the exact names and the per-entry columns, side by side (the last two are mostly
        // sequential: beside the others, they keep both cores busy).
        let analysed = phase("collection: tokenize", || {
            analyse_entries(projection, tokens)
        });
        let ((postings, totals), (exact, columns)) = rayon::join(
            || phase("collection: postings", || postings_table(&analysed)),
            || {
                rayon::join(
                    || phase("collection: names", || exact_names_table(projection)),
                    || phase("collection: columns", || columns(projection, &analysed)),
                )
            },
        );
        // Freeing every entry's terms (a reference count and an allocation each) is work
        // nothing waits for: on the pool, when a thread is free.
        rayon::spawn(move || drop(analysed));
        let scored = projection
            .entries
            .iter()
            .filter(|e| !is_unscored(e))
            .count();
        let n = scored.max(1) as f64;
        let averages: Vec<u8> = totals
            .iter()
            .map(|total| total / n)
            .chain([scored as f64])
            .flat_map(|value| value.to_bits().to_le_bytes())
            .collect();
        let mut sections: [&[u8]; image::SECTIONS] = [&[]; image::SECTIONS];
        for (section, bytes) in [
            (Section::Averages, averages.as_slice()),
            (Section::Lengths, &columns.lengths),
            (Section::Numbers, &columns.numbers),
            (Section::Flags, &columns.flags),
            (Section::StringEnds, &columns.string_ends),
            (Section::Strings, &columns.strings),
            (Section::NeighbourEnds, &columns.neighbour_ends),
            (Section::Neighbours, &columns.neighbours),
            (Section::PostingKeys, &postings.keys),
            (Section::PostingRecords, &postings.records),
            (Section::PostingValues, &postings.values),
            (Section::ExactKeys, &exact.keys),
            (Section::ExactRecords, &exact.records),
            (Section::ExactValues, &exact.values),
        ] {
            sections[section as usize] = bytes;
        }
        let (bytes, layout) = image::write(projection.entries.len(), sections);
        let average = std::array::from_fn(|f| totals[f] / n);
        Collection {
            end: bytes.len(),
            storage: super::Storage::Owned(bytes),
            base: 0,
            layout,
            average,
            scored,
        }
    }
}

/// Per entry, the entries whose outbound edges reach it, as the projection's outbound lists
/// give them: ordered as edges are (kind, the other entry's id, confidence) and cut at
/// `MAX_EDGES`, as each entry's own outbound list is.
fn inbound_neighbours(
    projection: &RetrievalIndexV1,
    by_id: &FxHashMap<&str, u32>,
) -> Vec<Vec<u32>> {
    let mut edges: Vec<Vec<(&str, &str, &str, u32)>> = vec![Vec::new(); projection.entries.len()];
    for (from, entry) in projection.entries.iter().enumerate() {
        let from = u32::try_from(from).unwrap_or(u32::MAX);
        for edge in &entry.graph.outbound {
            if let Some(&to) = by_id.get(edge.entity.as_str())
                && let Some(list) = edges.get_mut(to as usize)
            {
                list.push((&edge.kind, &entry.id, &edge.confidence, from));
            }
        }
    }
    edges
        .into_iter()
        .map(|mut list| {
            list.sort_unstable();
            list.dedup();
            list.truncate(crate::projection::MAX_EDGES);
            list.into_iter().map(|(_, _, _, from)| from).collect()
        })
        .collect()
}

/// Whether BM25 leaves the entry out: a `file` entry (a file no analyzer reads) is found by its
/// exact names only, and counts in no statistic ([`Collection::scored_len`]).
fn is_unscored(entry: &ProjectedEntry) -> bool {
    entry.kind == "file"
}

/// Every entry's fields tokenized (through `memo`, if any); an unscored entry has no terms.
fn analyse_entries(
    projection: &RetrievalIndexV1,
    memo: Option<&TokenMemo>,
) -> Vec<Arc<AnalysedEntry>> {
    projection
        .entries
        .par_iter()
        .map(|entry| {
            if is_unscored(entry) {
                return Arc::new(analyse(&[""; FIELD_COUNT]));
            }
            let texts: [&str; FIELD_COUNT] = std::array::from_fn(|f| {
                entry
                    .fields
                    .get(Field::ALL[f].name())
                    .map(String::as_str)
                    .unwrap_or("")
            });
            match memo {
                Some(memo) => memo.get_or_analyse(&texts, analyse),
                None => Arc::new(analyse(&texts)),
            }
        })
        .collect()
}

/// The posting table and the total tokens per field. Each shard of terms is merged on its own
/// (terms never cross shards), entries in order.
fn postings_table(analysed: &[Arc<AnalysedEntry>]) -> (TableBytes, [f64; FIELD_COUNT]) {
    // The vocabularies the entries' ids refer to (one per tokenizing thread, more when one
    // started over), numbered in order of first use, and each entry's number.
    let mut vocabularies: Vec<&TermList> = Vec::new();
    let mut numbers: FxHashMap<*const TermList, u32> = FxHashMap::default();
    let entry_vocabulary: Vec<u32> = analysed
        .iter()
        .map(|entry| {
            let vocabulary = &**entry.vocabulary();
            *numbers
                .entry(std::ptr::from_ref(vocabulary))
                .or_insert_with(|| {
                    vocabularies.push(vocabulary);
                    u32::try_from(vocabularies.len() - 1).unwrap_or(u32::MAX)
                })
        })
        .collect();
    let shards: Vec<Vec<(Arc<str>, PostingList)>> = (0..SHARDS)
        .into_par_iter()
        .map(|shard| {
            let texts: Vec<_> = vocabularies.iter().map(|v| v.read()).collect();
            let mut postings = Postings::default();
            for (index, (entry, vocabulary)) in analysed.iter().zip(&entry_vocabulary).enumerate() {
                let index = u32::try_from(index).unwrap_or(u32::MAX);
                let Some(texts) = texts.get(*vocabulary as usize) else {
                    continue;
                };
                for (id, frequencies) in entry.shard(shard) {
                    if let Some(list) = postings.list(*vocabulary, id, texts) {
                        list.push(index, frequencies);
                    }
                }
            }
            postings.lists
        })
        .collect();
    let mut totals = [0f64; FIELD_COUNT];
    for entry in analysed {
        for (total, length) in totals.iter_mut().zip(entry.length) {
            *total += f64::from(length);
        }
    }
    let mut table = TableBuilder::new();
    for (term, list) in shards.into_iter().flatten() {
        table.push(term, list.bytes, list.count);
    }
    (table.build(), totals)
}

/// The per-entry columns.
fn columns(projection: &RetrievalIndexV1, analysed: &[Arc<AnalysedEntry>]) -> Columns {
    let by_id: FxHashMap<&str, u32> = projection
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.as_str(), u32::try_from(i).unwrap_or(u32::MAX)))
        .collect();
    let inbound = inbound_neighbours(projection, &by_id);
    let mut columns = Columns::default();
    for ((index, entry), analysed) in projection.entries.iter().enumerate().zip(analysed) {
        let index = u32::try_from(index).unwrap_or(u32::MAX);
        let mut neighbours: Vec<u32> = entry
            .graph
            .outbound
            .iter()
            .filter_map(|edge| by_id.get(edge.entity.as_str()).copied())
            .chain(inbound[index as usize].iter().copied())
            .filter(|n| *n != index)
            .collect();
        neighbours.sort_unstable();
        neighbours.dedup();
        columns.push(entry, &analysed.length, &neighbours);
    }
    columns
}

/// The exact-name table: every name of every entry, with the entries it names in entry order.
fn exact_names_table(projection: &RetrievalIndexV1) -> TableBytes {
    // Every entry's exact names, on all cores: (name, entry, kind), sorted and without repeats,
    // is each name's list of entries in entry order.
    let mut exact: Vec<(String, u32, ExactKind)> = projection
        .entries
        .par_iter()
        .enumerate()
        .flat_map_iter(|(index, entry)| {
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            exact_names_of(entry, index)
        })
        .collect();
    exact.par_sort_unstable();
    exact.dedup();
    let mut table = TableBuilder::new();
    let mut names = exact.into_iter().peekable();
    while let Some((name, entry, kind)) = names.next() {
        let mut bytes = Vec::new();
        let mut count = 0u32;
        let mut item = Some((entry, kind));
        while let Some((entry, kind)) = item {
            write_varint(&mut bytes, u64::from(entry));
            bytes.push(kind as u8);
            count += 1;
            item = names
                .next_if(|(next, _, _)| *next == name)
                .map(|(_, entry, kind)| (entry, kind));
        }
        table.push(name, bytes, count);
    }
    table.build()
}

/// The names that name `entry` (at `index`) exactly, each with what it matched; repeats are
/// removed by the caller.
fn exact_names_of(entry: &ProjectedEntry, index: u32) -> Vec<(String, u32, ExactKind)> {
    let mut out = Vec::new();
    let mut add_key = |key: String, kind: ExactKind| {
        if !key.is_empty() {
            out.push((key, index, kind));
        }
    };
    // A name as written, and (for names people type in another case style) by its words.
    let mut add = |name: &str, kind: ExactKind, any_style: bool| {
        let normalized = normalize_name(name);
        let styled = any_style
            .then(|| style_key(name))
            .filter(|key| *key != normalized);
        add_key(normalized, kind);
        if let Some(key) = styled {
            add_key(key, kind);
        }
    };
    add(&entry.id, ExactKind::Id, false);
    for alias in &entry.aliases {
        add(alias, ExactKind::Id, false);
    }
    if entry.kind != "intent" {
        add(entry.path.as_str(), ExactKind::Path, false);
        if entry.kind == "file" {
            // A file no analyzer reads is named by its file name and by its path and path
            // suffixes as written, extension included: `Dockerfile`, `docker-compose.yml`,
            // `workflows/ci.yml` (a bare stem would let `docker` name `docker.png`).
            add(entry.path.file_name(), ExactKind::Path, false);
            let path = entry.path.as_str();
            let starts = path.match_indices('/').map(|(i, _)| i + 1);
            for start in starts.collect::<Vec<_>>().iter().rev().skip(1) {
                add(&path[*start..], ExactKind::Path, false);
            }
        }
        if matches!(entry.kind.as_str(), "document" | "module") {
            add(entry.path.file_name(), ExactKind::Path, false);
            let stem = entry.path.file_stem();
            add(stem, ExactKind::Path, true);
            if let Some(unordered) = stem_without_order(stem) {
                add(unordered, ExactKind::Path, true);
            }
            let without_ext = entry
                .path
                .as_str()
                .rsplit_once('.')
                .map_or(entry.path.as_str(), |(w, _)| w);
            if without_ext != entry.path.as_str() {
                add(without_ext, ExactKind::Path, false);
            }
            // Every suffix of two segments or more (`flask/app.py` names `src/flask/app.py`),
            // with and without the extension.
            let segments: Vec<usize> = entry
                .path
                .as_str()
                .match_indices('/')
                .map(|(i, _)| i + 1)
                .collect();
            // Start points of suffixes, leaving at least two segments.
            for start in segments.iter().take(segments.len().saturating_sub(1)) {
                add(&entry.path.as_str()[*start..], ExactKind::Path, false);
                if let Some(suffix) = without_ext.get(*start..) {
                    add(suffix, ExactKind::Path, false);
                }
            }
        }
    }
    for mention in &entry.mentions {
        add(mention, ExactKind::Mention, true);
    }
    if entry.kind == "document" {
        if !entry.title.trim().is_empty() {
            add(&entry.title, ExactKind::Title, true);
        }
        if let Some(headings) = entry.fields.get(Field::Headings.name()) {
            for heading in headings.lines().filter(|h| !h.trim().is_empty()) {
                add(heading, ExactKind::Heading, true);
            }
        }
    }
    for symbol in &entry.symbols {
        let kind = if symbol.declared {
            ExactKind::Symbol
        } else {
            ExactKind::ReexportedSymbol
        };
        add(&symbol.name, kind, true);
        if let Some((_, member)) = symbol.name.rsplit_once('.') {
            add(member, ExactKind::Member, false);
        }
    }

    out
}
