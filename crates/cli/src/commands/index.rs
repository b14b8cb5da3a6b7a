//! `doc-bridge index`, `doc-bridge index --check` and `doc-bridge scan`.

use serde_json::json;

use crate::args::{IndexArgs, ScanArgs};
use crate::exit::{CommandResult, Exit, UserError};
use crate::last_run::{self, LastRun, Summary};
use crate::pipeline::{self, INDEX_FILE, IndexState, SNAPSHOT_FILE, entity_counts};
use crate::progress::Progress;
use crate::repo::Repo;
use doc_bridge_retrieve::cache::FileStamp;
use std::sync::OnceLock;

use doc_bridge_model::index::DocBridgeIndexV1;
use doc_bridge_model::snapshot::{Snapshot, Texts};
use doc_bridge_model::{ContentHash, SEMANTIC_HASH_ALGO};
use doc_bridge_retrieve::legacy::{Drift, LEGACY_HASH_ALGO, LegacyIndex};

use doc_bridge_discover::walk::WalkedFile;
use doc_bridge_model::snapshot::SNAPSHOT_HASH_EXCLUDED;
use doc_bridge_model::timing::phase;
use doc_bridge_store::artifact::PendingWrite;
use doc_bridge_store::sealed::Encoded;

/// `doc-bridge index [--check]`.
pub fn run(args: &IndexArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    if args.check {
        return check(&repo, args.json);
    }
    // Temporary files a killed run left behind go first (the watch loop starts with this too).
    pipeline::remove_stale_temp_files(&repo);
    if args.watch {
        return super::watch::run(args);
    }
    build_and_write(args, &repo)
}

/// Scans, builds and writes every artifact; or, when nothing changed since the last run (see
/// `last_run`), says so and writes nothing.
fn build_and_write(args: &IndexArgs, repo: &Repo) -> CommandResult {
    let outcome = index_once(
        repo,
        IndexRun {
            force: args.force,
            allow_pending_findings: args.allow_pending_findings,
            quiet: args.common.quiet,
        },
    )?;
    print_summary(&outcome.summary, &outcome.run, args.json, args.common.quiet);
    // The process ends here: the operating system takes the memory back in one go, where
    // dropping these would free millions of allocations one by one first.
    std::mem::forget(outcome.built);
    Ok(Exit::Ok)
}

/// How to run the index pipeline once.
#[derive(Debug, Clone, Copy)]
pub struct IndexRun {
    /// Run in full even when nothing changed since the last run.
    pub force: bool,
    /// Publish past the reference-findings gate.
    pub allow_pending_findings: bool,
    /// No progress bar.
    pub quiet: bool,
}

/// What one run of the index pipeline did.
pub struct Outcome {
    /// The counts and hashes `index` reports.
    pub summary: Summary,
    /// Whether it ran in full, and what it wrote.
    pub run: Run,
    /// The large values built, for the caller to drop or leak (a process about to exit).
    built: Option<Leftovers>,
}

type Leftovers = (
    doc_bridge_model::snapshot::Snapshot,
    DocBridgeIndexV1,
    Vec<WalkedFile>,
    doc_bridge_discover::analysis_cache::AnalysisCache,
);

impl Outcome {
    /// One line saying what the run did: nothing (up to date), or what it wrote.
    pub fn describe(&self) -> String {
        match &self.run {
            Run::UpToDate { .. } => "the index was up to date".to_owned(),
            Run::Full {
                wrote_snapshot,
                wrote_index,
                ..
            } => format!(
                "re-indexed {} files; {}",
                self.summary.files,
                what_was_written(*wrote_snapshot, *wrote_index)
            ),
        }
    }
}

/// `wrote .doc-bridge/snapshot.json, .doc-bridge/index.json` (those written), or `nothing
/// changed`: how a refresh says what it wrote.
pub fn what_was_written(snapshot: bool, index: bool) -> String {
    let wrote: Vec<&str> = [(snapshot, SNAPSHOT_FILE), (index, INDEX_FILE)]
        .into_iter()
        .filter_map(|(wrote, name)| wrote.then_some(name))
        .collect();
    if wrote.is_empty() {
        "nothing changed".to_owned()
    } else {
        format!("wrote .doc-bridge/{}", wrote.join(", .doc-bridge/"))
    }
}

