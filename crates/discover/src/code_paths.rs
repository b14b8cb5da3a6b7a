//! The documents a repository's code names by path: a script's prompt file
//! (`general-llm-prompt.md`), a release script's templates (`release.*.rst`), a catalog of
//! messages a build step turns into code (`messages/*/*`), the pages a Sphinx `conf.py` writes
//! at build time (`*-gallery.txt`).
//!
//! Each module's [`doc_bridge_source::SourceFacts::paths`] are read from where code that names
//! a relative path may run: the module's own directory, the root of the package it belongs to
//! (a `package.json` script runs there) and the repository root. A bare file name with no `*`
//! (`missing-translation.md`) also names the one document of that name when no other document
//! has it, wherever it is: scripts often build the folder part from a variable. Such a document
//! is read by code, not by people following links, so it is no orphan
//! ([`doc_bridge_model::snapshot::Document::named_by`]); a link to a missing file the code names
//! is to a file a build step writes, so it is not broken.
//! Tests, fixtures, generated and vendored code are not read for paths: a test that reads a page
//! checks it, and does not make it data.

use std::collections::HashMap;

use doc_bridge_model::{EntityId, RelPath};
use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// The paths every module names, matchable by document path.
pub(crate) struct CodePaths {
    set: GlobSet,
    /// The module of each glob in `set`, by the glob's index.
    readers: Vec<EntityId>,
    /// The modules that name a bare file name only one document has, by that name.
    by_name: HashMap<String, Vec<EntityId>>,
}

impl CodePaths {
    /// The paths of `modules` (each module's path, its package's root directory when it has
    /// one, and the patterns its literals name), with the repository's `documents` for the
    /// bare names.
    pub(crate) fn new<'m>(
        modules: impl IntoIterator<Item = (&'m RelPath, Option<RelPath>, &'m [String])>,
        documents: &[&RelPath],
    ) -> Self {
        let mut documents_named: HashMap<&str, usize> = HashMap::new();
        for document in documents {
            *documents_named.entry(document.file_name()).or_default() += 1;
        }
        let mut builder = GlobSetBuilder::new();
        let mut readers = Vec::new();
        let mut by_name: HashMap<String, Vec<EntityId>> = HashMap::new();
        for (module, package_root, patterns) in modules {
            if patterns.is_empty() {
                continue;
            }
            let mut bases = vec![module.parent()];
            bases.extend(package_root);
            bases.push(RelPath::root());
            bases.sort();
            bases.dedup();
            let id = EntityId::module(module);
            for pattern in patterns {
                let mut globs: Vec<String> = bases
                    .iter()
                    .filter_map(|base| RelPath::join_normalized(base, pattern))
                    .filter(|path| !path.is_root())
                    .map(|path| path.as_str().to_owned())
                    .collect();
                if !pattern.contains(['/', '*'])
                    && documents_named.get(pattern.as_str()) == Some(&1)
                {
                    by_name.entry(pattern.clone()).or_default().push(id.clone());
                }
                globs.sort();
                globs.dedup();
                for glob in globs {
                    let Ok(glob) = GlobBuilder::new(&glob).literal_separator(true).build() else {
                        continue;
                    };
                    builder.add(glob);
                    readers.push(id.clone());
                }
            }
        }
        let (set, readers) = match builder.build() {
            Ok(set) => (set, readers),
            Err(_) => (GlobSet::empty(), Vec::new()),
        };
        CodePaths {
            set,
            readers,
            by_name,
        }
    }

    /// The modules that name the document at `path`, sorted and deduplicated.
    pub(crate) fn readers(&self, path: &RelPath) -> Vec<EntityId> {
        let mut readers: Vec<EntityId> = self
            .by_name
            .get(path.file_name())
            .cloned()
            .unwrap_or_default();
        if !self.readers.is_empty() {
            readers.extend(
                self.set
                    .matches(path.as_str())
                    .into_iter()
                    .filter_map(|index| self.readers.get(index).cloned()),
            );
        }
        readers.sort();
        readers.dedup();
        readers
    }

    /// Whether any module names `path` where it is (a bare name found elsewhere does not
    /// count: a link to a missing file is judged by its own folder).
    pub(crate) fn names(&self, path: &RelPath) -> bool {
        !self.readers.is_empty() && self.set.is_match(path.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(text: &str) -> RelPath {
        RelPath::new(text).unwrap()
    }

    fn code_paths(modules: &[(&str, Option<&str>, &[&str])], documents: &[&str]) -> CodePaths {
        let owned: Vec<(RelPath, Option<RelPath>, Vec<String>)> = modules
            .iter()
            .map(|(module, root, patterns)| {
                (
                    path(module),
                    root.map(path),
                    patterns.iter().map(|p| (*p).to_owned()).collect(),
                )
            })
            .collect();
        let documents: Vec<RelPath> = documents.iter().map(|d| path(d)).collect();
        let documents: Vec<&RelPath> = documents.iter().collect();
        CodePaths::new(
            owned.iter().map(|(m, r, p)| (m, r.clone(), p.as_slice())),
            &documents,
        )
    }

    #[test]
    fn patterns_are_read_from_the_module_the_package_root_and_the_repository_root() {
        let paths = code_paths(
            &[
                (
                    "packages/ui/scripts/process/index.js",
                    Some("packages/ui"),
                    &["messages/*/*"],
                ),
                (
                    "scripts/release.py",
                    None,
                    &["release.*.rst", "../NOTES.md"],
                ),
                (
                    "tools/docs.py",
                    None,
                    &["missing-translation.md", "index.md"],
                ),
            ],
            &[
                "docs/en/missing-translation.md",
                "index.md",
                "docs/index.md",
            ],
        );
        let reader = |p: &str| paths.readers(&path(p));
        let ui = [EntityId::module(&path(
            "packages/ui/scripts/process/index.js",
        ))];
        assert_eq!(reader("packages/ui/messages/client/errors.md"), ui);
        // `*` does not cross a folder.
        assert!(reader("packages/ui/messages/client/deep/errors.md").is_empty());
        assert!(reader("packages/ui/messages/errors.md").is_empty());
        let release = [EntityId::module(&path("scripts/release.py"))];
        assert_eq!(reader("scripts/release.minor.rst"), release);
        assert_eq!(reader("release.minor.rst"), release);
        assert_eq!(reader("NOTES.md"), release);
        assert!(reader("docs/release.minor.rst").is_empty());
        // A bare name, anywhere, when one document has it; a missing file only where it is.
        let docs = [EntityId::module(&path("tools/docs.py"))];
        assert_eq!(reader("docs/en/missing-translation.md"), docs);
        assert!(paths.names(&path("tools/missing-translation.md")));
        assert!(!paths.names(&path("docs/missing-translation.md")));
        assert!(reader("docs/index.md").is_empty());
        assert!(!paths.names(&path("docs/translation.md")));
    }

    #[test]
    fn no_module_names_anything_when_none_has_paths() {
        let paths = code_paths(&[("a.py", None, &[])], &["a.md"]);
        assert!(!paths.names(&path("a.md")));
        assert!(paths.readers(&path("a.md")).is_empty());
    }
}
