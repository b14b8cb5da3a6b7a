//! The lexicon (`lexiconVersion: 1`): one tokenizer for indexing and for queries.
//!
//! Text is split on anything but letters, digits and `@ / _ -`. Each raw token is lowercased and
//! accent-folded and emitted whole, and when it is compound (`createSession`, `snake_case`,
//! `kebab-case`, `a/b/c`, `@scope/name`) its parts are emitted too. Tokens under two characters
//! and English stopwords are dropped; plain words are stemmed (English Porter2, frozen by the
//! `rust-stemmers` release, so the stems never move under a version). CJK runs become unigrams
//! and bigrams, kept as written (a voicing mark is part of a kana, not an accent). Any change
//! here is a new `lexiconVersion`.

use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// English stopwords: function words that carry no topic.
const STOPWORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "me",
    "more",
    "most",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "now",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// Distinct words memoized per thread before the memo starts over (bounds memory on huge corpora).
const MEMO_LIMIT: usize = 1 << 18;

thread_local! {
    // Fx: the words are the repository's own text (as for the collection's term table), and
    // this is hashed once per token.
    static STEMS: std::cell::RefCell<rustc_hash::FxHashMap<String, String>> =
        std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

/// The stopwords as a set: one hash and one comparison per token instead of a binary search.
static STOPWORD_SET: LazyLock<rustc_hash::FxHashSet<&'static str>> =
    LazyLock::new(|| STOPWORDS.iter().copied().collect());

fn is_stopword(token: &str) -> bool {
    STOPWORD_SET.contains(token)
}

/// Whether a character belongs to a script written without spaces (CJK ideographs, kana, hangul).
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF
        | 0xAC00..=0xD7AF | 0x1100..=0x11FF | 0x3130..=0x318F | 0x20000..=0x2FFFF)
}

fn is_separator(c: char) -> bool {
    matches!(c, '@' | '/' | '_' | '-')
}

/// Whether `c` can be part of a raw token (CJK runs are segmented apart).
pub(crate) fn is_word_char(c: char) -> bool {
    (c.is_alphanumeric() && !is_cjk(c)) || is_separator(c)
}

/// Lowercases and removes accents (`Café` → `cafe`).
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    text.nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Tokenizes `text`, calling `emit` for every token in order (duplicates included: they are term
/// frequencies).
pub fn tokenize(text: &str, emit: &mut impl FnMut(&str)) {
    segments(text, &mut |segment| {
        expand_with(segment, Stems::Memoized, emit)
    });
}

/// The words of `text` in order, each as its first token (the whole word, as search indexes it;
/// a compound's parts are no words of their own here). A word with no token (a stopword) is
/// skipped; a CJK run is passed as `None`, a break in the sequence.
pub fn words(text: &str, emit: &mut impl FnMut(Option<&str>)) {
    segments(text, &mut |segment| match segment {
        Segment::Word(_) => {
            let mut first = true;
            expand_with(segment, Stems::Memoized, &mut |token| {
                if std::mem::take(&mut first) {
                    emit(Some(token));
                }
            });
        }
        Segment::Cjk(_) => emit(None),
    });
}

/// A piece of text whose tokens depend on it alone: a word (letters, digits and separators) or
/// a run of CJK characters. Tokenizing is splitting into segments, then expanding each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Segment<'a> {
    /// A word, as written.
    Word(&'a str),
    /// A run of CJK characters.
    Cjk(&'a str),
}

/// Calls `each` for every segment of `text`, in order. One pass over the bytes: ASCII by table,
/// other characters decoded where they occur (a single `é` does not send a whole document down
/// a slower path).
pub(crate) fn segments<'t>(text: &'t str, each: &mut impl FnMut(Segment<'t>)) {
    let bytes = text.as_bytes();
    let ascii_word = |i: usize| {
        bytes
            .get(i)
            .is_some_and(|b| ASCII_WORD_BYTE[usize::from(*b)])
    };
    let mut i = 0;
    while let Some(&byte) = bytes.get(i) {
        let start = i;
        let class = if byte.is_ascii() {
            if !ASCII_WORD_BYTE[usize::from(byte)] {
                i += 1;
                continue;
            }
            // Most words are ASCII: their bytes by table alone, in a tight loop.
            i += 1;
            while ascii_word(i) {
                i += 1;
            }
            Class::Word
        } else {
            let (class, len) = class_at(text, i);
            i += len;
            if class == Class::Other {
                continue;
            }
            class
        };
        // The run goes on through every following character of its class, ASCII or not.
        while i < text.len() {
            let (next, len) = class_at(text, i);
            if next != class {
                break;
            }
            i += len;
        }
        // `start` and `i` are character boundaries (both advanced a character at a time).
        if let Some(piece) = text.get(start..i) {
            each(if class == Class::Cjk {
                Segment::Cjk(piece)
            } else {
                Segment::Word(piece)
            });
        }
    }
}

/// What a character is to the tokenizer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Word,
    Cjk,
    Other,
}

/// The class and length of the character starting at byte `i` (a character boundary).
#[inline]
fn class_at(text: &str, i: usize) -> (Class, usize) {
    let Some(&byte) = text.as_bytes().get(i) else {
        return (Class::Other, 1);
    };
    if byte.is_ascii() {
        let class = if ASCII_WORD_BYTE[usize::from(byte)] {
            Class::Word
        } else {
            Class::Other
        };
        return (class, 1);
    }
    match text.get(i..).and_then(|rest| rest.chars().next()) {
        Some(c) if is_cjk(c) => (Class::Cjk, c.len_utf8()),
        Some(c) if is_word_char(c) => (Class::Word, c.len_utf8()),
        Some(c) => (Class::Other, c.len_utf8()),
        // Not a boundary: cannot happen for the indices `segments` passes; move on a byte.
        None => (Class::Other, 1),
    }
}

/// The tokens of one segment, in order, for a caller that remembers each segment's tokens
/// itself (the collection's vocabulary): words are stemmed without the per-thread stem memo,
/// which would only cost a second lookup and a copy of every new word.
pub(crate) fn expand(segment: Segment<'_>, emit: &mut impl FnMut(&str)) {
    expand_with(segment, Stems::Direct, emit);
}

/// How [`plain`] stems a word: through the per-thread memo, or directly. The stems are the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stems {
    Memoized,
    Direct,
}

