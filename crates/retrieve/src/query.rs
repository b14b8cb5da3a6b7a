//! `query`: resolve an id, alias or path to an entity, and build its handoff with related areas.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::config::Config;
use doc_bridge_model::index::{DocBridgeIndexV1, Handoff};
use doc_bridge_model::projection::{ProjectedEntry, RetrievalIndexV1};
use doc_bridge_model::snapshot::{Entity, Package, RelationKind};
use doc_bridge_model::{ContentHash, EntityId, RelPath};
use serde::Serialize;

use crate::collection::{Collection, normalize_name};
use crate::graph::Graph;
use crate::handoff::{HandoffInput, build_handoff, package_targets};
use crate::index_build::owners;
use crate::rank::{Scoring, SearchOptions, search};

/// A resolved query target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// Exactly one entity.
    Found(EntityId),
    /// Several entities share the name.
    Ambiguous(Vec<EntityId>),
    /// Nothing.
    NotFound,
}

/// Where [`resolve`] looks up the names that name entities: aliases, file names and stems
/// ([`entry_names`]), normalized. The projection scans its entries; the query image keeps
/// them in a table.
pub trait NameLookup {
    /// The ids that `key` (a [`normalize_name`]d name) names.
    fn named(&self, key: &str) -> BTreeSet<EntityId>;
}

impl NameLookup for RetrievalIndexV1 {
    fn named(&self, key: &str) -> BTreeSet<EntityId> {
        self.entries
            .iter()
            .filter(|entry| {
                entry_names(entry).is_some_and(|mut names| names.any(|n| normalize_name(n) == key))
            })
            .map(|entry| EntityId::from_raw(entry.id.clone()))
            .collect()
    }
}

/// The names by which `query` finds an entry (its aliases, its file name, and its stem unless
/// it is a `file` entry: a file no analyzer reads is named by its file name, so `package` names
/// `docs/package.md`, not every `package.json`); `None` for entries that stand for no entity
/// (intent and ownership routes).
pub fn entry_names(entry: &ProjectedEntry) -> Option<impl Iterator<Item = &str>> {
    if !entry.id.contains(':')
        || entry.id.starts_with("intent:")
        || entry.id.starts_with("ownership:")
    {
        return None;
    }
    let stem = (entry.kind != "file").then(|| entry.path.file_stem());
    Some(
        entry
            .aliases
            .iter()
            .map(String::as_str)
            .chain([entry.path.file_name()])
            .chain(stem),
    )
}

/// Resolves `text`: an entity id, a package name, an alias, a path (file or directory), a file
/// name or stem.
pub fn resolve(graph: &Graph<'_>, names: &dyn NameLookup, text: &str) -> Resolution {
    let trimmed = text.trim();
    let id = EntityId::from_raw(trimmed);
    if graph.entity(&id).is_some() {
        return Resolution::Found(id);
    }
    if let Some(package) = graph.packages().find(|p| p.name == trimmed) {
        return Resolution::Found(package.id.clone());
    }
    let key = normalize_name(trimmed);
    let mut found: BTreeSet<EntityId> = BTreeSet::new();
    // Paths: a directory names its package first, then its area.
    if let Some(path) = RelPath::new(trimmed.trim_start_matches("./").trim_end_matches('/')) {
        let at_path = graph.at_path(&path);
        if let Some(package) = at_path.iter().find(|e| matches!(e, Entity::Package(_))) {
            return Resolution::Found(package.id().clone());
        }
        if let [only] = at_path.as_slice() {
            return Resolution::Found(only.id().clone());
        }
        found.extend(at_path.iter().map(|e| e.id().clone()));
    }
    found.extend(names.named(&key));
    match found.len() {
        0 => Resolution::NotFound,
        1 => found
            .into_iter()
            .next()
            .map(Resolution::Found)
            .unwrap_or(Resolution::NotFound),
        _ => Resolution::Ambiguous(found.into_iter().collect()),
    }
}

/// An area this one imports from or is imported by, with the import that proves it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RelatedArea {
    /// The other area.
    pub area: EntityId,
    /// `imports` (the target's code imports it) or `imported-by`.
    pub direction: String,
    /// How many imports.
    pub imports: u32,
    /// The first import: the importing file, its line, and the specifier.
    pub evidence: RelatedEvidence,
}

/// The import that proves a related area.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RelatedEvidence {
    /// The importing file.
    pub path: RelPath,
    /// Its line.
    pub line: u32,
    /// The specifier.
    pub specifier: String,
}

/// The handoff for one entity, with what explains it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EntityHandoff {
    /// The `AgentHandoffV1`.
    #[serde(flatten)]
    pub handoff: Handoff,
    /// Where the checks came from: `ownership`, `front-matter`, `package-scripts`,
    /// `package-manager-default` or `none` (not part of `AgentHandoffV1`).
    pub checks_source: &'static str,
    /// The strongest importing and imported areas.
    pub related: Vec<RelatedArea>,
    /// Why each file and the checks were chosen.
    pub explain: Vec<String>,
    /// The target's evidence.
    pub evidence: TargetEvidence,
    /// Facts about the target.
    pub metadata: BTreeMap<String, serde_json::Value>,
}

