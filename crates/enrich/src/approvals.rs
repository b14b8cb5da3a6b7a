//! Approval records and the overlay, kept in agreement (enrichment-overlay-v1, "Approvals": the
//! store decides first, the overlay moves second).
//!
//! A decision is one record under `.doc-bridge/approvals/` and one move in the overlay. A crash
//! (or an older build without the overlay lock) between the two leaves a record whose proposal
//! is still pending. [`reconcile`] makes the overlay reflect every recorded decision; it runs
//! before anything moves the overlay, so a recorded decision is never lost.
//! [`record_mismatches`] tells where the two disagree, for `enrich revalidate`.

use doc_bridge_model::approval::{ApprovalDecision, ApprovalRecord};
use doc_bridge_model::enrichment::{
    AcceptedEntry, EnrichmentOverlayV1, EnrichmentProposalV1, ProposalPayload, RejectedEntry,
    RejectionReason, approval_id,
};
use doc_bridge_model::snapshot::Snapshot;

use crate::context::Facts;
use crate::decision::CANONICAL_CONFLICT;
use doc_bridge_retrieve::overlay::expiry;

/// The live accepted `mark-canonical` entry that names another document canonical for the scope
/// `proposal` marks, if any. A scope has at most one canonical document after the merge
/// (enrichment-overlay-v1, "Typed proposals"), so approving `proposal` is refused while there is
/// one; an entry whose target moved or whose scope vanished (expired) does not count.
pub fn canonical_rival<'o>(
    overlay: &'o EnrichmentOverlayV1,
    proposal: &EnrichmentProposalV1,
    snapshot: &Snapshot,
) -> Option<&'o AcceptedEntry> {
    let ProposalPayload::MarkCanonical(m) = &proposal.payload else {
        return None;
    };
    let facts = Facts::new(snapshot, &snapshot.diagnostics);
    overlay.accepted.iter().find(|entry| {
        let other = &entry.proposal;
        other.entity != proposal.entity
            && matches!(&other.payload, ProposalPayload::MarkCanonical(o) if o.scope == m.scope)
            && expiry(other, &|id| facts.content_hash(id)).is_none()
    })
}

/// The shortest proposal-id prefix a decision takes (`enrich list` shows the first 12 characters).
pub const MIN_ID_PREFIX: usize = 8;

/// Why a person's decision is refused. Each leaves the approval store and the overlay as they
/// were.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The prefix begins several pending ids.
    #[error("`{prefix}` begins {count} pending proposal ids; give more of it")]
    AmbiguousPrefix {
        /// The id as given.
        prefix: String,
        /// How many pending ids begin with it.
        count: usize,
    },
    /// The proposal was accepted or rejected already.
    #[error("proposal {0} is already decided")]
    AlreadyDecided(String),
    /// No pending proposal has that id.
    #[error("no pending proposal {0}; see `doc-bridge enrich list --state pending`")]
    NotPending(String),
    /// The target is no longer what the proposal saw: a decision never applies to a changed
    /// document.
    #[error(
        "the target {entity} changed since proposal {proposal} was made; it can no longer be approved or rejected"
    )]
    TargetChanged {
        /// The target entity.
        entity: String,
        /// The proposal.
        proposal: String,
    },
    /// Another document is canonical for the scope: a scope has one canonical document.
    #[error(
        "scope {scope} already has canonical document {document} (proposal {rival}, accepted by {by}); a scope has one canonical document: reject this one with `doc-bridge enrich reject {proposal} --by NAME`"
    )]
    CanonicalConflict {
        /// The scope.
        scope: String,
        /// The document canonical for it now.
        document: String,
        /// The proposal that made it so.
        rival: String,
        /// Who accepted that one.
        by: String,
        /// The proposal refused.
        proposal: String,
    },
}