fn expand_with(segment: Segment<'_>, stems: Stems, emit: &mut impl FnMut(&str)) {
    match segment {
        Segment::Word(raw) => word(raw, stems, emit),
        Segment::Cjk(run) => cjk_run(run, emit),
    }
}

/// Whether an ASCII byte belongs to a word (a letter, digit or separator), by table: the byte
/// loop is the tokenizer's innermost.
static ASCII_WORD_BYTE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        let byte = b as u8;
        table[b] = byte.is_ascii_alphanumeric() || matches!(byte, b'@' | b'/' | b'_' | b'-');
        b += 1;
    }
    table
};

/// Calls `work` with `fold(raw)`, folded on the stack when `raw` is short ASCII (most words):
/// tokenizing then allocates nothing per word.
fn with_folded<R>(raw: &str, work: impl FnOnce(&str) -> R) -> R {
    const SHORT: usize = 64;
    if raw.is_ascii() && raw.len() <= SHORT {
        let mut buffer = [0u8; SHORT];
        let folded = &mut buffer[..raw.len()];
        folded.copy_from_slice(raw.as_bytes());
        folded.make_ascii_lowercase();
        if let Ok(folded) = std::str::from_utf8(folded) {
            return work(folded);
        }
    }
    work(&fold(raw))
}

/// Tokenizes into a vector.
pub fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    tokenize(text, &mut |t| out.push(t.to_owned()));
    out
}

fn cjk_run(run: &str, emit: &mut impl FnMut(&str)) {
    let chars: Vec<char> = run.chars().collect();
    let mut buffer = String::new();
    for (i, c) in chars.iter().enumerate() {
        buffer.clear();
        buffer.push(*c);
        emit(&buffer);
        if let Some(next) = chars.get(i + 1) {
            buffer.push(*next);
            emit(&buffer);
        }
    }
}

fn word(raw: &str, stems: Stems, emit: &mut impl FnMut(&str)) {
    let raw = raw
        .trim_matches(|c| matches!(c, '/' | '_' | '-'))
        .trim_end_matches('@');
    if raw.is_empty() {
        return;
    }
    let compound = raw.contains(is_separator) || has_case_boundary(raw);
    if !compound {
        with_folded(raw, |folded| plain(folded, stems, emit));
        return;
    }
    let whole = fold(raw);
    if whole.chars().count() >= 2 {
        emit(&whole);
    }
    for piece in raw.split(is_separator).filter(|p| !p.is_empty()) {
        for part in camel_parts(piece) {
            with_folded(part, |folded| plain(folded, stems, emit));
        }
    }
}

/// A plain word: length and stopword filters, then the stemmer for alphabetic words.
fn plain(token: &str, stems: Stems, emit: &mut impl FnMut(&str)) {
    if token.chars().count() < 2 || is_stopword(token) {
        return;
    }
    if token.bytes().all(|c| c.is_ascii_alphabetic()) {
        // Stemming dominates tokenizing; a per-thread memo pays it once per distinct word.
        let mut emit_stem = |stem: &str| {
            let long_enough = stem.len() >= 2;
            if long_enough {
                emit(stem);
            }
            long_enough
        };
        if stems == Stems::Direct {
            if emit_stem(&STEMMER.stem(token)) {
                return;
            }
            emit(token);
            return;
        }
        let emitted = STEMS.with(|memo| {
            let mut memo = memo.borrow_mut();
            if let Some(stem) = memo.get(token) {
                return emit_stem(stem);
            }
            if memo.len() > MEMO_LIMIT {
                memo.clear();
            }
            let stem = STEMMER.stem(token).into_owned();
            let emitted = emit_stem(&stem);
            memo.insert(token.to_owned(), stem);
            emitted
        });
        if emitted {
            return;
        }
    }
    emit(token);
}

