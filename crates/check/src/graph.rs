//! Lookups over one snapshot, built once per check.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::snapshot::{Entity, Relation, RelationKind, Snapshot};
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
    /// containment): (from, to, path, line), in snapshot order.
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
        for entity in &snapshot.entities {
            let Entity::Module(module) = entity else {
                continue;
            };
            for import in module.imports.iter().filter(|i| i.kind != "mod-decl") {
                for target in import.targets.iter().filter(|t| is_kind(t, "module:")) {
                    imports.push((&module.id, target, &module.path, import.line));
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
