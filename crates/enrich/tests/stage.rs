//! The stage with secrets in ids and paths: packs show stable placeholders, answers about them are
//! restored to the real entities before anything is decided, and the answer cache never holds a
//! secret, while a replayed answer decides exactly as the fresh one did.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;
use std::sync::Mutex;

use common::*;
use doc_bridge_enrich::agent::{Agent, AgentFailure, AgentIdentity, AgentRequest, RequestItem};
use doc_bridge_enrich::pack::build_pack;
use doc_bridge_enrich::redact::{contains_secret, placeholder};
use doc_bridge_enrich::stage::{AnswerCache, StageOutcome, StageSettings, run_stage};
use doc_bridge_enrich::{Context, Decision, decide_batch};
use doc_bridge_model::hash::semantic_hash;
use doc_bridge_model::snapshot::{
    Entity, Evidence, Provenance, Relation, RelationKind, SNAPSHOT_HASH_EXCLUDED, Snapshot,
};
use doc_bridge_model::{ContentHash, EntityId, RelPath};
use serde_json::{Value, json};

const AWS: &str = "AKIAIOSFODNN7EXAMPLE";
const GITHUB: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB";

fn secret_doc() -> String {
    format!("document:docs/{AWS}.md")
}

fn token_dir_doc() -> String {
    format!("document:notes/{GITHUB}/readme.md")
}

/// The fixture plus `docs/AKIA….md` (linked from the auth guide) and `notes/ghp_…/readme.md`.
fn snapshot_with_secret_names() -> Snapshot {
    let mut snapshot = snapshot();
    let auth = snapshot
        .entities
        .iter()
        .find_map(|e| match e {
            Entity::Document(d) if d.id.as_str() == AUTH => Some(d.clone()),
            _ => None,
        })
        .unwrap();
    for (path, seed) in [
        (format!("docs/{AWS}.md"), "aws"),
        (format!("notes/{GITHUB}/readme.md"), "github"),
    ] {
        let path = p(&path);
        let mut doc = auth.clone();
        doc.id = EntityId::document(&path);
        doc.path = path.clone();
        doc.content_hash = h(seed);
        doc.title = format!("Keys {seed}");
        doc.front_matter = BTreeMap::new();
        snapshot.entities.push(Entity::Document(doc));
        let mut file = snapshot.files[0].clone();
        file.path = path;
        file.content_hash = h(seed);
        file.lines = Some(40);
        snapshot.files.push(file);
    }
    snapshot.files.sort_by(|a, b| a.path.cmp(&b.path));
    snapshot.relations.push(Relation {
        from: EntityId::from_raw(AUTH),
        to: EntityId::from_raw(secret_doc()),
        kind: RelationKind::LinksTo,
        provenance: Provenance::Observed,
        evidence: Evidence {
            path: p("docs/auth.md"),
            lines: [1, 1],
        },
        via: None,
    });
    snapshot.content_hash = semantic_hash(&snapshot, SNAPSHOT_HASH_EXCLUDED).unwrap();
    snapshot
}

/// Every string in a JSON value.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
        Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                strings(v, out);
            }
        }
        _ => {}
    }
}

fn assert_no_secret(value: &Value) {
    let mut all = Vec::new();
    strings(value, &mut all);
    for s in all {
        assert!(!contains_secret(&s), "{s}");
        assert!(!s.contains(AWS) && !s.contains(GITHUB), "{s}");
    }
}

