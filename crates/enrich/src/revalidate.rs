//! Reproducible acceptance (enrichment-overlay-v1, "The overlay": `revalidateEnrichmentOverlay`
//! re-runs the validators over the stored proposals and returns the partition they produce; an
//! overlay whose partition does not reproduce was edited by hand or outlived its validators).

use std::collections::BTreeMap;

use doc_bridge_model::enrichment::{ACCEPTED_BY_POLICY, EnrichmentOverlayV1, RejectionReason};

use crate::batch::decide;
use crate::context::Context;
use crate::decision::Decision;
use crate::envelope::Options;

/// Which proposal ids the validators accept, leave pending and reject. Every list is sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Partition {
    /// Accepted by the validators (policy kinds and findings).
    pub accepted: Vec<String>,
    /// Passed every validator but needs a person (human-approval kinds).
    pub pending: Vec<String>,
    /// Rejected, with the reason.
    pub rejected: Vec<(String, RejectionReason)>,
}

impl Partition {
    /// The partition of a list of decisions.
    pub fn of(decisions: &[Decision]) -> Self {
        let mut partition = Partition::default();
        for decision in decisions {
            match decision {
                Decision::Accepted(p) => partition.accepted.push(p.proposal_id.clone()),
                Decision::Pending(p, _) => partition.pending.push(p.proposal_id.clone()),
                Decision::Rejected {
                    proposal_id,
                    reason,
                    ..
                } => partition.rejected.push((proposal_id.clone(), *reason)),
            }
        }
        partition.accepted.sort();
        partition.pending.sort();
        partition.rejected.sort();
        partition
    }
}

/// Re-runs the validators over the overlay's stored proposals (accepted, then pending, decided
/// as one batch in the usual deterministic order) against `ctx.snapshot` and
/// `ctx.report_diagnostics`, and returns the partition they produce.
///
/// `ctx.overlay` is ignored: the stored proposals are the batch, and each sees the decisions
/// before it exactly as on the day they were made. The `baseSnapshotHash` check is skipped — an
/// overlay keeps entries accepted against earlier snapshots while their targets do not move,
/// and `stale-target` is what tells a moved target. Everything else runs as in
/// [`crate::decide_batch`].
pub fn revalidate(overlay: &EnrichmentOverlayV1, ctx: &Context<'_>) -> Partition {
    let ctx = Context {
        overlay: None,
        ..*ctx
    };
    let raw = overlay
        .accepted
        .iter()
        .map(|e| &e.proposal)
        .chain(overlay.pending.iter().map(|e| &e.proposal))
        .map(|p| serde_json::to_value(p).unwrap_or(serde_json::Value::Null))
        .collect();
    Partition::of(&decide(raw, &ctx, Options { check_base: false }))
}

/// One proposal whose stored decision the validators do not reproduce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionMismatch {
    /// The proposal id.
    pub proposal_id: String,
    /// What the overlay stores: `accepted by policy`, `accepted by <name>`, `pending`, or
    /// `absent`.
    pub stored: String,
    /// What the validators decided: `accepted`, `pending`, `rejected (<reason>)`, or `absent`.
    pub revalidated: String,
}

/// Compares a revalidated partition with the overlay's stored one. Consistent pairs:
/// stored accepted by `policy` ↔ accepted; stored accepted by a person ↔ pending (the validators
/// alone never accept a human kind; a person did) or accepted (a person accepting a policy
/// kind); stored pending ↔ pending. Anything else, including an id on one side only, is a
/// mismatch. An empty result means the overlay reproduces.
pub fn partition_mismatches(
    overlay: &EnrichmentOverlayV1,
    partition: &Partition,
) -> Vec<PartitionMismatch> {
    #[derive(Clone, Copy, PartialEq)]
    enum Stored<'a> {
        ByPolicy,
        ByPerson(&'a str),
        Pending,
    }
    let mut stored: BTreeMap<&str, Stored<'_>> = BTreeMap::new();
    for entry in &overlay.accepted {
        let by = if entry.accepted_by == ACCEPTED_BY_POLICY {
            Stored::ByPolicy
        } else {
            Stored::ByPerson(&entry.accepted_by)
        };
        stored.insert(&entry.proposal.proposal_id, by);
    }
    for entry in &overlay.pending {
        stored.insert(&entry.proposal.proposal_id, Stored::Pending);
    }
    let mut revalidated: BTreeMap<&str, String> = BTreeMap::new();
    for id in &partition.accepted {
        revalidated.insert(id, "accepted".to_owned());
    }
    for id in &partition.pending {
        revalidated.insert(id, "pending".to_owned());
    }
    for (id, reason) in &partition.rejected {
        revalidated.insert(id, format!("rejected ({reason})"));
    }

    let mut ids: Vec<&str> = stored.keys().chain(revalidated.keys()).copied().collect();
    ids.sort_unstable();
    ids.dedup();
    let mut mismatches = Vec::new();
    for id in ids {
        let now = revalidated.get(id).map_or("absent", String::as_str);
        let then = stored.get(id).copied();
        let consistent = matches!(
            (then, now),
            (Some(Stored::ByPolicy), "accepted")
                | (Some(Stored::ByPerson(_)), "accepted" | "pending")
                | (Some(Stored::Pending), "pending")
        );
        if !consistent {
            let stored = match then {
                Some(Stored::ByPolicy) => "accepted by policy".to_owned(),
                Some(Stored::ByPerson(name)) => format!("accepted by {name}"),
                Some(Stored::Pending) => "pending".to_owned(),
                None => "absent".to_owned(),
            };
            mismatches.push(PartitionMismatch {
                proposal_id: id.to_owned(),
                stored,
                revalidated: now.to_owned(),
            });
        }
    }
    mismatches
}

/// Whether the overlay's stored partition reproduces under [`revalidate`].
pub fn reproduces(overlay: &EnrichmentOverlayV1, ctx: &Context<'_>) -> bool {
    partition_mismatches(overlay, &revalidate(overlay, ctx)).is_empty()
}
