//! `orphan-document`: documents no other document links to.
//!
//! Exempt, because readers reach them without a link: entry points by name (README, index,
//! SUMMARY, AGENTS, CLAUDE, and the files hosts and tools surface on their own: CHANGELOG,
//! HISTORY, NEWS, CONTRIBUTING, CODE_OF_CONDUCT, SECURITY, SUPPORT, LICENSE, NOTICE, AUTHORS,
//! MAINTAINERS, GOVERNANCE, FUNDING, PULL_REQUEST_TEMPLATE, at any depth); everything under a
//! `.github/` or `.gitlab/` directory (issue and pull request templates, workflow notes: the host
//! shows them) or under `.changeset/` (release notes waiting for the next release); bundled
//! licence texts (`licenses/`), Sphinx's `_templates/`, INSTALL, agent skills (`SKILL.md`) and
//! a folder's note about one of its files (`ml_map.README.rst`), a page's template
//! (`index.rst.template`); and agent
//! documents (`corpus.agent.root`), which reach agents through `llms.txt` and handoffs; change
//! log entries (`changelog_unreleased/`, news fragments such as `19939.bugfix.rst`, by
//! [`doc_bridge_model::file_role`]); and the
//! pages of a documentation site (a directory with a `.vitepress/`, `docusaurus.config.*`,
//! `astro.config.*` or `mkdocs.yml`, [`doc_bridge_model::site_generator`]), which its
//! generator reaches through the sidebar and navigation it builds, not through links. A
//! translation (`docs/ja/guide.md` beside `docs/en/guide.md`: the same path but for the folder
//! discovery read the document's language from) is reached when one of its translations is,
//! through the language switcher. So are the pages of a DocC catalog (`X.docc/`), whose
//! navigation DocC builds. A document that says it is an orphan on purpose (Sphinx's `:orphan:`
//! metadata, or `orphan: true` in front matter) is one.

use doc_bridge_model::RelPath;
use std::collections::HashSet;

use doc_bridge_model::file_role::{FileRole, file_role};
use doc_bridge_model::site_generator::site_of;
use doc_bridge_model::snapshot::{
    Diagnostic, Document, Entity, LanguageSource, Severity, Snapshot,
};

use crate::graph::Graph;

/// File stems (lowercase, `-` read as `_`) of documents readers reach without a link.
const ENTRY_STEMS: &[&str] = &[
    "_index",
    "agents",
    "authors",
    "changelog",
    "claude",
    "code_of_conduct",
    "codeowners",
    "contributing",
    "contributors",
    "copying",
    "funding",
    "governance",
    "history",
    "index",
    "install",
    "licence",
    "license",
    "maintainers",
    "news",
    "notice",
    "pull_request_template",
    "readme",
    "security",
    "skill",
    "summary",
    "support",
];

/// Directories whose documents the hosting service or a tool shows by itself, or that hold
/// texts no page links to by nature: bundled licence texts, and the templates a documentation
/// generator fills in (Sphinx's `_templates/`).
const HOST_DIRS: &[&str] = &[
    ".github",
    ".gitlab",
    ".changeset",
    "licenses",
    "licences",
    "_templates",
];

/// Whether a document is an entry point by name (exempt from `orphan-document`).
pub fn is_entry_document(path: &RelPath) -> bool {
    let stem = path.file_stem().to_ascii_lowercase().replace('-', "_");
    ENTRY_STEMS.contains(&stem.as_str())
        || stem.starts_with("license_")
        || stem.starts_with("licence_")
        // A folder's note about one of its files (`ml_map.README.rst`).
        || stem.ends_with(".readme")
}

/// Whether a document is a page's template (`index.rst.template`): an input of the build; the
/// pages it renders are what readers reach, and those have no file to judge.
fn is_page_template(path: &RelPath) -> bool {
    path.file_name().to_ascii_lowercase().ends_with(".template")
}

/// Whether a document lies in a DocC catalog (`X.docc/`): DocC builds the catalog's navigation
/// itself, from its landing page, its `Topics` sections and the symbols an extension page
/// (`# ``Module/Symbol`` `) documents, not from links.
fn is_docc_page(path: &RelPath) -> bool {
    let text = path.as_str();
    let mut dirs = text.split('/');
    dirs.next_back();
    dirs.any(|dir| dir.len() > ".docc".len() && dir.ends_with(".docc"))
}

/// Whether a document lies in a directory the host or a tool shows by itself (`.github/`).
fn is_host_document(path: &RelPath) -> bool {
    let text = path.as_str();
    let mut dirs = text.split('/');
    dirs.next_back();
    dirs.any(|dir| HOST_DIRS.contains(&dir.to_ascii_lowercase().as_str()))
}