/// Runs the index pipeline once, as `doc-bridge index` does, without printing its summary:
/// what `index`, `search --refresh` and the MCP server's refresh share.
pub fn index_once(repo: &Repo, options: IndexRun) -> Result<Outcome, UserError> {
    // The publication gate looks at this tree's findings: never answered from the last run.
    let gated = repo.config.index.reference_findings_gate || options.allow_pending_findings;
    if !options.force
        && !gated
        && let Some(summary) = phase("up to date", || last_run::unchanged(repo))
    {
        let modules = summary.entities.get("module").copied().unwrap_or(0);
        return Ok(Outcome {
            summary,
            run: Run::UpToDate { modules },
            built: None,
        });
    }
    let progress = Progress::new(options.quiet);
    let scanned = pipeline::scan_unsealed(repo, &progress)?;
    // Before anything is written: a failing gate publishes nothing, unless overridden.
    let past_gate = match crate::publication::evaluate(repo, &scanned.snapshot) {
        Some(failed) if !options.allow_pending_findings => {
            return Err(UserError::findings(format!(
                "index not published: {}; fix them, run `doc-bridge check` to make the current findings the base, or pass --allow-pending-findings",
                failed.summary(10)
            )));
        }
        other => other,
    };
    let Published {
        snapshot,
        index,
        written,
        collection: _,
    } = publish(
        repo,
        scanned.snapshot,
        &scanned.texts,
        pipeline::ScanRecord {
            walked: &scanned.walked,
            dirs: Some(&scanned.dirs),
            analyses: &scanned.analyses,
        },
        past_gate.as_ref(),
        None,
    )?;
    let summary = Summary {
        files: snapshot.files.len() as u64,
        entities: entity_counts(&snapshot)
            .into_iter()
            .map(|(kind, count)| (kind.to_owned(), count))
            .collect(),
        relations: snapshot.relations.len() as u64,
        diagnostics: snapshot.diagnostics.len() as u64,
        diagnostics_by_code: snapshot.stats.diagnostics.clone(),
        snapshot_hash: snapshot.content_hash.clone(),
        index_hash: index.content_hash.clone(),
    };
    if index.publication.is_some() {
        // The next run must look again, and drop the record unless overridden again.
        last_run::forget(repo);
    } else {
        record_run(repo, &index, &written, &summary);
    }
    Ok(Outcome {
        summary,
        run: Run::Full {
            wrote_snapshot: written.snapshot,
            wrote_index: written.index,
            llms: written.llms.clone(),
            reused: scanned.reused,
        },
        built: Some((snapshot, index, scanned.walked, scanned.analyses)),
    })
}

/// What [`publish`] built and wrote.
pub struct Published {
    /// The snapshot, sealed.
    pub snapshot: Snapshot,
    /// The index, sealed.
    pub index: DocBridgeIndexV1,
    /// What was written.
    pub written: Written,
    /// The index's search collection (also in the search cache).
    pub collection: doc_bridge_retrieve::collection::Collection,
}

/// Builds the index from an unsealed snapshot and its texts and writes every artifact where its
/// bytes change (each encoded once, its seal hashed from those bytes): what `index` and the
/// watch session share, so both write the same bytes for the same tree. `past_gate`: the
/// reference-findings gate failed and was overridden (recorded in the index's `publication`).
pub fn publish(
    repo: &Repo,
    mut snapshot: Snapshot,
    texts: &Texts,
    files: pipeline::ScanRecord<'_>,
    past_gate: Option<&crate::publication::Failed>,
    tokens: Option<&doc_bridge_retrieve::token_memo::TokenMemo>,
) -> Result<Published, UserError> {
    // The snapshot is encoded, sealed and written on a thread of its own while the index is
    // built: the index needs the snapshot's seal only when its projection is done, and waits
    // for it there. The snapshot's sync to disk and rename wait for the end, beside the
    // index's, so a slow disk holds up neither the build nor the other write.
    let sealed: OnceLock<ContentHash> = OnceLock::new();
    let ((mut index, collection), written) = std::thread::scope(|scope| {
        let writer = scope.spawn(|| {
            let _unblock = Unblock(&sealed);
            write_snapshot(repo, &snapshot, &sealed)
        });
        let snapshot_seal = || sealed.wait().clone();
        let built =
            pipeline::index_from(repo, &snapshot, texts, Some(&snapshot_seal), false, tokens);
        (built, joined(writer))
    });
    let written = written?;
    announce_legacy_migration(repo, &index);
    if let Some(failed) = past_gate {
        crate::errln!(
            "warning: publishing past the reference-findings gate (--allow-pending-findings): {}",
            failed.summary(10)
        );
        index.publication = Some(failed.publication());
    }
    snapshot.content_hash = written.hash.clone();
    snapshot.generated_at = written.generated_at.clone();
    let written = write_built(repo, written, files, &snapshot, &mut index, &collection)?;
    Ok(Published {
        snapshot,
        index,
        written,
        collection,
    })
}

