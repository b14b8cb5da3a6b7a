//! Building the projection (`RetrievalIndexV1`): a pure function of the snapshot, the accepted
//! overlay and the configuration.

use std::collections::{BTreeMap, BTreeSet};

use rayon::iter::{IntoParallelRefIterator, ParallelIterator};
use rayon::slice::ParallelSliceMut;
use rustc_hash::{FxHashMap, FxHashSet};

use doc_bridge_model::config::Config;
use doc_bridge_model::hash::semantic_hash;
use doc_bridge_model::projection::{
    Edge, EntryGraph, GraphParams, LexicalStats, PROJECTION_HASH_EXCLUDED, ProjectedEntry,
    ProjectedSymbol, RetrievalIndexV1,
};
use doc_bridge_model::retrieval::{Field, LEXICON_VERSION};
use doc_bridge_model::snapshot::{Entity, EntityText, RelationKind, Snapshot, Texts};
use doc_bridge_model::timing::phase;
use doc_bridge_model::{ContentHash, EntityId, RelPath};

use crate::collection::Collection;
use crate::index_build::owners;
use crate::lexicon;
use crate::overlay::OverlaySignals;

/// Version of the graph metrics definition.
pub const GRAPH_VERSION: u32 = 2;
/// PageRank damping.
pub const PAGERANK_DAMPING: f64 = 0.85;
/// PageRank iteration cap.
pub const PAGERANK_ITERATIONS: u32 = 100;
/// PageRank convergence tolerance (L1 change per iteration).
pub const PAGERANK_TOLERANCE: f64 = 1e-10;
/// Inbound and outbound edges kept per entry.
pub const MAX_EDGES: usize = 32;
/// Relation kinds that carry graph proximity.
pub const PROXIMITY_KINDS: &[RelationKind] = &[
    RelationKind::Covers,
    RelationKind::Mentions,
    RelationKind::LinksTo,
    RelationKind::Imports,
];

/// The text of a projection's documents and modules, as [`project_with_collection`] was given
/// it: what rebuilding the index from its stored snapshot needs (the snapshot holds no text).
pub fn texts_of(projection: &RetrievalIndexV1) -> Texts {
    let field = |entry: &ProjectedEntry, field: Field| {
        entry.fields.get(field.name()).cloned().unwrap_or_default()
    };
    projection
        .entries
        .iter()
        .filter_map(|entry| {
            let text = match entry.kind.as_str() {
                "document" => EntityText {
                    body: field(entry, Field::Body),
                    code: field(entry, Field::Code),
                },
                // A module's body field is its import specifiers, made from the snapshot.
                "module" => EntityText {
                    body: String::new(),
                    code: field(entry, Field::Code),
                },
                _ => return None,
            };
            Some((EntityId::from_raw(entry.id.clone()), text))
        })
        .collect()
}

/// Builds the projection, sealed.
pub fn project(
    snapshot: &Snapshot,
    texts: &Texts,
    overlay: &OverlaySignals,
    config: &Config,
    configuration_hash: ContentHash,
) -> RetrievalIndexV1 {
    let mut projection = project_with_collection(
        snapshot,
        texts,
        overlay,
        config,
        configuration_hash,
        None,
        None,
    )
    .0;
    if let Ok(hash) = semantic_hash(&projection, PROJECTION_HASH_EXCLUDED) {
        projection.content_hash = hash;
    }
    projection
}

