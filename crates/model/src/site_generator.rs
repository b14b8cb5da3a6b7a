//! Documentation site generators, recognised by the files that configure them. The directory
//! such a file sits in (its *site*) is served as one website: `/` in its pages' links stands
//! for a content directory of it, and its pages are reached through the generator's navigation
//! as well as through links. Both `discover` (resolving site-absolute links) and `check`
//! (judging orphans) read sites from here.

use crate::RelPath;

/// Extensions of the JavaScript and TypeScript configuration files the generators read.
const SCRIPT_EXTENSIONS: &[&str] = &["js", "mjs", "cjs", "ts", "mts", "cts"];

/// A documentation site generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SiteGenerator {
    /// A `.vitepress/` directory.
    VitePress,
    /// `docusaurus.config.*`.
    Docusaurus,
    /// `astro.config.*` (Starlight).
    Starlight,
    /// `mkdocs.yml` or `mkdocs.yaml`.
    MkDocs,
    /// `book.toml` (mdBook). Its navigation is `SUMMARY.md`'s links, and it renders only the
    /// pages listed there.
    MdBook,
    /// `hugo.toml`, `hugo.yaml`, `hugo.yml` or `hugo.json` (Hugo).
    Hugo,
    /// `docfx.json` (DocFX, .NET's documentation generator; its `toc.yml` files are the
    /// navigation).
    DocFx,
}

/// The site a file configures or belongs to by name: the directory holding `.vitepress/` for
/// any file inside it, the directory of `docusaurus.config.*`, `astro.config.*` or
/// `mkdocs.y(a)ml`, `book.toml`, `hugo.{toml,yaml,yml,json}` or `docfx.json`. `None` for every
/// other file.
pub fn site_of(path: &RelPath) -> Option<(RelPath, SiteGenerator)> {
    let text = path.as_str();
    if text.starts_with(".vitepress/") {
        return Some((RelPath::root(), SiteGenerator::VitePress));
    }
    if let Some(at) = text.find("/.vitepress/") {
        return RelPath::new(&text[..at]).map(|site| (site, SiteGenerator::VitePress));
    }
    let generator = match path.file_name() {
        "mkdocs.yml" | "mkdocs.yaml" => SiteGenerator::MkDocs,
        "book.toml" => SiteGenerator::MdBook,
        "hugo.toml" | "hugo.yaml" | "hugo.yml" | "hugo.json" => SiteGenerator::Hugo,
        "docfx.json" => SiteGenerator::DocFx,
        name if is_script_named(name, "docusaurus.config") => SiteGenerator::Docusaurus,
        name if is_script_named(name, "astro.config") => SiteGenerator::Starlight,
        _ => return None,
    };
    Some((path.parent(), generator))
}

/// The root documents a Sphinx source directory holds (`root_doc`, formerly `master_doc`: `index`
/// by default, `contents` in older projects).
const SPHINX_ROOT_DOCUMENTS: &[&str] = &["index.rst", "index.txt", "contents.rst", "contents.txt"];

/// The Sphinx source directories among `files`: each directory that holds a `conf.py` and a
/// root document ([`SPHINX_ROOT_DOCUMENTS`]), sorted. `/` in its documents' links
/// (`:doc:`/tutorial/index``) stands for it; its `.txt` files are reStructuredText when its
/// `source_suffix` says so ([`sphinx_reads_txt`]).
pub fn sphinx_sources<'a>(files: impl IntoIterator<Item = &'a RelPath>) -> Vec<RelPath> {
    let mut configured = std::collections::BTreeSet::new();
    let mut rooted = std::collections::BTreeSet::new();
    for path in files {
        let name = path.file_name();
        if name == "conf.py" {
            configured.insert(path.parent());
        } else if SPHINX_ROOT_DOCUMENTS.contains(&name) {
            rooted.insert(path.parent());
        }
    }
    configured.intersection(&rooted).cloned().collect()
}

/// Whether a Sphinx project whose `conf.py` sets `source_suffix` to `suffixes` (`None`: not
/// written out as a literal, so Sphinx's default, `.rst`) reads `.txt` files as documents.
pub fn sphinx_reads_txt(suffixes: Option<&[String]>) -> bool {
    suffixes.is_some_and(|suffixes| suffixes.iter().any(|s| s == ".txt" || s == "txt"))
}

/// Whether the `.txt` file at `path` is a document of one of the Sphinx source directories
/// `sources` (those that read `.txt` files): inside one, and not a file that tools read by name (pip's `requirements*.txt`,
/// `CMakeLists.txt`, `robots.txt`), which projects list in `exclude_patterns`.
pub fn is_sphinx_text_document(path: &RelPath, sources: &[RelPath]) -> bool {
    let name = path.file_name().to_ascii_lowercase();
    let tool_file = name.starts_with("requirements")
        || matches!(name.as_str(), "cmakelists.txt" | "robots.txt");
    !tool_file && sources.iter().any(|source| path.is_within(source))
}

/// `<stem>.<js|ts|...>`.
pub fn is_script_named(name: &str, stem: &str) -> bool {
    name.strip_prefix(stem)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|ext| SCRIPT_EXTENSIONS.contains(&ext))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn sphinx_sources_hold_a_configuration_and_a_root_document() {
        let paths: Vec<RelPath> = [
            "docs/conf.py",
            "docs/index.txt",
            "docs/intro.txt",
            "other/conf.py",
            "third/index.rst",
            "old/conf.py",
            "old/contents.rst",
        ]
        .iter()
        .map(|p| RelPath::new(p).unwrap())
        .collect();
        let sources = sphinx_sources(&paths);
        let names: Vec<&str> = sources.iter().map(RelPath::as_str).collect();
        assert_eq!(names, vec!["docs", "old"]);
        let is_document = |p: &str| is_sphinx_text_document(&RelPath::new(p).unwrap(), &sources);
        assert!(is_document("docs/intro.txt"));
        assert!(is_document("docs/ref/models.txt"));
        assert!(!is_document("docs/requirements.txt"));
        assert!(is_document("docs/ref/constraints.txt"));
        assert!(!is_document("other/notes.txt"));
    }

    fn site(path: &str) -> Option<(String, SiteGenerator)> {
        site_of(&RelPath::new(path).unwrap()).map(|(dir, g)| (dir.as_str().to_owned(), g))
    }

    #[test]
    fn sites_by_configuration_file() {
        use SiteGenerator::*;
        assert_eq!(
            site("docs/.vitepress/config.ts"),
            Some(("docs".into(), VitePress))
        );
        assert_eq!(
            site(".vitepress/theme/index.ts"),
            Some((".".into(), VitePress))
        );
        assert_eq!(
            site("website/docusaurus.config.js"),
            Some(("website".into(), Docusaurus))
        );
        assert_eq!(site("astro.config.mjs"), Some((".".into(), Starlight)));
        assert_eq!(site("docs/en/mkdocs.yml"), Some(("docs/en".into(), MkDocs)));
        assert_eq!(site("guide/book.toml"), Some(("guide".into(), MdBook)));
        assert_eq!(site("docs/hugo.toml"), Some(("docs".into(), Hugo)));
        assert_eq!(site("docs/docfx.json"), Some(("docs".into(), DocFx)));
        for other in [
            "docs/vitepress/config.ts",
            "astro.config.json",
            "mkdocs.toml",
            "a/.vitepressrc",
        ] {
            assert_eq!(site(other), None, "{other}");
        }
    }
}
