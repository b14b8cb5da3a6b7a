//! The overlay: its hash, its schema-level refusals, reproducible acceptance (revalidation) and
//! per-entry expiry (enrichment-overlay-v1, "The overlay").

#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_enrich::{
    Context, Decision, Partition, decide_batch, expire, overlay_from_decisions,
    partition_mismatches, reproduces, revalidate,
};
use doc_bridge_model::enrichment::{
    EnrichmentOverlayV1, RejectionReason, approval_id, overlay_hash, validate_overlay,
};
use doc_bridge_model::hash::semantic_hash;
use doc_bridge_model::snapshot::{Entity, SNAPSHOT_HASH_EXCLUDED, Snapshot};
use proptest::prelude::*;
use serde_json::{Value, json};

const AT: &str = "2026-09-14T00:00:00.000Z";

/// One proposal of every kind that the validators accept or leave pending, plus junk.
fn batch(snap: &Snapshot) -> Vec<Value> {
    let both = json!([
        {"source": "snapshot", "path": "docs/auth.md", "lines": [3, 4]},
        {"source": "snapshot", "path": "crates/auth/src/session.rs", "lines": [10, 12]},
    ]);
    vec![
        proposal(
            snap,
            "classify-document",
            AUTH,
            json!({"type": "guide", "audience": "both", "lifecycle": "current", "criticality": "medium"}),
        ),
        proposal(
            snap,
            "summarize",
            RUNBOOK,
            json!({"summary": "Restarts.", "language": "en"}),
        ),
        proposal(snap, "add-alias", AUTH, json!({"alias": "sso handbook"})),
        proposal(
            snap,
            "add-intent",
            AUTH,
            json!({"phrase": "how do I log in", "language": "en"}),
        ),
        proposal(snap, "mark-canonical", AUTH, json!({"scope": AREA})),
        proposal(
            snap,
            "propose-relation",
            AUTH,
            json!({"from": AUTH, "to": TOKEN, "kind": "documents", "detection": "prose"}),
        ),
        with(
            proposal(
                snap,
                "flag-contradiction",
                AUTH,
                json!({"against": SESSION, "claim": "a day", "observed": "an hour"}),
            ),
            "/evidence",
            both,
        ),
        proposal(snap, "flag-redundancy", README, json!({"with": AUTH})),
        proposal(
            snap,
            "flag-gap",
            AREA,
            json!({"area": AREA, "missing": "rotation"}),
        ),
        proposal(snap, "rank-hint", SESSION, json!({"relevance": "strong"})),
        proposal(
            snap,
            "suggest-area",
            README,
            json!({"directories": ["docs"], "name": "documentation"}),
        ),
        proposal(
            snap,
            "add-alias",
            AUTH,
            json!({"alias": "Authentication guide"}),
        ),
        json!({"kind": "nope"}),
    ]
}

fn overlay(snap: &Snapshot) -> EnrichmentOverlayV1 {
    let decisions = decide_batch(batch(snap), &Context::new(snap));
    overlay_from_decisions(snap.content_hash.clone(), &decisions, AT).unwrap()
}

/// Approves every pending entry as `ana`, the way the approval gate will.
fn approve_all(overlay: &mut EnrichmentOverlayV1) {
    for entry in std::mem::take(&mut overlay.pending) {
        overlay
            .accepted
            .push(doc_bridge_model::enrichment::AcceptedEntry {
                proposal: entry.proposal,
                accepted_at: AT.to_owned(),
                accepted_by: "ana".to_owned(),
            });
    }
    overlay
        .accepted
        .sort_by(|a, b| a.proposal.proposal_id.cmp(&b.proposal.proposal_id));
    overlay.seal().unwrap();
}

