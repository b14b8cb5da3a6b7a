//! Building: walk, observe, snapshot and index, and the atomic writes of the artifacts (only
//! when their bytes change), the paired snapshot kept across a replace, and the clean-up of
//! temporary files killed runs left.

use std::collections::BTreeMap;

use doc_bridge_discover::analysis_cache::AnalysisCache;
use doc_bridge_discover::areas::AreaRules;
use doc_bridge_discover::manifest::ManifestKind;
use doc_bridge_discover::observe::{ObservedFile, observe_and_stat_all};

use doc_bridge_discover::walk::WalkedFile;
use doc_bridge_discover::{BuildOptions, Disk, WalkOptions, build_snapshot_unsealed_from, walk};
use doc_bridge_model::index::DocBridgeIndexV1;
use doc_bridge_model::snapshot::{Ecosystem, Entity, Snapshot, Texts};
use doc_bridge_model::{ContentHash, RelPath};
use doc_bridge_retrieve::collection::Collection;
use doc_bridge_retrieve::{
    IndexOptions, build_index_with_collection, build_unsealed_index_with_collection,
};
use doc_bridge_store::artifact::to_artifact_bytes;

use crate::clock::now_rfc3339;
use crate::exit::UserError;
use crate::progress::Progress;
use crate::repo::Repo;
use doc_bridge_model::timing::phase;

use super::*;

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
    let (snapshot, texts) = snapshot_unsealed_of(repo, observed, walked.diagnostics);
    Ok(Scanned {
        snapshot,
        texts,
        walked: walked.files,
        dirs: walked.dirs,
        analyses,
        reused,
    })
}