/// The position of the pending entry `proposal_id` names: its full id, or a prefix of at least
/// [`MIN_ID_PREFIX`] characters that only one pending id begins with.
pub fn find_pending(overlay: &EnrichmentOverlayV1, proposal_id: &str) -> Result<usize, Refusal> {
    let exact = overlay
        .pending
        .iter()
        .position(|e| e.proposal.proposal_id == proposal_id);
    if let Some(position) = exact {
        return Ok(position);
    }
    let prefixed: Vec<usize> = overlay
        .pending
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            proposal_id.len() >= MIN_ID_PREFIX && e.proposal.proposal_id.starts_with(proposal_id)
        })
        .map(|(i, _)| i)
        .collect();
    match prefixed.as_slice() {
        [only] => Ok(*only),
        [] => {
            let decided = overlay
                .accepted
                .iter()
                .any(|e| e.proposal.proposal_id == proposal_id)
                || overlay
                    .rejected
                    .iter()
                    .any(|e| e.proposal_id == proposal_id);
            Err(if decided {
                Refusal::AlreadyDecided(proposal_id.to_owned())
            } else {
                Refusal::NotPending(proposal_id.to_owned())
            })
        }
        several => Err(Refusal::AmbiguousPrefix {
            prefix: proposal_id.to_owned(),
            count: several.len(),
        }),
    }
}

/// A person's decision on one pending proposal, before it is checked.
#[derive(Debug, Clone)]
pub struct Decision<'a> {
    /// Approve (`true`) or reject.
    pub approve: bool,
    /// Who decides, already checked to be a person (`identity::check_decider`).
    pub by: &'a str,
    /// Why (a rejection's reason).
    pub reason: Option<String>,
    /// When (RFC 3339).
    pub decided_at: String,
    /// The proposing agent's role (`stage::role_for`).
    pub role: &'a str,
}

/// The approval record of `decision` on the pending entry at `position`, once it holds against
/// `snapshot`: the target is still what the proposal saw, and an approved `mark-canonical` has
/// no live rival for its scope. Pure: the caller records it, then moves the overlay
/// ([`apply_decision`]).
pub fn decide(
    overlay: &EnrichmentOverlayV1,
    position: usize,
    snapshot: &Snapshot,
    decision: Decision<'_>,
) -> Result<ApprovalRecord, Refusal> {
    let Some(entry) = overlay.pending.get(position) else {
        return Err(Refusal::NotPending(format!("at position {position}")));
    };
    let proposal = &entry.proposal;
    let current = snapshot
        .entities
        .iter()
        .find(|e| e.id() == &proposal.entity)
        .map(|e| e.content_hash().as_str());
    if current != Some(proposal.target_content_hash.as_str()) {
        return Err(Refusal::TargetChanged {
            entity: proposal.entity.to_string(),
            proposal: proposal.proposal_id.to_string(),
        });
    }
    if decision.approve
        && let Some(rival) = canonical_rival(overlay, proposal, snapshot)
        && let ProposalPayload::MarkCanonical(m) = &proposal.payload
    {
        return Err(Refusal::CanonicalConflict {
            scope: m.scope.to_string(),
            document: rival.proposal.entity.to_string(),
            rival: rival.proposal.proposal_id.to_string(),
            by: rival.accepted_by.clone(),
            proposal: proposal.proposal_id.to_string(),
        });
    }
    Ok(ApprovalRecord {
        approval_id: approval_id(&proposal.proposal_id, &proposal.target_content_hash),
        proposal_id: proposal.proposal_id.clone(),
        target_content_hash: proposal.target_content_hash.clone(),
        decision: if decision.approve {
            ApprovalDecision::Approved
        } else {
            ApprovalDecision::Rejected
        },
        by: decision.by.to_owned(),
        reason: decision.reason,
        decided_at: decision.decided_at,
        kind: proposal.kind().as_str().to_owned(),
        entity: proposal.entity.to_string(),
        agent_id: proposal.origin.agent_id.clone(),
        role: decision.role.to_owned(),
        payload: serde_json::to_value(proposal)
            .ok()
            .and_then(|v| v.get("payload").cloned()),
    })
}

/// One approval record the overlay does not reflect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordMismatch {
    /// The proposal id.
    pub proposal_id: String,
    /// What the overlay holds: `pending`, `accepted by <name>`, `rejected by a person`.
    pub overlay: String,
    /// What the record says: `approved by <name>` or `rejected by <name>`.
    pub record: String,
}

