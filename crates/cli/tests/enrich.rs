//! `doc-bridge enrich --from-file` and `enrich list`: proposals decided by the validators, merged
//! into the overlay, and reflected in the next search without a manual re-index.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_model::EntityId;
use doc_bridge_model::enrichment::{ProposalKind, proposal_id};
use serde_json::{Value, json};

fn entity_hash(snapshot: &Value, id: &str) -> String {
    snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .unwrap()["contentHash"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn proposal(
    snapshot: &Value,
    kind: ProposalKind,
    entity: &str,
    key: Value,
    payload: Value,
    evidence_path: &str,
) -> Value {
    let target = entity_hash(snapshot, entity);
    let id = proposal_id(
        kind,
        &EntityId::from_raw(entity),
        &target,
        "test-agent",
        "1",
        key,
    );
    json!({
        "proposalId": id,
        "kind": kind.as_str(),
        "entity": entity,
        "targetContentHash": target,
        "confidence": 0.9,
        "reason": "written by the test",
        "evidence": [{"source": "snapshot", "path": evidence_path, "lines": [1, 1]}],
        "relatedDiagnosticIds": [],
        "origin": {"agentId": "test-agent", "agentVersion": "1", "promptVersion": "1"},
        "baseSnapshotHash": snapshot["contentHash"],
        "payload": payload,
    })
}

#[test]
fn proposals_from_a_file_are_decided_merged_and_searchable() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let snapshot = artifact(dir.path(), "snapshot.json");
    let texts_before = projection_texts(dir.path());
    let alias = proposal(
        &snapshot,
        ProposalKind::AddAlias,
        "document:docs/auth.md",
        json!("signin-handbook"),
        json!({"alias": "signin-handbook"}),
        "docs/auth.md",
    );
    let hint = proposal(
        &snapshot,
        ProposalKind::RankHint,
        "document:docs/core.md",
        Value::Null,
        json!({"relevance": "strong"}),
        "docs/core.md",
    );
    let canonical = proposal(
        &snapshot,
        ProposalKind::MarkCanonical,
        "document:docs/auth.md",
        Value::Null,
        json!({"scope": "package:@fx/auth"}),
        "docs/auth.md",
    );
    let mut forged = proposal(
        &snapshot,
        ProposalKind::RankHint,
        "document:docs/auth.md",
        Value::Null,
        json!({"relevance": "weak"}),
        "docs/auth.md",
    );
    forged["proposalId"] = json!("0".repeat(64));
    // Outside the repository: never read, rejected.
    let escaping = proposal(
        &snapshot,
        ProposalKind::RankHint,
        "document:AGENTS.md",
        Value::Null,
        json!({"relevance": "weak"}),
        "../../etc/passwd",
    );
    // Under .doc-bridge/, so the proposals file is not itself a new input of the repository.
    let file = dir.path().join(".doc-bridge/proposals.json");
    std::fs::write(
        &file,
        serde_json::to_vec(&json!([alias, hint, canonical, forged, escaping])).unwrap(),
    )
    .unwrap();

    let out = run(
        dir.path(),
        &["enrich", "--from-file", file.to_str().unwrap(), "--json"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["accepted"], 2, "{report:#}");
    assert_eq!(report["pending"], 1, "{report:#}");
    assert_eq!(report["rejected"], 2, "{report:#}");
    assert_eq!(
        report["rejectionReasons"]["proposal-id-mismatch"], 1,
        "{report:#}"
    );
    assert_eq!(
        report["rejectionReasons"]["evidence-outside-artifacts"], 1,
        "{report:#}"
    );

    // The index was re-derived: the alias policy accepted finds the document by its words,
    // but is no exact name (no agent can put an entry first for a phrase it chose).
    let search = run(
        dir.path(),
        &["search", "--json", "--explain", "signin-handbook"],
    );
    assert_eq!(code(&search), 0, "{}", stderr(&search));
    let results: Value = serde_json::from_slice(&search.stdout).unwrap();
    assert_eq!(
        results["results"][0]["id"], "document:docs/auth.md",
        "{results:#}"
    );
    assert_eq!(
        results["results"][0]["explain"]["parts"]["exactId"], 0.0,
        "{results:#}"
    );
    assert_eq!(results["results"][0]["confidence"], "medium", "{results:#}");
    assert_eq!(code(&run(dir.path(), &["index", "--check"])), 0);
    // Re-derived from the stored snapshot, which holds no text: the text came from the stored
    // projection, whole.
    assert_eq!(projection_texts(dir.path()), texts_before);
    let projection = &artifact(dir.path(), "index.json")["projection"];
    assert_ne!(
        projection["overlayHash"],
        doc_bridge_retrieve::overlay::OverlaySignals::empty_hash().as_str()
    );

    // Listing, and a second run of the same file decides nothing new and keeps the overlay.
    let pending = run(
        dir.path(),
        &["enrich", "list", "--state", "pending", "--json"],
    );
    let listed: Value = serde_json::from_slice(&pending.stdout).unwrap();
    assert_eq!(listed["entries"].as_array().unwrap().len(), 1);
    assert_eq!(listed["entries"][0]["kind"], "mark-canonical");
    // The whole proposal, payload and evidence included, as the overlay holds it.
    let overlay = artifact(dir.path(), "enrich/overlay.json");
    assert_eq!(
        listed["entries"][0]["proposal"], overlay["pending"][0]["proposal"],
        "{listed:#}"
    );
    assert!(
        listed["entries"][0]["proposal"]["payload"].is_object(),
        "{listed:#}"
    );
    let before = std::fs::read(dir.path().join(".doc-bridge/enrich/overlay.json")).unwrap();
    let again = run(
        dir.path(),
        &["enrich", "--from-file", file.to_str().unwrap(), "--json"],
    );
    let again: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["accepted"], 0);
    // Said, not silently dropped: every proposal of the file was decided by the first run.
    assert_eq!(
        again["alreadyDecided"].as_array().unwrap().len(),
        listed_total(&dir),
        "{again:#}"
    );
    assert_eq!(
        before,
        std::fs::read(dir.path().join(".doc-bridge/enrich/overlay.json")).unwrap()
    );
}

/// The `body` and `code` fields of every projection entry, by id: the text the index keeps.
fn projection_texts(root: &std::path::Path) -> Vec<(String, Value, Value)> {
    let index = artifact(root, "index.json");
    let entries = index["projection"]["entries"].as_array().unwrap();
    let texts: Vec<(String, Value, Value)> = entries
        .iter()
        .map(|e| {
            let id = e["id"].as_str().unwrap().to_owned();
            (id, e["fields"]["body"].clone(), e["fields"]["code"].clone())
        })
        .collect();
    // Documents and modules with text of their own: the comparison is not of empty lists.
    assert!(
        texts
            .iter()
            .any(|(id, _, code)| id.starts_with("module:") && code.is_string())
    );
    assert!(
        texts
            .iter()
            .any(|(id, body, _)| id.starts_with("document:") && body.is_string())
    );
    texts
}

/// Entries of the overlay, every state.
fn listed_total(dir: &FixtureCopy) -> usize {
    let out = run(dir.path(), &["enrich", "list", "--json"]);
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    listed["entries"].as_array().unwrap().len()
}

#[test]
fn observed_entities_and_relations_survive_enrichment() {
    let dir = fixture_copy("rust-workspace");
    index(dir.path());
    let before = artifact(dir.path(), "snapshot.json");
    let hint = proposal(
        &before,
        ProposalKind::RankHint,
        "document:docs/design.md",
        Value::Null,
        json!({"relevance": "weak"}),
        "docs/design.md",
    );
    let file = dir.path().join(".doc-bridge/proposals.json");
    std::fs::write(&file, serde_json::to_vec(&json!([hint])).unwrap()).unwrap();
    let out = run(
        dir.path(),
        &["enrich", "--from-file", file.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let after = artifact(dir.path(), "snapshot.json");
    assert_eq!(before["entities"], after["entities"]);
    assert_eq!(before["relations"], after["relations"]);
    let index = artifact(dir.path(), "index.json");
    let entry = index["projection"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "document:docs/design.md")
        .unwrap();
    assert_eq!(entry["signal"], 0.5);
}

#[test]
fn hostile_proposal_files_are_refused_with_exit_two_and_lose_nothing() {
    let dir = fixture_copy("go-module");
    index(dir.path());
    let file = dir.path().join(".doc-bridge/p.json");
    for bad in [&b"{\"not\": \"a list\"}"[..], b"[{\"kind\": ", b"\xff\xfe"] {
        std::fs::write(&file, bad).unwrap();
        let out = run(
            dir.path(),
            &["enrich", "--from-file", file.to_str().unwrap()],
        );
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert!(!dir.path().join(".doc-bridge/enrich/overlay.json").exists());
    }
    // Junk elements are decided one by one, never a panic.
    std::fs::write(
        &file,
        br#"[1, "x", null, {"kind": "nope"}, {"kind": "add-alias", "payload": {"alias": 5}}]"#,
    )
    .unwrap();
    let out = run(
        dir.path(),
        &["enrich", "--from-file", file.to_str().unwrap(), "--json"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["rejected"].as_u64().unwrap() + report["accepted"].as_u64().unwrap(),
        5,
        "{report:#}"
    );
}

/// Indexes the ts-workspace, decides one pending `mark-canonical` proposal; returns its id.
fn with_pending(dir: &FixtureCopy) -> String {
    index(dir.path());
    let snapshot = artifact(dir.path(), "snapshot.json");
    let canonical = proposal(
        &snapshot,
        ProposalKind::MarkCanonical,
        "document:docs/auth.md",
        Value::Null,
        json!({"scope": "package:@fx/auth"}),
        "docs/auth.md",
    );
    let id = canonical["proposalId"].as_str().unwrap().to_owned();
    let file = dir.path().join(".doc-bridge/pending.json");
    std::fs::write(&file, serde_json::to_vec(&json!([canonical])).unwrap()).unwrap();
    let out = run(
        dir.path(),
        &["enrich", "--from-file", file.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    id
}

fn overlay(dir: &FixtureCopy) -> Vec<u8> {
    std::fs::read(dir.path().join(".doc-bridge/enrich/overlay.json")).unwrap()
}

#[test]
fn approval_moves_a_pending_proposal_and_records_the_decision_once() {
    let dir = fixture_copy("ts-workspace");
    let id = with_pending(&dir);
    let out = run(
        dir.path(),
        &["enrich", "approve", &id, "--by", "Ada", "--json"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let record = dir.path().join(format!(
        ".doc-bridge/approvals/{}.json",
        report["approvalId"].as_str().unwrap()
    ));
    let record: Value = serde_json::from_slice(&std::fs::read(record).unwrap()).unwrap();
    assert_eq!(record["by"], "Ada");
    assert_eq!(record["decision"], "approved");
    let stored: Value = serde_json::from_slice(&overlay(&dir)).unwrap();
    assert_eq!(stored["accepted"][0]["acceptedBy"], "Ada");
    assert!(stored["pending"].as_array().unwrap().is_empty());
    // The projection reflects it: the canonical tag and 0.8 of the signal.
    let entry = artifact(dir.path(), "index.json")["projection"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "document:docs/auth.md")
        .unwrap()
        .clone();
    assert_eq!(entry["signal"], 0.8);
    assert!(
        entry["tags"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "canonical")
    );
    // A second decision is refused and changes nothing.
    let before = overlay(&dir);
    let again = run(dir.path(), &["enrich", "reject", &id, "--by", "Grace"]);
    assert_eq!(code(&again), 1);
    assert!(
        stderr(&again).contains("already decided"),
        "{}",
        stderr(&again)
    );
    assert_eq!(before, overlay(&dir));
    // And the stored partition reproduces.
    assert_eq!(code(&run(dir.path(), &["enrich", "revalidate"])), 0);
    // Stats count the person's decision for the agent and kind.
    let stats = run(dir.path(), &["enrich", "stats", "--json"]);
    assert_eq!(code(&stats), 0, "{}", stderr(&stats));
    let stats: Value = serde_json::from_slice(&stats.stdout).unwrap();
    let row = stats["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == "mark-canonical")
        .unwrap()
        .clone();
    assert_eq!(row["agent"], "test-agent");
    assert_eq!(row["acceptedByPerson"], 1);
    assert_eq!(row["acceptanceRate"], 1.0);
    assert_eq!(stats["judgments"], 1);
}

#[test]
fn approvals_by_the_author_by_policy_or_for_unknown_ids_are_refused() {
    let dir = fixture_copy("ts-workspace");
    let id = with_pending(&dir);
    let before = overlay(&dir);
    for (who, target, expect) in [
        ("test-agent", id.as_str(), "own proposal"),
        ("policy", id.as_str(), "not a person"),
        ("Ada", "feedbeef", "no pending proposal"),
    ] {
        let out = run(dir.path(), &["enrich", "approve", target, "--by", who]);
        assert_eq!(code(&out), 1, "{who}");
        assert!(stderr(&out).contains(expect), "{who}: {}", stderr(&out));
        assert_eq!(before, overlay(&dir), "{who}");
    }
    assert!(!dir.path().join(".doc-bridge/approvals").exists());
}

#[test]
fn approval_is_refused_after_the_target_changed() {
    let dir = fixture_copy("ts-workspace");
    let id = with_pending(&dir);
    std::fs::write(
        dir.path().join("docs/auth.md"),
        "# Authentication\n\nRewritten.\n",
    )
    .unwrap();
    index(dir.path());
    let before = overlay(&dir);
    let out = run(dir.path(), &["enrich", "approve", &id, "--by", "Ada"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("changed"), "{}", stderr(&out));
    assert_eq!(before, overlay(&dir));
}

#[test]
fn rejection_records_a_human_rejected_reason() {
    let dir = fixture_copy("ts-workspace");
    let id = with_pending(&dir);
    let out = run(
        dir.path(),
        &[
            "enrich",
            "reject",
            &id,
            "--by",
            "Grace",
            "--reason",
            "not canonical",
        ],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let stored: Value = serde_json::from_slice(&overlay(&dir)).unwrap();
    assert_eq!(stored["rejected"][0]["reason"], "human-rejected");
    assert_eq!(stored["stats"]["rejectionReasons"]["human-rejected"], 1);
}

#[test]
fn a_hand_edited_overlay_is_invalid_and_never_overwritten() {
    let dir = fixture_copy("ts-workspace");
    let _ = with_pending(&dir);
    let path = dir.path().join(".doc-bridge/enrich/overlay.json");
    let mut value: Value = serde_json::from_slice(&overlay(&dir)).unwrap();
    value["pending"][0]["note"] = json!("edited by hand");
    std::fs::write(&path, serde_json::to_vec(&value).unwrap()).unwrap();
    let edited = overlay(&dir);
    let file = dir.path().join(".doc-bridge/pending.json");
    let out = run(
        dir.path(),
        &["enrich", "--from-file", file.to_str().unwrap()],
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(edited, overlay(&dir));
    // Search ignores it (with a warning) rather than trusting it.
    let search = run(dir.path(), &["search", "--allow-stale", "auth"]);
    assert_eq!(code(&search), 0, "{}", stderr(&search));
}

#[test]
fn registry_disabled_or_nothing_accepted_leaves_the_projection_byte_identical() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let baseline = artifact(dir.path(), "index.json")["projection"].clone();

    // Only rejections: no live accepted entry, so the projection is the baseline.
    let snapshot = artifact(dir.path(), "snapshot.json");
    let mut forged = proposal(
        &snapshot,
        ProposalKind::RankHint,
        "document:docs/auth.md",
        Value::Null,
        json!({"relevance": "weak"}),
        "docs/auth.md",
    );
    forged["proposalId"] = json!("0".repeat(64));
    let file = dir.path().join(".doc-bridge/rejected.json");
    std::fs::write(&file, serde_json::to_vec(&json!([forged])).unwrap()).unwrap();
    assert_eq!(
        code(&run(
            dir.path(),
            &["enrich", "--from-file", file.to_str().unwrap()]
        )),
        0
    );
    assert_eq!(baseline, artifact(dir.path(), "index.json")["projection"]);

    // An accepted signal changes it; switching the registry off restores the baseline exactly.
    let hint = proposal(
        &snapshot,
        ProposalKind::RankHint,
        "document:docs/core.md",
        Value::Null,
        json!({"relevance": "strong"}),
        "docs/core.md",
    );
    std::fs::write(&file, serde_json::to_vec(&json!([hint])).unwrap()).unwrap();
    assert_eq!(
        code(&run(
            dir.path(),
            &["enrich", "--from-file", file.to_str().unwrap()]
        )),
        0
    );
    assert_ne!(baseline, artifact(dir.path(), "index.json")["projection"]);
    std::fs::write(
        dir.path().join("doc-bridge.config.json"),
        r#"{"schemaVersion": 1, "intelligence": {"registry": {"enabled": false}}}"#,
    )
    .unwrap();
    index(dir.path());
    let off = artifact(dir.path(), "index.json")["projection"].clone();
    assert_eq!(baseline["entries"], off["entries"]);
    assert_eq!(baseline["overlayHash"], off["overlayHash"]);
}

/// Two pending `mark-canonical` proposals (auth and core), from one `enrich --from-file` run.
fn with_two_pending(dir: &FixtureCopy) -> (String, String) {
    index(dir.path());
    let snapshot = artifact(dir.path(), "snapshot.json");
    let make = |doc: &str, scope: &str| {
        proposal(
            &snapshot,
            ProposalKind::MarkCanonical,
            &format!("document:{doc}"),
            Value::Null,
            json!({ "scope": scope }),
            doc,
        )
    };
    let auth = make("docs/auth.md", "package:@fx/auth");
    let core = make("docs/core.md", "package:@fx/core");
    let ids = (
        auth["proposalId"].as_str().unwrap().to_owned(),
        core["proposalId"].as_str().unwrap().to_owned(),
    );
    let file = dir.path().join(".doc-bridge/pending.json");
    std::fs::write(&file, serde_json::to_vec(&json!([auth, core])).unwrap()).unwrap();
    let out = run(
        dir.path(),
        &["enrich", "--from-file", file.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let stored: Value = serde_json::from_slice(&overlay(dir)).unwrap();
    assert_eq!(stored["pending"].as_array().unwrap().len(), 2, "{stored:#}");
    ids
}

fn approval_records(dir: &FixtureCopy) -> usize {
    std::fs::read_dir(dir.path().join(".doc-bridge/approvals"))
        .map(|entries| entries.count())
        .unwrap_or(0)
}

/// Two people approve two proposals at the same moment, in two real processes: both decisions
/// are recorded, both are in the overlay, and revalidation agrees.
#[test]
fn two_approvals_at_once_lose_neither_decision() {
    for _round in 0..3 {
        let dir = fixture_copy("ts-workspace");
        let (auth, core) = with_two_pending(&dir);
        let root = dir.path().to_path_buf();
        let decide = |id: String, who: &'static str| {
            let root = root.clone();
            std::thread::spawn(move || run(&root, &["enrich", "approve", &id, "--by", who]))
        };
        let (a, b) = (decide(auth, "Ada"), decide(core, "Grace"));
        let (a, b) = (a.join().unwrap(), b.join().unwrap());
        assert_eq!(code(&a), 0, "{}", stderr(&a));
        assert_eq!(code(&b), 0, "{}", stderr(&b));
        let stored: Value = serde_json::from_slice(&overlay(&dir)).unwrap();
        assert!(
            stored["pending"].as_array().unwrap().is_empty(),
            "{stored:#}"
        );
        let mut by: Vec<&str> = stored["accepted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["acceptedBy"].as_str().unwrap())
            .collect();
        by.sort();
        assert_eq!(by, ["Ada", "Grace"]);
        assert_eq!(approval_records(&dir), 2);
        let revalidate = run(dir.path(), &["enrich", "revalidate"]);
        assert_eq!(code(&revalidate), 0, "{}", stdout(&revalidate));
    }
}

/// Two `enrich --from-file` runs at once, each with its own proposal: the overlay keeps both.
#[test]
fn two_enrich_runs_at_once_keep_both_runs_work() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let snapshot = artifact(dir.path(), "snapshot.json");
    let files: Vec<std::path::PathBuf> = [
        ("docs/auth.md", "auth-handbook"),
        ("docs/core.md", "core-handbook"),
    ]
    .iter()
    .enumerate()
    .map(|(i, (doc, alias))| {
        let alias = proposal(
            &snapshot,
            ProposalKind::AddAlias,
            &format!("document:{doc}"),
            json!(alias),
            json!({ "alias": alias }),
            doc,
        );
        let file = dir.path().join(format!(".doc-bridge/run{i}.json"));
        std::fs::write(&file, serde_json::to_vec(&json!([alias])).unwrap()).unwrap();
        file
    })
    .collect();
    let handles: Vec<_> = files
        .iter()
        .map(|file| {
            let root = dir.path().to_path_buf();
            let file = file.to_str().unwrap().to_owned();
            std::thread::spawn(move || run(&root, &["enrich", "--from-file", &file]))
        })
        .collect();
    for handle in handles {
        let out = handle.join().unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    }
    let stored: Value = serde_json::from_slice(&overlay(&dir)).unwrap();
    let mut aliases: Vec<&str> = stored["accepted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["proposal"]["payload"]["alias"].as_str().unwrap())
        .collect();
    aliases.sort();
    assert_eq!(aliases, ["auth-handbook", "core-handbook"], "{stored:#}");
    // The index reflects the overlay that won: fresh, not stale.
    assert_eq!(code(&run(dir.path(), &["index", "--check"])), 0);
}

/// A held lock makes a decision wait, then fail with exit 2 naming the lock; nothing moves.
#[test]
fn a_decision_waits_for_the_lock_with_a_bound() {
    let dir = fixture_copy("ts-workspace");
    let id = with_pending(&dir);
    let lock = std::fs::File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(dir.path().join(".doc-bridge/enrich/lock"))
        .unwrap();
    lock.lock().unwrap();
    let before = overlay(&dir);
    let out = doc_bridge()
        .args(["enrich", "approve", &id, "--by", "Ada", "--root"])
        .arg(dir.path())
        .env("DOC_BRIDGE_LOCK_WAIT_MS", "300")
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("another doc-bridge command is deciding proposals"),
        "{}",
        stderr(&out)
    );
    assert_eq!(before, overlay(&dir));
    assert_eq!(approval_records(&dir), 0);
    // Released: the same decision goes through.
    lock.unlock().unwrap();
    let out = run(dir.path(), &["enrich", "approve", &id, "--by", "Ada"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// A decision recorded but not reflected in the overlay (a crash between the two writes):
/// revalidate reports it, and the next decision applies it instead of leaving it pending forever.
#[test]
fn a_recorded_decision_the_overlay_lost_is_reported_and_applied() {
    let dir = fixture_copy("ts-workspace");
    let (auth, core) = with_two_pending(&dir);
    let before = overlay(&dir);
    let out = run(dir.path(), &["enrich", "approve", &auth, "--by", "Ada"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The crash: the record stays, the overlay is the one from before.
    std::fs::write(dir.path().join(".doc-bridge/enrich/overlay.json"), &before).unwrap();
    index(dir.path());
    let revalidate = run(dir.path(), &["enrich", "revalidate"]);
    assert_eq!(code(&revalidate), 1, "{}", stdout(&revalidate));
    assert!(
        stdout(&revalidate).contains("approval record says approved by Ada"),
        "{}",
        stdout(&revalidate)
    );
    // Deciding it again: already decided, and now the overlay shows it.
    let again = run(dir.path(), &["enrich", "approve", &auth, "--by", "Grace"]);
    assert_eq!(code(&again), 1, "{}", stderr(&again));
    assert!(
        stderr(&again).contains("already decided"),
        "{}",
        stderr(&again)
    );
    let stored: Value = serde_json::from_slice(&overlay(&dir)).unwrap();
    assert_eq!(stored["accepted"][0]["acceptedBy"], "Ada", "{stored:#}");
    assert_eq!(stored["pending"].as_array().unwrap().len(), 1);
    assert_eq!(code(&run(dir.path(), &["enrich", "revalidate"])), 0);
    // And the other proposal is still decidable.
    let out = run(dir.path(), &["enrich", "reject", &core, "--by", "Grace"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(approval_records(&dir), 2);
}

/// The author, `policy` and configured agents in other spellings are not people.
#[test]
fn identity_variants_of_agents_and_policy_never_decide() {
    let dir = fixture_copy("ts-workspace");
    let id = with_pending(&dir);
    let config_path = dir.path().join("doc-bridge.config.json");
    let mut config: Value = std::fs::read(&config_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| json!({"schemaVersion": 1}));
    config["intelligence"] =
        json!({"registry": {"enabled": false, "agentId": "curator-bot", "cli": ["true"]}});
    std::fs::write(&config_path, serde_json::to_vec(&config).unwrap()).unwrap();
    index(dir.path());
    let before = overlay(&dir);
    for (who, expect) in [
        ("Test-Agent", "own proposal"),
        ("TEST-AGENT", "own proposal"),
        ("test\u{200B}-agent", "own proposal"),
        ("Policy", "not a person"),
        ("POLICY", "not a person"),
        ("p\u{043E}licy", "not a person"),
        ("pol\u{200B}icy", "not a person"),
        ("Curator-Bot", "agent identity"),
        ("ada\u{1b}[31m", "control character"),
    ] {
        let out = run(dir.path(), &["enrich", "approve", &id, "--by", who]);
        assert_eq!(code(&out), 1, "{who:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(expect), "{who:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains('\u{1b}'), "{who:?}");
        assert_eq!(before, overlay(&dir), "{who:?}");
    }
    assert_eq!(approval_records(&dir), 0);
}

fn pending_note(stored: &Value, id: &str) -> Option<String> {
    stored["pending"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["proposal"]["proposalId"] == id)
        .map(|e| e["note"].as_str().unwrap().to_owned())
}

/// Two documents marked canonical for one scope both wait (the second with the note
/// `canonical-conflict`); once a person approves one, the other says so and cannot be
/// approved, only rejected; the overlay reproduces throughout.
#[test]
fn a_second_canonical_document_waits_in_conflict_and_cannot_be_approved_past_the_first() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let snapshot = artifact(dir.path(), "snapshot.json");
    let make = |doc: &str| {
        proposal(
            &snapshot,
            ProposalKind::MarkCanonical,
            &format!("document:{doc}"),
            Value::Null,
            json!({"scope": "package:@fx/auth"}),
            doc,
        )
    };
    let mut ids = [make("docs/auth.md"), make("docs/core.md")]
        .map(|p| p["proposalId"].as_str().unwrap().to_owned());
    ids.sort();
    let [first, second] = ids.clone();
    let file = dir.path().join(".doc-bridge/pending.json");
    std::fs::write(
        &file,
        serde_json::to_vec(&json!([make("docs/auth.md"), make("docs/core.md")])).unwrap(),
    )
    .unwrap();
    let out = run(
        dir.path(),
        &["enrich", "--from-file", file.to_str().unwrap(), "--json"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&summary["pending"], &summary["rejected"]),
        (&json!(2), &json!(0))
    );
    let stored: Value = serde_json::from_slice(&overlay(&dir)).unwrap();
    assert_eq!(
        pending_note(&stored, &first).as_deref(),
        Some("awaiting approval")
    );
    assert_eq!(
        pending_note(&stored, &second).as_deref(),
        Some("canonical-conflict")
    );
    assert_eq!(code(&run(dir.path(), &["enrich", "revalidate"])), 0);

    // A person chooses the second: the first now waits in conflict.
    let out = run(dir.path(), &["enrich", "approve", &second, "--by", "Ada"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let stored: Value = serde_json::from_slice(&overlay(&dir)).unwrap();
    assert_eq!(
        pending_note(&stored, &first).as_deref(),
        Some("canonical-conflict")
    );
    // Approving the first too is refused, and nothing moves.
    let before = overlay(&dir);
    let out = run(dir.path(), &["enrich", "approve", &first, "--by", "Bo"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("scope package:@fx/auth already has canonical document"),
        "{}",
        stderr(&out)
    );
    assert_eq!(overlay(&dir), before);
    assert_eq!(approval_records(&dir), 1);
    // Rejecting it is a person's decision like any other.
    let out = run(dir.path(), &["enrich", "reject", &first, "--by", "Bo"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(code(&run(dir.path(), &["enrich", "revalidate"])), 0);
}

/// The 12-character ids `enrich list` shows decide too; a prefix two pending ids share, or one
/// under eight characters, does not.
#[test]
fn a_listed_short_id_decides_and_an_ambiguous_prefix_is_refused() {
    let dir = fixture_copy("ts-workspace");
    let (auth, core) = with_two_pending(&dir);
    let out = run(dir.path(), &["enrich", "list"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains(&auth[..12]), "{}", stdout(&out));
    let short = run(
        dir.path(),
        &["enrich", "approve", &auth[..7], "--by", "Ada"],
    );
    assert_eq!(
        code(&short),
        1,
        "under eight characters: {}",
        stderr(&short)
    );
    let common = auth
        .chars()
        .zip(core.chars())
        .take_while(|(a, b)| a == b)
        .count();
    if common >= 8 {
        let out = run(
            dir.path(),
            &["enrich", "approve", &auth[..common], "--by", "Ada"],
        );
        assert_eq!(code(&out), 1);
        assert!(
            stderr(&out).contains("begins 2 pending"),
            "{}",
            stderr(&out)
        );
    }
    let out = run(
        dir.path(),
        &["enrich", "approve", &auth[..12], "--by", "Ada"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let stored: Value = serde_json::from_slice(&overlay(&dir)).unwrap();
    let accepted: Vec<&str> = stored["accepted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["proposal"]["proposalId"].as_str().unwrap())
        .collect();
    assert_eq!(accepted, [auth.as_str()]);
}
