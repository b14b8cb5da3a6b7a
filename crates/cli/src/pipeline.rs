//! The index pipeline: walk → observe → snapshot → index, and the freshness fingerprint.
//! Artifacts are written atomically and only when their bytes change.

use std::collections::BTreeMap;

use doc_bridge_discover::analysis_cache::AnalysisCache;
use doc_bridge_discover::areas::AreaRules;
use doc_bridge_discover::observe::{ObservedFile, observe_and_stat_all};
pub use doc_bridge_discover::seal_snapshot;
use doc_bridge_discover::stamps::{Stamps, hash_all_stamped, now_ns};
use doc_bridge_discover::walk::WalkedFile;
use doc_bridge_discover::{
    BuildOptions, WalkOptions, analyzer_versions, build_snapshot, build_snapshot_unsealed_from,
    walk,
};
use doc_bridge_model::index::{DocBridgeIndexV1, Inputs};
use doc_bridge_model::snapshot::{Ecosystem, Entity, Snapshot};
use doc_bridge_model::{ContentHash, RelPath, SEMANTIC_HASH_ALGO};
use doc_bridge_retrieve::cache::{FileStamp, SEARCH_CACHE_FORMAT, SearchCache};
use doc_bridge_retrieve::collection::Collection;
use doc_bridge_retrieve::legacy::LEGACY_HASH_ALGO;
use doc_bridge_retrieve::{
    IndexOptions, build_index_with_collection, build_unsealed_index_with_collection,
    configuration_hash, fingerprint, index_hash,
};
use doc_bridge_store::artifact::{
    ArtifactError, read_json, read_json_between, to_artifact_bytes, write_atomic,
};
use std::path::Path;

use crate::clock::now_rfc3339;
use crate::exit::UserError;
use crate::progress::Progress;
use crate::repo::Repo;
use doc_bridge_model::enrichment::{EnrichmentOverlayV1, validate_overlay};
use doc_bridge_model::timing::phase;
use doc_bridge_retrieve::overlay::OverlaySignals;

/// The snapshot file name.
pub const SNAPSHOT_FILE: &str = "snapshot.json";
/// The index file name.
pub const INDEX_FILE: &str = "index.json";

/// The walk options of a repository (its safety excludes).
pub fn walk_options(repo: &Repo) -> WalkOptions {
    WalkOptions {
        exclude: repo.config.safety.exclude.clone(),
        threads: 0,
        skip_files: crate::llms::output_path(repo).into_iter().collect(),
        defer_stat: false,
    }
}

/// Walks and observes the repository, and builds the snapshot (keeping the previous
/// `generatedAt` when the content did not change).
pub fn scan(repo: &Repo, progress: &Progress) -> Result<Scanned, UserError> {
    let mut scanned = scan_unsealed(repo, progress)?;
    let previous = read_head(&repo.artifact(SNAPSHOT_FILE));
    let hash = seal_snapshot(&scanned.snapshot);
    let generated_at = kept_generated_at(previous, &hash, &scanned.snapshot.generated_at);
    scanned.snapshot.content_hash = hash;
    scanned.snapshot.generated_at = generated_at;
    Ok(scanned)
}

