//! The envelope runs in the seed's fixed order (enrichment-overlay-v1, "Typed proposals":
//! `invalid-kind`, `no-evidence`, `schema`, `base-snapshot-mismatch`, `unknown-entity`,
//! `stale-target`, `unknown-diagnostic`, `evidence-outside-artifacts`, `proposal-id-mismatch`),
//! and a proposal that fails the envelope never reaches its kind's rule.

#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_model::enrichment::RejectionReason;
use serde_json::{Value, json};

type Breaker = fn(Value) -> Value;

/// One way to fail each envelope check, in the seed's order. Each leaves every other check
/// passing, except `proposal-id-mismatch`, which any change to an identity field also trips
/// (the ids are deliberately not recomputed).
const BREAKERS: [(RejectionReason, Breaker); 9] = [
    (RejectionReason::InvalidKind, |v| {
        with_raw(v, "/kind", json!("make-coffee"))
    }),
    (RejectionReason::NoEvidence, |v| {
        with_raw(v, "/evidence", json!([]))
    }),
    (RejectionReason::Schema, |v| {
        with_raw(v, "/confidence", json!(7))
    }),
    (RejectionReason::BaseSnapshotMismatch, |v| {
        with_raw(v, "/baseSnapshotHash", json!("e".repeat(64)))
    }),
    (RejectionReason::UnknownEntity, |v| {
        with_raw(v, "/entity", json!("document:docs/gone.md"))
    }),
    (RejectionReason::StaleTarget, |v| {
        with_raw(v, "/targetContentHash", json!("f".repeat(64)))
    }),
    (RejectionReason::UnknownDiagnostic, |v| {
        with_raw(v, "/relatedDiagnosticIds", json!(["0123456789abcdef"]))
    }),
    (RejectionReason::EvidenceOutsideArtifacts, |v| {
        with_raw(v, "/evidence/0/lines", json!([1, 999]))
    }),
    (RejectionReason::ProposalIdMismatch, |v| {
        with_raw(v, "/proposalId", json!("a".repeat(64)))
    }),
];

fn base(snap: &doc_bridge_model::snapshot::Snapshot) -> Value {
    proposal(snap, "add-alias", AUTH, json!({"alias": "sso handbook"}))
}

#[test]
fn each_envelope_check_alone_gives_its_own_reason() {
    let snap = snapshot();
    assert_accepted(&snap, base(&snap));
    for (reason, breaker) in BREAKERS {
        assert_eq!(rejection(&snap, breaker(base(&snap))), reason);
    }
}

#[test]
fn of_two_envelope_failures_the_earlier_check_is_reported() {
    let snap = snapshot();
    for (i, (first, break_first)) in BREAKERS.iter().enumerate() {
        for (later, break_later) in &BREAKERS[i + 1..] {
            // The later breaker first, so the earlier one has the last word on shared fields
            // (emptying the evidence after it was made out of range).
            let value = break_first(break_later(base(&snap)));
            assert_eq!(
                rejection(&snap, value),
                *first,
                "{first} and {later} together"
            );
        }
    }
}

#[test]
fn missing_evidence_and_a_wrong_base_snapshot_report_no_evidence() {
    let snap = snapshot();
    let value = with(base(&snap), "/baseSnapshotHash", json!("e".repeat(64)));
    let value = without(value, "/evidence");
    assert_eq!(rejection(&snap, value), RejectionReason::NoEvidence);
}

#[test]
fn a_proposal_failing_the_envelope_never_reaches_its_kind_rule() {
    let snap = snapshot();
    // Both a forged id and a colliding alias: the envelope speaks first.
    let colliding = proposal(
        &snap,
        "add-alias",
        AUTH,
        json!({"alias": "Authentication Guide"}),
    );
    assert_eq!(
        rejection(&snap, colliding.clone()),
        RejectionReason::AliasCollision
    );
    let forged = with_raw(colliding, "/proposalId", json!("a".repeat(64)));
    assert_eq!(
        rejection(&snap, forged),
        RejectionReason::ProposalIdMismatch
    );
    // Both stale and a module where a document is required.
    let module = proposal(&snap, "mark-canonical", SESSION, json!({"scope": AREA}));
    assert_eq!(
        rejection(&snap, module.clone()),
        RejectionReason::EntityKind
    );
    let stale = with(module, "/targetContentHash", json!("f".repeat(64)));
    assert_eq!(rejection(&snap, stale), RejectionReason::StaleTarget);
}
