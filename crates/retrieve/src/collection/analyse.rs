//! Tokenizing entries for the collection: term frequencies per field, through a per-thread
//! vocabulary that remembers what each word expands to.
//!
//! Speed only, never meaning: a word's tokens are a pure function of the word
//! ([`lexicon::expand`]), so the vocabulary maps each word seen on this thread to the ids of its
//! tokens and the tokenizer's folding, stopword, camel-case and stemming work is paid once per
//! distinct word instead of once per occurrence. Counting is by id in a dense array, so a token
//! costs one hash of its word and no allocation. The result is the same as counting
//! [`lexicon::tokenize`]'s output (a proptest holds it there).

use std::cell::RefCell;
use std::sync::{Arc, RwLock, RwLockReadGuard};

use rustc_hash::FxHashMap;

use super::FIELD_COUNT;
use crate::lexicon::{self, Segment};
use crate::table::{read_varint, write_varint};

/// Number of groups terms are split into by [`shard_of`], so postings can be merged on all
/// cores (each group on its own). A constant: the groups never show in the output.
pub(crate) const SHARDS: usize = 16;

/// The group of a term: from its text alone, so every thread puts a term in the same one.
fn shard_of(term: &str) -> u8 {
    use std::hash::BuildHasher;
    // The top bits: Fx mixes them best.
    (rustc_hash::FxBuildHasher.hash_one(term) >> 60) as u8
}

/// A vocabulary's token texts by id: appended to by the thread whose vocabulary it is, read
/// when postings are merged, through the entries that refer to it (which keep it alive).
#[derive(Debug, Default)]
pub(crate) struct TermList {
    texts: RwLock<Vec<Arc<str>>>,
}

impl TermList {
    fn push(&self, text: Arc<str>) {
        self.texts
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(text);
    }

    /// The texts, by id.
    pub(crate) fn read(&self) -> RwLockReadGuard<'_, Vec<Arc<str>>> {
        self.texts
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// One entry, tokenized: its terms (ids in `vocabulary`) with their per-field frequencies,
/// grouped by shard (within a shard in order of first occurrence), and its field lengths in
/// tokens.
///
/// The terms are bytes, about six per term (a corpus has millions of entry-term pairs): each
/// is its id as a varint, then its frequencies in the form a posting stores them (a byte with
/// a bit per field that has the term, then those fields' frequencies as varints), so the merge
/// copies them as they are.
#[derive(Debug)]
pub(crate) struct AnalysedEntry {
    vocabulary: Arc<TermList>,
    terms: Vec<u8>,
    /// Where each shard's group ends in `terms`.
    shard_ends: [u32; SHARDS],
    /// Tokens per field.
    pub(crate) length: [u32; FIELD_COUNT],
}

impl AnalysedEntry {
    /// The vocabulary the term ids are in.
    pub(crate) fn vocabulary(&self) -> &Arc<TermList> {
        &self.vocabulary
    }

    /// The terms of one shard: each id, with its frequencies in posting form.
    pub(crate) fn shard(&self, shard: usize) -> impl Iterator<Item = (u32, &[u8])> {
        let end = self.shard_ends.get(shard).copied().unwrap_or(0) as usize;
        let start = match shard.checked_sub(1) {
            Some(previous) => self.shard_ends.get(previous).copied().unwrap_or(0) as usize,
            None => 0,
        };
        let bytes = self.terms.get(start..end).unwrap_or_default();
        let mut at = 0;
        std::iter::from_fn(move || {
            let id = u32::try_from(read_varint(bytes, &mut at)?).ok()?;
            let from = at;
            let mask = *bytes.get(at)?;
            at += 1;
            for _ in 0..mask.count_ones() {
                read_varint(bytes, &mut at)?;
            }
            Some((id, bytes.get(from..at)?))
        })
    }
}

#[cfg(test)]
impl AnalysedEntry {
    /// One shard's terms, decoded: texts and frequencies.
    pub(crate) fn shard_terms(&self, shard: usize) -> Vec<(Arc<str>, [u16; FIELD_COUNT])> {
        let texts = self.vocabulary.read();
        self.shard(shard)
            .map(|(id, frequencies)| {
                (
                    Arc::clone(&texts[id as usize]),
                    decode_frequencies(frequencies).unwrap_or_default(),
                )
            })
            .collect()
    }

