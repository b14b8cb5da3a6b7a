//! The enrich stage (enrichment-overlay-v1, "The stage", steps 1–2): one context pack per target
//! entity, answered from the cache or the agent. Deciding and merging are the caller's next steps.
//!
//! Packs that miss the cache are batched by area (at most `batch_size` per call); each answer is
//! split back by target and cached per pack, so every cached answer still belongs to exactly one
//! pack. Calls run with at most [`Agent::max_in_flight`] in flight; answers are cached and
//! collected in target order, so the outcome never depends on which call finished first.
//!
//! A pack shows secret-bearing ids and paths as stable placeholders
//! ([`crate::redact::Restorations`]); the answer is split by the ids the agent was shown (or the
//! real ones), cached as the agent wrote it with every string redacted ([`cached_form`]), and
//! restored to the real ids before anything is decided ([`restore_answer`]), fresh or replayed
//! alike.

use doc_bridge_model::snapshot::{Entity, Snapshot};
use doc_bridge_model::{ContentHash, EntityId, RelPath};

use doc_bridge_model::approval::ApprovalRecord;
use doc_bridge_model::enrichment::{
    EnrichmentProposalV1, ProposalKind, RejectedEntry, RejectionReason,
};

use crate::adjudicate::Dispute;
use crate::agent::{Agent, AgentFailure, AgentRequest, RawFailure, RequestItem};
use crate::decision::Decision;
use crate::feedback::{examples_for, fit};
use crate::pack::{build_pack, cache_key};
use crate::redact::{Restorations, map_strings};

/// Where answers are kept (`.doc-bridge/enrich/cache/<key>.json` in the CLI): what the agent said
/// for a pack, including nothing. The stage only ever stores redacted answers
/// ([`cached_form`]), so a secret an agent echoes never reaches the cache.
pub trait AnswerCache {
    /// The cached answer for `key`; `None` on a miss or an unreadable entry.
    fn get(&self, key: &ContentHash) -> Option<Vec<serde_json::Value>>;
    /// Stores an answer.
    fn put(&mut self, key: &ContentHash, proposals: &[serde_json::Value]);
}

/// The roles (enrichment-overlay-v1, "Roles"): what each is asked, about which entities, and
/// which kinds it may propose ([`Role::proposes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    /// `curate` documents: classification, summaries, aliases, intents, canonical markers,
    /// redundancy, gaps.
    Curator,
    /// `review` documents and areas: relations, contradictions, gaps, rank hints, areas.
    Reviewer,
    /// `adjudicate` disputes: canonical conflicts and disputed contradictions only. It proposes
    /// nothing.
    Adjudicator,
}

/// The role `agent_id` played when it proposed a `kind`: the configured role
/// (`intelligence.registry.roles`, the registry's own agent being the curator unless switched off)
/// whose identity it is; when one identity plays several roles, the role the kind is for; an
/// identity the configuration does not name (proposals from a file) counts as the curator.
pub fn role_for(
    config: &doc_bridge_model::config::Config,
    agent_id: &str,
    kind: &str,
) -> &'static str {
    let registry = config.intelligence.as_ref().and_then(|i| i.get("registry"));
    let default_agent = registry
        .and_then(|r| r.get("agentId"))
        .and_then(serde_json::Value::as_str);
    let roles = registry.and_then(|r| r.get("roles"));
    let plays = |role: &str| -> bool {
        let setting = roles.and_then(|r| r.get(role));
        let agent = match setting {
            None if role == "curator" => default_agent,
            Some(serde_json::Value::Bool(true)) => default_agent,
            Some(serde_json::Value::Object(agent)) => {
                agent.get("agentId").and_then(serde_json::Value::as_str)
            }
            _ => None,
        };
        agent == Some(agent_id)
    };
    // Kinds only the reviewer is for (`flag-gap`, which both may make, counts as the curator's).
    let reviewer_kind = ProposalKind::parse(kind).is_some_and(|k| roles_for(k) == [Role::Reviewer]);
    match (plays("curator"), plays("reviewer"), plays("adjudicator")) {
        (_, true, _) if reviewer_kind => "reviewer",
        (false, true, _) => "reviewer",
        (false, false, true) => "adjudicator",
        _ => "curator",
    }
}

