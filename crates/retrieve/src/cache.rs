//! The search cache (`.doc-bridge/cache/search.bin`): the collection of one verified index,
//! keyed by that index file's stamp and content hash. Derived and never authoritative: any
//! mismatch or decoding error means "rebuild from the index".

use doc_bridge_model::ContentHash;
use doc_bridge_model::index::RetrievalSettings;
use serde::{Deserialize, Serialize};

use crate::collection::Collection;

/// Bumped whenever the cache layout or anything it derives from changes.
pub const SEARCH_CACHE_FORMAT: u32 = 1;

/// The identity of a file on disk: size, modification time and inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp {
    /// Size in bytes.
    pub bytes: u64,
    /// Modification time, nanoseconds since the epoch.
    pub modified_ns: i128,
    /// Inode number (0 where the platform has none).
    pub inode: u64,
}

/// What the cache holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchCache {
    /// [`SEARCH_CACHE_FORMAT`].
    pub format: u32,
    /// The lexicon version the postings were tokenized with.
    pub lexicon_version: u32,
    /// The stamp of `index.json` when it was verified.
    pub index_stamp: FileStamp,
    /// The verified index's `contentHash`.
    pub index_hash: ContentHash,
    /// The index's `inputs.hash`.
    pub inputs_hash: ContentHash,
    /// The index's ranking settings.
    pub retrieval: RetrievalSettings,
    /// The collection.
    pub collection: Collection,
}

impl SearchCache {
    /// Serializes the cache.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).unwrap_or_default()
    }

    /// Decodes a cache made for `index_stamp` by this build; `None` for anything else.
    pub fn from_bytes(bytes: &[u8], index_stamp: &FileStamp) -> Option<SearchCache> {
        let cache: SearchCache = postcard::from_bytes(bytes).ok()?;
        let valid = cache.format == SEARCH_CACHE_FORMAT
            && cache.lexicon_version == doc_bridge_model::retrieval::LEXICON_VERSION
            && &cache.index_stamp == index_stamp
            && cache.collection.is_consistent();
        valid.then_some(cache)
    }
}