    /// Every term, decoded, shard by shard.
    pub(crate) fn terms(&self) -> Vec<(Arc<str>, [u16; FIELD_COUNT])> {
        (0..SHARDS).flat_map(|s| self.shard_terms(s)).collect()
    }
}

/// Frequencies per field in posting form: a byte with a bit per field that has the term, then
/// those fields' frequencies, as varints.
pub(crate) fn encode_frequencies(out: &mut Vec<u8>, tf: &[u16; FIELD_COUNT]) {
    let mask = tf
        .iter()
        .enumerate()
        .fold(0u8, |m, (f, t)| if *t > 0 { m | (1 << f) } else { m });
    out.push(mask);
    for t in tf.iter().filter(|t| **t > 0) {
        write_varint(out, u64::from(*t));
    }
}

/// The frequencies [`encode_frequencies`] wrote.
#[cfg(test)]
pub(crate) fn decode_frequencies(bytes: &[u8]) -> Option<[u16; FIELD_COUNT]> {
    let (&mask, _) = bytes.split_first()?;
    let mut at = 1;
    let mut tf = [0u16; FIELD_COUNT];
    for (f, t) in tf.iter_mut().enumerate() {
        if mask & (1 << f) != 0 {
            *t = u16::try_from(read_varint(bytes, &mut at)?).ok()?;
        }
    }
    Some(tf)
}

/// Distinct words remembered per thread before the vocabulary starts over (bounds memory on
/// huge corpora; checked between entries, so ids are stable within one).
const WORD_LIMIT: usize = 1 << 18;

/// Words longer than this are expanded each time rather than remembered: they are rare (paths,
/// hashes, long identifiers) and would only fill the vocabulary.
const LONGEST_REMEMBERED: usize = 48;

thread_local! {
    static VOCABULARY: RefCell<Vocabulary> = RefCell::new(Vocabulary::default());
}

/// A thread's words and tokens, and the counts of the entry being analysed.
#[derive(Default)]
struct Vocabulary {
    /// Word as written, up to 16 bytes, as two numbers (see [`short_key`]) → its tokens. Most
    /// words are short, and numbers hash and compare in a few instructions; the table is as
    /// small as it can be, since it is bigger than a core's cache and its misses are what
    /// tokenizing mostly waits for.
    short_words: FxHashMap<ShortKey, Expansion>,
    /// Longer words as written → their tokens.
    words: FxHashMap<Box<str>, Expansion>,
    /// The tokens after the first of words with more than one: a count, then the ids.
    expansions: Vec<u32>,
    /// Token id → text.
    list: Arc<TermList>,
    /// Ids handed out (the length of `list`, without its lock).
    term_count: usize,
    /// Token id → shard.
    shards: Vec<u8>,
    /// Token text → id.
    ids: FxHashMap<Arc<str>, u32>,
    /// Per token id, its frequencies in the entry being analysed (all zero between entries).
    counts: Vec<[u16; FIELD_COUNT]>,
    /// Ids with nonzero counts, in order of first occurrence.
    touched: Vec<u32>,
    /// The same ids grouped by shard (a buffer kept between entries).
    grouped: Vec<u32>,
    /// A new word's token ids (a buffer kept between words).
    scratch: Vec<u32>,
}

impl Vocabulary {
    fn forget_if_full(&mut self) {
        if self.short_words.len() + self.words.len() > WORD_LIMIT || self.term_count > WORD_LIMIT {
            // `counts` is all zeros here (taken at the end of every entry), only shorter.
            *self = Vocabulary::default();
        }
    }

    fn id(&mut self, token: &str) -> u32 {
        if let Some(id) = self.ids.get(token) {
            return *id;
        }
        let id = u32::try_from(self.term_count).unwrap_or(u32::MAX);
        let text: Arc<str> = Arc::from(token);
        self.list.push(Arc::clone(&text));
        self.term_count += 1;
        self.shards.push(shard_of(token));
        self.ids.insert(text, id);
        self.counts.push([0; FIELD_COUNT]);
        id
    }

