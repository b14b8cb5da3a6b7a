//! Building `DocBridgeIndexV1` from a snapshot and the configuration: a pure function.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::config::Config;
use doc_bridge_model::hash::semantic_hash;
use doc_bridge_model::index::{
    DocBridgeIndexV1, INDEX_HASH_EXCLUDED, INDEX_SCHEMA_VERSION, Inputs, KnowledgeEntity,
    KnowledgeEntry, KnowledgeRelation, Lookup, OwnershipRecord, RetrievalSettings,
};
use doc_bridge_model::projection::PROJECTION_HASH_EXCLUDED;
use doc_bridge_model::retrieval::{DEFAULT_B, DEFAULT_K1, Field, LEXICON_VERSION};
use doc_bridge_model::snapshot::{Entity, Package, Snapshot, Texts};
use doc_bridge_model::{ContentHash, EntityId, RelPath, SEMANTIC_HASH_ALGO};
use doc_bridge_store::sealed::Encoded;
use rustc_hash::FxHashSet;

use doc_bridge_model::timing::phase;

use crate::collection::Collection;
use crate::graph::Graph;
use crate::handoff::{HandoffInput, Owner, build_handoff, package_checks, package_targets};
use crate::inputs::configuration_hash;
use crate::overlay::OverlaySignals;
use crate::projection::project_with_collection;

/// What the index build needs besides the snapshot.
pub struct IndexOptions<'a> {
    /// The configuration.
    pub config: &'a Config,
    /// The agent corpus root, when it exists.
    pub agent_root: Option<&'a RelPath>,
    /// The inputs fingerprint.
    pub inputs: Inputs,
    /// The time to record; the caller keeps the previous one when the hash did not change.
    pub generated_at: String,
    /// The live accepted overlay (empty without enrichment).
    pub overlay: &'a OverlaySignals,
    /// The text of the snapshot's documents and modules, from the run that built it.
    pub texts: &'a Texts,
    /// The snapshot's seal, when the snapshot passed is not sealed yet (its seal runs beside
    /// the index build): asked for once, when the projection is sealed, and may wait for it.
    /// `None`: the snapshot's own `content_hash`.
    pub snapshot_hash: Option<&'a (dyn Fn() -> ContentHash + Sync)>,
    /// Tokens of earlier builds to reuse (a long-running process's memo); the index is the same.
    pub tokens: Option<&'a crate::token_memo::TokenMemo>,
}

/// Effective ranking settings: defaults overridden by `retrieval.weights` / `retrieval.params`.
pub fn retrieval_settings(config: &Config) -> RetrievalSettings {
    let weights = Field::ALL
        .iter()
        .map(|f| {
            let weight = config
                .retrieval
                .weights
                .get(f.name())
                .copied()
                .unwrap_or(f.default_weight());
            (f.name().to_owned(), weight)
        })
        .collect();
    let params = BTreeMap::from([
        (
            "k1".to_owned(),
            config
                .retrieval
                .params
                .get("k1")
                .copied()
                .unwrap_or(DEFAULT_K1),
        ),
        (
            "b".to_owned(),
            config
                .retrieval
                .params
                .get("b")
                .copied()
                .unwrap_or(DEFAULT_B),
        ),
    ]);
    RetrievalSettings {
        lexicon_version: LEXICON_VERSION,
        weights,
        params,
    }
}

/// The configured ownership records (`routing.options.ownership`), sorted by id.
pub fn owners(config: &Config) -> Vec<Owner> {
    let mut owners: Vec<Owner> = config
        .routing
        .options
        .ownership
        .iter()
        .filter_map(|(id, o)| {
            let path = RelPath::new(o.path.trim_start_matches("./").trim_end_matches('/'))?;
            Some(Owner {
                id: id.clone(),
                path,
                checks: o.checks.clone(),
                agent_doc: o
                    .agent_doc
                    .as_deref()
                    .and_then(|p| RelPath::new(p.trim_start_matches("./"))),
            })
        })
        .collect();
    owners.sort_by(|a, b| a.id.cmp(&b.id));
    owners
}