/// Seals `snapshot` (from its one encoding) and gives its seal to `index`'s projection, then
/// writes everything as [`publish`] does: for an index built without the snapshot's seal
/// (`pipeline::index_from` given none), which the MCP server answers from before anything is
/// encoded or written.
pub fn seal_and_write(
    repo: &Repo,
    snapshot: &mut Snapshot,
    index: &mut DocBridgeIndexV1,
    collection: &doc_bridge_retrieve::collection::Collection,
    files: pipeline::ScanRecord<'_>,
) -> Result<Written, UserError> {
    let written = write_snapshot(repo, snapshot, &OnceLock::new())?;
    index.projection.snapshot_hash = written.hash.clone();
    snapshot.content_hash = written.hash.clone();
    snapshot.generated_at = written.generated_at.clone();
    write_built(repo, written, files, snapshot, index, collection)
}

/// How a run ended, for its summary.
pub enum Run {
    /// Built in full: what was written, and how many module analyses came from the cache.
    Full {
        wrote_snapshot: bool,
        wrote_index: bool,
        llms: crate::llms::LlmsWrite,
        reused: usize,
    },
    /// Nothing changed since the last run: nothing was analysed or written.
    UpToDate { modules: u64 },
}

/// Prints what a run did: the JSON report, or two lines of text.
/// With `quiet` (and no `--json`), only the warning.
fn print_summary(summary: &Summary, run: &Run, as_json: bool, quiet: bool) {
    if let Run::Full {
        llms: crate::llms::LlmsWrite::Foreign(path),
        ..
    } = &run
    {
        crate::errln!(
            "warning: {path} was not generated by doc-bridge; left unchanged (set `llms.path` elsewhere or `llms.enabled: false`)"
        );
    }
    if quiet && !as_json {
        return;
    }
    let (wrote_snapshot, wrote_index, wrote_llms, reused, up_to_date) = match *run {
        Run::Full {
            wrote_snapshot,
            wrote_index,
            ref llms,
            reused,
        } => (
            wrote_snapshot,
            wrote_index,
            matches!(llms, crate::llms::LlmsWrite::Written(_)),
            reused as u64,
            false,
        ),
        Run::UpToDate { modules } => (false, false, false, modules, true),
    };
    if as_json {
        let report = json!({
            "files": summary.files,
            "entities": summary.entities,
            "relations": summary.relations,
            "diagnostics": summary.diagnostics,
            "diagnosticsByCode": summary.diagnostics_by_code,
            "snapshotHash": summary.snapshot_hash,
            "indexHash": summary.index_hash,
            "written": {"snapshot": wrote_snapshot, "index": wrote_index, "llms": wrote_llms},
            "reusedAnalyses": reused,
            "upToDate": up_to_date,
        });
        crate::outln!("{report:#}");
        return;
    }
    let count = |kind: &str| summary.entities.get(kind).copied().unwrap_or(0);
    let counts = format!(
        "{} files: {} documents, {} modules, {} areas, {} packages; {} relations; {} diagnostics",
        summary.files,
        count("document"),
        count("module"),
        count("area"),
        count("package"),
        summary.relations,
        summary.diagnostics,
    );
    if up_to_date {
        crate::outln!("up to date (nothing changed since the last run): {counts}");
    } else {
        crate::outln!("indexed {counts}");
    }
    let state = if wrote_index { "written" } else { "unchanged" };
    crate::outln!(
        "index {} ({state}: .doc-bridge/{INDEX_FILE})",
        summary.index_hash
    );
}

