//! Packages from manifests: ids (disambiguated when two manifests declare one name), package
//! roots, and the package manager each package's checks default to.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::snapshot::{Ecosystem, Package};
use doc_bridge_model::{ContentHash, EntityId, RelPath};

use crate::manifest::{ManifestFacts, ManifestKind};

/// A manifest that declared a named package.
#[derive(Debug, Clone)]
pub struct DeclaredPackage<'a> {
    /// The manifest path.
    pub manifest: &'a RelPath,
    /// The manifest's hash.
    pub hash: &'a ContentHash,
    /// The manifest's facts (with a name).
    pub facts: &'a ManifestFacts,
}

/// Lockfiles that name an npm-compatible package manager, most specific first.
const LOCKFILES: &[(&str, &str)] = &[
    ("pnpm-lock.yaml", "pnpm"),
    ("yarn.lock", "yarn"),
    ("bun.lockb", "bun"),
    ("bun.lock", "bun"),
    ("package-lock.json", "npm"),
];

/// Builds package entities, sorted by id. `files` is every inventoried path (for lockfiles and
/// wrappers); `project_name` names a package the repository root's directory names.
pub fn build_packages(
    declared: &[DeclaredPackage<'_>],
    files: &BTreeSet<&str>,
    project_name: &str,
) -> Vec<Package> {
    let named: Vec<(&DeclaredPackage<'_>, String)> = declared
        .iter()
        .filter_map(|d| Some((d, package_name(d, declared, files, project_name)?)))
        .collect();
    let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
    let mut by_name_and_root: BTreeMap<(&str, RelPath), usize> = BTreeMap::new();
    for (declared, name) in &named {
        *by_name.entry(name).or_default() += 1;
        *by_name_and_root
            .entry((name, declared.manifest.parent()))
            .or_default() += 1;
    }
    let all = declared;
    let mut packages: Vec<Package> = named
        .iter()
        .map(|(declared, name)| {
            let root = declared.manifest.parent();
            // Two manifests declaring one name would share an id; qualify both by directory so
            // neither is lost and the choice does not depend on discovery order, and by the
            // manifest when they share the directory too (a Gemfile beside a package.json).
            let id = if by_name_and_root
                .get(&(name.as_str(), root.clone()))
                .is_some_and(|&n| n > 1)
            {
                EntityId::package(&format!("{name}@{}", declared.manifest))
            } else if by_name.get(name.as_str()).is_some_and(|&n| n > 1) {
                EntityId::package(&format!("{name}@{root}"))
            } else {
                EntityId::package(name)
            };
            Package {
                id,
                path: root.clone(),
                content_hash: declared.hash.clone(),
                name: name.clone(),
                ecosystem: declared.facts.ecosystem,
                manifest: declared.manifest.clone(),
                // As written; the snapshot build keeps it only when it names a document.
                readme: declared.facts.readme.as_deref().and_then(|readme| {
                    RelPath::join_normalized(&declared.manifest.parent(), readme)
                }),
                version: declared
                    .facts
                    .version
                    .clone()
                    .or_else(|| root_project_version(declared, all)),
                scripts: declared.facts.scripts.clone(),
                workspaces: declared.facts.workspaces.clone(),
                dependencies: declared.facts.dependencies.clone(),
                package_manager: package_manager(declared.facts, &root, files),
            }
        })
        .collect();
    packages.sort_by(|a, b| a.id.cmp(&b.id));
    packages
}

/// The version of a Gradle build's root project: settings declare none, the build script beside
/// them may (`version = "1.0"`).
fn root_project_version(
    settings: &DeclaredPackage<'_>,
    declared: &[DeclaredPackage<'_>],
) -> Option<String> {
    if settings.facts.kind != ManifestKind::GradleSettings {
        return None;
    }
    let dir = settings.manifest.parent();
    declared
        .iter()
        .filter(|d| d.facts.kind == ManifestKind::GradleBuild && d.manifest.parent() == dir)
        .find_map(|d| d.facts.version.clone())
}

/// The name of the package a manifest declares, or `None` when it declares none. A manifest
/// that names nothing declares no package, except those named by their directory
/// ([`ManifestKind::named_by_directory`]: Gradle projects and Ruby applications), which take the
/// directory's name (`project_name` at the repository root), unless the manifest beside them
/// speaks for the directory: a gemspec for its Gemfile, the settings for the root project's
/// build script. A Gemfile declares an application only where there is Ruby to run
/// ([`holds_ruby`]): one that pins tools for another language's project (fastlane, CocoaPods,
/// Jekyll) declares none.
fn package_name(
    manifest: &DeclaredPackage<'_>,
    declared: &[DeclaredPackage<'_>],
    files: &BTreeSet<&str>,
    project_name: &str,
) -> Option<String> {
    if let Some(name) = &manifest.facts.name {
        return Some(name.clone());
    }
    let kind = manifest.facts.kind;
    if !kind.named_by_directory() {
        return None;
    }
    let dir = manifest.manifest.parent();
    let speaker = match kind {
        ManifestKind::Gemfile => Some(ManifestKind::Gemspec),
        ManifestKind::GradleBuild => Some(ManifestKind::GradleSettings),
        _ => None,
    };
    if let Some(speaker) = speaker
        && declared
            .iter()
            .any(|d| d.facts.kind == speaker && d.manifest.parent() == dir)
    {
        return None;
    }
    if kind == ManifestKind::Gemfile && !holds_ruby(&dir, files) {
        return None;
    }
    let name = if dir.is_root() {
        project_name
    } else {
        dir.file_name()
    };
    Some(name.to_owned()).filter(|n| !n.is_empty())
}

/// The package manager: package.json `packageManager`, else the nearest lockfile at or above
/// the package root, else the ecosystem's default.
fn package_manager(facts: &ManifestFacts, root: &RelPath, files: &BTreeSet<&str>) -> String {
    match facts.ecosystem {
        Ecosystem::Cargo => "cargo".into(),
        Ecosystem::Python => "python".into(),
        Ecosystem::Go => "go".into(),
        Ecosystem::Maven => "mvn".into(),
        Ecosystem::Gradle => {
            // The build's wrapper, when there is one at or above the project (a subproject
            // runs through its build's).
            if nearest_file(root, "gradlew", files).is_some() {
                "gradlew".into()
            } else {
                "gradle".into()
            }
        }
        Ecosystem::Dotnet => "dotnet".into(),
        Ecosystem::Rubygems => "bundler".into(),
        Ecosystem::Composer => "composer".into(),
        Ecosystem::Swift => "swift".into(),
        Ecosystem::Cmake => "cmake".into(),
        Ecosystem::Npm => {
            if let Some(pm) = &facts.package_manager {
                return pm.clone();
            }
            let mut dir = root.clone();
            loop {
                for (lockfile, manager) in LOCKFILES {
                    let candidate = dir.join(lockfile).map(|p| p.as_str().to_owned());
                    if candidate.is_some_and(|c| files.contains(c.as_str())) {
                        return (*manager).into();
                    }
                }
                if dir.is_root() {
                    return "npm".into();
                }
                dir = dir.parent();
            }
        }
    }
}

/// Whether `dir` or a directory below it holds Ruby source: a `.rb` file, a `Rakefile` or a
/// `config.ru`.
fn holds_ruby(dir: &RelPath, files: &BTreeSet<&str>) -> bool {
    let is_ruby = |path: &str| {
        let name = path.rsplit('/').next().unwrap_or(path);
        name.ends_with(".rb") || name == "Rakefile" || name == "config.ru"
    };
    if dir.is_root() {
        return files.iter().any(|path| is_ruby(path));
    }
    let prefix = format!("{dir}/");
    files
        .range(prefix.as_str()..)
        .take_while(|path| path.starts_with(&prefix))
        .any(|path| is_ruby(path))
}

/// The directory nearest `dir` (itself first, then each parent up to the root) that holds a file
/// named `name`.
fn nearest_file(dir: &RelPath, name: &str, files: &BTreeSet<&str>) -> Option<RelPath> {
    let mut dir = dir.clone();
    loop {
        if dir
            .join(name)
            .is_some_and(|path| files.contains(path.as_str()))
        {
            return Some(dir);
        }
        if dir.is_root() {
            return None;
        }
        dir = dir.parent();
    }
}

/// Package roots by directory, for finding the package that owns a path in O(depth).
pub struct PackageRoots<'p> {
    by_root: std::collections::HashMap<&'p RelPath, &'p Package>,
}

impl<'p> PackageRoots<'p> {
    /// Indexes packages by root (the first by id wins when two share a root).
    pub fn new(packages: &'p [Package]) -> Self {
        let mut by_root = std::collections::HashMap::new();
        for package in packages {
            by_root.entry(&package.path).or_insert(package);
        }
        PackageRoots { by_root }
    }

    /// The deepest package whose root contains `path` (`path` itself included).
    pub fn owning(&self, path: &RelPath) -> Option<&'p Package> {
        let mut dir = path.clone();
        loop {
            if let Some(package) = self.by_root.get(&dir) {
                return Some(package);
            }
            if dir.is_root() {
                return None;
            }
            dir = dir.parent();
        }
    }

    /// The package whose root is exactly `dir`.
    pub fn at(&self, dir: &RelPath) -> Option<&'p Package> {
        self.by_root.get(dir).copied()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::manifest::analyze_file;

    /// The packages of `manifests` (path, text) in a repository holding them and `others`.
    fn packages(manifests: &[(&str, &str)], others: &[&str]) -> Vec<Package> {
        let paths: Vec<RelPath> = manifests
            .iter()
            .map(|(path, _)| RelPath::new(path).unwrap())
            .collect();
        let facts: Vec<ManifestFacts> = manifests
            .iter()
            .zip(&paths)
            .map(|((_, text), path)| {
                let kind = ManifestKind::of_file(path.file_name()).unwrap();
                analyze_file(kind, text, path.file_name()).unwrap()
            })
            .collect();
        let hash = ContentHash::of_bytes(b"");
        let declared: Vec<DeclaredPackage<'_>> = paths
            .iter()
            .zip(&facts)
            .map(|(manifest, facts)| DeclaredPackage {
                manifest,
                hash: &hash,
                facts,
            })
            .collect();
        let files: BTreeSet<&str> = manifests
            .iter()
            .map(|(path, _)| *path)
            .chain(others.iter().copied())
            .collect();
        build_packages(&declared, &files, "lamps")
    }

    /// (id, manifest, package manager) of each package.
    fn summary(packages: &[Package]) -> Vec<(String, String, String)> {
        packages
            .iter()
            .map(|p| {
                (
                    p.id.as_str().to_owned(),
                    p.manifest.as_str().to_owned(),
                    p.package_manager.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn a_gemfile_is_an_application_unless_a_gemspec_speaks_for_its_directory() {
        // `ios/Gemfile` pins fastlane for an app that is no Ruby: no package.
        let found = packages(
            &[
                ("Gemfile", "gem \"rails\"\n"),
                ("gems/lantern/Gemfile", "gemspec\n"),
                ("gems/lantern/lantern.gemspec", "spec.name = \"lantern\"\n"),
                ("tools/admin/Gemfile", "gem \"rspec\"\n"),
                ("ios/Gemfile", "gem \"fastlane\"\n"),
            ],
            &[
                "config.ru",
                "tools/admin/lib/admin.rb",
                "ios/fastlane/Fastfile",
            ],
        );
        assert_eq!(
            summary(&found),
            vec![
                (
                    "package:admin".into(),
                    "tools/admin/Gemfile".into(),
                    "bundler".into()
                ),
                ("package:lamps".into(), "Gemfile".into(), "bundler".into()),
                (
                    "package:lantern".into(),
                    "gems/lantern/lantern.gemspec".into(),
                    "bundler".into()
                ),
            ]
        );
        assert_eq!(found[0].ecosystem, Ecosystem::Rubygems);
    }

    #[test]
    fn gradle_projects_are_named_by_the_settings_or_their_directory() {
        let found = packages(
            &[
                (
                    "settings.gradle",
                    "rootProject.name = 'kiln'\ninclude ':core', ':app:ui'\n",
                ),
                ("build.gradle", "version = '1.0'\n"),
                ("core/build.gradle.kts", "version = \"2.0\"\n"),
                (
                    "app/ui/build.gradle",
                    "dependencies { implementation project(':core') }\n",
                ),
                ("plugins/settings.gradle.kts", "include(\"x\")\n"),
            ],
            &["gradlew"],
        );
        assert_eq!(
            summary(&found),
            vec![
                (
                    "package:core".into(),
                    "core/build.gradle.kts".into(),
                    "gradlew".into()
                ),
                (
                    "package:kiln".into(),
                    "settings.gradle".into(),
                    "gradlew".into()
                ),
                (
                    "package:plugins".into(),
                    "plugins/settings.gradle.kts".into(),
                    "gradlew".into()
                ),
                (
                    "package:ui".into(),
                    "app/ui/build.gradle".into(),
                    "gradlew".into()
                ),
            ],
            "the build script beside the settings is the root project, not a second package"
        );
        assert_eq!(
            found[1].version.as_deref(),
            Some("1.0"),
            "the root project's version"
        );
        let root_only = packages(&[("build.gradle", "")], &[]);
        assert_eq!(
            summary(&root_only),
            vec![(
                "package:lamps".into(),
                "build.gradle".into(),
                "gradle".into()
            )]
        );
    }

    #[test]
    fn swift_cmake_and_solution_packages() {
        let found = packages(
            &[
                (
                    "Package.swift",
                    "let package = Package(name: \"Lantern\")\n",
                ),
                (
                    "native/CMakeLists.txt",
                    "project(lamp VERSION 0.3)\nadd_subdirectory(src)\n",
                ),
                ("native/src/CMakeLists.txt", "add_library(lamp lamp.c)\n"),
                ("Lantern.sln", ""),
                ("dotnet/Lantern.csproj", "<Project/>"),
            ],
            &[],
        );
        assert_eq!(
            summary(&found),
            vec![
                (
                    "package:Lantern.sln".into(),
                    "Lantern.sln".into(),
                    "dotnet".into()
                ),
                (
                    "package:Lantern@.".into(),
                    "Package.swift".into(),
                    "swift".into()
                ),
                (
                    "package:Lantern@dotnet".into(),
                    "dotnet/Lantern.csproj".into(),
                    "dotnet".into()
                ),
                (
                    "package:lamp".into(),
                    "native/CMakeLists.txt".into(),
                    "cmake".into()
                ),
            ],
            "a CMakeLists.txt without project() declares nothing; a solution never takes its project's name"
        );
        assert_eq!(found[3].version.as_deref(), Some("0.3"));
        assert_eq!(found[3].workspaces, vec!["src"]);
    }

    #[test]
    fn two_packages_of_one_name_in_one_directory_are_told_apart_by_manifest() {
        let found = packages(
            &[
                ("package.json", "{\"name\": \"lamps\"}"),
                ("Gemfile", "gem \"rails\"\n"),
                ("web/package.json", "{\"name\": \"lamps\"}"),
            ],
            &["app/models/lamp.rb"],
        );
        let ids: Vec<&str> = found.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(
            ids,
            vec![
                "package:lamps@Gemfile",
                "package:lamps@package.json",
                "package:lamps@web"
            ]
        );
    }
}
