//! Kind rules (enrichment-overlay-v1, "Typed proposals", the "Deterministic validator" column).
//! They run only on proposals that passed the envelope, so the entity exists, its target hash
//! is current, and the payload is well formed.
//!
//! Every kind first passes the redaction scan (its `reason`, `origin` strings and free-text
//! payload fields), then its own checks in the order the seed table lists them.

use doc_bridge_model::RelPath;
use doc_bridge_model::enrichment::{
    EnrichmentProposalV1, EvidenceItem, ProposalPayload, RejectionReason,
};
use doc_bridge_model::snapshot::{Entity, RelationKind};

use crate::context::{Facts, Name, NameIndex, inside, normalize};
use crate::decision::{AWAITING_APPROVAL, CANONICAL_CONFLICT};
use crate::envelope::Failure;
use crate::redact::find_secret;

/// Jaro-Winkler similarity at or above which an alias collides (enrichment-overlay-v1, "Typed
/// proposals", add-alias).
pub const ALIAS_JARO_WINKLER_THRESHOLD: f64 = 0.95;

/// The note a human-approval proposal that passed its rule waits under: `canonical-conflict`
/// for a `mark-canonical` whose scope already has a standing (accepted or pending) canonical
/// document that is another document (enrichment-overlay-v1, "The overlay": the pending entry
/// with the note `canonical-conflict`), else `awaiting approval`. The conflict is a person's (or
/// the adjudicator's) to settle, so it waits rather than being rejected; approving it while
/// another document is accepted for the scope is refused (at most one canonical document per
/// scope after the merge: [`crate::approvals::canonical_rival`]). `standing` is as for [`check`].
pub(crate) fn pending_note<'p>(
    proposal: &EnrichmentProposalV1,
    mut standing: impl Iterator<Item = &'p EnrichmentProposalV1>,
) -> &'static str {
    let ProposalPayload::MarkCanonical(m) = &proposal.payload else {
        return AWAITING_APPROVAL;
    };
    let rival = standing.any(|p| {
        p.proposal_id != proposal.proposal_id
            && p.entity != proposal.entity
            && matches!(&p.payload, ProposalPayload::MarkCanonical(other) if other.scope == m.scope)
    });
    if rival {
        CANONICAL_CONFLICT
    } else {
        AWAITING_APPROVAL
    }
}