    fn count(&mut self, id: u32, field: usize) {
        let Some(tf) = self.counts.get_mut(id as usize) else {
            return;
        };
        if tf.iter().all(|t| *t == 0) {
            self.touched.push(id);
        }
        tf[field] = tf[field].saturating_add(1);
    }

    /// Counts the tokens of `segment` in `field`; returns how many there were.
    fn segment(&mut self, segment: Segment<'_>, field: usize) -> u32 {
        let word = match segment {
            Segment::Word(word) if word.len() <= LONGEST_REMEMBERED => word,
            other => {
                let mut tokens = 0u32;
                lexicon::expand(other, &mut |token| {
                    let id = self.id(token);
                    self.count(id, field);
                    tokens += 1;
                });
                return tokens;
            }
        };
        let short = short_key(word);
        let known = match short {
            Some(key) => self.short_words.get(&ShortKey(key)),
            None => self.words.get(word),
        };
        let expansion = match known {
            Some(expansion) => *expansion,
            None => {
                let mut ids = std::mem::take(&mut self.scratch);
                ids.clear();
                lexicon::expand(segment, &mut |token| ids.push(self.id(token)));
                let expansion = self.expansion(&ids);
                self.scratch = ids;
                match short {
                    Some(key) => self.short_words.insert(ShortKey(key), expansion),
                    None => self.words.insert(word.into(), expansion),
                };
                expansion
            }
        };
        if expansion.first == Expansion::NONE {
            return 0;
        }
        self.count(expansion.first, field);
        if expansion.rest == Expansion::NONE {
            return 1;
        }
        let rest = expansion.rest as usize;
        let len = self.expansions.get(rest).copied().unwrap_or(0);
        for i in 1..=len as usize {
            if let Some(id) = self.expansions.get(rest + i).copied() {
                self.count(id, field);
            }
        }
        1 + len
    }

    /// Records a word's tokens: the first inline, the rest (if any) in `expansions`.
    fn expansion(&mut self, ids: &[u32]) -> Expansion {
        let Some((&first, rest)) = ids.split_first() else {
            return Expansion::EMPTY;
        };
        if rest.is_empty() {
            return Expansion {
                first,
                rest: Expansion::NONE,
            };
        }
        let at = u32::try_from(self.expansions.len()).unwrap_or(Expansion::NONE);
        self.expansions.push(u32::try_from(rest.len()).unwrap_or(0));
        self.expansions.extend_from_slice(rest);
        Expansion { first, rest: at }
    }

