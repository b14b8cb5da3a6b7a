//! Loading for queries: the index and the snapshot read, their seals verified (or vouched for
//! by the search cache), legacy and foreign indexes named, freshness checked.

use doc_bridge_model::hash::semantic_hash;
use doc_bridge_model::index::DocBridgeIndexV1;
use doc_bridge_model::index::INDEX_HASH_EXCLUDED;
use doc_bridge_model::snapshot::SNAPSHOT_HASH_EXCLUDED;
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_model::{ContentHash, SEMANTIC_HASH_ALGO};
use doc_bridge_retrieve::cache::{FileStamp, SearchCache};
use doc_bridge_retrieve::collection::Collection;
use doc_bridge_retrieve::index_hash;
use doc_bridge_retrieve::legacy::LEGACY_HASH_ALGO;
use doc_bridge_store::artifact::{ArtifactError, ReadBetween, read_json, read_json_between};
use doc_bridge_store::sealed::bytes_carry_seal;
use std::path::Path;

use crate::exit::UserError;
use crate::repo::Repo;
use doc_bridge_model::timing::phase;

use super::*;

/// What search needs: the collection and ranking settings of a verified, fresh (or explicitly
/// allowed stale) index.
pub struct Searchable {
    /// The collection.
    pub collection: Collection,
    /// Ranking settings.
    pub retrieval: doc_bridge_model::index::RetrievalSettings,
    /// Set when answering from a stale index.
    pub stale: Option<doc_bridge_retrieve::Freshness>,
}

/// Loads what search needs. Fast path: the search cache, when `index.json` has not changed since
/// the cache verified it, and an inputs fingerprint equal to the index's. Otherwise the index is
/// read and verified ([`load_for_query`]) and the cache rebuilt.
pub fn load_for_search(repo: &Repo, allow_stale: bool) -> Result<Searchable, UserError> {
    if let Some(stamp) = file_stamp(&repo.artifact(INDEX_FILE)) {
        // Reading the cache and checking the inputs are independent: do both at once (on a
        // cache miss the check is wasted, and the slow path below repeats it). The check goes
        // first: `join` runs it at once on the worker that takes the job, while the cache read
        // waits for the other worker to steal it, and that worker then helps with the stats.
        let (current, cache) = rayon::join(
            || phase("fingerprint inputs", || current_inputs_hash(repo)),
            || {
                phase("open search cache", || {
                    SearchCache::open(&repo.artifact(SEARCH_CACHE_FILE), &stamp)
                })
            },
        );
        if let Some(cache) = cache
            && current? == cache.inputs_hash
        {
            return Ok(Searchable {
                collection: cache.collection,
                retrieval: cache.retrieval,
                stale: None,
            });
        }
    }
    let loaded = load_for_query(repo, allow_stale)?;
    let collection = Collection::build(&loaded.index.projection);
    if loaded.stale.is_none() {
        write_search_cache(repo, &loaded.index, &collection);
    }
    Ok(Searchable {
        collection,
        retrieval: loaded.index.retrieval,
        stale: loaded.stale,
    })
}

/// Why a stored index cannot be used.
#[derive(Debug)]
pub enum IndexState {
    /// No index file.
    Missing,
    /// Unreadable, malformed, sealed by an unknown algorithm, or its seal does not match.
    Invalid(String),
    /// A valid index sealed with the legacy `sha256-normalized-v1`: to migrate, never to answer
    /// from (see `doc_bridge_retrieve::legacy`).
    Legacy(doc_bridge_retrieve::legacy::LegacyIndex),
    /// A valid index.
    Valid(Box<DocBridgeIndexV1>),
}

/// What the search cache vouches for: `index.json` is, byte for byte, the index it was made from
/// (same inode, size and modification time as when that index was written or verified), whose
/// seal and inputs fingerprint are these. The same trust the stamp cache gives input files.
pub struct Vouched {
    /// The index's `contentHash`.
    pub index_hash: ContentHash,
    /// The index's `inputs.hash`.
    pub inputs_hash: ContentHash,
    /// The stamp `snapshot.json` had when it was written with that index, if the cache knows.
    pub snapshot_stamp: Option<FileStamp>,
}

/// The search cache's word on `index.json` as it is now; `None` when there is no cache made for
/// this very file (missing, damaged, from another build, or the index changed since).
pub fn vouched_index(repo: &Repo) -> Option<Vouched> {
    vouched_for(repo, &file_stamp(&repo.artifact(INDEX_FILE))?)
}

