//! doc-bridge's artifact storage: the JSON artifacts and caches under `.doc-bridge/` encoded,
//! sealed, written atomically and read back (`artifact`), and the encoding memo that lets large
//! artifacts be sealed and written without encoding unchanged parts twice (`memo`).
//!
//! Architecture invariant: every artifact is written through here, to a temporary file that is
//! synced and renamed into place, so a reader never sees a torn file; the bytes are a function
//! of the value alone (the memo changes speed, never bytes). The hash definitions themselves
//! are `doc-bridge-model`'s (`hash`, `sorted_json`). The target layout is in docs/storage.md.

pub mod artifact;
pub mod memo;
mod memo_key;
pub mod scoped;

use doc_bridge_model::ContentHash;
use doc_bridge_model::hash::{HashError, semantic_hash};
use serde::Serialize;

/// [`semantic_hash`] for whole artifacts: the same hash, computed through the active
/// [`memo::EncodingMemo`] when a long-running process installed one (unchanged elements
/// of large arrays are then not canonicalized again).
pub fn semantic_hash_large<T: Serialize>(
    value: &T,
    excluded: &[&str],
) -> Result<ContentHash, HashError> {
    match memo::semantic_hash(value, excluded) {
        Some(result) => result.map_err(HashError::new),
        None => semantic_hash(value, excluded),
    }
}

/// [`semantic_hash_large`], with the elements of `arrays` (large array fields of `value`) keyed
/// on all cores before the seal walks `value` (through the active memo; without one, the
/// ordinary hash). The hash is the same.
pub fn semantic_hash_large_prekeyed<T: Serialize>(
    value: &T,
    excluded: &[&str],
    arrays: &[&dyn memo::Prekey],
) -> Result<ContentHash, HashError> {
    match memo::semantic_hash_prekeyed(value, excluded, arrays) {
        Some(result) => result.map_err(HashError::new),
        None => semantic_hash(value, excluded),
    }
}
