//! Severities: the catalog default per code, overridden per code by the `rules` configuration.

use std::collections::BTreeMap;

use doc_bridge_model::report::{RuleLevel, rule_info};
use doc_bridge_model::snapshot::{Diagnostic, Severity};

/// The severity `code` is reported with, or `None` when it is configured `off`.
pub fn level(code: &str, found: Severity, rules: &BTreeMap<String, RuleLevel>) -> Option<Severity> {
    match rules.get(code) {
        Some(level) => level.severity(),
        None => Some(rule_info(code).map_or(found, |rule| rule.default)),
    }
}

/// Applies [`level`] to every diagnostic, dropping the ones turned off. The id does not change:
/// it names the finding, not how loudly it is reported.
pub fn apply(diagnostics: Vec<Diagnostic>, rules: &BTreeMap<String, RuleLevel>) -> Vec<Diagnostic> {
    diagnostics
        .into_iter()
        .filter_map(|mut diagnostic| {
            diagnostic.severity = level(&diagnostic.code, diagnostic.severity, rules)?;
            Some(diagnostic)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use doc_bridge_model::RelPath;

    fn diagnostic(code: &str, severity: Severity) -> Diagnostic {
        Diagnostic::new(
            code,
            severity,
            RelPath::new("a.md").unwrap(),
            Some(1),
            "m",
            None,
        )
    }

    #[test]
    fn catalog_default_replaces_the_discovery_severity() {
        let out = apply(
            vec![diagnostic("broken-link", Severity::Warning)],
            &BTreeMap::new(),
        );
        assert_eq!(out[0].severity, Severity::Error);
    }

    #[test]
    fn configured_level_wins_and_off_drops() {
        let rules = BTreeMap::from([
            ("broken-link".to_owned(), RuleLevel::Info),
            ("orphan-document".to_owned(), RuleLevel::Off),
        ]);
        let out = apply(
            vec![
                diagnostic("broken-link", Severity::Warning),
                diagnostic("orphan-document", Severity::Warning),
            ],
            &rules,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].code, "broken-link");
        assert_eq!(out[0].severity, Severity::Info);
    }

    #[test]
    fn an_unknown_code_keeps_its_own_severity() {
        let out = apply(
            vec![diagnostic("future-code", Severity::Warning)],
            &BTreeMap::new(),
        );
        assert_eq!(out[0].severity, Severity::Warning);
    }
}
