//! Roles end to end with real child processes: a curator that disagrees with a proposal from a
//! file about the canonical document of a package, an adjudicator that settles it (or tries to
//! judge its own proposal), each role held to its kinds (`out-of-role`), and the configuration
//! refusing an adjudicator that shares an identity.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_model::EntityId;
use doc_bridge_model::enrichment::{ProposalKind, proposal_id};
use serde_json::{Value, json};

const SCOPE: &str = "package:@fx/auth";

/// A `mark-canonical` proposal for `doc` by `agent`, grounded in the indexed snapshot.
fn canonical(root: &std::path::Path, doc: &str, agent: &str) -> Value {
    let snapshot = artifact(root, "snapshot.json");
    let entity = format!("document:{doc}");
    let target = snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == entity.as_str())
        .unwrap()["contentHash"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = proposal_id(
        ProposalKind::MarkCanonical,
        &EntityId::from_raw(&entity),
        &target,
        agent,
        "1",
        Value::Null,
    );
    json!({"proposalId": id, "kind": "mark-canonical", "entity": entity, "targetContentHash": target,
        "confidence": 0.9, "reason": "the main guide", "evidence": [{"source": "snapshot", "path": doc, "lines": [1, 1]}],
        "relatedDiagnosticIds": [], "origin": {"agentId": agent, "agentVersion": "1", "promptVersion": "1"},
        "baseSnapshotHash": snapshot["contentHash"], "payload": {"scope": SCOPE}})
}

/// An agent that ignores its request and answers with the proposals in `file`.
fn replaying(agent: &str, file: &str) -> Value {
    json!({"agentId": agent, "cli": {"command": "sh", "args": ["-c", format!("cat >/dev/null; cat .doc-bridge/{file}")]}})
}

/// An adjudicator that reads the dispute id from its request and names the proposal in `winner`
/// (a file) as the winner, under the identity `origin`.
fn judge(agent: &str, origin: &str) -> Value {
    let script = format!(
        "id=$(grep -o '\"disputeId\":\"[0-9a-f]*\"' | head -n 1 | cut -d'\"' -f4); \
         printf '{{\"proposals\": [{{\"type\": \"enrichment-adjudication\", \"disputeId\": \"%s\", \"winner\": \"%s\", \"origin\": {{\"agentId\": \"{origin}\", \"agentVersion\": \"1\", \"promptVersion\": \"1\"}}}}]}}' \"$id\" \"$(cat .doc-bridge/winner)\"; \
         echo call >> .doc-bridge/judge-calls"
    );
    json!({"agentId": agent, "cli": {"command": "sh", "args": ["-c", script]}})
}

fn configure(root: &std::path::Path, registry: Value) {
    let config = json!({"schemaVersion": 1, "intelligence": {"registry": registry}});
    write_config(root, &config);
}

