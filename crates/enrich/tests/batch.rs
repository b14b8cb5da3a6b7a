//! Batch behaviour: deterministic order, deduplication, and each proposal seeing the decisions
//! before it and the live entries of the stored overlay.

#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_enrich::{Context, Decision, decide_batch, overlay_from_decisions};
use doc_bridge_model::enrichment::RejectionReason;
use doc_bridge_model::hash::semantic_hash;
use doc_bridge_model::snapshot::{Entity, SNAPSHOT_HASH_EXCLUDED, Snapshot};
use proptest::prelude::*;
use serde_json::{Value, json};

fn decide(snap: &Snapshot, batch: Vec<Value>) -> Vec<Decision> {
    decide_batch(batch, &Context::new(snap))
}

fn reasons(decisions: &[Decision]) -> Vec<Option<RejectionReason>> {
    let mut reasons: Vec<_> = decisions.iter().map(Decision::reason).collect();
    reasons.sort();
    reasons
}

fn canonical(snap: &Snapshot, entity: &str, agent: &str) -> Value {
    by_agent(
        proposal(snap, "mark-canonical", entity, json!({"scope": AREA})),
        agent,
    )
}

/// A mixed batch with in-batch interactions (a canonical conflict, colliding aliases, a
/// repeated gap) and some junk.
fn mixed(snap: &Snapshot) -> Vec<Value> {
    vec![
        canonical(snap, AUTH, "curator"),
        canonical(snap, README, "reviewer"),
        proposal(snap, "add-alias", AUTH, json!({"alias": "sso handbook"})),
        by_agent(
            proposal(snap, "add-alias", README, json!({"alias": "sso handbooks"})),
            "reviewer",
        ),
        proposal(
            snap,
            "flag-gap",
            AREA,
            json!({"area": AREA, "missing": "Token rotation"}),
        ),
        by_agent(
            proposal(
                snap,
                "flag-gap",
                AREA,
                json!({"area": AREA, "missing": "token  rotation"}),
            ),
            "reviewer",
        ),
        proposal(
            snap,
            "summarize",
            RUNBOOK,
            json!({"summary": "Restarts.", "language": "en"}),
        ),
        proposal(snap, "rank-hint", SESSION, json!({"relevance": "weak"})),
        json!({"kind": "nope"}),
        json!("junk"),
        json!(null),
        json!({"proposalId": 5, "kind": "add-alias", "evidence": []}),
    ]
}