/// The target's evidence.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetEvidence {
    /// The file or directory.
    pub path: RelPath,
    /// Its content hash.
    pub content_hash: ContentHash,
}

/// How many related areas per direction.
pub const MAX_RELATED: usize = 5;

/// Builds the handoff for any entity.
pub fn entity_handoff(
    graph: &Graph<'_>,
    config: &Config,
    agent_root: Option<&RelPath>,
    id: &EntityId,
) -> Option<EntityHandoff> {
    let entity = graph.entity(id)?;
    let configured = owners(config);
    let package_of = |path: &RelPath| -> Option<&Package> {
        graph
            .packages()
            .filter(|p| path.is_within(&p.path))
            .max_by_key(|p| p.path.depth())
    };
    let owner = configured
        .iter()
        .filter(|o| entity.path().is_within(&o.path))
        .max_by_key(|o| o.path.depth());
    let mut targets: BTreeSet<EntityId> = BTreeSet::new();
    let mut metadata = BTreeMap::new();
    metadata.insert("kind".to_owned(), serde_json::json!(entity.kind().as_str()));
    metadata.insert("name".to_owned(), serde_json::json!(entity.name()));
    let (package, first_read) = match entity {
        Entity::Package(p) => {
            targets = package_targets(graph, p);
            (Some(p), None)
        }
        Entity::Area(a) => {
            targets.insert(a.id.clone());
            for relation in graph
                .outbound(&a.id)
                .iter()
                .filter(|r| r.kind == RelationKind::Contains)
            {
                targets.insert(relation.to.clone());
            }
            metadata.insert("modules".to_owned(), serde_json::json!(a.module_count));
            (package_of(&a.path), None)
        }
        Entity::Module(m) => {
            targets.insert(m.id.clone());
            if let Some(area) = graph
                .inbound(&m.id)
                .iter()
                .find(|r| r.kind == RelationKind::Contains)
            {
                targets.insert(area.from.clone());
                metadata.insert("area".to_owned(), serde_json::json!(area.from));
            }
            metadata.insert("language".to_owned(), serde_json::json!(m.language));
            metadata.insert(
                "symbols".to_owned(),
                serde_json::json!(
                    m.symbols
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                ),
            );
            (package_of(&m.path), None)
        }
        Entity::File(f) => {
            targets.insert(f.id.clone());
            // The area of the nearest directory that holds modules, if any.
            let mut dir = f.path.parent();
            loop {
                let area = EntityId::area(&dir);
                if graph.entity(&area).is_some() {
                    metadata.insert("area".to_owned(), serde_json::json!(area));
                    targets.insert(area);
                    break;
                }
                if dir.is_root() {
                    break;
                }
                dir = dir.parent();
            }
            (package_of(&f.path), None)
        }
        Entity::Document(d) => {
            targets.insert(d.id.clone());
            metadata.insert("title".to_owned(), serde_json::json!(d.title));
            if let Some(language) = &d.language {
                metadata.insert("language".to_owned(), serde_json::json!(language));
            }
            (package_of(&d.path), Some(d.path.clone()))
        }
    };
    if let Some(package) = package {
        targets.insert(package.id.clone());
        metadata.insert("package".to_owned(), serde_json::json!(package.id));
    }
    let mut owner_names: Vec<&str> = Vec::new();
    if let Some(package) = package {
        owner_names.push(package.name.as_str());
        if let Some((_, short)) = package.name.rsplit_once('/') {
            owner_names.push(short);
        }
    }
    if let Some(owner) = owner {
        owner_names.push(owner.id.as_str());
    }
    let input = HandoffInput {
        target_type: entity.kind().as_str(),
        target_id: match entity {
            Entity::Package(p) => p.name.clone(),
            _ => id.to_string(),
        },
        path: entity.path().clone(),
        targets: targets.clone(),
        package,
        owner,
        owner_names,
        first_read,
    };
    let built = build_handoff(graph, &input, agent_root);
    Some(EntityHandoff {
        handoff: built.handoff,
        checks_source: built.checks_source,
        explain: built.explain,
        related: related_areas(graph, &targets),
        evidence: TargetEvidence {
            path: entity.path().clone(),
            content_hash: entity.content_hash().clone(),
        },
        metadata,
    })
}