/// Builds the projection and the search collection in one pass: the collection's tokenization
/// also gives the projection's average field lengths. `texts` is the text of the snapshot's
/// documents and modules (their `body` and `code` fields), which the snapshot does not hold. `snapshot_hash`, when given, is the seal
/// of a snapshot not sealed yet (see `IndexOptions::snapshot_hash`). The projection is not
/// sealed: its `contentHash` is set when the index holding it is sealed (`index_build::seal`,
/// from the one encoding of the index).
pub fn project_with_collection(
    snapshot: &Snapshot,
    texts: &Texts,
    overlay: &OverlaySignals,
    config: &Config,
    configuration_hash: ContentHash,
    snapshot_hash: Option<&(dyn Fn() -> ContentHash + Sync)>,
    tokens: Option<&crate::token_memo::TokenMemo>,
) -> (RetrievalIndexV1, Collection) {
    // Each entry is a pure function of its entity (copying the entity's text): on all cores,
    // collected in order.
    // What the repository's `.gitattributes` say of a file, where they say anything.
    let linguist: FxHashMap<&RelPath, &str> = snapshot
        .files
        .iter()
        .filter_map(|f| Some((&f.path, f.linguist.as_deref()?)))
        .collect();
    let mut entries: Vec<ProjectedEntry> = snapshot
        .entities
        .par_iter()
        .map(|e| {
            let text = texts.get(e.id());
            entity_entry(e, text, overlay, linguist.get(e.path()).copied())
        })
        .collect();
    entries.extend(routes(snapshot, overlay, config));
    entries.par_sort_by(|a, b| a.id.cmp(&b.id));
    phase("projection: graph metrics", || {
        graph_metrics(snapshot, overlay, &mut entries)
    });

    let mut projection = RetrievalIndexV1 {
        schema_version: 1,
        content_hash: ContentHash::of_bytes(b""),
        snapshot_hash: snapshot.content_hash.clone(),
        overlay_hash: overlay.overlay_hash(),
        configuration_hash,
        lexicon_version: LEXICON_VERSION,
        graph: GraphParams {
            version: GRAPH_VERSION,
            damping: PAGERANK_DAMPING,
            iterations: PAGERANK_ITERATIONS,
            tolerance: PAGERANK_TOLERANCE,
            edges: vec!["links-to".into(), "covers".into()],
        },
        lexical: LexicalStats {
            document_count: entries.len() as u64,
            fields: Field::ALL.iter().map(|f| f.name().to_owned()).collect(),
            average_field_lengths: BTreeMap::new(),
        },
        entries,
    };
    let collection = phase("projection: collection", || {
        Collection::build_with(&projection, tokens)
    });
    projection.lexical.average_field_lengths = Field::ALL
        .iter()
        .zip(collection.average())
        .map(|(f, average)| (f.name().to_owned(), (average * 1e6).round() / 1e6))
        .collect();
    if let Some(sealed) = snapshot_hash {
        projection.snapshot_hash = phase("projection: wait for the snapshot's seal", sealed);
    }
    (projection, collection)
}

/// The fields by name; `code` only when there is some (documents with code blocks), so every
/// other entry keeps the seven fields it always had.
fn field_map(values: Vec<(Field, String)>) -> BTreeMap<String, String> {
    values
        .into_iter()
        .filter(|(f, v)| *f != Field::Code || !v.is_empty())
        .map(|(f, v)| (f.name().to_owned(), v))
        .collect()
}

