//! Feedback examples (the ingestion notes, "Retrieval and provider boundaries"): lowercase
//! Unicode word-set Jaccard similarity of at least 0.2, ties by the immutable record id, and a
//! byte budget that fails closed: an example that does not fit is not sent, and is counted.
#![allow(clippy::unwrap_used)]

mod common;

use std::sync::Mutex;

use common::*;
use doc_bridge_enrich::agent::{Agent, AgentFailure, AgentIdentity, AgentRequest, RequestItem};
use doc_bridge_enrich::feedback::{
    MAX_EXAMPLE_BYTES, MIN_SIMILARITY, examples_for, judgment_text, pack_text, similarity,
};
use doc_bridge_enrich::pack::{ContextPack, build_pack};
use doc_bridge_enrich::stage::{AnswerCache, StageSettings, run_stage};
use doc_bridge_model::approval::{ApprovalDecision, ApprovalRecord};
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_model::{ContentHash, EntityId};
use serde_json::Value;

fn pack(snap: &Snapshot, id: &str) -> ContextPack {
    build_pack(snap, &EntityId::from_raw(id), 64 * 1024, &|_| None).unwrap()
}

fn judgment(snap: &Snapshot, id: &str, entity: &str, reason: &str) -> ApprovalRecord {
    ApprovalRecord {
        approval_id: id.to_owned(),
        proposal_id: "p".repeat(64),
        target_content_hash: entity_of(snap, entity),
        decision: ApprovalDecision::Approved,
        by: "Ada".into(),
        reason: Some(reason.to_owned()),
        decided_at: "2026-09-14T00:00:00.000Z".into(),
        kind: "summarize".into(),
        entity: entity.to_owned(),
        agent_id: "curator".into(),
        role: "curator".into(),
        payload: None,
    }
}

fn entity_of(snap: &Snapshot, id: &str) -> String {
    snap.entities
        .iter()
        .find(|e| e.id().as_str() == id)
        .unwrap()
        .content_hash()
        .to_string()
}

fn ids(examples: &[Value]) -> Vec<&str> {
    examples.iter().map(|e| e["id"].as_str().unwrap()).collect()
}

#[test]
fn similarity_is_the_jaccard_of_lowercase_unicode_word_sets() {
    assert_eq!(MIN_SIMILARITY, 0.2);
    // A set: repeats and case do not count, in any script.
    assert_eq!(similarity("Auth guide", "auth GUIDE guide auth"), 1.0);
    assert_eq!(similarity("ÄRGER über Straße", "ärger ÜBER straße"), 1.0);
    assert_eq!(similarity("Ошибка входа", "ошибка ВХОДА"), 1.0);
    // Every word counts, however short: {go, db} of {go, db, x}.
    assert!((similarity("go db", "go-db x") - 2.0 / 3.0).abs() < 1e-12);
    // Punctuation separates words; a combining mark stays with its letter.
    assert_eq!(similarity("docs/auth.md", "docs auth md"), 1.0);
    assert_eq!(similarity("cafe\u{301}", "cafe"), 0.0);
    assert_eq!(similarity("", ""), 0.0);
}

#[test]
fn a_judgment_is_offered_exactly_from_a_similarity_of_0_2() {
    let snap = snapshot();
    let auth = pack(&snap, AUTH);
    let words: Vec<String> = doc_bridge_enrich::feedback::words(&pack_text(&auth))
        .into_iter()
        .collect();
    // Unrelated words added one by one lower the similarity step by step across the threshold.
    let mut below_threshold_seen = false;
    for filler in 0..200 {
        let reason = format!(
            "{} {}",
            words.join(" "),
            (0..filler)
                .map(|i| format!("zz{i}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let record = judgment(&snap, "a1", AUTH, &reason);
        let score = similarity(&pack_text(&auth), &judgment_text(&record));
        let offered = !examples_for(&auth, &[record], &snap, "curator").is_empty();
        assert_eq!(offered, score >= 0.2, "{filler} fillers: {score}");
        below_threshold_seen |= (0.1..0.2).contains(&score);
        if score < 0.1 {
            break;
        }
    }
    assert!(below_threshold_seen, "a similarity in [0.1, 0.2) was tried");
}

#[test]
fn equally_similar_judgments_are_ordered_by_record_id() {
    let snap = snapshot();
    let auth = pack(&snap, AUTH);
    let text = pack_text(&auth);
    let records = ["c3", "a1", "d4", "b2"].map(|id| judgment(&snap, id, AUTH, &text));
    for order in [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2]] {
        let given: Vec<ApprovalRecord> = order.iter().map(|&i| records[i].clone()).collect();
        assert_eq!(
            ids(&examples_for(&auth, &given, &snap, "curator")),
            ["a1", "b2", "c3"]
        );
    }
}

/// Records the examples of every request, by the first pack's target.
struct Recorder(Mutex<Vec<(String, Vec<Value>)>>);

impl Agent for Recorder {
    fn identity(&self) -> AgentIdentity {
        AgentIdentity {
            agent_id: "curator".into(),
            agent_version: "0.1.0".into(),
        }
    }

    fn call(&self, request: &AgentRequest) -> Result<Vec<Value>, AgentFailure> {
        let target = match request.packs.first() {
            Some(RequestItem::Pack(pack)) => pack.target.id.to_string(),
            _ => String::new(),
        };
        self.0
            .lock()
            .unwrap()
            .push((target, request.examples.clone()));
        Ok(Vec::new())
    }
}

struct NoCache;

impl AnswerCache for NoCache {
    fn get(&self, _: &ContentHash) -> Option<Vec<Value>> {
        None
    }

    fn put(&mut self, _: &ContentHash, _: &[Value]) {}
}

#[test]
fn an_example_that_does_not_fit_is_not_sent_and_is_counted() {
    let snap = snapshot();
    let text = pack_text(&pack(&snap, AUTH));
    // Three judgments with one word set; the first by id is far over the byte budget (its words
    // repeated, which changes nothing of its similarity).
    let judgments = vec![
        judgment(&snap, "a1", AUTH, &vec![text.as_str(); 400].join(" ")),
        judgment(&snap, "b2", AUTH, &text),
        judgment(&snap, "c3", AUTH, &text),
    ];
    let agent = Recorder(Mutex::new(Vec::new()));
    let settings = StageSettings {
        task: "curate".into(),
        role: "curator".into(),
        prompt_version: "1".into(),
        max_pack_bytes: 64 * 1024,
        capture_failed_bytes: None,
        batch_size: 1,
    };
    let outcome = run_stage(
        &snap,
        &agent,
        &settings,
        &mut NoCache,
        &|_| None,
        &judgments,
        &|| {},
    );
    let requests = agent.0.lock().unwrap();
    let auth = &requests.iter().find(|(t, _)| t == AUTH).unwrap().1;
    // Not cut, not sent, and the smaller ones after it still are.
    assert_eq!(ids(auth), ["b2", "c3"]);
    for (_, examples) in requests.iter() {
        assert!(serde_json::to_string(examples).unwrap().len() <= MAX_EXAMPLE_BYTES);
        assert!(!ids(examples).contains(&"a1"));
    }
    // Every request that was offered these judgments left the large one out, and says so.
    let offered = requests
        .iter()
        .filter(|(_, e)| ids(e).contains(&"b2"))
        .count();
    assert!(offered >= 1);
    assert_eq!(outcome.examples_dropped, offered);
    assert_eq!(outcome.examples, 2 * offered);
}
