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
