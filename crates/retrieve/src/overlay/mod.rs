//! The seam through which accepted enrichment reaches the projection. Discovery never sees it;
//! an empty overlay leaves the projection byte-identical to the baseline. What the index build
//! takes of a stored overlay (its live entries, [`expire`], reduced to [`OverlaySignals`] by
//! [`overlay_signals`]) is decided here, so nothing on the index path depends on the enrich crate.

mod expire;
mod signals;

pub use expire::{ExpiredEntry, expire, expiry};
pub use signals::{CANONICAL_SIGNAL, STRONG_HINT_SIGNAL, WEAK_HINT_SIGNAL, overlay_signals};

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::hash::hash_canonical;
use doc_bridge_model::{ContentHash, EntityId};

/// The live accepted overlay, reduced to what ranking may use (enrichment-overlay-v1,
/// "Projection and bounded influence").
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OverlaySignals {
    /// Extra aliases per entity that name it exactly (a person approved them, or the
    /// configuration trusts policy-accepted aliases).
    pub aliases: BTreeMap<EntityId, Vec<String>>,
    /// Aliases accepted by policy alone: searchable words of the entity's `aliases` field, never
    /// an exact name (an agent cannot put an entry first for a phrase it chose).
    pub lexical_aliases: BTreeMap<EntityId, Vec<String>>,
    /// Summaries for entities that have none.
    pub summaries: BTreeMap<EntityId, String>,
    /// Intent phrases and the entity each leads to.
    pub intents: Vec<(String, EntityId)>,
    /// Entities marked canonical.
    pub canonical: BTreeSet<EntityId>,
    /// Signal strength in 0..=1 per entity (the maximum of its accepted signals).
    pub signals: BTreeMap<EntityId, f64>,
    /// Extra edges: (from, to, relation kind).
    pub edges: Vec<(EntityId, EntityId, String)>,
    /// Hash of the live accepted set.
    pub hash: Option<ContentHash>,
}

impl OverlaySignals {
    /// The hash of the empty accepted set.
    pub fn empty_hash() -> ContentHash {
        hash_canonical(&serde_json::json!([])).unwrap_or_else(|_| ContentHash::of_bytes(b"[]"))
    }

    /// This overlay's hash.
    pub fn overlay_hash(&self) -> ContentHash {
        self.hash.clone().unwrap_or_else(Self::empty_hash)
    }
}
