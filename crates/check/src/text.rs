//! The text form of a report: one line per diagnostic, then a summary.

use std::fmt::Write;

use doc_bridge_model::report::{CheckReportV1, EnrichmentState, SeverityCounts};
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
/// status when there is one. `left_out` counts the findings a `--min-severity` filter took out
/// of `report`; the summary names them (`…; not shown: N warning(s), N info`).
pub fn render(report: &CheckReportV1, strict: bool, left_out: SeverityCounts) -> String {
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
    let mut not_shown = Vec::new();
    if left_out.warning > 0 {
        not_shown.push(format!("{} warning(s)", left_out.warning));
    }
    if left_out.info > 0 {
        not_shown.push(format!("{} info", left_out.info));
    }
    let not_shown = if not_shown.is_empty() {
        String::new()
    } else {
        format!("; not shown: {}", not_shown.join(", "))
    };
    let _ = writeln!(
        out,
        "check {verdict}: {} error(s), {} warning(s), {} info (index {}{}){not_shown}",
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

    /// The report of `snapshot` with a fresh index and no `rules`.
    fn fresh_report(
        snapshot: &doc_bridge_model::snapshot::Snapshot,
        enrichment: Option<EnrichmentStatus>,
    ) -> CheckReportV1 {
        let index = IndexCondition::Fresh {
            hash: doc_bridge_model::ContentHash::of_bytes(b"i"),
        };
        let index_path = RelPath::new(".doc-bridge/index.json").unwrap();
        let rules = BTreeMap::new();
        let input = CheckInput {
            snapshot,
            index: &index,
            index_path: &index_path,
            rules: &rules,
        };
        crate::report(&input, "t".to_owned(), enrichment)
    }

    #[test]
    fn lines_summary_strictness_and_enrichment() {
        let mut snapshot = crate::tests::snapshot(Vec::new(), Vec::new());
        snapshot.diagnostics = vec![Diagnostic::new(
            "front-matter-invalid",
            Severity::Warning,
            RelPath::new("src/a.md").unwrap(),
            Some(3),
            "bad\nsyntax",
            None,
        )];
        let enrichment = EnrichmentStatus {
            status: EnrichmentState::Skipped,
            reason: Some("no agent".to_owned()),
            report_hash: None,
            overlay_hash: None,
        };
        let report = fresh_report(&snapshot, Some(enrichment));
        assert_eq!(
            render(&report, false, SeverityCounts::default()),
            "src/a.md:3: warning[front-matter-invalid] bad syntax\n\
             check passed: 0 error(s), 1 warning(s), 0 info (index fresh)\n\
             enrichment: skipped (no agent)\n"
        );
        assert!(
            render(&report, true, SeverityCounts::default())
                .contains("check failed: 0 error(s), 1 warning(s), 0 info (index fresh; strict)")
        );
    }

    #[test]
    fn min_severity_lists_counts_and_fails_on_what_it_keeps_and_names_the_rest() {
        let mut snapshot = crate::tests::snapshot(Vec::new(), Vec::new());
        let diagnostic = |code: &str, severity: Severity, path: &str| {
            Diagnostic::new(code, severity, RelPath::new(path).unwrap(), None, "m", None)
        };
        snapshot.diagnostics = vec![
            diagnostic("front-matter-invalid", Severity::Warning, "a.md"),
            diagnostic("front-matter-invalid", Severity::Warning, "b.md"),
            diagnostic("uncovered-area", Severity::Info, "c.py"),
        ];
        let report = fresh_report(&snapshot, None);
        assert_eq!(report.diagnostics.len(), 3);

        let (all, none_left) = crate::at_least(&report, Severity::Info);
        assert_eq!(all, report);
        assert_eq!(none_left, SeverityCounts::default());

        let (warnings, left_out) = crate::at_least(&report, Severity::Warning);
        assert_eq!(warnings.diagnostics.len(), 2);
        assert_eq!((warnings.counts.warning, warnings.counts.info), (2, 0));
        assert_eq!((left_out.warning, left_out.info), (0, 1));
        assert!(
            crate::seal_matches(&warnings),
            "the filtered report is sealed anew"
        );
        assert_ne!(warnings.content_hash, report.content_hash);
        assert!(render(&warnings, false, left_out).ends_with(
            "check passed: 0 error(s), 2 warning(s), 0 info (index fresh); not shown: 1 info\n"
        ));

        let (errors, left_out) = crate::at_least(&report, Severity::Error);
        assert!(errors.diagnostics.is_empty());
        assert_eq!((left_out.warning, left_out.info), (2, 1));
        // Strict fails on warnings it shows, not on warnings the threshold left out.
        assert!(crate::fails(&warnings, true));
        assert!(!crate::fails(&errors, true));
        assert!(render(&errors, true, left_out).contains("; not shown: 2 warning(s), 1 info"));
    }
}