fn edit(snap: &Snapshot, id: &str, seed: &str) -> Snapshot {
    let mut next = snap.clone();
    let hash = h(seed);
    let mut path = None;
    for entity in &mut next.entities {
        if entity.id().as_str() == id {
            path = Some(entity.path().clone());
            match entity {
                Entity::Document(d) => d.content_hash = hash.clone(),
                Entity::Module(m) => m.content_hash = hash.clone(),
                Entity::Area(a) => a.content_hash = hash.clone(),
                Entity::Package(p) => p.content_hash = hash.clone(),
                Entity::File(f) => f.content_hash = hash.clone(),
            }
        }
    }
    for file in &mut next.files {
        if Some(&file.path) == path.as_ref() {
            file.content_hash = hash.clone();
        }
    }
    next.content_hash = semantic_hash(&next, SNAPSHOT_HASH_EXCLUDED).unwrap();
    next
}

fn remove(snap: &Snapshot, id: &str) -> Snapshot {
    let mut next = snap.clone();
    next.entities.retain(|e| e.id().as_str() != id);
    next.relations
        .retain(|r| r.from.as_str() != id && r.to.as_str() != id);
    next.content_hash = semantic_hash(&next, SNAPSHOT_HASH_EXCLUDED).unwrap();
    next
}

#[test]
fn the_overlay_of_a_batch_holds_every_decision_and_passes_its_schema() {
    let snap = snapshot();
    let overlay = overlay(&snap);
    assert_eq!(overlay.accepted.len(), 6);
    assert_eq!(overlay.pending.len(), 5);
    assert_eq!(overlay.rejected.len(), 2);
    assert!(overlay.accepted.iter().all(|e| e.accepted_by == "policy"));
    for entry in &overlay.pending {
        let p = &entry.proposal;
        assert_eq!(
            entry.approval_id,
            approval_id(&p.proposal_id, &p.target_content_hash)
        );
    }
    assert_eq!(overlay.stats.by_kind["add-alias"].proposed, 2);
    assert_eq!(overlay.stats.by_kind["add-alias"].rejected, 1);
    assert_eq!(overlay.stats.rejection_reasons["invalid-kind"], 1);
    assert_eq!(validate_overlay(&overlay), Ok(()));
    let bytes = serde_json::to_vec(&overlay).unwrap();
    let back: EnrichmentOverlayV1 = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(back, overlay);
}

#[test]
fn the_overlay_hash_ignores_accepted_at_and_stats_but_changes_with_a_decision() {
    let snap = snapshot();
    let overlay = overlay(&snap);
    let later = {
        let decisions = decide_batch(batch(&snap), &Context::new(&snap));
        let mut later = overlay_from_decisions(
            snap.content_hash.clone(),
            &decisions,
            "2030-01-01T00:00:00Z",
        )
        .unwrap();
        later.stats.agent_runs = 3;
        later.stats.cache_hits = 7;
        later
    };
    assert_ne!(later, overlay);
    assert_eq!(later.content_hash, overlay.content_hash);
    // Dropping one proposal from the batch changes the decisions, so the hash.
    let mut fewer = batch(&snap);
    fewer.remove(0);
    let decisions = decide_batch(fewer, &Context::new(&snap));
    let fewer = overlay_from_decisions(snap.content_hash.clone(), &decisions, AT).unwrap();
    assert_ne!(fewer.content_hash, overlay.content_hash);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any accepted-at and any stats keep the hash; moving any one entry between decided
    /// states, or changing its note, moves it.
    #[test]
    fn overlay_hash_is_over_decisions_only(
        at in "[0-9T:.Z-]{0,30}",
        runs in any::<u64>(),
        pick in 0..11usize,
        change in 0..3u8,
    ) {
        let snap = snapshot();
        let base = overlay(&snap);
        let mut noisy = base.clone();
        for entry in &mut noisy.accepted {
            entry.accepted_at = at.clone();
        }
        noisy.stats.agent_runs = runs;
        noisy.stats.expired = runs / 2;
        prop_assert_eq!(overlay_hash(&noisy).unwrap(), base.content_hash.clone());

        let mut moved = base.clone();
        let ids: Vec<String> = moved
            .accepted
            .iter()
            .map(|e| e.proposal.proposal_id.clone())
            .chain(moved.pending.iter().map(|e| e.proposal.proposal_id.clone()))
            .collect();
        let id = &ids[pick % ids.len()];
        match change {
            0 => {
                // Rejected instead.
                moved.accepted.retain(|e| &e.proposal.proposal_id != id);
                moved.pending.retain(|e| &e.proposal.proposal_id != id);
                moved.rejected.push(doc_bridge_model::enrichment::RejectedEntry {
                    proposal_id: id.clone(),
                    kind: String::new(),
                    entity: String::new(),
                    reason: RejectionReason::HumanRejected,
                    detail: String::new(),
                });
            }
            1 => {
                // Approved by a person, or a policy entry credited to one.
                if let Some(entry) = moved.accepted.iter_mut().find(|e| &e.proposal.proposal_id == id) {
                    entry.accepted_by = "ana".into();
                } else if let Some(entry) = moved.pending.iter_mut().find(|e| &e.proposal.proposal_id == id) {
                    entry.note = "canonical-conflict".into();
                }
            }
            _ => {
                // A different target bound.
                for entry in &mut moved.accepted {
                    if &entry.proposal.proposal_id == id {
                        entry.proposal.target_content_hash = "f".repeat(64);
                    }
                }
                for entry in &mut moved.pending {
                    if &entry.proposal.proposal_id == id {
                        entry.proposal.target_content_hash = "f".repeat(64);
                    }
                }
            }
        }
        prop_assert_ne!(overlay_hash(&moved).unwrap(), base.content_hash);
    }
}

