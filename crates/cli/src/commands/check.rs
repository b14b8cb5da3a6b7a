//! `doc-bridge check`: rules over the snapshot and the index, the report, SARIF.
//!
//! The repository is observed afresh (the rules judge the files as they are, not as they were
//! when the index was built), the stored index is compared with what was observed, and the
//! rules of `doc-bridge-check` run over both. The report is written to `.doc-bridge/report.json`
//! (only when its bytes change) and printed. Exit 1 when an error (or, with `--strict`, a
//! warning) is found; 2 on usage or I/O errors. `--min-severity` narrows what is printed and
//! counted to the findings at least that severe; the report file keeps every finding. `--enrich` runs the enrich stage afterwards and
//! only reports its status: it never changes the diagnostics or the exit code.

use doc_bridge_check::{CheckInput, IndexCondition};
use doc_bridge_model::RelPath;
use doc_bridge_model::report::{CheckReportV1, EnrichmentState, EnrichmentStatus, SeverityCounts};
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_store::artifact::to_artifact_bytes;

use crate::args::{CheckArgs, CheckFormat};
use crate::exit::{CommandResult, Exit, UserError};
use crate::pipeline::{self, INDEX_FILE, IndexState, write_if_changed};
use crate::progress::Progress;
use crate::repo::{ARTIFACT_DIR, Repo};

/// The report file name, under `.doc-bridge/`.
pub const REPORT_FILE: &str = "report.json";

/// Runs the command.
pub fn run(args: &CheckArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let snapshot = pipeline::scan(&repo, &Progress::new(args.common.quiet))?.snapshot;
    let index = index_condition(&repo, &snapshot);
    let index_path = RelPath::new(&format!("{ARTIFACT_DIR}/{INDEX_FILE}"))
        .ok_or_else(|| UserError::error("internal: the index path is not a relative path"))?;
    let input = CheckInput {
        snapshot: &snapshot,
        index: &index,
        index_path: &index_path,
        rules: &repo.config.rules,
    };
    let mut report = doc_bridge_check::report(&input, crate::clock::now_rfc3339(), None);
    let report_path = repo.artifact(REPORT_FILE);
    if let Some(previous) = previous_seal(&report_path)
        && previous.content_hash == report.content_hash
    {
        report.generated_at = previous.generated_at;
    }
    write_if_changed(&report_path, &report)?;
    // Last, so nothing the stage does (it writes the overlay and re-derives the index) can reach
    // the diagnostics or the exit code computed above. The report is on disk first: the stage's
    // validators read this check's report, and name it (`reportHash`). The status is outside the
    // report's hash, so adding it rewrites the file with the same `contentHash`.
    if args.enrich {
        report.enrichment = Some(enrichment_status(&repo));
        write_if_changed(&report_path, &report)?;
    }
    // What is printed, and what the exit code counts: the findings at the threshold or above.
    let (shown, left_out) = doc_bridge_check::at_least(&report, args.min_severity.severity());
    print(&shown, left_out, args, &repo)?;
    Ok(if doc_bridge_check::fails(&shown, args.strict) {
        Exit::Findings
    } else {
        Exit::Ok
    })
}

/// The stored index compared with the snapshot just observed (the same fingerprint
/// `index --check` computes, without walking the repository a second time).
fn index_condition(repo: &Repo, snapshot: &Snapshot) -> IndexCondition {
    match pipeline::load_index(repo) {
        IndexState::Missing => IndexCondition::Missing,
        IndexState::Invalid(reason) => IndexCondition::Invalid { reason },
        // Valid, but to migrate: as stale as an index can be.
        IndexState::Legacy(legacy) => IndexCondition::Stale {
            hash: legacy.content_hash,
            summary: pipeline::legacy_message(),
        },
        IndexState::Valid(index) => {
            let current = pipeline::snapshot_inputs(repo, snapshot);
            let freshness = doc_bridge_retrieve::compare(&index.inputs, &current)
                .with_lexicon(index.retrieval.lexicon_version);
            if freshness.is_fresh() {
                IndexCondition::Fresh {
                    hash: index.content_hash,
                }
            } else {
                IndexCondition::Stale {
                    hash: index.content_hash,
                    summary: freshness.summary(10),
                }
            }
        }
    }
}

/// The previous report's seal and time; `None` when absent, unreadable or corrupt (it is then
/// simply replaced).
fn previous_seal(path: &std::path::Path) -> Option<CheckReportV1> {
    let report: CheckReportV1 = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    doc_bridge_check::seal_matches(&report).then_some(report)
}

/// The enrich stage's outcome, reduced to a value-free status.
fn enrichment_status(repo: &Repo) -> EnrichmentStatus {
    let value = super::enrich::status_for_check(repo);
    let text = |key: &str| value.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let status = match value.get("status").and_then(|s| s.as_str()) {
        Some("ok") => EnrichmentState::Ok,
        Some("skipped") => EnrichmentState::Skipped,
        Some("failed") => EnrichmentState::Failed,
        _ => {
            return EnrichmentStatus {
                status: EnrichmentState::Failed,
                reason: Some("the enrich stage reported an unknown status".to_owned()),
                report_hash: None,
                overlay_hash: None,
            };
        }
    };
    EnrichmentStatus {
        status,
        reason: text("reason"),
        report_hash: text("reportHash"),
        overlay_hash: text("overlayHash"),
    }
}

fn print(
    report: &CheckReportV1,
    left_out: SeverityCounts,
    args: &CheckArgs,
    repo: &Repo,
) -> Result<(), UserError> {
    match args.format {
        CheckFormat::Text => {
            let text = doc_bridge_check::text::render(report, args.strict, left_out);
            crate::outln!("{}", text.trim_end_matches('\n'));
        }
        CheckFormat::Json => {
            let bytes = to_artifact_bytes(report).map_err(|e| UserError::error(e.to_string()))?;
            crate::outln!("{}", String::from_utf8_lossy(&bytes).trim_end_matches('\n'));
        }
        CheckFormat::Sarif => {
            let sarif = doc_bridge_check::sarif::to_sarif(
                report,
                &repo.config.rules,
                env!("CARGO_PKG_VERSION"),
            );
            crate::outln!("{sarif:#}");
        }
    }
    Ok(())
}