/// [`scan`] up to, not including, the snapshot's seal: its `content_hash` is a placeholder
/// and its `generatedAt` this run's, until the caller seals it ([`seal_snapshot`]) and decides
/// the time with the previous snapshot's head ([`read_head`], [`kept_generated_at`]).
pub fn scan_unsealed(repo: &Repo, progress: &Progress) -> Result<Scanned, UserError> {
    // Every file is opened anyway: its size and time come from the open file, not a stat by
    // path during the walk.
    let options = WalkOptions {
        defer_stat: true,
        ..walk_options(repo)
    };
    let mut walked = phase("walk", || walk(&repo.root, &options))
        .map_err(|e| UserError::error(e.to_string()))?;
    let bar = progress.bar(walked.files.len() as u64, "analysing");
    let cache = std::fs::read(repo.artifact(ANALYSIS_CACHE_FILE))
        .map(|b| AnalysisCache::from_bytes(&b))
        .unwrap_or_default();
    let observed: Vec<ObservedFile> = phase("observe", || {
        observe_and_stat_all(
            &repo.root_dir,
            &mut walked.files,
            repo.config.safety.max_file_bytes(),
            &cache,
            &|| bar.inc(1),
        )
    });
    drop(cache);
    let analyses = AnalysisCache::from_observed(&observed);
    let reused = observed.iter().filter(|f| f.reused).count();
    bar.finish_and_clear();
    let options = build_options(repo, &observed);
    // The observations are not needed after this: their bodies move into the snapshot.
    let snapshot = phase("snapshot", || {
        build_snapshot_unsealed_from(
            observed,
            walked.diagnostics,
            &options,
            &exists_on_disk(repo),
            now_rfc3339(),
        )
    });
    Ok(Scanned {
        snapshot,
        walked: walked.files,
        analyses,
        reused,
    })
}

/// The `generatedAt` an artifact sealed to `hash` records: the previous one's when its content
/// did not change (so an unchanged repository gives byte-identical files), else `now`.
pub fn kept_generated_at(previous: Option<Head>, hash: &ContentHash, now: &str) -> String {
    match previous {
        Some(previous) if previous.content_hash == *hash => previous.generated_at,
        _ => now.to_owned(),
    }
}

fn build_options(repo: &Repo, observed: &[ObservedFile]) -> BuildOptions {
    BuildOptions {
        project_name: project_name(repo, observed),
        agent_root: repo.agent_root(),
        area_rules: AreaRules {
            depth: repo.config.analysis.areas.depth(),
            source_roots: repo.config.analysis.areas.source_roots(),
        },
    }
}

/// Whether a path exists on disk although the walk did not admit it (ignored files): links to
/// it are not broken.
fn exists_on_disk(repo: &Repo) -> impl Fn(&RelPath) -> bool + Sync + use<> {
    let root = repo.root.clone();
    move |path: &RelPath| root.join(path.as_str()).symlink_metadata().is_ok()
}

/// Builds the snapshot from observed files (in walk order) and the walk's diagnostics, keeping
/// the previous `generatedAt` when the content did not change. Shared by `index` and the watch
/// loop, so both write the same bytes for the same tree.
pub fn snapshot_of(
    repo: &Repo,
    observed: &[ObservedFile],
    walk_diagnostics: Vec<doc_bridge_model::snapshot::Diagnostic>,
) -> Snapshot {
    let previous = read_head(&repo.artifact(SNAPSHOT_FILE));
    snapshot_after(repo, observed, walk_diagnostics, previous)
}

/// [`snapshot_of`] with the previous snapshot's head already known (the watch loop keeps it,
/// instead of parsing the whole previous artifact again).
pub fn snapshot_after(
    repo: &Repo,
    observed: &[ObservedFile],
    walk_diagnostics: Vec<doc_bridge_model::snapshot::Diagnostic>,
    previous: Option<Head>,
) -> Snapshot {
    let options = build_options(repo, observed);
    let mut snapshot = phase("snapshot", || {
        build_snapshot(
            observed,
            walk_diagnostics,
            &options,
            &exists_on_disk(repo),
            now_rfc3339(),
        )
    });
    snapshot.generated_at =
        kept_generated_at(previous, &snapshot.content_hash, &snapshot.generated_at);
    snapshot
}

/// What a scan produced: the snapshot, the walked files (for stamps) and this run's analyses (for
/// the analysis cache).
pub struct Scanned {
    /// The snapshot.
    pub snapshot: Snapshot,
    /// The walked files.
    pub walked: Vec<WalkedFile>,
    /// Source analyses to cache.
    pub analyses: AnalysisCache,
    /// Modules whose analysis came from the cache (reported, never written to an artifact: the
    /// artifacts of an unchanged repository must not depend on cache state).
    pub reused: usize,
}