/// Runs the kind's rule. `standing` yields the accepted and pending proposals this one must be
/// consistent with: the live entries of the stored overlay, then the earlier decisions of the
/// batch — never the proposal itself (a re-run of a stored proposal does not conflict with its
/// own stored copy). `aliases` holds the aliases of those same proposals, in the same order,
/// indexed (the batch keeps it as it decides, so an alias is not compared with every earlier one).
pub(crate) fn check<'p>(
    proposal: &EnrichmentProposalV1,
    entity: &Entity,
    facts: &Facts<'_>,
    standing: impl Iterator<Item = &'p EnrichmentProposalV1>,
    aliases: &NameIndex,
) -> Result<(), Failure> {
    redaction(proposal)?;
    let standing = standing.filter(|p| p.proposal_id != proposal.proposal_id);
    match &proposal.payload {
        ProposalPayload::ClassifyDocument(_) => require_document(entity, "entity"),
        ProposalPayload::Summarize(s) => {
            if let Entity::Document(d) = entity
                && normalize(&d.summary) == normalize(&s.summary)
            {
                return Err((
                    RejectionReason::SummaryUnchanged,
                    format!("the summary equals the current summary of {}", d.id),
                ));
            }
            Ok(())
        }
        ProposalPayload::AddAlias(a) => alias_collision(&a.alias, facts, aliases, proposal),
        ProposalPayload::AddIntent(i) => intent_phrase(&i.phrase),
        ProposalPayload::RankHint(_) => Ok(()),
        ProposalPayload::MarkCanonical(m) => {
            if facts.entity(&m.scope).is_none() {
                return Err((
                    RejectionReason::UnknownScope,
                    format!("scope {} is not in the snapshot", m.scope),
                ));
            }
            // A rival for the scope is not a rejection: see [`pending_note`].
            require_document(entity, "entity")
        }
        ProposalPayload::ProposeRelation(r) => {
            let to = endpoint(facts, &r.to, "payload.to")?;
            if let Some(kind) = r.kind.observed_kind()
                && facts.is_observed(&r.from, &r.to, kind)
            {
                return Err((
                    RejectionReason::RelationAlreadyObserved,
                    format!(
                        "the snapshot already has {} {} {}",
                        r.from,
                        kind.as_str(),
                        r.to
                    ),
                ));
            }
            match proposal
                .evidence
                .iter()
                .find(|item| !inside(&item.path, entity) && !inside(&item.path, to))
            {
                Some(item) => Err(outside_endpoints(item, "either endpoint")),
                None => Ok(()),
            }
        }
        ProposalPayload::FlagContradiction(c) => {
            let against = endpoint(facts, &c.against, "payload.against")?;
            if let Some(item) = proposal
                .evidence
                .iter()
                .find(|item| !inside(&item.path, entity) && !inside(&item.path, against))
            {
                return Err(outside_endpoints(item, "either entity"));
            }
            for (side, id) in [(entity, &proposal.entity), (against, &c.against)] {
                if !proposal
                    .evidence
                    .iter()
                    .any(|item| inside(&item.path, side))
                {
                    return Err((
                        RejectionReason::EvidenceOutsideEndpoints,
                        format!("no evidence item lies inside {id}; a contradiction needs both"),
                    ));
                }
            }
            Ok(())
        }
        ProposalPayload::FlagRedundancy(r) => {
            let with = endpoint(facts, &r.with, "payload.with")?;
            require_document(entity, "entity")?;
            require_document(with, "payload.with")?;
            if entity.content_hash() == with.content_hash() {
                return Err((
                    RejectionReason::AlreadyDuplicate,
                    format!(
                        "{} and {} already have the same contentHash",
                        proposal.entity, r.with
                    ),
                ));
            }
            Ok(())
        }
        ProposalPayload::FlagGap(g) => {
            if !matches!(facts.entity(&g.area), Some(Entity::Area(_))) {
                return Err((
                    RejectionReason::UnknownArea,
                    format!("payload.area {} is not an area of the snapshot", g.area),
                ));
            }
            let missing = normalize(&g.missing);
            let flagged = standing
                .filter_map(|p| match &p.payload {
                    ProposalPayload::FlagGap(other) if other.area == g.area => Some((p, other)),
                    _ => None,
                })
                .find(|(_, other)| normalize(&other.missing) == missing);
            match flagged {
                Some((p, _)) => Err((
                    RejectionReason::AlreadyFlagged,
                    format!("{} already flags the same gap in {}", p.proposal_id, g.area),
                )),
                None => Ok(()),
            }
        }
        ProposalPayload::SuggestArea(s) => {
            let mut dirs = Vec::new();
            for dir in &s.directories {
                match RelPath::new(dir).filter(|d| facts.is_directory(d)) {
                    Some(d) => dirs.push(d),
                    None => {
                        return Err((
                            RejectionReason::UnknownDirectory,
                            format!("directory {dir} holds no file of the snapshot"),
                        ));
                    }
                }
            }
            area_overlap(&dirs, facts)
        }
    }
}

/// `redaction`: a secret in any text the proposal would store.
fn redaction(p: &EnrichmentProposalV1) -> Result<(), Failure> {
    let origin = &p.origin;
    let mut fields: Vec<(&str, &str)> = vec![
        ("reason", &p.reason),
        ("origin.agentId", &origin.agent_id),
        ("origin.agentVersion", &origin.agent_version),
        ("origin.promptVersion", &origin.prompt_version),
    ];
    if let Some(model) = &origin.model {
        fields.push(("origin.model", model));
    }
    if let Some(provider) = &origin.provider {
        fields.push(("origin.provider", provider));
    }
    match &p.payload {
        ProposalPayload::Summarize(s) => {
            fields.push(("payload.summary", &s.summary));
            fields.push(("payload.language", &s.language));
        }
        ProposalPayload::AddAlias(a) => fields.push(("payload.alias", &a.alias)),
        ProposalPayload::AddIntent(i) => {
            fields.push(("payload.phrase", &i.phrase));
            fields.push(("payload.language", &i.language));
        }
        ProposalPayload::ProposeRelation(r) => fields.push(("payload.detection", &r.detection)),
        ProposalPayload::FlagContradiction(c) => {
            fields.push(("payload.claim", &c.claim));
            fields.push(("payload.observed", &c.observed));
        }
        ProposalPayload::FlagGap(g) => fields.push(("payload.missing", &g.missing)),
        ProposalPayload::SuggestArea(s) => fields.push(("payload.name", &s.name)),
        ProposalPayload::ClassifyDocument(_)
        | ProposalPayload::MarkCanonical(_)
        | ProposalPayload::FlagRedundancy(_)
        | ProposalPayload::RankHint(_) => {}
    }
    for (field, text) in fields {
        if let Some(kind) = find_secret(text) {
            return Err((
                RejectionReason::Redaction,
                format!("{field} contains a secret ({kind})"),
            ));
        }
    }
    Ok(())
}

