//! The passage of a file that best matches a query: what `search` shows under each result and
//! what the MCP server's `search` calls an excerpt (one implementation for both).
//!
//! The file's lines are scored by the distinct query terms (lexicon tokens, stems included)
//! they hold; the passage is the best line with the line before it and the lines after it, up to
//! [`PASSAGE_LINES`], within its paragraph (never across a blank line). Its context is the heading above it (a Markdown `#` line) or, in code, the
//! nearest declaration above it (`def`, `class`, `fn`, `func`, `function`, `impl`, ...), so a
//! reader sees which section or symbol matched. Pure: the caller reads the file.

use std::collections::BTreeSet;

use crate::lexicon;

/// Lines in a passage.
pub const PASSAGE_LINES: usize = 3;
/// Characters kept of each line.
pub const LINE_CHARS: usize = 200;
/// Files longer than this are not looked into (a passage is a courtesy, not a scan).
pub const MAX_TEXT_BYTES: usize = 1 << 20;

/// A passage of a file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Passage {
    /// 1-based first line.
    pub start_line: usize,
    /// 1-based last line.
    pub end_line: usize,
    /// The lines, each cut to [`LINE_CHARS`] characters.
    pub lines: Vec<String>,
    /// The heading or declaration the passage sits under, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// Whether a file is prose (headings are `#` lines) or code (declarations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// Markdown and other documentation.
    Prose,
    /// Source code.
    Code,
}

/// The best passage of `text` for the query `terms` (lexicon tokens); `None` when no line
/// holds a term, or the text is over [`MAX_TEXT_BYTES`].
pub fn best_passage(text: &str, terms: &BTreeSet<String>, kind: TextKind) -> Option<Passage> {
    if text.len() > MAX_TEXT_BYTES || terms.is_empty() {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut best: Option<(usize, usize)> = None;
    let mut found = BTreeSet::new();
    for (i, line) in lines.iter().enumerate() {
        found.clear();
        lexicon::tokenize(line, &mut |t| {
            if terms.contains(t) {
                found.insert(t.to_owned());
            }
        });
        if !found.is_empty() && best.is_none_or(|(_, n)| found.len() > n) {
            best = Some((i, found.len()));
        }
    }
    let (center, _) = best?;
    // The best line with its neighbours in the same paragraph: the line before it and the
    // lines after it, up to [`PASSAGE_LINES`], never across a blank line.
    let blank = |i: usize| lines[i].trim().is_empty();
    let start = if center > 0 && !blank(center - 1) {
        center - 1
    } else {
        center
    };
    let mut end = center + 1;
    while end < lines.len() && end - start < PASSAGE_LINES && !blank(end) {
        end += 1;
    }
    // The heading or declaration above the passage (one inside it is shown already).
    let context = (0..start)
        .rev()
        .map(|i| lines[i])
        .find_map(|line| context_of(line, kind));
    Some(Passage {
        start_line: start + 1,
        end_line: end,
        lines: lines[start..end]
            .iter()
            .map(|l| l.chars().take(LINE_CHARS).collect())
            .collect(),
        context,
    })
}

/// The heading or declaration a line starts, if it starts one.
fn context_of(line: &str, kind: TextKind) -> Option<String> {
    let trimmed = line.trim();
    let cut = |s: &str| -> String { s.chars().take(LINE_CHARS).collect() };
    match kind {
        TextKind::Prose => {
            let hashes = trimmed.bytes().take_while(|b| *b == b'#').count();
            ((1..=6).contains(&hashes) && trimmed[hashes..].starts_with(' '))
                .then(|| cut(trimmed[hashes..].trim()))
        }
        TextKind::Code => {
            let words: Vec<&str> = trimmed.split_whitespace().take(4).collect();
            let declares = words.iter().any(|w| {
                matches!(
                    *w,
                    "def"
                        | "class"
                        | "fn"
                        | "func"
                        | "function"
                        | "impl"
                        | "struct"
                        | "enum"
                        | "trait"
                        | "interface"
                        | "type"
                        | "mod"
                )
            });
            let leading = words.first().is_some_and(|w| {
                matches!(
                    *w,
                    "def"
                        | "async"
                        | "class"
                        | "fn"
                        | "pub"
                        | "pub(crate)"
                        | "func"
                        | "function"
                        | "export"
                        | "impl"
                        | "struct"
                        | "enum"
                        | "trait"
                        | "interface"
                        | "type"
                        | "mod"
                        | "abstract"
                        | "static"
                        | "public"
                        | "private"
                        | "protected"
                )
            });
            (declares && leading).then(|| cut(trimmed.trim_end_matches(['{', ':']).trim()))
        }
    }
}

/// Consecutive word pairs of `text` (its [`lexicon::words`] in order, distinct): the phrases a
/// query's word order carries.
pub fn word_pairs(text: &str) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut previous: Option<String> = None;
    lexicon::words(text, &mut |word| {
        match (previous.take(), word) {
            (Some(a), Some(b)) if a != b => {
                let pair = (a, b.to_owned());
                if !pairs.contains(&pair) {
                    pairs.push(pair);
                }
            }
            _ => {}
        }
        previous = word.map(str::to_owned);
    });
    pairs
}