/// The analysis cache, under `.doc-bridge/`.
pub const ANALYSIS_CACHE_FILE: &str = "cache/analyses.bin";

/// The project name: configured, else the root package's name, else the directory name.
fn project_name(repo: &Repo, observed: &[ObservedFile]) -> String {
    if let Some(name) = &repo.config.project.name {
        return name.clone();
    }
    let root_manifest = observed.iter().find_map(|f| match &f.analysis {
        doc_bridge_discover::observe::Analysis::Manifest(facts)
            if f.record.path.parent().is_root() && facts.ecosystem != Ecosystem::Go =>
        {
            facts.name.clone()
        }
        _ => None,
    });
    root_manifest.unwrap_or_else(|| repo.default_project_name())
}

/// The inputs fingerprint of a snapshot.
pub fn snapshot_inputs(repo: &Repo, snapshot: &Snapshot) -> Inputs {
    let files = snapshot
        .files
        .iter()
        .map(|f| (f.path.clone(), f.content_hash.clone()))
        .collect();
    fingerprint(
        files,
        inputs_configuration_hash(repo),
        snapshot.analyzers.clone(),
    )
}

/// The freshness of recorded inputs against the repository as it is now. The stamp cache decides
/// the common case alone (no file moved: the inputs hash is recomputed from the recorded file
/// digest); anything else fingerprints the repository ([`current_inputs`]) and names what moved.
pub fn freshness_of(
    repo: &Repo,
    index: &DocBridgeIndexV1,
) -> Result<doc_bridge_retrieve::Freshness, UserError> {
    freshness_with(repo, index, Stamping::Record)
}

/// [`freshness_of`] without its one write: the stamp cache is read, never recorded (`doctor`,
/// which writes nothing at all).
pub fn freshness_read_only(
    repo: &Repo,
    index: &DocBridgeIndexV1,
) -> Result<doc_bridge_retrieve::Freshness, UserError> {
    freshness_with(repo, index, Stamping::ReadOnly)
}

/// Whether fingerprinting records what it learned in the stamp cache (a derived cache: writing
/// it changes no answer, only the cost of the next one).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stamping {
    Record,
    ReadOnly,
}

fn freshness_with(
    repo: &Repo,
    index: &DocBridgeIndexV1,
    stamping: Stamping,
) -> Result<doc_bridge_retrieve::Freshness, UserError> {
    let recorded = &index.inputs;
    let stamps = read_stamps(repo);
    let freshness = if unchanged_inputs_hash(repo, &stamps).as_ref() == Some(&recorded.hash) {
        doc_bridge_retrieve::Freshness::default()
    } else {
        let current = current_inputs_with(repo, stamps, stamping)?;
        doc_bridge_retrieve::compare(recorded, &current)
    };
    Ok(freshness.with_lexicon(index.retrieval.lexicon_version))
}

/// The current `inputs.hash`: from the stamp cache when it vouches for every file, else by
/// fingerprinting the repository.
pub fn current_inputs_hash(repo: &Repo) -> Result<ContentHash, UserError> {
    let stamps = read_stamps(repo);
    match unchanged_inputs_hash(repo, &stamps) {
        Some(hash) => Ok(hash),
        None => Ok(current_inputs_with(repo, stamps, Stamping::Record)?.hash),
    }
}

/// `inputs.hash` when no input file moved since the stamp cache was recorded (no file is read,
/// no list is built); `None` when the cache cannot vouch for that.
fn unchanged_inputs_hash(repo: &Repo, stamps: &Stamps) -> Option<ContentHash> {
    let digest = phase("unchanged stamps", || {
        stamps.unchanged_digest(&repo.root, now_ns())
    })?;
    Some(doc_bridge_retrieve::inputs::inputs_hash(
        &digest,
        stamps.file_count() as u64,
        &inputs_configuration_hash(repo),
        &analyzer_versions(),
    ))
}

