//! The check report (`.doc-bridge/report.json`): what `doc-bridge check` found, and the catalog
//! of diagnostic codes with their default severities and help texts.
//!
//! The catalog lives here, next to the report type, because three readers need it: the config
//! (unknown codes under `rules` are refused), the check rules (default severities) and the enrich
//! stage (which reads the report's diagnostics as evidence).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::hash::ContentHash;
use crate::snapshot::{Diagnostic, Project, Severity};

/// The `type` tag of a check report.
pub const REPORT_TYPE: &str = "doc-bridge-check-report";
/// The report schema version this build writes and reads.
pub const REPORT_SCHEMA_VERSION: u32 = 1;
/// Top-level fields left out of the report's `contentHash`: the seal itself, the time, and the
/// enrichment status (run metadata that never changes the diagnostics).
pub const REPORT_HASH_EXCLUDED: &[&str] = &["contentHash", "generatedAt", "enrichment"];

/// `.doc-bridge/report.json` (`CheckReportV1`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckReportV1 {
    /// Always [`REPORT_TYPE`].
    #[serde(rename = "type")]
    pub artifact_type: String,
    /// Always [`REPORT_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// sha256-semantic-v1 over the report minus [`REPORT_HASH_EXCLUDED`].
    pub content_hash: ContentHash,
    /// Always `sha256-semantic-v1`.
    pub content_hash_algo: String,
    /// RFC 3339 time of the run that first produced this content.
    pub generated_at: String,
    /// The project checked.
    pub project: Project,
    /// The `contentHash` of the snapshot the rules ran over (observed during this check).
    pub snapshot_hash: ContentHash,
    /// The state of `.doc-bridge/index.json` compared with the repository.
    pub index_status: IndexStatus,
    /// The stored index's `contentHash`, when it could be read and verified.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index_hash: Option<ContentHash>,
    /// Diagnostics per severity, after the `rules` configuration.
    pub counts: SeverityCounts,
    /// Every diagnostic, sorted by (path, line, code, message, id).
    pub diagnostics: Vec<Diagnostic>,
    /// The enrich stage's status (only with `check --enrich`); never affects the rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enrichment: Option<EnrichmentStatus>,
}

/// The stored index compared with the repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum IndexStatus {
    /// Built from exactly the current inputs.
    Fresh,
    /// Files, configuration or versions changed since it was built.
    Stale,
    /// No index file.
    Missing,
    /// Unreadable, malformed or mis-sealed.
    Invalid,
}

impl IndexStatus {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            IndexStatus::Fresh => "fresh",
            IndexStatus::Stale => "stale",
            IndexStatus::Missing => "missing",
            IndexStatus::Invalid => "invalid",
        }
    }
}

/// How many diagnostics have each severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeverityCounts {
    /// Errors.
    pub error: u64,
    /// Warnings.
    pub warning: u64,
    /// Infos.
    pub info: u64,
}

impl SeverityCounts {
    /// Counts `diagnostics` by severity.
    pub fn of(diagnostics: &[Diagnostic]) -> Self {
        let mut counts = SeverityCounts::default();
        for diagnostic in diagnostics {
            match diagnostic.severity {
                Severity::Error => counts.error += 1,
                Severity::Warning => counts.warning += 1,
                Severity::Info => counts.info += 1,
            }
        }
        counts
    }
}

/// The enrich stage's outcome as `check --enrich` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EnrichmentStatus {
    /// `ok`, `failed` or `skipped`.
    pub status: EnrichmentState,
    /// Why it failed or was skipped; value-free (never document text or agent output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The `contentHash` of the check report the stage's validators read (this check's own:
    /// `check --enrich` writes the report before the stage runs), when it ran against one. With
    /// `overlayHash`, the step's input (enrichment-overlay-v1, "The stage": `{reportHash,
    /// overlayHash}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report_hash: Option<String>,
    /// The overlay's `contentHash` after the run, when it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overlay_hash: Option<String>,
}

/// Enrichment outcomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum EnrichmentState {
    /// The stage ran (some agent calls may have failed).
    Ok,
    /// The stage could not run, or every agent call failed.
    Failed,
    /// No agent is configured (or the registry is disabled).
    Skipped,
}

/// A configured level for one code under `rules`: a severity, or `off` to drop the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RuleLevel {
    /// Counts for the exit code.
    Error,
    /// Counts for the exit code with `--strict`.
    Warning,
    /// Never counts for the exit code.
    Info,
    /// Not reported.
    Off,
}

impl RuleLevel {
    /// The severity, or `None` for `off`.
    pub fn severity(self) -> Option<Severity> {
        match self {
            RuleLevel::Error => Some(Severity::Error),
            RuleLevel::Warning => Some(Severity::Warning),
            RuleLevel::Info => Some(Severity::Info),
            RuleLevel::Off => None,
        }
    }
}

/// Who produces a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleOrigin {
    /// Discovery, while observing (stored in the snapshot).
    Discovery,
    /// A `check` rule over the snapshot and the index.
    Check,
}

/// One diagnostic code: its default severity and its one-line help (SARIF `shortDescription`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleInfo {
    /// The stable kebab-case code.
    pub code: &'static str,
    /// The severity `check` reports unless `rules` says otherwise.
    pub default: Severity,
    /// Who produces it.
    pub origin: RuleOrigin,
    /// One line: what it means and what to do.
    pub help: &'static str,
}

const fn rule(
    code: &'static str,
    default: Severity,
    origin: RuleOrigin,
    help: &'static str,
) -> RuleInfo {
    RuleInfo {
        code,
        default,
        origin,
        help,
    }
}

