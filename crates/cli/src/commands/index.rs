//! `doc-bridge index`, `doc-bridge index --check` and `doc-bridge scan`.

use serde_json::json;

use crate::args::{IndexArgs, ScanArgs};
use crate::exit::{CommandResult, Exit, UserError};
use crate::pipeline::{
    self, INDEX_FILE, IndexState, SNAPSHOT_FILE, entity_counts, write_if_changed,
};
use crate::progress::Progress;
use crate::repo::Repo;
use crate::timing::phase;

/// `doc-bridge index [--check]`.
pub fn run(args: &IndexArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    if args.check {
        return check(&repo, args.json);
    }
    if args.watch {
        return super::watch::run(args);
    }
    let progress = Progress::new(args.common.quiet);
    let scanned = pipeline::scan(&repo, &progress)?;
    let snapshot = scanned.snapshot;
    let (index, collection) = pipeline::index(&repo, &snapshot);
    let wrote_snapshot = phase("write snapshot", || {
        write_if_changed(&repo.artifact(SNAPSHOT_FILE), &snapshot)
    })?;
    let wrote_index = phase("write index", || {
        write_if_changed(&repo.artifact(INDEX_FILE), &index)
    })?;
    phase("write caches", || {
        pipeline::write_caches(
            &repo,
            &scanned.walked,
            &snapshot,
            &index,
            collection,
            &scanned.analyses,
        )
    });
    let counts = entity_counts(&snapshot);
    if args.json {
        let report = json!({
            "files": snapshot.files.len(),
            "entities": counts,
            "relations": snapshot.relations.len(),
            "diagnostics": snapshot.diagnostics.len(),
            "diagnosticsByCode": snapshot.stats.diagnostics,
            "snapshotHash": snapshot.content_hash,
            "indexHash": index.content_hash,
            "written": {"snapshot": wrote_snapshot, "index": wrote_index},
            "reusedAnalyses": scanned.reused,
        });
        crate::outln!("{report:#}");
    } else {
        crate::outln!(
            "indexed {} files: {} documents, {} modules, {} areas, {} packages; {} relations; {} diagnostics",
            snapshot.files.len(),
            counts["document"],
            counts["module"],
            counts["area"],
            counts["package"],
            snapshot.relations.len(),
            snapshot.diagnostics.len(),
        );
        let state = if wrote_index { "written" } else { "unchanged" };
        crate::outln!(
            "index {} ({state}: .doc-bridge/{INDEX_FILE})",
            index.content_hash
        );
    }
    Ok(Exit::Ok)
}

/// `doc-bridge index --check`: fresh (0), stale or missing (1), invalid (2). Writes nothing.
fn check(repo: &Repo, as_json: bool) -> CommandResult {
    let stored = match pipeline::load_index(repo) {
        IndexState::Valid(index) => index,
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
    let current = pipeline::current_inputs(repo)?;
    let freshness = doc_bridge_retrieve::compare(&stored.inputs, &current);
    let fresh = freshness.is_fresh();
    if as_json {
        let mut report = serde_json::to_value(&freshness).unwrap_or_default();
        if let Some(object) = report.as_object_mut() {
            object.insert(
                "status".into(),
                json!(if fresh { "fresh" } else { "stale" }),
            );
            object.insert("indexHash".into(), json!(stored.content_hash));
        }
        crate::outln!("{report:#}");
    } else if fresh {
        crate::outln!("index is fresh ({})", stored.content_hash);
    } else {
        crate::outln!(
            "index is stale: {}; run `doc-bridge index`",
            freshness.summary(10)
        );
    }
    Ok(if fresh { Exit::Ok } else { Exit::Findings })
}

/// `doc-bridge scan`: the snapshot only.
pub fn scan(args: &ScanArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let snapshot = pipeline::scan(&repo, &Progress::new(args.common.quiet))?.snapshot;
    let wrote = write_if_changed(&repo.artifact(SNAPSHOT_FILE), &snapshot)?;
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
    } else {
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