/// The roles that may propose `kind` (enrichment-overlay-v1, "Roles", "Kinds it is for"). No
/// wildcard: a new kind must be given its roles here. The adjudicator is never one of them.
pub fn roles_for(kind: ProposalKind) -> &'static [Role] {
    match kind {
        ProposalKind::ClassifyDocument
        | ProposalKind::Summarize
        | ProposalKind::AddAlias
        | ProposalKind::AddIntent
        | ProposalKind::MarkCanonical
        | ProposalKind::FlagRedundancy => &[Role::Curator],
        ProposalKind::FlagGap => &[Role::Curator, Role::Reviewer],
        ProposalKind::ProposeRelation
        | ProposalKind::FlagContradiction
        | ProposalKind::RankHint
        | ProposalKind::SuggestArea => &[Role::Reviewer],
    }
}

impl Role {
    /// Every role, in the order the stage runs them.
    pub const ALL: [Role; 3] = [Role::Curator, Role::Reviewer, Role::Adjudicator];

    /// `curator`, `reviewer`, `adjudicator`.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Curator => "curator",
            Role::Reviewer => "reviewer",
            Role::Adjudicator => "adjudicator",
        }
    }

    /// The role named `name`.
    pub fn parse(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == name)
    }

    /// `curate`, `review`, `adjudicate`.
    pub fn task(self) -> &'static str {
        match self {
            Role::Curator => "curate",
            Role::Reviewer => "review",
            Role::Adjudicator => "adjudicate",
        }
    }

    /// Whether the role may propose `kind` ([`roles_for`]).
    pub fn proposes(self, kind: ProposalKind) -> bool {
        roles_for(kind).contains(&self)
    }

    /// The kinds the role may propose, in [`ProposalKind::ALL`] order.
    pub fn kinds(self) -> Vec<ProposalKind> {
        ProposalKind::ALL
            .into_iter()
            .filter(|kind| self.proposes(*kind))
            .collect()
    }

    /// Whether the role gets one pack per `entity` (the adjudicator gets disputes instead).
    pub fn targets(self, entity: &Entity) -> bool {
        match self {
            Role::Curator => matches!(entity, Entity::Document(_)),
            Role::Reviewer => matches!(entity, Entity::Document(_) | Entity::Area(_)),
            Role::Adjudicator => false,
        }
    }
}

/// Stage settings.
#[derive(Debug, Clone)]
pub struct StageSettings {
    /// `curate`, `review` or `adjudicate` (see [`Role::task`]).
    pub task: String,
    /// `curator`, `reviewer` or `adjudicator`.
    pub role: String,
    /// The prompt version.
    pub prompt_version: String,
    /// The pack budget.
    pub max_pack_bytes: usize,
    /// Keep a failed call's raw answer, redacted and cut to this many bytes (`None`: never; the
    /// default).
    pub capture_failed_bytes: Option<usize>,
    /// Most packs of one area per call (1: every pack is its own call).
    pub batch_size: usize,
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
    /// Examples chosen for a call's packs that it did not carry: no room left for them in the
    /// byte budget (or past the most examples per call). Never cut, never sent in part
    /// ([`crate::feedback::fit`]).
    pub examples_dropped: usize,
    /// Failed answers kept when [`StageSettings::capture_failed_bytes`] is set: the pack's target,
    /// its cache key, and the raw answer redacted and byte-capped. Never part of a decision.
    pub captured: Vec<(EntityId, ContentHash, String)>,
    /// Proposals of a kind the role is not for ([`Role::proposes`]), rejected `out-of-role`
    /// before any validator sees them; they are not in `proposals`.
    pub out_of_role: Vec<RejectedEntry>,
    /// Bytes sent to the agent during the run ([`Agent::traffic`]).
    pub input_bytes: u64,
    /// Bytes received from the agent during the run.
    pub output_bytes: u64,
}