    /// The entry, leaving every count at zero again.
    fn take_entry(&mut self, length: [u32; FIELD_COUNT]) -> AnalysedEntry {
        let shard = |id: u32| usize::from(self.shards.get(id as usize).copied().unwrap_or(0));
        // Grouped by shard with a counting sort, first occurrence order kept within a shard.
        let mut counts = [0u32; SHARDS];
        for id in &self.touched {
            if let Some(count) = counts.get_mut(shard(*id)) {
                *count += 1;
            }
        }
        // Counts → where each shard's group starts.
        let mut next = [0u32; SHARDS];
        for s in 1..SHARDS {
            next[s] = next[s - 1] + counts[s - 1];
        }
        let mut grouped = std::mem::take(&mut self.grouped);
        grouped.clear();
        grouped.resize(self.touched.len(), 0);
        for id in &self.touched {
            if let Some(at) = next.get_mut(shard(*id)) {
                if let Some(slot) = grouped.get_mut(*at as usize) {
                    *slot = *id;
                }
                *at += 1;
            }
        }
        self.touched.clear();
        // `next[s]` is now where shard `s`'s group ends in `grouped`.
        let mut terms = Vec::with_capacity(grouped.len() * 6);
        let mut shard_ends = [0u32; SHARDS];
        let mut from = 0usize;
        for (s, end) in next.iter().enumerate() {
            for id in grouped.get(from..*end as usize).unwrap_or_default() {
                if let Some(tf) = self.counts.get_mut(*id as usize) {
                    write_varint(&mut terms, u64::from(*id));
                    encode_frequencies(&mut terms, &std::mem::take(tf));
                }
            }
            from = *end as usize;
            shard_ends[s] = u32::try_from(terms.len()).unwrap_or(u32::MAX);
        }
        self.grouped = grouped;
        AnalysedEntry {
            vocabulary: Arc::clone(&self.list),
            terms,
            shard_ends,
            length,
        }
    }
}

/// A remembered word's tokens: none, one (most words: no second lookup), or more (the rest in
/// [`Vocabulary::expansions`]).
#[derive(Debug, Clone, Copy)]
struct Expansion {
    /// The first token's id, or [`Expansion::NONE`] when the word has no tokens (a stopword).
    first: u32,
    /// Where the rest are in `expansions` (a count, then the ids), or [`Expansion::NONE`].
    rest: u32,
}

impl Expansion {
    const NONE: u32 = u32::MAX;
    const EMPTY: Expansion = Expansion {
        first: Expansion::NONE,
        rest: Expansion::NONE,
    };
}

/// A [`short_key`] as a table key: hashed as one number (the two halves mixed), where an
/// array would be hashed as a byte slice, a loop for every token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ShortKey([u64; 2]);

impl std::hash::Hash for ShortKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let [low, high] = self.0;
        // The high half is zero for words of up to 8 bytes; rotated, it spreads over the low
        // half's bits before the hasher's own mixing.
        state.write_u64(low ^ high.rotate_left(31).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
}

/// A word of up to 16 bytes as two numbers: its bytes, zero-padded. Distinct words give distinct
/// numbers because a word never holds a zero byte (NUL is not a word character).
///
/// Read as (at most) two overlapping loads rather than copied into a buffer first: a copy of a
/// few bytes followed by a wide load of them stalls the load (no store forwarding), and this is
/// once per token.
fn short_key(word: &str) -> Option<[u64; 2]> {
    let b = word.as_bytes();
    let n = b.len();
    let u32_at = |at: usize| {
        b.get(at..at + 4)
            .and_then(|s| s.try_into().ok())
            .map(u32::from_le_bytes)
    };
    let u64_at = |at: usize| {
        b.get(at..at + 8)
            .and_then(|s| s.try_into().ok())
            .map(u64::from_le_bytes)
    };
    let (low, high) = match n {
        0..=3 => (
            b.iter()
                .enumerate()
                .fold(0u64, |key, (i, byte)| key | u64::from(*byte) << (8 * i)),
            0,
        ),
        // Bytes n-4..n shifted into place; the overlap carries the same bits twice.
        4..=7 => (
            u64::from(u32_at(0)?) | u64::from(u32_at(n - 4)?) << (8 * (n - 4)),
            0,
        ),
        8 => (u64_at(0)?, 0),
        // Bytes n-8..n shifted down to leave 8..n.
        9..=16 => (u64_at(0)?, u64_at(n - 8)? >> (8 * (16 - n))),
        _ => return None,
    };
    Some([low, high])
}

/// Tokenizes one entry's fields (in `Field::ALL` order): a pure function of the texts.
pub(crate) fn analyse(texts: &[&str; FIELD_COUNT]) -> AnalysedEntry {
    VOCABULARY.with_borrow_mut(|vocabulary| {
        vocabulary.forget_if_full();
        let mut length = [0u32; FIELD_COUNT];
        for (field, text) in texts.iter().enumerate() {
            lexicon::segments(text, &mut |segment| {
                let tokens = vocabulary.segment(segment, field);
                length[field] = length[field].saturating_add(tokens);
            });
        }
        vocabulary.take_entry(length)
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    /// The definition: every token of `tokenize`, counted.
    fn counted(
        texts: &[&str; FIELD_COUNT],
    ) -> (BTreeMap<String, [u16; FIELD_COUNT]>, [u32; FIELD_COUNT]) {
        let mut counts: BTreeMap<String, [u16; FIELD_COUNT]> = BTreeMap::new();
        let mut length = [0u32; FIELD_COUNT];
        for (f, text) in texts.iter().enumerate() {
            lexicon::tokenize(text, &mut |token| {
                length[f] += 1;
                let tf = counts.entry(token.to_owned()).or_default();
                tf[f] = tf[f].saturating_add(1);
            });
        }
        (counts, length)
    }

    fn as_map(
        analysed: &AnalysedEntry,
    ) -> (BTreeMap<String, [u16; FIELD_COUNT]>, [u32; FIELD_COUNT]) {
        let mut map = BTreeMap::new();
        for s in 0..SHARDS {
            for (term, _) in analysed.shard_terms(s) {
                assert_eq!(usize::from(shard_of(&term)), s, "{term} in the wrong shard");
            }
        }
        for (term, tf) in analysed.terms() {
            assert!(map.insert(term.to_string(), tf).is_none(), "{term} twice");
            assert!(tf.iter().any(|t| *t > 0), "{term} with no count");
        }
        (map, analysed.length)
    }

    #[test]
    fn counts_per_field_grouped_by_shard() {
        let texts = [
            "Sessions",
            "",
            "",
            "",
            "",
            "",
            "session rotate createSession",
            "",
        ];
        let analysed = analyse(&texts);
        let first = |term: &str| {
            analysed
                .terms()
                .iter()
                .find(|(t, _)| &**t == term)
                .map(|(_, tf)| *tf)
        };
        assert_eq!(first("session"), Some([1, 0, 0, 0, 0, 0, 2, 0]));
        assert_eq!(first("creat"), Some([0, 0, 0, 0, 0, 0, 1, 0]));
        assert_eq!(analysed.terms().len(), 4);
        assert_eq!(analysed.length, [1, 0, 0, 0, 0, 0, 5, 0]);
        // Within a shard, first occurrence first.
        let (a, b) = (shard_of("createsession"), shard_of("creat"));
        if a == b {
            let group = analysed.shard_terms(usize::from(a));
            let at = |term: &str| group.iter().position(|(t, _)| &**t == term);
            assert!(at("createsession") < at("creat"));
        }
    }

    /// The definition: the bytes, zero-padded to 16.
    fn padded(word: &str) -> Option<[u64; 2]> {
        let bytes = word.as_bytes();
        let mut buffer = [0u8; 16];
        buffer.get_mut(..bytes.len())?.copy_from_slice(bytes);
        let number = u128::from_le_bytes(buffer);
        Some([number as u64, (number >> 64) as u64])
    }

    proptest! {
        #[test]
        fn short_keys_are_the_padded_bytes(word in "[a-z0-9_é]{0,18}") {
            prop_assert_eq!(short_key(&word), padded(&word));
        }
    }

    #[test]
    fn short_keys_tell_words_apart_and_long_words_have_none() {
        assert_ne!(short_key("ab"), short_key("ab0"));
        assert_ne!(short_key("ab"), short_key("ba"));
        assert!(short_key(&"x".repeat(16)).is_some());
        assert_eq!(short_key(&"x".repeat(17)), None);
    }

    #[test]
    fn a_long_word_and_cjk_are_counted_like_the_rest() {
        let long = "a".repeat(LONGEST_REMEMBERED) + "_session";
        let texts = [long.as_str(), "設定方法 設定", "", "", "", "", "", "x = 1"];
        assert_eq!(as_map(&analyse(&texts)), counted(&texts));
    }

    proptest! {
        #[test]
        fn analysis_counts_exactly_the_tokenizers_tokens(
            fields in proptest::array::uniform8(
                "([a-zA-Z]{1,9}|[0-9]{1,3}|[ .,@/_-]|the|HTTPServer|snake_case|Café|設定){0,30}"
            ),
            again in any::<bool>(),
        ) {
            let texts: [&str; FIELD_COUNT] = std::array::from_fn(|f| fields[f].as_str());
            // Twice in a row, so the second analysis reads what the first remembered.
            let first = analyse(&texts);
            let result = if again { analyse(&texts) } else { first };
            prop_assert_eq!(as_map(&result), counted(&texts));
        }
    }
}
