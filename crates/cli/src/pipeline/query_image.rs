//! The query image (`.doc-bridge/cache/query.bin`, see `doc_bridge_retrieve::query_image`):
//! written by `index` beside the search cache, and by `query` when it had to read the JSON;
//! used by `query` while it vouches for both artifacts as they are and the inputs have not
//! moved. Best effort on both sides: a missing or unusable image only means reading the JSON.

use doc_bridge_model::index::DocBridgeIndexV1;
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_retrieve::cache::FileStamp;
use doc_bridge_retrieve::query_image::{self, ImageHeader, QUERY_IMAGE_FORMAT, QueryImage, Spans};
use doc_bridge_store::artifact::write_cache_atomic;

use crate::exit::UserError;
use crate::repo::Repo;
use doc_bridge_model::timing::phase;

use super::*;

/// The query image, under `.doc-bridge/`.
pub const QUERY_IMAGE_FILE: &str = "cache/query.bin";

/// The stamps `index.json` and `snapshot.json` had when they were read or written: the files a
/// query image is made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArtifactStamps {
    /// `index.json`'s.
    pub index: FileStamp,
    /// `snapshot.json`'s.
    pub snapshot: FileStamp,
}

impl ArtifactStamps {
    /// The stamps of both artifacts as they are now; `None` when either cannot be stat'ed.
    pub fn now(repo: &Repo) -> Option<ArtifactStamps> {
        Some(ArtifactStamps {
            index: file_stamp(&repo.artifact(INDEX_FILE))?,
            snapshot: file_stamp(&repo.artifact(SNAPSHOT_FILE))?,
        })
    }
}

/// Writes the query image of `index` and `snapshot`, whose files have `stamps` and whose
/// `snapshot.json` bytes lie as `spans` says. Nothing is written when the spans do not fit the
/// snapshot.
pub fn write_query_image(
    repo: &Repo,
    index: &DocBridgeIndexV1,
    snapshot: &Snapshot,
    spans: &Spans,
    stamps: ArtifactStamps,
) {
    if let Some(body) = encode_query_image(index, snapshot, spans) {
        write_query_image_body(repo, index, snapshot, &body, stamps);
    }
}

/// The part of the query image that does not name the files it vouches for: encoded while
/// `index` is still being sealed, since it needs neither seal.
pub fn encode_query_image(
    index: &DocBridgeIndexV1,
    snapshot: &Snapshot,
    spans: &Spans,
) -> Option<query_image::Body> {
    phase("encode query image", || {
        query_image::encode_body(snapshot, spans, &index.projection)
    })
}

/// Completes `body` (from [`encode_query_image`]) with the header naming the sealed `index`
/// and `snapshot` and their files' `stamps`, and writes it.
pub fn write_query_image_body(
    repo: &Repo,
    index: &DocBridgeIndexV1,
    snapshot: &Snapshot,
    body: &query_image::Body,
    stamps: ArtifactStamps,
) {
    let header = ImageHeader {
        format: QUERY_IMAGE_FORMAT,
        index_stamp: stamps.index,
        index_hash: index.content_hash.clone(),
        inputs_hash: index.inputs.hash.clone(),
        snapshot_stamp: stamps.snapshot,
        snapshot_hash: snapshot.content_hash.clone(),
        retrieval: index.retrieval.clone(),
    };
    if let Some(bytes) = body.with_header(&header) {
        let _ = phase("write query image", || {
            write_cache_atomic(&repo.artifact(QUERY_IMAGE_FILE), &bytes)
        });
    }
}

/// Writes the query image of an index and snapshot that were read from files that had `stamps`
/// (taken before they were read): reads `snapshot.json` once more for its element ranges, and
/// writes only when both files still have those stamps and the snapshot read is `snapshot`.
pub fn rewrite_query_image(
    repo: &Repo,
    index: &DocBridgeIndexV1,
    snapshot: &Snapshot,
    stamps: ArtifactStamps,
) {
    let path = repo.artifact(SNAPSHOT_FILE);
    let Ok(bytes) = phase("read snapshot for the query image", || std::fs::read(&path)) else {
        return;
    };
    if ArtifactStamps::now(repo) != Some(stamps)
        || index.projection.snapshot_hash != snapshot.content_hash
    {
        return;
    }
    let sealed = doc_bridge_store::canonical::member(&bytes, "contentHash")
        .and_then(|range| serde_json::from_slice::<String>(bytes.get(range)?).ok());
    if sealed.as_deref() != Some(snapshot.content_hash.as_str()) {
        return;
    }
    if let Some(spans) = phase("query image spans", || Spans::of(&bytes)) {
        write_query_image(repo, index, snapshot, &spans, stamps);
    }
}

/// The query image, when it can answer: made by this build for `index.json` and
/// `snapshot.json` as they are now, and the repository's inputs unchanged since that index. `Ok(None)`
/// sends the caller to the JSON (which names what is stale or broken); `Err` only for an error
/// fingerprinting the inputs.
pub fn fresh_query_image(repo: &Repo) -> Result<Option<QueryImage>, UserError> {
    let Some((snapshot, metadata)) = QueryImage::map_snapshot(&repo.artifact(SNAPSHOT_FILE)) else {
        return Ok(None);
    };
    let Some(image) = phase("open query image", || {
        QueryImage::open(&repo.artifact(QUERY_IMAGE_FILE), snapshot)
    }) else {
        return Ok(None);
    };
    let header = image.header();
    if stamp_of(&metadata) != Some(header.snapshot_stamp)
        || file_stamp(&repo.artifact(INDEX_FILE)) != Some(header.index_stamp)
    {
        return Ok(None);
    }
    if current_inputs_hash(repo)? != header.inputs_hash {
        return Ok(None);
    }
    Ok(Some(image))
}