/// Moves the pending entry at `position` as `record` decides. The accepted and rejected lists
/// stay sorted. `decided_at` becomes the entry's `acceptedAt`. An approved `mark-canonical`
/// leaves every other document pending for its scope with the note `canonical-conflict`.
pub fn apply_decision(overlay: &mut EnrichmentOverlayV1, position: usize, record: &ApprovalRecord) {
    if position >= overlay.pending.len() {
        return;
    }
    let entry = overlay.pending.remove(position);
    match record.decision {
        ApprovalDecision::Approved => {
            // The scope's other candidates cannot be approved now: they say so.
            if let ProposalPayload::MarkCanonical(m) = &entry.proposal.payload {
                for rival in &mut overlay.pending {
                    if rival.proposal.entity != entry.proposal.entity
                        && matches!(&rival.proposal.payload, ProposalPayload::MarkCanonical(o) if o.scope == m.scope)
                    {
                        rival.note = CANONICAL_CONFLICT.to_owned();
                    }
                }
            }
            overlay.accepted.push(AcceptedEntry {
                proposal: entry.proposal,
                accepted_at: record.decided_at.clone(),
                accepted_by: record.by.clone(),
            });
            overlay
                .accepted
                .sort_by(|a, b| a.proposal.proposal_id.cmp(&b.proposal.proposal_id));
        }
        ApprovalDecision::Rejected => {
            overlay.rejected.push(RejectedEntry {
                proposal_id: entry.proposal.proposal_id.clone(),
                kind: entry.proposal.kind().as_str().to_owned(),
                entity: entry.proposal.entity.to_string(),
                reason: RejectionReason::HumanRejected,
                detail: format!("rejected by {}", record.by),
            });
            overlay.rejected.sort();
        }
    }
}

/// Applies every record whose proposal is still pending with the record's target hash (the
/// decision binds to that target). Returns the proposal ids moved, in record order.
pub fn reconcile(overlay: &mut EnrichmentOverlayV1, records: &[ApprovalRecord]) -> Vec<String> {
    let mut moved = Vec::new();
    for record in records {
        let position = overlay.pending.iter().position(|e| {
            e.proposal.proposal_id == record.proposal_id
                && e.proposal.target_content_hash == record.target_content_hash
        });
        if let Some(position) = position {
            apply_decision(overlay, position, record);
            moved.push(record.proposal_id.clone());
        }
    }
    moved
}

/// Where the overlay does not reflect a record: its proposal is still pending, or it stands
/// decided the other way (accepted against a rejection, rejected by a person against an
/// approval). A record whose proposal is gone from the overlay or expired since is not a
/// disagreement: the decision bound to a target that moved.
pub fn record_mismatches(
    overlay: &EnrichmentOverlayV1,
    records: &[ApprovalRecord],
) -> Vec<RecordMismatch> {
    let mut mismatches = Vec::new();
    for record in records {
        let recorded = match record.decision {
            ApprovalDecision::Approved => format!("approved by {}", record.by),
            ApprovalDecision::Rejected => format!("rejected by {}", record.by),
        };
        let stored = if overlay
            .pending
            .iter()
            .any(|e| e.proposal.proposal_id == record.proposal_id)
        {
            Some("pending".to_owned())
        } else if let Some(entry) = overlay
            .accepted
            .iter()
            .find(|e| e.proposal.proposal_id == record.proposal_id)
        {
            (record.decision == ApprovalDecision::Rejected)
                .then(|| format!("accepted by {}", entry.accepted_by))
        } else if overlay.rejected.iter().any(|e| {
            e.proposal_id == record.proposal_id && e.reason == RejectionReason::HumanRejected
        }) {
            (record.decision == ApprovalDecision::Approved)
                .then(|| "rejected by a person".to_owned())
        } else {
            None
        };
        if let Some(stored) = stored {
            mismatches.push(RecordMismatch {
                proposal_id: record.proposal_id.clone(),
                overlay: stored,
                record: recorded,
            });
        }
    }
    mismatches
}