/// Indexes, records a canonical marker for `docs/core.md` by `editor-bot` from a file (pending:
/// a file's proposals have no role), and configures a curator that marks `docs/auth.md`
/// canonical for the same scope, a reviewer with nothing to say, and `judge`. Returns the
/// curator's proposal id and the file's.
fn disputed(judge_agent: Value) -> (FixtureCopy, String, String) {
    let dir = fixture_copy("ts-workspace");
    let mut registry = replaying("curator-bot", "curator.json");
    registry["roles"] = json!({
        "reviewer": replaying("reviewer-bot", "reviewer.json"),
        "adjudicator": judge_agent,
    });
    configure(dir.path(), registry);
    index(dir.path());
    // `.doc-bridge/` is never an input: the answers can be written after indexing.
    let ours = canonical(dir.path(), "docs/auth.md", "curator-bot");
    let theirs = canonical(dir.path(), "docs/core.md", "editor-bot");
    let state = dir.path().join(".doc-bridge");
    std::fs::write(
        state.join("curator.json"),
        json!({"proposals": [ours]}).to_string(),
    )
    .unwrap();
    std::fs::write(state.join("reviewer.json"), r#"{"proposals": []}"#).unwrap();
    let file = state.join("theirs.json");
    std::fs::write(&file, json!([theirs]).to_string()).unwrap();
    let out = run(
        dir.path(),
        &["enrich", "--from-file", file.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let (ours, theirs) = (
        ours["proposalId"].as_str().unwrap().to_owned(),
        theirs["proposalId"].as_str().unwrap().to_owned(),
    );
    (dir, ours, theirs)
}

fn enrich(root: &std::path::Path) -> Value {
    let out = run(root, &["enrich", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn overlay(root: &std::path::Path) -> Value {
    artifact(root, "enrich/overlay.json")
}

#[test]
fn the_adjudicator_settles_a_canonical_dispute_and_the_winner_waits_for_a_person() {
    let (dir, ours, theirs) = disputed(judge("judge-bot", "judge-bot"));
    std::fs::write(dir.path().join(".doc-bridge/winner"), &theirs).unwrap();
    let report = enrich(dir.path());
    assert_eq!(
        report["roles"],
        json!([
            "curator=curator-bot",
            "reviewer=reviewer-bot",
            "adjudicator=judge-bot"
        ])
    );
    assert_eq!(report["adjudication"]["disputes"], 1, "{report:#}");
    assert_eq!(report["adjudication"]["settled"], 1, "{report:#}");
    let stored = overlay(dir.path());
    let pending = stored["pending"].as_array().unwrap();
    let winner = pending
        .iter()
        .find(|e| e["proposal"]["proposalId"] == theirs.as_str())
        .expect("the winner stays pending");
    assert!(winner["note"].as_str().unwrap().starts_with("adjudicated"));
    assert!(
        !stored["accepted"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["proposal"]["kind"] == "mark-canonical"),
        "an adjudication never approves"
    );
    let loser = stored["rejected"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["proposalId"] == ours.as_str())
        .expect("the loser is rejected");
    assert_eq!(loser["reason"], "adjudicated");

    // The cache replays both roles' proposals: the settled dispute is not reopened.
    let before = std::fs::read(dir.path().join(".doc-bridge/enrich/overlay.json")).unwrap();
    let again = enrich(dir.path());
    assert_eq!(again["stage"]["agentCalls"], 0, "{again:#}");
    assert_eq!(again["adjudication"]["disputes"], 0, "{again:#}");
    let after = std::fs::read(dir.path().join(".doc-bridge/enrich/overlay.json")).unwrap();
    let hash =
        |bytes: &[u8]| serde_json::from_slice::<Value>(bytes).unwrap()["contentHash"].clone();
    assert_eq!(hash(&before), hash(&after));
    let calls = std::fs::read_to_string(dir.path().join(".doc-bridge/judge-calls")).unwrap();
    assert_eq!(calls.lines().count(), 1);

    // A person approves the winner: a judgment on a proposal by an identity no role names, which
    // counts as the curator's, and the stats say so.
    let out = run(dir.path(), &["enrich", "approve", &theirs, "--by", "Ada"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let record: Value = std::fs::read_dir(dir.path().join(".doc-bridge/approvals"))
        .unwrap()
        .flatten()
        .map(|e| serde_json::from_slice(&std::fs::read(e.path()).unwrap()).unwrap())
        .next()
        .unwrap();
    assert_eq!(record["role"], "curator");
    let out = run(dir.path(), &["enrich", "stats", "--json"]);
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        stats["rows"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["agent"] == "editor-bot"
                && r["role"] == "curator"
                && r["kind"] == "mark-canonical"
                && r["acceptedByPerson"] == 1),
        "{stats:#}"
    );
}

#[test]
fn an_adjudication_under_a_judged_proposals_identity_is_refused_as_self_adjudication() {
    // The adjudicator answers as if it were the curator.
    let (dir, ours, theirs) = disputed(judge("judge-bot", "curator-bot"));
    std::fs::write(dir.path().join(".doc-bridge/winner"), &ours).unwrap();
    let report = enrich(dir.path());
    assert_eq!(report["adjudication"]["settled"], 0, "{report:#}");
    assert_eq!(report["adjudication"]["refused"], 1, "{report:#}");
    let stored = overlay(dir.path());
    let rejected = stored["rejected"].as_array().unwrap();
    assert!(
        rejected
            .iter()
            .any(|e| e["kind"] == "adjudication" && e["reason"] == "self-adjudication"),
        "{rejected:#?}"
    );
    // Unsettled, the validators decide as without an adjudicator: both wait for a person, the
    // newcomer with the note `canonical-conflict`; nothing is rejected for it.
    assert!(!rejected.iter().any(|e| e["reason"] == "adjudicated"));
    assert!(!rejected.iter().any(|e| e["reason"] == "canonical-conflict"));
    let note = |id: &str| {
        stored["pending"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["proposal"]["proposalId"] == id)
            .map(|e| e["note"].clone())
    };
    assert_eq!(note(&ours), Some(json!("canonical-conflict")), "{stored:#}");
    assert_eq!(
        note(&theirs),
        Some(json!("awaiting approval")),
        "{stored:#}"
    );
}

#[test]
fn an_adjudicator_sharing_an_identity_with_another_role_is_refused() {
    let dir = fixture_copy("ts-workspace");
    let mut registry = json!({"agentId": "bot", "cli": {"command": "true"}});
    registry["roles"] = json!({"adjudicator": true});
    configure(dir.path(), registry.clone());
    index(dir.path());
    let out = run(dir.path(), &["enrich"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("adjudicator must be a different identity"),
        "{}",
        stderr(&out)
    );
    registry["roles"] = json!({"reviewer": {"agentId": "judge", "cli": {"command": "true"}},
        "adjudicator": {"agentId": "judge", "cli": {"command": "true"}}});
    configure(dir.path(), registry.clone());
    assert_eq!(code(&run(dir.path(), &["enrich"])), 2);
    registry["roles"] = json!({"critic": true});
    configure(dir.path(), registry);
    let out = run(dir.path(), &["enrich"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("unknown role `critic`"));
}

#[test]
fn the_reviewer_gets_packs_for_documents_and_areas_under_its_own_task() {
    let dir = fixture_copy("ts-workspace");
    let recorder = |agent: &str, file: &str| {
        json!({"agentId": agent, "cli": {"command": "sh", "args": ["-c",
            format!("cat >> .doc-bridge/{file}; echo >> .doc-bridge/{file}; echo '{{\"proposals\": []}}'")]}})
    };
    let mut registry = recorder("curator-bot", "curate.jsonl");
    registry["roles"] = json!({"reviewer": recorder("reviewer-bot", "review.jsonl")});
    configure(dir.path(), registry);
    index(dir.path());
    enrich(dir.path());
    let read = |file: &str| -> Vec<Value> {
        std::fs::read_to_string(dir.path().join(".doc-bridge").join(file))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (curate, review) = (read("curate.jsonl"), read("review.jsonl"));
    let kinds = |requests: &[Value]| -> std::collections::BTreeSet<String> {
        requests
            .iter()
            .flat_map(|r| r["packs"].as_array().unwrap().iter())
            .map(|p| p["target"]["kind"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(
        curate
            .iter()
            .all(|r| r["task"] == "curate" && r["role"] == "curator")
    );
    assert!(
        review
            .iter()
            .all(|r| r["task"] == "review" && r["role"] == "reviewer")
    );
    assert_eq!(kinds(&curate), ["document".to_owned()].into());
    assert_eq!(
        kinds(&review),
        ["area".to_owned(), "document".to_owned()].into()
    );
    let packs = |requests: &[Value]| -> usize {
        requests
            .iter()
            .map(|r| r["packs"].as_array().unwrap().len())
            .sum()
    };
    assert!(packs(&review) > packs(&curate));
}

/// A `rank-hint` proposal for `doc` by `agent`, grounded in the indexed snapshot.
fn rank_hint(root: &std::path::Path, doc: &str, agent: &str) -> Value {
    let snapshot = artifact(root, "snapshot.json");
    let entity = format!("document:{doc}");
    let target = snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == entity.as_str())
        .unwrap()["contentHash"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = proposal_id(
        ProposalKind::RankHint,
        &EntityId::from_raw(&entity),
        &target,
        agent,
        "1",
        Value::Null,
    );
    json!({"proposalId": id, "kind": "rank-hint", "entity": entity, "targetContentHash": target,
        "confidence": 0.9, "reason": "often asked for", "evidence": [{"source": "snapshot", "path": doc, "lines": [1, 1]}],
        "relatedDiagnosticIds": [], "origin": {"agentId": agent, "agentVersion": "1", "promptVersion": "1"},
        "baseSnapshotHash": snapshot["contentHash"], "payload": {"relevance": "strong"}})
}

fn rejected_as<'o>(overlay: &'o Value, id: &str) -> Option<&'o Value> {
    overlay["rejected"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["proposalId"] == id)
}

#[test]
fn each_role_proposes_only_its_kinds_and_a_file_is_not_scoped() {
    let dir = fixture_copy("ts-workspace");
    let mut registry = replaying("curator-bot", "curator.json");
    registry["roles"] = json!({"reviewer": replaying("reviewer-bot", "reviewer.json")});
    configure(dir.path(), registry);
    index(dir.path());
    // The curator answers a reviewer's kind and one of its own; the reviewer a curator's kind.
    let curator_hint = rank_hint(dir.path(), "docs/auth.md", "curator-bot");
    let curator_canonical = canonical(dir.path(), "docs/auth.md", "curator-bot");
    let reviewer_canonical = canonical(dir.path(), "docs/core.md", "reviewer-bot");
    let state = dir.path().join(".doc-bridge");
    std::fs::write(
        state.join("curator.json"),
        json!({"proposals": [curator_hint, curator_canonical]}).to_string(),
    )
    .unwrap();
    std::fs::write(
        state.join("reviewer.json"),
        json!({"proposals": [reviewer_canonical]}).to_string(),
    )
    .unwrap();
    let report = enrich(dir.path());
    assert_eq!(report["stage"]["outOfRole"], 2, "{report:#}");
    assert_eq!(report["rejectionReasons"]["out-of-role"], 2, "{report:#}");
    let stored = overlay(dir.path());
    let id = |p: &Value| p["proposalId"].as_str().unwrap().to_owned();
    let hint = rejected_as(&stored, &id(&curator_hint)).expect("the curator's rank-hint");
    assert_eq!(hint["reason"], "out-of-role");
    assert_eq!(hint["kind"], "rank-hint");
    assert_eq!(
        hint["detail"],
        "the curator proposes classify-document, summarize, add-alias, add-intent, \
         mark-canonical, flag-redundancy, flag-gap; not rank-hint"
    );
    let theirs = rejected_as(&stored, &id(&reviewer_canonical)).expect("the reviewer's marker");
    assert_eq!(theirs["reason"], "out-of-role");
    // The curator's own kind stands, with no rival: no conflict, just a person to wait for.
    let pending = stored["pending"].as_array().unwrap();
    assert_eq!(pending.len(), 1, "{pending:#?}");
    assert_eq!(pending[0]["proposal"]["proposalId"], id(&curator_canonical));
    assert_eq!(pending[0]["note"], "awaiting approval");

    // The same rank-hint from a file has no role and is decided by the validators alone.
    let from_file = rank_hint(dir.path(), "docs/core.md", "curator-bot");
    let file = state.join("hint.json");
    std::fs::write(&file, json!([from_file]).to_string()).unwrap();
    let out = run(
        dir.path(),
        &["enrich", "--from-file", file.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let stored = overlay(dir.path());
    assert!(
        stored["accepted"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["proposal"]["proposalId"] == id(&from_file)),
        "{stored:#}"
    );
}

#[test]
fn the_adjudicator_proposes_nothing() {
    // An adjudicator that answers a proposal instead of a verdict.
    let (dir, _, _) = disputed(replaying("judge-bot", "judge.json"));
    let proposal = rank_hint(dir.path(), "docs/auth.md", "judge-bot");
    std::fs::write(
        dir.path().join(".doc-bridge/judge.json"),
        json!({"proposals": [proposal]}).to_string(),
    )
    .unwrap();
    let report = enrich(dir.path());
    assert_eq!(report["adjudication"]["disputes"], 1, "{report:#}");
    assert_eq!(report["adjudication"]["settled"], 0, "{report:#}");
    assert_eq!(report["adjudication"]["outOfRole"], 1, "{report:#}");
    let stored = overlay(dir.path());
    let rejected = rejected_as(&stored, proposal["proposalId"].as_str().unwrap())
        .expect("the adjudicator's proposal is recorded");
    assert_eq!(rejected["reason"], "out-of-role");
    assert_eq!(
        rejected["detail"],
        "the adjudicator proposes nothing; it answers adjudications only, not rank-hint"
    );
    assert!(
        !stored["accepted"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["proposal"]["kind"] == "rank-hint")
    );
}
