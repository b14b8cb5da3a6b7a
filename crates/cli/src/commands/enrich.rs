//! `doc-bridge enrich --from-file FILE` and `doc-bridge enrich list`: proposals made elsewhere are
//! decided by the same validators, merged into the overlay, and the index's projection is
//! re-derived in the same run (enrichment-overlay-v1, "The overlay", "The stage" step 5).

use std::collections::BTreeSet;

use serde_json::json;

use doc_bridge_enrich::adjudicate::{Settlement, find_disputes, settle};
use doc_bridge_enrich::{Context, Decision, decide_batch, expire};
use doc_bridge_model::enrichment::{
    ACCEPTED_BY_POLICY, AcceptedEntry, EnrichmentOverlayV1, EnrichmentProposalV1,
    OVERLAY_SCHEMA_VERSION, OVERLAY_TYPE, OverlayStats, PendingEntry, RejectedEntry, approval_id,
    parse_proposals,
};

use crate::args::{EnrichArgs, EnrichListArgs, EnrichState};
use crate::clock::now_rfc3339;
use crate::exit::{CommandResult, Exit, UserError};
use crate::pipeline::{self, OverlayState, load_overlay};
use crate::repo::Repo;

/// `doc-bridge enrich [--from-file FILE]`.
pub fn run(args: &EnrichArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let raw = match &args.from_file {
        Some(file) => {
            let bytes = std::fs::read(file)
                .map_err(|e| UserError::error(format!("cannot read {}: {e}", file.display())))?;
            Some(
                parse_proposals(&bytes)
                    .map_err(|e| UserError::error(format!("{}: {e}", file.display())))?,
            )
        }
        None => None,
    };
    let summary = execute(&repo, raw, args.common.quiet)?;
    print_summary(&summary, args.json);
    match &summary.stage {
        Some(stage) if !stage.failures.is_empty() => {
            let asked = stage.packs.saturating_sub(stage.cache_hits);
            let reasons = failure_reasons(&stage.failures);
            if stage.failures.len() >= asked {
                // Nothing was lost (the overlay and index are as consistent as before), but no
                // agent answered: a configuration or environment error, not a finding.
                return Err(UserError::error(format!(
                    "every agent call failed ({reasons}); check the agent configuration (`doc-bridge doctor`)"
                )));
            }
            crate::errln!(
                "warning: {} of {asked} agent calls failed ({reasons})",
                stage.failures.len()
            );
            Ok(Exit::Ok)
        }
        _ => Ok(Exit::Ok),
    }
}