/// The share of `pairs` (a query's [`word_pairs`]) that `text` writes as consecutive words
/// somewhere (0..=1): a page that says "failed to resolve component" holds the phrase of a
/// pasted `Failed to resolve component` warning, which its words alone do not tell.
pub fn phrase_share(text: &str, pairs: &[(String, String)], weight: &dyn Fn(&str) -> f64) -> f64 {
    let weights: Vec<f64> = pairs
        .iter()
        .map(|(a, b)| weight(a).min(weight(b)).max(0.0))
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 || text.len() > MAX_TEXT_BYTES {
        return 0.0;
    }
    // One lookup per word of the text, not one comparison per pair: a pasted report has
    // hundreds of pairs, a file tens of thousands of words.
    let index: std::collections::HashMap<(&str, &str), usize> = pairs
        .iter()
        .enumerate()
        .map(|(i, (a, b))| ((a.as_str(), b.as_str()), i))
        .collect();
    let mut found = vec![false; pairs.len()];
    let mut previous = String::new();
    let mut has_previous = false;
    lexicon::words(text, &mut |word| {
        if let (true, Some(b)) = (has_previous, word)
            && let Some(&i) = index.get(&(previous.as_str(), b))
        {
            found[i] = true;
        }
        has_previous = word.is_some();
        previous.clear();
        previous.push_str(word.unwrap_or_default());
    });
    let held: f64 = found
        .iter()
        .zip(&weights)
        .filter(|(f, _)| **f)
        .map(|(_, w)| w)
        .sum();
    held / total
}

/// Lines in the window [`coverage`] slides over a file.
pub const COVERAGE_WINDOW: usize = 8;

/// How much of the query one place of the text holds: the best window of
/// [`COVERAGE_WINDOW`] consecutive non-blank lines, scored by the summed weights of the distinct
/// query terms it contains, over the summed weights of all of them (0..=1). `weights` gives each
/// query term's weight (its idf). A page that answers in one section scores high even when the
/// rest of it is about something else.
pub fn coverage(text: &str, weights: &[(String, f64)]) -> f64 {
    let total: f64 = weights.iter().map(|(_, w)| w.max(0.0)).sum();
    if total <= 0.0 || text.len() > MAX_TEXT_BYTES {
        return 0.0;
    }
    // Per non-blank line, which query terms it holds (a bit per term; at most 64 are counted).
    let terms: Vec<&(String, f64)> = weights.iter().take(64).collect();
    let lines: Vec<u64> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut mask = 0u64;
            lexicon::tokenize(line, &mut |t| {
                if let Some(i) = terms.iter().position(|(term, _)| term == t) {
                    mask |= 1 << i;
                }
            });
            mask
        })
        .collect();
    let score = |mask: u64| -> f64 {
        terms
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, (_, w))| w.max(0.0))
            .sum()
    };
    let mut best = 0.0f64;
    for start in 0..lines.len() {
        let end = (start + COVERAGE_WINDOW).min(lines.len());
        let mask = lines[start..end].iter().fold(0u64, |m, l| m | l);
        best = best.max(score(mask));
        if end == lines.len() {
            break;
        }
    }
    (best / total).clamp(0.0, 1.0)
}

