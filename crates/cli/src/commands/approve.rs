//! `doc-bridge enrich approve|reject <PROPOSAL_ID> --by <NAME>` and `enrich revalidate`
//! (enrichment-overlay-v1, "Approvals", "The overlay": reproducible acceptance).
//!
//! The approval store decides first (one record per decision under `.doc-bridge/approvals/`,
//! refused when one exists); the overlay moves second. Refusals exit 1 and touch nothing.

use std::collections::BTreeSet;

use serde_json::json;

use doc_bridge_enrich::approvals::{
    self, Decision, apply_decision, find_pending, reconcile, record_mismatches,
};
use doc_bridge_enrich::identity::check_decider;
use doc_bridge_enrich::recount;
use doc_bridge_enrich::stage::role_for;
use doc_bridge_enrich::{Context, partition_mismatches, revalidate as revalidate_overlay};
use doc_bridge_model::approval::{ApprovalDecision, ApprovalRecord};
use doc_bridge_model::enrichment::{ACCEPTED_BY_POLICY, validate_overlay};
use doc_bridge_store::artifact::to_artifact_bytes;

use crate::args::{EnrichDecideArgs, EnrichRevalidateArgs};
use crate::clock::now_rfc3339;
use crate::exit::{CommandResult, Exit, UserError};
use crate::pipeline::{self, OverlayState, load_overlay};
use crate::repo::Repo;

/// Approves (`approve == true`) or rejects a pending proposal, and prints the outcome.
pub fn decide(args: &EnrichDecideArgs, approve: bool) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let outcome = decide_proposal(
        &repo,
        &args.proposal_id,
        &args.by,
        args.reason.clone(),
        approve,
    )?;
    let verb = outcome.verb();
    if args.json {
        crate::outln!("{:#}", outcome.to_json());
    } else {
        crate::outln!(
            "{verb} {} ({}) by {}; approval {}",
            outcome.proposal_id,
            outcome.kind,
            outcome.by,
            outcome.approval_id
        );
    }
    Ok(Exit::Ok)
}

/// What a decision did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// Approved (`true`) or rejected.
    pub approved: bool,
    /// The decided proposal.
    pub proposal_id: String,
    /// Its kind (`mark-canonical`, ...).
    pub kind: String,
    /// The approval record's id.
    pub approval_id: String,
    /// Who decided (trimmed).
    pub by: String,
    /// The overlay's hash after the decision.
    pub overlay_hash: String,
    /// The re-derived index's hash.
    pub index_hash: String,
}

impl Outcome {
    /// `approved` or `rejected`.
    pub fn verb(&self) -> &'static str {
        if self.approved {
            "approved"
        } else {
            "rejected"
        }
    }

    /// The JSON form `enrich approve --json` prints and the MCP `proposals` tool returns.
    pub fn to_json(&self) -> serde_json::Value {
        json!({"decision": self.verb(), "proposalId": self.proposal_id, "approvalId": self.approval_id, "by": self.by, "overlayHash": self.overlay_hash, "indexHash": self.index_hash})
    }
}

pub use doc_bridge_enrich::approvals::MIN_ID_PREFIX;

