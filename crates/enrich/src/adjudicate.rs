//! Adjudication (enrichment-overlay-v1, "The stage" step 4 and "Roles"): what two roles could not
//! settle goes to a third identity, whose answer judges and never approves.
//!
//! A **dispute** is a group of proposals, each valid on its own, that cannot all stand, made by at
//! least two different agent identities:
//! - `canonical-conflict`: `mark-canonical` proposals naming different documents for one scope;
//! - `disputed-contradiction`: `flag-contradiction` proposals about one pair of entities (in
//!   either direction) whose claims differ.
//!
//! An adjudication (`EnrichmentAdjudicationV1`) names the dispute and its winner. [`settle`]
//! checks it: the dispute must have been offered, the winner must be one of its proposals, the
//! origin must be the adjudicator that was asked, and an origin equal to any judged proposal's
//! origin is rejected `self-adjudication`. The losers are rejected `adjudicated`; the winner stays
//! pending for a person. Everything here is pure.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use doc_bridge_model::enrichment::{
    EnrichmentProposalV1, ProposalPayload, RejectedEntry, RejectionReason,
};
use doc_bridge_model::hash::hash_canonical;
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_model::{ContentHash, EntityId};
use serde::Serialize;
use serde_json::{Value, json};

use crate::context::{Context, Facts};
use crate::decision::Decision;
use crate::envelope::{self, Options};
use crate::rules;

/// The `type` of an adjudication.
pub const ADJUDICATION_TYPE: &str = "enrichment-adjudication";
/// The `type` of the request item that follows the packs of an `adjudicate` call.
pub const ADJUDICATION_REQUEST_TYPE: &str = "adjudication-request";
/// The `kind` recorded for a refused adjudication in the overlay's `rejected` list.
pub const ADJUDICATION_KIND: &str = "adjudication";
/// Longest adjudication `rationale` kept (characters); it is never stored in the overlay.
pub const RATIONALE_MAX_CHARS: usize = 1000;

/// What kind of disagreement a dispute is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DisputeKind {
    /// Different canonical documents for one scope.
    CanonicalConflict,
    /// Different claims about one pair of entities.
    DisputedContradiction,
}

/// Proposals that cannot all stand, from at least two identities.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Dispute {
    /// sha256 over canonical `{kind, key, proposals, targets}`: content-addressed, so an unchanged
    /// dispute has an unchanged id (and cache key).
    pub dispute_id: ContentHash,
    /// The kind.
    pub kind: DisputeKind,
    /// The scope (`canonical-conflict`) or the pair `a|b`, sorted (`disputed-contradiction`).
    pub key: String,
    /// Every entity the proposals are about or point at, sorted; packs are built for them.
    pub entities: Vec<EntityId>,
    /// The disputed proposals, sorted by id.
    pub proposals: Vec<EnrichmentProposalV1>,
}

impl Dispute {
    /// The request item that follows the packs: the dispute with its proposals.
    pub fn request_item(&self) -> Value {
        json!({
            "type": ADJUDICATION_REQUEST_TYPE,
            "disputes": [self],
            "answer": {
                "type": ADJUDICATION_TYPE,
                "fields": ["disputeId", "winner", "origin", "rationale"],
            },
        })
    }
}

/// Finds the disputes among `candidates` (fresh, undecided proposals as raw values) and `stored`
/// (the overlay's live pending proposals). A candidate takes part only when it passes the
/// envelope and its kind's rule on its own, so a dispute is never about junk. Sorted by id.
pub fn find_disputes(
    candidates: &[Value],
    stored: &[&EnrichmentProposalV1],
    ctx: &Context<'_>,
) -> Vec<Dispute> {
    let facts = Facts::new(ctx.snapshot, ctx.report_diagnostics);
    let mut valid: Vec<EnrichmentProposalV1> = stored
        .iter()
        .filter(|p| disputable(p))
        .map(|p| (*p).clone())
        .collect();
    let no_ids = HashSet::new();
    let no_aliases = crate::context::NameIndex::new(Vec::new());
    for value in candidates {
        let kind = value.get("kind").and_then(Value::as_str);
        if !matches!(kind, Some("mark-canonical" | "flag-contradiction")) {
            continue;
        }
        let Ok((proposal, entity)) =
            envelope::check(value, &facts, &no_ids, Options { check_base: true })
        else {
            continue;
        };
        if rules::check(&proposal, entity, &facts, std::iter::empty(), &no_aliases).is_ok() {
            valid.push(proposal);
        }
    }
    valid.sort_by(|a, b| a.proposal_id.cmp(&b.proposal_id));
    valid.dedup_by(|a, b| a.proposal_id == b.proposal_id);

    let mut groups: BTreeMap<(DisputeKind, String), Vec<EnrichmentProposalV1>> = BTreeMap::new();
    for proposal in valid {
        let key = match &proposal.payload {
            ProposalPayload::MarkCanonical(m) => {
                (DisputeKind::CanonicalConflict, m.scope.as_str().to_owned())
            }
            ProposalPayload::FlagContradiction(c) => {
                let (a, b) = if proposal.entity <= c.against {
                    (&proposal.entity, &c.against)
                } else {
                    (&c.against, &proposal.entity)
                };
                (DisputeKind::DisputedContradiction, format!("{a}|{b}"))
            }
            _ => continue,
        };
        groups.entry(key).or_default().push(proposal);
    }
    let mut disputes: Vec<Dispute> = groups
        .into_iter()
        .filter(|((kind, _), proposals)| in_dispute(*kind, proposals))
        .filter_map(|((kind, key), proposals)| dispute(kind, key, proposals, ctx.snapshot))
        .collect();
    disputes.sort_by(|a, b| a.dispute_id.cmp(&b.dispute_id));
    disputes
}

