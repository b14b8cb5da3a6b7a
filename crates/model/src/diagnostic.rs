//! Building diagnostics with stable ids.

use crate::hash::hash_canonical;
use crate::ids::{EntityId, RelPath};
use crate::snapshot::{Diagnostic, Severity};

impl Diagnostic {
    /// A diagnostic whose `id` is the first 16 hex digits of sha256 over canonical
    /// `{code, path, line, message}`: stable across runs and machines.
    pub fn new(
        code: &str,
        severity: Severity,
        path: RelPath,
        line: Option<u32>,
        message: impl Into<String>,
        entity: Option<EntityId>,
    ) -> Self {
        let message = message.into();
        let key = serde_json::json!({
            "code": code, "path": path.as_str(), "line": line, "message": message,
        });
        let id = match hash_canonical(&key) {
            Ok(hash) => hash.as_str()[..16].to_owned(),
            // Unreachable for strings and integers; keep a deterministic fallback anyway.
            Err(_) => format!("{code}:{path}:{}", line.unwrap_or(0)),
        };
        Diagnostic {
            id,
            code: code.to_owned(),
            severity,
            path,
            line,
            message,
            entity,
        }
    }

    /// The sort key used everywhere diagnostics are listed.
    pub fn sort_key(&self) -> (&RelPath, u32, &str, &str) {
        (
            &self.path,
            self.line.unwrap_or(0),
            &self.code,
            &self.message,
        )
    }
}

/// At most this many diagnostics of one code in one file are listed.
pub const MAX_DIAGNOSTICS_PER_FILE_AND_CODE: usize = 100;

/// At most this many diagnostics of one code are listed in all.
pub const MAX_DIAGNOSTICS_PER_CODE: usize = 10_000;

/// Bounds a list of diagnostics sorted by [`Diagnostic::sort_key`]: the first
/// `per_file` of each code in each file and the first `per_code` of each code overall are kept
/// (in list order), and each group that lost some gets one summary diagnostic of the same code
/// and severity saying how many were left out (for a file, at that file; overall, at the root).
/// A file with 600,000 broken links costs a report of a hundred, not gigabytes. The result is
/// sorted again and a pure function of the input.
pub fn cap_diagnostics(
    sorted: Vec<Diagnostic>,
    per_file: usize,
    per_code: usize,
) -> Vec<Diagnostic> {
    use std::collections::HashMap;
    let mut in_file: HashMap<(RelPath, String), (usize, Severity)> = HashMap::new();
    let mut in_all: HashMap<String, (usize, Severity)> = HashMap::new();
    let mut kept = Vec::with_capacity(sorted.len().min(per_code.saturating_mul(4)));
    let mut dropped_in_file: std::collections::BTreeMap<(RelPath, String), (usize, Severity)> =
        Default::default();
    let mut dropped_in_all: std::collections::BTreeMap<String, (usize, Severity)> =
        Default::default();
    for diagnostic in sorted {
        let file_count = in_file
            .entry((diagnostic.path.clone(), diagnostic.code.clone()))
            .or_insert((0, diagnostic.severity));
        file_count.0 += 1;
        if file_count.0 > per_file {
            dropped_in_file
                .entry((diagnostic.path.clone(), diagnostic.code.clone()))
                .or_insert((0, diagnostic.severity))
                .0 += 1;
            continue;
        }
        let all_count = in_all
            .entry(diagnostic.code.clone())
            .or_insert((0, diagnostic.severity));
        all_count.0 += 1;
        if all_count.0 > per_code {
            dropped_in_all
                .entry(diagnostic.code.clone())
                .or_insert((0, diagnostic.severity))
                .0 += 1;
            continue;
        }
        kept.push(diagnostic);
    }
    if dropped_in_file.is_empty() && dropped_in_all.is_empty() {
        return kept;
    }
    for ((path, code), (count, severity)) in dropped_in_file {
        kept.push(Diagnostic::new(
            &code,
            severity,
            path,
            None,
            format!("{count} more `{code}` diagnostic(s) in this file were left out (at most {per_file} per file and code are listed)"),
            None,
        ));
    }
    for (code, (count, severity)) in dropped_in_all {
        kept.push(Diagnostic::new(
            &code,
            severity,
            RelPath::root(),
            None,
            format!("{count} more `{code}` diagnostic(s) were left out (at most {per_code} per code are listed)"),
            None,
        ));
    }
    kept.sort_by(|a, b| {
        a.sort_key()
            .cmp(&b.sort_key())
            .then_with(|| a.id.cmp(&b.id))
    });
    kept
}

/// Whether `diagnostic` is one of the summaries [`cap_diagnostics`] writes in place of the
/// diagnostics it left out (so a list holding one is not complete for its code).
pub fn is_cap_summary(diagnostic: &Diagnostic) -> bool {
    diagnostic.line.is_none()
        && diagnostic.message.contains(" diagnostic(s) ")
        && diagnostic.message.contains(" were left out (at most ")
        && diagnostic.message.ends_with(" are listed)")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn broken(path: &str, line: u32) -> Diagnostic {
        Diagnostic::new(
            "broken-link",
            Severity::Warning,
            RelPath::new(path).unwrap(),
            Some(line),
            format!("link {line} is broken"),
            None,
        )
    }

    #[test]
    fn a_file_with_many_diagnostics_of_one_code_keeps_the_first_and_says_how_many_went() {
        let mut list: Vec<Diagnostic> = (1..=1000).map(|l| broken("a.md", l)).collect();
        list.push(broken("b.md", 1));
        list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let capped = cap_diagnostics(list, 10, 100);
        let in_a: Vec<&Diagnostic> = capped
            .iter()
            .filter(|d| d.path.as_str() == "a.md")
            .collect();
        assert_eq!(in_a.len(), 11);
        assert!(
            in_a[0].message.contains("990 more `broken-link`"),
            "{:?}",
            in_a[0]
        );
        assert_eq!(in_a[0].severity, Severity::Warning);
        assert_eq!(in_a[1].line, Some(1));
        assert_eq!(in_a[10].line, Some(10));
        assert!(capped.iter().any(|d| d.path.as_str() == "b.md"));
    }

    #[test]
    fn one_code_across_many_files_is_capped_overall() {
        let mut list: Vec<Diagnostic> =
            (0..50).map(|i| broken(&format!("d{i:02}.md"), 1)).collect();
        list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let capped = cap_diagnostics(list.clone(), 10, 20);
        assert_eq!(capped.len(), 21);
        assert!(capped[0].path.is_root());
        assert!(capped[0].message.contains("30 more"));
        // Under the bounds: untouched.
        assert_eq!(cap_diagnostics(list.clone(), 10, 100), list);
    }

    #[test]
    fn cap_summaries_are_told_apart_from_the_diagnostics_they_stand_for() {
        let mut list: Vec<Diagnostic> = (1..=30).map(|l| broken("a.md", l)).collect();
        list.extend((0..30).map(|i| broken(&format!("d{i:02}.md"), 1)));
        list.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
        let capped = cap_diagnostics(list, 10, 20);
        let summaries = capped.iter().filter(|d| is_cap_summary(d)).count();
        assert_eq!(summaries, 2, "{capped:#?}");
        assert!(!is_cap_summary(&broken("a.md", 1)));
    }
}