impl StageOutcome {
    fn record_traffic(&mut self, agent: &dyn Agent, before: crate::agent::Traffic) {
        let moved = agent.traffic().since(before);
        self.input_bytes = moved.sent;
        self.output_bytes = moved.received;
    }
}

/// The `out-of-role` rejection of `proposal` when its `kind` is one of the eleven and `role` may
/// not propose it; `None` otherwise (an unknown kind is the validators' `invalid-kind`). The
/// detail names the role and kinds only, never anything the agent wrote.
pub fn out_of_role(role: Role, proposal: &serde_json::Value) -> Option<RejectedEntry> {
    let field = |key: &str| {
        proposal
            .get(key)
            .and_then(serde_json::Value::as_str)
            .unwrap_or("")
    };
    let kind = ProposalKind::parse(field("kind"))?;
    if role.proposes(kind) {
        return None;
    }
    let allowed: Vec<&str> = role.kinds().iter().map(|k| k.as_str()).collect();
    let detail = if allowed.is_empty() {
        format!(
            "the {} proposes nothing; it answers adjudications only, not {kind}",
            role.as_str()
        )
    } else {
        format!(
            "the {} proposes {}; not {kind}",
            role.as_str(),
            allowed.join(", ")
        )
    };
    Decision::rejected(
        field("proposalId"),
        kind.as_str(),
        field("entity"),
        RejectionReason::OutOfRole,
        &detail,
    )
    .to_rejected_entry()
}

