//! `doc-bridge query <ID|ALIAS|PATH>`: the handoff for any entity.

use serde_json::json;

use doc_bridge_model::EntityId;
use doc_bridge_retrieve::cache::SearchCache;
use doc_bridge_retrieve::graph::Graph;
use doc_bridge_retrieve::query::{
    Resolution, closest_in, closest_matches, entity_handoff, resolve,
};

use crate::args::QueryArgs;
use crate::exit::{CommandResult, Exit, UserError};
use crate::pipeline::{self, ArtifactStamps, load_for_query_with_snapshot};
use crate::repo::Repo;

/// Resolves the target and prints its handoff; exit 1 with the closest matches when unknown.
///
/// The query image answers when it vouches for both artifacts and the inputs are unchanged: it
/// parses only what the handoff reads of `snapshot.json`, and the closest matches of a target
/// it does not find come from the search cache (names without aliases). Otherwise the artifacts
/// are read and verified in full, and the image is written again for the next query.
pub fn run(args: &QueryArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    if let Some(image) = pipeline::fresh_query_image(&repo)? {
        let graph = Graph::from_image(&image);
        match resolve(&graph, &image, &args.target) {
            Resolution::Found(id) => return answer(args, &repo, &graph, id, None),
            Resolution::Ambiguous(ids) => return ambiguous(args, ids),
            // The closest matches come from the search cache made for the same index.
            Resolution::NotFound => {
                let header = image.header();
                let cache = SearchCache::open(
                    &repo.artifact(pipeline::SEARCH_CACHE_FILE),
                    &header.index_stamp,
                )
                .filter(|cache| cache.index_hash == header.index_hash);
                if let Some(cache) = cache {
                    let closest =
                        closest_in(&cache.collection, &cache.retrieval, None, &args.target);
                    return not_found(args, format!("no entity named `{}`", args.target), closest);
                }
            }
        }
    }
    let stamps = ArtifactStamps::now(&repo);
    let (loaded, snapshot) = load_for_query_with_snapshot(&repo, args.allow_stale)?;
    let graph = Graph::new(&snapshot);
    let resolution = resolve(&graph, &loaded.index.projection, &args.target);
    if let (Some(stamps), None) = (stamps, &loaded.stale) {
        pipeline::rewrite_query_image(&repo, &loaded.index, &snapshot, stamps);
    }
    let id = match resolution {
        Resolution::Found(id) => id,
        Resolution::Ambiguous(ids) => return ambiguous(args, ids),
        Resolution::NotFound => {
            let closest = closest_matches(&loaded.index, &args.target);
            return not_found(args, format!("no entity named `{}`", args.target), closest);
        }
    };
    answer(args, &repo, &graph, id, loaded.stale.as_ref())
}

/// A target that names several entities: exit 1 with them.
fn ambiguous(args: &QueryArgs, ids: Vec<EntityId>) -> CommandResult {
    let names: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
    not_found(
        args,
        format!("`{}` names {} entities; pick one", args.target, ids.len()),
        names,
    )
}

/// Prints the handoff of `id` (from an index that is stale, when `stale` says so).
fn answer(
    args: &QueryArgs,
    repo: &Repo,
    graph: &Graph<'_>,
    id: EntityId,
    stale: Option<&doc_bridge_retrieve::Freshness>,
) -> CommandResult {
    let agent_root = repo.agent_root();
    let handoff = entity_handoff(graph, &repo.config, agent_root.as_ref(), &id)
        .ok_or_else(|| UserError::error(format!("entity `{id}` vanished from the snapshot")))?;
    if args.output.json {
        let mut value = serde_json::to_value(&handoff).unwrap_or_default();
        value["id"] = json!(id);
        if stale.is_some() {
            value["stale"] = json!(true);
        }
        crate::outln!("{value:#}");
        return Ok(Exit::Ok);
    }
    if let Some(stale) = stale {
        crate::errln!(
            "warning: answering from a stale index: {}",
            stale.summary(5)
        );
    }
    let h = &handoff.handoff;
    crate::outln!("{id} ({})", h.target.path);
    crate::outln!("start here:  {}", h.start_here);
    crate::outln!(
        "read first:  {}",
        h.read_before_editing
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    crate::outln!(
        "edit roots:  {}",
        h.edit_roots
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    if h.checks.is_empty() {
        crate::outln!("checks:      (none found)");
    } else {
        crate::outln!(
            "checks:      {} ({})",
            h.checks.join("; "),
            handoff.checks_source
        );
    }
    for related in &handoff.related {
        crate::outln!(
            "{:<12} {} ({} imports; {}:{} `{}`)",
            format!("{}:", related.direction),
            related.area,
            related.imports,
            related.evidence.path,
            related.evidence.line,
            related.evidence.specifier
        );
    }
    for note in &h.notes {
        crate::outln!("note:        {note}");
    }
    Ok(Exit::Ok)
}

/// An unknown or ambiguous target: exit 1 with the candidates (also for the `query` forms).
pub(crate) fn not_found(
    args: &QueryArgs,
    message: String,
    candidates: Vec<String>,
) -> CommandResult {
    if args.output.json {
        crate::outln!("{:#}", json!({"error": message, "closest": candidates}));
    } else {
        crate::errln!("doc-bridge: {message}");
        if !candidates.is_empty() {
            crate::errln!("closest matches:");
            for candidate in &candidates {
                crate::errln!("  {candidate}");
            }
        }
    }
    Ok(Exit::Findings)
}