fn disputable(proposal: &EnrichmentProposalV1) -> bool {
    matches!(
        proposal.payload,
        ProposalPayload::MarkCanonical(_) | ProposalPayload::FlagContradiction(_)
    )
}

/// At least two identities, and something they disagree on.
fn in_dispute(kind: DisputeKind, proposals: &[EnrichmentProposalV1]) -> bool {
    let origins: BTreeSet<&str> = proposals
        .iter()
        .map(|p| p.origin.agent_id.as_str())
        .collect();
    if origins.len() < 2 {
        return false;
    }
    match kind {
        DisputeKind::CanonicalConflict => {
            proposals
                .iter()
                .map(|p| &p.entity)
                .collect::<BTreeSet<_>>()
                .len()
                > 1
        }
        DisputeKind::DisputedContradiction => {
            proposals
                .iter()
                .filter_map(|p| match &p.payload {
                    ProposalPayload::FlagContradiction(c) => Some(normalize(&c.claim)),
                    _ => None,
                })
                .collect::<BTreeSet<_>>()
                .len()
                > 1
        }
    }
}

fn normalize(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn dispute(
    kind: DisputeKind,
    key: String,
    proposals: Vec<EnrichmentProposalV1>,
    snapshot: &Snapshot,
) -> Option<Dispute> {
    let mut entities: BTreeSet<EntityId> = BTreeSet::new();
    for p in &proposals {
        entities.insert(p.entity.clone());
        match &p.payload {
            ProposalPayload::MarkCanonical(m) => entities.insert(m.scope.clone()),
            ProposalPayload::FlagContradiction(c) => entities.insert(c.against.clone()),
            _ => false,
        };
    }
    let entities: Vec<EntityId> = entities.into_iter().collect();
    let targets: Vec<String> = entities
        .iter()
        .map(|id| {
            snapshot
                .entities
                .iter()
                .find(|e| e.id() == id)
                .map(|e| e.content_hash().to_string())
                .unwrap_or_default()
        })
        .collect();
    let ids: Vec<&str> = proposals.iter().map(|p| p.proposal_id.as_str()).collect();
    let dispute_id = hash_canonical(&json!({
        "kind": kind,
        "key": key,
        "proposals": ids,
        "targets": targets,
    }))
    .ok()?;
    Some(Dispute {
        dispute_id,
        kind,
        key,
        entities,
        proposals,
    })
}

/// What the adjudications decided.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settlement {
    /// Proposal ids that lost, with their overlay entries (reason `adjudicated`).
    pub losers: Vec<RejectedEntry>,
    /// Proposal ids that won, with the note they stay pending under.
    pub winners: BTreeMap<String, String>,
    /// Adjudications refused, as overlay entries (kind `adjudication`).
    pub refused: Vec<RejectedEntry>,
    /// Disputes no valid adjudication settled, by id.
    pub unsettled: Vec<ContentHash>,
}

impl Settlement {
    /// Whether `proposal_id` lost.
    pub fn lost(&self, proposal_id: &str) -> bool {
        self.losers.iter().any(|l| l.proposal_id == proposal_id)
    }
}