/// The snapshot, not sealed yet, and its texts, from observations (in walk order) the caller has
/// no further use for: their bodies move into the texts. `index` and the watch session build it
/// so, and `commands::index::publish` seals and writes it.
pub fn snapshot_unsealed_of(
    repo: &Repo,
    observed: Vec<ObservedFile>,
    walk_diagnostics: Vec<doc_bridge_model::snapshot::Diagnostic>,
) -> (Snapshot, Texts) {
    let options = build_options(repo, &observed);
    phase("snapshot", || {
        build_snapshot_unsealed_from(
            observed,
            walk_diagnostics,
            &options,
            &OnDisk::new(repo),
            now_rfc3339(),
        )
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
        site_roots: repo.config.analysis.links.site_roots(),
    }
}

/// The disk as the snapshot build sees it beyond the walked files ([`Disk`]).
struct OnDisk {
    root: std::path::PathBuf,
    ignored: doc_bridge_discover::RootIgnore,
}

impl OnDisk {
    fn new(repo: &Repo) -> Self {
        OnDisk {
            root: repo.root.clone(),
            ignored: doc_bridge_discover::RootIgnore::read(&repo.root),
        }
    }
}

impl Disk for OnDisk {
    /// A path on disk the walk did not admit (ignored files), or one the root `.gitignore`
    /// ignores (build output, such as generated API pages): links to it are not broken.
    fn exists(&self, path: &RelPath) -> bool {
        self.ignored.ignores(path) || self.root.join(path.as_str()).symlink_metadata().is_ok()
    }

    /// A relative symbolic link's target, read without following it, when it stays inside
    /// the repository.
    fn link_target(&self, path: &RelPath) -> Option<RelPath> {
        let target = std::fs::read_link(self.root.join(path.as_str())).ok()?;
        if target.is_absolute() {
            return None;
        }
        RelPath::join_normalized(&path.parent(), target.to_str()?)
    }
}

/// What a scan produced: the snapshot, the walked files (for stamps) and this run's analyses (for
/// the analysis cache).
pub struct Scanned {
    /// The snapshot.
    pub snapshot: Snapshot,
    /// The text of its documents and modules, for the index.
    pub texts: Texts,
    /// The walked files.
    pub walked: Vec<WalkedFile>,
    /// The directories the walk entered, with their modification times.
    pub dirs: Vec<(doc_bridge_model::RelPath, Option<i128>)>,
    /// Source analyses to cache.
    pub analyses: AnalysisCache,
    /// Modules whose analysis came from the cache (reported, never written to an artifact: the
    /// artifacts of an unchanged repository must not depend on cache state).
    pub reused: usize,
}

/// The analysis cache, under `.doc-bridge/`.
pub const ANALYSIS_CACHE_FILE: &str = "cache/analyses.bin";

/// The project name: configured, else the root package's name (a solution's without `.sln`),
/// else the directory name.
fn project_name(repo: &Repo, observed: &[ObservedFile]) -> String {
    if let Some(name) = &repo.config.project.name {
        return name.clone();
    }
    let root_manifest = observed.iter().find_map(|f| match &f.analysis {
        doc_bridge_discover::observe::Analysis::Manifest(facts)
            if f.record.path.parent().is_root() && facts.ecosystem != Ecosystem::Go =>
        {
            match facts.kind {
                ManifestKind::DotnetSolution => Some(f.record.path.file_stem().to_owned()),
                _ => facts.name.clone(),
            }
        }
        _ => None,
    });
    root_manifest.unwrap_or_else(|| repo.default_project_name())
}

/// Builds the index from a snapshot and its texts, keeping the previous `generatedAt` when the
/// hash is equal.
pub fn index(repo: &Repo, snapshot: &Snapshot, texts: &Texts) -> (DocBridgeIndexV1, Collection) {
    let previous = read_head(&repo.artifact(INDEX_FILE));
    let (mut index, collection) = index_from(repo, snapshot, texts, None, true, None);
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
    texts: &Texts,
    snapshot_hash: Option<&(dyn Fn() -> ContentHash + Sync)>,
    seal_index: bool,
    tokens: Option<&doc_bridge_retrieve::token_memo::TokenMemo>,
) -> (DocBridgeIndexV1, Collection) {
    let agent_root = repo.agent_root();
    let options = IndexOptions {
        config: &repo.config,
        agent_root: agent_root.as_ref(),
        inputs: snapshot_inputs(repo, snapshot),
        generated_at: snapshot.generated_at.clone(),
        overlay: &overlay_signals_for(repo, snapshot),
        texts,
        snapshot_hash,
        tokens,
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

/// Writes a small artifact people read (indented, see `artifact::to_artifact_bytes`)
/// atomically unless the file already holds exactly these bytes. Returns whether it wrote.
pub fn write_if_changed<T: serde::Serialize>(
    path: &std::path::Path,
    value: &T,
) -> Result<bool, UserError> {
    let bytes = to_artifact_bytes(value).map_err(|e| UserError::error(e.to_string()))?;
    doc_bridge_store::artifact::write_bytes_if_changed(path, &bytes)
        .map_err(|e| UserError::error(format!("cannot write artifact: {e}")))
}

/// Writes a sealed artifact (`snapshot.json`, `index.json`; the value holds its seal) as one
/// line of canonical JSON, unless the file already holds exactly these bytes. Returns whether
/// it wrote.
pub fn write_sealed_if_changed<T: serde::Serialize>(
    path: &std::path::Path,
    value: &T,
) -> Result<bool, UserError> {
    doc_bridge_store::sealed::write_if_changed(path, value)
        .map_err(|e| UserError::error(format!("cannot write artifact: {e}")))
}

/// Counts of entities by kind, for summaries.
pub fn entity_counts(snapshot: &Snapshot) -> BTreeMap<&'static str, u64> {
    let mut counts = BTreeMap::from([
        ("area", 0),
        ("document", 0),
        ("file", 0),
        ("module", 0),
        ("package", 0),
    ]);
    for entity in &snapshot.entities {
        let kind = match entity {
            Entity::Document(_) => "document",
            Entity::Module(_) => "module",
            Entity::Area(_) => "area",
            Entity::Package(_) => "package",
            Entity::File(_) => "file",
        };
        *counts.entry(kind).or_default() += 1;
    }
    counts
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
