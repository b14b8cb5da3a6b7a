//! The in-memory search collection built from a projection: postings with per-field term
//! frequencies, field lengths, and the exact-identity tables.

use std::collections::HashMap;

use doc_bridge_model::projection::RetrievalIndexV1;
use doc_bridge_model::retrieval::Field;

use crate::lexicon;

/// Number of indexed fields.
pub const FIELDS: usize = Field::ALL.len();

/// One entry's term frequencies for one term, by field (in `Field::ALL` order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting {
    /// Index into the projection's entries.
    pub entry: u32,
    /// Term frequency per field, saturated at `u16::MAX`.
    pub tf: [u16; FIELDS],
}

/// What an exact name matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
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

/// The searchable collection.
#[derive(Debug, Clone)]
pub struct Collection<'p> {
    /// The projection it was built from.
    pub projection: &'p RetrievalIndexV1,
    /// Postings by term.
    pub postings: HashMap<String, Vec<Posting>>,
    /// Field lengths in tokens per entry.
    pub lengths: Vec<[u32; FIELDS]>,
    /// Average field lengths.
    pub average: [f64; FIELDS],
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

impl<'p> Collection<'p> {
    /// Tokenizes every entry's fields and builds the tables.
    pub fn build(projection: &'p RetrievalIndexV1) -> Self {
        let mut postings: HashMap<String, Vec<Posting>> = HashMap::new();
        let mut lengths = Vec::with_capacity(projection.entries.len());
        let mut totals = [0f64; FIELDS];
        let mut counts: HashMap<String, [u16; FIELDS]> = HashMap::new();
        let mut exact: HashMap<String, Vec<(u32, ExactKind)>> = HashMap::new();
        for (index, entry) in projection.entries.iter().enumerate() {
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            counts.clear();
            let mut length = [0u32; FIELDS];
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
                            let mut tf = [0u16; FIELDS];
                            tf[f] = 1;
                            counts.insert(token.to_owned(), tf);
                        }
                    }
                });
                totals[f] += f64::from(length[f]);
            }
            let mut terms: Vec<(&String, &[u16; FIELDS])> = counts.iter().collect();
            terms.sort_by(|a, b| a.0.cmp(b.0));
            for (term, tf) in terms {
                postings.entry(term.clone()).or_default().push(Posting {
                    entry: index,
                    tf: *tf,
                });
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
                    let path = entry.path.as_str();
                    if let Some((without_ext, _)) = path.rsplit_once('.') {
                        add(without_ext, ExactKind::Path);
                    }
                }
            }
            for symbol in &entry.symbols {
                add(
                    &symbol.name,
                    if symbol.declared {
                        ExactKind::Symbol
                    } else {
                        ExactKind::ReexportedSymbol
                    },
                );
            }
        }
        let n = projection.entries.len().max(1) as f64;
        let mut average = [0f64; FIELDS];
        for f in 0..FIELDS {
            average[f] = totals[f] / n;
        }
        Collection {
            projection,
            postings,
            lengths,
            average,
            exact,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.projection.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.projection.entries.is_empty()
    }
}