/// Every code `check` can report, sorted by code. Codes are stable: a code is never renamed or
/// reused for another meaning.
pub const RULES: &[RuleInfo] = &[
    rule(
        "ambiguous-mention",
        Severity::Info,
        RuleOrigin::Discovery,
        "An inline-code mention names a symbol or path that several modules match; qualify it or link the file.",
    ),
    rule(
        "area-import-cycle",
        Severity::Warning,
        RuleOrigin::Check,
        "Areas import each other in a cycle; break the cycle or merge the areas.",
    ),
    rule(
        "binary-file",
        Severity::Warning,
        RuleOrigin::Discovery,
        "A file with a text extension holds binary content; it was inventoried but not analysed.",
    ),
    rule(
        "broken-link",
        Severity::Error,
        RuleOrigin::Discovery,
        "A relative link points to a file that does not exist or outside the repository; fix or remove it.",
    ),
    rule(
        "c-parse-error",
        Severity::Info,
        RuleOrigin::Discovery,
        "A C or C++ module has syntax errors; the grammar reads code before its preprocessor, so macros it cannot expand leave errors in code that compiles. Only what could be read was kept.",
    ),
    rule(
        "covers-unresolved",
        Severity::Error,
        RuleOrigin::Discovery,
        "A front matter `covers` entry names no package, area, module or document (a dangling covers); fix the entry.",
    ),
    rule(
        "front-matter-invalid",
        Severity::Warning,
        RuleOrigin::Discovery,
        "The front matter is not a YAML mapping; fix it so title, covers and the other keys are read.",
    ),
    rule(
        "index-invalid",
        Severity::Error,
        RuleOrigin::Check,
        "The index is unreadable, malformed or its seal does not match; run `doc-bridge index` to regenerate it.",
    ),
    rule(
        "index-missing",
        Severity::Error,
        RuleOrigin::Check,
        "There is no index; run `doc-bridge index`.",
    ),
    rule(
        "index-stale",
        Severity::Error,
        RuleOrigin::Check,
        "The index was built from other files, configuration or versions than the repository has now; run `doc-bridge index`.",
    ),
    rule(
        "invalid-utf8",
        Severity::Warning,
        RuleOrigin::Discovery,
        "A text file is not valid UTF-8; it was inventoried but not analysed.",
    ),
    rule(
        "manifest-invalid",
        Severity::Warning,
        RuleOrigin::Discovery,
        "A package manifest does not parse; its package is not known.",
    ),
    rule(
        "members-truncated",
        Severity::Info,
        RuleOrigin::Discovery,
        "A module declares more members than are recorded; the rest are not searchable.",
    ),
    rule(
        "module-text-truncated",
        Severity::Info,
        RuleOrigin::Discovery,
        "Only the first part of a module's words is searchable (a generated or minified file?).",
    ),
    rule(
        "orphan-document",
        Severity::Warning,
        RuleOrigin::Check,
        "No other document links to this document; link it from an index or README.",
    ),
    rule(
        "oversize-file",
        Severity::Warning,
        RuleOrigin::Discovery,
        "A file is larger than `safety.maxFileBytes`; it was inventoried but not analysed.",
    ),
    rule(
        "parse-error",
        Severity::Info,
        RuleOrigin::Discovery,
        "A module has syntax errors as its grammar reads it (grammars lag behind the languages, and test inputs are invalid on purpose, so the code may well compile); only what could be read was kept.",
    ),
    rule(
        "special-file-skipped",
        Severity::Info,
        RuleOrigin::Discovery,
        "A FIFO, socket or device file was skipped; only regular files are read.",
    ),
    rule(
        "symlink-skipped",
        Severity::Info,
        RuleOrigin::Discovery,
        "A symbolic link was skipped; links are never followed.",
    ),
    rule(
        "uncovered-area",
        Severity::Info,
        RuleOrigin::Check,
        "No document covers, mentions or links into this area; document it or declare `covers`.",
    ),
    rule(
        "uncovered-package",
        Severity::Warning,
        RuleOrigin::Check,
        "No document covers, mentions or lives in this package; document it or declare `covers`.",
    ),
    rule(
        "unreadable-file",
        Severity::Warning,
        RuleOrigin::Discovery,
        "A file could not be read; it was skipped.",
    ),
    rule(
        "unreadable-path",
        Severity::Warning,
        RuleOrigin::Discovery,
        "A file name is not UTF-8; the file was skipped.",
    ),
    rule(
        "unresolved-import",
        Severity::Warning,
        RuleOrigin::Discovery,
        "A relative, crate or workspace import names nothing in the repository; fix the import.",
    ),
    rule(
        "unresolved-mention",
        Severity::Info,
        RuleOrigin::Discovery,
        "An inline-code path names nothing in the repository; fix the path or drop the backticks.",
    ),
    rule(
        "walk-error",
        Severity::Warning,
        RuleOrigin::Discovery,
        "A directory could not be listed; its files were not observed.",
    ),
];

/// The catalog entry of `code`, if it is known.
pub fn rule_info(code: &str) -> Option<&'static RuleInfo> {
    RULES
        .binary_search_by(|rule| rule.code.cmp(code))
        .ok()
        .map(|i| &RULES[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_is_sorted_unique_and_kebab_case() {
        for pair in RULES.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{} ≥ {}",
                pair[0].code,
                pair[1].code
            );
        }
        for rule in RULES {
            assert!(
                rule.code
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{}",
                rule.code
            );
            assert!(!rule.help.contains('\n'));
            assert_eq!(rule_info(rule.code), Some(rule));
        }
        assert!(rule_info("no-such-code").is_none());
    }
}