/// Builds the index.
pub fn build_index(snapshot: &Snapshot, options: IndexOptions<'_>) -> DocBridgeIndexV1 {
    build_index_with_collection(snapshot, options).0
}

/// Builds the index and the search collection of its projection.
pub fn build_index_with_collection(
    snapshot: &Snapshot,
    options: IndexOptions<'_>,
) -> (DocBridgeIndexV1, Collection) {
    let (mut index, collection) = build_unsealed_index_with_collection(snapshot, options);
    phase("index: seal", || drop(seal(&mut index)));
    (index, collection)
}

/// [`build_index_with_collection`] without the seal: `contentHash` is the empty input's hash
/// until the caller seals the index ([`seal`]).
pub fn build_unsealed_index_with_collection(
    snapshot: &Snapshot,
    options: IndexOptions<'_>,
) -> (DocBridgeIndexV1, Collection) {
    let config = options.config;
    // The routing part (knowledge, handoffs, lookup) and the projection are independent: the
    // routing part runs on a scoped thread of its own while this thread builds the projection.
    let (routing, (projection, collection)) = std::thread::scope(|scope| {
        let routing = scope.spawn(|| {
            phase("index: routing", || {
                routing(snapshot, config, options.agent_root)
            })
        });
        let projected = phase("index: projection", || {
            project_with_collection(
                snapshot,
                options.texts,
                options.overlay,
                config,
                configuration_hash(config),
                options.snapshot_hash,
                options.tokens,
            )
        });
        let routing = routing
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (routing, projected)
    });
    let Routing {
        knowledge,
        handoffs,
        lookup,
    } = routing;
    let index = DocBridgeIndexV1 {
        schema_version: INDEX_SCHEMA_VERSION,
        content_hash: ContentHash::of_bytes(b""),
        content_hash_algo: SEMANTIC_HASH_ALGO.to_owned(),
        generated_at: options.generated_at,
        project: snapshot.project.clone(),
        knowledge,
        handoffs,
        lookup,
        inputs: options.inputs,
        retrieval: retrieval_settings(config),
        projection,
        knowledge_entities: config
            .index
            .knowledge_entities
            .enabled
            .then(|| knowledge_entities(snapshot)),
        publication: None,
    };
    (index, collection)
}

/// The opt-in `knowledgeEntities` section: every entity, sorted by id, with its observed
/// outbound relations (one per kind and target).
fn knowledge_entities(snapshot: &Snapshot) -> Vec<KnowledgeEntity> {
    let mut outbound: BTreeMap<&str, Vec<KnowledgeRelation>> = BTreeMap::new();
    for relation in &snapshot.relations {
        outbound
            .entry(relation.from.as_str())
            .or_default()
            .push(KnowledgeRelation {
                kind: relation.kind.as_str().to_owned(),
                to: relation.to.to_string(),
            });
    }
    let mut entities: Vec<KnowledgeEntity> = snapshot
        .entities
        .iter()
        .map(|entity| {
            let mut relations = outbound.remove(entity.id().as_str()).unwrap_or_default();
            relations.sort();
            relations.dedup();
            KnowledgeEntity {
                content_hash: entity.content_hash().clone(),
                id: entity.id().to_string(),
                kind: entity.kind().as_str().to_owned(),
                name: entity.name().to_owned(),
                path: entity.path().clone(),
                provenance: "observed".to_owned(),
                relations,
            }
        })
        .collect();
    entities.sort_by(|a, b| a.id.cmp(&b.id));
    entities
}

/// The parts of the index that route work: the knowledge entries, the handoffs and the lookup.
struct Routing {
    knowledge: Vec<KnowledgeEntry>,
    handoffs: BTreeMap<String, doc_bridge_model::index::Handoff>,
    lookup: Lookup,
}