/// Records the run for the next one (see `last_run`): what it reported, from what, and the
/// stamps of what it left on disk.
fn record_run(repo: &Repo, index: &DocBridgeIndexV1, written: &Written, summary: &Summary) {
    let llms = match &written.llms {
        crate::llms::LlmsWrite::Disabled => None,
        crate::llms::LlmsWrite::Written(path) | crate::llms::LlmsWrite::Unchanged(path) => {
            match pipeline::file_stamp(&repo.root.join(path.as_str())) {
                Some(stamp) => Some((path.clone(), stamp)),
                None => return last_run::forget(repo),
            }
        }
        // Its warning is repeated by every run until it is dealt with.
        crate::llms::LlmsWrite::Foreign(_) => return last_run::forget(repo),
    };
    let (Some(index_stamp), Some(snapshot_stamp)) = (written.index_stamp, written.snapshot_stamp)
    else {
        return last_run::forget(repo);
    };
    match LastRun::of_run(
        repo,
        index.inputs.hash.clone(),
        (index_stamp, snapshot_stamp),
        llms,
        summary.clone(),
    ) {
        Some(record) => record.write(repo),
        None => last_run::forget(repo),
    }
}

/// What [`write_built`] did.
pub struct Written {
    /// Whether `snapshot.json` was written (else it already held these bytes).
    pub snapshot: bool,
    /// Whether `index.json` was written.
    pub index: bool,
    /// What became of `llms.txt`.
    llms: crate::llms::LlmsWrite,
    /// The stamps the two artifacts have now (`None` where it could not be read).
    index_stamp: Option<FileStamp>,
    snapshot_stamp: Option<FileStamp>,
}

/// The end of [`publish`]: puts `snapshot.json` in place, writes `index.json` (sealing `index`
/// on the way), `llms.txt` and the caches. While this thread encodes and seals the index, a
/// helper does what needs neither seal: the snapshot's sync, the file caches, the query image's
/// body and `llms.txt`. Then the index is written, and while it is synced to disk the query
/// image and the search cache, which name its stamp and seal, are completed and written.
fn write_built(
    repo: &Repo,
    snapshot_write: SnapshotWrite,
    scan: pipeline::ScanRecord<'_>,
    snapshot: &Snapshot,
    index: &mut DocBridgeIndexV1,
    collection: &doc_bridge_retrieve::collection::Collection,
) -> Result<Written, UserError> {
    let committed = |pending: PendingWrite| {
        pending
            .commit()
            .map_err(|e| UserError::error(format!("cannot write artifact: {e}")))
    };
    let SnapshotWrite {
        pending: snapshot_write,
        spans,
        buffer,
        ..
    } = snapshot_write;
    // Taken before the commit: syncing and renaming change none of it.
    let snapshot_stamp = snapshot_write
        .metadata()
        .ok()
        .and_then(|m| pipeline::stamp_of(&m));
    if snapshot_write.changes() {
        pipeline::keep_paired_snapshot(repo);
    }
    index.generated_at = snapshot.generated_at.clone();
    let (sealed, (wrote_snapshot, image_body, llms)) = std::thread::scope(|scope| {
        let index = &*index;
        let side = scope.spawn(|| {
            let wrote_snapshot = phase("sync snapshot", || committed(snapshot_write));
            phase("write file caches", || {
                pipeline::write_file_caches(repo, scan, snapshot)
            });
            let image_body = spans
                .as_ref()
                .and_then(|spans| pipeline::encode_query_image(index, snapshot, spans));
            let llms = phase("write llms.txt", || crate::llms::write(repo, index));
            (wrote_snapshot, image_body, llms)
        });
        let sealed = phase("index: encode and seal", || {
            doc_bridge_retrieve::Sealed::of_in(index, buffer)
        });
        (sealed, joined(side))
    });
    let wrote_snapshot = wrote_snapshot?;
    let sealed = sealed
        .ok_or_else(|| UserError::error("cannot write artifact: the index does not encode"))?;
    let pending = write_index(repo, index, sealed)?;
    let index = &*index;
    let stamp = pending.metadata().ok().and_then(|m| pipeline::stamp_of(&m));
    std::thread::scope(|scope| {
        let index_sync = scope.spawn(move || phase("sync index", || committed(pending)));
        if let (Some(index_stamp), Some(snapshot_stamp), Some(body)) =
            (stamp, snapshot_stamp, image_body.as_ref())
        {
            let stamps = pipeline::ArtifactStamps {
                index: index_stamp,
                snapshot: snapshot_stamp,
            };
            pipeline::write_query_image_body(repo, index, snapshot, body, stamps);
        }
        if let Some(stamp) = stamp {
            phase("write search cache", || {
                pipeline::write_search_cache_for(repo, index, collection, stamp, snapshot_stamp)
            });
        }
        let wrote_index = joined(index_sync)?;
        // Both are in place and name each other: the snapshot kept for the old index goes.
        pipeline::release_paired_snapshot(repo);
        Ok(Written {
            snapshot: wrote_snapshot,
            index: wrote_index,
            llms: llms?,
            index_stamp: stamp,
            snapshot_stamp,
        })
    })
}

