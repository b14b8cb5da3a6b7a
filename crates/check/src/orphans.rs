//! `orphan-document`: documents no other document links to.
//!
//! Exempt, because readers reach them without a link: entry points by name (README, index,
//! SUMMARY, AGENTS, CLAUDE, and the files hosts surface on their own: CHANGELOG, CONTRIBUTING,
//! CODE_OF_CONDUCT, SECURITY, LICENSE, SUPPORT), and agent documents (`corpus.agent.root`),
//! which reach agents through `llms.txt` and handoffs.

use doc_bridge_model::RelPath;
use doc_bridge_model::snapshot::{Diagnostic, Entity, Severity, Snapshot};

use crate::graph::Graph;

/// File stems (lowercase) of documents readers reach without a link.
const ENTRY_STEMS: &[&str] = &[
    "_index",
    "agents",
    "changelog",
    "claude",
    "code_of_conduct",
    "contributing",
    "index",
    "license",
    "readme",
    "security",
    "summary",
    "support",
];

/// Whether a document is an entry point by name (exempt from `orphan-document`).
pub fn is_entry_document(path: &RelPath) -> bool {
    let stem = path.file_stem().to_ascii_lowercase().replace('-', "_");
    ENTRY_STEMS.contains(&stem.as_str())
}

/// One diagnostic per orphan document.
pub fn diagnostics(snapshot: &Snapshot, graph: &Graph<'_>) -> Vec<Diagnostic> {
    snapshot
        .entities
        .iter()
        .filter_map(|entity| match entity {
            Entity::Document(document) => Some(document),
            _ => None,
        })
        .filter(|d| !d.agent_doc && !is_entry_document(&d.path))
        .filter(|d| !graph.linked_documents.contains(&d.id))
        .map(|d| {
            Diagnostic::new(
                "orphan-document",
                Severity::Warning,
                d.path.clone(),
                None,
                "no other document links to this document; link it from an index or README"
                    .to_owned(),
                Some(d.id.clone()),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{document, link, snapshot};

    #[test]
    fn unlinked_documents_are_orphans_unless_entry_points_or_agent_docs() {
        let mut agent = document("docs/for-agents/x.md");
        if let Entity::Document(d) = &mut agent {
            d.agent_doc = true;
        }
        let s = snapshot(
            vec![
                document("README.md"),
                document("docs/linked.md"),
                document("docs/orphan.md"),
                document("docs/self.md"),
                document("CHANGELOG.md"),
                document("docs/CODE-OF-CONDUCT.md"),
                agent,
            ],
            vec![
                link("README.md", "docs/linked.md"),
                link("docs/self.md", "docs/self.md"),
            ],
        );
        let out = diagnostics(&s, &Graph::new(&s));
        let paths: Vec<&str> = out.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["docs/orphan.md", "docs/self.md"]);
        assert!(out.iter().all(|d| d.code == "orphan-document"));
        assert_eq!(
            out[0].entity.as_ref().map(|e| e.as_str()),
            Some("document:docs/orphan.md")
        );
    }
}