#[test]
fn a_secret_in_a_file_or_directory_name_never_reaches_the_pack_and_the_placeholder_is_stable() {
    let snapshot = snapshot_with_secret_names();
    let read = |_: &RelPath| None;
    for target in [secret_doc(), token_dir_doc(), AUTH.to_owned()] {
        let pack = build_pack(&snapshot, &EntityId::from_raw(&target), 64 * 1024, &read).unwrap();
        assert_no_secret(&serde_json::to_value(&pack).unwrap());
        // The same id gives the same placeholder in every build (and so in every run).
        let again = build_pack(&snapshot, &EntityId::from_raw(&target), 64 * 1024, &read).unwrap();
        assert_eq!(again, pack);
        let shown = serde_json::to_string(&pack).unwrap();
        assert_eq!(
            pack.restorations.restore(&shown).contains(AWS),
            target != token_dir_doc()
        );
    }
    let pack = build_pack(
        &snapshot,
        &EntityId::from_raw(secret_doc()),
        64 * 1024,
        &read,
    )
    .unwrap();
    let shown = format!("document:docs/{}.md", placeholder(AWS));
    assert_eq!(pack.target.id.as_str(), shown);
    assert_eq!(
        pack.target.path.as_str(),
        format!("docs/{}.md", placeholder(AWS))
    );
    assert_eq!(pack.target.evidence[0].path, pack.target.path);
    assert_eq!(pack.restorations.restore(&shown), secret_doc());
    // The auth guide's pack shows its neighbour with the same placeholder.
    let auth = build_pack(&snapshot, &EntityId::from_raw(AUTH), 64 * 1024, &read).unwrap();
    assert!(
        auth.neighbours.iter().any(|n| n.id.as_str() == shown),
        "{auth:?}"
    );
    let dir = build_pack(
        &snapshot,
        &EntityId::from_raw(token_dir_doc()),
        64 * 1024,
        &read,
    )
    .unwrap();
    assert_eq!(
        dir.target.path.as_str(),
        format!("notes/{}/readme.md", placeholder(GITHUB))
    );
}

/// An agent that proposes an intent about every pack it is shown, naming the ids and paths it
/// was shown, its proposal id computed over what it was shown; `reason` is its free text.
struct Echo {
    reason: String,
    calls: Mutex<usize>,
    seen: Mutex<Vec<String>>,
}

impl Echo {
    fn new(reason: &str) -> Self {
        Echo {
            reason: reason.to_owned(),
            calls: Mutex::new(0),
            seen: Mutex::new(Vec::new()),
        }
    }
}

impl Agent for Echo {
    fn identity(&self) -> AgentIdentity {
        AgentIdentity {
            agent_id: "curator".into(),
            agent_version: "0.1.0".into(),
        }
    }

    fn call(&self, request: &AgentRequest) -> Result<Vec<Value>, AgentFailure> {
        *self.calls.lock().unwrap() += 1;
        self.seen
            .lock()
            .unwrap()
            .push(serde_json::to_string(request).unwrap());
        let mut answer = Vec::new();
        for item in &request.packs {
            let RequestItem::Pack(pack) = item else {
                continue;
            };
            let target = &pack.target;
            answer.push(reid(json!({
                "proposalId": "0".repeat(64),
                "kind": "add-intent",
                "entity": target.id,
                "targetContentHash": target.content_hash,
                "confidence": 0.8,
                "reason": self.reason,
                "evidence": [{"source": "snapshot", "path": target.evidence[0].path, "lines": [1, 3]}],
                "relatedDiagnosticIds": [],
                "origin": {"agentId": "curator", "agentVersion": "0.1.0", "promptVersion": "1"},
                "baseSnapshotHash": request.base_snapshot_hash,
                "payload": {"phrase": format!("how do I use {}", target.name), "language": "en"},
            })));
        }
        Ok(answer)
    }
}

#[derive(Default)]
struct MemoryCache(BTreeMap<String, Vec<Value>>);

impl AnswerCache for MemoryCache {
    fn get(&self, key: &ContentHash) -> Option<Vec<Value>> {
        self.0.get(key.as_str()).cloned()
    }

    fn put(&mut self, key: &ContentHash, proposals: &[Value]) {
        self.0.insert(key.as_str().to_owned(), proposals.to_vec());
    }
}

fn settings(batch_size: usize) -> StageSettings {
    StageSettings {
        task: "curate".into(),
        role: "curator".into(),
        prompt_version: "1".into(),
        max_pack_bytes: 64 * 1024,
        capture_failed_bytes: None,
        batch_size,
    }
}

fn stage(snapshot: &Snapshot, agent: &Echo, cache: &mut MemoryCache, batch: usize) -> StageOutcome {
    run_stage(
        snapshot,
        agent,
        &settings(batch),
        cache,
        &|_| None,
        &[],
        &|| {},
    )
}