fn read_stamps(repo: &Repo) -> Stamps {
    phase("read stamps", || {
        std::fs::read(repo.artifact(STAMPS_FILE))
            .map(|b| Stamps::from_bytes(&b))
            .unwrap_or_default()
    })
}

/// The inputs fingerprint of the repository as it is now, by hashing only: files whose size and
/// modification time match the stamp cache are not read again.
pub fn current_inputs(repo: &Repo) -> Result<Inputs, UserError> {
    current_inputs_with(repo, read_stamps(repo), Stamping::Record)
}

fn current_inputs_with(
    repo: &Repo,
    stamps: Stamps,
    stamping: Stamping,
) -> Result<Inputs, UserError> {
    let stamps_path = repo.artifact(STAMPS_FILE);
    // No directory and no ignore file moved since the last full walk: the same files, stat'ed
    // only. Otherwise walk, and record the listing for next time.
    let quick = phase("quick walk", || stamps.quick_walk(&repo.root));
    let (files, walked) = match quick {
        Some(files) => (files, None),
        None => {
            let walked = phase("walk", || walk(&repo.root, &walk_options(repo)))
                .map_err(|e| UserError::error(e.to_string()))?;
            (Vec::new(), Some(walked))
        }
    };
    let files = walked.as_ref().map_or(&files, |w| &w.files);
    let now = now_ns();
    let (hashes, read) = phase("hash files", || {
        hash_all_stamped(&repo.root_dir, files, &stamps, now)
    });
    // Best effort: the stamp cache is a speed-up; failing to write it changes no answer.
    let recorded = match &walked {
        Some(walked) => Some(Stamps::record_walk(walked, &repo.root, &hashes, now)),
        None if read > 0 => {
            let mut again = stamps.clone();
            again.refresh(files, &hashes, now);
            Some(again)
        }
        None => None,
    };
    if let Some(recorded) = recorded.filter(|r| *r != stamps && stamping == Stamping::Record) {
        let _ = write_atomic(&stamps_path, &recorded.to_bytes());
    }
    let files: BTreeMap<RelPath, ContentHash> = hashes.into_iter().collect();
    Ok(phase("fingerprint", || {
        fingerprint(files, inputs_configuration_hash(repo), analyzer_versions())
    }))
}

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

/// The caches that depend only on the scan: analyses and file stamps. Best effort: caches only
/// make later commands faster.
pub fn write_file_caches(
    repo: &Repo,
    walked: &[WalkedFile],
    snapshot: &Snapshot,
    analyses: &AnalysisCache,
) {
    let _ = write_atomic(&repo.artifact(ANALYSIS_CACHE_FILE), &analyses.to_bytes());
    let hashes: Vec<(RelPath, ContentHash)> = snapshot
        .files
        .iter()
        .map(|f| (f.path.clone(), f.content_hash.clone()))
        .collect();
    let _ = write_atomic(
        &repo.artifact(STAMPS_FILE),
        &Stamps::record(walked, &hashes, now_ns()).to_bytes(),
    );
}

/// The search cache, keyed by the stamp of the `index.json` just written (so it must follow
/// that write). Best effort; returns the collection back when it wrote.
pub fn write_search_cache(
    repo: &Repo,
    index: &DocBridgeIndexV1,
    collection: Collection,
) -> Option<Collection> {
    let stamp = file_stamp(&repo.artifact(INDEX_FILE))?;
    Some(write_search_cache_for(repo, index, collection, stamp, None))
}

