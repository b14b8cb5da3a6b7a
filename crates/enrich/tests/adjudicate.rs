//! Disputes and adjudication (enrichment-overlay-v1, "Roles"): what two roles could not settle,
//! judged by a third identity that never approves.

#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_enrich::Context;
use doc_bridge_enrich::adjudicate::{
    ADJUDICATION_KIND, ADJUDICATION_TYPE, Dispute, DisputeKind, find_disputes, settle,
};
use doc_bridge_model::enrichment::{EnrichmentProposalV1, RejectionReason};
use doc_bridge_model::snapshot::Snapshot;
use proptest::prelude::*;
use serde_json::{Value, json};

fn canonical(snap: &Snapshot, entity: &str, agent: &str) -> Value {
    reid(by_agent(
        proposal(snap, "mark-canonical", entity, json!({"scope": AREA})),
        agent,
    ))
}

fn contradiction(snap: &Snapshot, entity: &str, against: &str, claim: &str, agent: &str) -> Value {
    let mut value = reid(by_agent(
        proposal(
            snap,
            "flag-contradiction",
            entity,
            json!({"against": against, "claim": claim, "observed": "the code says otherwise"}),
        ),
        agent,
    ));
    // Evidence inside both entities.
    value["evidence"] = json!([
        {"source": "snapshot", "path": evidence_path(entity), "lines": [1, 3]},
        {"source": "snapshot", "path": evidence_path(against), "lines": [1, 3]},
    ]);
    reid(value)
}

fn disputes(snap: &Snapshot, batch: &[Value]) -> Vec<Dispute> {
    find_disputes(batch, &[], &Context::new(snap))
}

fn id(value: &Value) -> String {
    value["proposalId"].as_str().unwrap().to_owned()
}

fn verdict(dispute: &Dispute, winner: &str, agent: &str) -> Value {
    json!({"type": ADJUDICATION_TYPE, "disputeId": dispute.dispute_id, "winner": winner,
        "origin": {"agentId": agent, "agentVersion": "1", "promptVersion": "1"}, "rationale": "closer to the code"})
}

#[test]
fn two_roles_naming_different_canonical_documents_for_one_scope_are_a_dispute() {
    let snap = snapshot();
    let a = canonical(&snap, AUTH, "curator");
    let b = canonical(&snap, README, "reviewer");
    let found = disputes(&snap, &[a.clone(), b.clone()]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kind, DisputeKind::CanonicalConflict);
    assert_eq!(found[0].key, AREA);
    let mut ids = vec![id(&a), id(&b)];
    ids.sort();
    let got: Vec<&str> = found[0]
        .proposals
        .iter()
        .map(|p| p.proposal_id.as_str())
        .collect();
    assert_eq!(got, ids);
    assert!(found[0].entities.iter().any(|e| e.as_str() == AREA));
}

#[test]
fn one_identity_disagreeing_with_itself_or_two_agreeing_is_no_dispute() {
    let snap = snapshot();
    // The same agent twice: the validators' canonical-conflict settles it, nobody to adjudicate.
    assert!(
        disputes(
            &snap,
            &[
                canonical(&snap, AUTH, "curator"),
                canonical(&snap, README, "curator")
            ]
        )
        .is_empty()
    );
    // Two agents flagging the same contradiction with the same claim agree.
    let same = [
        contradiction(&snap, AUTH, README, "Tokens last 1 hour", "curator"),
        contradiction(&snap, README, AUTH, "tokens  last 1 hour", "reviewer"),
    ];
    assert!(disputes(&snap, &same).is_empty());
    // Different claims about one pair, either direction, are a dispute.
    let differ = [
        contradiction(&snap, AUTH, README, "Tokens last 1 hour", "curator"),
        contradiction(&snap, README, AUTH, "Tokens never expire", "reviewer"),
    ];
    let found = disputes(&snap, &differ);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kind, DisputeKind::DisputedContradiction);
}

#[test]
fn invalid_proposals_never_take_part_in_a_dispute() {
    let snap = snapshot();
    let good = canonical(&snap, AUTH, "curator");
    let mut forged = canonical(&snap, README, "reviewer");
    forged["proposalId"] = json!("f".repeat(64));
    let unknown_scope = reid(by_agent(
        proposal(
            &snap,
            "mark-canonical",
            README,
            json!({"scope": "area:nowhere"}),
        ),
        "reviewer",
    ));
    assert!(
        disputes(
            &snap,
            &[
                good.clone(),
                forged,
                unknown_scope,
                json!("junk"),
                json!(null)
            ]
        )
        .is_empty()
    );
    // The control: the same good proposal with a valid rival is a dispute.
    assert_eq!(
        disputes(&snap, &[good, canonical(&snap, README, "reviewer")]).len(),
        1
    );
}