/// The one decision function behind `enrich approve|reject`, the MCP `proposals` tool and the
/// review page's commands: the approval store decides first, the overlay moves second, the
/// index is re-derived last, all under the overlay lock ([`crate::lock`]). Every refusal (not a
/// person: `policy`, a configured agent or an overlay author in any spelling; the proposal's
/// author; unknown or decided; changed target; stale index) is a [`UserError`] and touches
/// nothing. Recorded decisions the overlay does not reflect yet (a crash between the two
/// writes) are applied first. Prints nothing.
///
/// `proposal_id` may be a prefix of at least [`MIN_ID_PREFIX`] characters that only one pending
/// proposal's id begins with (`enrich list` shows the first 12).
pub fn decide_proposal(
    repo: &Repo,
    proposal_id: &str,
    by: &str,
    reason: Option<String>,
    approve: bool,
) -> Result<Outcome, UserError> {
    // Names that can never decide are refused before the lock is waited for.
    let known_agents = agent_identities(repo, None);
    check_decider(by, "", &known_agents)
        .map_err(|e| UserError::findings(format!("`--by`: {e}")))?;
    let _lock = crate::lock::exclusive(repo)?;
    let mut overlay = match load_overlay(repo) {
        OverlayState::Valid(overlay) => *overlay,
        OverlayState::Missing => {
            return Err(UserError::findings(
                "there is no overlay yet: nothing is pending",
            ));
        }
        OverlayState::Invalid(why) => {
            return Err(UserError::error(format!("the overlay is invalid ({why})")));
        }
    };
    let records = crate::agent_stage::load_judgments(repo);
    let reconciled = !reconcile(&mut overlay, &records).is_empty();
    let position = match find_pending(&overlay, proposal_id) {
        Ok(position) => position,
        Err(refusal) => {
            if reconciled {
                // The recorded decisions are written into the overlay (and the index) even
                // though this one is refused.
                write_reconciled(repo, &mut overlay)?;
                pipeline::reindex_with_overlay(repo)?;
            }
            return Err(UserError::findings(refusal.to_string()));
        }
    };
    let proposal = overlay.pending[position].proposal.clone();
    let agents = agent_identities(repo, Some(&overlay));
    let by = check_decider(by, &proposal.origin.agent_id, &agents)
        .map_err(|e| UserError::findings(format!("`--by`: {e}")))?;
    // The index is loaded for its freshness (stale: an error) and to vouch for the snapshot
    // the decision is checked against.
    let (_, snapshot) = if reconciled {
        // The index was derived before the reconciled moves: bring both up to date first.
        write_reconciled(repo, &mut overlay)?;
        pipeline::reindex_with_overlay(repo)?;
        pipeline::load_for_query_with_snapshot(repo, false)?
    } else {
        pipeline::load_for_query_with_snapshot(repo, false)?
    };
    let role = role_for(
        &repo.config,
        &proposal.origin.agent_id,
        proposal.kind().as_str(),
    );
    let decision = Decision {
        approve,
        by,
        reason,
        decided_at: now_rfc3339(),
        role,
    };
    let record = approvals::decide(&overlay, position, &snapshot, decision)
        .map_err(|refusal| UserError::findings(refusal.to_string()))?;
    record_decision(repo, &record)?;
    apply_decision(&mut overlay, position, &record);
    write_reconciled(repo, &mut overlay)?;
    let index_hash = pipeline::reindex_with_overlay(repo)?;
    Ok(Outcome {
        approved: approve,
        proposal_id: proposal.proposal_id.to_string(),
        kind: proposal.kind().as_str().to_owned(),
        approval_id: record.approval_id.to_string(),
        by: by.to_owned(),
        overlay_hash: overlay.content_hash.to_string(),
        index_hash: index_hash.to_string(),
    })
}

/// Recounts, seals, validates and writes an overlay whose lists moved.
fn write_reconciled(
    repo: &Repo,
    overlay: &mut doc_bridge_model::enrichment::EnrichmentOverlayV1,
) -> Result<(), UserError> {
    recount(overlay);
    overlay
        .seal()
        .map_err(|e| UserError::error(e.to_string()))?;
    validate_overlay(overlay)
        .map_err(|e| UserError::error(format!("refusing to write an invalid overlay: {e}")))?;
    pipeline::write_overlay(repo, overlay)
}

/// Every agent identity the repository knows: any `agentId` under `intelligence` in the
/// configuration (the registry's and its roles', the adjudicator's), and the authors of the
/// overlay's proposals.
pub(crate) fn agent_identities(
    repo: &Repo,
    overlay: Option<&doc_bridge_model::enrichment::EnrichmentOverlayV1>,
) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    if let Some(intelligence) = &repo.config.intelligence {
        collect_agent_ids(intelligence, &mut ids);
    }
    if let Some(overlay) = overlay {
        for entry in &overlay.accepted {
            ids.insert(entry.proposal.origin.agent_id.clone());
        }
        for entry in &overlay.pending {
            ids.insert(entry.proposal.origin.agent_id.clone());
        }
    }
    ids
}

