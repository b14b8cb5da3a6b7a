//! Freshness: is the index current? Compares the recorded inputs with a fresh fingerprint of the
//! repository (hashes only, no analysis).

use doc_bridge_model::RelPath;
use doc_bridge_model::index::Inputs;
use doc_bridge_model::retrieval::LEXICON_VERSION;
use serde::Serialize;

/// The difference between the recorded inputs and the current ones.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Freshness {
    /// Files whose content changed.
    pub changed: Vec<RelPath>,
    /// Files that appeared.
    pub added: Vec<RelPath>,
    /// Files that vanished.
    pub removed: Vec<RelPath>,
    /// The configuration sections the index derives from changed.
    pub configuration_changed: bool,
    /// Analyzer, lexicon or projection versions differ from this build's.
    pub versions_changed: bool,
    /// The index was ranked with another `retrieval.lexiconVersion` than this build's (a
    /// changed tokenizer or stopword list changes ranking without changing a file).
    pub lexicon_changed: bool,
}

impl Freshness {
    /// Whether nothing differs.
    pub fn is_fresh(&self) -> bool {
        self.changed.is_empty()
            && self.added.is_empty()
            && self.removed.is_empty()
            && !self.configuration_changed
            && !self.versions_changed
            && !self.lexicon_changed
    }

    /// Adds the check of the lexicon the index was ranked with (`retrieval.lexiconVersion`).
    pub fn with_lexicon(mut self, recorded: u32) -> Self {
        self.lexicon_changed = recorded != LEXICON_VERSION;
        self
    }

    /// A one-line summary naming up to `max` paths.
    pub fn summary(&self, max: usize) -> String {
        let mut parts = Vec::new();
        let count = self.changed.len() + self.added.len() + self.removed.len();
        if count > 0 {
            let names: Vec<String> = self
                .changed
                .iter()
                .map(|p| p.to_string())
                .chain(self.added.iter().map(|p| format!("+{p}")))
                .chain(self.removed.iter().map(|p| format!("-{p}")))
                .take(max)
                .collect();
            let more = if count > max { ", ..." } else { "" };
            parts.push(format!(
                "{count} file(s) changed since it was built ({}{more})",
                names.join(", ")
            ));
        }
        if self.configuration_changed {
            parts.push("the configuration or the enrichment overlay changed".to_owned());
        }
        if self.versions_changed {
            parts.push("it was built by a different analyzer or lexicon version".to_owned());
        }
        if self.lexicon_changed {
            parts.push(format!(
                "it was ranked with another lexicon version (this doc-bridge's is {LEXICON_VERSION})"
            ));
        }
        parts.join("; ")
    }
}

/// Compares recorded inputs with current ones.
pub fn compare(recorded: &Inputs, current: &Inputs) -> Freshness {
    let mut freshness = Freshness::default();
    let mut old = recorded.files.iter().peekable();
    let mut new = current.files.iter().peekable();
    // Both maps iterate in path order: a linear merge.
    loop {
        match (old.peek(), new.peek()) {
            (Some((op, oh)), Some((np, nh))) => match op.cmp(np) {
                std::cmp::Ordering::Less => {
                    freshness.removed.push((*op).clone());
                    old.next();
                }
                std::cmp::Ordering::Greater => {
                    freshness.added.push((*np).clone());
                    new.next();
                }
                std::cmp::Ordering::Equal => {
                    if oh != nh {
                        freshness.changed.push((*op).clone());
                    }
                    old.next();
                    new.next();
                }
            },
            (Some((op, _)), None) => {
                freshness.removed.push((*op).clone());
                old.next();
            }
            (None, Some((np, _))) => {
                freshness.added.push((*np).clone());
                new.next();
            }
            (None, None) => break,
        }
    }
    freshness.configuration_changed = recorded.configuration_hash != current.configuration_hash;
    freshness.versions_changed = recorded.analyzers != current.analyzers
        || recorded.projection_version != current.projection_version
        || recorded.version != current.version;
    freshness
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::fingerprint;
    use doc_bridge_model::ContentHash;
    use std::collections::BTreeMap;

    fn inputs(files: &[(&str, &[u8])]) -> Inputs {
        let files = files
            .iter()
            .map(|(p, b)| (RelPath::new(p).unwrap(), ContentHash::of_bytes(b)))
            .collect();
        fingerprint(files, ContentHash::of_bytes(b"config"), BTreeMap::new())
    }

    #[test]
    fn compare_lists_changed_added_and_removed() {
        let before = inputs(&[("a.md", b"1"), ("b.md", b"1"), ("c.md", b"1")]);
        let after = inputs(&[("a.md", b"1"), ("b.md", b"2"), ("d.md", b"1")]);
        let f = compare(&before, &after);
        assert_eq!(f.changed, [RelPath::new("b.md").unwrap()]);
        assert_eq!(f.added, [RelPath::new("d.md").unwrap()]);
        assert_eq!(f.removed, [RelPath::new("c.md").unwrap()]);
        assert!(!f.is_fresh());
        assert!(compare(&before, &before).is_fresh());
        assert!(f.summary(2).contains("3 file(s)"));
    }

    #[test]
    fn another_lexicon_is_stale_with_that_reason() {
        let same = inputs(&[("a.md", b"1")]);
        let fresh = compare(&same, &same).with_lexicon(LEXICON_VERSION);
        assert!(fresh.is_fresh());
        let stale = compare(&same, &same).with_lexicon(LEXICON_VERSION + 1);
        assert!(!stale.is_fresh());
        assert!(
            stale
                .summary(5)
                .contains("ranked with another lexicon version"),
            "{}",
            stale.summary(5)
        );
    }
}