/// Runs one role over the entities it targets ([`Role::targets`]; documents when `settings.role`
/// names no role).
pub fn run_stage(
    snapshot: &Snapshot,
    agent: &dyn Agent,
    settings: &StageSettings,
    cache: &mut dyn AnswerCache,
    read: &dyn Fn(&RelPath) -> Option<Vec<u8>>,
    judgments: &[ApprovalRecord],
    tick: &(dyn Fn() + Sync),
) -> StageOutcome {
    let identity = agent.identity();
    let traffic = agent.traffic();
    let mut outcome = StageOutcome::default();
    let role = Role::parse(&settings.role).unwrap_or(Role::Curator);
    let targets: Vec<&EntityId> = snapshot
        .entities
        .iter()
        .filter(|e| role.targets(e))
        .map(Entity::id)
        .collect();
    // Pass 1, in target order: build packs, answer what the cache can, queue the rest.
    let mut slots: Vec<(Target<'_>, Slot)> = Vec::with_capacity(targets.len());
    for id in targets {
        let Some(pack) = build_pack(snapshot, id, settings.max_pack_bytes, read) else {
            continue;
        };
        outcome.packs += 1;
        let target = Target {
            id,
            shown: pack.target.id.clone(),
            restorations: pack.restorations.clone(),
        };
        let key = cache_key(
            &settings.task,
            &identity.agent_id,
            &identity.agent_version,
            &settings.prompt_version,
            &pack.pack_hash,
        );
        if let Some(answer) = cache.get(&key) {
            outcome.cache_hits += 1;
            tick();
            slots.push((target, Slot::Answered(answer)));
            continue;
        }
        // Examples count inside the pack budget: fitted per call, once its packs are known.
        let room = settings.max_pack_bytes.saturating_sub(pack.budget.bytes);
        let examples = examples_for(&pack, judgments, snapshot, &settings.role);
        let request = AgentRequest::new(
            &settings.task,
            &settings.role,
            &settings.prompt_version,
            identity.clone(),
            snapshot.content_hash.as_str(),
            vec![pack],
        );
        slots.push((
            target,
            Slot::Ask(key, Box::new(request), Chosen { examples, room }),
        ));
    }
    // Pass 2: the uncached packs, batched by area (`batch_size` packs per call at most), sent
    // with at most `max_in_flight` calls at once, taken in queue order.
    let batches = batch_by_area(snapshot, &slots, settings.batch_size.max(1));
    outcome.calls = batches.len();
    outcome.examples = batches.iter().map(|b| b.request.examples.len()).sum();
    outcome.examples_dropped = batches.iter().map(|b| b.examples_dropped).sum();
    let requests: Vec<&AgentRequest> = batches.iter().map(|b| &b.request).collect();
    let answers = call_all(agent, &requests, tick);
    // Pass 3, in target order again: split each answer by target, cache each pack's share,
    // collect. The outcome never depends on timing.
    let mut shares: Vec<Option<Result<Vec<serde_json::Value>, String>>> =
        (0..slots.len()).map(|_| None).collect();
    for (batch, answer) in batches.iter().zip(answers) {
        match answer {
            Some(Ok(mut answer)) => {
                // Stamped before caching, so a replay names the examples of the call it replays.
                stamp_examples(&mut answer, &batch.references);
                let mut split: Vec<Vec<serde_json::Value>> = vec![Vec::new(); batch.slots.len()];
                for proposal in answer {
                    let about = proposal.get("entity").and_then(|e| e.as_str());
                    match batch.slots.iter().position(|&i| {
                        let target = &slots[i].0;
                        about == Some(target.shown.as_str()) || about == Some(target.id.as_str())
                    }) {
                        Some(k) => split[k].push(proposal),
                        None => outcome.off_pack += 1,
                    }
                }
                for (&i, share) in batch.slots.iter().zip(split) {
                    shares[i] = Some(Ok(share));
                }
            }
            failed => {
                let (reason, raw) = match failed {
                    Some(Err(failed)) => (failed.failure.reason(), failed.raw),
                    _ => (AgentFailure::Transport("worker").reason(), None),
                };
                if let (Some(cap), Some(raw), Some(&first)) =
                    (settings.capture_failed_bytes, raw, batch.slots.first())
                    && let Slot::Ask(key, ..) = &slots[first].1
                {
                    outcome.captured.push((
                        slots[first].0.id.clone(),
                        key.clone(),
                        captured_text(&raw, cap),
                    ));
                }
                for &i in &batch.slots {
                    shares[i] = Some(Err(reason.clone()));
                }
            }
        }
    }
    for ((target, slot), share) in slots.into_iter().zip(shares) {
        let restorations = &target.restorations;
        let answer = match (slot, share) {
            (Slot::Answered(answer), _) => restore_answer(answer, restorations),
            (Slot::Ask(key, ..), Some(Ok(share))) => {
                cache.put(&key, &cached_form(&share, restorations));
                restore_answer(share, restorations)
            }
            (Slot::Ask(..), Some(Err(reason))) => {
                outcome.failures.push((target.id.clone(), reason));
                continue;
            }
            (Slot::Ask(..), None) => {
                outcome.failures.push((
                    target.id.clone(),
                    AgentFailure::Transport("worker").reason(),
                ));
                continue;
            }
        };
        for proposal in answer {
            if proposal.get("entity").and_then(|e| e.as_str()) != Some(target.id.as_str()) {
                outcome.off_pack += 1;
            } else if let Some(rejected) = out_of_role(role, &proposal) {
                outcome.out_of_role.push(rejected);
            } else {
                outcome.proposals.push(proposal);
            }
        }
    }
    outcome.record_traffic(agent, traffic);
    outcome
}

/// A pack's target: its id, the id the agent is shown, and what the pack's placeholders stand for.
struct Target<'s> {
    id: &'s EntityId,
    shown: EntityId,
    restorations: Restorations,
}

/// An answer as it is cached: every string (keys included) redacted, a secret of the pack's own
/// ids and paths as the placeholder the agent was shown, any other secret as `[redacted]`. An
/// answer without a secret is cached exactly as the agent gave it, so its replay decides exactly
/// as the fresh answer did.
pub fn cached_form(
    answer: &[serde_json::Value],
    restorations: &Restorations,
) -> Vec<serde_json::Value> {
    answer
        .iter()
        .map(|proposal| {
            let mut proposal = proposal.clone();
            map_strings(&mut proposal, &mut |text| restorations.redact_known(text));
            proposal
        })
        .collect()
}

