//! A person's decision on a pending proposal, as a pure function: which entry an id names, and
//! the approval record once the decision holds against the snapshot.

#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_enrich::approvals::{Decision, Refusal, apply_decision, decide, find_pending};
use doc_bridge_enrich::{Context, decide_batch, overlay_from_decisions};
use doc_bridge_model::approval::ApprovalDecision;
use doc_bridge_model::enrichment::{EnrichmentOverlayV1, approval_id};
use doc_bridge_model::snapshot::{Entity, Snapshot};
use serde_json::json;

/// Two `mark-canonical` proposals for one scope, both left pending for a person.
fn two_canonical(snap: &Snapshot) -> EnrichmentOverlayV1 {
    let batch = vec![
        proposal(snap, "mark-canonical", AUTH, json!({"scope": AREA})),
        proposal(snap, "mark-canonical", AUTH_COPY, json!({"scope": AREA})),
    ];
    let decisions = decide_batch(batch, &Context::new(snap));
    let overlay = overlay_from_decisions(
        snap.content_hash.clone(),
        &decisions,
        "2026-12-01T00:00:00Z",
    )
    .unwrap();
    assert_eq!(overlay.pending.len(), 2, "{overlay:#?}");
    overlay
}

fn decision(approve: bool) -> Decision<'static> {
    Decision {
        approve,
        by: "ana",
        reason: Some("checked".to_owned()),
        decided_at: "2026-12-02T00:00:00Z".to_owned(),
        role: "curator",
    }
}

#[test]
fn an_id_or_a_unique_prefix_names_a_pending_entry() {
    let snap = snapshot();
    let mut overlay = two_canonical(&snap);
    let id = overlay.pending[1].proposal.proposal_id.clone();
    assert_eq!(find_pending(&overlay, &id), Ok(1));
    assert_eq!(find_pending(&overlay, &id[..8]), Ok(1));
    // Shorter than eight characters: never a prefix.
    assert_eq!(
        find_pending(&overlay, &id[..7]),
        Err(Refusal::NotPending(id[..7].to_owned()))
    );
    // A prefix two pending ids share is refused, naming how many.
    let shared = format!("{}{}", &id[..8], "f".repeat(56));
    overlay.pending[0].proposal.proposal_id = shared;
    assert_eq!(
        find_pending(&overlay, &id[..8]),
        Err(Refusal::AmbiguousPrefix {
            prefix: id[..8].to_owned(),
            count: 2
        })
    );
}

#[test]
fn a_decision_holds_against_the_snapshot_and_becomes_its_record() {
    let snap = snapshot();
    let mut overlay = two_canonical(&snap);
    let first = overlay.pending[0].proposal.clone();
    let record = decide(&overlay, 0, &snap, decision(true)).unwrap();
    assert_eq!(
        record.approval_id,
        approval_id(&first.proposal_id, &first.target_content_hash)
    );
    assert_eq!(record.decision, ApprovalDecision::Approved);
    assert_eq!(
        (record.by.as_str(), record.role.as_str()),
        ("ana", "curator")
    );
    assert_eq!(record.reason.as_deref(), Some("checked"));
    assert_eq!(record.kind, "mark-canonical");
    assert_eq!(record.payload, Some(json!({"scope": AREA})));

    // Once the first is canonical for the scope, the second cannot be approved; it can be
    // rejected.
    apply_decision(&mut overlay, 0, &record);
    assert_eq!(overlay.pending.len(), 1);
    let refused = decide(&overlay, 0, &snap, decision(true)).unwrap_err();
    assert!(
        matches!(&refused, Refusal::CanonicalConflict { scope, .. } if scope == AREA),
        "{refused:?}"
    );
    assert!(refused.to_string().contains("doc-bridge enrich reject"));
    let rejected = decide(&overlay, 0, &snap, decision(false)).unwrap();
    assert_eq!(rejected.decision, ApprovalDecision::Rejected);

    // A decided id is said to be decided, not unknown.
    assert_eq!(
        find_pending(&overlay, &first.proposal_id),
        Err(Refusal::AlreadyDecided(first.proposal_id.clone()))
    );
}

#[test]
fn a_changed_target_refuses_the_decision() {
    let snap = snapshot();
    let overlay = two_canonical(&snap);
    let mut edited = snap.clone();
    for entity in &mut edited.entities {
        if let Entity::Document(d) = entity
            && d.id.as_str() == overlay.pending[0].proposal.entity.as_str()
        {
            d.content_hash = h("edited");
        }
    }
    let refused = decide(&overlay, 0, &edited, decision(false)).unwrap_err();
    assert!(
        matches!(refused, Refusal::TargetChanged { .. }),
        "{refused:?}"
    );
}
