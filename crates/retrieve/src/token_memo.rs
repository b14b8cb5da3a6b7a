//! A memo of per-entry tokenization for long-running processes (`index --watch`): an entry whose
//! field texts did not change is not tokenized and stemmed again when the collection is rebuilt.
//! Speed only: a hit requires the very same texts (compared in full, not only by hash), and
//! tokenizing is a pure function of them. Installed for a scope with [`with_token_memo`] (a
//! thread-local read by `Collection::build` on the calling thread).

use std::cell::RefCell;
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
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
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

thread_local! {
    static ACTIVE: RefCell<Option<Arc<TokenMemo>>> = const { RefCell::new(None) };
}

/// Runs `work` with `memo` active on this thread for `Collection::build`; the memo active
/// before comes back afterwards, also when `work` panics.
pub fn with_token_memo<R>(memo: &Arc<TokenMemo>, work: impl FnOnce() -> R) -> R {
    struct Restore(Option<Arc<TokenMemo>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            ACTIVE.with(|active| *active.borrow_mut() = previous);
        }
    }
    let previous = ACTIVE.with(|active| active.replace(Some(Arc::clone(memo))));
    let _restore = Restore(previous);
    work()
}

/// The memo active on this thread.
pub(crate) fn active() -> Option<Arc<TokenMemo>> {
    ACTIVE.with(|active| active.borrow().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memo_is_active_for_the_call_and_the_previous_one_restored() {
        let (outer, inner) = (TokenMemo::new(), TokenMemo::new());
        assert!(active().is_none());
        let seen = with_token_memo(&outer, || {
            let nested = with_token_memo(&inner, active);
            (nested, active())
        });
        assert!(seen.0.is_some_and(|m| Arc::ptr_eq(&m, &inner)));
        assert!(seen.1.is_some_and(|m| Arc::ptr_eq(&m, &outer)));
        assert!(active().is_none());
        // Restored after a panic too.
        let caught = std::panic::catch_unwind(|| with_token_memo(&outer, || panic!("inside")));
        assert!(caught.is_err());
        assert!(active().is_none());
    }
}