fn entity_entry(
    entity: &Entity,
    text: Option<&EntityText>,
    overlay: &OverlaySignals,
    linguist: Option<&str>,
) -> ProjectedEntry {
    let id = entity.id();
    let mut aliases: Vec<String> = Vec::new();
    let mut tags = Vec::new();
    let mut symbols = Vec::new();
    let (title, fields, language, audience, agent_doc) = match entity {
        Entity::Document(d) => {
            if let Some(extra) = d.front_matter.get("aliases") {
                aliases.extend(string_list(extra));
            }
            tags.extend(d.tags.iter().cloned());
            let summary = if d.summary.is_empty() {
                overlay.summaries.get(id).cloned().unwrap_or_default()
            } else {
                d.summary.clone()
            };
            let headings = d
                .headings
                .iter()
                .map(|h| h.text.as_str())
                .collect::<Vec<_>>()
                .join("\n");
            let fields = vec![
                (Field::Title, d.title.clone()),
                (Field::Headings, headings),
                (Field::Symbols, String::new()),
                (Field::Path, d.path.to_string()),
                (Field::Aliases, String::new()),
                (Field::Summary, summary),
                (
                    Field::Body,
                    text.map(|t| t.body.clone()).unwrap_or_default(),
                ),
                (
                    Field::Code,
                    text.map(|t| t.code.clone()).unwrap_or_default(),
                ),
            ];
            (
                d.title.clone(),
                fields,
                d.language.clone(),
                d.audience.clone(),
                d.agent_doc,
            )
        }
        Entity::Module(m) => {
            // First occurrence of each name, in declaration order (a set: a module may export
            // a hundred thousand names).
            let mut seen: FxHashSet<&str> = FxHashSet::default();
            for s in &m.symbols {
                if s.name != "*" && seen.insert(s.name.as_str()) {
                    symbols.push(ProjectedSymbol {
                        name: s.name.clone(),
                        declared: !s.reexport,
                    });
                }
            }
            // Members are named with their owner (`Flask.register_blueprint`): searchable by
            // either word, and exact by the qualified name.
            let mut seen_members: FxHashSet<(&str, &str)> = FxHashSet::default();
            for member in &m.members {
                if seen_members.insert((member.owner.as_str(), member.name.as_str())) {
                    symbols.push(ProjectedSymbol {
                        name: format!("{}.{}", member.owner, member.name),
                        declared: true,
                    });
                }
            }
            let symbol_text = symbols
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            let imports = m
                .imports
                .iter()
                .map(|i| i.specifier.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            let summary = overlay.summaries.get(id).cloned().unwrap_or_default();
            let fields = vec![
                (Field::Title, m.path.file_name().to_owned()),
                (Field::Headings, String::new()),
                (Field::Symbols, symbol_text),
                (Field::Path, m.path.to_string()),
                (Field::Aliases, String::new()),
                (Field::Summary, summary),
                (Field::Body, imports),
                // The module's words, beside the code blocks of documents: both are code.
                (
                    Field::Code,
                    text.map(|t| t.code.clone()).unwrap_or_default(),
                ),
            ];
            (
                m.path.file_name().to_owned(),
                fields,
                None,
                Vec::new(),
                false,
            )
        }
        Entity::Area(a) => {
            let summary = overlay.summaries.get(id).cloned().unwrap_or_default();
            let fields = vec![
                (Field::Title, a.title.clone()),
                (Field::Headings, String::new()),
                (Field::Symbols, String::new()),
                (Field::Path, a.path.to_string()),
                (Field::Aliases, String::new()),
                (Field::Summary, summary),
                (Field::Body, String::new()),
            ];
            (a.title.clone(), fields, None, Vec::new(), false)
        }
        Entity::Package(p) => {
            aliases.push(p.name.clone());
            let summary = overlay.summaries.get(id).cloned().unwrap_or_default();
            let body = p
                .scripts
                .keys()
                .chain(p.dependencies.iter().map(|d| &d.name))
                .cloned()
                .collect::<Vec<_>>()
                .join(" ");
            let fields = vec![
                (Field::Title, p.name.clone()),
                (Field::Headings, String::new()),
                (Field::Symbols, String::new()),
                (Field::Path, p.path.to_string()),
                (Field::Aliases, String::new()),
                (Field::Summary, summary),
                (Field::Body, body),
            ];
            (p.name.clone(), fields, None, Vec::new(), false)
        }
        // A file is found by its name and path, nothing else.
        Entity::File(f) => {
            let fields = vec![
                (Field::Title, f.path.file_name().to_owned()),
                (Field::Headings, String::new()),
                (Field::Symbols, String::new()),
                (Field::Path, f.path.to_string()),
                (Field::Aliases, String::new()),
                (Field::Summary, String::new()),
                (Field::Body, String::new()),
            ];
            (
                f.path.file_name().to_owned(),
                fields,
                None,
                Vec::new(),
                false,
            )
        }
    };
    if let Some(extra) = overlay.aliases.get(id) {
        let mut seen: FxHashSet<String> = aliases.iter().cloned().collect();
        for alias in extra {
            if seen.insert(alias.clone()) {
                aliases.push(alias.clone());
            }
        }
    }
    if overlay.canonical.contains(id) {
        tags.push("canonical".to_owned());
    }
    if matches!(
        entity,
        Entity::Document(_) | Entity::Module(_) | Entity::File(_)
    ) && let Some(role) =
        crate::file_role::role_of(entity.path(), linguist, matches!(entity, Entity::Module(_)))
    {
        tags.push(role.tag());
    }
    let mut fields = field_map(fields);
    // Aliases accepted by policy alone are words of the field, not exact names.
    let mut alias_text = aliases.join("\n");
    if let Some(lexical) = overlay.lexical_aliases.get(id) {
        for alias in lexical {
            if !alias_text.is_empty() {
                alias_text.push('\n');
            }
            alias_text.push_str(alias);
        }
    }
    fields.insert(Field::Aliases.name().to_owned(), alias_text);
    ProjectedEntry {
        id: id.to_string(),
        kind: entity.kind().as_str().to_owned(),
        path: entity.path().clone(),
        title,
        aliases,
        symbols,
        tags,
        fields,
        graph: EntryGraph::default(),
        content_hash: entity.content_hash().clone(),
        provenance: "observed".to_owned(),
        confidence: "observed".to_owned(),
        language,
        mentions: match entity {
            Entity::Document(d) => d.mentions.clone(),
            _ => Vec::new(),
        },
        audience,
        agent_doc,
        target: None,
        signal: overlay
            .signals
            .get(id)
            .copied()
            .unwrap_or(0.0)
            .clamp(0.0, 1.0),
    }
}

fn string_list(value: &serde_json::Value) -> Vec<String> {
    match value {
        serde_json::Value::String(s) => s
            .split(',')
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty())
            .collect(),
        serde_json::Value::Array(items) => items
            .iter()
            .filter_map(|i| i.as_str().map(|s| s.trim().to_owned()))
            .filter(|s| !s.is_empty())
            .collect(),
        _ => Vec::new(),
    }
}

