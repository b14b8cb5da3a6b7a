//! The text form of a report: one line per diagnostic, then a summary.

use std::fmt::Write;

use doc_bridge_model::report::{CheckReportV1, EnrichmentState};
use doc_bridge_model::snapshot::Severity;

/// The severity word in text output.
pub fn severity_word(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// `path:line: severity[code] message` per diagnostic (`path: ...` without a line), then
/// `check passed|failed: N error(s), N warning(s), N info (index <status>)`, then the enrichment
/// status when there is one.
pub fn render(report: &CheckReportV1, strict: bool) -> String {
    let mut out = String::new();
    for d in &report.diagnostics {
        let location = match d.line {
            Some(line) => format!("{}:{line}", d.path),
            None => d.path.to_string(),
        };
        // Messages are one line by construction; a quoted newline must not break the format.
        let message = d.message.replace(['\n', '\r'], " ");
        let _ = writeln!(
            out,
            "{location}: {}[{}] {message}",
            severity_word(d.severity),
            d.code
        );
    }
    let verdict = if crate::fails(report, strict) {
        "failed"
    } else {
        "passed"
    };
    let c = report.counts;
    let _ = writeln!(
        out,
        "check {verdict}: {} error(s), {} warning(s), {} info (index {}{})",
        c.error,
        c.warning,
        c.info,
        report.index_status.as_str(),
        if strict { "; strict" } else { "" }
    );
    if let Some(enrichment) = &report.enrichment {
        let status = match enrichment.status {
            EnrichmentState::Ok => "ok",
            EnrichmentState::Failed => "failed",
            EnrichmentState::Skipped => "skipped",
        };
        let _ = match &enrichment.reason {
            Some(reason) => writeln!(out, "enrichment: {status} ({reason})"),
            None => writeln!(out, "enrichment: {status}"),
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CheckInput, IndexCondition};
    use doc_bridge_model::RelPath;
    use doc_bridge_model::report::EnrichmentStatus;
    use doc_bridge_model::snapshot::Diagnostic;
    use std::collections::BTreeMap;

    #[test]
    fn lines_summary_strictness_and_enrichment() {
        let mut snapshot = crate::tests::snapshot(Vec::new(), Vec::new());
        snapshot.diagnostics = vec![Diagnostic::new(
            "parse-error",
            Severity::Warning,
            RelPath::new("src/a.py").unwrap(),
            Some(3),
            "bad\nsyntax",
            None,
        )];
        let index = IndexCondition::Fresh {
            hash: doc_bridge_model::ContentHash::of_bytes(b"i"),
        };
        let index_path = RelPath::new(".doc-bridge/index.json").unwrap();
        let rules = BTreeMap::new();
        let input = CheckInput {
            snapshot: &snapshot,
            index: &index,
            index_path: &index_path,
            rules: &rules,
        };
        let enrichment = EnrichmentStatus {
            status: EnrichmentState::Skipped,
            reason: Some("no agent".to_owned()),
            report_hash: None,
            overlay_hash: None,
        };
        let report = crate::report(&input, "t".to_owned(), Some(enrichment));
        assert_eq!(
            render(&report, false),
            "src/a.py:3: warning[parse-error] bad syntax\n\
             check passed: 0 error(s), 1 warning(s), 0 info (index fresh)\n\
             enrichment: skipped (no agent)\n"
        );
        assert!(
            render(&report, true)
                .contains("check failed: 0 error(s), 1 warning(s), 0 info (index fresh; strict)")
        );
    }
}
