//! Packages from manifests: ids (disambiguated when two manifests declare one name), package
//! roots, and the package manager each package's checks default to.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::snapshot::{Ecosystem, Package};
use doc_bridge_model::{ContentHash, EntityId, RelPath};

use crate::manifest::ManifestFacts;

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

/// Builds package entities, sorted by id. `files` is every inventoried path (for lockfiles).
pub fn build_packages(declared: &[DeclaredPackage<'_>], files: &BTreeSet<&str>) -> Vec<Package> {
    let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
    for package in declared {
        if let Some(name) = package.facts.name.as_deref() {
            *by_name.entry(name).or_default() += 1;
        }
    }
    let mut packages: Vec<Package> = declared
        .iter()
        .filter_map(|declared| {
            let name = declared.facts.name.as_deref()?;
            let root = declared.manifest.parent();
            // Two manifests declaring one name would share an id; qualify both by directory so
            // neither is lost and the choice does not depend on discovery order.
            let id = if by_name.get(name).copied().unwrap_or(0) > 1 {
                EntityId::package(&format!("{name}@{root}"))
            } else {
                EntityId::package(name)
            };
            Some(Package {
                id,
                path: root.clone(),
                content_hash: declared.hash.clone(),
                name: name.to_owned(),
                ecosystem: declared.facts.ecosystem,
                manifest: declared.manifest.clone(),
                version: declared.facts.version.clone(),
                scripts: declared.facts.scripts.clone(),
                workspaces: declared.facts.workspaces.clone(),
                dependencies: declared.facts.dependencies.clone(),
                package_manager: package_manager(declared.facts, &root, files),
            })
        })
        .collect();
    packages.sort_by(|a, b| a.id.cmp(&b.id));
    packages
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
            // The project's wrapper, when it has one beside the settings.
            let wrapper = root.join("gradlew").map(|p| p.as_str().to_owned());
            if wrapper.is_some_and(|w| files.contains(w.as_str())) {
                "gradlew".into()
            } else {
                "gradle".into()
            }
        }
        Ecosystem::Dotnet => "dotnet".into(),
        Ecosystem::Rubygems => "bundler".into(),
        Ecosystem::Composer => "composer".into(),
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
