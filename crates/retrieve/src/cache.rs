//! The search cache (`.doc-bridge/cache/search.bin`): the collection of one verified index,
//! keyed by that index file's stamp and content hash. Derived and never authoritative: any
//! mismatch or decoding error means "rebuild from the index".
//!
//! Its header is also a record of what was verified: while `index.json` (and `snapshot.json`)
//! keep the stamps it holds, they are the files whose seals it names, and need not be hashed
//! again to be trusted (see [`CacheHeader`]).

use doc_bridge_model::ContentHash;
use doc_bridge_model::index::RetrievalSettings;
use serde::{Deserialize, Serialize};

use xxhash_rust::xxh3::xxh3_64;

use std::path::Path;
use std::sync::Arc;

use crate::collection::{Collection, Storage};

/// Bumped whenever the cache layout or anything it derives from changes (the header's
/// `RetrievalSettings` included: postcard encodes its fields in declaration order).
pub const SEARCH_CACHE_FORMAT: u32 = 8;

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
    /// The stamp of `snapshot.json` when it was known to be the snapshot the index was built
    /// from (the one whose seal is the index's `projection.snapshotHash`): written by the same
    /// `index` run. `None` when the cache was made without that knowledge.
    pub snapshot_stamp: Option<FileStamp>,
    /// The index's ranking settings.
    pub retrieval: RetrievalSettings,
    /// The collection.
    pub collection: Collection,
}

/// A cache's header: what it vouches for, without its collection.
#[derive(Debug, Clone, PartialEq)]
pub struct CacheHeader {
    /// The `contentHash` of the index file with the stamp the cache was opened for.
    pub index_hash: ContentHash,
    /// That index's `inputs.hash`.
    pub inputs_hash: ContentHash,
    /// See [`SearchCache::snapshot_stamp`].
    pub snapshot_stamp: Option<FileStamp>,
}

/// The header, as it is written.
type HeaderRef<'a> = (
    u32,
    u32,
    &'a FileStamp,
    &'a ContentHash,
    &'a ContentHash,
    &'a Option<FileStamp>,
    &'a RetrievalSettings,
);
/// The header, as it is read.
type Header = (
    u32,
    u32,
    FileStamp,
    ContentHash,
    ContentHash,
    Option<FileStamp>,
    RetrievalSettings,
);

/// What a cache of this build vouches for, to encode beside a collection the caller keeps
/// ([`CacheFor::to_bytes`]): a [`SearchCache`] without its collection.
#[derive(Debug, Clone, Copy)]
pub struct CacheFor<'a> {
    /// See [`SearchCache::index_stamp`].
    pub index_stamp: FileStamp,
    /// See [`SearchCache::index_hash`].
    pub index_hash: &'a ContentHash,
    /// See [`SearchCache::inputs_hash`].
    pub inputs_hash: &'a ContentHash,
    /// See [`SearchCache::snapshot_stamp`].
    pub snapshot_stamp: Option<FileStamp>,
    /// See [`SearchCache::retrieval`].
    pub retrieval: &'a RetrievalSettings,
}

impl CacheFor<'_> {
    /// The cache file's bytes for `collection`, as [`SearchCache::to_bytes`] writes them with
    /// this build's format and lexicon.
    pub fn to_bytes(&self, collection: &Collection) -> Vec<u8> {
        encode(
            (
                SEARCH_CACHE_FORMAT,
                doc_bridge_model::retrieval::LEXICON_VERSION,
                &self.index_stamp,
                self.index_hash,
                self.inputs_hash,
                &self.snapshot_stamp,
                self.retrieval,
            ),
            collection,
        )
    }
}

