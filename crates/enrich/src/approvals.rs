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
    RejectionReason,
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
