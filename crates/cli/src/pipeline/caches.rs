//! The derived caches under `.doc-bridge/cache/`: file stamps, per-file analyses and the
//! search cache; rebuildable, never authoritative.

use doc_bridge_discover::analysis_cache::AnalysisCache;

use doc_bridge_discover::stamps::{Stamps, now_ns};
use doc_bridge_discover::walk::WalkedFile;
use doc_bridge_model::index::DocBridgeIndexV1;
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_model::{ContentHash, RelPath};
use doc_bridge_retrieve::cache::{CacheFor, FileStamp};
use doc_bridge_retrieve::collection::Collection;
use doc_bridge_store::artifact::write_atomic;

use crate::repo::Repo;

use super::*;

/// The stamp cache, under `.doc-bridge/`.
pub const STAMPS_FILE: &str = "cache/stamps.bin";
/// The search cache, under `.doc-bridge/`.
pub const SEARCH_CACHE_FILE: &str = "cache/search.bin";

/// The stamp of a file on disk.
pub fn file_stamp(path: &std::path::Path) -> Option<FileStamp> {
    stamp_of(&std::fs::metadata(path).ok()?)
}

/// The stamp of a file with this metadata.
pub fn stamp_of(metadata: &std::fs::Metadata) -> Option<FileStamp> {
    let modified_ns = metadata
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos() as i128;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(metadata);
    #[cfg(not(unix))]
    let inode = 0;
    Some(FileStamp {
        bytes: metadata.len(),
        modified_ns,
        inode,
    })
}

/// What a scan leaves for the file caches: the walked files, the directories the walk entered
/// when it walked the whole tree (recorded as the stamps' listing, so the next freshness check
/// can skip its walk), and this run's analyses.
#[derive(Clone, Copy)]
pub struct ScanRecord<'a> {
    /// The walked files, with their sizes and times.
    pub walked: &'a [WalkedFile],
    /// The directories a full walk entered, with their modification times.
    pub dirs: Option<&'a [(RelPath, Option<i128>)]>,
    /// Source analyses to cache.
    pub analyses: &'a AnalysisCache,
}

/// The caches that depend only on the scan: analyses and file stamps. Best effort: caches only
/// make later commands faster.
pub fn write_file_caches(repo: &Repo, scan: ScanRecord<'_>, snapshot: &Snapshot) {
    let _ = write_atomic(
        &repo.artifact(ANALYSIS_CACHE_FILE),
        &scan.analyses.to_bytes(),
    );
    let hashes: Vec<(RelPath, ContentHash)> = snapshot
        .files
        .iter()
        .map(|f| (f.path.clone(), f.content_hash.clone()))
        .collect();
    let now = now_ns();
    let stamps = match scan.dirs {
        Some(dirs) => Stamps::record_listing(scan.walked, dirs, &repo.root, &hashes, now),
        None => Stamps::record(scan.walked, &hashes, now),
    };
    let _ = write_atomic(&repo.artifact(STAMPS_FILE), &stamps.to_bytes());
}

/// The search cache, keyed by the stamp of the `index.json` just written (so it must follow
/// that write). Best effort: nothing is written when `index.json` cannot be stat'ed.
pub fn write_search_cache(repo: &Repo, index: &DocBridgeIndexV1, collection: &Collection) {
    if let Some(stamp) = file_stamp(&repo.artifact(INDEX_FILE)) {
        write_search_cache_for(repo, index, collection, stamp, None);
    }
}

/// [`write_search_cache`] for an `index.json` whose stamp is known (it may still be on its way
/// into place: see `artifact::PendingWrite`), and the stamp of the `snapshot.json` it was built
/// from when the caller knows it.
pub fn write_search_cache_for(
    repo: &Repo,
    index: &DocBridgeIndexV1,
    collection: &Collection,
    stamp: FileStamp,
    snapshot_stamp: Option<FileStamp>,
) {
    let cache = CacheFor {
        index_stamp: stamp,
        index_hash: &index.content_hash,
        inputs_hash: &index.inputs.hash,
        snapshot_stamp,
        retrieval: &index.retrieval,
    };
    // Checksummed and verified on every read: no need to wait for the disk.
    let _ = doc_bridge_store::artifact::write_cache_atomic(
        &repo.artifact(SEARCH_CACHE_FILE),
        &cache.to_bytes(collection),
    );
}
