//! Building a collection from a projection: tokenize every entry (in parallel), merge postings
//! in entry order, and lay the columns out as an image.

use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use doc_bridge_model::projection::{ProjectedEntry, RetrievalIndexV1};
use doc_bridge_model::retrieval::Field;

use super::image::{self, Section};
use super::{Collection, ExactKind, FIELD_COUNT, normalize_name};
use crate::lexicon;
use crate::table::{TableBuilder, write_varint};

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
        self.flags.push(flags);
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
        // term → (encoded postings, count, next entry index for delta coding)
        // Fx, not SipHash: terms are the repository's own text, and the merge below hashes every
        // term of every entry (the table is sorted afterwards, so map order never shows).
        let mut postings: FxHashMap<String, (Vec<u8>, u32, u32)> = FxHashMap::default();
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
        let mut columns = Columns::default();
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
            columns.push(entry, length, &neighbours);
        }
        // Postings were appended in entry order, so each list is sorted by entry.
        let n = projection.entries.len().max(1) as f64;
        let averages: Vec<u8> = totals
            .iter()
            .flat_map(|total| (total / n).to_bits().to_le_bytes())
            .collect();
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
        let postings = posting_table.build();
        let exact = exact_table.build();
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
        }
    }
}
