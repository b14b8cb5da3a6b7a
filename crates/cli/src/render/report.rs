//! Reading `check`'s `.doc-bridge/report.json` leniently for the report page: only the fields
//! the page shows, and only when the report was made against the snapshot being rendered.

use doc_bridge_model::snapshot::Severity;
use serde::Deserialize;

/// One diagnostic as the page shows it.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ReportDiagnostic {
    /// Stable id, when the report has one.
    #[serde(default)]
    pub id: Option<String>,
    /// Code.
    pub code: String,
    /// Severity.
    pub severity: Severity,
    /// File.
    pub path: String,
    /// Line.
    #[serde(default)]
    pub line: Option<u32>,
    /// Message.
    pub message: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReportHead {
    #[serde(default)]
    snapshot_hash: Option<String>,
    diagnostics: Vec<ReportDiagnostic>,
}

/// What became of `report.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckReport {
    /// No file.
    Absent,
    /// Present but unusable; the reason goes on the page.
    Ignored(String),
    /// Its diagnostics.
    Diagnostics(Vec<ReportDiagnostic>),
}

/// Parses the bytes of `report.json` (`None`: no file) for a snapshot with hash `snapshot_hash`.
pub fn parse(bytes: Option<&[u8]>, snapshot_hash: &str) -> CheckReport {
    let Some(bytes) = bytes else {
        return CheckReport::Absent;
    };
    match serde_json::from_slice::<ReportHead>(bytes) {
        Err(e) => CheckReport::Ignored(format!(
            ".doc-bridge/report.json is not a readable check report ({e}); run `doc-bridge check` to regenerate it"
        )),
        Ok(head) if head.snapshot_hash.as_deref().is_some_and(|h| h != snapshot_hash) => {
            CheckReport::Ignored(
                ".doc-bridge/report.json was made against another snapshot; run `doc-bridge check` to refresh it"
                    .to_owned(),
            )
        }
        Ok(head) => CheckReport::Diagnostics(head.diagnostics),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_report_for_another_snapshot_or_with_a_wrong_shape_is_ignored() {
        assert_eq!(parse(None, "a"), CheckReport::Absent);
        assert!(matches!(parse(Some(b"{"), "a"), CheckReport::Ignored(_)));
        assert!(matches!(
            parse(Some(br#"{"diagnostics": [{"code": 1}]}"#), "a"),
            CheckReport::Ignored(_)
        ));
        assert!(matches!(
            parse(Some(br#"{"snapshotHash": "b", "diagnostics": []}"#), "a"),
            CheckReport::Ignored(_)
        ));
        let ok = parse(
            Some(
                br#"{"snapshotHash": "a", "extra": 1, "diagnostics": [{"code": "x", "severity": "error", "path": "p", "message": "m", "entity": "e"}]}"#,
            ),
            "a",
        );
        let CheckReport::Diagnostics(list) = ok else {
            panic!("{ok:?}")
        };
        assert_eq!(list[0].code, "x");
        assert_eq!(list[0].severity, Severity::Error);
    }
}
