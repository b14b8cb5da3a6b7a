//! The opt-in publication gate on pending reference findings (docs/index-artifact.md,
//! "Publication"): with `index.referenceFindingsGate`, `index` publishes only when every
//! reference finding of the tree (a broken link, a dangling `covers`, an unresolved or
//! ambiguous mention) is already in the base report, `.doc-bridge/report.json` as the last
//! `check` left it. `--allow-pending-findings` publishes past a failing gate and records why in
//! the index's `publication`, as reason codes only: no path, no text of the base.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use doc_bridge_model::ContentHash;
use doc_bridge_model::is_cap_summary;
use doc_bridge_model::report::CheckReportV1;
use doc_bridge_model::snapshot::{Diagnostic, Snapshot};
use doc_bridge_store::artifact::{ArtifactError, read_json};

use crate::repo::Repo;

/// The base report the gate compares with.
pub const BASE_REPORT: &str = "report.json";

/// The codes that are reference findings.
pub const REFERENCE_CODES: &[&str] = &[
    "ambiguous-mention",
    "broken-link",
    "covers-unresolved",
    "unresolved-mention",
];

/// Why the gate failed: the reason codes of `publication.pendingReferenceFindings.reason`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Reference findings not in the base report.
    Pending,
    /// No base report.
    NoBase,
    /// The base report could not be read.
    BaseUnreadable,
    /// The base report is malformed or its seal does not hold.
    BaseInvalid,
    /// The base report left some reference findings out (capped lists), so no difference can
    /// be trusted.
    DiffUnavailable,
}

impl Reason {
    /// The reason code.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Pending => "pending",
            Reason::NoBase => "no-base",
            Reason::BaseUnreadable => "base-unreadable",
            Reason::BaseInvalid => "base-invalid",
            Reason::DiffUnavailable => "diff-unavailable",
        }
    }
}

/// A failed gate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed {
    /// Why.
    pub reason: Reason,
    /// The pending findings, when the gate got as far as counting them.
    pub pending: Option<Vec<Diagnostic>>,
    /// The base report's seal, when one was read.
    pub base_revision: Option<ContentHash>,
}

impl Failed {
    /// The index's `publication` for a publication past this failure.
    pub fn publication(&self) -> Value {
        let mut record = json!({
            "override": "allow-pending-findings",
            "reason": self.reason.as_str(),
        });
        if let Some(pending) = &self.pending {
            record["pendingCount"] = json!(pending.len());
        }
        if let Some(base) = &self.base_revision {
            record["baseRevision"] = json!(base);
        }
        json!({ "pendingReferenceFindings": record })
    }

    /// One line for people: what failed, naming up to `limit` findings.
    pub fn summary(&self, limit: usize) -> String {
        match (&self.reason, &self.pending) {
            (Reason::Pending, Some(pending)) => {
                let named: Vec<String> = pending
                    .iter()
                    .take(limit)
                    .map(|d| format!("{} {}", d.code, d.path))
                    .collect();
                let more = pending.len().saturating_sub(limit);
                let more = if more > 0 {
                    format!(", and {more} more")
                } else {
                    String::new()
                };
                format!(
                    "{} reference finding(s) not in the base report .doc-bridge/{BASE_REPORT} ({}{more})",
                    pending.len(),
                    named.join(", ")
                )
            }
            (Reason::NoBase, _) => format!(
                "there is no base report (.doc-bridge/{BASE_REPORT}) to compare reference findings with"
            ),
            (Reason::BaseUnreadable, _) => {
                format!("the base report .doc-bridge/{BASE_REPORT} cannot be read")
            }
            (Reason::BaseInvalid, _) => format!(
                "the base report .doc-bridge/{BASE_REPORT} is malformed or its seal does not match"
            ),
            (Reason::DiffUnavailable, _) | (Reason::Pending, None) => format!(
                "the base report .doc-bridge/{BASE_REPORT} lists only part of its reference findings, so they cannot be compared"
            ),
        }
    }
}

/// The gate over `snapshot`: `None` when it passes (or is not configured).
pub fn evaluate(repo: &Repo, snapshot: &Snapshot) -> Option<Failed> {
    if !repo.config.index.reference_findings_gate {
        return None;
    }
    let failed = |reason, base_revision| Failed {
        reason,
        pending: None,
        base_revision,
    };
    let base = match read_json::<CheckReportV1>(&repo.artifact(BASE_REPORT)) {
        Ok(Some(report)) => report,
        Ok(None) => return Some(failed(Reason::NoBase, None)),
        Err(ArtifactError::Malformed { .. }) => return Some(failed(Reason::BaseInvalid, None)),
        Err(_) => return Some(failed(Reason::BaseUnreadable, None)),
    };
    if !doc_bridge_check::seal_matches(&base) {
        return Some(failed(Reason::BaseInvalid, None));
    }
    let revision = Some(base.content_hash.clone());
    let is_reference = |d: &Diagnostic| REFERENCE_CODES.contains(&d.code.as_str());
    if base
        .diagnostics
        .iter()
        .any(|d| is_reference(d) && is_cap_summary(d))
    {
        return Some(failed(Reason::DiffUnavailable, revision));
    }
    // A finding is the same finding when its code, file and words are: lines may move.
    let known: BTreeSet<(&str, &str, &str)> = base
        .diagnostics
        .iter()
        .filter(|d| is_reference(d))
        .map(|d| (d.code.as_str(), d.path.as_str(), d.message.as_str()))
        .collect();
    // The tree's findings as `check` judges them: none on tests, fixtures and examples.
    let findings = doc_bridge_check::drop_exempt(snapshot, snapshot.diagnostics.clone());
    let pending: Vec<Diagnostic> = findings
        .iter()
        .filter(|d| is_reference(d) && !is_cap_summary(d))
        .filter(|d| {
            doc_bridge_check::effective_level(&d.code, d.severity, &repo.config.rules).is_some()
        })
        .filter(|d| !known.contains(&(d.code.as_str(), d.path.as_str(), d.message.as_str())))
        .cloned()
        .collect();
    if pending.is_empty() {
        // The tree's own list is capped: what was left out cannot be vouched for.
        if snapshot
            .diagnostics
            .iter()
            .any(|d| is_reference(d) && is_cap_summary(d))
        {
            return Some(failed(Reason::DiffUnavailable, revision));
        }
        return None;
    }
    Some(Failed {
        reason: Reason::Pending,
        pending: Some(pending),
        base_revision: revision,
    })
}