/// [`write_search_cache`] for an `index.json` whose stamp is known (it may still be on its way
/// into place: see `artifact::PendingWrite`), and the stamp of the `snapshot.json` it was built
/// from when the caller knows it. Returns the collection back.
pub fn write_search_cache_for(
    repo: &Repo,
    index: &DocBridgeIndexV1,
    collection: Collection,
    stamp: FileStamp,
    snapshot_stamp: Option<FileStamp>,
) -> Collection {
    let cache = SearchCache {
        format: SEARCH_CACHE_FORMAT,
        lexicon_version: doc_bridge_model::retrieval::LEXICON_VERSION,
        index_stamp: stamp,
        index_hash: index.content_hash.clone(),
        inputs_hash: index.inputs.hash.clone(),
        snapshot_stamp,
        retrieval: index.retrieval.clone(),
        collection,
    };
    // Checksummed and verified on every read: no need to wait for the disk.
    let _ = doc_bridge_store::artifact::write_cache_atomic(
        &repo.artifact(SEARCH_CACHE_FILE),
        &cache.to_bytes(),
    );
    cache.collection
}

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
    let collection = if loaded.stale.is_none() {
        write_search_cache(repo, &loaded.index, collection.clone()).unwrap_or(collection)
    } else {
        collection
    };
    Ok(Searchable {
        collection,
        retrieval: loaded.index.retrieval,
        stale: loaded.stale,
    })
}

/// Builds the index from a snapshot, keeping the previous `generatedAt` when the hash is equal.
pub fn index(repo: &Repo, snapshot: &Snapshot) -> (DocBridgeIndexV1, Collection) {
    index_after(repo, snapshot, read_head(&repo.artifact(INDEX_FILE)))
}

/// [`index`] with the previous index's head already known.
pub fn index_after(
    repo: &Repo,
    snapshot: &Snapshot,
    previous: Option<Head>,
) -> (DocBridgeIndexV1, Collection) {
    let (mut index, collection) = index_from(repo, snapshot, None, true);
    index.generated_at = kept_generated_at(previous, &index.content_hash, &index.generated_at);
    (index, collection)
}

/// Builds the index from a snapshot that may not be sealed yet (`snapshot_hash` then gives its
/// seal, see `IndexOptions::snapshot_hash`); sealed unless `seal_index` is false (the caller
/// seals it as it writes it). Its `generatedAt` is the snapshot's, for the caller to settle
/// with [`kept_generated_at`] once both are sealed.
pub fn index_from(
    repo: &Repo,
    snapshot: &Snapshot,
    snapshot_hash: Option<&(dyn Fn() -> ContentHash + Sync)>,
    seal_index: bool,
) -> (DocBridgeIndexV1, Collection) {
    let agent_root = repo.agent_root();
    let options = IndexOptions {
        config: &repo.config,
        agent_root: agent_root.as_ref(),
        inputs: snapshot_inputs(repo, snapshot),
        generated_at: snapshot.generated_at.clone(),
        overlay: &overlay_signals_for(repo, snapshot),
        snapshot_hash,
    };
    phase("index", || {
        if seal_index {
            build_index_with_collection(snapshot, options)
        } else {
            build_unsealed_index_with_collection(snapshot, options)
        }
    })
}

pub use crate::head::{Head, read_algorithm, read_head};

/// The result of the thread that wrote the snapshot (`index` and the watch loop write it while
/// the index builds); a panic there (a bug) becomes an error instead of tearing the process down.
pub fn snapshot_written(
    result: std::thread::Result<Result<bool, UserError>>,
) -> Result<bool, UserError> {
    result.unwrap_or_else(|_| {
        Err(UserError::error(
            "internal error: writing the snapshot failed",
        ))
    })
}

/// Writes an artifact atomically unless the file already holds exactly these bytes.
/// Returns whether it wrote.
pub fn write_if_changed<T: serde::Serialize>(
    path: &std::path::Path,
    value: &T,
) -> Result<bool, UserError> {
    let bytes = to_artifact_bytes(value).map_err(|e| UserError::error(e.to_string()))?;
    doc_bridge_store::artifact::write_bytes_if_changed(path, &bytes)
        .map_err(|e| UserError::error(format!("cannot write artifact: {e}")))
}

