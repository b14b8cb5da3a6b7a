//! A memo of per-entry tokenization for long-running processes (`index --watch`, the MCP
//! server): an entry whose field texts did not change is not tokenized and stemmed again when
//! the collection is rebuilt. Speed only: a hit requires the very same texts (compared in full,
//! not only by hash), and tokenizing is a pure function of them. The process owns it and hands
//! it to the build (`Collection::build_with`, `IndexOptions::tokens`).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};

use crate::collection::{AnalysedEntry, FIELD_COUNT};

type Texts = [String; FIELD_COUNT];

/// Tokenized entries keyed by their field texts.
#[derive(Default)]
pub struct TokenMemo {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    generation: u64,
    entries: HashMap<u64, Vec<(u64, Texts, Arc<AnalysedEntry>)>>,
}

impl TokenMemo {
    /// An empty memo.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets every entry not used since the last sweep.
    pub fn sweep(&self) {
        let mut inner = self.lock();
        let generation = inner.generation;
        for bucket in inner.entries.values_mut() {
            bucket.retain(|(used, _, _)| *used == generation);
        }
        inner.entries.retain(|_, bucket| !bucket.is_empty());
        inner.generation += 1;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The analysis of `texts`, from the memo or computed (and remembered).
    pub(crate) fn get_or_analyse(
        &self,
        texts: &[&str; FIELD_COUNT],
        analyse: fn(&[&str; FIELD_COUNT]) -> AnalysedEntry,
    ) -> Arc<AnalysedEntry> {
        // XXH3 only places the entry; a hit compares the texts in full.
        let mut hasher = xxhash_rust::xxh3::Xxh3Default::new();
        texts.hash(&mut hasher);
        let key = hasher.finish();
        {
            let mut inner = self.lock();
            let generation = inner.generation;
            if let Some(bucket) = inner.entries.get_mut(&key)
                && let Some((used, _, found)) = bucket
                    .iter_mut()
                    .find(|(_, stored, _)| stored.iter().zip(texts).all(|(a, b)| a == b))
            {
                *used = generation;
                return Arc::clone(found);
            }
        }
        let analysed = Arc::new(analyse(texts));
        let stored: Texts = std::array::from_fn(|f| texts[f].to_owned());
        let mut inner = self.lock();
        let generation = inner.generation;
        inner
            .entries
            .entry(key)
            .or_default()
            .push((generation, stored, Arc::clone(&analysed)));
        analysed
    }
}