/// `snapshot.json` on its way to disk ([`write_snapshot`]).
struct SnapshotWrite {
    /// The seal.
    hash: ContentHash,
    /// The `generatedAt` recorded (the previous file's when the content did not change).
    generated_at: String,
    /// The write, up to its sync and rename.
    pending: PendingWrite,
    /// Where its entities and relations lie in the bytes, for the query image.
    spans: Option<doc_bridge_retrieve::query_image::Spans>,
    /// The memory that held its encoding, for the index's to reuse: already faulted in, and
    /// about the index's size, so that encoding pays neither page faults nor regrowth.
    buffer: Vec<u8>,
}

/// Encodes and seals the unsealed `snapshot` (publishing the seal in `sealed` as soon as it is
/// known) and prepares `snapshot.json`, up to its sync and rename.
fn write_snapshot(
    repo: &Repo,
    snapshot: &Snapshot,
    sealed: &OnceLock<ContentHash>,
) -> Result<SnapshotWrite, UserError> {
    let mut encoded = phase("snapshot: encode", || Encoded::new(snapshot)).map_err(cannot_write)?;
    let hash = phase("snapshot: seal", || encoded.seal(SNAPSHOT_HASH_EXCLUDED));
    let _ = sealed.set(hash.clone());
    let previous = pipeline::read_head(&repo.artifact(SNAPSHOT_FILE));
    let generated_at = pipeline::kept_generated_at(previous, &hash, &snapshot.generated_at);
    encoded
        .set_string("contentHash", hash.as_str())
        .and_then(|()| encoded.set_string("generatedAt", &generated_at))
        .map_err(cannot_write)?;
    let pending = phase("write snapshot", || {
        encoded.prepare_write(&repo.artifact(SNAPSHOT_FILE))
    })
    .map_err(cannot_write)?;
    let spans = phase("snapshot: element spans", || {
        doc_bridge_retrieve::query_image::Spans::of_members(encoded.bytes(), encoded.members())
    });
    Ok(SnapshotWrite {
        hash,
        generated_at,
        pending,
        spans,
        buffer: encoded.into_buffer(),
    })
}

/// Records the seals of `sealed` (the encoding of `index`) in `index` and prepares
/// `index.json`, up to its sync and rename. The index records the snapshot's `generatedAt` if
/// its content changed, else the previous file's is kept.
fn write_index(
    repo: &Repo,
    index: &mut DocBridgeIndexV1,
    sealed: doc_bridge_retrieve::Sealed,
) -> Result<PendingWrite, UserError> {
    let path = repo.artifact(INDEX_FILE);
    let mut encoded = sealed.apply(index);
    let previous = pipeline::read_head(&path);
    let kept = pipeline::kept_generated_at(previous, &index.content_hash, &index.generated_at);
    if kept != index.generated_at {
        encoded
            .set_string("generatedAt", &kept)
            .map_err(cannot_write)?;
        index.generated_at = kept;
    }
    phase("write index", || encoded.prepare_write(&path)).map_err(cannot_write)
}