#[test]
fn a_verdict_rejects_the_losers_as_adjudicated_and_leaves_the_winner_pending() {
    let snap = snapshot();
    let (a, b) = (
        canonical(&snap, AUTH, "curator"),
        canonical(&snap, README, "reviewer"),
    );
    let found = disputes(&snap, &[a.clone(), b.clone()]);
    let settlement = settle(&found, &[verdict(&found[0], &id(&b), "judge")], "judge");
    assert!(settlement.unsettled.is_empty());
    assert_eq!(settlement.losers.len(), 1);
    assert_eq!(settlement.losers[0].proposal_id, id(&a));
    assert_eq!(settlement.losers[0].reason, RejectionReason::Adjudicated);
    assert!(settlement.losers[0].detail.contains(&id(&b)));
    assert!(settlement.winners[&id(&b)].contains("awaiting approval"));
    assert!(settlement.refused.is_empty());
}

#[test]
fn an_adjudicator_judging_its_own_proposal_is_refused_as_self_adjudication() {
    let snap = snapshot();
    let (a, b) = (
        canonical(&snap, AUTH, "judge"),
        canonical(&snap, README, "reviewer"),
    );
    let found = disputes(&snap, &[a.clone(), b]);
    let settlement = settle(&found, &[verdict(&found[0], &id(&a), "judge")], "judge");
    assert_eq!(settlement.refused.len(), 1);
    assert_eq!(
        settlement.refused[0].reason,
        RejectionReason::SelfAdjudication
    );
    assert_eq!(settlement.refused[0].kind, ADJUDICATION_KIND);
    assert!(settlement.losers.is_empty() && settlement.winners.is_empty());
    assert_eq!(settlement.unsettled, vec![found[0].dispute_id.clone()]);
}

#[test]
fn verdicts_about_other_disputes_outside_winners_or_from_another_identity_are_refused() {
    let snap = snapshot();
    let (a, b) = (
        canonical(&snap, AUTH, "curator"),
        canonical(&snap, README, "reviewer"),
    );
    let found = disputes(&snap, &[a.clone(), b.clone()]);
    let mut elsewhere = verdict(&found[0], &id(&a), "judge");
    elsewhere["disputeId"] = json!("0".repeat(64));
    let outsider = verdict(&found[0], &"e".repeat(64), "judge");
    let impostor = verdict(&found[0], &id(&a), "someone-else");
    let untyped = json!({"disputeId": found[0].dispute_id, "winner": id(&a)});
    let settlement = settle(
        &found,
        &[elsewhere, outsider, impostor, untyped, json!(42)],
        "judge",
    );
    assert_eq!(settlement.refused.len(), 5);
    assert!(
        settlement
            .refused
            .iter()
            .all(|r| r.reason == RejectionReason::Schema)
    );
    assert_eq!(settlement.unsettled.len(), 1);
}

#[test]
fn the_first_valid_verdict_in_canonical_order_settles_and_a_second_is_refused() {
    let snap = snapshot();
    let (a, b) = (
        canonical(&snap, AUTH, "curator"),
        canonical(&snap, README, "reviewer"),
    );
    let found = disputes(&snap, &[a.clone(), b.clone()]);
    let one = verdict(&found[0], &id(&a), "judge");
    let two = verdict(&found[0], &id(&b), "judge");
    let forward = settle(&found, &[one.clone(), two.clone()], "judge");
    let backward = settle(&found, &[two, one], "judge");
    assert_eq!(forward, backward);
    assert_eq!(forward.winners.len(), 1);
    assert_eq!(forward.refused.len(), 1);
}

#[test]
fn stored_pending_proposals_join_disputes_with_fresh_ones() {
    let snap = snapshot();
    let stored = EnrichmentProposalV1::from_value(&canonical(&snap, AUTH, "curator")).unwrap();
    let fresh = canonical(&snap, README, "reviewer");
    let found = find_disputes(&[fresh], &[&stored], &Context::new(&snap));
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].proposals.len(), 2);
}

proptest! {
    /// Whatever an adjudicator answers, settling never panics, never names a proposal outside the
    /// disputes, and a proposal never both wins and loses.
    #[test]
    fn settling_arbitrary_answers_is_total_and_consistent(
        winners in proptest::collection::vec(0usize..4, 0..6),
        agents in proptest::collection::vec(prop_oneof![Just("judge"), Just("curator"), Just("x")], 0..6),
    ) {
        let snap = snapshot();
        let batch = [canonical(&snap, AUTH, "curator"), canonical(&snap, README, "reviewer")];
        let found = disputes(&snap, &batch);
        let ids: Vec<String> = batch.iter().map(id).collect();
        let answers: Vec<Value> = winners
            .iter()
            .zip(agents.iter().cycle())
            .map(|(w, agent)| verdict(&found[0], ids.get(*w).map_or("nope", |s| s.as_str()), agent))
            .collect();
        let settlement = settle(&found, &answers, "judge");
        for loser in &settlement.losers {
            prop_assert!(ids.contains(&loser.proposal_id));
            prop_assert!(!settlement.winners.contains_key(&loser.proposal_id));
        }
        prop_assert!(settlement.winners.len() <= 1);
        prop_assert_eq!(settlement.winners.is_empty(), settlement.unsettled.len() == 1);
    }
}
