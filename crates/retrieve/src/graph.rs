//! Read-only lookups over a snapshot: entities by id and relations by endpoint.

use rustc_hash::FxHashMap;

use doc_bridge_model::snapshot::{Document, Entity, Package, Relation, RelationKind, Snapshot};
use doc_bridge_model::{EntityId, RelPath};

/// Indexes a snapshot for lookups by id, path and relation endpoint.
pub struct Graph<'a> {
    /// The snapshot.
    pub snapshot: &'a Snapshot,
    by_id: FxHashMap<&'a EntityId, &'a Entity>,
    inbound: FxHashMap<&'a EntityId, Vec<&'a Relation>>,
    outbound: FxHashMap<&'a EntityId, Vec<&'a Relation>>,
    /// Documents in path order.
    documents: Vec<&'a Document>,
    /// Curated agent documents by front matter `owner`.
    agent_docs_by_owner: FxHashMap<&'a str, Vec<&'a Document>>,
}

impl<'a> Graph<'a> {
    /// Builds the lookups.
    pub fn new(snapshot: &'a Snapshot) -> Self {
        let by_id = snapshot.entities.iter().map(|e| (e.id(), e)).collect();
        let mut inbound: FxHashMap<&EntityId, Vec<&Relation>> = FxHashMap::default();
        let mut outbound: FxHashMap<&EntityId, Vec<&Relation>> = FxHashMap::default();
        for relation in &snapshot.relations {
            inbound.entry(&relation.to).or_default().push(relation);
            outbound.entry(&relation.from).or_default().push(relation);
        }
        let mut documents: Vec<&Document> = snapshot
            .entities
            .iter()
            .filter_map(|e| match e {
                Entity::Document(d) => Some(d),
                _ => None,
            })
            .collect();
        documents.sort_by(|a, b| a.path.cmp(&b.path));
        let mut agent_docs_by_owner: FxHashMap<&str, Vec<&Document>> = FxHashMap::default();
        for doc in &documents {
            if let (true, Some(owner)) = (doc.agent_doc, doc.owner.as_deref()) {
                agent_docs_by_owner.entry(owner).or_default().push(doc);
            }
        }
        Graph {
            snapshot,
            by_id,
            inbound,
            outbound,
            documents,
            agent_docs_by_owner,
        }
    }

    /// The entity with this id.
    pub fn entity(&self, id: &EntityId) -> Option<&'a Entity> {
        self.by_id.get(id).copied()
    }

    /// The document with this id.
    pub fn document(&self, id: &EntityId) -> Option<&'a Document> {
        match self.entity(id) {
            Some(Entity::Document(d)) => Some(d),
            _ => None,
        }
    }

    /// Relations pointing at `id`, in snapshot order.
    pub fn inbound(&self, id: &EntityId) -> &[&'a Relation] {
        self.inbound.get(id).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Relations leaving `id`, in snapshot order.
    pub fn outbound(&self, id: &EntityId) -> &[&'a Relation] {
        self.outbound.get(id).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Inbound `links-to` count: a simple canonicality measure for ordering documents.
    pub fn inbound_links(&self, id: &EntityId) -> usize {
        self.inbound(id)
            .iter()
            .filter(|r| r.kind == RelationKind::LinksTo)
            .count()
    }

    /// Entities whose path lies within `dir` (including `dir` itself).
    pub fn within(&self, dir: &'a RelPath) -> impl Iterator<Item = &'a Entity> + 'a {
        self.snapshot
            .entities
            .iter()
            .filter(move |e| e.path().is_within(dir))
    }

    /// Every package.
    pub fn packages(&self) -> impl Iterator<Item = &'a Package> + 'a {
        self.snapshot.entities.iter().filter_map(|e| match e {
            Entity::Package(p) => Some(p),
            _ => None,
        })
    }

    /// Every document, in path order.
    pub fn documents(&self) -> impl Iterator<Item = &'a Document> + '_ {
        self.documents.iter().copied()
    }

    /// Documents strictly below `dir`, in path order (a binary search, not a scan).
    pub fn documents_within(&self, dir: &RelPath) -> &[&'a Document] {
        if dir.is_root() {
            return &self.documents;
        }
        let prefix = format!("{dir}/");
        let start = self
            .documents
            .partition_point(|d| d.path.as_str() < prefix.as_str());
        let end = start
            + self.documents[start..].partition_point(|d| d.path.as_str().starts_with(&prefix));
        &self.documents[start..end]
    }

    /// Curated agent documents whose `owner` is `name`, in path order.
    pub fn agent_docs_owned_by(&self, name: &str) -> &[&'a Document] {
        self.agent_docs_by_owner
            .get(name)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// Whether any inventoried file lies below `dir` (a binary search, not a scan).
    pub fn has_files_below(&self, dir: &RelPath) -> bool {
        if dir.is_root() {
            return !self.snapshot.files.is_empty();
        }
        let prefix = format!("{dir}/");
        let files = &self.snapshot.files;
        let start = files.partition_point(|f| f.path.as_str() < prefix.as_str());
        files
            .get(start)
            .is_some_and(|f| f.path.as_str().starts_with(&prefix))
    }

    /// Whether a file was inventoried.
    pub fn has_file(&self, path: &str) -> bool {
        self.snapshot
            .files
            .binary_search_by(|f| f.path.as_str().cmp(path))
            .is_ok()
    }
}
