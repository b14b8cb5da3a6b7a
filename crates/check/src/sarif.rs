//! SARIF 2.1.0 output, in the shape GitHub code scanning accepts: one run, a driver with every
//! rule (id, name, descriptions, help, default level), and one result per diagnostic with a
//! repository-relative physical location (`uriBaseId: %SRCROOT%`) and a line.
//!
//! Diagnostics without a line (index state, orphan documents, uncovered packages) point at line 1
//! of their file, because GitHub needs a region to show a result.

use std::collections::BTreeMap;

use doc_bridge_model::hash::hash_canonical;
use doc_bridge_model::report::{CheckReportV1, RULES, RuleLevel};
use doc_bridge_model::snapshot::Severity;
use serde_json::{Value, json};

/// The SARIF version written.
pub const SARIF_VERSION: &str = "2.1.0";
/// The `$schema` written (the location GitHub documents for SARIF 2.1.0).
pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The key of our stable fingerprint under `partialFingerprints`.
pub const FINGERPRINT_KEY: &str = "docBridgeFinding/v1";
/// Help for a code this build does not know (a newer snapshot).
const UNKNOWN_HELP: &str = "A diagnostic reported by doc-bridge discovery.";

/// SARIF `level` of a severity.
pub fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The report as a SARIF 2.1.0 log. `rules` is the `rules` configuration (for each rule's
/// default level); `tool_version` is doc-bridge's version.
pub fn to_sarif(
    report: &CheckReportV1,
    rules: &BTreeMap<String, RuleLevel>,
    tool_version: &str,
) -> Value {
    // The catalog, plus any code a newer discovery reported that this build does not know.
    let mut catalog: Vec<(&str, &str, Option<Severity>)> = RULES
        .iter()
        .map(|r| {
            (
                r.code,
                r.help,
                crate::effective_level(r.code, r.default, rules),
            )
        })
        .collect();
    for d in &report.diagnostics {
        if !catalog.iter().any(|(code, _, _)| *code == d.code) {
            catalog.push((d.code.as_str(), UNKNOWN_HELP, Some(d.severity)));
        }
    }
    catalog.sort_by(|a, b| a.0.cmp(b.0));
    let index: BTreeMap<&str, usize> = catalog
        .iter()
        .enumerate()
        .map(|(i, (code, _, _))| (*code, i))
        .collect();
    let driver_rules: Vec<Value> = catalog
        .iter()
        .map(|(code, help, severity)| {
            json!({
                "id": code,
                "name": pascal_case(code),
                "shortDescription": {"text": help},
                "fullDescription": {"text": help},
                "help": {"text": format!("{help} (doc-bridge rule `{code}`; severities are set under `rules` in doc-bridge.config.json.)")},
                "defaultConfiguration": {"level": severity.map_or("none", level)},
            })
        })
        .collect();
    let results: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|d| {
            let fingerprint = hash_canonical(&json!({
                "code": d.code, "path": d.path.as_str(), "entity": d.entity, "message": d.message,
            }))
            .map(|h| h.as_str()[..16].to_owned())
            .unwrap_or_else(|_| d.id.clone());
            let mut result = json!({
                "ruleId": d.code,
                "ruleIndex": index.get(d.code.as_str()).copied().unwrap_or(0),
                "level": level(d.severity),
                "message": {"text": d.message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri(d.path.as_str()), "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": d.line.unwrap_or(1).max(1)},
                    }
                }],
                "partialFingerprints": {FINGERPRINT_KEY: fingerprint},
                "properties": {"diagnosticId": d.id},
            });
            if let (Some(entity), Some(properties)) =
                (&d.entity, result["properties"].as_object_mut())
            {
                properties.insert("entity".to_owned(), json!(entity));
            }
            result
        })
        .collect();
    json!({
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {
                "name": "doc-bridge",
                "version": tool_version,
                "rules": driver_rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}

/// `broken-link` → `BrokenLink`.
fn pascal_case(code: &str) -> String {
    code.split('-')
        .map(|part| {
            let mut chars = part.chars();
            match chars.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// A repository-relative path as a relative URI reference: every byte outside the unreserved
/// set and `/` percent-encoded (spaces, non-ASCII, `#`, `?`, `%`).
pub fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded_and_keep_slashes() {
        assert_eq!(
            uri("docs/notes/naïve plan.md"),
            "docs/notes/na%C3%AFve%20plan.md"
        );
        assert_eq!(uri("a/b#c?.md"), "a/b%23c%3F.md");
        assert_eq!(uri(".doc-bridge/index.json"), ".doc-bridge/index.json");
    }

    #[test]
    fn unknown_codes_get_a_rule_and_off_codes_level_none() {
        use crate::{CheckInput, IndexCondition};
        use doc_bridge_model::RelPath;
        use doc_bridge_model::snapshot::Diagnostic;

        let mut snapshot = crate::tests::snapshot(Vec::new(), Vec::new());
        snapshot.diagnostics = vec![Diagnostic::new(
            "zz-future-code",
            Severity::Warning,
            RelPath::new("docs/a b.md").unwrap(),
            None,
            "m",
            None,
        )];
        let rules = BTreeMap::from([("orphan-document".to_owned(), RuleLevel::Off)]);
        let index = IndexCondition::Missing;
        let index_path = RelPath::new(".doc-bridge/index.json").unwrap();
        let input = CheckInput {
            snapshot: &snapshot,
            index: &index,
            index_path: &index_path,
            rules: &rules,
        };
        let report = crate::report(&input, "t".to_owned(), None);
        let sarif = to_sarif(&report, &rules, "1.2.3");
        let run = &sarif["runs"][0];
        let driver_rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        assert_eq!(driver_rules.len(), RULES.len() + 1);
        let orphan = driver_rules
            .iter()
            .find(|r| r["id"] == "orphan-document")
            .unwrap();
        assert_eq!(orphan["defaultConfiguration"]["level"], "none");
        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), 2);
        for result in results {
            let index = result["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(driver_rules[index]["id"], result["ruleId"]);
            assert_eq!(
                result["locations"][0]["physicalLocation"]["region"]["startLine"],
                1
            );
        }
        let future = results
            .iter()
            .find(|r| r["ruleId"] == "zz-future-code")
            .unwrap();
        assert_eq!(future["level"], "warning");
        assert_eq!(
            future["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "docs/a%20b.md"
        );
    }

    #[test]
    fn rule_names_are_pascal_case() {
        assert_eq!(pascal_case("area-import-cycle"), "AreaImportCycle");
        assert_eq!(pascal_case("invalid-utf8"), "InvalidUtf8");
    }
}
