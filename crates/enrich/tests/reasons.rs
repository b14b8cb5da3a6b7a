//! One test per rejection reason the validators give (enrichment-overlay-v1, "Typed
//! proposals": `ENRICHMENT_REJECTION_REASONS`). `already-flagged` and the in-batch alias
//! collision are in `batch.rs` (with `canonical-conflict`, a pending note now, never a
//! rejection); `expired` is in `overlay.rs`; `out-of-role` (the stage's) in `roles.rs`.

#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_enrich::{Context, Decision, decide_batch};
use doc_bridge_model::enrichment::RejectionReason;
use serde_json::{Value, json};

fn alias(snap: &doc_bridge_model::snapshot::Snapshot, entity: &str, alias: &str) -> Value {
    proposal(snap, "add-alias", entity, json!({ "alias": alias }))
}

fn detail_of(decision: Decision) -> String {
    match decision {
        Decision::Rejected { detail, .. } => detail,
        other => panic!("expected a rejection, got {other:?}"),
    }
}

// invalid-kind

#[test]
fn an_unknown_kind_is_rejected_as_invalid_kind() {
    let snap = snapshot();
    let value = with_raw(
        alias(&snap, AUTH, "sso handbook"),
        "/kind",
        json!("make-coffee"),
    );
    assert_eq!(rejection(&snap, value), RejectionReason::InvalidKind);
}

#[test]
fn a_missing_kind_is_rejected_as_invalid_kind() {
    let snap = snapshot();
    let value = without(alias(&snap, AUTH, "sso handbook"), "/kind");
    assert_eq!(rejection(&snap, value), RejectionReason::InvalidKind);
}

