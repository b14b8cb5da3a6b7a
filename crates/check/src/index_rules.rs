//! `index-missing`, `index-invalid`, `index-stale`: the stored index against the repository.

use doc_bridge_model::RelPath;
use doc_bridge_model::snapshot::{Diagnostic, Severity};

use crate::IndexCondition;

/// At most one diagnostic, located at the index file (there is no line to point at).
pub fn diagnostics(index: &IndexCondition, index_path: &RelPath) -> Vec<Diagnostic> {
    let (code, message) = match index {
        IndexCondition::Fresh { .. } => return Vec::new(),
        IndexCondition::Missing => (
            "index-missing",
            format!("no index at {index_path}; run `doc-bridge index`"),
        ),
        IndexCondition::Invalid { reason } => (
            "index-invalid",
            format!(
                "index at {index_path} is invalid: {reason}; run `doc-bridge index` to regenerate it"
            ),
        ),
        IndexCondition::Stale { summary, .. } => (
            "index-stale",
            format!("index is stale: {summary}; run `doc-bridge index`"),
        ),
    };
    vec![Diagnostic::new(
        code,
        Severity::Error,
        index_path.clone(),
        None,
        message,
        None,
    )]
}

#[cfg(test)]
mod tests {
    use super::*;
    use doc_bridge_model::ContentHash;

    fn path() -> RelPath {
        RelPath::new(".doc-bridge/index.json").unwrap()
    }

    #[test]
    fn fresh_index_gives_nothing() {
        let fresh = IndexCondition::Fresh {
            hash: ContentHash::of_bytes(b"i"),
        };
        assert!(diagnostics(&fresh, &path()).is_empty());
    }

    #[test]
    fn stale_missing_and_invalid_are_errors_at_the_index_file() {
        let cases = [
            (
                IndexCondition::Stale {
                    hash: ContentHash::of_bytes(b"i"),
                    summary: "1 file(s) changed since it was built (a.md)".to_owned(),
                },
                "index-stale",
                "a.md",
            ),
            (IndexCondition::Missing, "index-missing", "doc-bridge index"),
            (
                IndexCondition::Invalid {
                    reason: "bad seal".to_owned(),
                },
                "index-invalid",
                "bad seal",
            ),
        ];
        for (condition, code, needle) in cases {
            let out = diagnostics(&condition, &path());
            assert_eq!(out.len(), 1);
            assert_eq!(out[0].code, code);
            assert_eq!(out[0].severity, Severity::Error);
            assert_eq!(out[0].path, path());
            assert!(out[0].message.contains(needle), "{}", out[0].message);
        }
    }
}
