//! A validator's verdict on one proposal.

use doc_bridge_model::enrichment::{EnrichmentProposalV1, RejectedEntry, RejectionReason};

use crate::redact::redact;

/// Longest `proposalId`, `kind` or `entity` string kept in a rejection (characters). Junk can be
/// arbitrarily long; the overlay should not be.
pub const REJECTED_FIELD_MAX_CHARS: usize = 256;
/// Longest rejection `detail` (characters).
pub const DETAIL_MAX_CHARS: usize = 500;

/// The note on a human-approval proposal that passed every validator.
pub const AWAITING_APPROVAL: &str = "awaiting approval";
/// The note on a `mark-canonical` that passed every validator while another document stands
/// canonical (accepted or pending) for its scope (enrichment-overlay-v1, "The overlay").
pub const CANONICAL_CONFLICT: &str = "canonical-conflict";

/// What the validators decided (enrichment-overlay-v1, "Typed proposals": policy kinds are
/// accepted, human kinds are requested from the approval gate, everything else is rejected
/// with one reason).
#[derive(Debug, Clone, PartialEq)]
#[allow(
    clippy::large_enum_variant,
    reason = "decisions are short-lived and mostly accepted or pending"
)]
pub enum Decision {
    /// A policy kind (or a `flag-gap` finding) that passed every validator.
    Accepted(EnrichmentProposalV1),
    /// A human-approval kind that passed every validator, with a note for the approver.
    Pending(EnrichmentProposalV1, String),
    /// Refused. Strings come from the proposal as given (`""` when absent or not a string),
    /// redacted and bounded; `detail` names fields and ids, never document text.
    Rejected {
        /// The proposal id as given.
        proposal_id: String,
        /// The kind as given.
        kind: String,
        /// The entity as given.
        entity: String,
        /// The one reason.
        reason: RejectionReason,
        /// What failed.
        detail: String,
    },
}

impl Decision {
    /// The proposal id the decision is about (as given, for rejections).
    pub fn proposal_id(&self) -> &str {
        match self {
            Decision::Accepted(p) | Decision::Pending(p, _) => &p.proposal_id,
            Decision::Rejected { proposal_id, .. } => proposal_id,
        }
    }

    /// The rejection reason, for rejections.
    pub fn reason(&self) -> Option<RejectionReason> {
        match self {
            Decision::Rejected { reason, .. } => Some(*reason),
            Decision::Accepted(_) | Decision::Pending(..) => None,
        }
    }

    /// The overlay entry for a rejection.
    pub fn to_rejected_entry(&self) -> Option<RejectedEntry> {
        match self {
            Decision::Rejected {
                proposal_id,
                kind,
                entity,
                reason,
                detail,
            } => Some(RejectedEntry {
                proposal_id: proposal_id.clone(),
                kind: kind.clone(),
                entity: entity.clone(),
                reason: *reason,
                detail: detail.clone(),
            }),
            Decision::Accepted(_) | Decision::Pending(..) => None,
        }
    }

    /// A rejection with every string made safe to store: redacted, then bounded.
    pub(crate) fn rejected(
        proposal_id: &str,
        kind: &str,
        entity: &str,
        reason: RejectionReason,
        detail: &str,
    ) -> Self {
        Decision::Rejected {
            proposal_id: bounded(proposal_id, REJECTED_FIELD_MAX_CHARS),
            kind: bounded(kind, REJECTED_FIELD_MAX_CHARS),
            entity: bounded(entity, REJECTED_FIELD_MAX_CHARS),
            reason,
            detail: bounded(detail, DETAIL_MAX_CHARS),
        }
    }
}

/// `text` redacted and cut to `max` characters (an ellipsis marks a cut).
fn bounded(text: &str, max: usize) -> String {
    let text = redact(text);
    if text.chars().count() <= max {
        return text;
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}
