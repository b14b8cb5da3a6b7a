//! Envelope checks (enrichment-overlay-v1, "Typed proposals"): the same for every kind, run
//! before the kind's own rule in the seed's fixed order — `invalid-kind`, `no-evidence`,
//! `schema`, `base-snapshot-mismatch`, `unknown-entity`, `stale-target`, `unknown-diagnostic`,
//! `evidence-outside-artifacts`, `proposal-id-mismatch`. A proposal that fails the envelope
//! never reaches a kind validator.

use std::collections::HashSet;

use doc_bridge_model::RelPath;
use doc_bridge_model::enrichment::{
    ACCEPTED_BY_POLICY, ALIAS_MAX_CHARS, EnrichmentProposalV1, LIST_MAX_ITEMS, NAME_MAX_CHARS,
    PHRASE_MAX_CHARS, ProposalKind, ProposalPayload, ProposalShapeError, REASON_MAX_CHARS,
    RejectionReason, SUMMARY_MAX_CHARS, TEXT_MAX_CHARS, json_type_name,
};
use doc_bridge_model::snapshot::Entity;
use serde_json::Value;

use crate::context::Facts;

/// A failed check: the reason and a detail that names fields and ids, never document text.
pub(crate) type Failure = (RejectionReason, String);

/// Options that differ between deciding fresh agent output and revalidating a stored overlay.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Options {
    /// Check `baseSnapshotHash` against the snapshot. Off for revalidation: an overlay carries
    /// entries accepted against earlier snapshots whose targets did not move.
    pub check_base: bool,
}

/// Runs the envelope over one raw proposal. `seen_ids` holds the proposal ids of the distinct
/// proposals decided before this one in the batch.
pub(crate) fn check<'a>(
    value: &Value,
    facts: &Facts<'a>,
    seen_ids: &HashSet<String>,
    options: Options,
) -> Result<(EnrichmentProposalV1, &'a Entity), Failure> {
    // 1. invalid-kind
    let Some(object) = value.as_object() else {
        return Err((
            RejectionReason::InvalidKind,
            format!(
                "a proposal is a JSON object, found {}",
                json_type_name(value)
            ),
        ));
    };
    match object.get("kind") {
        None => return Err((RejectionReason::InvalidKind, "`kind` is missing".into())),
        Some(Value::String(kind)) if ProposalKind::parse(kind).is_some() => {}
        Some(Value::String(kind)) => {
            return Err((
                RejectionReason::InvalidKind,
                format!("`{kind}` is not a proposal kind"),
            ));
        }
        Some(other) => {
            return Err((
                RejectionReason::InvalidKind,
                format!("`kind` is {}, not a string", json_type_name(other)),
            ));
        }
    }

    // 2. no-evidence: absent, null or empty. Evidence of the wrong type is a schema problem.
    match object.get("evidence") {
        None | Some(Value::Null) => {
            return Err((RejectionReason::NoEvidence, "`evidence` is missing".into()));
        }
        Some(Value::Array(items)) if items.is_empty() => {
            return Err((RejectionReason::NoEvidence, "`evidence` is empty".into()));
        }
        Some(_) => {}
    }

    // 3. schema
    if let Some(Value::String(id)) = object.get("proposalId")
        && seen_ids.contains(id)
    {
        return Err((RejectionReason::Schema, "duplicate proposalId".into()));
    }
    let proposal = EnrichmentProposalV1::from_value(value).map_err(|e| match e {
        ProposalShapeError::InvalidKind => (
            RejectionReason::InvalidKind,
            "`kind` is not a proposal kind".into(),
        ),
        ProposalShapeError::Schema(detail) => (RejectionReason::Schema, detail),
    })?;
    schema(&proposal).map_err(|detail| (RejectionReason::Schema, detail))?;

    // 4. base-snapshot-mismatch
    if options.check_base && proposal.base_snapshot_hash != facts.snapshot.content_hash.as_str() {
        return Err((
            RejectionReason::BaseSnapshotMismatch,
            format!(
                "baseSnapshotHash {} is not the snapshot's {}",
                proposal.base_snapshot_hash, facts.snapshot.content_hash
            ),
        ));
    }

    // 5. unknown-entity
    let Some(entity) = facts.entity(&proposal.entity) else {
        return Err((
            RejectionReason::UnknownEntity,
            format!("entity {} is not in the snapshot", proposal.entity),
        ));
    };

    // 6. stale-target
    if entity.content_hash().as_str() != proposal.target_content_hash {
        return Err((
            RejectionReason::StaleTarget,
            format!(
                "targetContentHash {} is not the contentHash {} of {}",
                proposal.target_content_hash,
                entity.content_hash(),
                proposal.entity
            ),
        ));
    }

    // 7. unknown-diagnostic
    if let Some(id) = proposal
        .related_diagnostic_ids
        .iter()
        .find(|id| !facts.has_diagnostic(id))
    {
        return Err((
            RejectionReason::UnknownDiagnostic,
            format!("diagnostic `{id}` is not in the report"),
        ));
    }

    // 8. evidence-outside-artifacts
    if let Some(problem) = proposal
        .evidence
        .iter()
        .find_map(|item| facts.evidence_problem(item))
    {
        return Err((RejectionReason::EvidenceOutsideArtifacts, problem));
    }

    // 9. proposal-id-mismatch
    let expected = proposal.expected_id();
    if proposal.proposal_id != expected {
        return Err((
            RejectionReason::ProposalIdMismatch,
            format!(
                "proposalId {} is not the recomputed id {expected}",
                proposal.proposal_id
            ),
        ));
    }
    Ok((proposal, entity))
}