/// Checks `answers` (what the adjudicator `adjudicator_id` said, raw) against the offered
/// `disputes`. Per dispute the first valid adjudication in canonical order decides; a second one
/// is refused as a duplicate. Never panics, whatever the answers hold.
pub fn settle(disputes: &[Dispute], answers: &[Value], adjudicator_id: &str) -> Settlement {
    let mut settlement = Settlement::default();
    let mut answers: Vec<(ContentHash, &Value)> = answers
        .iter()
        .filter_map(|a| hash_canonical(a).ok().map(|h| (h, a)))
        .collect();
    answers.sort_by(|a, b| a.0.cmp(&b.0));
    answers.dedup_by(|a, b| a.0 == b.0);
    let mut settled: BTreeSet<&str> = BTreeSet::new();
    for (id, answer) in &answers {
        let dispute_id = answer
            .get("disputeId")
            .and_then(Value::as_str)
            .unwrap_or("");
        let dispute = disputes
            .iter()
            .find(|d| d.dispute_id.as_str() == dispute_id);
        let entity = dispute
            .and_then(|d| d.entities.first())
            .map(|e| e.as_str().to_owned())
            .unwrap_or_default();
        let refuse = |reason: RejectionReason, detail: String| {
            Decision::rejected(id.as_str(), ADJUDICATION_KIND, &entity, reason, &detail)
                .to_rejected_entry()
        };
        let verdict = check_adjudication(answer, dispute, adjudicator_id, &settled);
        match verdict {
            Err((reason, detail)) => settlement.refused.extend(refuse(reason, detail)),
            Ok((dispute, winner)) => {
                settled.insert(dispute.dispute_id.as_str());
                let short = &id.as_str()[..12];
                for loser in dispute.proposals.iter().filter(|p| p.proposal_id != winner) {
                    settlement.losers.extend(
                        Decision::rejected(
                            &loser.proposal_id,
                            loser.kind().as_str(),
                            loser.entity.as_str(),
                            RejectionReason::Adjudicated,
                            &format!(
                                "adjudication {short} by {adjudicator_id} chose {winner} in a {} over {}",
                                kind_name(dispute.kind),
                                dispute.key
                            ),
                        )
                        .to_rejected_entry(),
                    );
                }
                settlement.winners.insert(
                    winner.to_owned(),
                    format!(
                        "adjudicated: chosen by {adjudicator_id} over {} rival(s); awaiting approval",
                        dispute.proposals.len() - 1
                    ),
                );
            }
        }
    }
    settlement.unsettled = disputes
        .iter()
        .filter(|d| !settled.contains(d.dispute_id.as_str()))
        .map(|d| d.dispute_id.clone())
        .collect();
    settlement.losers.sort();
    settlement.refused.sort();
    settlement
}

fn kind_name(kind: DisputeKind) -> &'static str {
    match kind {
        DisputeKind::CanonicalConflict => "canonical-conflict",
        DisputeKind::DisputedContradiction => "disputed-contradiction",
    }
}

type Verdict<'d> = Result<(&'d Dispute, &'d str), (RejectionReason, String)>;

fn check_adjudication<'d>(
    answer: &Value,
    dispute: Option<&'d Dispute>,
    adjudicator_id: &str,
    settled: &BTreeSet<&str>,
) -> Verdict<'d> {
    let schema = |detail: &str| Err((RejectionReason::Schema, detail.to_owned()));
    let Some(object) = answer.as_object() else {
        return schema("an adjudication is a JSON object");
    };
    if object.get("type").and_then(Value::as_str) != Some(ADJUDICATION_TYPE) {
        return schema("`type` must be `enrichment-adjudication`");
    }
    let Some(dispute) = dispute else {
        return schema("`disputeId` names no dispute offered in this run");
    };
    let origin = object
        .get("origin")
        .and_then(|o| o.get("agentId"))
        .and_then(Value::as_str);
    let Some(origin) = origin else {
        return schema("`origin.agentId` is missing");
    };
    // Judging one's own proposal is refused before anything else about the verdict.
    if let Some(own) = dispute
        .proposals
        .iter()
        .find(|p| p.origin.agent_id == origin)
    {
        return Err((
            RejectionReason::SelfAdjudication,
            format!("{origin} made {}, which it judges", own.proposal_id),
        ));
    }
    if origin != adjudicator_id {
        return schema("`origin.agentId` is not the adjudicator that was asked");
    }
    if object
        .get("rationale")
        .and_then(Value::as_str)
        .is_some_and(|r| r.chars().count() > RATIONALE_MAX_CHARS)
    {
        return schema("`rationale` is too long");
    }
    let winner = object.get("winner").and_then(Value::as_str).unwrap_or("");
    let Some(winner) = dispute
        .proposals
        .iter()
        .map(|p| p.proposal_id.as_str())
        .find(|id| *id == winner)
    else {
        return schema("`winner` is not one of the disputed proposals");
    };
    if settled.contains(dispute.dispute_id.as_str()) {
        return schema("the dispute was already settled by another adjudication");
    }
    Ok((dispute, winner))
}