/// The header, its length before it, the collection's image after it, then the checksum.
fn encode(header: HeaderRef<'_>, collection: &Collection) -> Vec<u8> {
    let image = collection.image();
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

impl SearchCache {
    /// Serializes the cache.
    pub fn to_bytes(&self) -> Vec<u8> {
        let header: HeaderRef<'_> = (
            self.format,
            self.lexicon_version,
            &self.index_stamp,
            &self.index_hash,
            &self.inputs_hash,
            &self.snapshot_stamp,
            &self.retrieval,
        );
        encode(header, &self.collection)
    }

    /// Reads a cache made for `index_stamp` by this build, keeping `bytes` as the collection's
    /// storage; `None` for anything else.
    pub fn from_bytes(bytes: Vec<u8>, index_stamp: &FileStamp) -> Option<SearchCache> {
        Self::from_storage(Storage::Owned(bytes), index_stamp)
    }

    /// Opens the cache file at `path` by mapping it into memory, so a search touches only the
    /// pages it reads (the checksum reads them all once, from the page cache, without copying
    /// them). `None` when it is missing, unmappable, or not a cache made for `index_stamp`.
    pub fn open(path: &Path, index_stamp: &FileStamp) -> Option<SearchCache> {
        let file = std::fs::File::open(path).ok()?;
        Self::from_storage(Storage::Mapped(Arc::new(map(&file)?)), index_stamp)
    }

    /// The header of the cache file at `path`, when it is a cache made for `index_stamp` by
    /// this build (checksum included: a damaged cache vouches for nothing).
    pub fn header(path: &Path, index_stamp: &FileStamp) -> Option<CacheHeader> {
        let file = std::fs::File::open(path).ok()?;
        let storage = Storage::Mapped(Arc::new(map(&file)?));
        let (header, _, _) = Self::checked_header(storage.as_slice(), index_stamp)?;
        let (_, _, _, index_hash, inputs_hash, snapshot_stamp, _) = header;
        Some(CacheHeader {
            index_hash,
            inputs_hash,
            snapshot_stamp,
        })
    }

    fn from_storage(storage: Storage, index_stamp: &FileStamp) -> Option<SearchCache> {
        let (header, base, content) = Self::checked_header(storage.as_slice(), index_stamp)?;
        let (format, lexicon_version, stamp, index_hash, inputs_hash, snapshot_stamp, retrieval) =
            header;
        Some(SearchCache {
            format,
            lexicon_version,
            index_stamp: stamp,
            index_hash,
            inputs_hash,
            snapshot_stamp,
            retrieval,
            collection: Collection::from_storage(storage, base, content)?,
        })
    }

    /// The header of a cache for `index_stamp` made by this build, with where the image starts
    /// and ends, once the checksum holds.
    fn checked_header(bytes: &[u8], index_stamp: &FileStamp) -> Option<(Header, usize, usize)> {
        let content = bytes.len().checked_sub(8)?;
        let checksum = u64::from_le_bytes(bytes.get(content..)?.try_into().ok()?);
        if xxh3_64(bytes.get(..content)?) != checksum {
            return None;
        }
        let length = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
        let base = length.checked_add(4)?;
        let header: Header = postcard::from_bytes(bytes.get(4..base)?).ok()?;
        let (format, lexicon_version, stamp, ..) = &header;
        let valid = *format == SEARCH_CACHE_FORMAT
            && *lexicon_version == doc_bridge_model::retrieval::LEXICON_VERSION
            && stamp == index_stamp;
        valid.then_some((header, base, content))
    }
}

/// Maps a cache file (or, for the query image, the `snapshot.json` it describes) read-only.
#[allow(unsafe_code)]
pub(crate) fn map(file: &std::fs::File) -> Option<memmap2::Mmap> {
    // SAFETY: the mapping is undefined behaviour only if the file changes while mapped. doc-bridge
    // never writes a cache file in place: every write goes to a temporary file renamed over the
    // old one (`write_atomic`), which leaves the mapped file untouched. What remains is another
    // program truncating or rewriting `.doc-bridge/cache/search.bin` in place during the few
    // milliseconds a search runs; the contents are checksummed before use either way. Mapping is
    // what lets a search skip copying the whole cache into fresh memory, and `query` parse only
    // the elements of `snapshot.json` it needs (artifacts, too, are only ever replaced by rename).
    unsafe { memmap2::Mmap::map(file) }.ok()
}
