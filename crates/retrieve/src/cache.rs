//! The search cache (`.doc-bridge/cache/search.bin`): the collection of one verified index,
//! keyed by that index file's stamp and content hash. Derived and never authoritative: any
//! mismatch or decoding error means "rebuild from the index".

use doc_bridge_model::ContentHash;
use doc_bridge_model::index::RetrievalSettings;
use serde::{Deserialize, Serialize};

use xxhash_rust::xxh3::xxh3_64;

use crate::collection::Collection;

/// Bumped whenever the cache layout or anything it derives from changes.
pub const SEARCH_CACHE_FORMAT: u32 = 2;

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
///
/// The file is a u32 (little-endian) header length, the header (postcard: every field but the
/// collection, in declaration order), the collection's image, which is used in place, and the
/// XXH3-64 checksum of everything before it (u64 LE). The checksum is what makes a corrupt cache
/// a miss: the image's layout is checked on load, but its contents are read in place, unparsed.
#[derive(Debug, Clone, PartialEq)]
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

/// The header, as it is written.
type HeaderRef<'a> = (
    u32,
    u32,
    &'a FileStamp,
    &'a ContentHash,
    &'a ContentHash,
    &'a RetrievalSettings,
);
/// The header, as it is read.
type Header = (
    u32,
    u32,
    FileStamp,
    ContentHash,
    ContentHash,
    RetrievalSettings,
);

impl SearchCache {
    /// Serializes the cache.
    pub fn to_bytes(&self) -> Vec<u8> {
        let image = self.collection.image();
        let header: HeaderRef<'_> = (
            self.format,
            self.lexicon_version,
            &self.index_stamp,
            &self.index_hash,
            &self.inputs_hash,
            &self.retrieval,
        );
        let Ok(header) = postcard::to_allocvec(&header) else {
            return Vec::new();
        };
        let mut bytes = Vec::with_capacity(4 + header.len() + image.len() + 8);
        bytes.extend_from_slice(
            &u32::try_from(header.len())
                .unwrap_or(u32::MAX)
                .to_le_bytes(),
        );
        bytes.extend_from_slice(&header);
        bytes.extend_from_slice(image);
        let checksum = xxh3_64(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Reads a cache made for `index_stamp` by this build, keeping `bytes` as the collection's
    /// storage; `None` for anything else.
    pub fn from_bytes(mut bytes: Vec<u8>, index_stamp: &FileStamp) -> Option<SearchCache> {
        let content = bytes.len().checked_sub(8)?;
        let checksum = u64::from_le_bytes(bytes.get(content..)?.try_into().ok()?);
        if xxh3_64(bytes.get(..content)?) != checksum {
            return None;
        }
        bytes.truncate(content);
        let length = bytes.get(..4)?;
        let length = u32::from_le_bytes([length[0], length[1], length[2], length[3]]) as usize;
        let end = length.checked_add(4)?;
        let (format, lexicon_version, stamp, index_hash, inputs_hash, retrieval): Header =
            postcard::from_bytes(bytes.get(4..end)?).ok()?;
        let valid = format == SEARCH_CACHE_FORMAT
            && lexicon_version == doc_bridge_model::retrieval::LEXICON_VERSION
            && &stamp == index_stamp;
        if !valid {
            return None;
        }
        Some(SearchCache {
            format,
            lexicon_version,
            index_stamp: stamp,
            index_hash,
            inputs_hash,
            retrieval,
            collection: Collection::from_image(bytes, end)?,
        })
    }
}
