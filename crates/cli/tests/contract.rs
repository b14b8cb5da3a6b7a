//! The index contract (`docs/index-artifact.md`) as a strict reader of the original format reads
//! it: handoffs and ownership checked against a schema written from the contract's text.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use serde_json::Value;

fn handoff_schema() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/schemas/agent-handoff-v1.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Every fixture's handoffs are `AgentHandoffV1` exactly: `startHere` always present (also for a
/// package no document covers), no field a strict reader would reject.
#[test]
fn handoffs_and_ownership_satisfy_the_contracts_schema() {
    let validator = jsonschema::validator_for(&handoff_schema()).unwrap();
    let mut handoffs = 0;
    for fixture in REPOSITORY_FIXTURES.iter().copied().chain(["problems"]) {
        let dir = fixture_copy(fixture);
        index(dir.path());
        let index = artifact(dir.path(), "index.json");
        let errors: Vec<String> = validator
            .iter_errors(&index)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{fixture}: {errors:#?}");
        handoffs += index["handoffs"].as_object().unwrap().len();
    }
    assert!(handoffs >= 6, "{handoffs}");
}

/// A package no document covers still has a `startHere`: its manifest, with a note saying so.
#[test]
fn a_package_without_documents_starts_at_its_manifest() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("package.json"),
        r#"{"name": "bare", "version": "1.0.0"}"#,
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/index.ts"), "export const x = 1;\n").unwrap();
    index(dir.path());
    let index = artifact(dir.path(), "index.json");
    let handoff = &index["handoffs"]["bare"];
    assert_eq!(handoff["startHere"], "package.json", "{handoff:#}");
    assert_eq!(
        handoff["notes"][1], "no document covers or mentions this yet",
        "{handoff:#}"
    );
    let validator = jsonschema::validator_for(&handoff_schema()).unwrap();
    assert!(validator.is_valid(&index));
}