#[test]
fn a_fresh_overlay_reproduces_under_revalidation() {
    let snap = snapshot();
    let overlay = overlay(&snap);
    let partition = revalidate(&overlay, &Context::new(&snap));
    assert_eq!(partition.accepted.len(), 6);
    assert_eq!(partition.pending.len(), 5);
    assert!(partition.rejected.is_empty());
    assert_eq!(partition_mismatches(&overlay, &partition), vec![]);
    assert!(reproduces(&overlay, &Context::new(&snap)));
}

#[test]
fn entries_people_approved_reproduce_although_the_validators_leave_them_pending() {
    let snap = snapshot();
    let mut overlay = overlay(&snap);
    approve_all(&mut overlay);
    assert_eq!(validate_overlay(&overlay), Ok(()));
    assert!(reproduces(&overlay, &Context::new(&snap)));
}

#[test]
fn a_human_kind_accepted_by_policy_does_not_reproduce() {
    let snap = snapshot();
    let mut overlay = overlay(&snap);
    let entry = overlay.pending.remove(0);
    let id = entry.proposal.proposal_id.clone();
    overlay
        .accepted
        .push(doc_bridge_model::enrichment::AcceptedEntry {
            proposal: entry.proposal,
            accepted_at: AT.to_owned(),
            accepted_by: "policy".to_owned(),
        });
    overlay.seal().unwrap();
    assert!(validate_overlay(&overlay).is_err());
    let mismatches = partition_mismatches(&overlay, &revalidate(&overlay, &Context::new(&snap)));
    assert_eq!(mismatches.len(), 1);
    assert_eq!(mismatches[0].proposal_id, id);
    assert_eq!(mismatches[0].stored, "accepted by policy");
    assert_eq!(mismatches[0].revalidated, "pending");
}

#[test]
fn a_hand_edited_entry_does_not_reproduce() {
    let snap = snapshot();
    let mut overlay = overlay(&snap);
    // Someone changed an accepted alias by hand (and resealed): the id no longer recomputes.
    for entry in &mut overlay.accepted {
        if let doc_bridge_model::enrichment::ProposalPayload::AddAlias(a) =
            &mut entry.proposal.payload
        {
            a.alias = "Authentication Guide".into();
        }
    }
    overlay.seal().unwrap();
    assert_eq!(validate_overlay(&overlay), Ok(()));
    let partition = revalidate(&overlay, &Context::new(&snap));
    assert_eq!(partition.rejected.len(), 1);
    assert_eq!(partition.rejected[0].1, RejectionReason::ProposalIdMismatch);
    let mismatches = partition_mismatches(&overlay, &partition);
    assert_eq!(mismatches.len(), 1);
    assert_eq!(mismatches[0].revalidated, "rejected (proposal-id-mismatch)");
}