/// The search cache's word on an `index.json` with this stamp (see [`vouched_index`]).
fn vouched_for(repo: &Repo, stamp: &FileStamp) -> Option<Vouched> {
    let header = phase("read search cache header", || {
        SearchCache::header(&repo.artifact(SEARCH_CACHE_FILE), stamp)
    })?;
    Some(Vouched {
        index_hash: header.index_hash,
        inputs_hash: header.inputs_hash,
        snapshot_stamp: header.snapshot_stamp,
    })
}

/// Loads and verifies the stored index. Never writes. The seal is checked by hashing the index
/// again, unless the search cache vouches for the file as it was while it was read (the same
/// stamp just before and just after: nothing wrote to it meanwhile, as `index --watch` may to a
/// file a slow reader still holds) and the index read carries the seal it vouched for: hashing
/// a large index takes as long as reading it.
pub fn load_index(repo: &Repo) -> IndexState {
    load_index_vouched(repo).0
}

/// [`load_index`], with what the search cache vouched for when it vouched for the index read
/// (its snapshot stamp then vouches for the snapshot too, see [`verified_snapshot`]).
fn load_index_vouched(repo: &Repo) -> (IndexState, Option<Vouched>) {
    let path = repo.artifact(INDEX_FILE);
    // Read the algorithm first, so an index from another algorithm is named as such rather than
    // reported as a schema error.
    if let Some(algo) = read_algorithm(&path)
        && algo != SEMANTIC_HASH_ALGO
    {
        if algo == LEGACY_HASH_ALGO {
            return (load_legacy(&path), None);
        }
        let why = format!(
            "it was sealed with `{algo}`, which this doc-bridge does not know (it reads `{SEMANTIC_HASH_ALGO}`, and `{LEGACY_HASH_ALGO}` to migrate it): install a doc-bridge that reads `{algo}`, or regenerate the index with `doc-bridge index`"
        );
        return (IndexState::Invalid(why), None);
    }
    let ReadBetween {
        value: index,
        before,
        after,
        bytes,
    } = match phase("read index", || {
        read_json_between::<DocBridgeIndexV1>(&path)
    }) {
        Ok(Some(read)) => read,
        Ok(None) => return (IndexState::Missing, None),
        Err(ArtifactError::Malformed { detail, .. }) => {
            let why = format!("it is not a valid index: {detail}");
            return (IndexState::Invalid(why), None);
        }
        Err(e) => return (IndexState::Invalid(e.to_string()), None),
    };
    let vouched = steady_stamp(&before, &after)
        .and_then(|stamp| vouched_for(repo, &stamp))
        .filter(|v| v.index_hash == index.content_hash);
    if vouched.is_some() {
        return (IndexState::Valid(Box::new(index)), vouched);
    }
    // On the bytes as written (one line of canonical JSON); a file of the same content laid out
    // otherwise (indented by an older doc-bridge or by hand) is hashed again from its value.
    let sealed = phase("verify index", || {
        bytes_carry_seal(&bytes, INDEX_HASH_EXCLUDED, &index.content_hash)
            || index_hash(&index).as_ref() == Some(&index.content_hash)
    });
    drop(bytes);
    match sealed {
        true => (IndexState::Valid(Box::new(index)), None),
        false => {
            let why = "its contentHash does not match its content (edited or corrupt)";
            (IndexState::Invalid(why.to_owned()), None)
        }
    }
}

/// Reads an index that declares the legacy algorithm: valid (to migrate) or corrupt.
fn load_legacy(path: &Path) -> IndexState {
    match phase("read legacy index", || read_json::<serde_json::Value>(path)) {
        Ok(Some(value)) => match doc_bridge_retrieve::legacy::read(&value) {
            Ok(legacy) => IndexState::Legacy(legacy),
            Err(e) => IndexState::Invalid(e.to_string()),
        },
        Ok(None) => IndexState::Missing,
        Err(ArtifactError::Malformed { detail, .. }) => {
            IndexState::Invalid(format!("it is not a valid index: {detail}"))
        }
        Err(e) => IndexState::Invalid(e.to_string()),
    }
}

/// What every command says of a valid legacy index it cannot answer from (exit 1).
pub fn legacy_message() -> String {
    format!(
        "index at .doc-bridge/index.json is sealed with the legacy `{LEGACY_HASH_ALGO}` (its seal is valid); queries need `{SEMANTIC_HASH_ALGO}`: run `doc-bridge index` to migrate it"
    )
}

