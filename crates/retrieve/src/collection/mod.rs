//! The search collection built from a projection: what ranking needs and nothing else, held as
//! one byte image ([`image`]) that is the same in memory and in the derived cache under
//! `.doc-bridge/cache/`. A search loads it by reading the file and checking its layout; entries,
//! postings and names are read in place when a query touches them (the cache is derived, never
//! authoritative, and every read of it is bounds-checked).

mod analyse;
mod build;
mod image;

use std::sync::Arc;

pub(crate) use analyse::AnalysedEntry;

use doc_bridge_model::retrieval::Field;

use crate::lexicon;
use crate::table::{Table, read_varint};
use image::{Layout, Section};

/// Number of indexed fields.
pub const FIELD_COUNT: usize = Field::ALL.len();

/// One entry's term frequencies for one term, by field (in `Field::ALL` order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting {
    /// Index into the entries.
    pub entry: u32,
    /// Term frequency per field, saturated at `u16::MAX`.
    pub tf: [u16; FIELD_COUNT],
}

/// What an exact name matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
    /// A document's title.
    Title,
    /// The bare name of a member (`register_blueprint` of `Flask.register_blueprint`): found
    /// for a report's references, never an identity of the whole query.
    Member,
    /// A name a document writes as inline code: the query names the page that explains it.
    Mention,
    /// One of a document's headings (`app.config.errorHandler`, `Props`): the page has a
    /// section about what the query names.
    Heading,
}

impl ExactKind {
    fn from_byte(byte: u8) -> Option<Self> {
        match byte {
            0 => Some(ExactKind::Id),
            1 => Some(ExactKind::Path),
            2 => Some(ExactKind::Symbol),
            3 => Some(ExactKind::ReexportedSymbol),
            4 => Some(ExactKind::Title),
            5 => Some(ExactKind::Member),
            6 => Some(ExactKind::Mention),
            7 => Some(ExactKind::Heading),
            _ => None,
        }
    }
}

/// Where a collection's bytes live.
#[derive(Debug, Clone)]
pub enum Storage {
    /// In memory: built here, or read from a file.
    Owned(Vec<u8>),
    /// A mapped cache file (see `cache::SearchCache::open`).
    Mapped(Arc<memmap2::Mmap>),
}

impl Storage {
    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        match self {
            Storage::Owned(bytes) => bytes,
            Storage::Mapped(map) => map,
        }
    }
}

/// The searchable collection: a checked byte image.
#[derive(Debug, Clone)]
pub struct Collection {
    /// The bytes; the image is `base..end` of them (a cache file keeps its header before and its
    /// checksum after).
    storage: Storage,
    base: usize,
    end: usize,
    layout: Layout,
    average: [f64; FIELD_COUNT],
    /// How many entries BM25 scores: every one but `file` entries ([`Collection::scored_len`]).
    scored: usize,
}

impl PartialEq for Collection {
    fn eq(&self, other: &Self) -> bool {
        self.image() == other.image()
    }
}

/// One entry of a [`Collection`], read in place. Strings that do not decode (a corrupt cache)
/// read as empty.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    collection: &'a Collection,
    index: usize,
}

