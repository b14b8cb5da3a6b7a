//! The validators read `check`'s report when it was made for the current snapshot: a proposal
//! may cite a report diagnostic (evidence with source `report`, `relatedDiagnosticIds`).
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_model::EntityId;
use doc_bridge_model::enrichment::{ProposalKind, proposal_id};
use serde_json::{Value, json};

fn decide(root: &std::path::Path, proposal: &Value) -> Value {
    let file = root.join(".doc-bridge/p.json");
    std::fs::write(&file, serde_json::to_vec(&json!([proposal])).unwrap()).unwrap();
    let out = run(
        root,
        &["enrich", "--from-file", file.to_str().unwrap(), "--json"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_proposal_citing_a_check_diagnostic_is_grounded_only_when_the_report_matches_the_snapshot() {
    let dir = fixture_copy("problems");
    index(dir.path());
    let _ = run(dir.path(), &["check", "--format", "json"]);
    let report = artifact(dir.path(), "report.json");
    let snapshot = artifact(dir.path(), "snapshot.json");
    // A diagnostic only `check` finds (discovery never reports orphans).
    let orphan = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "orphan-document" && d["entity"].is_string())
        .expect("the problems fixture has an orphan document")
        .clone();
    assert!(
        !snapshot["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["id"] == orphan["id"])
    );
    let entity = orphan["entity"].as_str().unwrap();
    let target = snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == entity)
        .unwrap()["contentHash"]
        .as_str()
        .unwrap()
        .to_owned();
    let lines = match orphan["line"].as_u64() {
        Some(line) => json!([line, line]),
        None => json!([0, 0]),
    };
    let id = proposal_id(
        ProposalKind::RankHint,
        &EntityId::from_raw(entity),
        &target,
        "curator",
        "1",
        Value::Null,
    );
    let proposal = json!({"proposalId": id, "kind": "rank-hint", "entity": entity, "targetContentHash": target,
        "confidence": 0.5, "reason": "nothing links here", "evidence": [{"source": "report", "path": orphan["path"], "lines": lines}],
        "relatedDiagnosticIds": [orphan["id"]], "origin": {"agentId": "curator", "agentVersion": "1", "promptVersion": "1"},
        "baseSnapshotHash": snapshot["contentHash"], "payload": {"relevance": "weak"}});

    let grounded = decide(dir.path(), &proposal);
    assert_eq!(grounded["accepted"], 1, "{grounded:#}");

    // Without the report (or with one made for another snapshot) the same citation is unknown.
    let other = fixture_copy("problems");
    index(other.path());
    let refused = decide(other.path(), &proposal);
    assert_eq!(refused["rejected"], 1, "{refused:#}");
    assert_eq!(
        refused["rejectionReasons"]["unknown-diagnostic"], 1,
        "{refused:#}"
    );
}

fn decide_file(root: &std::path::Path, proposals: Value) -> Value {
    let file = root.join(".doc-bridge/p.json");
    std::fs::write(&file, serde_json::to_vec(&proposals).unwrap()).unwrap();
    let out = run(
        root,
        &["enrich", "--from-file", file.to_str().unwrap(), "--json"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// enrichment-overlay-v1, "The stage": the step's input is `{reportHash, overlayHash}`, so an
/// approval (which moves the overlay, not the report) moves the input.
#[test]
fn the_stage_names_its_input_report_and_overlay_and_an_approval_moves_it() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    // No report yet: the validators read the snapshot's diagnostics, and say so.
    let first = decide_file(dir.path(), json!([]));
    let overlay = artifact(dir.path(), "enrich/overlay.json");
    assert_eq!(
        first["input"],
        json!({"reportHash": null, "overlayHash": overlay["contentHash"]}),
        "{first:#}"
    );
    assert!(overlay["stats"].get("reportHash").is_none());

    // After `check`, its report is read and named, in the summary and in the overlay.
    assert!(code(&run(dir.path(), &["check"])) <= 1);
    let report = artifact(dir.path(), "report.json");
    let snapshot = artifact(dir.path(), "snapshot.json");
    let target = snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "document:docs/auth.md")
        .unwrap()["contentHash"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = proposal_id(
        ProposalKind::MarkCanonical,
        &EntityId::from_raw("document:docs/auth.md"),
        &target,
        "test-agent",
        "1",
        Value::Null,
    );
    let canonical = json!({"proposalId": id, "kind": "mark-canonical", "entity": "document:docs/auth.md",
        "targetContentHash": target, "confidence": 0.9, "reason": "the auth guide",
        "evidence": [{"source": "snapshot", "path": "docs/auth.md", "lines": [1, 1]}],
        "relatedDiagnosticIds": [], "origin": {"agentId": "test-agent", "agentVersion": "1", "promptVersion": "1"},
        "baseSnapshotHash": snapshot["contentHash"], "payload": {"scope": "package:@fx/auth"}});
    let second = decide_file(dir.path(), json!([canonical]));
    let overlay = artifact(dir.path(), "enrich/overlay.json");
    assert_eq!(second["input"]["reportHash"], report["contentHash"]);
    assert_eq!(second["input"]["overlayHash"], overlay["contentHash"]);
    assert_eq!(overlay["stats"]["reportHash"], report["contentHash"]);

    // A person approves: the report is unchanged, the overlay (and so the input) moved.
    assert_eq!(
        code(&run(dir.path(), &["enrich", "approve", &id, "--by", "Ada"])),
        0
    );
    let third = decide_file(dir.path(), json!([]));
    assert_eq!(third["input"]["reportHash"], second["input"]["reportHash"]);
    assert_ne!(
        third["input"]["overlayHash"],
        second["input"]["overlayHash"]
    );
    assert_eq!(
        third["input"]["overlayHash"],
        artifact(dir.path(), "enrich/overlay.json")["contentHash"]
    );
}

/// `check --enrich` writes its report before the stage runs, so the stage decides against this
/// check's report and the report's `enrichment` names both halves of the input.
#[test]
fn check_enrich_names_its_own_report_and_the_overlay_it_attaches() {
    let dir = fixture_copy("ts-workspace");
    write_config(
        dir.path(),
        &json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "reference-agent",
            "cli": {"command": env!("CARGO_BIN_EXE_doc-bridge-reference-agent")}}}}),
    );
    index(dir.path());
    assert!(!dir.path().join(".doc-bridge/report.json").exists());
    let out = run(dir.path(), &["check", "--enrich", "--format", "json"]);
    assert!(code(&out) <= 1, "{}", stderr(&out));
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let stored = artifact(dir.path(), "report.json");
    let overlay = artifact(dir.path(), "enrich/overlay.json");
    for report in [&printed, &stored] {
        assert_eq!(report["enrichment"]["status"], "ok", "{report:#}");
        assert_eq!(report["enrichment"]["reportHash"], report["contentHash"]);
        assert_eq!(report["enrichment"]["overlayHash"], overlay["contentHash"]);
    }
    assert_eq!(overlay["stats"]["reportHash"], stored["contentHash"]);
}