fn has_case_boundary(raw: &str) -> bool {
    // Every boundary `camel_parts` finds is at an uppercase character after the first.
    raw.chars().skip(1).any(char::is_uppercase) && camel_parts(raw).len() > 1
}

/// Splits `createHTTPServer2` into `create`, `HTTP`, `Server2`.
fn camel_parts(piece: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = piece.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for i in 1..chars.len() {
        let (index, c) = chars[i];
        let previous = chars[i - 1].1;
        let next_is_lower = chars.get(i + 1).is_some_and(|(_, n)| n.is_lowercase());
        let boundary = ((previous.is_lowercase() || previous.is_ascii_digit()) && c.is_uppercase())
            || (previous.is_uppercase() && c.is_uppercase() && next_is_lower);
        if boundary {
            parts.push(&piece[start..index]);
            start = index;
        }
    }
    parts.push(&piece[start..]);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn stopword_list_is_sorted_without_duplicates() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn compound_tokens_emit_whole_and_parts() {
        assert_eq!(
            tokens("createSession"),
            ["createsession", "creat", "session"]
        );
        assert_eq!(
            tokens("parse_front_matter"),
            ["parse_front_matter", "pars", "front", "matter"]
        );
        assert_eq!(tokens("@fx/auth"), ["@fx/auth", "fx", "auth"]);
        assert_eq!(
            tokens("packages/auth/src"),
            ["packages/auth/src", "packag", "auth", "src"]
        );
        assert_eq!(tokens("HTTPServer"), ["httpserver", "http", "server"]);
    }

    #[test]
    fn stopwords_short_tokens_and_punctuation_are_dropped() {
        assert_eq!(tokens("How do I rotate the key? A b"), ["rotat", "key"]);
        assert!(tokens("-- / _ @").is_empty());
    }

    #[test]
    fn accents_fold_and_plurals_stem() {
        assert_eq!(tokens("Café"), tokens("cafe"));
        assert_eq!(tokens("sessions"), tokens("session"));
        assert_eq!(tokens("naïve"), ["naiv"]);
    }

    #[test]
    fn cjk_runs_become_unigrams_and_bigrams() {
        assert_eq!(
            tokens("設定方法"),
            ["設", "設定", "定", "定方", "方", "方法", "法"]
        );
        assert_eq!(
            tokens("はじめにauth"),
            ["は", "はじ", "じ", "じめ", "め", "めに", "に", "auth"]
        );
    }

    #[test]
    fn digits_stay_with_their_words() {
        assert_eq!(tokens("sha256 v2"), ["sha256", "v2"]);
    }

    /// The definition of segmenting: maximal runs of word characters and of CJK characters,
    /// a character at a time.
    fn segments_by_definition(text: &str) -> Vec<Segment<'_>> {
        let mut out = Vec::new();
        let mut chars = text.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            let cjk = is_cjk(c);
            if !cjk && !is_word_char(c) {
                continue;
            }
            let same = if cjk { is_cjk } else { is_word_char };
            let mut end = start + c.len_utf8();
            while let Some(&(i, next)) = chars.peek() {
                if !same(next) {
                    break;
                }
                end = i + next.len_utf8();
                chars.next();
            }
            let piece = &text[start..end];
            out.push(if cjk {
                Segment::Cjk(piece)
            } else {
                Segment::Word(piece)
            });
        }
        out
    }

    #[test]
    fn segments_split_words_cjk_and_the_rest() {
        let mut found = Vec::new();
        segments("Résumé: 設定ab_c-d, é!", &mut |s| found.push(s));
        assert_eq!(
            found,
            [
                Segment::Word("Résumé"),
                Segment::Cjk("設定"),
                Segment::Word("ab_c-d"),
                Segment::Word("é"),
            ]
        );
    }

    proptest! {
        #[test]
        fn segments_are_the_definitions_runs(
            text in "([a-zA-Z]{1,9}|[0-9]{1,3}|[ .,;:!?()@/_-]|the|HTTPServer|snake_case|é|ß|±|µ|設定|は|\\PC){0,40}"
        ) {
            let mut fast = Vec::new();
            segments(&text, &mut |s| fast.push(s));
            prop_assert_eq!(fast, segments_by_definition(&text));
        }

        #[test]
        fn the_fast_checks_agree_with_their_definitions(word in "[a-zA-Z0-9ÀÉß]{0,12}") {
            prop_assert_eq!(has_case_boundary(&word), camel_parts(&word).len() > 1);
            let folded = fold(&word);
            prop_assert_eq!(is_stopword(&folded), STOPWORDS.contains(&folded.as_str()));
        }

        #[test]
        fn every_token_is_folded_and_at_least_two_chars(text in "\\PC{0,200}") {
            for token in tokens(&text) {
                prop_assert!(token.chars().count() >= 2 || token.chars().all(is_cjk), "{token:?}");
                // CJK is kept as written: a voicing mark is part of the character, not an accent.
                if !token.chars().any(is_cjk) {
                    prop_assert_eq!(fold(&token), token.clone());
                }
            }
        }
    }
}