impl<'a> Entry<'a> {
    fn string(&self, slot: usize) -> &'a str {
        self.collection.string(self.index * image::STRINGS + slot)
    }

    fn flags(&self) -> u8 {
        self.collection
            .section(Section::Flags)
            .get(self.index)
            .copied()
            .unwrap_or(0)
    }

    fn number(&self, which: usize) -> f64 {
        let numbers = self.collection.section(Section::Numbers);
        image::read_f64(numbers, self.index * 16 + which * 8).unwrap_or(0.0)
    }

    /// Entry id.
    pub fn id(&self) -> &'a str {
        self.string(image::ID)
    }

    /// Entry kind.
    pub fn kind(&self) -> &'a str {
        self.string(image::KIND)
    }

    /// Whether the entry is of `kind` (compares bytes: no decoding on the ranking's hot path).
    pub fn is_kind(&self, kind: &str) -> bool {
        self.collection
            .string_bytes(self.index * image::STRINGS + image::KIND)
            == kind.as_bytes()
    }

    /// File or directory.
    pub fn path(&self) -> &'a str {
        self.string(image::PATH)
    }

    /// Display title.
    pub fn title(&self) -> &'a str {
        self.string(image::TITLE)
    }

    /// Content hash (evidence).
    pub fn content_hash(&self) -> &'a str {
        self.string(image::CONTENT_HASH)
    }

    /// `observed`, `declared` or `proposed`.
    pub fn provenance(&self) -> &'a str {
        self.string(image::PROVENANCE)
    }

    /// A document's language.
    pub fn language(&self) -> Option<&'a str> {
        (self.flags() & image::HAS_LANGUAGE != 0).then(|| self.string(image::LANGUAGE))
    }

    /// For routes: the entity they lead to.
    pub fn target(&self) -> Option<&'a str> {
        (self.flags() & image::HAS_TARGET != 0).then(|| self.string(image::TARGET))
    }

    /// Curated agent documentation.
    pub fn agent_doc(&self) -> bool {
        self.flags() & image::AGENT_DOC != 0
    }

    /// Written for agents (audience `agent`).
    pub fn for_agents(&self) -> bool {
        self.flags() & image::FOR_AGENTS != 0
    }

    /// The file's role (test, example, ...), when it has one.
    pub fn role(&self) -> Option<crate::file_role::FileRole> {
        crate::file_role::FileRole::from_code(
            (self.flags() & image::ROLE_MASK) >> image::ROLE_SHIFT,
        )
    }

    /// Accepted agent signal (clamp before use: a corrupt cache can hold anything).
    pub fn signal(&self) -> f64 {
        self.number(0)
    }

    /// PageRank.
    pub fn pagerank(&self) -> f64 {
        self.number(1)
    }

    /// Field lengths in tokens.
    pub fn lengths(&self) -> [u32; FIELD_COUNT] {
        let lengths = self.collection.section(Section::Lengths);
        let base = self.index * FIELD_COUNT * 4;
        std::array::from_fn(|f| image::read_u32(lengths, base + f * 4).unwrap_or(0))
    }

    /// Entries one proximity edge away (either direction), ascending; out-of-range references
    /// (a corrupt cache) are skipped.
    pub fn neighbours(self) -> impl Iterator<Item = usize> + 'a {
        let collection = self.collection;
        let list = image::span(collection.section(Section::NeighbourEnds), self.index)
            .and_then(|(start, end)| {
                collection
                    .section(Section::Neighbours)
                    .get(start.checked_mul(4)?..end.checked_mul(4)?)
            })
            .unwrap_or_default();
        let n = collection.len();
        list.chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .filter(move |i| *i < n)
    }
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

/// A name's key whatever its case style: the words of `workerOptions`, `worker_options`,
/// `worker-options`, `Worker Options` and `worker.options` are `worker-options`. Words are
/// runs of letters, digits, `$` and `@`, split also where a lower-case letter meets an upper-case
/// one. Empty when there is no word.
pub fn style_key(text: &str) -> String {
    let mut key = String::with_capacity(text.len());
    let mut previous_lower = false;
    let mut in_word = false;
    for c in text.chars() {
        if c.is_alphanumeric() || c == '$' || c == '@' {
            let boundary = previous_lower && c.is_uppercase();
            if (!in_word || boundary) && !key.is_empty() {
                key.push('-');
            }
            key.extend(c.to_lowercase());
            previous_lower = c.is_lowercase() || c.is_ascii_digit();
            in_word = true;
        } else {
            in_word = false;
            previous_lower = false;
        }
    }
    // Already lowercase: only accents are left to fold.
    if key.is_ascii() {
        key
    } else {
        lexicon::fold(&key)
    }
}

