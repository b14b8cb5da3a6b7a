//! Lookups over one snapshot, built once per check.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::snapshot::{Entity, Evidence, Relation, RelationKind, Snapshot};
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
    /// Module → module imports, in relation order.
    pub imports: Vec<&'a Relation>,
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
                RelationKind::Imports
                    if is_kind(&relation.from, "module:") && is_kind(&relation.to, "module:") =>
                {
                    imports.push(relation);
                }
                _ => {}
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

/// The earlier of two pieces of evidence, by (path, lines): a deterministic choice.
pub fn earliest<'a>(a: &'a Evidence, b: &'a Evidence) -> &'a Evidence {
    if (&b.path, b.lines) < (&a.path, a.lines) {
        b
    } else {
        a
    }
}