/// An answer as the validators see it, fresh or replayed: every placeholder of the pack's ids and
/// paths replaced by the real text it stands for. A proposal whose `proposalId` is right for what
/// the agent was shown gets the id of the restored proposal, computed the same way (an id that
/// was wrong to begin with stays wrong, for the validators to reject).
pub fn restore_answer(
    answer: Vec<serde_json::Value>,
    restorations: &Restorations,
) -> Vec<serde_json::Value> {
    if restorations.is_empty() {
        return answer;
    }
    answer
        .into_iter()
        .map(|mut proposal| {
            let shown = proposal.clone();
            if restorations.restore_value(&mut proposal)
                && let Ok(before) = EnrichmentProposalV1::from_value(&shown)
                && before.proposal_id == before.expected_id()
                && let Ok(after) = EnrichmentProposalV1::from_value(&proposal)
                && let Some(object) = proposal.as_object_mut()
            {
                object.insert("proposalId".to_owned(), after.expected_id().into());
            }
            proposal
        })
        .collect()
}

/// One pack's place in the stage: answered from the cache, or a request to send (its cache
/// key, the request without examples, the examples chosen for it).
enum Slot {
    Answered(Vec<serde_json::Value>),
    Ask(ContentHash, Box<AgentRequest>, Chosen),
}

/// The examples chosen for one pack, most similar first, and the room its budget leaves them.
struct Chosen {
    examples: Vec<serde_json::Value>,
    room: usize,
}

/// `[{id, digest}]` for the examples sent: the approval id and sha256 over the example's
/// canonical JSON.
fn example_refs(examples: &[serde_json::Value]) -> serde_json::Value {
    serde_json::Value::Array(
        examples
            .iter()
            .filter_map(|example| {
                let id = example.get("id")?.as_str()?;
                let digest = doc_bridge_model::hash::hash_canonical(example).ok()?;
                Some(serde_json::json!({"id": id, "digest": digest}))
            })
            .collect(),
    )
}

/// Sets `origin.examples` on every proposal of an answer to what the stage sent: an agent cannot
/// claim examples it was not shown, nor hide the ones it was.
fn stamp_examples(answer: &mut [serde_json::Value], references: &serde_json::Value) {
    for proposal in answer {
        if let Some(origin) = proposal
            .get_mut("origin")
            .and_then(serde_json::Value::as_object_mut)
        {
            if references.as_array().is_some_and(|r| !r.is_empty()) {
                origin.insert("examples".to_owned(), references.clone());
            } else {
                origin.remove("examples");
            }
        }
    }
}

type Answer = Result<Vec<serde_json::Value>, RawFailure>;