/// Areas the target's modules import from, and areas whose modules import them.
fn related_areas(graph: &Graph<'_>, targets: &BTreeSet<EntityId>) -> Vec<RelatedArea> {
    let area_of = |module: &EntityId| -> Option<EntityId> {
        graph
            .inbound(module)
            .iter()
            .find(|r| r.kind == RelationKind::Contains && r.from.as_str().starts_with("area:"))
            .map(|r| r.from.clone())
    };
    let own_areas: BTreeSet<EntityId> = targets
        .iter()
        .filter_map(|t| {
            if t.as_str().starts_with("area:") {
                Some(t.clone())
            } else if t.as_str().starts_with("module:") {
                area_of(t)
            } else {
                None
            }
        })
        .collect();
    let modules: BTreeSet<&EntityId> = targets
        .iter()
        .filter(|t| t.as_str().starts_with("module:"))
        .collect();
    let mut tally: BTreeMap<(EntityId, &'static str), (u32, RelatedEvidence)> = BTreeMap::new();
    for module in &modules {
        for (relations, direction) in [
            (graph.outbound(module), "imports"),
            (graph.inbound(module), "imported-by"),
        ] {
            for relation in relations.iter().filter(|r| r.kind == RelationKind::Imports) {
                let other = if direction == "imports" {
                    &relation.to
                } else {
                    &relation.from
                };
                let Some(area) = area_of(other) else { continue };
                if own_areas.contains(&area) {
                    continue;
                }
                let evidence = RelatedEvidence {
                    path: relation.evidence.path.clone(),
                    line: relation.evidence.lines[0],
                    specifier: relation.via.clone().unwrap_or_default(),
                };
                tally
                    .entry((area, direction))
                    .and_modify(|(n, _)| *n += 1)
                    .or_insert((1, evidence));
            }
        }
    }
    let mut related: Vec<RelatedArea> = tally
        .into_iter()
        .map(|((area, direction), (imports, evidence))| RelatedArea {
            area,
            direction: direction.to_owned(),
            imports,
            evidence,
        })
        .collect();
    related.sort_by(|a, b| {
        a.direction
            .cmp(&b.direction)
            .then(b.imports.cmp(&a.imports))
            .then(a.area.cmp(&b.area))
    });
    let mut kept = Vec::new();
    for direction in ["imports", "imported-by"] {
        kept.extend(
            related
                .iter()
                .filter(|r| r.direction == direction)
                .take(MAX_RELATED)
                .cloned(),
        );
    }
    kept
}

/// Up to five entity ids close to an unknown `target`: ranked search hits first, then entities
/// with similar names (what `query` and the MCP `lookup` offer instead of an answer).
pub fn closest_matches(index: &DocBridgeIndexV1, target: &str) -> Vec<String> {
    let collection = Collection::build(&index.projection);
    closest_in(
        &collection,
        &index.retrieval,
        Some(&index.projection),
        target,
    )
}

/// [`closest_matches`] over a collection already built (a search cache), with `index.retrieval`
/// as `retrieval`; the similar names are the projection's when it is given (aliases included),
/// else the collection's entries' (id, path, file stem and title).
pub fn closest_in(
    collection: &Collection,
    retrieval: &doc_bridge_model::index::RetrievalSettings,
    projection: Option<&RetrievalIndexV1>,
    target: &str,
) -> Vec<String> {
    let options = SearchOptions {
        limit: 5,
        floor: 0.0,
        scoring: Scoring::from_settings(retrieval),
        ..SearchOptions::default()
    };
    let mut closest: Vec<String> = search(collection, target, &options)
        .into_iter()
        .map(|h| collection.entry(h.entry).id().to_owned())
        .collect();
    let names = match projection {
        Some(projection) => closest_names(projection, target, 5),
        None => closest_of(
            collection.entries().map(|e| {
                let names = [e.id(), e.path(), file_stem(e.path()), e.title()];
                (e.id(), e.kind(), names.map(str::to_owned).to_vec())
            }),
            target,
            5,
        ),
    };
    for name in names {
        if closest.len() < 5 && !closest.contains(&name) {
            closest.push(name);
        }
    }
    closest
}

/// The file stem of a `/`-separated path (`docs/intro.md` → `intro`).
fn file_stem(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => name,
    }
}

/// The entries whose names are closest to `text` (Jaro-Winkler over id, path, file stem, title
/// and aliases; at least 0.75), best first.
pub fn closest_names(projection: &RetrievalIndexV1, text: &str, limit: usize) -> Vec<String> {
    closest_of(
        projection.entries.iter().map(|e| {
            let names = [
                e.id.as_str(),
                e.path.as_str(),
                e.path.file_stem(),
                e.title.as_str(),
            ]
            .into_iter()
            .chain(e.aliases.iter().map(String::as_str))
            .map(str::to_owned)
            .collect();
            (e.id.as_str(), e.kind.as_str(), names)
        }),
        text,
        limit,
    )
}

/// The ids whose names (id, kind, names) are closest to `text`, best first: intent and
/// ownership routes left out, a Jaro-Winkler similarity of at least 0.75.
fn closest_of<'a>(
    entries: impl Iterator<Item = (&'a str, &'a str, Vec<String>)>,
    text: &str,
    limit: usize,
) -> Vec<String> {
    let key = normalize_name(text);
    let mut scored: Vec<(f64, &str)> = entries
        .filter(|(_, kind, _)| !matches!(*kind, "intent" | "ownership"))
        .map(|(id, _, names)| {
            let best = names
                .iter()
                .map(|n| strsim::jaro_winkler(&key, &normalize_name(n)))
                .fold(0.0, f64::max);
            (best, id)
        })
        .filter(|(score, _)| *score >= 0.75)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored
        .into_iter()
        .take(limit)
        .map(|(_, id)| id.to_owned())
        .collect()
}