/// An index loaded for answering queries: verified, and checked for freshness.
pub struct Loaded {
    /// The index.
    pub index: DocBridgeIndexV1,
    /// Set when the index is stale (only with `allow_stale`).
    pub stale: Option<doc_bridge_retrieve::Freshness>,
}

/// Loads and verifies the stored index (no freshness check), with the message every command
/// gives for a missing or invalid one (exit 2).
pub fn verified_index(repo: &Repo) -> Result<DocBridgeIndexV1, UserError> {
    verified_index_vouched(repo).map(|(index, _)| index)
}

/// [`verified_index`], with what the search cache vouched for (see [`load_index_vouched`]).
fn verified_index_vouched(repo: &Repo) -> Result<(DocBridgeIndexV1, Option<Vouched>), UserError> {
    match load_index_vouched(repo) {
        (IndexState::Valid(index), vouched) => Ok((*index, vouched)),
        (IndexState::Missing, _) => Err(UserError::error(
            "no index at .doc-bridge/index.json; run `doc-bridge index`",
        )),
        (IndexState::Invalid(why), _) => Err(UserError::error(format!(
            "index at .doc-bridge/index.json is invalid: {why}; run `doc-bridge index` to regenerate it"
        ))),
        (IndexState::Legacy(_), _) => Err(UserError::findings(legacy_message())),
    }
}

/// The message for a stale index (exit 1), as every query command words it.
pub fn stale_error(freshness: &doc_bridge_retrieve::Freshness) -> UserError {
    UserError::findings(format!(
        "index is stale: {}; run `doc-bridge index` (or pass --allow-stale)",
        freshness.summary(10)
    ))
}

/// Loads the index, verifies its seal, and checks freshness by re-fingerprinting inputs.
/// Missing or invalid: exit 2. Stale: exit 1 naming the changed files, unless `allow_stale`.
pub fn load_for_query(repo: &Repo, allow_stale: bool) -> Result<Loaded, UserError> {
    load_for_query_vouched(repo, allow_stale).map(|(loaded, _)| loaded)
}

/// [`load_for_query`], with what the search cache vouched for (see [`load_index_vouched`]).
fn load_for_query_vouched(
    repo: &Repo,
    allow_stale: bool,
) -> Result<(Loaded, Option<Vouched>), UserError> {
    let (index, vouched) = verified_index_vouched(repo)?;
    let freshness = freshness_of(repo, &index)?;
    let stale = if freshness.is_fresh() {
        None
    } else if allow_stale {
        Some(freshness)
    } else {
        return Err(stale_error(&freshness));
    };
    Ok((Loaded { index, stale }, vouched))
}

/// [`load_for_query`] and the snapshot the index was built from, the two files read and parsed
/// at the same time (on a large repository each takes seconds). The index's errors (stale
/// included) come first; the snapshot must be the one the index's projection names, and sealed
/// as it says ([`verified_snapshot`]).
pub fn load_for_query_with_snapshot(
    repo: &Repo,
    allow_stale: bool,
) -> Result<(Loaded, Snapshot), UserError> {
    let (loaded, read) = rayon::join(
        || load_for_query_vouched(repo, allow_stale),
        || read_snapshot(repo),
    );
    let (loaded, vouched) = loaded?;
    let snapshot = verified_snapshot(repo, &loaded.index, vouched.as_ref(), read?)?;
    Ok((loaded, snapshot))
}

/// Whether `snapshot.json` (or the snapshot kept for the index) is the one `index` names,
/// sealed as it says: an error naming the snapshot otherwise. For `index --check`, which must
/// not call an index fresh beside a corrupt snapshot.
pub fn check_snapshot_of(repo: &Repo, index: &DocBridgeIndexV1) -> Result<(), UserError> {
    verified_snapshot(repo, index, None, read_snapshot(repo)?).map(|_| ())
}

/// Whether `snapshot.json` still has the stamp the search cache recorded for it.
pub fn snapshot_as_vouched(repo: &Repo, vouched: &Vouched) -> bool {
    vouched.snapshot_stamp.is_some()
        && file_stamp(&repo.artifact(SNAPSHOT_FILE)) == vouched.snapshot_stamp
}

/// [`verified_index`] and the snapshot it was built from, the two files read at the same time.
pub fn verified_index_with_snapshot(
    repo: &Repo,
) -> Result<(DocBridgeIndexV1, Snapshot), UserError> {
    let (index, read) = rayon::join(|| verified_index_vouched(repo), || read_snapshot(repo));
    let (index, vouched) = index?;
    let snapshot = verified_snapshot(repo, &index, vouched.as_ref(), read?)?;
    Ok((index, snapshot))
}

