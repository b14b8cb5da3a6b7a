//! Deciding a batch of raw proposals (enrichment-overlay-v1, "The stage", step 3: "validates
//! everything through the partition against the snapshot, the report and the overlay already
//! on disk; policy kinds are accepted, human kinds are requested from the approval gate").

use std::collections::HashSet;

use doc_bridge_model::enrichment::{EnrichmentProposalV1, ProposalPayload, RawProposal};
use doc_bridge_model::hash::canonical_json;
use serde_json::Value;

use crate::context::{Context, Facts, Name, NameIndex};
use crate::decision::Decision;
use crate::envelope::{self, Options};
use crate::rules;
use doc_bridge_retrieve::overlay::expiry;

/// Decides every proposal of a batch. Pure and deterministic:
///
/// 1. the batch is sorted by (`proposalId` as given, canonical JSON of the whole proposal), so
///    the input order never matters;
/// 2. byte-identical proposals (same canonical JSON) are decided once: the result has one
///    decision per distinct proposal; a second, different proposal with an already seen
///    `proposalId` is rejected as `schema` ("duplicate proposalId");
/// 3. each proposal passes the envelope, then its kind's rule, and sees the accepted and
///    pending decisions before it and the live accepted and pending entries of
///    `ctx.overlay` — an alias close to an earlier accepted one is an `alias-collision`;
/// 4. policy kinds and `flag-gap` findings are [`Decision::Accepted`], human-approval kinds
///    [`Decision::Pending`] with the note `awaiting approval`, or `canonical-conflict` for a
///    second canonical document for one scope (a person or the adjudicator chooses).
///
/// Never panics, whatever the values hold.
pub fn decide_batch(raw: Vec<RawProposal>, ctx: &Context<'_>) -> Vec<Decision> {
    decide(raw, ctx, Options { check_base: true })
}

pub(crate) fn decide(raw: Vec<RawProposal>, ctx: &Context<'_>, options: Options) -> Vec<Decision> {
    let facts = Facts::new(ctx.snapshot, ctx.report_diagnostics);
    let stored: Vec<&EnrichmentProposalV1> = ctx
        .overlay
        .map(|overlay| {
            overlay
                .accepted
                .iter()
                .map(|e| &e.proposal)
                .chain(overlay.pending.iter().map(|e| &e.proposal))
                .filter(|p| expiry(p, &|id| facts.content_hash(id)).is_none())
                .collect()
        })
        .unwrap_or_default();

    let mut batch: Vec<(String, Vec<u8>, Value)> = raw
        .into_iter()
        .map(|value| {
            let id = string_field(&value, "proposalId").to_owned();
            let canonical = canonical_json(&value)
                .or_else(|_| serde_json::to_vec(&value))
                .unwrap_or_default();
            (id, canonical, value)
        })
        .collect();
    batch.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    batch.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);

    // The aliases standing proposals hold, in standing order, indexed once: the stored ones,
    // then each accepted or pending one as it is decided.
    let texts: Vec<&str> = batch
        .iter()
        .filter(|(_, _, value)| string_field(value, "kind") == "add-alias")
        .filter_map(|(_, _, value)| value.pointer("/payload/alias").and_then(Value::as_str))
        .chain(stored.iter().filter_map(|p| match &p.payload {
            ProposalPayload::AddAlias(a) => Some(a.alias.as_str()),
            _ => None,
        }))
        .collect();
    // Ordered by rarity among the names and these aliases; not even built without an alias.
    let mut aliases = if texts.is_empty() {
        NameIndex::new(Vec::new())
    } else {
        facts.names().empty_counting(texts.into_iter())
    };
    for proposal in &stored {
        add_alias(&mut aliases, proposal);
    }
    let mut decisions: Vec<Decision> = Vec::with_capacity(batch.len());
    let mut seen_ids: HashSet<String> = HashSet::new();
    for (id, _, value) in batch {
        let decision = decide_one(
            &value,
            &facts,
            &seen_ids,
            options,
            (&stored, &decisions),
            &aliases,
        );
        if let Decision::Accepted(p) | Decision::Pending(p, _) = &decision {
            add_alias(&mut aliases, p);
        }
        seen_ids.insert(id);
        decisions.push(decision);
    }
    decisions
}

/// Indexes the alias of an add-alias proposal (nothing for other kinds).
fn add_alias(aliases: &mut NameIndex, proposal: &EnrichmentProposalV1) {
    if let ProposalPayload::AddAlias(a) = &proposal.payload
        && let Some(name) = Name::new(&a.alias, proposal.entity.as_str(), "alias")
    {
        aliases.push(name, Some(proposal.proposal_id.clone()));
    }
}

fn decide_one(
    value: &Value,
    facts: &Facts<'_>,
    seen_ids: &HashSet<String>,
    options: Options,
    (stored, earlier): (&[&EnrichmentProposalV1], &[Decision]),
    aliases: &NameIndex,
) -> Decision {
    let (proposal, entity) = match envelope::check(value, facts, seen_ids, options) {
        Ok(checked) => checked,
        Err((reason, detail)) => {
            return Decision::rejected(
                string_field(value, "proposalId"),
                string_field(value, "kind"),
                string_field(value, "entity"),
                reason,
                &detail,
            );
        }
    };
    let standing = || {
        stored
            .iter()
            .copied()
            .chain(earlier.iter().filter_map(|d| match d {
                Decision::Accepted(p) | Decision::Pending(p, _) => Some(p),
                Decision::Rejected { .. } => None,
            }))
    };
    match rules::check(&proposal, entity, facts, standing(), aliases) {
        Err((reason, detail)) => Decision::rejected(
            &proposal.proposal_id,
            proposal.kind().as_str(),
            proposal.entity.as_str(),
            reason,
            &detail,
        ),
        Ok(()) if proposal.kind().policy().accepted_by_policy() => Decision::Accepted(proposal),
        Ok(()) => {
            let note = rules::pending_note(&proposal, standing());
            Decision::Pending(proposal, note.to_owned())
        }
    }
}

/// A top-level string field of a raw proposal, or `""` when absent or not a string.
fn string_field<'v>(value: &'v Value, key: &str) -> &'v str {
    value.get(key).and_then(Value::as_str).unwrap_or("")
}
