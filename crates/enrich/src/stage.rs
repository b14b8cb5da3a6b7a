//! The enrich stage (enrichment-overlay-v1, "The stage", steps 1–2): one context pack per target
//! entity, answered from the cache or the agent. Deciding and merging are the caller's next steps.
//!
//! Each pack is its own call for now (the seed batches packs by area; one pack per call keeps the
//! cache exact: every cached answer belongs to exactly one pack).

use doc_bridge_model::snapshot::{Entity, Snapshot};
use doc_bridge_model::{ContentHash, EntityId, RelPath};

use doc_bridge_model::approval::ApprovalRecord;

use crate::agent::{Agent, AgentRequest};
use crate::feedback::examples_for;
use crate::pack::{build_pack, cache_key};

/// Where answers are kept (`.doc-bridge/enrich/cache/<key>.json` in the CLI): what the agent said
/// for a pack, including nothing.
pub trait AnswerCache {
    /// The cached answer for `key`; `None` on a miss or an unreadable entry.
    fn get(&self, key: &ContentHash) -> Option<Vec<serde_json::Value>>;
    /// Stores an answer.
    fn put(&mut self, key: &ContentHash, proposals: &[serde_json::Value]);
}

/// Stage settings.
#[derive(Debug, Clone)]
pub struct StageSettings {
    /// `curate`.
    pub task: String,
    /// `curator`.
    pub role: String,
    /// The prompt version.
    pub prompt_version: String,
    /// The pack budget.
    pub max_pack_bytes: usize,
}

/// What the stage did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StageOutcome {
    /// Every proposal gathered (raw, undecided), in pack order.
    pub proposals: Vec<serde_json::Value>,
    /// Packs built.
    pub packs: usize,
    /// Agent calls made.
    pub calls: usize,
    /// Answers replayed from the cache.
    pub cache_hits: usize,
    /// Proposals dropped for naming an entity outside their pack.
    pub off_pack: usize,
    /// Failed calls: the pack's target and a value-free reason.
    pub failures: Vec<(EntityId, String)>,
    /// Past judgments offered as examples, summed over calls.
    pub examples: usize,
}

/// Runs the curator over every document.
pub fn run_stage(
    snapshot: &Snapshot,
    agent: &dyn Agent,
    settings: &StageSettings,
    cache: &mut dyn AnswerCache,
    read: &dyn Fn(&RelPath) -> Option<Vec<u8>>,
    judgments: &[ApprovalRecord],
) -> StageOutcome {
    let identity = agent.identity();
    let mut outcome = StageOutcome::default();
    let targets: Vec<&EntityId> = snapshot
        .entities
        .iter()
        .filter(|e| matches!(e, Entity::Document(_)))
        .map(Entity::id)
        .collect();
    for target in targets {
        let Some(pack) = build_pack(snapshot, target, settings.max_pack_bytes, read) else {
            continue;
        };
        outcome.packs += 1;
        let key = cache_key(
            &settings.task,
            &identity.agent_id,
            &identity.agent_version,
            &settings.prompt_version,
            &pack.pack_hash,
        );
        let answer = match cache.get(&key) {
            Some(answer) => {
                outcome.cache_hits += 1;
                answer
            }
            None => {
                outcome.calls += 1;
                // Examples count inside the pack budget.
                let room = settings.max_pack_bytes.saturating_sub(pack.budget.bytes);
                let examples = examples_for(&pack, judgments, snapshot, &settings.role, room);
                outcome.examples += examples.len();
                let mut request = AgentRequest::new(
                    &settings.task,
                    &settings.role,
                    &settings.prompt_version,
                    identity.clone(),
                    snapshot.content_hash.as_str(),
                    vec![pack],
                );
                request.examples = examples;
                match agent.call(&request) {
                    Ok(answer) => {
                        cache.put(&key, &answer);
                        answer
                    }
                    Err(failure) => {
                        outcome.failures.push((target.clone(), failure.reason()));
                        continue;
                    }
                }
            }
        };
        for proposal in answer {
            if proposal.get("entity").and_then(|e| e.as_str()) == Some(target.as_str()) {
                outcome.proposals.push(proposal);
            } else {
                outcome.off_pack += 1;
            }
        }
    }
    outcome
}
