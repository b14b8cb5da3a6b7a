//! The live accepted set → what ranking may use (enrichment-overlay-v1, "Projection and bounded
//! influence"). Flags and area suggestions have no effect: they are for a reviewer.

use super::OverlaySignals;
use doc_bridge_model::enrichment::{ACCEPTED_BY_POLICY, AcceptedEntry, ProposalPayload, Relevance};
use doc_bridge_model::hash::hash_canonical;

/// Signal share of an accepted `mark-canonical`.
pub const CANONICAL_SIGNAL: f64 = 0.8;
/// Signal share of a strong `rank-hint`.
pub const STRONG_HINT_SIGNAL: f64 = 1.0;
/// Signal share of a weak `rank-hint`.
pub const WEAK_HINT_SIGNAL: f64 = 0.5;

/// Projects the live accepted entries. `None` input → the empty overlay's signals, so the
/// projection stays byte-identical to the baseline. An alias accepted by policy is lexical
/// only, unless `trust_policy_aliases` (`retrieval.trustPolicyAliases`); one a person approved
/// names its entity exactly.
pub fn overlay_signals(live: &[AcceptedEntry], trust_policy_aliases: bool) -> OverlaySignals {
    let mut signals = OverlaySignals::default();
    if live.is_empty() {
        return signals;
    }
    let mut sorted: Vec<&AcceptedEntry> = live.iter().collect();
    sorted.sort_by(|a, b| a.proposal.proposal_id.cmp(&b.proposal.proposal_id));
    for entry in &sorted {
        let proposal = &entry.proposal;
        let entity = proposal.entity.clone();
        let mut raise = |share: f64| {
            let slot = signals.signals.entry(entity.clone()).or_insert(0.0);
            *slot = slot.max(share);
        };
        match &proposal.payload {
            ProposalPayload::AddAlias(p) => {
                let by_person = entry.accepted_by != ACCEPTED_BY_POLICY;
                let list = if by_person || trust_policy_aliases {
                    &mut signals.aliases
                } else {
                    &mut signals.lexical_aliases
                };
                let aliases = list.entry(entity.clone()).or_default();
                if !aliases.contains(&p.alias) {
                    aliases.push(p.alias.clone());
                }
            }
            ProposalPayload::Summarize(p) => {
                signals
                    .summaries
                    .entry(entity.clone())
                    .or_insert_with(|| p.summary.clone());
            }
            ProposalPayload::AddIntent(p) => {
                signals.intents.push((p.phrase.clone(), entity.clone()))
            }
            ProposalPayload::MarkCanonical(_) => {
                signals.canonical.insert(entity.clone());
                raise(CANONICAL_SIGNAL);
            }
            ProposalPayload::RankHint(p) => raise(match p.relevance {
                Relevance::Strong => STRONG_HINT_SIGNAL,
                Relevance::Weak => WEAK_HINT_SIGNAL,
            }),
            ProposalPayload::ProposeRelation(p) => {
                signals
                    .edges
                    .push((p.from.clone(), p.to.clone(), p.kind.as_str().to_owned()));
            }
            ProposalPayload::ClassifyDocument(_)
            | ProposalPayload::FlagContradiction(_)
            | ProposalPayload::FlagRedundancy(_)
            | ProposalPayload::FlagGap(_)
            | ProposalPayload::SuggestArea(_) => {}
        }
    }
    let proposals: Vec<_> = sorted.iter().map(|e| &e.proposal).collect();
    signals.hash = hash_canonical(&proposals).ok();
    signals
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use doc_bridge_model::EntityId;

    fn accepted_alias(alias: &str, by: &str) -> AcceptedEntry {
        let proposal = serde_json::json!({
            "proposalId": format!("p-{alias}"),
            "kind": "add-alias",
            "entity": "document:docs/a.md",
            "targetContentHash": "0".repeat(64),
            "confidence": 0.9,
            "reason": "r",
            "evidence": [{"source": "snapshot", "path": "docs/a.md", "lines": [1, 1]}],
            "relatedDiagnosticIds": [],
            "origin": {"agentId": "bot", "agentVersion": "1", "promptVersion": "1"},
            "baseSnapshotHash": "0".repeat(64),
            "payload": {"alias": alias},
        });
        AcceptedEntry {
            proposal: serde_json::from_value(proposal).unwrap(),
            accepted_at: "2026-01-01T00:00:00Z".into(),
            accepted_by: by.into(),
        }
    }

    #[test]
    fn policy_aliases_are_words_and_person_aliases_are_names() {
        let live = [
            accepted_alias("by-policy", "policy"),
            accepted_alias("by-ada", "Ada"),
        ];
        let entity = EntityId::from_raw("document:docs/a.md");
        let signals = overlay_signals(&live, false);
        assert_eq!(signals.aliases[&entity], ["by-ada"]);
        assert_eq!(signals.lexical_aliases[&entity], ["by-policy"]);
        // The configuration may trust policy: both name the entity then.
        let trusting = overlay_signals(&live, true);
        assert_eq!(trusting.aliases[&entity], ["by-ada", "by-policy"]);
        assert!(trusting.lexical_aliases.is_empty());
    }
}