/// Routes the configuration declares (ownership records, intents) and accepted intents.
fn routes(snapshot: &Snapshot, overlay: &OverlaySignals, config: &Config) -> Vec<ProjectedEntry> {
    let by_path: FxHashMap<&RelPath, &Entity> = snapshot
        .entities
        .iter()
        .filter(|e| matches!(e, Entity::Package(_) | Entity::Area(_)))
        .map(|e| (e.path(), e))
        .collect();
    let by_id: FxHashMap<&EntityId, &Entity> =
        snapshot.entities.iter().map(|e| (e.id(), e)).collect();
    let resolve = |target: &str| -> Option<&Entity> {
        let id = EntityId::from_raw(target);
        by_id.get(&id).copied().or_else(|| {
            let path = RelPath::new(target.trim_start_matches("./").trim_end_matches('/'))?;
            by_path.get(&path).copied().or_else(|| {
                [EntityId::document(&path), EntityId::module(&path)]
                    .iter()
                    .find_map(|id| by_id.get(id).copied())
            })
        })
    };
    let mut routes = Vec::new();
    for owner in owners(config) {
        let target = by_path.get(&owner.path).map(|e| e.id().to_string());
        routes.push(route_entry(
            format!("ownership:{}", owner.id),
            "ownership",
            owner.path.clone(),
            owner.id.clone(),
            format!("ownership of {}", owner.path),
            target,
            "declared",
            ContentHash::of_bytes(owner.id.as_bytes()),
        ));
    }
    let declared = config
        .routing
        .options
        .intents
        .iter()
        .map(|i| (i.phrase.clone(), i.target.clone(), "declared"));
    let proposed = overlay
        .intents
        .iter()
        .map(|(phrase, target)| (phrase.clone(), target.to_string(), "proposed"));
    let mut seen = BTreeSet::new();
    for (phrase, target, provenance) in declared.chain(proposed) {
        let Some(entity) = resolve(&target) else {
            continue;
        };
        let key = (lexicon::fold(phrase.trim()), entity.id().clone());
        if !seen.insert(key) {
            continue;
        }
        let id = format!(
            "intent:{}",
            &semantic_hash(
                &serde_json::json!({"phrase": phrase, "target": entity.id()}),
                &[]
            )
            .map(|h| h.as_str()[..16].to_owned())
            .unwrap_or_default()
        );
        routes.push(route_entry(
            id,
            "intent",
            entity.path().clone(),
            phrase.clone(),
            phrase.clone(),
            Some(entity.id().to_string()),
            provenance,
            entity.content_hash().clone(),
        ));
    }
    routes
}