fn routing(snapshot: &Snapshot, config: &Config, agent_root: Option<&RelPath>) -> Routing {
    let graph = Graph::new(snapshot);
    let packages: Vec<&Package> = graph.packages().collect();
    let configured = owners(config);

    let mut knowledge = Vec::new();
    let mut agent_docs: Vec<KnowledgeEntry> = graph
        .documents()
        .iter()
        .filter(|d| d.agent_doc)
        .map(|d| {
            let id = agent_root
                .and_then(|root| d.path.strip_dir(root))
                .map(|rel| {
                    rel.rsplit_once('.')
                        .map_or(rel, |(stem, _)| stem)
                        .to_owned()
                })
                .unwrap_or_else(|| d.path.file_stem().to_owned());
            KnowledgeEntry {
                id,
                entry_type: "agent-doc".to_owned(),
                title: d.title.clone(),
                path: d.path.clone(),
                description: non_empty(&d.summary),
                tags: Vec::new(),
                symbols: Vec::new(),
                content_hash: None,
            }
        })
        .collect();
    agent_docs.sort_by(|a, b| a.id.cmp(&b.id).then(a.path.cmp(&b.path)));
    knowledge.extend(agent_docs);
    if config.retrieval.corpus.enabled {
        for entity in &snapshot.entities {
            match entity {
                Entity::Document(d) => {
                    let mut tags = vec!["document".to_owned()];
                    for tag in d.audience.iter().chain(&d.tags) {
                        if !tags.contains(tag) {
                            tags.push(tag.clone());
                        }
                    }
                    knowledge.push(KnowledgeEntry {
                        id: d.id.to_string(),
                        entry_type: "document".to_owned(),
                        title: d.title.clone(),
                        path: d.path.clone(),
                        description: non_empty(&d.summary),
                        tags,
                        symbols: Vec::new(),
                        content_hash: Some(d.content_hash.clone()),
                    });
                }
                Entity::Module(m) => {
                    let mut symbols: Vec<String> = Vec::new();
                    let mut seen: FxHashSet<&str> = FxHashSet::default();
                    for symbol in &m.symbols {
                        if seen.insert(symbol.name.as_str()) {
                            symbols.push(symbol.name.clone());
                        }
                    }
                    let mut tags = vec![
                        "module".to_owned(),
                        m.path.extension().unwrap_or("").to_owned(),
                    ];
                    let parent = m.path.parent();
                    if !parent.is_root() {
                        tags.push(parent.file_name().to_owned());
                    }
                    tags.retain(|t| !t.is_empty());
                    knowledge.push(KnowledgeEntry {
                        id: m.id.to_string(),
                        entry_type: "module".to_owned(),
                        title: m.path.file_name().to_owned(),
                        path: m.path.clone(),
                        description: None,
                        tags,
                        symbols,
                        content_hash: Some(m.content_hash.clone()),
                    });
                }
                Entity::Area(_) | Entity::Package(_) | Entity::File(_) => {}
            }
        }
    }

    let mut handoffs = BTreeMap::new();
    let mut ownership = BTreeMap::new();
    for package in &packages {
        let owner = configured.iter().find(|o| o.path == package.path);
        let targets = package_targets(&graph, package);
        let owner_names = owner_names(package, owner);
        let input = HandoffInput {
            target_type: "package",
            target_id: package.name.clone(),
            path: package.path.clone(),
            targets,
            package: Some(package),
            owner,
            owner_names,
            first_read: None,
        };
        let built = build_handoff(&graph, &input, agent_root);
        let handoff = built.handoff;
        let agent_doc = built.start_document.filter(|p| {
            graph
                .document(&EntityId::document(p))
                .is_some_and(|d| d.agent_doc)
        });
        ownership.insert(
            package.name.clone(),
            OwnershipRecord {
                id: package.name.clone(),
                path: package.path.clone(),
                checks: if handoff.checks.is_empty() {
                    package_checks(&graph, package).0
                } else {
                    handoff.checks.clone()
                },
                agent_doc,
            },
        );
        handoffs.insert(package.name.clone(), handoff);
    }
    for owner in &configured {
        let package = packages
            .iter()
            .filter(|p| owner.path.is_within(&p.path))
            .max_by_key(|p| p.path.depth())
            .copied();
        let targets: BTreeSet<EntityId> = graph
            .within(&owner.path)
            .into_iter()
            .filter(|e| matches!(e, Entity::Area(_) | Entity::Module(_) | Entity::Package(_)))
            .map(|e| e.id().clone())
            .collect();
        let input = HandoffInput {
            target_type: "ownership",
            target_id: owner.id.clone(),
            path: owner.path.clone(),
            targets,
            package,
            owner: Some(owner),
            owner_names: vec![owner.id.as_str()],
            first_read: None,
        };
        let built = build_handoff(&graph, &input, agent_root);
        let handoff = built.handoff;
        ownership.insert(
            owner.id.clone(),
            OwnershipRecord {
                id: owner.id.clone(),
                path: owner.path.clone(),
                checks: handoff.checks.clone(),
                agent_doc: owner.agent_doc.clone().or(built.start_document),
            },
        );
        handoffs.insert(owner.id.clone(), handoff);
    }
    let mut package_names: Vec<String> = packages.iter().map(|p| p.name.clone()).collect();
    package_names.sort();
    package_names.dedup();

    Routing {
        knowledge,
        handoffs,
        lookup: Lookup {
            packages: package_names,
            ownership,
        },
    }
}

