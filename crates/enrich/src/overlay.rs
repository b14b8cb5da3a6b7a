//! Turning decisions into an overlay (enrichment-overlay-v1, "The overlay"). Merging with a
//! stored overlay (step 5 of "The stage") is the stage's job; this builds the overlay of one
//! batch, which is also what revalidation tests start from.

use doc_bridge_model::ContentHash;
use doc_bridge_model::enrichment::{
    ACCEPTED_BY_POLICY, AcceptedEntry, EnrichmentOverlayV1, KindStats, OVERLAY_SCHEMA_VERSION,
    OVERLAY_TYPE, OverlayStats, PendingEntry, ProposalKind, approval_id,
};
use doc_bridge_model::hash::HashError;

use crate::decision::Decision;

/// The sealed overlay of one batch of decisions: accepted entries with `acceptedBy: policy`
/// and `acceptedAt` as given (the caller reads the clock), pending entries with their
/// [`approval_id`], rejections; each list sorted; `stats.byKind` and
/// `stats.rejectionReasons` counted (unknown kinds only under their reason); the other
/// counters zero for the caller to fill.
pub fn overlay_from_decisions(
    base_snapshot_hash: ContentHash,
    decisions: &[Decision],
    accepted_at: &str,
) -> Result<EnrichmentOverlayV1, HashError> {
    let mut accepted = Vec::new();
    let mut pending = Vec::new();
    let mut rejected = Vec::new();
    let mut stats = OverlayStats::default();
    for decision in decisions {
        let kind = match decision {
            Decision::Accepted(p) => {
                accepted.push(AcceptedEntry {
                    proposal: p.clone(),
                    accepted_at: accepted_at.to_owned(),
                    accepted_by: ACCEPTED_BY_POLICY.to_owned(),
                });
                Some((p.kind(), Outcome::Accepted))
            }
            Decision::Pending(p, note) => {
                pending.push(PendingEntry {
                    proposal: p.clone(),
                    approval_id: approval_id(&p.proposal_id, &p.target_content_hash),
                    note: note.clone(),
                });
                Some((p.kind(), Outcome::Pending))
            }
            Decision::Rejected { kind, reason, .. } => {
                *stats
                    .rejection_reasons
                    .entry(reason.as_str().to_owned())
                    .or_default() += 1;
                if let Some(entry) = decision.to_rejected_entry() {
                    rejected.push(entry);
                }
                ProposalKind::parse(kind).map(|k| (k, Outcome::Rejected))
            }
        };
        if let Some((kind, outcome)) = kind {
            let counts: &mut KindStats = stats.by_kind.entry(kind.as_str().to_owned()).or_default();
            counts.proposed += 1;
            match outcome {
                Outcome::Accepted => counts.accepted += 1,
                Outcome::Pending => counts.pending += 1,
                Outcome::Rejected => counts.rejected += 1,
            }
        }
    }
    accepted.sort_by(|a, b| a.proposal.proposal_id.cmp(&b.proposal.proposal_id));
    pending.sort_by(|a, b| a.proposal.proposal_id.cmp(&b.proposal.proposal_id));
    rejected.sort();
    let mut overlay = EnrichmentOverlayV1 {
        artifact_type: OVERLAY_TYPE.to_owned(),
        schema_version: OVERLAY_SCHEMA_VERSION,
        content_hash: base_snapshot_hash.clone(),
        base_snapshot_hash,
        accepted,
        pending,
        rejected,
        stats,
    };
    overlay.seal()?;
    Ok(overlay)
}

enum Outcome {
    Accepted,
    Pending,
    Rejected,
}
