//! `doc-bridge query <ID|ALIAS|PATH>`: the handoff for any entity.

use serde_json::json;

use doc_bridge_retrieve::graph::Graph;
use doc_bridge_retrieve::query::{Resolution, closest_matches, entity_handoff, resolve};

use crate::args::QueryArgs;
use crate::exit::{CommandResult, Exit, UserError};
use crate::pipeline::load_for_query_with_snapshot;
use crate::repo::Repo;

/// Resolves the target and prints its handoff; exit 1 with the closest matches when unknown.
pub fn run(args: &QueryArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let (loaded, snapshot) = load_for_query_with_snapshot(&repo, args.allow_stale)?;
    let graph = Graph::new(&snapshot);
    let id = match resolve(&graph, &loaded.index.projection, &args.target) {
        Resolution::Found(id) => id,
        Resolution::Ambiguous(ids) => {
            let names: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
            return not_found(
                args,
                format!("`{}` names {} entities; pick one", args.target, ids.len()),
                names,
            );
        }
        Resolution::NotFound => {
            let closest = closest_matches(&loaded.index, &args.target);
            return not_found(args, format!("no entity named `{}`", args.target), closest);
        }
    };
    let agent_root = repo.agent_root();
    let handoff = entity_handoff(&graph, &repo.config, agent_root.as_ref(), &id)
        .ok_or_else(|| UserError::error(format!("entity `{id}` vanished from the snapshot")))?;
    if args.output.json {
        let mut value = serde_json::to_value(&handoff).unwrap_or_default();
        value["id"] = json!(id);
        if loaded.stale.is_some() {
            value["stale"] = json!(true);
        }
        crate::outln!("{value:#}");
        return Ok(Exit::Ok);
    }
    if let Some(stale) = &loaded.stale {
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