/// Seals the index: its projection's `contentHash`, then its own, both from one encoding of
/// the index. Returns that encoding, sealed, for a caller that writes it (whose `generatedAt`
/// is still the index's; see `Encoded::set_string`). `None`, and nothing sealed, if the index
/// cannot be encoded (one built here always can).
pub fn seal(index: &mut DocBridgeIndexV1) -> Option<Encoded> {
    let sealed = Sealed::of(index)?;
    Some(sealed.apply(index))
}

/// An index's one encoding with both seals in place, made from a shared borrow so that other
/// work can read the index meanwhile; [`Sealed::apply`] puts the seals into the value.
#[derive(Debug)]
pub struct Sealed {
    encoded: Encoded,
    projection: ContentHash,
    index: ContentHash,
}

impl Sealed {
    /// Encodes `index` and seals the encoding; `None` if the index cannot be encoded.
    pub fn of(index: &DocBridgeIndexV1) -> Option<Sealed> {
        Self::of_in(index, Vec::new())
    }

    /// [`Sealed::of`], encoding into the memory of `buffer` (see `Encoded::new_in`).
    pub fn of_in(index: &DocBridgeIndexV1, buffer: Vec<u8>) -> Option<Sealed> {
        let mut encoded = Encoded::new_in(index, buffer).ok()?;
        let projection = encoded
            .seal_member("projection", PROJECTION_HASH_EXCLUDED)
            .ok()?;
        let hash = encoded.seal(INDEX_HASH_EXCLUDED);
        encoded.set_string("contentHash", hash.as_str()).ok()?;
        Some(Sealed {
            encoded,
            projection,
            index: hash,
        })
    }

    /// Records the seals in `index` (the value this was made from) and gives back the encoding.
    pub fn apply(self, index: &mut DocBridgeIndexV1) -> Encoded {
        index.projection.content_hash = self.projection;
        index.content_hash = self.index;
        self.encoded
    }
}

/// The sha256-semantic-v1 hash of an index as it stands (its seal), or `None` if it cannot be
/// computed.
pub fn index_hash(index: &DocBridgeIndexV1) -> Option<ContentHash> {
    semantic_hash(index, INDEX_HASH_EXCLUDED).ok()
}

fn owner_names<'a>(package: &'a Package, owner: Option<&'a Owner>) -> Vec<&'a str> {
    let mut names = vec![package.name.as_str()];
    // `@fx/auth` is usually owned as `auth`.
    if let Some((_, short)) = package.name.rsplit_once('/') {
        names.push(short);
    }
    if let Some(owner) = owner {
        names.push(owner.id.as_str());
    }
    names
}

fn non_empty(text: &str) -> Option<String> {
    (!text.trim().is_empty()).then(|| text.to_owned())
}