#[allow(clippy::too_many_arguments)]
fn route_entry(
    id: String,
    kind: &str,
    path: RelPath,
    title: String,
    summary: String,
    target: Option<String>,
    provenance: &str,
    content_hash: ContentHash,
) -> ProjectedEntry {
    let fields = field_map(vec![
        (Field::Title, title.clone()),
        (Field::Headings, String::new()),
        (Field::Symbols, String::new()),
        (Field::Path, path.to_string()),
        (Field::Aliases, String::new()),
        (Field::Summary, summary),
        (Field::Body, String::new()),
    ]);
    ProjectedEntry {
        id,
        kind: kind.to_owned(),
        path,
        title,
        aliases: Vec::new(),
        symbols: Vec::new(),
        tags: Vec::new(),
        fields,
        graph: EntryGraph::default(),
        content_hash,
        provenance: provenance.to_owned(),
        confidence: if provenance == "proposed" {
            "proposed"
        } else {
            "observed"
        }
        .to_owned(),
        language: None,
        mentions: Vec::new(),
        audience: Vec::new(),
        agent_doc: false,
        target,
        signal: 0.0,
    }
}

/// Fills in each entry's graph: PageRank, inbound links, covering and mentioning documents,
/// area and package, and bounded edge lists.
fn graph_metrics(snapshot: &Snapshot, overlay: &OverlaySignals, entries: &mut [ProjectedEntry]) {
    let index: FxHashMap<String, usize> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.clone(), i))
        .collect();
    // Kinds and confidences borrowed: no string is made per relation until an entry keeps it.
    let mut edges: Vec<(usize, usize, &str, &str)> = Vec::with_capacity(snapshot.relations.len());
    for relation in &snapshot.relations {
        if let (Some(&from), Some(&to)) = (
            index.get(relation.from.as_str()),
            index.get(relation.to.as_str()),
        ) {
            let confidence = match relation.provenance {
                doc_bridge_model::snapshot::Provenance::Observed => "observed",
                doc_bridge_model::snapshot::Provenance::Declared => "declared",
            };
            edges.push((from, to, relation.kind.as_str(), confidence));
        }
    }
    for (from, to, kind) in &overlay.edges {
        if let (Some(&from), Some(&to)) = (index.get(from.as_str()), index.get(to.as_str())) {
            edges.push((from, to, kind.as_str(), "proposed"));
        }
    }
    // A total order over the whole tuple: equal tuples are identical, so an unstable sort gives
    // the same sequence as a stable one.
    edges.par_sort_unstable();
    edges.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1 && a.2 == b.2);

    let id_of = |entries: &[ProjectedEntry], at: usize| EntityId::from_raw(entries[at].id.clone());
    for &(from, to, kind, confidence) in &edges {
        match kind {
            "links-to" => entries[to].graph.inbound_links += 1,
            "covers" => entries[to].graph.covered_by.push(id_of(entries, from)),
            "mentions" => entries[to].graph.mentioned_by.push(id_of(entries, from)),
            "contains" if entries[from].kind == "area" => {
                entries[to].graph.area_id = Some(id_of(entries, from))
            }
            _ => {}
        }
        let proximity = PROXIMITY_KINDS.iter().any(|k| k.as_str() == kind);
        if proximity {
            let to_id = id_of(entries, to);
            entries[from].graph.outbound.push(Edge {
                kind: kind.to_owned(),
                entity: to_id,
                confidence: confidence.to_owned(),
            });
        }
    }
    // Packages own areas; areas own modules.
    let area_package: FxHashMap<String, EntityId> = snapshot
        .entities
        .iter()
        .filter_map(|e| match e {
            Entity::Area(a) => a.package_id.clone().map(|p| (a.id.to_string(), p)),
            _ => None,
        })
        .collect();
    for entry in entries.iter_mut() {
        let package = match entry.kind.as_str() {
            "area" => area_package.get(&entry.id).cloned(),
            "module" => entry
                .graph
                .area_id
                .as_ref()
                .and_then(|a| area_package.get(a.as_str()).cloned()),
            _ => None,
        };
        entry.graph.package_id = package;
        let outbound = &mut entry.graph.outbound;
        outbound.sort();
        outbound.dedup();
        outbound.truncate(MAX_EDGES);
        entry.graph.covered_by.sort();
        entry.graph.covered_by.dedup();
        entry.graph.mentioned_by.sort();
        entry.graph.mentioned_by.dedup();
    }

    let rank_edges: Vec<(usize, usize)> = edges
        .iter()
        .filter(|(_, _, kind, _)| *kind == "links-to" || *kind == "covers")
        .map(|(from, to, _, _)| (*from, *to))
        .collect();
    // Over every entry but `file` entries (no links reach them, and their number must not
    // dilute the others' rank): they keep 0.
    let ranked: Vec<usize> = (0..entries.len())
        .filter(|i| entries[*i].kind != "file")
        .collect();
    let mut position = vec![usize::MAX; entries.len()];
    for (at, index) in ranked.iter().enumerate() {
        position[*index] = at;
    }
    let ranked_edges: Vec<(usize, usize)> = rank_edges
        .iter()
        .filter_map(|(from, to)| {
            let (from, to) = (position[*from], position[*to]);
            (from != usize::MAX && to != usize::MAX).then_some((from, to))
        })
        .collect();
    let ranks = pagerank(ranked.len(), &ranked_edges);
    for (index, rank) in ranked.into_iter().zip(ranks) {
        entries[index].graph.pagerank = rank;
    }
}