#[test]
fn an_overlay_still_reproduces_on_a_new_snapshot_whose_targets_did_not_move() {
    let snap = snapshot();
    let overlay = overlay(&snap);
    // An unrelated file changed: a new snapshot hash, every target the same.
    let next = edit(&snap, TOKEN, "token, edited");
    assert_ne!(next.content_hash, snap.content_hash);
    let partition = revalidate(&overlay, &Context::new(&next));
    assert_eq!(partition_mismatches(&overlay, &partition), vec![]);
}

#[test]
fn revalidation_partition_is_a_pure_function_of_overlay_and_snapshot() {
    let snap = snapshot();
    let overlay = overlay(&snap);
    let mut shuffled = overlay.clone();
    shuffled.accepted.reverse();
    shuffled.pending.reverse();
    let a: Partition = revalidate(&overlay, &Context::new(&snap));
    let b: Partition = revalidate(&shuffled, &Context::new(&snap));
    assert_eq!(a, b);
}

#[test]
fn an_accepted_entry_whose_target_moved_expires_and_its_siblings_survive() {
    let snap = snapshot();
    let mut overlay = overlay(&snap);
    approve_all(&mut overlay);
    let next = edit(&snap, RUNBOOK, "runbook, edited");
    let (live, expired) = expire(&overlay, &next);
    assert_eq!(live.len() + expired.len(), overlay.accepted.len());
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0].entry.proposal.entity.as_str(), RUNBOOK);
    let rejected = expired[0].to_rejected_entry();
    assert_eq!(rejected.reason, RejectionReason::Expired);
    assert_eq!(rejected.kind, "summarize");
    // Nothing moved: nothing expires.
    let (live, expired) = expire(&overlay, &snap);
    assert_eq!((live.len(), expired.len()), (overlay.accepted.len(), 0));
}

#[test]
fn an_accepted_entry_whose_other_endpoint_vanished_expires() {
    let snap = snapshot();
    let mut overlay = overlay(&snap);
    approve_all(&mut overlay);
    // TOKEN is the `to` of the relation; SESSION the `against` of the contradiction and the
    // entity of the rank hint.
    let next = remove(&remove(&snap, TOKEN), SESSION);
    let (live, expired) = expire(&overlay, &next);
    let mut kinds: Vec<String> = expired
        .iter()
        .map(|e| e.entry.proposal.kind().as_str().to_owned())
        .collect();
    kinds.sort();
    assert_eq!(
        kinds,
        vec!["flag-contradiction", "propose-relation", "rank-hint"]
    );
    assert!(
        live.iter()
            .any(|e| e.proposal.kind().as_str() == "add-alias")
    );
}

#[test]
fn an_entry_whose_other_endpoint_changed_but_exists_survives() {
    let snap = snapshot();
    let mut overlay = overlay(&snap);
    approve_all(&mut overlay);
    let next = edit(&snap, TOKEN, "token, edited");
    let (_, expired) = expire(&overlay, &next);
    assert!(expired.is_empty(), "{expired:?}");
}

#[test]
fn decisions_report_their_proposal_ids() {
    let snap = snapshot();
    for decision in decide_batch(batch(&snap), &Context::new(&snap)) {
        match &decision {
            Decision::Rejected { proposal_id, .. } => {
                assert_eq!(decision.proposal_id(), proposal_id)
            }
            Decision::Accepted(p) | Decision::Pending(p, _) => {
                assert_eq!(decision.proposal_id(), p.proposal_id)
            }
        }
    }
}
