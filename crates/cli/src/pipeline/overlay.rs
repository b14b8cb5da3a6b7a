//! The enrichment overlay as the index path reads it: loaded, written, its signals for the
//! projection, and the report diagnostics the validators see.

use doc_bridge_model::ContentHash;
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_retrieve::configuration_hash;
use doc_bridge_store::artifact::read_json;

use crate::exit::UserError;
use crate::repo::Repo;
use doc_bridge_model::enrichment::{EnrichmentOverlayV1, validate_overlay};
use doc_bridge_retrieve::overlay::OverlaySignals;

use super::*;

/// The overlay file, under `.doc-bridge/`.
pub const OVERLAY_FILE: &str = "enrich/overlay.json";

/// The stored enrichment overlay.
#[derive(Debug)]
pub enum OverlayState {
    /// No overlay file.
    Missing,
    /// Unreadable, malformed, mis-sealed or refused by the schema rules.
    Invalid(String),
    /// A valid overlay.
    Valid(Box<EnrichmentOverlayV1>),
}

/// Reads and verifies the overlay. Never writes.
pub fn load_overlay(repo: &Repo) -> OverlayState {
    match read_json::<EnrichmentOverlayV1>(&repo.artifact(OVERLAY_FILE)) {
        Ok(None) => OverlayState::Missing,
        Ok(Some(overlay)) => match validate_overlay(&overlay) {
            Ok(()) => OverlayState::Valid(Box::new(overlay)),
            Err(why) => OverlayState::Invalid(why.to_string()),
        },
        Err(e) => OverlayState::Invalid(e.to_string()),
    }
}

/// Writes the overlay atomically.
pub fn write_overlay(repo: &Repo, overlay: &EnrichmentOverlayV1) -> Result<(), UserError> {
    write_if_changed(&repo.artifact(OVERLAY_FILE), overlay).map(|_| ())
}

/// Whether `intelligence.registry.enabled` is not `false`.
fn registry_enabled(repo: &Repo) -> bool {
    repo.config
        .intelligence
        .as_ref()
        .and_then(|i| i.get("registry"))
        .and_then(|r| r.get("enabled"))
        .and_then(|e| e.as_bool())
        .unwrap_or(true)
}

/// What the projection may use of the overlay: the live accepted set of a valid overlay while
/// the registry is enabled; nothing otherwise (the baseline projection, byte for byte). An
/// invalid overlay reads as no overlay, with a warning.
pub fn overlay_signals_for(repo: &Repo, snapshot: &Snapshot) -> OverlaySignals {
    if !registry_enabled(repo) {
        return OverlaySignals::default();
    }
    match load_overlay(repo) {
        OverlayState::Valid(overlay) => {
            let (live, _) = doc_bridge_retrieve::overlay::expire(&overlay, snapshot);
            doc_bridge_retrieve::overlay::overlay_signals(
                &live,
                repo.config.retrieval.trust_policy_aliases,
            )
        }
        OverlayState::Missing => OverlaySignals::default(),
        OverlayState::Invalid(why) => {
            crate::errln!(
                "warning: ignoring the enrichment overlay: {why}; run `doc-bridge enrich` to rebuild it"
            );
            OverlaySignals::default()
        }
    }
}

/// Re-derives and writes the index (and its caches) from the stored snapshot and the overlay on
/// disk, so the next search reflects an enrichment decision without a manual re-index.
pub fn reindex_with_overlay(repo: &Repo) -> Result<ContentHash, UserError> {
    // The caller checked freshness before moving the overlay; the overlay is the only input that
    // changed since, and it is what this re-derivation takes in.
    let (loaded, snapshot) = load_for_query_with_snapshot(repo, true)?;
    // The snapshot holds no text: the stored projection does, and the overlay never changes it.
    let texts = doc_bridge_retrieve::projection::texts_of(&loaded.index.projection);
    drop(loaded);
    let (index, collection) = index(repo, &snapshot, &texts);
    write_sealed_if_changed(&repo.artifact(INDEX_FILE), &index)?;
    write_search_cache(repo, &index, &collection);
    Ok(index.content_hash)
}

/// The configuration part of the inputs fingerprint: the configuration sections the index
/// derives from, and the overlay the projection read (a changed, added or removed overlay makes
/// the index stale).
pub fn inputs_configuration_hash(repo: &Repo) -> ContentHash {
    let overlay = if registry_enabled(repo) {
        match load_overlay(repo) {
            OverlayState::Valid(overlay) => Some(overlay.content_hash),
            OverlayState::Missing | OverlayState::Invalid(_) => None,
        }
    } else {
        None
    };
    let configuration = configuration_hash(&repo.config);
    match overlay {
        None => configuration,
        Some(overlay) => doc_bridge_model::hash::hash_canonical(&serde_json::json!({
            "configuration": configuration,
            "overlay": overlay,
        }))
        .unwrap_or(configuration),
    }
}

/// The diagnostics of `.doc-bridge/report.json` when `check` wrote it for exactly this snapshot
/// (they include the snapshot's own); otherwise the snapshot's diagnostics. A missing, corrupt or
/// older report is simply not used: the validators then see what discovery saw.
pub fn report_diagnostics(
    repo: &Repo,
    snapshot: &Snapshot,
) -> Vec<doc_bridge_model::snapshot::Diagnostic> {
    let report: Option<doc_bridge_model::report::CheckReportV1> =
        doc_bridge_store::artifact::read_json(&repo.artifact("report.json"))
            .ok()
            .flatten();
    match report {
        Some(report) if report.snapshot_hash == snapshot.content_hash => report.diagnostics,
        _ => snapshot.diagnostics.clone(),
    }
}