/// [`write_if_changed`] for an artifact sealed to `hash`: inside an encoding memo that sealed
/// it, streamed from the seal's pieces (see `artifact::write_sealed_if_changed`).
pub fn write_sealed_if_changed<T: serde::Serialize>(
    path: &std::path::Path,
    value: &T,
    hash: &doc_bridge_model::ContentHash,
) -> Result<bool, UserError> {
    doc_bridge_store::artifact::write_sealed_if_changed(path, value, hash)
        .map_err(|e| UserError::error(format!("cannot write artifact: {e}")))
}

/// [`write_sealed_if_changed`] up to the sync and the rename, which
/// [`doc_bridge_store::artifact::PendingWrite::commit`] does.
pub fn prepare_sealed_if_changed<T: serde::Serialize>(
    path: &std::path::Path,
    value: &T,
    hash: &doc_bridge_model::ContentHash,
) -> Result<doc_bridge_store::artifact::PendingWrite, UserError> {
    doc_bridge_store::artifact::prepare_sealed_if_changed(path, value, hash)
        .map_err(|e| UserError::error(format!("cannot write artifact: {e}")))
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
    let (index, before, after) = match phase("read index", || {
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
    match phase("verify index", || index_hash(&index)) {
        Some(hash) if hash == index.content_hash => (IndexState::Valid(Box::new(index)), None),
        _ => {
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

/// Counts of entities by kind, for summaries.
pub fn entity_counts(snapshot: &Snapshot) -> BTreeMap<&'static str, u64> {
    let mut counts = BTreeMap::from([("area", 0), ("document", 0), ("module", 0), ("package", 0)]);
    for entity in &snapshot.entities {
        let kind = match entity {
            Entity::Document(_) => "document",
            Entity::Module(_) => "module",
            Entity::Area(_) => "area",
            Entity::Package(_) => "package",
        };
        *counts.entry(kind).or_default() += 1;
    }
    counts
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
}

const REGENERATE: &str = "run `doc-bridge index` to regenerate it";

/// Reads and parses `snapshot.json`; missing or malformed is an error naming the fix.
fn read_snapshot(repo: &Repo) -> Result<ReadSnapshot, UserError> {
    let path = repo.artifact(SNAPSHOT_FILE);
    match phase("read snapshot", || read_json_between::<Snapshot>(&path)) {
        Ok(Some((snapshot, before, after))) => Ok(ReadSnapshot {
            stamp: steady_stamp(&before, &after),
            snapshot,
        }),
        Ok(None) => Err(UserError::error(format!(
            "no snapshot at .doc-bridge/snapshot.json; {REGENERATE}"
        ))),
        Err(e) => Err(UserError::error(format!(
            "snapshot is invalid: {e}; {REGENERATE}"
        ))),
    }
}

/// How old a temporary file must be before [`remove_stale_temp_files`] takes it for one a
/// killed run left behind (a live write renames its temporary file within seconds).
const STALE_TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(15 * 60);

/// Removes the temporary files (`.doc-bridge-tmp-*`) that runs killed mid-write left in the
/// directories doc-bridge writes: `.doc-bridge/` and those under it, and `llms.txt`'s.
/// Only files older than 15 minutes, so a write in flight in another process is never touched.
/// Best effort; returns how many were removed.
pub fn remove_stale_temp_files(repo: &Repo) -> usize {
    let base = repo.root.join(crate::repo::ARTIFACT_DIR);
    let mut dirs = vec![
        base.clone(),
        base.join("cache"),
        base.join("enrich"),
        base.join("enrich/cache"),
        base.join("approvals"),
    ];
    if let Some(llms) = crate::llms::output_path(repo) {
        dirs.push(repo.root.join(llms.parent().as_str()));
    }
    let now = std::time::SystemTime::now();
    let mut removed = 0;
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if !name
                .to_str()
                .is_some_and(|n| n.starts_with(doc_bridge_store::artifact::TEMP_PREFIX))
            {
                continue;
            }
            let old = entry.metadata().ok().filter(|m| m.is_file()).and_then(|m| {
                now.duration_since(m.modified().ok()?)
                    .ok()
                    .map(|age| age >= STALE_TEMP_AGE)
            });
            if old == Some(true) && std::fs::remove_file(entry.path()).is_ok() {
                removed += 1;
            }
        }
    }
    removed
}

/// Where the snapshot an index was built from is kept while a newer one replaces it.
pub const PAIRED_SNAPSHOT_FILE: &str = "cache/snapshot-paired.json";

/// Before `snapshot.json` is replaced: keeps the current one under a second name (a hard link,
/// no copy), unless one is kept already (then `snapshot.json` is itself newer than the index,
/// and the kept one is the index's). A crash after the snapshot is replaced and before the
/// index is leaves the old index with its own snapshot, which readers find here
/// ([`verified_snapshot`]). Best effort: without the link, such a crash is reported as a
/// mismatch until the next `index`.
pub fn keep_paired_snapshot(repo: &Repo) {
    let kept = repo.artifact(PAIRED_SNAPSHOT_FILE);
    if kept.symlink_metadata().is_ok() {
        return;
    }
    let current = repo.artifact(SNAPSHOT_FILE);
    if current.symlink_metadata().is_ok_and(|m| m.is_file()) {
        if let Some(dir) = kept.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::hard_link(&current, &kept);
    }
}

/// After `index.json` names the snapshot at `snapshot.json`: the kept one is no longer needed.
pub fn release_paired_snapshot(repo: &Repo) {
    let _ = std::fs::remove_file(repo.artifact(PAIRED_SNAPSHOT_FILE));
}

/// The kept snapshot ([`keep_paired_snapshot`]) when it is the one `index` names.
fn paired_snapshot(repo: &Repo, index: &DocBridgeIndexV1) -> Option<Snapshot> {
    let path = repo.artifact(PAIRED_SNAPSHOT_FILE);
    let (snapshot, _, _) = read_json_between::<Snapshot>(&path).ok()??;
    if snapshot.content_hash != index.projection.snapshot_hash {
        return None;
    }
    let hash = doc_bridge_model::hash::semantic_hash(
        &snapshot,
        doc_bridge_model::snapshot::SNAPSHOT_HASH_EXCLUDED,
    )
    .ok()?;
    (hash == snapshot.content_hash).then_some(snapshot)
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
    let ReadSnapshot { stamp, snapshot } = read;
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
    let hash = phase("verify snapshot", || {
        doc_bridge_model::hash::semantic_hash(
            &snapshot,
            doc_bridge_model::snapshot::SNAPSHOT_HASH_EXCLUDED,
        )
    })
    .ok();
    if hash.as_ref() != Some(&snapshot.content_hash) {
        return Err(mismatch());
    }
    Ok(snapshot)
}

/// The overlay file, under `.doc-bridge/`.
pub const OVERLAY_FILE: &str = "enrich/overlay.json";

/// The stored enrichment overlay.
#[derive(Debug)]
pub enum OverlayState {
    /// No overlay file.
    Missing,
    /// Unreadable, malformed, mis-sealed or refused by the schema rules.
    Invalid(String),
    /// A valid overlay.
    Valid(Box<EnrichmentOverlayV1>),
}

/// Reads and verifies the overlay. Never writes.
pub fn load_overlay(repo: &Repo) -> OverlayState {
    match read_json::<EnrichmentOverlayV1>(&repo.artifact(OVERLAY_FILE)) {
        Ok(None) => OverlayState::Missing,
        Ok(Some(overlay)) => match validate_overlay(&overlay) {
            Ok(()) => OverlayState::Valid(Box::new(overlay)),
            Err(why) => OverlayState::Invalid(why),
        },
        Err(e) => OverlayState::Invalid(e.to_string()),
    }
}

/// Writes the overlay atomically.
pub fn write_overlay(repo: &Repo, overlay: &EnrichmentOverlayV1) -> Result<(), UserError> {
    write_if_changed(&repo.artifact(OVERLAY_FILE), overlay).map(|_| ())
}

/// Whether `intelligence.registry.enabled` is not `false`.
fn registry_enabled(repo: &Repo) -> bool {
    repo.config
        .intelligence
        .as_ref()
        .and_then(|i| i.get("registry"))
        .and_then(|r| r.get("enabled"))
        .and_then(|e| e.as_bool())
        .unwrap_or(true)
}

/// What the projection may use of the overlay: the live accepted set of a valid overlay while
/// the registry is enabled; nothing otherwise (the baseline projection, byte for byte). An
/// invalid overlay reads as no overlay, with a warning.
pub fn overlay_signals_for(repo: &Repo, snapshot: &Snapshot) -> OverlaySignals {
    if !registry_enabled(repo) {
        return OverlaySignals::default();
    }
    match load_overlay(repo) {
        OverlayState::Valid(overlay) => {
            let (live, _) = doc_bridge_enrich::expire(&overlay, snapshot);
            doc_bridge_enrich::overlay_signals(&live, repo.config.retrieval.trust_policy_aliases)
        }
        OverlayState::Missing => OverlaySignals::default(),
        OverlayState::Invalid(why) => {
            crate::errln!(
                "warning: ignoring the enrichment overlay: {why}; run `doc-bridge enrich` to rebuild it"
            );
            OverlaySignals::default()
        }
    }
}

/// Re-derives and writes the index (and its caches) from the stored snapshot and the overlay on
/// disk, so the next search reflects an enrichment decision without a manual re-index.
pub fn reindex_with_overlay(repo: &Repo) -> Result<ContentHash, UserError> {
    // The caller checked freshness before moving the overlay; the overlay is the only input that
    // changed since, and it is what this re-derivation takes in.
    let (_, snapshot) = load_for_query_with_snapshot(repo, true)?;
    let (index, collection) = index(repo, &snapshot);
    write_if_changed(&repo.artifact(INDEX_FILE), &index)?;
    if let Some(_stamp) = file_stamp(&repo.artifact(INDEX_FILE)) {
        write_search_cache(repo, &index, collection);
    }
    Ok(index.content_hash)
}

/// The configuration part of the inputs fingerprint: the configuration sections the index
/// derives from, and the overlay the projection read (a changed, added or removed overlay makes
/// the index stale).
pub fn inputs_configuration_hash(repo: &Repo) -> ContentHash {
    let overlay = if registry_enabled(repo) {
        match load_overlay(repo) {
            OverlayState::Valid(overlay) => Some(overlay.content_hash),
            OverlayState::Missing | OverlayState::Invalid(_) => None,
        }
    } else {
        None
    };
    let configuration = configuration_hash(&repo.config);
    match overlay {
        None => configuration,
        Some(overlay) => doc_bridge_model::hash::hash_canonical(&serde_json::json!({
            "configuration": configuration,
            "overlay": overlay,
        }))
        .unwrap_or(configuration),
    }
}

/// The diagnostics of `.doc-bridge/report.json` when `check` wrote it for exactly this snapshot
/// (they include the snapshot's own); otherwise the snapshot's diagnostics. A missing, corrupt or
/// older report is simply not used: the validators then see what discovery saw.
pub fn report_diagnostics(
    repo: &Repo,
    snapshot: &Snapshot,
) -> Vec<doc_bridge_model::snapshot::Diagnostic> {
    let report: Option<doc_bridge_model::report::CheckReportV1> =
        doc_bridge_store::artifact::read_json(&repo.artifact("report.json"))
            .ok()
            .flatten();
    match report {
        Some(report) if report.snapshot_hash == snapshot.content_hash => report.diagnostics,
        _ => snapshot.diagnostics.clone(),
    }
}
