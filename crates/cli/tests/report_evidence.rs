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