/// An intent is a phrase a person would ask (`rotate the signing keys`): at least two words
/// with letters, and not a version string or a bare number (`v1.2.3`, `2024`). A single word
/// or a version is a name, and names are aliases.
fn intent_phrase(phrase: &str) -> Result<(), Failure> {
    let words: Vec<&str> = phrase
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .collect();
    let version = |w: &str| {
        let w = w.trim_start_matches(['v', 'V']);
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == '-')
    };
    if words.len() < 2 || phrase.split_whitespace().all(version) {
        return Err((
            RejectionReason::Schema,
            "payload.phrase is not a phrase a person would ask (at least two words, not a version or a number); a single name is an add-alias".to_owned(),
        ));
    }
    Ok(())
}

fn require_document(entity: &Entity, field: &str) -> Result<(), Failure> {
    match entity {
        Entity::Document(_) => Ok(()),
        other => Err((
            RejectionReason::EntityKind,
            format!(
                "{field} {} is a {}, not a document",
                other.id(),
                other.kind().as_str()
            ),
        )),
    }
}

fn endpoint<'a>(
    facts: &Facts<'a>,
    id: &doc_bridge_model::EntityId,
    field: &str,
) -> Result<&'a Entity, Failure> {
    facts.entity(id).ok_or_else(|| {
        (
            RejectionReason::UnknownEndpoint,
            format!("{field} {id} is not in the snapshot"),
        )
    })
}

fn outside_endpoints(item: &EvidenceItem, what: &str) -> Failure {
    (
        RejectionReason::EvidenceOutsideEndpoints,
        format!("evidence {} lies inside neither {what}", item.path),
    )
}

/// `alias-collision`: case-insensitive exact, or Jaro-Winkler ≥ 0.95 on the normalized forms,
/// against every entity's id, name, title, file stem and front matter alias, then every alias
/// accepted in the overlay or earlier in the batch (`aliases`, without the proposal's own stored
/// copy). The first collision in that order is the one named. Both lists are [`NameIndex`]es,
/// which find exactly what a scan with the definition would.
fn alias_collision(
    alias: &str,
    facts: &Facts<'_>,
    aliases: &NameIndex,
    proposal: &EnrichmentProposalV1,
) -> Result<(), Failure> {
    let Some(candidate) = Name::new(alias, "", "alias") else {
        return Ok(());
    };
    let found = facts
        .names()
        .first_collision(&candidate, &proposal.proposal_id)
        .or_else(|| aliases.first_collision(&candidate, &proposal.proposal_id));
    match found {
        Some(name) => Err((
            RejectionReason::AliasCollision,
            format!(
                "the alias collides with the {} of {}",
                name.what, name.owner
            ),
        )),
        None => Ok(()),
    }
}

/// `area-overlap`: areas partition the modules, so a suggested directory overlaps an existing
/// area when it is that area's directory, or when it holds a module the area contains (the
/// snapshot's `contains` relations from the area). A directory merely below an area that owns
/// none of its modules (documentation, assets) does not overlap, so a root-level area does not
/// block every suggestion.
fn area_overlap(dirs: &[RelPath], facts: &Facts<'_>) -> Result<(), Failure> {
    let snapshot = facts.snapshot;
    for entity in &snapshot.entities {
        let Entity::Area(area) = entity else {
            continue;
        };
        if let Some(dir) = dirs.iter().find(|d| **d == area.path) {
            return Err((
                RejectionReason::AreaOverlap,
                format!("directory {dir} is the directory of {}", area.id),
            ));
        }
    }
    for relation in &snapshot.relations {
        if relation.kind != RelationKind::Contains
            || !matches!(facts.entity(&relation.from), Some(Entity::Area(_)))
        {
            continue;
        }
        let Some(Entity::Module(module)) = facts.entity(&relation.to) else {
            continue;
        };
        if let Some(dir) = dirs.iter().find(|d| module.path.is_within(d)) {
            return Err((
                RejectionReason::AreaOverlap,
                format!(
                    "directory {dir} holds {}, which {} contains",
                    module.id, relation.from
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod intent_tests {
    use super::intent_phrase;

    #[test]
    fn an_intent_is_a_phrase_not_a_name_or_a_version() {
        assert!(intent_phrase("rotate the signing keys").is_ok());
        assert!(intent_phrase("set up CI").is_ok());
        for bad in ["auth", "v1.2.3", "2024", "v2 v3", "  ", "1.0 2.0"] {
            assert!(intent_phrase(bad).is_err(), "{bad}");
        }
    }
}