/// PageRank with dangling mass spread uniformly; sequential so the floats never depend on
/// thread count; rounded to 12 decimals so platform rounding cannot leak into the hash.
pub fn pagerank(n: usize, edges: &[(usize, usize)]) -> Vec<f64> {
    if n == 0 {
        return Vec::new();
    }
    let nf = n as f64;
    let mut out_degree = vec![0usize; n];
    for (from, _) in edges {
        out_degree[*from] += 1;
    }
    let mut rank = vec![1.0 / nf; n];
    let mut next = vec![0.0; n];
    for _ in 0..PAGERANK_ITERATIONS {
        let dangling: f64 = (0..n)
            .filter(|i| out_degree[*i] == 0)
            .map(|i| rank[i])
            .sum();
        let base = (1.0 - PAGERANK_DAMPING) / nf + PAGERANK_DAMPING * dangling / nf;
        next.iter_mut().for_each(|v| *v = base);
        for (from, to) in edges {
            next[*to] += PAGERANK_DAMPING * rank[*from] / out_degree[*from] as f64;
        }
        let change: f64 = rank.iter().zip(&next).map(|(a, b)| (a - b).abs()).sum();
        std::mem::swap(&mut rank, &mut next);
        if change < PAGERANK_TOLERANCE {
            break;
        }
    }
    rank.into_iter()
        .map(|r| (r * 1e12).round() / 1e12)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pagerank_sums_to_one_and_favours_linked_pages() {
        let ranks = pagerank(3, &[(0, 2), (1, 2)]);
        let sum: f64 = ranks.iter().sum();
        assert!((sum - 1.0).abs() < 1e-9);
        assert!(ranks[2] > ranks[0] && ranks[2] > ranks[1]);
    }
}
