//! Lookups over one snapshot, built once per check.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::file_role::{FileRole, role_of};
use doc_bridge_model::snapshot::{Ecosystem, Entity, Relation, RelationKind, Snapshot};
use doc_bridge_model::{EntityId, RelPath};

/// What the rules ask of a snapshot.
pub struct Graph<'a> {
    /// Entities by id.
    pub entities: BTreeMap<&'a EntityId, &'a Entity>,
    /// The area that contains each module.
    pub area_of: BTreeMap<&'a EntityId, &'a EntityId>,
    /// Each area's modules, sorted by id.
    pub modules_of: BTreeMap<&'a EntityId, Vec<&'a EntityId>>,
    /// Documents that another document links to.
    pub linked_documents: BTreeSet<&'a EntityId>,
    /// Relations from documents that say what they are about (covers, mentions, links).
    pub document_references: Vec<&'a Relation>,
    /// Module → module dependencies (imports other than `mod` declarations, which are
    /// containment, imports of a package the importer's build only lets its tests use, see
    /// [`test_only_dependencies`], and imports from or into test inputs, playgrounds,
    /// generated and vendored code, see [`is_inert`]): (from, to, path, line), in snapshot
    /// order.
    pub imports: Vec<(&'a EntityId, &'a EntityId, &'a RelPath, u32)>,
}

impl<'a> Graph<'a> {
    /// Indexes `snapshot`.
    pub fn new(snapshot: &'a Snapshot) -> Self {
        let entities: BTreeMap<&EntityId, &Entity> =
            snapshot.entities.iter().map(|e| (e.id(), e)).collect();
        let is_kind = |id: &EntityId, prefix: &str| id.as_str().starts_with(prefix);
        let mut area_of = BTreeMap::new();
        let mut modules_of: BTreeMap<&EntityId, Vec<&EntityId>> = BTreeMap::new();
        let mut linked_documents = BTreeSet::new();
        let mut document_references = Vec::new();
        let mut imports = Vec::new();
        let test_only = test_only_dependencies(snapshot);
        for relation in &snapshot.relations {
            match relation.kind {
                RelationKind::Contains
                    if is_kind(&relation.from, "area:") && is_kind(&relation.to, "module:") =>
                {
                    area_of.insert(&relation.to, &relation.from);
                    modules_of
                        .entry(&relation.from)
                        .or_default()
                        .push(&relation.to);
                }
                RelationKind::LinksTo | RelationKind::Mentions | RelationKind::Covers
                    if is_kind(&relation.from, "document:") =>
                {
                    if relation.kind == RelationKind::LinksTo
                        && is_kind(&relation.to, "document:")
                        && relation.from != relation.to
                    {
                        linked_documents.insert(&relation.to);
                    }
                    document_references.push(relation);
                }
                _ => {}
            }
        }
        let package_of = |module: &EntityId| match entities.get(area_of.get(module)?)? {
            Entity::Area(area) => area.package_id.as_ref(),
            _ => None,
        };
        let linguist: BTreeMap<&RelPath, Option<&str>> = snapshot
            .files
            .iter()
            .map(|f| (&f.path, f.linguist.as_deref()))
            .collect();
        let inert = |path: &RelPath| is_inert(path, linguist.get(path).copied().flatten());
        let inert_module = |id: &EntityId| {
            id.as_str()
                .strip_prefix("module:")
                .and_then(RelPath::new)
                .is_some_and(|path| inert(&path))
        };
        for entity in &snapshot.entities {
            let Entity::Module(module) = entity else {
                continue;
            };
            if inert(&module.path) {
                continue;
            }
            let package = package_of(&module.id);
            for import in module.imports.iter().filter(|i| i.kind != "mod-decl") {
                for target in import.targets.iter().filter(|t| is_kind(t, "module:")) {
                    let for_tests = package
                        .zip(package_of(target))
                        .is_some_and(|pair| test_only.contains(&pair));
                    if !for_tests && !inert_module(target) {
                        imports.push((&module.id, target, &module.path, import.line));
                    }
                }
            }
        }
        for modules in modules_of.values_mut() {
            modules.sort();
        }
        Graph {
            entities,
            area_of,
            modules_of,
            linked_documents,
            document_references,
            imports,
        }
    }

    /// The path of an entity, when it is in the snapshot.
    pub fn path_of(&self, id: &EntityId) -> Option<&'a RelPath> {
        self.entities.get(id).map(|e| e.path())
    }
}

/// Whether a module is code its maintainers do not design: a test's input (`fixtures/`), a
/// playground (vite's `playground/dynamic-import/`, which imports in a circle on purpose),
/// generated or vendored code ([`role_of`]). Its imports make no cycle to fix.
fn is_inert(path: &RelPath, linguist: Option<&str>) -> bool {
    matches!(
        role_of(path, linguist, true),
        Some(FileRole::Fixture | FileRole::Playground | FileRole::Generated | FileRole::Vendored)
    )
}

/// Pairs of packages (importer, imported) where the importer declares the other only as a
/// development dependency, in an ecosystem whose build keeps those out of the code it ships:
/// Cargo's `[dev-dependencies]`, Maven's `test` scope, Gradle's test configurations. Code that
/// imports such a package compiles only in tests (a Rust `#[cfg(test)]` module using
/// `tokio-test`), so the import is no dependency of the package's code, and two crates that
/// test with each other do not import each other. npm's `devDependencies` are not such:
/// bundlers ship them inside the code that imports them.
fn test_only_dependencies(snapshot: &Snapshot) -> BTreeSet<(&EntityId, &EntityId)> {
    let enforced: BTreeSet<&EntityId> = snapshot
        .entities
        .iter()
        .filter_map(|e| match e {
            Entity::Package(p)
                if matches!(
                    p.ecosystem,
                    Ecosystem::Cargo | Ecosystem::Maven | Ecosystem::Gradle
                ) =>
            {
                Some(&p.id)
            }
            _ => None,
        })
        .collect();
    let mut kinds: BTreeMap<(&EntityId, &EntityId), bool> = BTreeMap::new();
    for relation in &snapshot.relations {
        if relation.kind == RelationKind::DependsOn && enforced.contains(&relation.from) {
            let dev = relation.via.as_deref() == Some("dev");
            *kinds.entry((&relation.from, &relation.to)).or_insert(true) &= dev;
        }
    }
    kinds
        .into_iter()
        .filter_map(|(pair, dev_only)| dev_only.then_some(pair))
        .collect()
}