/// An artifact that could not be encoded or written, as the user's error.
fn cannot_write(error: doc_bridge_store::artifact::ArtifactError) -> UserError {
    UserError::error(format!("cannot write artifact: {error}"))
}

/// Gives a placeholder seal if the sealing thread ends without one (it panicked), so the index
/// build waiting for it is never stuck; the panic goes on at the join.
struct Unblock<'a>(&'a OnceLock<ContentHash>);

impl Drop for Unblock<'_> {
    fn drop(&mut self) {
        let _ = self.0.set(ContentHash::of_bytes(b""));
    }
}

/// A helper thread's result; its panic (a bug) goes on in this thread.
fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// `doc-bridge index --check`: fresh (0), stale or missing (1), invalid (2). Writes nothing.
fn check(repo: &Repo, as_json: bool) -> CommandResult {
    // The common answer without reading the index: the search cache vouches for the file and
    // its inputs fingerprint is the repository's. Anything else reads the index, which names
    // what changed.
    if let Some(vouched) = pipeline::vouched_index(repo)
        && pipeline::snapshot_as_vouched(repo, &vouched)
        && pipeline::current_inputs_hash(repo)? == vouched.inputs_hash
    {
        report_freshness(
            &doc_bridge_retrieve::Freshness::default(),
            &vouched.index_hash,
            as_json,
        );
        return Ok(Exit::Ok);
    }
    let stored = match pipeline::load_index(repo) {
        IndexState::Valid(index) => index,
        IndexState::Legacy(legacy) => return check_legacy(repo, &legacy, as_json),
        IndexState::Missing => {
            let message = "no index at .doc-bridge/index.json; run `doc-bridge index`";
            if as_json {
                crate::outln!("{:#}", json!({"status": "missing", "message": message}));
            } else {
                crate::outln!("{message}");
            }
            return Ok(Exit::Findings);
        }
        IndexState::Invalid(why) => {
            let message = format!(
                "index at .doc-bridge/index.json is invalid: {why}; run `doc-bridge index` to regenerate it"
            );
            if as_json {
                crate::outln!("{:#}", json!({"status": "invalid", "message": message}));
                return Ok(Exit::Error);
            }
            return Err(UserError::error(message));
        }
    };
    // An index is only as good as the snapshot beside it (queries need both).
    if let Err(error) = pipeline::check_snapshot_of(repo, &stored) {
        if as_json {
            crate::outln!(
                "{:#}",
                json!({"status": "invalid", "message": error.message})
            );
            return Ok(Exit::Error);
        }
        return Err(error);
    }
    let freshness = pipeline::freshness_of(repo, &stored)?;
    report_freshness(&freshness, &stored.content_hash, as_json);
    Ok(if freshness.is_fresh() {
        Exit::Ok
    } else {
        Exit::Findings
    })
}

/// `index --check` of a valid legacy index: the tree rebuilt under the legacy algorithm and
/// compared file by file (an index written before `inputs` existed has nothing else to compare).
/// Always exit 1: it is to migrate, whatever drifted.
fn check_legacy(repo: &Repo, legacy: &LegacyIndex, as_json: bool) -> CommandResult {
    let drift = legacy_drift(repo, legacy)?;
    let message = legacy_drift_message(&drift);
    if as_json {
        let report = json!({
            "status": "legacy",
            "algorithm": LEGACY_HASH_ALGO,
            "changed": drift.changed,
            "added": drift.added,
            "removed": drift.removed,
            "sameSeal": drift.same_seal,
            "indexHash": legacy.content_hash,
            "message": message,
        });
        crate::outln!("{report:#}");
    } else {
        crate::outln!("{message}");
    }
    Ok(Exit::Findings)
}