/// The kind of text at `path`, by its extension.
pub fn text_kind(path: &str) -> TextKind {
    let lower = path.to_ascii_lowercase();
    if [".md", ".mdx", ".markdown", ".rst", ".adoc", ".txt"]
        .iter()
        .any(|ext| lower.ends_with(ext))
    {
        TextKind::Prose
    } else {
        TextKind::Code
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn terms(query: &str) -> BTreeSet<String> {
        lexicon::tokens(query).into_iter().collect()
    }

    #[test]
    fn the_passage_is_the_line_with_most_terms_and_its_heading() {
        let text = "# Guide\n\nIntro text.\n\n## Session timeout\n\nThe session expires after the timeout.\nMore.\n";
        let passage = best_passage(text, &terms("session timeout"), TextKind::Prose).unwrap();
        // Line 5 (the heading) has both terms too; the first best line wins, alone in its
        // paragraph.
        assert_eq!((passage.start_line, passage.end_line), (5, 5));
        assert_eq!(passage.lines, ["## Session timeout"]);
        assert_eq!(passage.context.as_deref(), Some("Guide"));
        let body = best_passage(text, &terms("expires"), TextKind::Prose).unwrap();
        assert_eq!((body.start_line, body.end_line), (7, 8));
        assert_eq!(
            body.lines,
            ["The session expires after the timeout.", "More."]
        );
    }

    #[test]
    fn in_code_the_context_is_the_enclosing_declaration() {
        let text = "import os\n\nclass Store:\n    def get(self, key):\n        return self._data.get(key)\n";
        let passage = best_passage(text, &terms("return"), TextKind::Code).unwrap();
        assert_eq!((passage.start_line, passage.end_line), (4, 5));
        // The declaration is the passage's own first line here: the one above is the context.
        assert_eq!(passage.context.as_deref(), Some("class Store"));
    }

    #[test]
    fn coverage_is_the_best_window_share_of_the_query() {
        let weights = vec![
            ("session".to_owned(), 2.0),
            ("timeout".to_owned(), 1.0),
            ("rotat".to_owned(), 1.0),
        ];
        let together = "intro\n\nthe session timeout and key rotation\n";
        assert!((coverage(together, &weights) - 1.0).abs() < 1e-9);
        // The same words spread far apart: no window holds them all.
        let spread = format!("session\n{}timeout rotation\n", "filler\n".repeat(20));
        assert!((coverage(&spread, &weights) - 0.5).abs() < 1e-9);
        assert_eq!(coverage("nothing", &weights), 0.0);
        assert_eq!(coverage("session", &[]), 0.0);
    }

    #[test]
    fn no_term_no_passage() {
        assert_eq!(
            best_passage("nothing here", &terms("session"), TextKind::Prose),
            None
        );
        assert_eq!(
            best_passage("session", &BTreeSet::new(), TextKind::Prose),
            None
        );
        assert_eq!(text_kind("docs/a.md"), TextKind::Prose);
        assert_eq!(text_kind("src/a.py"), TextKind::Code);
    }

    #[test]
    fn word_pairs_follow_the_words_not_their_parts() {
        let pairs = word_pairs("Failed to resolve component: ion-button");
        let words: Vec<(&str, &str)> = pairs
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        // The stopword is skipped, the compound is one word, its parts are not pairs.
        assert_eq!(words.len(), 3, "{words:?}");
        assert_eq!(words[2].1, "ion-button", "{words:?}");
        assert!(word_pairs("one").is_empty());
    }

    #[test]
    fn the_phrase_share_counts_pairs_written_in_order_weighted() {
        let pairs = word_pairs("failed to resolve component");
        let even = |_: &str| 1.0;
        let ordered = "Vue emits a \"failed to resolve component\" warning.";
        assert!((phrase_share(ordered, &pairs, &even) - 1.0).abs() < 1e-9);
        let scrambled = "The component failed. Later, resolve it.";
        assert_eq!(phrase_share(scrambled, &pairs, &even), 0.0);
        // Half the pairs, by weight: only the rarer word of a pair counts.
        let half = "It failed to resolve. Later, one component.";
        assert!((phrase_share(half, &pairs, &even) - 0.5).abs() < 1e-9);
        let no_weight = |_: &str| 0.0;
        assert_eq!(phrase_share(ordered, &pairs, &no_weight), 0.0);
    }
}