/// A failed raw answer as it may be kept: secrets redacted first, then cut to `cap` bytes on a
/// character boundary.
pub fn captured_text(raw: &[u8], cap: usize) -> String {
    let text = crate::redact::redact(&String::from_utf8_lossy(raw));
    if text.len() <= cap {
        return text;
    }
    let mut end = cap;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// One call: the uncached packs of one area (at most `batch_size`), their examples merged.
struct Batch {
    /// Indices into the stage's slots, in target order.
    slots: Vec<usize>,
    request: AgentRequest,
    /// `[{id, digest}]` of the examples the request carries.
    references: serde_json::Value,
    /// Examples chosen for the call's packs that did not fit.
    examples_dropped: usize,
}

/// Groups the uncached slots by the area that contains their target (targets outside any area
/// form their own group), in order of first appearance, `batch_size` slots per call at most.
/// With `batch_size` 1 every pack is its own call, with exactly the request built for it.
fn batch_by_area(
    snapshot: &Snapshot,
    slots: &[(Target<'_>, Slot)],
    batch_size: usize,
) -> Vec<Batch> {
    let mut area_of: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
    for relation in &snapshot.relations {
        if relation.kind == doc_bridge_model::snapshot::RelationKind::Contains
            && relation.from.as_str().starts_with("area:")
        {
            area_of.insert(relation.to.as_str(), relation.from.as_str());
        }
    }
    let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, (target, slot)) in slots.iter().enumerate() {
        if !matches!(slot, Slot::Ask(..)) {
            continue;
        }
        let area = area_of.get(target.id.as_str()).copied().unwrap_or("");
        match groups
            .iter_mut()
            .find(|(a, members)| *a == area && members.len() < batch_size)
        {
            Some((_, members)) => members.push(i),
            None => groups.push((area, vec![i])),
        }
    }
    groups
        .into_iter()
        .filter_map(|(_, members)| {
            let mut requests = members.iter().filter_map(|&i| match &slots[i].1 {
                Slot::Ask(_, request, chosen) => Some((request.as_ref(), chosen)),
                Slot::Answered(_) => None,
            });
            let (first, first_chosen) = requests.next()?;
            let mut request = first.clone();
            // The packs' chosen examples in pack order, each once; the call's budget is the
            // least room any of its packs leaves (one pack: exactly its own).
            let mut chosen: Vec<serde_json::Value> = first_chosen.examples.clone();
            let mut room = first_chosen.room;
            for (other, other_chosen) in requests {
                request.packs.extend(other.packs.iter().cloned());
                room = room.min(other_chosen.room);
                for example in &other_chosen.examples {
                    let id = example.get("id");
                    if !chosen.iter().any(|e| e.get("id") == id) {
                        chosen.push(example.clone());
                    }
                }
            }
            let (examples, examples_dropped) = fit(&chosen, room);
            request.examples = examples;
            let references = example_refs(&request.examples);
            Some(Batch {
                slots: members,
                request,
                references,
                examples_dropped,
            })
        })
        .collect()
}

/// Sends every request with at most `agent.max_in_flight()` calls in flight; workers take
/// requests in queue order. The answer for request `i` is at index `i` (`None` for a worker that
/// died).
fn call_all(
    agent: &dyn Agent,
    requests: &[&AgentRequest],
    tick: &(dyn Fn() + Sync),
) -> Vec<Option<Answer>> {
    let mut answers: Vec<Option<Answer>> = (0..requests.len()).map(|_| None).collect();
    let workers = agent.max_in_flight().clamp(1, 64).min(requests.len());
    if workers <= 1 {
        for (i, request) in requests.iter().enumerate() {
            answers[i] = Some(agent.call_with_raw(request));
            (0..request.packs.len()).for_each(|_| tick());
        }
        return answers;
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::with_capacity(requests.len()));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(request) = requests.get(i) else {
                        break;
                    };
                    let answer = agent.call_with_raw(request);
                    (0..request.packs.len()).for_each(|_| tick());
                    if let Ok(mut done) = done.lock() {
                        done.push((i, answer));
                    }
                }
            });
        }
    });
    for (i, answer) in done.into_inner().unwrap_or_default() {
        answers[i] = Some(answer);
    }
    answers
}