/// The value checks serde cannot express: hash forms, ranges, lengths, non-empty strings,
/// language tags, and the structural constraints of each payload that need no snapshot
/// (`propose-relation` `from` equals `entity`; no proposal points at its own entity).
fn schema(p: &EnrichmentProposalV1) -> Result<(), String> {
    hex64(&p.proposal_id, "proposalId")?;
    hex64(&p.target_content_hash, "targetContentHash")?;
    hex64(&p.base_snapshot_hash, "baseSnapshotHash")?;
    if !(p.confidence.is_finite() && (0.0..=1.0).contains(&p.confidence)) {
        return Err("confidence must lie in 0..=1".into());
    }
    free_text(&p.reason, "reason", REASON_MAX_CHARS)?;
    if p.evidence.len() > LIST_MAX_ITEMS {
        return Err(format!("more than {LIST_MAX_ITEMS} evidence items"));
    }
    if p.related_diagnostic_ids.len() > LIST_MAX_ITEMS {
        return Err(format!("more than {LIST_MAX_ITEMS} relatedDiagnosticIds"));
    }
    let origin = &p.origin;
    short_name(&origin.agent_id, "origin.agentId", NAME_MAX_CHARS)?;
    short_name(&origin.agent_version, "origin.agentVersion", NAME_MAX_CHARS)?;
    short_name(
        &origin.prompt_version,
        "origin.promptVersion",
        NAME_MAX_CHARS,
    )?;
    if let Some(model) = &origin.model {
        short_name(model, "origin.model", NAME_MAX_CHARS)?;
    }
    if let Some(provider) = &origin.provider {
        short_name(provider, "origin.provider", NAME_MAX_CHARS)?;
    }
    if origin.agent_id == ACCEPTED_BY_POLICY {
        return Err("origin.agentId `policy` is reserved for acceptance by policy".into());
    }
    if origin.examples.len() > 16 {
        return Err("origin.examples has more than 16 items".into());
    }
    for example in &origin.examples {
        short_name(&example.id, "origin.examples[].id", NAME_MAX_CHARS)?;
        hex64(&example.digest, "origin.examples[].digest")?;
    }
    let entity = &p.entity;
    match &p.payload {
        ProposalPayload::ClassifyDocument(_) | ProposalPayload::RankHint(_) => {}
        ProposalPayload::Summarize(s) => {
            free_text(&s.summary, "payload.summary", SUMMARY_MAX_CHARS)?;
            language_tag(&s.language, "payload.language")?;
        }
        ProposalPayload::AddAlias(a) => {
            short_name(&a.alias, "payload.alias", ALIAS_MAX_CHARS)?;
        }
        ProposalPayload::AddIntent(i) => {
            short_name(&i.phrase, "payload.phrase", PHRASE_MAX_CHARS)?;
            language_tag(&i.language, "payload.language")?;
        }
        ProposalPayload::MarkCanonical(m) => {
            if &m.scope == entity {
                return Err("payload.scope must differ from entity".into());
            }
        }
        ProposalPayload::ProposeRelation(r) => {
            if &r.from != entity {
                return Err("payload.from must equal entity".into());
            }
            if r.to == r.from {
                return Err("payload.to must differ from payload.from".into());
            }
            free_text(&r.detection, "payload.detection", TEXT_MAX_CHARS)?;
        }
        ProposalPayload::FlagContradiction(c) => {
            if &c.against == entity {
                return Err("payload.against must differ from entity".into());
            }
            free_text(&c.claim, "payload.claim", TEXT_MAX_CHARS)?;
            free_text(&c.observed, "payload.observed", TEXT_MAX_CHARS)?;
        }
        ProposalPayload::FlagRedundancy(r) => {
            if &r.with == entity {
                return Err("payload.with must differ from entity".into());
            }
        }
        ProposalPayload::FlagGap(g) => {
            free_text(&g.missing, "payload.missing", TEXT_MAX_CHARS)?;
        }
        ProposalPayload::SuggestArea(s) => {
            if s.directories.is_empty() || s.directories.len() > LIST_MAX_ITEMS {
                return Err(format!(
                    "payload.directories must hold 1 to {LIST_MAX_ITEMS} directories"
                ));
            }
            let mut seen = HashSet::new();
            for dir in &s.directories {
                if RelPath::new(dir).is_none() {
                    return Err(
                        "payload.directories holds a path that is not repository-relative".into(),
                    );
                }
                if !seen.insert(dir.as_str()) {
                    return Err("payload.directories holds a directory twice".into());
                }
            }
            short_name(&s.name, "payload.name", NAME_MAX_CHARS)?;
        }
    }
    Ok(())
}

