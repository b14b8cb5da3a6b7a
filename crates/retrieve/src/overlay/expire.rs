//! Per-entry staleness (enrichment-overlay-v1, "The overlay": "Staleness is per entry").
//!
//! At projection time an accepted entry whose `targetContentHash` no longer matches its entity
//! — or whose other endpoint no longer exists — is expired and excluded from ranking; its
//! siblings for unchanged entities survive. Nothing here writes: the next enrich run moves the
//! expired entries to `rejected` with reason `expired` ([`ExpiredEntry::to_rejected_entry`]).

use std::collections::HashMap;

use doc_bridge_model::enrichment::{
    AcceptedEntry, EnrichmentOverlayV1, EnrichmentProposalV1, ProposalPayload, RejectedEntry,
    RejectionReason,
};
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_model::{ContentHash, EntityId};

/// An accepted entry that no longer holds, with why.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpiredEntry {
    /// The entry as stored.
    pub entry: AcceptedEntry,
    /// What moved or vanished (ids and hashes only).
    pub detail: String,
}

impl ExpiredEntry {
    /// The `rejected` entry with reason `expired` the next enrich run records.
    pub fn to_rejected_entry(&self) -> RejectedEntry {
        let proposal = &self.entry.proposal;
        RejectedEntry {
            proposal_id: proposal.proposal_id.clone(),
            kind: proposal.kind().as_str().to_owned(),
            entity: proposal.entity.as_str().to_owned(),
            reason: RejectionReason::Expired,
            detail: self.detail.clone(),
        }
    }
}

/// Splits the overlay's accepted entries into the live ones and the expired ones, keeping the
/// stored order in both. An entry expires when its entity is gone or its `targetContentHash`
/// is not the entity's `contentHash`, or when the other entity it names is gone:
/// `propose-relation` `to`, `flag-contradiction` `against`, `flag-redundancy` `with`,
/// `mark-canonical` `scope` and (an endpoint too, though the brief did not list it) `flag-gap`
/// `area`. Only the entity's own hash binds: the other endpoint may change and the entry
/// survives, because the proposal never recorded that endpoint's hash.
pub fn expire(
    overlay: &EnrichmentOverlayV1,
    snapshot: &Snapshot,
) -> (Vec<AcceptedEntry>, Vec<ExpiredEntry>) {
    let hashes: HashMap<&EntityId, &ContentHash> = snapshot
        .entities
        .iter()
        .map(|e| (e.id(), e.content_hash()))
        .collect();
    let hash_of = |id: &EntityId| hashes.get(id).copied();
    let mut live = Vec::new();
    let mut expired = Vec::new();
    for entry in &overlay.accepted {
        match expiry(&entry.proposal, &hash_of) {
            None => live.push(entry.clone()),
            Some(detail) => expired.push(ExpiredEntry {
                entry: entry.clone(),
                detail,
            }),
        }
    }
    (live, expired)
}

/// Why a stored proposal no longer holds against the snapshot, or `None` when it is live.
/// `hash_of` gives the content hash of each entity of the snapshot (`None`: no such entity).
pub fn expiry<'a>(
    proposal: &EnrichmentProposalV1,
    hash_of: &dyn Fn(&EntityId) -> Option<&'a ContentHash>,
) -> Option<String> {
    let Some(hash) = hash_of(&proposal.entity) else {
        return Some(format!("entity {} vanished", proposal.entity));
    };
    if hash.as_str() != proposal.target_content_hash {
        return Some(format!(
            "{} moved from {} to {}",
            proposal.entity, proposal.target_content_hash, hash
        ));
    }
    let other = match &proposal.payload {
        ProposalPayload::ProposeRelation(r) => Some(&r.to),
        ProposalPayload::FlagContradiction(c) => Some(&c.against),
        ProposalPayload::FlagRedundancy(r) => Some(&r.with),
        ProposalPayload::MarkCanonical(m) => Some(&m.scope),
        ProposalPayload::FlagGap(g) => Some(&g.area),
        ProposalPayload::ClassifyDocument(_)
        | ProposalPayload::Summarize(_)
        | ProposalPayload::AddAlias(_)
        | ProposalPayload::AddIntent(_)
        | ProposalPayload::RankHint(_)
        | ProposalPayload::SuggestArea(_) => None,
    };
    match other {
        Some(id) if hash_of(id).is_none() => Some(format!("endpoint {id} vanished")),
        _ => None,
    }
}
