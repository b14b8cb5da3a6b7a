//! The live accepted set → what ranking may use (enrichment-overlay-v1, "Projection and bounded
//! influence"). Flags and area suggestions have no effect: they are for a reviewer.

use doc_bridge_model::enrichment::{AcceptedEntry, ProposalPayload, Relevance};
use doc_bridge_model::hash::hash_canonical;
use doc_bridge_retrieve::overlay::OverlaySignals;

/// Signal share of an accepted `mark-canonical`.
pub const CANONICAL_SIGNAL: f64 = 0.8;
/// Signal share of a strong `rank-hint`.
pub const STRONG_HINT_SIGNAL: f64 = 1.0;
/// Signal share of a weak `rank-hint`.
pub const WEAK_HINT_SIGNAL: f64 = 0.5;

/// Projects the live accepted entries. `None` input → the empty overlay's signals, so the
/// projection stays byte-identical to the baseline.
pub fn overlay_signals(live: &[AcceptedEntry]) -> OverlaySignals {
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
                let aliases = signals.aliases.entry(entity.clone()).or_default();
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