fn collect_agent_ids(value: &serde_json::Value, ids: &mut BTreeSet<String>) {
    match value {
        serde_json::Value::Object(object) => {
            for (key, value) in object {
                if key == "agentId"
                    && let Some(id) = value.as_str()
                {
                    ids.insert(id.trim().to_owned());
                }
                collect_agent_ids(value, ids);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_agent_ids(v, ids)),
        _ => {}
    }
}

/// Writes the approval record unless one exists for this approval id (the store decides first).
fn record_decision(repo: &Repo, record: &ApprovalRecord) -> Result<(), UserError> {
    let path = repo.artifact(&format!("approvals/{}.json", record.approval_id));
    if path.symlink_metadata().is_ok() {
        return Err(UserError::findings(format!(
            "proposal {} is already decided (approval {})",
            record.proposal_id, record.approval_id
        )));
    }
    let bytes = to_artifact_bytes(record).map_err(|e| UserError::error(e.to_string()))?;
    let dir = repo.artifact("approvals");
    std::fs::create_dir_all(&dir)
        .map_err(|e| UserError::error(format!("cannot create {}: {e}", dir.display())))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(doc_bridge_store::artifact::TEMP_PREFIX)
        .tempfile_in(&dir)
        .map_err(|e| UserError::error(e.to_string()))?;
    std::io::Write::write_all(&mut tmp, &bytes).map_err(|e| UserError::error(e.to_string()))?;
    // `persist_noclobber` fails when a record appeared meanwhile: two people cannot both decide.
    tmp.persist_noclobber(&path).map_err(|_| {
        UserError::findings(format!(
            "proposal {} is already decided (approval {})",
            record.proposal_id, record.approval_id
        ))
    })?;
    Ok(())
}

/// `doc-bridge enrich revalidate`: exit 0 when the stored partition reproduces, 1 otherwise.
pub fn revalidate(args: &EnrichRevalidateArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    // The overlay and the approval records are read as one moment: no decision half-written.
    let lock = crate::lock::shared(&repo)?;
    let records = crate::agent_stage::load_judgments(&repo);
    let overlay = match load_overlay(&repo) {
        OverlayState::Valid(overlay) => *overlay,
        OverlayState::Missing => {
            return Err(UserError::findings("there is no overlay to revalidate"));
        }
        OverlayState::Invalid(why) => {
            return Err(UserError::error(format!("the overlay is invalid ({why})")));
        }
    };
    // The index is loaded for its freshness (stale: an error) and to vouch for the snapshot.
    let (_, snapshot) = pipeline::load_for_query_with_snapshot(&repo, false)?;
    let report = pipeline::report_diagnostics(&repo, &snapshot);
    let partition = revalidate_overlay(
        &overlay,
        &Context {
            report_diagnostics: &report,
            ..Context::new(&snapshot)
        },
    );
    drop(lock);
    let mismatches = partition_mismatches(&overlay, &partition);
    // A recorded decision the overlay does not show (a crash between the record and the
    // overlay's write): the next decision or enrich run applies it.
    let unreflected = record_mismatches(&overlay, &records);
    let reproduces = mismatches.is_empty() && unreflected.is_empty();
    if args.json {
        let rows: Vec<_> = mismatches.iter().map(|m| json!({"proposalId": m.proposal_id, "stored": m.stored, "revalidated": m.revalidated})).collect();
        let records: Vec<_> = unreflected
            .iter()
            .map(|m| json!({"proposalId": m.proposal_id, "overlay": m.overlay, "record": m.record}))
            .collect();
        crate::outln!(
            "{:#}",
            json!({"reproduces": reproduces, "mismatches": rows, "approvalMismatches": records})
        );
    } else if reproduces {
        crate::outln!(
            "overlay {} reproduces: every stored decision is what the validators decide now",
            overlay.content_hash
        );
    } else {
        crate::outln!(
            "overlay does not reproduce ({} difference(s)):",
            mismatches.len() + unreflected.len()
        );
        for m in &mismatches {
            crate::outln!(
                "  {}: stored {}, now {}",
                m.proposal_id,
                m.stored,
                m.revalidated
            );
        }
        for m in &unreflected {
            crate::outln!(
                "  {}: overlay has it {}, but its approval record says {} (the next `enrich approve`, `reject` or `enrich` applies the record)",
                m.proposal_id,
                m.overlay,
                m.record
            );
        }
    }
    Ok(if reproduces { Exit::Ok } else { Exit::Findings })
}

/// One row of `enrich stats`: what the validators and the people decided for one agent and
/// proposal kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AcceptanceRow {
    /// The agent id.
    pub agent: String,
    /// The role it played (see `doc_bridge_enrich::stage::role_for`).
    pub role: String,
    /// The proposal kind.
    pub kind: String,
    /// Accepted by policy.
    pub by_policy: u64,
    /// Accepted by a person.
    pub by_person: u64,
    /// Awaiting a person.
    pub pending: u64,
    /// Rejected by a person (from the approval records).
    pub rejected_by_person: u64,
}

impl AcceptanceRow {
    /// Accepted over decided, `None` before any decision.
    pub fn rate(&self) -> Option<f64> {
        let decided = self.by_policy + self.by_person + self.rejected_by_person;
        (decided > 0).then(|| (self.by_policy + self.by_person) as f64 / decided as f64)
    }

    /// The rate as a whole percentage (`67%`), `-` before any decision.
    pub fn percent(&self) -> String {
        let decided = self.by_policy + self.by_person + self.rejected_by_person;
        if decided == 0 {
            "-".to_owned()
        } else {
            format!(
                "{:.0}%",
                100.0 * (self.by_policy + self.by_person) as f64 / decided as f64
            )
        }
    }
}