/// `checksSource` left the index's handoffs for the query answer, where it explains the checks.
#[test]
fn query_still_says_where_the_checks_came_from() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let index = artifact(dir.path(), "index.json");
    let (name, _) = index["handoffs"]
        .as_object()
        .unwrap()
        .iter()
        .next()
        .unwrap();
    let out = run(dir.path(), &["query", name, "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(answer["checksSource"].is_string(), "{answer:#}");
    assert!(answer["startHere"].is_string(), "{answer:#}");
}

/// The legacy seal, computed here from the contract's list of sealed sections.
fn legacy_seal(index: &Value) -> String {
    let mut sealed = serde_json::Map::new();
    for key in [
        "schemaVersion",
        "knowledge",
        "handoffs",
        "lookup",
        "retrieval",
        "inputs",
    ] {
        if let Some(value) = index.get(key) {
            sealed.insert(key.to_owned(), value.clone());
        }
    }
    if let Some(hash) = index.get("projection").and_then(|p| p.get("contentHash")) {
        sealed.insert(
            "projection".to_owned(),
            serde_json::json!({ "contentHash": hash }),
        );
    }
    let bytes = doc_bridge_model::hash::canonical_json(&Value::Object(sealed)).unwrap();
    doc_bridge_model::ContentHash::of_bytes(&bytes)
        .as_str()
        .to_owned()
}

/// Rewrites the fixture's index as the legacy algorithm would have sealed it; `edit` changes it
/// first (before the seal, or after it with `corrupt`).
fn make_legacy(root: &std::path::Path, edit: impl Fn(&mut Value), corrupt: bool) {
    let mut index = artifact(root, "index.json");
    index["contentHashAlgo"] = "sha256-normalized-v1".into();
    if !corrupt {
        edit(&mut index);
    }
    index["contentHash"] = legacy_seal(&index).into();
    if corrupt {
        edit(&mut index);
    }
    std::fs::write(
        root.join(".doc-bridge/index.json"),
        serde_json::to_vec_pretty(&index).unwrap(),
    )
    .unwrap();
}

/// A valid legacy index: a migration diagnostic everywhere (exit 1), never an answer; `index`
/// names the drift by file and the migration, then writes `sha256-semantic-v1`.
#[test]
fn a_valid_legacy_index_is_migrated_never_answered_from() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    make_legacy(dir.path(), |_| {}, false);

    let out = run(dir.path(), &["index", "--check"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("legacy `sha256-normalized-v1` (its seal is valid); no file drifted"),
        "{}",
        stdout(&out)
    );

    let doc = dir.path().join("docs/core.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    std::fs::write(&doc, format!("{text}\nOne more line.\n")).unwrap();
    let out = run(dir.path(), &["index", "--check", "--json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["status"], "legacy");
    assert_eq!(report["changed"], serde_json::json!(["docs/core.md"]));

    let out = run(dir.path(), &["search", "session"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("run `doc-bridge index` to migrate it"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());

    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("the legacy index drifted from the tree: 1 file(s) drifted (docs/core.md)"),
        "{err}"
    );
    assert!(
        err.contains(
            "migrating .doc-bridge/index.json from `sha256-normalized-v1` to `sha256-semantic-v1`"
        ),
        "{err}"
    );
    assert_eq!(
        artifact(dir.path(), "index.json")["contentHashAlgo"],
        "sha256-semantic-v1"
    );
    assert_eq!(code(&run(dir.path(), &["index", "--check"])), 0);
}

/// A legacy index whose seal does not hold is corrupt (exit 2), with another message than a
/// valid one; `index` says so and replaces it.
#[test]
fn a_corrupt_legacy_index_is_a_corruption_error() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    make_legacy(
        dir.path(),
        |index| index["knowledge"][0]["title"] = "edited".into(),
        true,
    );
    let out = run(dir.path(), &["index", "--check"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("its `sha256-normalized-v1` seal does not match its content"),
        "{}",
        stderr(&out)
    );
    let out = run(dir.path(), &["search", "session"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("seal does not match"),
        "{}",
        stderr(&out)
    );
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stderr(&out).contains("is not valid"), "{}", stderr(&out));
    assert_eq!(code(&run(dir.path(), &["index", "--check"])), 0);
}

/// A legacy index written before `inputs` existed: its freshness comes from a full rebuild.
#[test]
fn a_legacy_index_without_inputs_is_compared_by_a_full_rebuild() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    make_legacy(
        dir.path(),
        |index| {
            index.as_object_mut().unwrap().remove("inputs");
        },
        false,
    );
    std::fs::remove_file(dir.path().join("docs/core.md")).unwrap();
    let out = run(dir.path(), &["index", "--check", "--json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["removed"], serde_json::json!(["docs/core.md"]));
}

/// An algorithm this doc-bridge does not know: install one that does, or regenerate.
#[test]
fn an_unknown_algorithm_says_to_install_a_compatible_doc_bridge() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let mut index = artifact(dir.path(), "index.json");
    index["contentHashAlgo"] = "sha512-future-v9".into();
    std::fs::write(
        dir.path().join(".doc-bridge/index.json"),
        serde_json::to_vec_pretty(&index).unwrap(),
    )
    .unwrap();
    let out = run(dir.path(), &["index", "--check"]);
    assert_eq!(code(&out), 2);
    let err = stderr(&out);
    assert!(err.contains("install a doc-bridge that reads `sha512-future-v9`, or regenerate the index with `doc-bridge index`"), "{err}");
}

/// An index ranked with another lexicon is stale, with that reason, though no file changed.
#[test]
fn an_index_made_with_another_lexicon_is_stale() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let mut index: doc_bridge_model::index::DocBridgeIndexV1 =
        serde_json::from_slice(&artifact_bytes(dir.path(), "index.json")).unwrap();
    index.retrieval.lexicon_version += 1;
    index.content_hash =
        doc_bridge_model::hash::semantic_hash(&index, doc_bridge_model::index::INDEX_HASH_EXCLUDED)
            .unwrap();
    std::fs::write(
        dir.path().join(".doc-bridge/index.json"),
        serde_json::to_vec_pretty(&index).unwrap(),
    )
    .unwrap();
    let out = run(dir.path(), &["index", "--check", "--json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["lexiconChanged"], true, "{report:#}");
    let out = run(dir.path(), &["search", "session"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("ranked with another lexicon version"),
        "{}",
        stderr(&out)
    );
}

fn index_force(root: &std::path::Path) -> std::process::Output {
    run(root, &["index", "--force", "--quiet"])
}

/// `index.knowledgeEntities` off (said or not) leaves the index byte for byte as it was; on, it
/// adds the typed entities, sealed with the rest.
#[test]
fn knowledge_entities_are_opt_in_and_off_changes_nothing() {
    let dir = fixture_copy("ts-workspace");
    write_config(dir.path(), &serde_json::json!({"schemaVersion": 1}));
    index(dir.path());
    let plain = artifact_bytes(dir.path(), "index.json");
    assert!(
        artifact(dir.path(), "index.json")
            .get("knowledgeEntities")
            .is_none()
    );

    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "index": {"knowledgeEntities": {"enabled": false}, "referenceFindingsGate": false}}),
    );
    assert_eq!(code(&index_force(dir.path())), 0);
    // The configuration file is an input like any other, so its own hash and the seals over it
    // (inputs, snapshot, projection, index) move with its bytes; nothing else may.
    let without_config_bytes = |bytes: &[u8]| {
        let mut index: Value = serde_json::from_slice(bytes).unwrap();
        let inputs = index["inputs"].as_object_mut().unwrap();
        inputs["files"]
            .as_object_mut()
            .unwrap()
            .remove("doc-bridge.config.json")
            .unwrap();
        inputs.remove("hash");
        let projection = index["projection"].as_object_mut().unwrap();
        projection.remove("snapshotHash");
        projection.remove("contentHash");
        let object = index.as_object_mut().unwrap();
        object.remove("contentHash");
        object.remove("generatedAt");
        index
    };
    assert_eq!(
        without_config_bytes(&plain),
        without_config_bytes(&artifact_bytes(dir.path(), "index.json"))
    );

    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "index": {"knowledgeEntities": {"enabled": true}}}),
    );
    assert_eq!(code(&index_force(dir.path())), 0);
    let index = artifact(dir.path(), "index.json");
    let snapshot = artifact(dir.path(), "snapshot.json");
    let entities = index["knowledgeEntities"].as_array().unwrap();
    assert_eq!(
        entities.len(),
        snapshot["entities"].as_array().unwrap().len()
    );
    let ids: Vec<&str> = entities.iter().map(|e| e["id"].as_str().unwrap()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted);
    let auth = entities
        .iter()
        .find(|e| e["id"] == "package:@fx/auth")
        .unwrap();
    assert_eq!(auth["kind"], "package");
    assert_eq!(auth["provenance"], "observed");
    assert!(
        auth["relations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["kind"] == "contains"),
        "{auth:#}"
    );
    // Sealed with the rest: an edited entity is a corrupt index.
    assert_eq!(code(&run(dir.path(), &["index", "--check"])), 0);
    let mut edited = index.clone();
    edited["knowledgeEntities"][0]["name"] = "edited".into();
    std::fs::write(
        dir.path().join(".doc-bridge/index.json"),
        serde_json::to_vec_pretty(&edited).unwrap(),
    )
    .unwrap();
    assert_eq!(code(&run(dir.path(), &["index", "--check"])), 2);
}

/// A broken link the base report does not know.
fn add_broken_link(root: &std::path::Path) {
    let doc = root.join("docs/core.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    std::fs::write(&doc, format!("{text}\nSee [gone](./gone.md).\n")).unwrap();
}

/// The reference-findings gate: off by default; on, `index` publishes nothing while a
/// reference finding is not in the base report (exit 1, nothing written), publishes past it
/// with `--allow-pending-findings` recording reason codes outside the seal, and a later plain
/// publication drops the record.
#[test]
fn the_reference_findings_gate_holds_publication_until_overridden() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    add_broken_link(dir.path());
    // Off: publishes as always.
    index(dir.path());

    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "index": {"referenceFindingsGate": true}}),
    );
    // No base report yet: the gate cannot pass.
    let before = artifact_bytes(dir.path(), "index.json");
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("there is no base report"),
        "{}",
        stderr(&out)
    );
    assert_same_bytes(
        &before,
        &artifact_bytes(dir.path(), "index.json"),
        "no-base",
    );

    // `check` makes today's findings the base: the gate passes.
    let _ = run(dir.path(), &["check"]);
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let base = artifact(dir.path(), "report.json")["contentHash"].clone();

    // A new broken link: held.
    let doc = dir.path().join("docs/auth.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    std::fs::write(&doc, format!("{text}\nSee [lost](./lost.md).\n")).unwrap();
    let before = artifact_bytes(dir.path(), "index.json");
    let snapshot_before = artifact_bytes(dir.path(), "snapshot.json");
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("1 reference finding(s) not in the base report .doc-bridge/report.json (broken-link docs/auth.md)"),
        "{}",
        stderr(&out)
    );
    assert_same_bytes(&before, &artifact_bytes(dir.path(), "index.json"), "held");
    assert_same_bytes(
        &snapshot_before,
        &artifact_bytes(dir.path(), "snapshot.json"),
        "held",
    );

    // Overridden: published, with the reason codes, outside the seal.
    let out = run(dir.path(), &["index", "--allow-pending-findings"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let published = artifact(dir.path(), "index.json");
    assert_eq!(
        published["publication"],
        serde_json::json!({"pendingReferenceFindings": {
            "override": "allow-pending-findings",
            "pendingCount": 1,
            "baseRevision": base,
            "reason": "pending",
        }})
    );
    assert_eq!(code(&run(dir.path(), &["index", "--check"])), 0);
    let sealed = published["contentHash"].clone();

    // Fixed: the next plain publication drops the record; the seal is the same.
    std::fs::write(&doc, &text).unwrap();
    let _ = run(dir.path(), &["check"]);
    std::fs::write(&doc, format!("{text}\nSee [lost](./lost.md).\n")).unwrap();
    let _ = run(dir.path(), &["check"]);
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let plain = artifact(dir.path(), "index.json");
    assert!(
        plain.get("publication").is_none(),
        "{:#}",
        plain["publication"]
    );
    assert_eq!(plain["contentHash"], sealed);
}

/// The gate judges what `check` judges: a broken link in a test fixture is no finding of
/// `check`, so it never holds publication.
#[test]
fn the_gate_ignores_findings_check_does_not_report() {
    let dir = fixture_copy("ts-workspace");
    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "index": {"referenceFindingsGate": true}}),
    );
    index_or_findings(dir.path());
    let _ = run(dir.path(), &["check"]);
    std::fs::create_dir_all(dir.path().join("tests/fixtures")).unwrap();
    std::fs::write(
        dir.path().join("tests/fixtures/input.md"),
        "# Input\n\nSee [gone](./gone.md).\n",
    )
    .unwrap();
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The same link in a maintained document is held.
    add_broken_link(dir.path());
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("(broken-link docs/core.md)"),
        "{}",
        stderr(&out)
    );
}

/// The first `index` under the gate, before any base report: it may be held (exit 1); a
/// `check` afterwards makes the base.
fn index_or_findings(root: &std::path::Path) {
    let out = run(root, &["index"]);
    assert!(matches!(code(&out), 0 | 1), "{}", stderr(&out));
}

/// A base report whose seal does not hold is `base-invalid`, recorded without a count.
#[test]
fn a_corrupt_base_report_is_base_invalid() {
    let dir = fixture_copy("ts-workspace");
    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "index": {"referenceFindingsGate": true}}),
    );
    let _ = run(dir.path(), &["check"]);
    let mut report = artifact(dir.path(), "report.json");
    report["project"]["name"] = "edited".into();
    std::fs::write(
        dir.path().join(".doc-bridge/report.json"),
        serde_json::to_vec_pretty(&report).unwrap(),
    )
    .unwrap();
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("malformed or its seal does not match"),
        "{}",
        stderr(&out)
    );
    let out = run(dir.path(), &["index", "--allow-pending-findings"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        artifact(dir.path(), "index.json")["publication"],
        serde_json::json!({"pendingReferenceFindings": {"override": "allow-pending-findings", "reason": "base-invalid"}})
    );
}
