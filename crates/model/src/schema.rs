//! JSON Schema export (`doc-bridge schema <name>`).

use crate::config::Config;
use crate::enrichment::{EnrichmentOverlayV1, EnrichmentProposalV1};
use crate::index::DocBridgeIndexV1;
use crate::report::CheckReportV1;
use crate::snapshot::Snapshot;

/// The artifacts whose schema can be printed.
pub const SCHEMA_NAMES: &[&str] = &[
    "index", "snapshot", "config", "proposal", "overlay", "report",
];

/// The JSON Schema (draft 2020-12) of a named artifact, or `None` for an unknown name.
pub fn schema_for(name: &str) -> Option<serde_json::Value> {
    let schema = match name {
        "index" => schemars::schema_for!(DocBridgeIndexV1),
        "snapshot" => schemars::schema_for!(Snapshot),
        "config" => schemars::schema_for!(Config),
        "proposal" => schemars::schema_for!(EnrichmentProposalV1),
        "overlay" => schemars::schema_for!(EnrichmentOverlayV1),
        "report" => schemars::schema_for!(CheckReportV1),
        _ => return None,
    };
    serde_json::to_value(schema).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_schema_exports_and_names_its_fields() {
        for name in SCHEMA_NAMES {
            let schema = schema_for(name).unwrap();
            assert_eq!(
                schema["$schema"],
                "https://json-schema.org/draft/2020-12/schema"
            );
        }
        let index = schema_for("index").unwrap();
        assert!(index["properties"]["contentHashAlgo"].is_object());
        assert!(schema_for("nope").is_none());
        let proposal = schema_for("proposal").unwrap();
        assert!(proposal["properties"]["proposalId"].is_object());
        let text = proposal.to_string();
        for kind in crate::enrichment::ProposalKind::ALL {
            assert!(
                text.contains(&format!("\"{}\"", kind.as_str())),
                "{}",
                kind.as_str()
            );
        }
        let overlay = schema_for("overlay").unwrap();
        assert!(overlay["properties"]["rejected"].is_object());
        let report = schema_for("report").unwrap();
        assert!(report["properties"]["diagnostics"].is_object());
    }
}