/// Acceptance per (agent, kind), sorted, from the overlay and the approval records. Shared by
/// `enrich stats` and the review page of `render`.
pub(crate) fn acceptance_rows(
    config: &doc_bridge_model::config::Config,
    overlay: Option<&doc_bridge_model::enrichment::EnrichmentOverlayV1>,
    records: &[ApprovalRecord],
) -> Vec<AcceptanceRow> {
    use std::collections::BTreeMap;
    // (agent, role, kind) → [accepted by policy, accepted by a person, pending, rejected by a person]
    let mut rows: BTreeMap<(String, String, String), [u64; 4]> = BTreeMap::new();
    let key = |agent: &str, kind: &str| {
        (
            agent.to_owned(),
            role_for(config, agent, kind).to_owned(),
            kind.to_owned(),
        )
    };
    if let Some(overlay) = overlay {
        for entry in &overlay.accepted {
            let slot = if entry.accepted_by == ACCEPTED_BY_POLICY {
                0
            } else {
                1
            };
            let proposal = &entry.proposal;
            rows.entry(key(&proposal.origin.agent_id, proposal.kind().as_str()))
                .or_default()[slot] += 1;
        }
        for entry in &overlay.pending {
            let proposal = &entry.proposal;
            rows.entry(key(&proposal.origin.agent_id, proposal.kind().as_str()))
                .or_default()[2] += 1;
        }
    }
    for record in records {
        if record.decision == ApprovalDecision::Rejected {
            // The role recorded with the judgment is the one it was made for.
            rows.entry((
                record.agent_id.clone(),
                record.role.clone(),
                record.kind.clone(),
            ))
            .or_default()[3] += 1;
        }
    }
    rows.into_iter()
        .map(
            |((agent, role, kind), [by_policy, by_person, pending, rejected_by_person])| {
                AcceptanceRow {
                    agent,
                    role,
                    kind,
                    by_policy,
                    by_person,
                    pending,
                    rejected_by_person,
                }
            },
        )
        .collect()
}

/// `doc-bridge enrich stats`: per agent, role and kind, what the validators and the people decided.
pub fn stats(args: &EnrichRevalidateArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let overlay = match load_overlay(&repo) {
        OverlayState::Valid(overlay) => Some(*overlay),
        OverlayState::Missing => None,
        OverlayState::Invalid(why) => {
            return Err(UserError::error(format!("the overlay is invalid ({why})")));
        }
    };
    // Unreadable or foreign files in the store are skipped, never trusted.
    let records = crate::agent_stage::load_judgments(&repo);
    let rows = acceptance_rows(&repo.config, overlay.as_ref(), &records);
    let rejected_by_validators = overlay
        .as_ref()
        .map(|o| o.stats.rejection_reasons.clone())
        .unwrap_or_default();
    if args.json {
        let table: Vec<_> = rows
            .iter()
            .map(|row| {
                json!({"agent": row.agent, "role": row.role, "kind": row.kind, "acceptedByPolicy": row.by_policy, "acceptedByPerson": row.by_person,
                       "pending": row.pending, "rejectedByPerson": row.rejected_by_person,
                       "acceptanceRate": row.rate()})
            })
            .collect();
        crate::outln!(
            "{:#}",
            json!({"rows": table, "rejectionReasons": rejected_by_validators, "judgments": records.len()})
        );
        return Ok(Exit::Ok);
    }
    if rows.is_empty() {
        crate::outln!("no enrichment decisions yet");
    }
    for row in &rows {
        let rate = row.percent();
        crate::outln!(
            "{:<24} {:<11} {:<19} accepted {} by policy, {} by people; pending {}; rejected by people {}; acceptance {rate}",
            row.agent,
            row.role,
            row.kind,
            row.by_policy,
            row.by_person,
            row.pending,
            row.rejected_by_person
        );
    }
    if !rejected_by_validators.is_empty() {
        let reasons: Vec<String> = rejected_by_validators
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        crate::outln!("rejected by the validators: {}", reasons.join(", "));
    }
    Ok(Exit::Ok)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::collect_agent_ids;
    use std::collections::BTreeSet;

    #[test]
    fn agent_ids_are_found_in_the_registry_and_its_roles() {
        let config = serde_json::json!({"registry": {"agentId": "curator-bot", "roles": {"reviewer": {"agentId": "review-bot"}, "list": [{"agentId": " spaced "}]}}});
        let mut ids = BTreeSet::new();
        collect_agent_ids(&config, &mut ids);
        assert_eq!(
            ids.into_iter().collect::<Vec<_>>(),
            ["curator-bot", "review-bot", "spaced"]
        );
    }
}