/// The directories of the documentation sites in the snapshot.
fn site_dirs(snapshot: &Snapshot) -> Vec<RelPath> {
    let mut dirs: Vec<RelPath> = snapshot
        .files
        .iter()
        .filter_map(|f| site_of(&f.path).map(|(site, _)| site))
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// One diagnostic per orphan document.
pub fn diagnostics(snapshot: &Snapshot, graph: &Graph<'_>) -> Vec<Diagnostic> {
    let sites = site_dirs(snapshot);
    let documents: Vec<&Document> = snapshot
        .entities
        .iter()
        .filter_map(|entity| match entity {
            Entity::Document(document) => Some(document),
            _ => None,
        })
        .collect();
    let reached = |d: &Document| {
        d.agent_doc
            || d.front_matter.get("orphan") == Some(&serde_json::Value::Bool(true))
            || file_role(&d.path) == Some(FileRole::Changelog)
            || is_entry_document(&d.path)
            || is_page_template(&d.path)
            || is_host_document(&d.path)
            || is_docc_page(&d.path)
            || sites.iter().any(|site| d.path.is_within(site))
            || graph.linked_documents.contains(&d.id)
    };
    // A translation is reached the way its original is: through the site's language switcher.
    let reached_translations: HashSet<String> = documents
        .iter()
        .filter(|d| reached(d))
        .filter_map(|d| translation_key(d))
        .collect();
    documents
        .iter()
        .filter(|d| !reached(d))
        .filter(|d| translation_key(d).is_none_or(|key| !reached_translations.contains(&key)))
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

/// The path with its language folder replaced by `*` (`docs/ja/docs/a.md` →
/// `docs/*/docs/a.md`), for a document whose language discovery read from such a folder: two
/// documents share the key when one translates the other (as search folds translations).
fn translation_key(document: &Document) -> Option<String> {
    if document.language_source != Some(LanguageSource::Path) {
        return None;
    }
    let language = document.language.as_deref()?;
    let mut segments: Vec<&str> = document.path.as_str().split('/').collect();
    let dirs = segments.len().saturating_sub(1);
    let at = segments[..dirs]
        .iter()
        .position(|s| s.replace('_', "-").eq_ignore_ascii_case(language))?;
    segments[at] = "*";
    Some(segments.join("/"))
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
                document(".github/ISSUE_TEMPLATE/bug.md"),
                document(".github/pull_request_template.md"),
                document("packages/a/.github/workflows/README-ci.md"),
                document(".changeset/brave-lions.md"),
                document("changelog_unreleased/yaml/19599.md"),
                document("LICENSE-MIT.md"),
                document("docs/NOTICE.md"),
                document("docs/github/guide.md"),
                document(".github.md"),
                document("Sources/Lamp/Lamp.docc/Lamp.md"),
                document("Sources/Lamp/Lamp.docc/Extensions/Wick.md"),
                document("docs/notes.docc.md"),
                document("INSTALL.rst"),
                document("licenses/ERFA.rst"),
                document("doc/_templates/autosummary.rst"),
                document("doc/images/ml_map.README.rst"),
                document(".agents/skills/perf/SKILL.md"),
                document("docs/changes/io.fits/19939.bugfix.rst"),
                document("docs/templates-guide.md"),
                document("doc/index.rst.template"),
                agent,
            ],
            vec![
                link("README.md", "docs/linked.md"),
                link("docs/self.md", "docs/self.md"),
            ],
        );
        let out = diagnostics(&s, &Graph::new(&s));
        let paths: Vec<&str> = out.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                ".github.md",
                "docs/github/guide.md",
                "docs/notes.docc.md",
                "docs/orphan.md",
                "docs/self.md",
                "docs/templates-guide.md"
            ]
        );
        assert!(out.iter().all(|d| d.code == "orphan-document"));
        assert_eq!(
            out[3].entity.as_ref().map(|e| e.as_str()),
            Some("document:docs/orphan.md")
        );
    }

    #[test]
    fn pages_of_a_documentation_site_are_reached_by_its_navigation() {
        use doc_bridge_model::ContentHash;
        use doc_bridge_model::snapshot::{FileClass, FileRecord};
        let mut s = snapshot(
            vec![
                document("site/guide/intro.md"),
                document("site/blog/post.md"),
                document("docs/elsewhere.md"),
                document("wiki/page.md"),
            ],
            Vec::new(),
        );
        let file = |path: &str| FileRecord {
            bytes: 1,
            class: FileClass::Config,
            content_hash: ContentHash::of_bytes(b"x"),
            lines: None,
            linguist: None,
            path: RelPath::new(path).unwrap(),
        };
        s.files = vec![file("site/.vitepress/config.ts"), file("docs/mkdocs.toml")];
        let out = diagnostics(&s, &Graph::new(&s));
        let paths: Vec<&str> = out.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["docs/elsewhere.md", "wiki/page.md"]);
        s.files.push(file("docs/mkdocs.yml"));
        let out = diagnostics(&s, &Graph::new(&s));
        let paths: Vec<&str> = out.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["wiki/page.md"]);
    }

    #[test]
    fn a_translation_is_reached_when_its_original_is() {
        let translated = |path: &str, language: &str| {
            let mut entity = document(path);
            if let Entity::Document(d) = &mut entity {
                d.language = Some(language.to_owned());
                d.language_source = Some(LanguageSource::Path);
            }
            entity
        };
        let s = snapshot(
            vec![
                translated("docs/en/docs/guide.md", "en"),
                translated("docs/ja/docs/guide.md", "ja"),
                translated("docs/pt_BR/docs/guide.md", "pt-br"),
                translated("docs/ja/docs/only-here.md", "ja"),
                document("docs/api/page.md"),
                document("docs/cli/page.md"),
            ],
            vec![
                link("README.md", "docs/en/docs/guide.md"),
                link("README.md", "docs/api/page.md"),
            ],
        );
        let out = diagnostics(&s, &Graph::new(&s));
        let paths: Vec<&str> = out.iter().map(|d| d.path.as_str()).collect();
        // Without a language read from the path, `docs/cli/page.md` is no translation of the
        // api page.
        assert_eq!(paths, ["docs/cli/page.md", "docs/ja/docs/only-here.md"]);
    }
}