/// The stamp of a file read between these two looks at it, when they agree (nothing wrote to
/// it in between); `None` otherwise.
fn steady_stamp(before: &std::fs::Metadata, after: &std::fs::Metadata) -> Option<FileStamp> {
    let stamp = stamp_of(before)?;
    (stamp_of(after)? == stamp).then_some(stamp)
}

/// A snapshot as read, with the stamp its file had while it was read, if steady (for
/// [`verified_snapshot`]).
pub struct ReadSnapshot {
    stamp: Option<FileStamp>,
    snapshot: Snapshot,
    /// The bytes parsed, for checking the seal on them when nothing vouches for the file.
    bytes: Vec<u8>,
}

const REGENERATE: &str = "run `doc-bridge index` to regenerate it";

/// Reads and parses `snapshot.json`; missing or malformed is an error naming the fix.
fn read_snapshot(repo: &Repo) -> Result<ReadSnapshot, UserError> {
    let path = repo.artifact(SNAPSHOT_FILE);
    match phase("read snapshot", || read_json_between::<Snapshot>(&path)) {
        Ok(Some(read)) => Ok(ReadSnapshot {
            stamp: steady_stamp(&read.before, &read.after),
            snapshot: read.value,
            bytes: read.bytes,
        }),
        Ok(None) => Err(UserError::error(format!(
            "no snapshot at .doc-bridge/snapshot.json; {REGENERATE}"
        ))),
        Err(e) => Err(UserError::error(format!(
            "snapshot is invalid: {e}; {REGENERATE}"
        ))),
    }
}

/// The kept snapshot ([`keep_paired_snapshot`]) when it is the one `index` names.
fn paired_snapshot(repo: &Repo, index: &DocBridgeIndexV1) -> Option<Snapshot> {
    let path = repo.artifact(PAIRED_SNAPSHOT_FILE);
    let read = read_json_between::<Snapshot>(&path).ok()??;
    let snapshot = read.value;
    if snapshot.content_hash != index.projection.snapshot_hash {
        return None;
    }
    let sealed = bytes_carry_seal(&read.bytes, SNAPSHOT_HASH_EXCLUDED, &snapshot.content_hash)
        || semantic_hash(&snapshot, SNAPSHOT_HASH_EXCLUDED)
            .ok()
            .as_ref()
            == Some(&snapshot.content_hash);
    sealed.then_some(snapshot)
}

/// The snapshot read, once it is the one `index` was built from: named by the index's
/// projection, and sealed as it says (hashed again unless `vouched`, the record that vouched for
/// the index, also records the snapshot file it was read from).
fn verified_snapshot(
    repo: &Repo,
    index: &DocBridgeIndexV1,
    vouched: Option<&Vouched>,
    read: ReadSnapshot,
) -> Result<Snapshot, UserError> {
    let ReadSnapshot {
        stamp,
        snapshot,
        bytes,
    } = read;
    let mismatch = || {
        UserError::error(format!(
            "snapshot at .doc-bridge/snapshot.json does not match the index (edited, corrupt or from another run); {REGENERATE}"
        ))
    };
    if snapshot.content_hash != index.projection.snapshot_hash {
        // An `index` or `scan` that replaced the snapshot and not (yet) the index: the index's
        // own snapshot was kept.
        return paired_snapshot(repo, index).ok_or_else(mismatch);
    }
    // Only the record that vouched for this very index speaks for its snapshot.
    let vouched = vouched
        .filter(|v| v.index_hash == index.content_hash)
        .and_then(|v| v.snapshot_stamp)
        .is_some_and(|recorded| stamp == Some(recorded));
    if vouched {
        return Ok(snapshot);
    }
    // On the bytes as written; a file laid out otherwise is hashed again from its value.
    if phase("verify snapshot", || {
        bytes_carry_seal(&bytes, SNAPSHOT_HASH_EXCLUDED, &snapshot.content_hash)
    }) {
        return Ok(snapshot);
    }
    drop(bytes);
    let hash = phase("verify snapshot (parsed)", || {
        semantic_hash(&snapshot, SNAPSHOT_HASH_EXCLUDED)
    })
    .ok();
    if hash.as_ref() != Some(&snapshot.content_hash) {
        return Err(mismatch());
    }
    Ok(snapshot)
}
