//! One accepted and one rejected fixture per proposal kind (enrichment-overlay-v1, "Typed
//! proposals", the kind table).

#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_model::enrichment::RejectionReason;
use serde_json::json;

#[test]
fn classify_document_is_accepted_on_a_document_and_rejected_on_a_module() {
    let snap = snapshot();
    let payload = json!({"type": "guide", "audience": "human", "lifecycle": "current", "criticality": "high"});
    assert_accepted(
        &snap,
        proposal(&snap, "classify-document", AUTH, payload.clone()),
    );
    assert_eq!(
        rejection(
            &snap,
            proposal(&snap, "classify-document", SESSION, payload)
        ),
        RejectionReason::EntityKind
    );
}

#[test]
fn summarize_is_accepted_when_new_and_rejected_when_unchanged() {
    let snap = snapshot();
    assert_accepted(
        &snap,
        proposal(
            &snap,
            "summarize",
            RUNBOOK,
            json!({"summary": "Steps to restart the service.", "language": "en"}),
        ),
    );
    // Modules have no summary of their own: any summary differs.
    assert_accepted(
        &snap,
        proposal(
            &snap,
            "summarize",
            SESSION,
            json!({"summary": "Session lifecycle.", "language": "en"}),
        ),
    );
    assert_eq!(
        rejection(
            &snap,
            proposal(
                &snap,
                "summarize",
                AUTH,
                json!({"summary": "  how sign-in\n  WORKS. ", "language": "en"}),
            ),
        ),
        RejectionReason::SummaryUnchanged
    );
}

#[test]
fn add_alias_is_accepted_when_new_and_rejected_when_it_equals_a_title() {
    let snap = snapshot();
    assert_accepted(
        &snap,
        proposal(&snap, "add-alias", AUTH, json!({"alias": "sso handbook"})),
    );
    assert_eq!(
        rejection(
            &snap,
            proposal(
                &snap,
                "add-alias",
                AUTH,
                json!({"alias": "AUTHENTICATION guide"})
            ),
        ),
        RejectionReason::AliasCollision
    );
}

#[test]
fn add_intent_is_accepted_with_a_language_tag_and_rejected_without_one() {
    let snap = snapshot();
    assert_accepted(
        &snap,
        proposal(
            &snap,
            "add-intent",
            AUTH,
            json!({"phrase": "how do I log in", "language": "en"}),
        ),
    );
    assert_eq!(
        rejection(
            &snap,
            proposal(
                &snap,
                "add-intent",
                AUTH,
                json!({"phrase": "how do I log in", "language": "english"}),
            ),
        ),
        RejectionReason::Schema
    );
}

#[test]
fn mark_canonical_waits_for_a_person_and_is_rejected_for_an_unknown_scope() {
    let snap = snapshot();
    assert_pending(
        &snap,
        proposal(&snap, "mark-canonical", AUTH, json!({"scope": AREA})),
    );
    assert_eq!(
        rejection(
            &snap,
            proposal(
                &snap,
                "mark-canonical",
                AUTH,
                json!({"scope": "area:nowhere"})
            ),
        ),
        RejectionReason::UnknownScope
    );
}

#[test]
fn propose_relation_waits_for_a_person_and_is_rejected_when_already_observed() {
    let snap = snapshot();
    let relation = |to: &str, kind: &str| json!({"from": AUTH, "to": to, "kind": kind, "detection": "the prose names it"});
    assert_pending(
        &snap,
        proposal(
            &snap,
            "propose-relation",
            AUTH,
            relation(TOKEN, "documents"),
        ),
    );
    assert_eq!(
        rejection(
            &snap,
            proposal(
                &snap,
                "propose-relation",
                AUTH,
                relation(SESSION, "mentions")
            ),
        ),
        RejectionReason::RelationAlreadyObserved
    );
}

#[test]
fn flag_contradiction_waits_for_a_person_and_needs_evidence_inside_both() {
    let snap = snapshot();
    let payload =
        json!({"against": SESSION, "claim": "sessions last a day", "observed": "an hour"});
    let both = json!([
        {"source": "snapshot", "path": "docs/auth.md", "lines": [3, 4]},
        {"source": "snapshot", "path": "crates/auth/src/session.rs", "lines": [10, 12]},
    ]);
    let value = proposal(&snap, "flag-contradiction", AUTH, payload.clone());
    assert_pending(&snap, with(value, "/evidence", both));
    // Evidence only in the document: nothing shows what the module says.
    assert_eq!(
        rejection(&snap, proposal(&snap, "flag-contradiction", AUTH, payload)),
        RejectionReason::EvidenceOutsideEndpoints
    );
}

#[test]
fn flag_redundancy_waits_for_a_person_and_is_rejected_for_identical_bytes() {
    let snap = snapshot();
    assert_pending(
        &snap,
        proposal(&snap, "flag-redundancy", README, json!({"with": AUTH})),
    );
    assert_eq!(
        rejection(
            &snap,
            proposal(&snap, "flag-redundancy", AUTH, json!({"with": AUTH_COPY})),
        ),
        RejectionReason::AlreadyDuplicate
    );
}

#[test]
fn flag_gap_is_accepted_as_a_finding_and_rejected_for_a_non_area() {
    let snap = snapshot();
    assert_accepted(
        &snap,
        proposal(
            &snap,
            "flag-gap",
            AREA,
            json!({"area": AREA, "missing": "nothing explains token rotation"}),
        ),
    );
    assert_eq!(
        rejection(
            &snap,
            proposal(
                &snap,
                "flag-gap",
                AREA,
                json!({"area": PACKAGE, "missing": "nothing explains token rotation"}),
            ),
        ),
        RejectionReason::UnknownArea
    );
}

#[test]
fn rank_hint_is_accepted_for_an_existing_entity_and_rejected_for_an_unknown_relevance() {
    let snap = snapshot();
    assert_accepted(
        &snap,
        proposal(&snap, "rank-hint", SESSION, json!({"relevance": "strong"})),
    );
    assert_accepted(
        &snap,
        proposal(&snap, "rank-hint", PACKAGE, json!({"relevance": "weak"})),
    );
    assert_eq!(
        rejection(
            &snap,
            proposal(&snap, "rank-hint", SESSION, json!({"relevance": "very"})),
        ),
        RejectionReason::Schema
    );
}

#[test]
fn suggest_area_waits_for_a_person_and_is_rejected_when_it_overlaps_an_area() {
    let snap = snapshot();
    assert_pending(
        &snap,
        proposal(
            &snap,
            "suggest-area",
            README,
            json!({"directories": ["docs/ops", "docs"], "name": "documentation"}),
        ),
    );
    assert_eq!(
        rejection(
            &snap,
            proposal(
                &snap,
                "suggest-area",
                README,
                json!({"directories": ["crates/auth"], "name": "auth"}),
            ),
        ),
        RejectionReason::AreaOverlap
    );
}