#[test]
fn a_value_that_is_not_an_object_is_rejected_with_empty_identity() {
    let snap = snapshot();
    for junk in [json!("add-alias"), json!(7), json!(null), json!([1, 2])] {
        match decide_one(&snap, junk) {
            Decision::Rejected {
                proposal_id,
                kind,
                entity,
                reason,
                ..
            } => {
                assert_eq!(reason, RejectionReason::InvalidKind);
                assert_eq!(
                    (proposal_id.as_str(), kind.as_str(), entity.as_str()),
                    ("", "", "")
                );
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn a_rejection_keeps_the_given_strings_and_blanks_the_others() {
    let snap = snapshot();
    let value = json!({"proposalId": "abc", "kind": 3, "entity": AUTH});
    match decide_one(&snap, value) {
        Decision::Rejected {
            proposal_id,
            kind,
            entity,
            ..
        } => assert_eq!(
            (proposal_id.as_str(), kind.as_str(), entity.as_str()),
            ("abc", "", AUTH)
        ),
        other => panic!("{other:?}"),
    }
}

// no-evidence

#[test]
fn missing_or_empty_evidence_is_rejected_as_no_evidence() {
    let snap = snapshot();
    let value = alias(&snap, AUTH, "sso handbook");
    assert_eq!(
        rejection(&snap, with(value.clone(), "/evidence", json!([]))),
        RejectionReason::NoEvidence
    );
    assert_eq!(
        rejection(&snap, without(value.clone(), "/evidence")),
        RejectionReason::NoEvidence
    );
    assert_eq!(
        rejection(&snap, with_raw(value, "/evidence", json!(null))),
        RejectionReason::NoEvidence
    );
}

// schema

#[test]
fn confidence_outside_zero_to_one_is_a_schema_rejection() {
    let snap = snapshot();
    for confidence in [json!(1.5), json!(-0.1)] {
        let value = with(
            alias(&snap, AUTH, "sso handbook"),
            "/confidence",
            confidence,
        );
        assert_eq!(rejection(&snap, value), RejectionReason::Schema);
    }
    let edge = with(alias(&snap, AUTH, "sso handbook"), "/confidence", json!(1));
    assert_accepted(&snap, edge);
}

#[test]
fn a_reason_over_1000_characters_is_a_schema_rejection() {
    let snap = snapshot();
    let ok = with(
        alias(&snap, AUTH, "sso handbook"),
        "/reason",
        json!("é".repeat(1000)),
    );
    assert_accepted(&snap, ok);
    let long = with(
        alias(&snap, AUTH, "sso handbook"),
        "/reason",
        json!("é".repeat(1001)),
    );
    assert_eq!(rejection(&snap, long), RejectionReason::Schema);
}

#[test]
fn payload_strings_over_their_bounds_are_schema_rejections() {
    let snap = snapshot();
    let summary = |n: usize| {
        proposal(
            &snap,
            "summarize",
            RUNBOOK,
            json!({"summary": "s".repeat(n), "language": "en"}),
        )
    };
    assert_accepted(&snap, summary(400));
    assert_eq!(rejection(&snap, summary(401)), RejectionReason::Schema);
    assert_accepted(&snap, alias(&snap, AUTH, &"q".repeat(64)));
    assert_eq!(
        rejection(&snap, alias(&snap, AUTH, &"q".repeat(65))),
        RejectionReason::Schema
    );
    let phrase = |n: usize| {
        proposal(
            &snap,
            "add-intent",
            AUTH,
            // A phrase (two words) of exactly `n` characters.
            json!({"phrase": format!("how {}", "p".repeat(n - 4)), "language": "en"}),
        )
    };
    assert_accepted(&snap, phrase(120));
    assert_eq!(rejection(&snap, phrase(121)), RejectionReason::Schema);
}

#[test]
fn blank_or_padded_names_are_schema_rejections() {
    let snap = snapshot();
    for bad in ["", "   ", " sso", "sso\nhandbook"] {
        assert_eq!(
            rejection(&snap, alias(&snap, AUTH, bad)),
            RejectionReason::Schema,
            "{bad:?}"
        );
    }
}

#[test]
fn a_malformed_target_hash_is_a_schema_rejection_not_a_parse_failure() {
    let snap = snapshot();
    let upper = snap.entities[3].content_hash().as_str().to_uppercase();
    let value = with(
        alias(&snap, AUTH, "sso handbook"),
        "/targetContentHash",
        json!(upper),
    );
    assert_eq!(rejection(&snap, value), RejectionReason::Schema);
    let value = with(
        alias(&snap, AUTH, "sso handbook"),
        "/baseSnapshotHash",
        json!("abc"),
    );
    assert_eq!(rejection(&snap, value), RejectionReason::Schema);
}

#[test]
fn wrong_types_and_unknown_fields_are_schema_rejections() {
    let snap = snapshot();
    let base = alias(&snap, AUTH, "sso handbook");
    for (pointer, value) in [
        ("/confidence", json!("high")),
        ("/payload/alias", json!(42)),
        ("/payload/extra", json!(true)),
        ("/surprise", json!(1)),
        ("/evidence", json!("docs/auth.md")),
        ("/evidence/0/lines", json!([1])),
        ("/evidence/0/source", json!("memory")),
        ("/origin/agentVersion", json!(null)),
        ("/relatedDiagnosticIds", json!("x")),
        ("/payload", json!([])),
    ] {
        let value = with_raw(base.clone(), pointer, value);
        assert_eq!(
            rejection(&snap, value),
            RejectionReason::Schema,
            "{pointer}"
        );
    }
}

#[test]
fn an_agent_named_policy_is_a_schema_rejection() {
    let snap = snapshot();
    let value = by_agent(alias(&snap, AUTH, "sso handbook"), "policy");
    assert_eq!(rejection(&snap, value), RejectionReason::Schema);
}

#[test]
fn a_relation_whose_from_is_not_the_entity_is_a_schema_rejection() {
    let snap = snapshot();
    let value = proposal(
        &snap,
        "propose-relation",
        AUTH,
        json!({"from": README, "to": TOKEN, "kind": "documents", "detection": "prose"}),
    );
    assert_eq!(rejection(&snap, value), RejectionReason::Schema);
}

#[test]
fn a_relation_kind_outside_the_six_is_a_schema_rejection() {
    let snap = snapshot();
    let value = proposal(
        &snap,
        "propose-relation",
        AUTH,
        json!({"from": AUTH, "to": TOKEN, "kind": "imports", "detection": "prose"}),
    );
    assert_eq!(rejection(&snap, value), RejectionReason::Schema);
}

#[test]
fn suggest_area_directories_must_be_relative_and_distinct() {
    let snap = snapshot();
    for dirs in [
        json!([]),
        json!(["../x"]),
        json!(["/abs"]),
        json!(["docs", "docs"]),
    ] {
        let value = proposal(
            &snap,
            "suggest-area",
            README,
            json!({"directories": dirs, "name": "x"}),
        );
        assert_eq!(rejection(&snap, value), RejectionReason::Schema, "{dirs}");
    }
}

// base-snapshot-mismatch

#[test]
fn a_proposal_made_against_another_snapshot_is_rejected() {
    let snap = snapshot();
    let value = with(
        alias(&snap, AUTH, "sso handbook"),
        "/baseSnapshotHash",
        json!("e".repeat(64)),
    );
    assert_eq!(
        rejection(&snap, value),
        RejectionReason::BaseSnapshotMismatch
    );
}

// unknown-entity

#[test]
fn a_proposal_about_an_entity_not_in_the_snapshot_is_rejected() {
    let snap = snapshot();
    let value = alias(&snap, "document:docs/nope.md", "sso handbook");
    assert_eq!(rejection(&snap, value), RejectionReason::UnknownEntity);
}

// stale-target

#[test]
fn a_target_hash_that_is_not_the_entitys_is_stale() {
    let snap = snapshot();
    let value = with(
        alias(&snap, AUTH, "sso handbook"),
        "/targetContentHash",
        json!(h("auth, older").as_str()),
    );
    assert_eq!(rejection(&snap, value), RejectionReason::StaleTarget);
}

// unknown-diagnostic

#[test]
fn a_related_diagnostic_not_in_the_report_is_rejected() {
    let snap = snapshot();
    let known = with(
        alias(&snap, AUTH, "sso handbook"),
        "/relatedDiagnosticIds",
        json!([diagnostic_id(&snap)]),
    );
    assert_accepted(&snap, known);
    let unknown = with(
        alias(&snap, AUTH, "sso handbook"),
        "/relatedDiagnosticIds",
        json!([diagnostic_id(&snap), "0123456789abcdef"]),
    );
    assert_eq!(
        rejection(&snap, unknown),
        RejectionReason::UnknownDiagnostic
    );
}

#[test]
fn the_report_passed_in_the_context_is_what_diagnostics_are_checked_against() {
    let snap = snapshot();
    let value = with(
        alias(&snap, AUTH, "sso handbook"),
        "/relatedDiagnosticIds",
        json!([diagnostic_id(&snap)]),
    );
    let ctx = Context {
        report_diagnostics: &[],
        ..Context::new(&snap)
    };
    let decisions = decide_batch(vec![value], &ctx);
    assert_eq!(
        decisions[0].reason(),
        Some(RejectionReason::UnknownDiagnostic)
    );
}

// evidence-outside-artifacts

fn with_evidence(snap: &doc_bridge_model::snapshot::Snapshot, item: Value) -> Value {
    with(
        alias(snap, AUTH, "sso handbook"),
        "/evidence",
        json!([item]),
    )
}

#[test]
fn evidence_must_name_a_snapshot_file_and_lines_inside_it() {
    let snap = snapshot();
    let item =
        |path: &str, lines: [u32; 2]| json!({"source": "snapshot", "path": path, "lines": lines});
    assert_accepted(&snap, with_evidence(&snap, item("docs/auth.md", [1, 40])));
    assert_accepted(
        &snap,
        with_evidence(&snap, item("crates/auth/src/token.rs", [80, 80])),
    );
    for (path, lines) in [
        ("docs/missing.md", [1, 1]),
        ("docs/auth.md", [1, 41]),
        ("docs/auth.md", [0, 3]),
        ("docs/auth.md", [5, 4]),
        ("/docs/auth.md", [1, 1]),
        ("docs/../docs/auth.md", [1, 1]),
        ("docs\\auth.md", [1, 1]),
        ("docs", [1, 1]),
        (".", [0, 0]),
        ("", [1, 1]),
    ] {
        assert_eq!(
            rejection(&snap, with_evidence(&snap, item(path, lines))),
            RejectionReason::EvidenceOutsideArtifacts,
            "{path} {lines:?}"
        );
    }
}

#[test]
fn a_file_without_a_line_count_can_only_be_cited_whole_as_zero_zero() {
    let snap = snapshot();
    let item =
        |lines: [u32; 2]| json!({"source": "snapshot", "path": "assets/logo.png", "lines": lines});
    assert_accepted(&snap, with_evidence(&snap, item([0, 0])));
    assert_eq!(
        rejection(&snap, with_evidence(&snap, item([1, 1]))),
        RejectionReason::EvidenceOutsideArtifacts
    );
}

/// `[0, 0]` cites any observed file whole, as the documentation says.
#[test]
fn zero_zero_cites_a_file_with_lines_whole_too() {
    let snap = snapshot();
    let item = json!({"source": "snapshot", "path": "docs/auth.md", "lines": [0, 0]});
    assert_accepted(&snap, with_evidence(&snap, item));
}

#[test]
fn report_evidence_must_cover_a_diagnostic_line() {
    let snap = snapshot();
    let item =
        |path: &str, lines: [u32; 2]| json!({"source": "report", "path": path, "lines": lines});
    assert_accepted(
        &snap,
        with_evidence(&snap, item("docs/ops/runbook.md", [7, 7])),
    );
    assert_accepted(
        &snap,
        with_evidence(&snap, item("docs/ops/runbook.md", [5, 9])),
    );
    for (path, lines) in [
        ("docs/ops/runbook.md", [8, 9]),
        ("docs/ops/runbook.md", [0, 0]),
        ("docs/auth.md", [7, 7]),
    ] {
        assert_eq!(
            rejection(&snap, with_evidence(&snap, item(path, lines))),
            RejectionReason::EvidenceOutsideArtifacts,
            "{path} {lines:?}"
        );
    }
}

// proposal-id-mismatch

#[test]
fn a_proposal_id_that_does_not_recompute_is_rejected() {
    let snap = snapshot();
    let value = alias(&snap, AUTH, "sso handbook");
    let forged = with_raw(value.clone(), "/proposalId", json!("f".repeat(64)));
    assert_eq!(
        rejection(&snap, forged),
        RejectionReason::ProposalIdMismatch
    );
    // The id binds the payload key: the same id with another alias is a mismatch too.
    let swapped = with_raw(value, "/payload/alias", json!("identity handbook"));
    assert_eq!(
        rejection(&snap, swapped),
        RejectionReason::ProposalIdMismatch
    );
}

// entity-kind

#[test]
fn mark_canonical_on_a_module_is_an_entity_kind_rejection() {
    let snap = snapshot();
    let value = proposal(&snap, "mark-canonical", SESSION, json!({"scope": AREA}));
    assert_eq!(rejection(&snap, value), RejectionReason::EntityKind);
}

#[test]
fn flag_redundancy_with_a_module_is_an_entity_kind_rejection() {
    let snap = snapshot();
    let value = proposal(&snap, "flag-redundancy", AUTH, json!({"with": SESSION}));
    assert_eq!(rejection(&snap, value), RejectionReason::EntityKind);
}

// redaction

#[test]
fn a_secret_in_a_summary_is_rejected_without_quoting_it() {
    let snap = snapshot();
    let secret = "AKIAIOSFODNN7EXAMPLE";
    let value = proposal(
        &snap,
        "summarize",
        RUNBOOK,
        json!({"summary": format!("Use key {secret} to deploy."), "language": "en"}),
    );
    let decision = decide_one(&snap, value);
    assert_eq!(decision.reason(), Some(RejectionReason::Redaction));
    let detail = detail_of(decision);
    assert!(detail.contains("payload.summary"), "{detail}");
    assert!(!detail.contains(secret), "{detail}");
}

#[test]
fn a_secret_in_an_alias_phrase_or_reason_is_rejected() {
    let snap = snapshot();
    let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB";
    assert_eq!(
        rejection(&snap, alias(&snap, AUTH, "sk-abc123def456ghi789jkl0mno")),
        RejectionReason::Redaction
    );
    let phrase = proposal(
        &snap,
        "add-intent",
        AUTH,
        json!({"phrase": format!("login with {token}"), "language": "en"}),
    );
    assert_eq!(rejection(&snap, phrase), RejectionReason::Redaction);
    let reason = with(
        proposal(&snap, "rank-hint", SESSION, json!({"relevance": "weak"})),
        "/reason",
        json!(
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----"
        ),
    );
    assert_eq!(rejection(&snap, reason), RejectionReason::Redaction);
}

#[test]
fn a_secret_in_a_junk_proposal_never_reaches_the_rejection() {
    let snap = snapshot();
    let secret = "AKIAIOSFODNN7EXAMPLE";
    let value = json!({"proposalId": secret, "kind": format!("leak-{secret}"), "entity": secret});
    match decide_one(&snap, value) {
        Decision::Rejected {
            proposal_id,
            kind,
            entity,
            detail,
            ..
        } => {
            for text in [proposal_id, kind, entity, detail] {
                assert!(!text.contains(secret), "{text}");
            }
        }
        other => panic!("{other:?}"),
    }
}

// summary-unchanged

#[test]
fn a_summary_equal_to_the_current_one_after_whitespace_normalisation_is_rejected() {
    let snap = snapshot();
    let value = proposal(
        &snap,
        "summarize",
        README,
        json!({"summary": "A repository\tknowledge engine.", "language": "en"}),
    );
    assert_eq!(rejection(&snap, value), RejectionReason::SummaryUnchanged);
}

// alias-collision

#[test]
fn alias_within_jaro_winkler_095_of_a_title_is_rejected() {
    let snap = snapshot();
    let near = "Authentication Guides";
    assert!(strsim::jaro_winkler(&near.to_lowercase(), "authentication guide") >= 0.95);
    assert_eq!(
        rejection(&snap, alias(&snap, README, near)),
        RejectionReason::AliasCollision
    );
}

#[test]
fn alias_below_jaro_winkler_095_is_accepted() {
    let snap = snapshot();
    let far = "authn handbook";
    assert!(strsim::jaro_winkler(far, "authentication guide") < 0.95);
    assert_accepted(&snap, alias(&snap, AUTH, far));
}

#[test]
fn alias_equal_to_an_entity_id_is_rejected() {
    let snap = snapshot();
    assert_eq!(
        rejection(&snap, alias(&snap, AUTH, "Module:crates/auth/src/token.rs")),
        RejectionReason::AliasCollision
    );
}

#[test]
fn alias_equal_to_a_file_stem_is_rejected() {
    let snap = snapshot();
    assert_eq!(
        rejection(&snap, alias(&snap, AUTH, "Session")),
        RejectionReason::AliasCollision
    );
}

#[test]
fn alias_close_to_a_package_name_is_rejected() {
    let snap = snapshot();
    assert_eq!(
        rejection(&snap, alias(&snap, AUTH, "auth core")),
        RejectionReason::AliasCollision
    );
}

#[test]
fn alias_close_to_a_front_matter_alias_is_rejected() {
    let snap = snapshot();
    let decision = decide_one(&snap, alias(&snap, README, "Login Doc"));
    assert_eq!(decision.reason(), Some(RejectionReason::AliasCollision));
    let detail = detail_of(decision);
    assert!(
        detail.contains("alias of document:docs/auth.md"),
        "{detail}"
    );
}

// unknown-scope

#[test]
fn mark_canonical_for_a_scope_that_is_not_an_entity_is_rejected() {
    let snap = snapshot();
    let value = proposal(
        &snap,
        "mark-canonical",
        AUTH,
        json!({"scope": "package:nope"}),
    );
    assert_eq!(rejection(&snap, value), RejectionReason::UnknownScope);
}

// unknown-endpoint

#[test]
fn a_relation_contradiction_or_redundancy_with_a_missing_other_entity_is_rejected() {
    let snap = snapshot();
    let missing = "module:crates/auth/src/gone.rs";
    let relation = proposal(
        &snap,
        "propose-relation",
        AUTH,
        json!({"from": AUTH, "to": missing, "kind": "documents", "detection": "prose"}),
    );
    assert_eq!(rejection(&snap, relation), RejectionReason::UnknownEndpoint);
    let contradiction = proposal(
        &snap,
        "flag-contradiction",
        AUTH,
        json!({"against": missing, "claim": "a", "observed": "b"}),
    );
    assert_eq!(
        rejection(&snap, contradiction),
        RejectionReason::UnknownEndpoint
    );
    let redundancy = proposal(
        &snap,
        "flag-redundancy",
        AUTH,
        json!({"with": "document:x.md"}),
    );
    assert_eq!(
        rejection(&snap, redundancy),
        RejectionReason::UnknownEndpoint
    );
}

// relation-already-observed

#[test]
fn a_relation_the_snapshot_already_observed_is_rejected_but_another_kind_is_not() {
    let snap = snapshot();
    let relation = |kind: &str| {
        proposal(
            &snap,
            "propose-relation",
            README,
            json!({"from": README, "to": AUTH, "kind": kind, "detection": "link"}),
        )
    };
    let rel = relation("links-to");
    let rel = with(rel, "/evidence/0/path", json!("README.md"));
    assert_eq!(
        rejection(&snap, rel),
        RejectionReason::RelationAlreadyObserved
    );
    assert_pending(&snap, relation("covers"));
}

// evidence-outside-endpoints

#[test]
fn relation_evidence_outside_both_endpoints_is_rejected() {
    let snap = snapshot();
    let value = proposal(
        &snap,
        "propose-relation",
        AUTH,
        json!({"from": AUTH, "to": TOKEN, "kind": "documents", "detection": "prose"}),
    );
    let outside = with(
        value.clone(),
        "/evidence",
        json!([{"source": "snapshot", "path": "README.md", "lines": [1, 2]}]),
    );
    assert_eq!(
        rejection(&snap, outside),
        RejectionReason::EvidenceOutsideEndpoints
    );
    let other_end = with(
        value,
        "/evidence",
        json!([{"source": "snapshot", "path": "crates/auth/src/token.rs", "lines": [1, 2]}]),
    );
    assert_pending(&snap, other_end);
}

#[test]
fn evidence_within_a_directory_endpoint_is_inside_it() {
    let snap = snapshot();
    let value = proposal(
        &snap,
        "propose-relation",
        README,
        json!({"from": README, "to": AREA, "kind": "documents", "detection": "prose"}),
    );
    let inside_area = with(
        value,
        "/evidence",
        json!([{"source": "snapshot", "path": "crates/auth/src/token.rs", "lines": [1, 2]}]),
    );
    assert_pending(&snap, inside_area);
}

// already-duplicate

#[test]
fn flagging_two_byte_identical_documents_as_redundant_is_rejected() {
    let snap = snapshot();
    let value = proposal(&snap, "flag-redundancy", AUTH_COPY, json!({"with": AUTH}));
    assert_eq!(rejection(&snap, value), RejectionReason::AlreadyDuplicate);
}

// unknown-directory

#[test]
fn suggesting_a_directory_with_no_snapshot_file_is_rejected() {
    let snap = snapshot();
    let value = proposal(
        &snap,
        "suggest-area",
        README,
        json!({"directories": ["docs", "docs/nope"], "name": "docs"}),
    );
    assert_eq!(rejection(&snap, value), RejectionReason::UnknownDirectory);
}

// area-overlap

#[test]
fn suggesting_an_existing_area_directory_is_rejected() {
    let snap = snapshot();
    let value = proposal(
        &snap,
        "suggest-area",
        README,
        json!({"directories": ["crates/auth/src"], "name": "auth"}),
    );
    assert_eq!(rejection(&snap, value), RejectionReason::AreaOverlap);
}

#[test]
fn suggesting_a_directory_that_swallows_an_areas_modules_is_rejected() {
    let snap = snapshot();
    for dir in [".", "crates"] {
        let value = proposal(
            &snap,
            "suggest-area",
            README,
            json!({"directories": ["docs", dir], "name": "everything"}),
        );
        assert_eq!(
            rejection(&snap, value),
            RejectionReason::AreaOverlap,
            "{dir}"
        );
    }
}

// unknown-area

#[test]
fn flag_gap_for_an_area_that_does_not_exist_is_rejected() {
    let snap = snapshot();
    let value = proposal(
        &snap,
        "flag-gap",
        AUTH,
        json!({"area": "area:crates/gone", "missing": "everything"}),
    );
    assert_eq!(rejection(&snap, value), RejectionReason::UnknownArea);
}