/// (proposal id, entity, accepted/pending/rejected reason) per decision.
fn decided(snapshot: &Snapshot, proposals: &[Value]) -> Vec<(String, String, String)> {
    decide_batch(proposals.to_vec(), &Context::new(snapshot))
        .into_iter()
        .map(|d| match d {
            Decision::Accepted(p) => (p.proposal_id, p.entity.to_string(), "accepted".into()),
            Decision::Pending(p, _) => (p.proposal_id, p.entity.to_string(), "pending".into()),
            Decision::Rejected {
                proposal_id,
                entity,
                reason,
                ..
            } => (proposal_id, entity, format!("{reason:?}")),
        })
        .collect()
}

#[test]
fn answers_about_secret_named_entities_are_restored_validated_and_replayed_the_same() {
    let snapshot = snapshot_with_secret_names();
    for batch in [1, 8] {
        let agent = Echo::new("the document says so");
        let mut cache = MemoryCache::default();
        let fresh = stage(&snapshot, &agent, &mut cache, batch);
        assert_eq!(fresh.off_pack, 0, "{fresh:?}");
        assert!(fresh.failures.is_empty());
        // The agent never saw a secret, and the cache holds none.
        for request in agent.seen.lock().unwrap().iter() {
            assert!(
                !request.contains(AWS) && !request.contains(GITHUB),
                "{request}"
            );
        }
        for answer in cache.0.values() {
            assert_no_secret(&Value::Array(answer.clone()));
        }
        // The proposals name the real entities and pass every validator.
        let decisions = decided(&snapshot, &fresh.proposals);
        for id in [secret_doc(), token_dir_doc()] {
            assert!(
                decisions
                    .iter()
                    .any(|(_, e, d)| *e == id && d == "accepted"),
                "{decisions:?}"
            );
        }
        assert!(
            decisions.iter().all(|(_, _, d)| d == "accepted"),
            "{decisions:?}"
        );

        // Replayed from the cache: no call, the same proposals, the same decisions.
        let calls = *agent.calls.lock().unwrap();
        let replay = stage(&snapshot, &agent, &mut cache, batch);
        assert_eq!(*agent.calls.lock().unwrap(), calls);
        assert_eq!(replay.cache_hits, fresh.packs);
        assert_eq!(replay.proposals, fresh.proposals);
        assert_eq!(decided(&snapshot, &replay.proposals), decisions);
    }
}

#[test]
fn without_any_secret_the_cache_holds_the_answer_exactly_and_a_replay_decides_the_same() {
    let snapshot = snapshot();
    let agent = Echo::new("the document says so");
    let mut cache = MemoryCache::default();
    let fresh = stage(&snapshot, &agent, &mut cache, 1);
    let cached: Vec<Value> = cache.0.values().flatten().cloned().collect();
    let mut sorted_fresh = fresh.proposals.clone();
    let mut sorted_cached = cached.clone();
    let key = |v: &Value| v["proposalId"].as_str().unwrap().to_owned();
    sorted_fresh.sort_by_key(key);
    sorted_cached.sort_by_key(key);
    assert_eq!(sorted_cached, sorted_fresh);
    let replay = stage(&snapshot, &agent, &mut cache, 1);
    assert_eq!(replay.proposals, fresh.proposals);
    assert_eq!(
        decided(&snapshot, &replay.proposals),
        decided(&snapshot, &fresh.proposals)
    );
}

#[test]
fn a_secret_an_agent_echoes_never_reaches_the_cache() {
    let snapshot = snapshot_with_secret_names();
    let echoed =
        format!("key {AWS}, token {GITHUB}, password=hunter2hunter2 https://a:b@c.example");
    let agent = Echo::new(&echoed);
    let mut cache = MemoryCache::default();
    let fresh = stage(&snapshot, &agent, &mut cache, 4);
    assert!(!cache.0.is_empty());
    for answer in cache.0.values() {
        let text = serde_json::to_string(answer).unwrap();
        assert_no_secret(&Value::Array(answer.clone()));
        assert!(
            !text.contains("hunter2") && !text.contains("a:b@"),
            "{text}"
        );
    }
    // The fresh answer still meets the validators unredacted: a secret in the reason is refused.
    let decisions = decided(&snapshot, &fresh.proposals);
    assert!(!decisions.is_empty());
    assert!(
        decisions.iter().all(|(_, _, d)| d == "Redaction"),
        "{decisions:?}"
    );
}