fn notes(decisions: &[Decision]) -> Vec<&str> {
    decisions
        .iter()
        .filter_map(|d| match d {
            Decision::Pending(_, note) => Some(note.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_second_canonical_document_for_a_scope_in_one_batch_waits_with_the_note_canonical_conflict() {
    let snap = snapshot();
    let decisions = decide(
        &snap,
        vec![
            canonical(&snap, AUTH, "curator"),
            canonical(&snap, README, "reviewer"),
        ],
    );
    assert_eq!(reasons(&decisions), vec![None, None], "{decisions:#?}");
    // In id order, the first waits for a person, the second for the conflict to be settled.
    assert_eq!(
        notes(&decisions),
        ["awaiting approval", "canonical-conflict"]
    );
}

#[test]
fn two_agents_marking_the_same_document_canonical_agree_rather_than_conflict() {
    let snap = snapshot();
    let decisions = decide(
        &snap,
        vec![
            canonical(&snap, AUTH, "curator"),
            canonical(&snap, AUTH, "reviewer"),
        ],
    );
    assert!(
        decisions.iter().all(|d| matches!(d, Decision::Pending(..))),
        "{decisions:?}"
    );
}

#[test]
fn a_rejected_canonical_marker_does_not_block_another() {
    let snap = snapshot();
    let stale = with(
        canonical(&snap, AUTH, "curator"),
        "/targetContentHash",
        json!("f".repeat(64)),
    );
    let decisions = decide(&snap, vec![stale, canonical(&snap, README, "reviewer")]);
    assert_eq!(
        reasons(&decisions),
        vec![None, Some(RejectionReason::StaleTarget)]
    );
}

#[test]
fn an_alias_close_to_one_accepted_earlier_in_the_batch_is_an_alias_collision() {
    let snap = snapshot();
    let decisions = decide(
        &snap,
        vec![
            proposal(&snap, "add-alias", AUTH, json!({"alias": "sso handbook"})),
            by_agent(
                proposal(
                    &snap,
                    "add-alias",
                    README,
                    json!({"alias": "SSO Handbooks"}),
                ),
                "reviewer",
            ),
        ],
    );
    assert_eq!(
        reasons(&decisions),
        vec![None, Some(RejectionReason::AliasCollision)]
    );
}

#[test]
fn a_gap_flagged_twice_with_the_same_text_is_already_flagged() {
    let snap = snapshot();
    let decisions = decide(&snap, mixed(&snap)[4..6].to_vec());
    assert_eq!(
        reasons(&decisions),
        vec![None, Some(RejectionReason::AlreadyFlagged)]
    );
}

#[test]
fn identical_proposals_are_decided_once() {
    let snap = snapshot();
    let value = proposal(&snap, "add-alias", AUTH, json!({"alias": "sso handbook"}));
    let decisions = decide(&snap, vec![value.clone(), value.clone(), value]);
    assert_eq!(decisions.len(), 1);
    assert!(matches!(decisions[0], Decision::Accepted(_)));
}

#[test]
fn a_duplicate_proposal_id_with_a_different_body_is_rejected_as_schema() {
    let snap = snapshot();
    let value = proposal(&snap, "add-alias", AUTH, json!({"alias": "sso handbook"}));
    let other = with_raw(value.clone(), "/confidence", json!(0.3));
    let decisions = decide(&snap, vec![value, other]);
    assert_eq!(decisions.len(), 2);
    assert_eq!(
        reasons(&decisions),
        vec![None, Some(RejectionReason::Schema)]
    );
    match &decisions[1] {
        Decision::Rejected { detail, .. } => assert_eq!(detail, "duplicate proposalId"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_mixed_batch_decides_as_documented() {
    let snap = snapshot();
    let decisions = decide(&snap, mixed(&snap));
    let accepted = decisions
        .iter()
        .filter(|d| matches!(d, Decision::Accepted(_)))
        .count();
    let pending = decisions
        .iter()
        .filter(|d| matches!(d, Decision::Pending(..)))
        .count();
    // alias, gap, summary, rank hint; two canonical markers, the second in conflict.
    assert_eq!((accepted, pending), (4, 2), "{decisions:#?}");
    let mut rejected: Vec<_> = decisions.iter().filter_map(Decision::reason).collect();
    rejected.sort();
    assert_eq!(
        rejected,
        vec![
            RejectionReason::InvalidKind,
            RejectionReason::InvalidKind,
            RejectionReason::InvalidKind,
            RejectionReason::NoEvidence,
            RejectionReason::AliasCollision,
            RejectionReason::AlreadyFlagged,
        ]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn shuffled_batches_give_identical_decisions(
        order in Just((0..12usize).collect::<Vec<_>>()).prop_shuffle(),
        repeat in 0..12usize,
    ) {
        let snap = snapshot();
        let batch = mixed(&snap);
        let expected = decide(&snap, batch.clone());
        let mut shuffled: Vec<Value> = order.iter().map(|i| batch[*i].clone()).collect();
        // An exact repeat anywhere changes nothing.
        shuffled.push(batch[repeat].clone());
        prop_assert_eq!(decide(&snap, shuffled), expected);
    }
}

// The stored overlay.

fn overlay_of(
    snap: &Snapshot,
    batch: Vec<Value>,
) -> doc_bridge_model::enrichment::EnrichmentOverlayV1 {
    let decisions = decide(snap, batch);
    overlay_from_decisions(
        snap.content_hash.clone(),
        &decisions,
        "2026-09-14T00:00:00.000Z",
    )
    .unwrap()
}

/// The fixture with `docs/auth.md` edited.
fn with_auth_edited(snap: &Snapshot) -> Snapshot {
    let mut next = snap.clone();
    for entity in &mut next.entities {
        if let Entity::Document(d) = entity
            && d.id.as_str() == AUTH
        {
            d.content_hash = h("auth, edited");
        }
    }
    for file in &mut next.files {
        if file.path.as_str() == "docs/auth.md" {
            file.content_hash = h("auth, edited");
        }
    }
    next.content_hash = semantic_hash(&next, SNAPSHOT_HASH_EXCLUDED).unwrap();
    next
}

#[test]
fn a_canonical_marker_pending_in_the_stored_overlay_leaves_a_new_one_pending_in_conflict() {
    let snap = snapshot();
    let overlay = overlay_of(&snap, vec![canonical(&snap, AUTH, "curator")]);
    assert_eq!(overlay.pending.len(), 1);
    let ctx = Context::new(&snap).with_overlay(&overlay);
    let decisions = decide_batch(vec![canonical(&snap, README, "reviewer")], &ctx);
    assert_eq!(decisions[0].reason(), None, "{decisions:#?}");
    assert_eq!(notes(&decisions), ["canonical-conflict"]);
}

#[test]
fn a_canonical_marker_a_person_accepted_leaves_a_new_one_pending_in_conflict() {
    let snap = snapshot();
    let mut overlay = overlay_of(&snap, vec![canonical(&snap, AUTH, "curator")]);
    let entry = overlay.pending.remove(0);
    overlay
        .accepted
        .push(doc_bridge_model::enrichment::AcceptedEntry {
            proposal: entry.proposal,
            accepted_at: "2026-09-14T00:00:00.000Z".into(),
            accepted_by: "ada".into(),
        });
    let ctx = Context::new(&snap).with_overlay(&overlay);
    let decisions = decide_batch(vec![canonical(&snap, README, "reviewer")], &ctx);
    assert_eq!(reasons(&decisions), vec![None], "{decisions:#?}");
    assert_eq!(notes(&decisions), ["canonical-conflict"]);
    // The same document again, by another agent, agrees with it.
    let same = decide_batch(vec![canonical(&snap, AUTH, "reviewer")], &ctx);
    assert_eq!(notes(&same), ["awaiting approval"]);
    // The overlay that holds both reproduces: a conflict waits, it is not a rejection.
    let decided = overlay_from_decisions(snap.content_hash.clone(), &decisions, "t").unwrap();
    let mut both = overlay.clone();
    both.pending.extend(decided.pending);
    assert!(doc_bridge_enrich::reproduces(&both, &Context::new(&snap)));
}

#[test]
fn re_proposing_a_stored_proposal_does_not_conflict_with_itself() {
    let snap = snapshot();
    let batch = vec![
        canonical(&snap, AUTH, "curator"),
        proposal(&snap, "add-alias", AUTH, json!({"alias": "sso handbook"})),
        proposal(
            &snap,
            "flag-gap",
            AREA,
            json!({"area": AREA, "missing": "rotation"}),
        ),
    ];
    let overlay = overlay_of(&snap, batch.clone());
    let ctx = Context::new(&snap).with_overlay(&overlay);
    let again = decide_batch(batch.clone(), &ctx);
    assert_eq!(again, decide(&snap, batch));
}

#[test]
fn an_alias_accepted_in_the_stored_overlay_is_collided_with() {
    let snap = snapshot();
    let overlay = overlay_of(
        &snap,
        vec![proposal(
            &snap,
            "add-alias",
            AUTH,
            json!({"alias": "sso handbook"}),
        )],
    );
    let ctx = Context::new(&snap).with_overlay(&overlay);
    let near = by_agent(
        proposal(&snap, "add-alias", README, json!({"alias": "sso handbook"})),
        "reviewer",
    );
    let decisions = decide_batch(vec![near], &ctx);
    assert_eq!(decisions[0].reason(), Some(RejectionReason::AliasCollision));
}

#[test]
fn a_gap_accepted_in_the_stored_overlay_is_already_flagged() {
    let snap = snapshot();
    let overlay = overlay_of(
        &snap,
        vec![proposal(
            &snap,
            "flag-gap",
            AREA,
            json!({"area": AREA, "missing": "Rotation"}),
        )],
    );
    let ctx = Context::new(&snap).with_overlay(&overlay);
    let again = by_agent(
        proposal(
            &snap,
            "flag-gap",
            AREA,
            json!({"area": AREA, "missing": "rotation"}),
        ),
        "reviewer",
    );
    let decisions = decide_batch(vec![again], &ctx);
    assert_eq!(decisions[0].reason(), Some(RejectionReason::AlreadyFlagged));
}

#[test]
fn an_expired_overlay_entry_no_longer_blocks_new_proposals() {
    let old = with_auth_edited(&snapshot());
    let overlay = overlay_of(&old, vec![canonical(&old, AUTH, "curator")]);
    assert_eq!(overlay.pending.len(), 1);
    // Back to the current snapshot: the stored marker's target moved, so it is not live.
    let snap = snapshot();
    let ctx = Context::new(&snap).with_overlay(&overlay);
    let decisions = decide_batch(vec![canonical(&snap, README, "reviewer")], &ctx);
    assert!(
        matches!(decisions[0], Decision::Pending(..)),
        "{decisions:?}"
    );
}