/// `spawn ×13, timeout ×2`: the value-free failure reasons by count, most frequent first.
fn failure_reasons(failures: &[(doc_bridge_model::EntityId, String)]) -> String {
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for (_, reason) in failures {
        *counts.entry(reason.as_str()).or_default() += 1;
    }
    let mut counts: Vec<(&str, usize)> = counts.into_iter().collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    counts
        .iter()
        .map(|(reason, n)| format!("{reason} ×{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What `check --enrich` reports: `{"status": "ok" | "failed" | "skipped", "reason"?}`. The reason
/// is value-free (a fixed phrase, never document text or an agent's words), and nothing here can
/// change `check`'s diagnostics or exit code.
pub fn status_for_check(repo: &Repo) -> serde_json::Value {
    let configured = repo
        .config
        .intelligence
        .as_ref()
        .and_then(|i| i.get("registry"))
        .is_some_and(|r| r.get("enabled") != Some(&serde_json::Value::Bool(false)));
    if !configured {
        return json!({"status": "skipped", "reason": "no enabled agent in intelligence.registry"});
    }
    match execute(repo, None, true) {
        Ok(summary) => match &summary.stage {
            Some(stage) if stage.packs > 0 && stage.failures.len() == stage.packs => {
                json!({"status": "failed", "reason": "every agent call failed", "reportHash": summary.report_hash, "overlayHash": summary.overlay_hash})
            }
            _ => {
                json!({"status": "ok", "reportHash": summary.report_hash, "overlayHash": summary.overlay_hash})
            }
        },
        Err(error) if error.exit == Exit::Findings => {
            json!({"status": "failed", "reason": "the index is stale or missing"})
        }
        Err(_) => json!({"status": "failed", "reason": "the enrich stage could not run"}),
    }
}

/// One enrich run's outcome, for printing.
struct Summary {
    stage: Option<doc_bridge_enrich::stage::StageOutcome>,
    roles: Vec<String>,
    adjudication: Option<Adjudication>,
    accepted: u64,
    pending: u64,
    rejected: u64,
    expired: usize,
    /// Proposal ids this run produced again that the overlay had decided already: not
    /// reopened, and said so.
    already_decided: Vec<String>,
    overlay: EnrichmentOverlayV1,
    overlay_hash: String,
    /// The check report the validators read (`None`: the snapshot's diagnostics).
    report_hash: Option<String>,
    index_hash: String,
}

/// Decides `raw` (or, without it, what the agent stage gathers), merges, writes the overlay once
/// and re-derives the index.
fn execute(
    repo: &Repo,
    raw: Option<Vec<doc_bridge_model::enrichment::RawProposal>>,
    quiet: bool,
) -> Result<Summary, UserError> {
    // A configuration mistake is reported before anything else (exit 2), stale index or not.
    let roles = match raw {
        Some(_) => None,
        None => Some(crate::agent_stage::configured_roles(repo)?),
    };
    // An invalid overlay is reported before any agent is called (and again under the lock).
    stored_overlay(repo)?;
    // Without a file, the agent stage gathers the proposals (only on request; never on a query
    // path). It runs outside the overlay lock: agents may take minutes.
    let (mut raw, stage, roles, adjudicator) = match (raw, roles) {
        (Some(raw), _) => (raw, None, Vec::new(), None),
        (None, roles) => {
            // The index is loaded for its freshness (stale: an error) and to vouch for the
            // snapshot the packs are built from.
            let (_, snapshot) = pipeline::load_for_query_with_snapshot(repo, false)?;
            let run = crate::agent_stage::run(
                repo,
                &snapshot,
                roles.unwrap_or_default(),
                &crate::progress::Progress::new(quiet),
            );
            let roles = run
                .roles
                .iter()
                .map(|(role, id)| format!("{}={id}", role.as_str()))
                .collect();
            (
                run.outcome.proposals.clone(),
                Some(run.outcome),
                roles,
                run.adjudicator,
            )
        }
    };

    // From here to the re-derived index, no other command moves the overlay or the approval
    // store: the overlay is read again under the lock, with every recorded decision applied.
    let _lock = crate::lock::exclusive(repo)?;
    let mut stored = stored_overlay(repo)?;
    if let Some(overlay) = &mut stored {
        let records = crate::agent_stage::load_judgments(repo);
        doc_bridge_enrich::approvals::reconcile(overlay, &records);
    }
    // Loaded under the lock (another command may have re-derived the index meanwhile): fresh
    // (stale: an error), and vouching for the snapshot this run decides against.
    let (_, snapshot) = pipeline::load_for_query_with_snapshot(repo, false)?;

    // Expire stored entries whose target moved, then decide the batch against what is live.
    let (live, expired) = match &stored {
        Some(overlay) => expire(overlay, &snapshot),
        None => (Vec::new(), Vec::new()),
    };
    let mut current = stored.clone().unwrap_or_else(|| empty_overlay(&snapshot));
    current.accepted = live;

    // Validators see the check report when it was made for this snapshot (evidence with source
    // `report`, `relatedDiagnosticIds`), else the snapshot's own diagnostics. Read once, with
    // its hash: half of the stage's input.
    let (report, report_hash) = report_for(repo, &snapshot);
    // Adjudicate what two roles could not settle (only with a third identity configured). A
    // settled dispute is not reopened: its losers are decided, so replayed proposals are skipped.
    let adjudication = adjudicator
        .as_ref()
        .map(|judge| adjudicate(repo, &snapshot, &report, judge, &mut raw, &mut current));
    let decisions = {
        let ctx = Context {
            report_diagnostics: &report,
            ..Context::new(&snapshot)
        }
        .with_overlay(&current);
        decide_batch(raw, &ctx)
    };

    // Merge: decisions people (or earlier runs) made stand; a proposal id already decided is
    // not reopened.
    let decided: BTreeSet<String> = decided_ids(&current);
    let now = now_rfc3339();
    let (mut accepted_now, mut pending_now, mut rejected_now) = (0u64, 0u64, 0u64);
    let mut already_decided = Vec::new();
    for decision in &decisions {
        if decided.contains(decision.proposal_id()) {
            already_decided.push(decision.proposal_id().to_owned());
            continue;
        }
        match decision {
            Decision::Accepted(p) => {
                accepted_now += 1;
                current.accepted.push(AcceptedEntry {
                    proposal: p.clone(),
                    accepted_at: now.clone(),
                    accepted_by: ACCEPTED_BY_POLICY.to_owned(),
                });
            }
            Decision::Pending(p, note) => {
                pending_now += 1;
                let note = adjudication
                    .as_ref()
                    .and_then(|a| a.settlement.winners.get(&p.proposal_id))
                    .unwrap_or(note);
                current.pending.push(PendingEntry {
                    proposal: p.clone(),
                    approval_id: approval_id(&p.proposal_id, &p.target_content_hash),
                    note: note.clone(),
                });
            }
            Decision::Rejected { .. } => {
                rejected_now += 1;
                if let Some(entry) = decision.to_rejected_entry() {
                    current.rejected.push(entry);
                }
            }
        }
    }
    // Proposals of a kind their role is not for, refused by the stage before the validators:
    // recorded like any rejection unless their id is decided already or was decided now (one
    // identity in two roles: the role the kind is for made the decision).
    let decided_now: BTreeSet<&str> = decisions.iter().map(Decision::proposal_id).collect();
    let out_of_role = stage
        .iter()
        .flat_map(|s| &s.out_of_role)
        .chain(adjudication.iter().flat_map(|a| &a.outcome.out_of_role));
    for entry in out_of_role {
        if decided.contains(&entry.proposal_id) || decided_now.contains(entry.proposal_id.as_str())
        {
            continue;
        }
        rejected_now += 1;
        current.rejected.push(entry.clone());
    }
    current
        .rejected
        .extend(expired.iter().map(|e| e.to_rejected_entry()));
    current.base_snapshot_hash = snapshot.content_hash.clone();
    // Outside the hash, like every stat: the report this run decided against.
    current.stats.report_hash = report_hash.clone();
    finish(&mut current, expired.len() as u64);
    if let Some(stage) = &stage {
        // Stats are outside the overlay hash: recording the run cannot change a decision.
        current.stats.packs += stage.packs as u64;
        current.stats.cache_hits += stage.cache_hits as u64;
        current.stats.agent_runs += 1;
        // What really went to and came from the agents, the adjudicator's calls included.
        let adjudicated = adjudication.as_ref().map(|a| &a.outcome);
        current.stats.input_bytes += stage.input_bytes + adjudicated.map_or(0, |o| o.input_bytes);
        current.stats.output_bytes +=
            stage.output_bytes + adjudicated.map_or(0, |o| o.output_bytes);
    }
    pipeline::write_overlay(repo, &current)?;
    let index_hash = pipeline::reindex_with_overlay(repo)?;

    Ok(Summary {
        stage,
        roles,
        adjudication,
        accepted: accepted_now,
        pending: pending_now,
        rejected: rejected_now,
        expired: expired.len(),
        already_decided,
        overlay_hash: current.content_hash.to_string(),
        report_hash: report_hash.map(|h| h.to_string()),
        overlay: current,
        index_hash: index_hash.to_string(),
    })
}

/// The diagnostics the validators see and the `contentHash` of the check report they come from:
/// `.doc-bridge/report.json` when `doc-bridge check` wrote it for exactly this snapshot, else
/// the snapshot's own diagnostics and no hash. The same choice as
/// [`pipeline::report_diagnostics`], read once so the hash names what was read.
fn report_for(
    repo: &Repo,
    snapshot: &doc_bridge_model::snapshot::Snapshot,
) -> (
    Vec<doc_bridge_model::snapshot::Diagnostic>,
    Option<doc_bridge_model::ContentHash>,
) {
    let report: Option<doc_bridge_model::report::CheckReportV1> =
        doc_bridge_store::artifact::read_json(&repo.artifact(super::check::REPORT_FILE))
            .ok()
            .flatten();
    match report {
        Some(report) if report.snapshot_hash == snapshot.content_hash => {
            (report.diagnostics, Some(report.content_hash))
        }
        _ => (snapshot.diagnostics.clone(), None),
    }
}

/// The stored overlay (`None` when there is none); an invalid one is an error that leaves it
/// in place.
fn stored_overlay(repo: &Repo) -> Result<Option<EnrichmentOverlayV1>, UserError> {
    match load_overlay(repo) {
        OverlayState::Missing => Ok(None),
        OverlayState::Valid(overlay) => Ok(Some(*overlay)),
        OverlayState::Invalid(why) => Err(UserError::error(format!(
            "the overlay at .doc-bridge/enrich/overlay.json is invalid ({why}); it was not overwritten: move it aside to start a new one"
        ))),
    }
}

fn print_summary(summary: &Summary, as_json: bool) {
    let Summary {
        stage,
        roles,
        adjudication,
        accepted: accepted_now,
        pending: pending_now,
        rejected: rejected_now,
        expired,
        already_decided,
        overlay: current,
        overlay_hash,
        report_hash,
        index_hash,
    } = summary;
    let stage_report = stage.as_ref().map(|s| {
        json!({
            "packs": s.packs,
            "agentCalls": s.calls,
            "cacheHits": s.cache_hits,
            "reRun": s.packs - s.cache_hits,
            "offPack": s.off_pack,
            "examples": s.examples,
            "examplesDropped": s.examples_dropped,
            "inputBytes": s.input_bytes,
            "outputBytes": s.output_bytes,
            "captured": s.captured.len(),
            "outOfRole": s.out_of_role.len(),
            "failures": s.failures.iter().map(|(id, reason)| json!({"entity": id, "reason": reason})).collect::<Vec<_>>(),
        })
    });
    let adjudication_report = adjudication.as_ref().map(|a| {
        json!({
            "disputes": a.disputes,
            "agentCalls": a.outcome.calls,
            "cacheHits": a.outcome.cache_hits,
            "settled": a.disputes - a.settlement.unsettled.len(),
            "losers": a.settlement.losers.len(),
            "refused": a.settlement.refused.len(),
            "outOfRole": a.outcome.out_of_role.len(),
            "inputBytes": a.outcome.input_bytes,
            "outputBytes": a.outcome.output_bytes,
            "failures": a.outcome.failures.iter().map(|(id, reason)| json!({"entity": id, "reason": reason})).collect::<Vec<_>>(),
        })
    });
    let report = json!({
        "roles": roles,
        "adjudication": adjudication_report,
        "stage": stage_report,
        "accepted": accepted_now,
        "pending": pending_now,
        "rejected": rejected_now,
        "expired": expired,
        "alreadyDecided": already_decided,
        "byKind": current.stats.by_kind,
        "rejectionReasons": current.stats.rejection_reasons,
        "overlayHash": overlay_hash,
        "indexHash": index_hash,
        // The stage's input (enrichment-overlay-v1, "The stage"): an approval moves the overlay
        // without moving the report, so both name what the next step evaluates.
        "input": {"reportHash": report_hash, "overlayHash": overlay_hash},
    });
    if as_json {
        crate::outln!("{report:#}");
    } else {
        if !roles.is_empty() {
            crate::outln!("Roles: {}", roles.join(", "));
        }
        if let Some(stage) = &stage {
            crate::outln!(
                "Packs: {} (agent calls {}, cache hits {}, re-run {}, failed {})",
                stage.packs,
                stage.calls,
                stage.cache_hits,
                stage.packs - stage.cache_hits,
                stage.failures.len()
            );
        }
        if let Some(a) = adjudication {
            crate::outln!(
                "Disputes: {} (settled {}, losers {}, adjudications refused {}, agent calls {}, cache hits {})",
                a.disputes,
                a.disputes - a.settlement.unsettled.len(),
                a.settlement.losers.len(),
                a.settlement.refused.len(),
                a.outcome.calls,
                a.outcome.cache_hits
            );
        }
        crate::outln!(
            "Accepted: {accepted_now}  Pending: {pending_now}  Rejected: {rejected_now}  Expired: {expired}"
        );
        if !already_decided.is_empty() {
            let shown: Vec<&str> = already_decided
                .iter()
                .take(5)
                .map(|id| id.get(..12).unwrap_or(id))
                .collect();
            crate::outln!(
                "Already decided, not reopened: {} ({}{})",
                already_decided.len(),
                shown.join(", "),
                if already_decided.len() > shown.len() {
                    ", ..."
                } else {
                    ""
                }
            );
        }
        for (kind, stats) in &current.stats.by_kind {
            crate::outln!(
                "  {kind}: accepted {}, pending {}, rejected {}",
                stats.accepted,
                stats.pending,
                stats.rejected
            );
        }
        match report_hash {
            Some(hash) => crate::outln!("Report: {hash} (.doc-bridge/report.json)"),
            None => crate::outln!("Report: none (the snapshot's diagnostics)"),
        }
        crate::outln!("Overlay: {overlay_hash} (.doc-bridge/enrich/overlay.json)");
    }
}

/// What adjudication did in one run.
struct Adjudication {
    disputes: usize,
    outcome: doc_bridge_enrich::stage::StageOutcome,
    settlement: Settlement,
}

/// Finds the disputes among the undecided proposals of `raw` and the overlay's pending entries,
/// asks the adjudicator, and applies the settlement: losers leave `raw` and `current.pending` for
/// `current.rejected` (`adjudicated`), refused adjudications are recorded, winners keep a note.
fn adjudicate(
    repo: &Repo,
    snapshot: &doc_bridge_model::snapshot::Snapshot,
    report: &[doc_bridge_model::snapshot::Diagnostic],
    judge: &crate::agent_stage::RoleAgent,
    raw: &mut Vec<doc_bridge_model::enrichment::RawProposal>,
    current: &mut EnrichmentOverlayV1,
) -> Adjudication {
    let decided: BTreeSet<String> = decided_ids(current);
    let undecided: Vec<serde_json::Value> = raw
        .iter()
        .filter(|v| !decided.contains(raw_id(v)))
        .cloned()
        .collect();
    let disputes = {
        let pending: Vec<&EnrichmentProposalV1> =
            current.pending.iter().map(|e| &e.proposal).collect();
        let ctx = Context {
            report_diagnostics: report,
            ..Context::new(snapshot)
        }
        .with_overlay(current);
        find_disputes(&undecided, &pending, &ctx)
    };
    if disputes.is_empty() {
        return Adjudication {
            disputes: 0,
            outcome: Default::default(),
            settlement: Settlement::default(),
        };
    }
    let outcome = crate::agent_stage::adjudicate(repo, snapshot, judge, &disputes);
    let settlement = settle(
        &disputes,
        &outcome.proposals,
        &judge.agent.identity().agent_id,
    );
    raw.retain(|v| !settlement.lost(raw_id(v)));
    current
        .pending
        .retain(|e| !settlement.lost(&e.proposal.proposal_id));
    for entry in &mut current.pending {
        if let Some(note) = settlement.winners.get(&entry.proposal.proposal_id) {
            entry.note = note.clone();
        }
    }
    for entry in settlement.losers.iter().chain(&settlement.refused) {
        if !current
            .rejected
            .iter()
            .any(|r| r.proposal_id == entry.proposal_id)
        {
            current.rejected.push(entry.clone());
        }
    }
    Adjudication {
        disputes: disputes.len(),
        outcome,
        settlement,
    }
}

fn raw_id(value: &serde_json::Value) -> &str {
    value
        .get("proposalId")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("")
}

/// Every proposal id the overlay has decided (accepted, pending or rejected).
fn decided_ids(overlay: &EnrichmentOverlayV1) -> BTreeSet<String> {
    overlay
        .accepted
        .iter()
        .map(|e| e.proposal.proposal_id.clone())
        .chain(
            overlay
                .pending
                .iter()
                .map(|e| e.proposal.proposal_id.clone()),
        )
        .chain(overlay.rejected.iter().map(|e| e.proposal_id.clone()))
        .collect()
}

fn empty_overlay(snapshot: &doc_bridge_model::snapshot::Snapshot) -> EnrichmentOverlayV1 {
    EnrichmentOverlayV1 {
        artifact_type: OVERLAY_TYPE.to_owned(),
        schema_version: OVERLAY_SCHEMA_VERSION,
        content_hash: snapshot.content_hash.clone(),
        base_snapshot_hash: snapshot.content_hash.clone(),
        accepted: Vec::new(),
        pending: Vec::new(),
        rejected: Vec::new(),
        stats: OverlayStats::default(),
    }
}

/// Sorts every list, recounts the stats from the lists, and seals.
fn finish(overlay: &mut EnrichmentOverlayV1, expired: u64) {
    overlay
        .accepted
        .sort_by(|a, b| a.proposal.proposal_id.cmp(&b.proposal.proposal_id));
    overlay
        .pending
        .sort_by(|a, b| a.proposal.proposal_id.cmp(&b.proposal.proposal_id));
    overlay.rejected.sort();
    overlay.rejected.dedup();
    overlay.stats.expired += expired;
    doc_bridge_enrich::recount(overlay);
    let _ = overlay.seal();
}

/// `doc-bridge enrich list`.
pub fn list(args: &EnrichListArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let overlay = match load_overlay(&repo) {
        OverlayState::Missing => None,
        OverlayState::Valid(overlay) => Some(*overlay),
        OverlayState::Invalid(why) => {
            return Err(UserError::error(format!(
                "the overlay at .doc-bridge/enrich/overlay.json is invalid ({why}); run `doc-bridge enrich` to rebuild it after moving it aside"
            )));
        }
    };
    let overlay = overlay.unwrap_or_else(|| EnrichmentOverlayV1 {
        artifact_type: OVERLAY_TYPE.to_owned(),
        schema_version: OVERLAY_SCHEMA_VERSION,
        content_hash: doc_bridge_model::ContentHash::of_bytes(b""),
        base_snapshot_hash: doc_bridge_model::ContentHash::of_bytes(b""),
        accepted: Vec::new(),
        pending: Vec::new(),
        rejected: Vec::new(),
        stats: OverlayStats::default(),
    });
    let want = |state: EnrichState| args.state.is_none_or(|s| s == state);
    let mut rows: Vec<serde_json::Value> = Vec::new();
    if want(EnrichState::Accepted) {
        rows.extend(overlay.accepted.iter().map(|e| json!({"state": "accepted", "proposalId": e.proposal.proposal_id, "kind": e.proposal.kind().as_str(), "entity": e.proposal.entity, "acceptedBy": e.accepted_by, "proposal": e.proposal})));
    }
    if want(EnrichState::Pending) {
        rows.extend(overlay.pending.iter().map(|e| json!({"state": "pending", "proposalId": e.proposal.proposal_id, "kind": e.proposal.kind().as_str(), "entity": e.proposal.entity, "approvalId": e.approval_id, "note": e.note, "proposal": e.proposal})));
    }
    if want(EnrichState::Rejected) {
        rows.extend(overlay.rejected.iter().map(|e: &RejectedEntry| json!({"state": "rejected", "proposalId": e.proposal_id, "kind": e.kind, "entity": e.entity, "reason": e.reason.as_str(), "detail": e.detail})));
    }
    if args.json {
        crate::outln!(
            "{:#}",
            json!({"overlayHash": overlay.content_hash, "entries": rows})
        );
    } else {
        if rows.is_empty() {
            crate::outln!("no entries");
        }
        for row in &rows {
            crate::outln!(
                "{:<9} {:<19} {}  {}{}",
                row["state"].as_str().unwrap_or(""),
                row["kind"].as_str().unwrap_or(""),
                row["entity"].as_str().unwrap_or(""),
                row["proposalId"]
                    .as_str()
                    .unwrap_or("")
                    .get(..12)
                    .unwrap_or(""),
                row["reason"]
                    .as_str()
                    .map(|r| format!("  ({r})"))
                    .unwrap_or_default()
            );
        }
    }
    Ok(Exit::Ok)
}