/// Asks the adjudicator about each dispute: one call per dispute, with a pack for every entity
/// it involves followed by the `adjudication-request` item. Answers are cached per dispute id
/// (which covers the proposals and the entities' content hashes), including nothing. The
/// answers are returned raw in `proposals`; [`crate::adjudicate::settle`] judges them.
pub fn run_adjudication(
    snapshot: &Snapshot,
    agent: &dyn Agent,
    settings: &StageSettings,
    cache: &mut dyn AnswerCache,
    read: &dyn Fn(&RelPath) -> Option<Vec<u8>>,
    disputes: &[Dispute],
    tick: &(dyn Fn() + Sync),
) -> StageOutcome {
    let identity = agent.identity();
    let traffic = agent.traffic();
    let mut outcome = StageOutcome::default();
    for dispute in disputes {
        outcome.packs += 1;
        let key = cache_key(
            &settings.task,
            &identity.agent_id,
            &identity.agent_version,
            &settings.prompt_version,
            &dispute.dispute_id,
        );
        tick();
        let answer = match cache.get(&key) {
            Some(answer) => {
                outcome.cache_hits += 1;
                answer
            }
            None => {
                outcome.calls += 1;
                let packs: Vec<_> = dispute
                    .entities
                    .iter()
                    .filter_map(|id| build_pack(snapshot, id, settings.max_pack_bytes, read))
                    .collect();
                let mut request = AgentRequest::new(
                    &settings.task,
                    &settings.role,
                    &settings.prompt_version,
                    identity.clone(),
                    snapshot.content_hash.as_str(),
                    packs,
                );
                request
                    .packs
                    .push(RequestItem::Adjudication(dispute.request_item()));
                match agent.call(&request) {
                    Ok(answer) => {
                        cache.put(&key, &cached_form(&answer, &Restorations::default()));
                        answer
                    }
                    Err(failure) => {
                        let target = dispute.entities.first().cloned();
                        if let Some(target) = target {
                            outcome.failures.push((target, failure.reason()));
                        }
                        continue;
                    }
                }
            }
        };
        // A proposal is not the adjudicator's to make (`out-of-role`); only answers about this
        // dispute count; the rest are off-pack.
        for adjudication in answer {
            let verdict = adjudication.get("type").and_then(|t| t.as_str())
                == Some(crate::adjudicate::ADJUDICATION_TYPE);
            if !verdict && let Some(rejected) = out_of_role(Role::Adjudicator, &adjudication) {
                outcome.out_of_role.push(rejected);
            } else if adjudication.get("disputeId").and_then(|d| d.as_str())
                == Some(dispute.dispute_id.as_str())
            {
                outcome.proposals.push(adjudication);
            } else {
                outcome.off_pack += 1;
            }
        }
    }
    outcome.record_traffic(agent, traffic);
    outcome
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use doc_bridge_model::config::Config;
    use serde_json::json;

    fn config(registry: &str) -> Config {
        let text = format!(r#"{{"schemaVersion": 1, "intelligence": {{"registry": {registry}}}}}"#);
        Config::parse(text.as_bytes(), "c").unwrap()
    }

    #[test]
    fn an_agent_counts_under_the_role_it_is_configured_for() {
        let c = config(
            r#"{"agentId": "cur", "roles": {"reviewer": {"agentId": "rev"}, "adjudicator": {"agentId": "judge"}}}"#,
        );
        assert_eq!(role_for(&c, "cur", "summarize"), "curator");
        assert_eq!(role_for(&c, "rev", "mark-canonical"), "reviewer");
        assert_eq!(role_for(&c, "judge", "mark-canonical"), "adjudicator");
        // Not configured (a proposal from a file): the curator.
        assert_eq!(role_for(&c, "someone", "rank-hint"), "curator");
        assert_eq!(role_for(&Config::default(), "x", "summarize"), "curator");
    }

    #[test]
    fn one_identity_in_two_roles_counts_by_what_the_kind_is_for() {
        let c = config(r#"{"agentId": "bot", "roles": {"reviewer": true}}"#);
        assert_eq!(role_for(&c, "bot", "add-alias"), "curator");
        assert_eq!(role_for(&c, "bot", "propose-relation"), "reviewer");
        let off = config(r#"{"agentId": "bot", "roles": {"curator": false, "reviewer": true}}"#);
        assert_eq!(role_for(&off, "bot", "add-alias"), "reviewer");
    }

    #[test]
    fn proposals_name_exactly_the_examples_they_were_made_with() {
        let examples = vec![
            json!({"id": "a1", "kind": "summarize", "decision": "approved"}),
            json!({"id": "b2", "kind": "add-alias", "decision": "rejected"}),
        ];
        let references = example_refs(&examples);
        let digest = doc_bridge_model::hash::hash_canonical(&examples[0]).unwrap();
        assert_eq!(references[0], json!({"id": "a1", "digest": digest}));
        assert_eq!(references.as_array().unwrap().len(), 2);

        // A forged claim is replaced; a proposal without an origin object is left alone.
        let mut answer = vec![
            json!({"origin": {"agentId": "x", "examples": [{"id": "forged", "digest": "0"}]}}),
            json!({"kind": "junk"}),
        ];
        stamp_examples(&mut answer, &references);
        assert_eq!(answer[0]["origin"]["examples"], references);
        assert_eq!(answer[1], json!({"kind": "junk"}));

        // Without examples, a claimed list is removed.
        stamp_examples(&mut answer, &example_refs(&[]));
        assert!(answer[0]["origin"].get("examples").is_none());
    }
}
