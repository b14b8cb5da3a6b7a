//! Turning decisions into an overlay (enrichment-overlay-v1, "The overlay"). Merging with a
//! stored overlay (step 5 of "The stage") is the stage's job; this builds the overlay of one
//! batch, which is also what revalidation tests start from.

use doc_bridge_model::ContentHash;
use doc_bridge_model::enrichment::{
    ACCEPTED_BY_POLICY, AcceptedEntry, EnrichmentOverlayV1, OVERLAY_SCHEMA_VERSION, OVERLAY_TYPE,
    OverlayStats, PendingEntry, ProposalKind, approval_id,
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
    for decision in decisions {
        match decision {
            Decision::Accepted(p) => accepted.push(AcceptedEntry {
                proposal: p.clone(),
                accepted_at: accepted_at.to_owned(),
                accepted_by: ACCEPTED_BY_POLICY.to_owned(),
            }),
            Decision::Pending(p, note) => pending.push(PendingEntry {
                proposal: p.clone(),
                approval_id: approval_id(&p.proposal_id, &p.target_content_hash),
                note: note.clone(),
            }),
            Decision::Rejected { .. } => rejected.extend(decision.to_rejected_entry()),
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
        stats: OverlayStats::default(),
    };
    recount(&mut overlay);
    overlay.seal()?;
    Ok(overlay)
}

/// Recounts `stats.byKind` and `stats.rejectionReasons` from the overlay's lists (unknown kinds
/// only under their reason); the run counters (agent runs, packs, cache hits, bytes, expired)
/// carry over.
pub fn recount(overlay: &mut EnrichmentOverlayV1) {
    // Run counters (agent runs, packs, cache hits, bytes, expired) carry over; the per-kind
    // counts and the reason histogram are recomputed from the lists.
    let mut stats = OverlayStats {
        by_kind: Default::default(),
        rejection_reasons: Default::default(),
        ..overlay.stats.clone()
    };
    for entry in &overlay.accepted {
        let k = stats
            .by_kind
            .entry(entry.proposal.kind().as_str().to_owned())
            .or_default();
        k.proposed += 1;
        k.accepted += 1;
    }
    for entry in &overlay.pending {
        let k = stats
            .by_kind
            .entry(entry.proposal.kind().as_str().to_owned())
            .or_default();
        k.proposed += 1;
        k.pending += 1;
    }
    for entry in &overlay.rejected {
        *stats
            .rejection_reasons
            .entry(entry.reason.as_str().to_owned())
            .or_default() += 1;
        if ProposalKind::parse(&entry.kind).is_some() {
            let k = stats.by_kind.entry(entry.kind.clone()).or_default();
            k.proposed += 1;
            k.rejected += 1;
        }
    }
    overlay.stats = stats;
}
