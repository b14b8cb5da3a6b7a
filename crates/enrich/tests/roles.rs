//! Each role proposes only the kinds the seed's Roles table gives it (enrichment-overlay-v1,
//! "Roles"): the stage rejects the rest as `out-of-role` before any validator sees them.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeMap;

use common::*;
use doc_bridge_enrich::agent::{Agent, AgentFailure, AgentIdentity, AgentRequest, RequestItem};
use doc_bridge_enrich::stage::{AnswerCache, Role, StageSettings, run_stage};
use doc_bridge_model::ContentHash;
use doc_bridge_model::enrichment::{ProposalKind, RejectionReason};
use serde_json::{Value, json};

#[test]
fn the_roles_kinds_are_the_seeds_table() {
    let names = |role: Role| -> Vec<&str> { role.kinds().iter().map(|k| k.as_str()).collect() };
    assert_eq!(
        names(Role::Curator),
        [
            "classify-document",
            "summarize",
            "add-alias",
            "add-intent",
            "mark-canonical",
            "flag-redundancy",
            "flag-gap"
        ]
    );
    assert_eq!(
        names(Role::Reviewer),
        [
            "propose-relation",
            "flag-contradiction",
            "flag-gap",
            "rank-hint",
            "suggest-area"
        ]
    );
    assert!(names(Role::Adjudicator).is_empty());
    // Every kind has a role that may propose it.
    for kind in ProposalKind::ALL {
        assert!(Role::Curator.proposes(kind) || Role::Reviewer.proposes(kind));
    }
}

/// Answers, for every pack, a summary and a rank hint about its target.
struct Both;

impl Agent for Both {
    fn identity(&self) -> AgentIdentity {
        AgentIdentity {
            agent_id: "curator".into(),
            agent_version: "0.1.0".into(),
        }
    }

    fn call(&self, request: &AgentRequest) -> Result<Vec<Value>, AgentFailure> {
        let snap = snapshot();
        let mut answer = Vec::new();
        for item in &request.packs {
            if let RequestItem::Pack(pack) = item {
                let id = pack.target.id.as_str();
                answer.push(proposal(
                    &snap,
                    "summarize",
                    id,
                    json!({"summary": "What the runbook covers.", "language": "en"}),
                ));
                answer.push(proposal(
                    &snap,
                    "rank-hint",
                    id,
                    json!({"relevance": "weak"}),
                ));
            }
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

fn run(role: Role, cache: &mut MemoryCache) -> doc_bridge_enrich::stage::StageOutcome {
    let settings = StageSettings {
        task: role.task().into(),
        role: role.as_str().into(),
        prompt_version: "1".into(),
        max_pack_bytes: 64 * 1024,
        capture_failed_bytes: None,
        batch_size: 8,
    };
    run_stage(&snapshot(), &Both, &settings, cache, &|_| None, &[], &|| {})
}

fn kinds(proposals: &[Value]) -> Vec<&str> {
    let mut kinds: Vec<&str> = proposals
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds
}

#[test]
fn a_kind_outside_the_role_is_rejected_out_of_role_fresh_or_replayed() {
    for role in [Role::Curator, Role::Reviewer] {
        let mut cache = MemoryCache::default();
        let fresh = run(role, &mut cache);
        let (kept, refused) = match role {
            Role::Curator => ("summarize", "rank-hint"),
            _ => ("rank-hint", "summarize"),
        };
        assert!(fresh.packs > 0);
        assert_eq!(kinds(&fresh.proposals), [kept], "{fresh:#?}");
        assert_eq!(fresh.out_of_role.len(), fresh.packs);
        for entry in &fresh.out_of_role {
            assert_eq!(entry.reason, RejectionReason::OutOfRole);
            assert_eq!(entry.kind, refused);
            assert!(entry.detail.contains(role.as_str()), "{}", entry.detail);
            assert!(entry.detail.ends_with(&format!("not {refused}")));
        }
        // The cache keeps what the agent said; the replay is scoped the same way.
        let replay = run(role, &mut cache);
        assert_eq!(replay.cache_hits, fresh.packs);
        assert_eq!(replay.proposals, fresh.proposals);
        assert_eq!(replay.out_of_role, fresh.out_of_role);
    }
}