/// A file stem without the ordering prefix documentation sites put in front (`02-$state` is
/// `$state`, `01_intro` is `intro`); `None` when there is none or nothing would be left.
pub fn stem_without_order(stem: &str) -> Option<&str> {
    let digits = stem.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let rest = &stem[digits..];
    let trimmed = rest.trim_start_matches(['-', '_', '.']);
    (trimmed.len() < rest.len() && !trimmed.is_empty()).then_some(trimmed)
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
    /// A collection over an image that runs from `base` to the end of `bytes` (as
    /// [`Collection::image`] gives it); `None` when the layout does not check out.
    pub fn from_image(bytes: Vec<u8>, base: usize) -> Option<Self> {
        let end = bytes.len();
        Self::from_storage(Storage::Owned(bytes), base, end)
    }

    /// A collection over the image at `base..end` of `storage`; `None` when the layout does not
    /// check out.
    pub fn from_storage(storage: Storage, base: usize, end: usize) -> Option<Self> {
        let bytes = storage.as_slice().get(..end)?;
        let layout = Layout::read(bytes, base)?;
        let averages = layout.section(bytes, Section::Averages);
        let mut average = [0f64; FIELD_COUNT];
        for (f, slot) in average.iter_mut().enumerate() {
            *slot = image::read_f64(averages, f * 8).filter(|a| a.is_finite() && *a >= 0.0)?;
        }
        let scored = image::read_f64(averages, FIELD_COUNT * 8)
            .filter(|n| n.is_finite() && *n >= 0.0 && *n <= layout.entries as f64)?;
        Some(Collection {
            storage,
            base,
            end,
            layout,
            average,
            scored: scored as usize,
        })
    }

    /// The image: what the search cache stores, and what [`Collection::from_image`] reads.
    pub fn image(&self) -> &[u8] {
        self.storage
            .as_slice()
            .get(self.base..self.end)
            .unwrap_or_default()
    }

    fn section(&self, section: Section) -> &[u8] {
        self.layout.section(self.storage.as_slice(), section)
    }

    /// The bytes of the `slot`-th string of the image (entry × [`image::STRINGS`] + field).
    fn string_bytes(&self, slot: usize) -> &[u8] {
        image::span(self.section(Section::StringEnds), slot)
            .and_then(|(start, end)| self.section(Section::Strings).get(start..end))
            .unwrap_or_default()
    }

    /// The `slot`-th string, or "" when it does not decode.
    fn string(&self, slot: usize) -> &str {
        std::str::from_utf8(self.string_bytes(slot)).unwrap_or_default()
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.layout.entries
    }

    /// How many entries BM25 scores, the N of its idf: every entry but `file` entries, which
    /// have no postings and no lengths, so that a repository's data files, images and templates
    /// leave the scores of its documents and modules as they are.
    pub fn scored_len(&self) -> usize {
        self.scored
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `index` (in projection order, which is id order); callers pass indexes below
    /// [`Collection::len`], which every posting, name list and neighbour list guarantees.
    pub fn entry(&self, index: usize) -> Entry<'_> {
        Entry {
            collection: self,
            index,
        }
    }

    /// Every entry, in projection order.
    pub fn entries(&self) -> impl Iterator<Item = Entry<'_>> {
        (0..self.len()).map(|index| self.entry(index))
    }

    /// Average field lengths.
    pub fn average(&self) -> [f64; FIELD_COUNT] {
        self.average
    }

    fn postings_table(&self) -> Table<'_> {
        Table {
            keys: self.section(Section::PostingKeys),
            records: self.section(Section::PostingRecords),
            values: self.section(Section::PostingValues),
        }
    }

    fn exact_table(&self) -> Table<'_> {
        Table {
            keys: self.section(Section::ExactKeys),
            records: self.section(Section::ExactRecords),
            values: self.section(Section::ExactValues),
        }
    }

    /// A term's postings and its document frequency.
    pub fn postings(&self, term: &str) -> Option<(usize, PostingList<'_>)> {
        let (bytes, count) = self.postings_table().get(term)?;
        let list = PostingList {
            bytes,
            at: 0,
            next_entry: 0,
            remaining: count,
            entries: self.len(),
        };
        Some((count as usize, list))
    }

    /// The entries a normalized name names exactly, with what it matched.
    pub fn exact(&self, name: &str) -> Vec<(u32, ExactKind)> {
        let Some((bytes, count)) = self.exact_table().get(name) else {
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
                Ok(entry) if (entry as usize) < self.len() => out.push((entry, kind)),
                _ => break,
            }
        }
        out
    }

    /// Number of distinct terms.
    pub fn term_count(&self) -> usize {
        self.postings_table().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_exact_kind_reads_back_from_the_byte_it_is_written_as() {
        for kind in [
            ExactKind::Id,
            ExactKind::Path,
            ExactKind::Symbol,
            ExactKind::ReexportedSymbol,
            ExactKind::Title,
            ExactKind::Member,
            ExactKind::Mention,
            ExactKind::Heading,
        ] {
            assert_eq!(ExactKind::from_byte(kind as u8), Some(kind));
        }
        assert_eq!(ExactKind::from_byte(8), None);
    }

    #[test]
    fn style_keys_are_the_words_whatever_the_case_style() {
        for name in [
            "workerOptions",
            "worker_options",
            "worker-options",
            "Worker Options",
        ] {
            assert_eq!(style_key(name), "worker-options", "{name}");
        }
        assert_eq!(style_key("$state.snapshot"), "$state-snapshot");
        assert_eq!(style_key("--"), "");
        assert_eq!(stem_without_order("02-$state"), Some("$state"));
        assert_eq!(stem_without_order("01_intro"), Some("intro"));
        assert_eq!(stem_without_order("2fa"), None);
        assert_eq!(stem_without_order("404"), None);
    }
}
