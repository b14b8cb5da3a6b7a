//! Java and Kotlin imports: a class by its package path, a package by its directories.

use doc_bridge_model::snapshot::ImportResolution;
use doc_bridge_model::{EntityId, RelPath};

use super::{Resolved, Resolver};

impl Resolver<'_> {
    /// A Java or Kotlin import names a class by its package and name (`a.b.C`, a nested
    /// `a.b.C.D`, a static member's class `a.b.C`) or a package (`a.b.*`). The class is the
    /// module whose path ends with `a/b/C.EXT` for the first of `extensions` that has one (the
    /// source root above it is the project's layout, not the language's), when exactly one
    /// does; a package is every Java and Kotlin module of the directories ending with `a/b`.
    /// Several such modules are one class when they are the source sets of one project
    /// (Kotlin Multiplatform's `expect` and `actual` declarations in `src/jvmMain/kotlin/`,
    /// `src/androidMain/kotlin/`): all are the targets. Otherwise several are unresolved.
    /// A Kotlin file may hold any number of classes and top-level functions whatever its name:
    /// failing a file of the class's name, the Kotlin modules of the package's directories
    /// that declare the name are the targets. A name that nothing here declares is external,
    /// unless this repository declares classes under its package's first two names, where it
    /// is unresolved ([`Resolver::jvm_miss`]).
    pub(super) fn jvm(&self, specifier: &str, extensions: &[&str]) -> Resolved {
        let segments: Vec<&str> = specifier.split('.').collect();
        if segments.last() == Some(&"*") {
            let package = &segments[..segments.len() - 1];
            let targets = self.jvm_package(package);
            return if targets.is_empty() {
                (self.jvm_miss(package), Vec::new())
            } else {
                (ImportResolution::Internal, targets)
            };
        }
        // The class, else its outer classes (`a.b.Outer.Inner` lives in `Outer.java`).
        for end in (1..=segments.len()).rev() {
            for extension in extensions {
                let rel = format!("{}.{extension}", segments[..end].join("/"));
                match self.modules_ending_with(&rel).as_slice() {
                    [only] => return (ImportResolution::Internal, vec![EntityId::module(only)]),
                    [] => {}
                    several if one_project_source_sets(several) => {
                        let targets = several.iter().map(|m| EntityId::module(m)).collect();
                        return (ImportResolution::Internal, targets);
                    }
                    _ => return (ImportResolution::Unresolved, Vec::new()),
                }
            }
        }
        let package = &segments[..segments.len().saturating_sub(1)];
        if let (Some(name), false) = (segments.last(), package.is_empty()) {
            let directory = package.join("/");
            let declaring: Vec<EntityId> = self
                .kotlin_declared
                .get(name)
                .into_iter()
                .flatten()
                .filter(|module| ends_with_path(&module.parent(), &directory))
                .map(|module| EntityId::module(module))
                .collect();
            if !declaring.is_empty() {
                return (ImportResolution::Internal, declaring);
            }
        }
        (self.jvm_miss(package), Vec::new())
    }

    /// The Java and Kotlin modules of the directories whose path ends with the package's
    /// (`a/b` for `a.b`).
    fn jvm_package(&self, package: &[&str]) -> Vec<EntityId> {
        let Some(last) = package.last() else {
            return Vec::new();
        };
        let rel = package.join("/");
        self.jvm_dirs
            .get(last)
            .map(|dirs| {
                dirs.iter()
                    .filter(|(dir, _)| ends_with_path(dir, &rel))
                    .flat_map(|(_, modules)| modules.iter().cloned())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Unresolved when this repository declares classes under the package's owned names
    /// (`com.example.app.missing.Gone` in a repository of `com/example/app/...`,
    /// `okhttp3.gone.X` in one of `okhttp3/internal/...`: [`super::jvm_owned_prefix`]), else
    /// external (`com.squareup.moshi` in okhttp's `com/squareup/okhttp3`).
    fn jvm_miss(&self, package: &[&str]) -> ImportResolution {
        if super::jvm_owned_prefix(package)
            .is_some_and(|prefix| self.jvm_pairs.contains(&prefix.join("/")))
        {
            ImportResolution::Unresolved
        } else {
            ImportResolution::External
        }
    }
}

impl<'a> Resolver<'a> {
    /// The modules whose path is `rel` or ends with `/rel`, sorted.
    pub(super) fn modules_ending_with(&self, rel: &str) -> Vec<&'a RelPath> {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        self.file_names
            .get(name)
            .map(|files| {
                files
                    .iter()
                    .copied()
                    .filter(|p| ends_with_path(p, rel))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// True when `path` is `rel` or ends with `/rel`.
pub(super) fn ends_with_path(path: &RelPath, rel: &str) -> bool {
    path.as_str() == rel
        || path
            .as_str()
            .strip_suffix(rel)
            .is_some_and(|head| head.ends_with('/'))
}

/// Whether modules lie in source sets of one project: each below a known source root
/// (`src/<set>/<language>/`, [`super::jvm_package_start`]), with the same folders before
/// `src/` and the same path after the root.
fn one_project_source_sets(modules: &[&RelPath]) -> bool {
    let split = |module: &RelPath| {
        let names: Vec<&str> = module.as_str().split('/').collect();
        let start = super::jvm_package_start(&names)?;
        Some((names[..start - 3].join("/"), names[start..].join("/")))
    };
    let mut parts = modules.iter().map(|m| split(m));
    let Some(Some(first)) = parts.next() else {
        return false;
    };
    parts.all(|part| part.as_ref() == Some(&first))
}