/// The tree as it is now, rebuilt in memory (nothing written), compared with `legacy`.
fn legacy_drift(repo: &Repo, legacy: &LegacyIndex) -> Result<Drift, UserError> {
    let scanned = pipeline::scan(repo, &Progress::new(true))?;
    let (rebuilt, _) =
        pipeline::index_from(repo, &scanned.snapshot, &scanned.texts, None, true, None);
    Ok(doc_bridge_retrieve::legacy::drift(legacy, &rebuilt))
}

/// What a legacy index's drift means, in one line.
fn legacy_drift_message(drift: &Drift) -> String {
    let what = if drift.no_file_drifted() {
        "no file drifted since it was built".to_owned()
    } else {
        format!("{} since it was built", drift.summary(10))
    };
    format!(
        "index is sealed with the legacy `{LEGACY_HASH_ALGO}` (its seal is valid); {what}; run `doc-bridge index` to migrate it to `{SEMANTIC_HASH_ALGO}`"
    )
}

/// Before an explicit `index` replaces a legacy index: its seal verified, the drift of the tree
/// since it was built named file by file, and the migration announced (all on stderr; the run
/// goes on). A corrupt legacy index is named as such and replaced.
fn announce_legacy_migration(repo: &Repo, rebuilt: &DocBridgeIndexV1) {
    let path = repo.artifact(INDEX_FILE);
    if pipeline::read_algorithm(&path).as_deref() != Some(LEGACY_HASH_ALGO) {
        return;
    }
    match pipeline::load_index(repo) {
        IndexState::Legacy(legacy) => {
            let drift = doc_bridge_retrieve::legacy::drift(&legacy, rebuilt);
            if !drift.no_file_drifted() {
                crate::errln!(
                    "warning: the legacy index drifted from the tree: {}",
                    drift.summary(20)
                );
            }
            crate::errln!(
                "warning: migrating .doc-bridge/index.json from `{LEGACY_HASH_ALGO}` to `{SEMANTIC_HASH_ALGO}` (readers of the legacy algorithm must be upgraded first)"
            );
        }
        IndexState::Invalid(why) => crate::errln!(
            "warning: the legacy index at .doc-bridge/index.json is not valid ({why}); replacing it with a `{SEMANTIC_HASH_ALGO}` index"
        ),
        IndexState::Missing | IndexState::Valid(_) => {}
    }
}

/// Prints what `index --check` found.
fn report_freshness(
    freshness: &doc_bridge_retrieve::Freshness,
    index_hash: &ContentHash,
    as_json: bool,
) {
    let fresh = freshness.is_fresh();
    if as_json {
        let mut report = serde_json::to_value(freshness).unwrap_or_default();
        if let Some(object) = report.as_object_mut() {
            object.insert(
                "status".into(),
                json!(if fresh { "fresh" } else { "stale" }),
            );
            object.insert("indexHash".into(), json!(index_hash));
        }
        crate::outln!("{report:#}");
    } else if fresh {
        crate::outln!("index is fresh ({index_hash})");
    } else {
        crate::outln!(
            "index is stale: {}; run `doc-bridge index`",
            freshness.summary(10)
        );
    }
}

/// `doc-bridge scan`: the snapshot only.
pub fn scan(args: &ScanArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let snapshot = pipeline::scan(&repo, &Progress::new(args.common.quiet))?.snapshot;
    // The index (if any) still names the snapshot it was built from: keep that one for it.
    pipeline::keep_paired_snapshot(&repo);
    let wrote = pipeline::write_sealed_if_changed(&repo.artifact(SNAPSHOT_FILE), &snapshot)?;
    let counts = entity_counts(&snapshot);
    if args.json {
        crate::outln!(
            "{:#}",
            json!({
                "files": snapshot.files.len(),
                "entities": counts,
                "relations": snapshot.relations.len(),
                "diagnostics": snapshot.diagnostics.len(),
                "snapshotHash": snapshot.content_hash,
                "written": wrote,
            })
        );
    } else if !args.common.quiet {
        crate::outln!(
            "scanned {} files: {} entities, {} relations, {} diagnostics; snapshot {}",
            snapshot.files.len(),
            snapshot.entities.len(),
            snapshot.relations.len(),
            snapshot.diagnostics.len(),
            snapshot.content_hash
        );
    }
    Ok(Exit::Ok)
}
