//! Enrichment's deterministic core (enrichment-overlay-v1): the validators that decide typed
//! agent proposals, revalidation and per-entry expiry of the overlay, and the one secret
//! pattern list shared with the context packs.
//!
//! Architecture invariant: pure functions of a snapshot, a report and an overlay. Nothing here
//! reads the disk or the clock, and this crate never depends on an agent or HTTP crate:
//! proposals arrive as JSON values and leave as [`Decision`]s ("What never happens": no agent
//! approves anything; validators have no judgement to exercise).
//!
//! - [`decide_batch`]: envelope checks in the seed's fixed order, then each kind's rule.
//! - [`revalidate`] and [`partition_mismatches`]: reproducible acceptance.
//! - [`expire`]: staleness is per entry.
//! - [`redact`]: `contains_secret` and `redact` over [`redact::REDACTION_PATTERNS`].
//! - [`overlay_signals`]: the live accepted set as the projection's bounded inputs.

pub mod adjudicate;
pub mod agent;
pub mod approvals;
mod batch;
mod context;
mod decision;
mod envelope;
pub mod feedback;
pub mod identity;
mod overlay;
pub mod pack;
pub mod redact;
mod revalidate;
mod rules;
pub mod stage;

pub use batch::decide_batch;
pub use context::Context;
pub use decision::{
    AWAITING_APPROVAL, CANONICAL_CONFLICT, DETAIL_MAX_CHARS, Decision, REJECTED_FIELD_MAX_CHARS,
};
pub use doc_bridge_retrieve::overlay::{
    CANONICAL_SIGNAL, ExpiredEntry, STRONG_HINT_SIGNAL, WEAK_HINT_SIGNAL, expire, overlay_signals,
};
pub use overlay::{overlay_from_decisions, recount};
pub use revalidate::{Partition, PartitionMismatch, partition_mismatches, reproduces, revalidate};
pub use rules::ALIAS_JARO_WINKLER_THRESHOLD;
