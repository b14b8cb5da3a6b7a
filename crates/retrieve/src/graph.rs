//! Read-only lookups over a snapshot: entities by id and relations by endpoint.
//!
//! A graph reads either a snapshot in memory or a query image over the mapped `snapshot.json`
//! (`query_image`), which parses only the elements a lookup asks for. Both answer every lookup
//! alike (the query image's tests hold them to it); lookups that cannot borrow from the image
//! return owned lists.

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use doc_bridge_model::snapshot::{Document, Entity, Package, Relation, RelationKind, Snapshot};
use doc_bridge_model::{EntityId, RelPath};

use crate::query_image::QueryImage;

/// Indexes a snapshot for lookups by id, path and relation endpoint.
pub struct Graph<'a> {
    source: Source<'a>,
    /// Every package, in snapshot order.
    packages: Vec<&'a Package>,
}

enum Source<'a> {
    Snapshot(Lookups<'a>),
    Image(&'a QueryImage),
}

/// The lookups over a snapshot in memory.
struct Lookups<'a> {
    snapshot: &'a Snapshot,
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
        let packages = snapshot
            .entities
            .iter()
            .filter_map(|e| match e {
                Entity::Package(p) => Some(p),
                _ => None,
            })
            .collect();
        Graph {
            source: Source::Snapshot(Lookups {
                snapshot,
                by_id,
                inbound,
                outbound,
                documents,
                agent_docs_by_owner,
            }),
            packages,
        }
    }

    /// The lookups over a query image (which parses what they ask for, as they ask).
    pub fn from_image(image: &'a QueryImage) -> Self {
        Graph {
            packages: image.packages(),
            source: Source::Image(image),
        }
    }

    /// The entity with this id.
    pub fn entity(&self, id: &EntityId) -> Option<&'a Entity> {
        match &self.source {
            Source::Snapshot(s) => s.by_id.get(id).copied(),
            Source::Image(image) => image.entity(id.as_str()),
        }
    }

    /// The document with this id.
    pub fn document(&self, id: &EntityId) -> Option<&'a Document> {
        match self.entity(id) {
            Some(Entity::Document(d)) => Some(d),
            _ => None,
        }
    }

    /// Relations pointing at `id`, in snapshot order.
    pub fn inbound(&self, id: &EntityId) -> Cow<'_, [&'a Relation]> {
        match &self.source {
            Source::Snapshot(s) => Cow::Borrowed(s.inbound.get(id).map_or(&[], Vec::as_slice)),
            Source::Image(image) => Cow::Owned(image.relations_of(id.as_str(), false)),
        }
    }

    /// Relations leaving `id`, in snapshot order.
    pub fn outbound(&self, id: &EntityId) -> Cow<'_, [&'a Relation]> {
        match &self.source {
            Source::Snapshot(s) => Cow::Borrowed(s.outbound.get(id).map_or(&[], Vec::as_slice)),
            Source::Image(image) => Cow::Owned(image.relations_of(id.as_str(), true)),
        }
    }

    /// Inbound `links-to` count: a simple canonicality measure for ordering documents.
    pub fn inbound_links(&self, id: &EntityId) -> usize {
        self.inbound(id)
            .iter()
            .filter(|r| r.kind == RelationKind::LinksTo)
            .count()
    }

    /// Entities whose path is exactly `path`, in snapshot order.
    pub fn at_path(&self, path: &RelPath) -> Vec<&'a Entity> {
        match &self.source {
            Source::Snapshot(s) => s
                .snapshot
                .entities
                .iter()
                .filter(|e| e.path() == path)
                .collect(),
            Source::Image(image) => image.entities_at(path.as_str()),
        }
    }

    /// Entities whose path lies within `dir` (including `dir` itself), in no particular order.
    pub fn within(&self, dir: &RelPath) -> Vec<&'a Entity> {
        match &self.source {
            Source::Snapshot(s) => s
                .snapshot
                .entities
                .iter()
                .filter(|e| e.path().is_within(dir))
                .collect(),
            Source::Image(image) => image.entities_within(dir),
        }
    }

    /// Every package, in snapshot order.
    pub fn packages(&self) -> impl Iterator<Item = &'a Package> + '_ {
        self.packages.iter().copied()
    }

    /// Every document, in path order.
    pub fn documents(&self) -> Cow<'_, [&'a Document]> {
        self.documents_within(&RelPath::root())
    }

    /// Documents strictly below `dir` (every document for the root), in path order.
    pub fn documents_within(&self, dir: &RelPath) -> Cow<'_, [&'a Document]> {
        let s = match &self.source {
            Source::Snapshot(s) => s,
            Source::Image(image) => return Cow::Owned(image.documents_within(dir)),
        };
        if dir.is_root() {
            return Cow::Borrowed(&s.documents);
        }
        let prefix = format!("{dir}/");
        let start = s
            .documents
            .partition_point(|d| d.path.as_str() < prefix.as_str());
        let end =
            start + s.documents[start..].partition_point(|d| d.path.as_str().starts_with(&prefix));
        Cow::Borrowed(&s.documents[start..end])
    }

    /// Curated agent documents whose `owner` is `name`, in path order.
    pub fn agent_docs_owned_by(&self, name: &str) -> Cow<'_, [&'a Document]> {
        match &self.source {
            Source::Snapshot(s) => {
                Cow::Borrowed(s.agent_docs_by_owner.get(name).map_or(&[], Vec::as_slice))
            }
            Source::Image(image) => Cow::Owned(image.agent_docs_owned_by(name)),
        }
    }

    /// Whether any inventoried file lies below `dir` (a binary search, not a scan).
    pub fn has_files_below(&self, dir: &RelPath) -> bool {
        let s = match &self.source {
            Source::Snapshot(s) => s,
            Source::Image(image) => return image.has_files_below(dir),
        };
        if dir.is_root() {
            return !s.snapshot.files.is_empty();
        }
        let prefix = format!("{dir}/");
        let files = &s.snapshot.files;
        let start = files.partition_point(|f| f.path.as_str() < prefix.as_str());
        files
            .get(start)
            .is_some_and(|f| f.path.as_str().starts_with(&prefix))
    }

    /// Whether a file was inventoried.
    pub fn has_file(&self, path: &str) -> bool {
        match &self.source {
            Source::Snapshot(s) => s
                .snapshot
                .files
                .binary_search_by(|f| f.path.as_str().cmp(path))
                .is_ok(),
            Source::Image(image) => image.has_file(path),
        }
    }
}