fn hex64(text: &str, field: &str) -> Result<(), String> {
    let ok = text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if ok {
        Ok(())
    } else {
        Err(format!("{field} must be 64 lowercase hex digits"))
    }
}

/// Prose: not blank, at most `max` characters (Unicode scalar values), no control characters
/// other than newline and tab.
fn free_text(text: &str, field: &str, max: usize) -> Result<(), String> {
    if text.trim().is_empty() {
        return Err(format!("{field} is empty"));
    }
    if text.chars().count() > max {
        return Err(format!("{field} is longer than {max} characters"));
    }
    if text
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        return Err(format!("{field} contains control characters"));
    }
    Ok(())
}

/// A name: [`free_text`] on one line, without leading or trailing whitespace.
fn short_name(text: &str, field: &str, max: usize) -> Result<(), String> {
    free_text(text, field, max)?;
    if text.chars().any(char::is_control) {
        return Err(format!("{field} must be one line"));
    }
    if text.trim() != text {
        return Err(format!("{field} has leading or trailing whitespace"));
    }
    Ok(())
}

/// A BCP 47-shaped language tag: 2 or 3 ASCII letters, then `-`-separated subtags of 1 to 8
/// ASCII letters or digits (`en`, `pt-BR`, `zh-Hant-TW`). Case is not checked.
fn language_tag(text: &str, field: &str) -> Result<(), String> {
    let mut parts = text.split('-');
    let primary_ok = parts
        .next()
        .is_some_and(|p| (2..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphabetic()));
    let rest_ok =
        parts.all(|p| (1..=8).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_alphanumeric()));
    if primary_ok && rest_ok && text.len() <= 35 {
        Ok(())
    } else {
        Err(format!("{field} is not a language tag (`en`, `pt-BR`)"))
    }
}
