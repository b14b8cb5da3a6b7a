//! `doc-bridge list documents|modules|packages|areas|knowledge`: the entities of one kind in
//! the verified index's snapshot, or the index's `knowledge[]` entries.
//!
//! Loaded as `query` loads (verified, fresh unless `--allow-stale`; stale without it: exit 1;
//! missing or invalid: exit 2). Text: one line per entry, `ID  PATH  NAME`, sorted by id (then
//! path). `--json`: an array of objects in the same order. A stale index is named on stderr in
//! both forms, so stdout stays the list.

use serde_json::{Value, json};

use doc_bridge_model::index::KnowledgeEntry;
use doc_bridge_model::snapshot::{Entity, EntityKind};

use crate::args::{ListArgs, ListKind};
use crate::exit::{CommandResult, Exit};
use crate::pipeline::{load_for_query, load_for_query_with_snapshot};
use crate::repo::Repo;

/// Runs the command.
pub fn run(args: &ListArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let (stale, rows) = match entity_kind(args.kind) {
        None => {
            let loaded = load_for_query(&repo, args.allow_stale)?;
            let mut entries: Vec<&KnowledgeEntry> = loaded.index.knowledge.iter().collect();
            entries.sort_by(|a, b| a.id.cmp(&b.id).then(a.path.cmp(&b.path)));
            let rows: Vec<Row> = entries.into_iter().map(knowledge_row).collect();
            (loaded.stale, rows)
        }
        Some(kind) => {
            let (loaded, snapshot) = load_for_query_with_snapshot(&repo, args.allow_stale)?;
            let mut entities: Vec<&Entity> = snapshot
                .entities
                .iter()
                .filter(|e| e.kind() == kind)
                .collect();
            entities.sort_by(|a, b| a.id().cmp(b.id()));
            let rows = entities.into_iter().map(entity_row).collect();
            (loaded.stale, rows)
        }
    };
    if let Some(stale) = &stale {
        crate::errln!("warning: listing from a stale index: {}", stale.summary(5));
    }
    if args.json {
        let values: Vec<&Value> = rows.iter().map(|r| &r.json).collect();
        crate::outln!("{:#}", json!(values));
        return Ok(Exit::Ok);
    }
    if rows.is_empty() && !args.common.quiet {
        crate::errln!("no {} in the index", kind_name(args.kind));
    }
    for row in &rows {
        crate::outln!("{}", row.line);
    }
    Ok(Exit::Ok)
}

/// One listed entry: its text line and its JSON object.
struct Row {
    line: String,
    json: Value,
}

/// The snapshot entity kind listed; `None` for `knowledge`.
fn entity_kind(kind: ListKind) -> Option<EntityKind> {
    match kind {
        ListKind::Documents => Some(EntityKind::Document),
        ListKind::Modules => Some(EntityKind::Module),
        ListKind::Packages => Some(EntityKind::Package),
        ListKind::Areas => Some(EntityKind::Area),
        ListKind::Files => Some(EntityKind::File),
        ListKind::Knowledge => None,
    }
}

fn kind_name(kind: ListKind) -> &'static str {
    match kind {
        ListKind::Documents => "documents",
        ListKind::Modules => "modules",
        ListKind::Packages => "packages",
        ListKind::Areas => "areas",
        ListKind::Files => "files",
        ListKind::Knowledge => "knowledge entries",
    }
}

/// `{"id", "kind", "path", "name", "contentHash", ...}` with a few facts of the kind: a
/// document's `language` and `agentDoc`, a module's `language` and `symbols` (how many), a
/// package's `ecosystem`, `version` and `manifest`, an area's `modules` (how many) and
/// `package`.
fn entity_row(entity: &Entity) -> Row {
    let mut value = json!({
        "id": entity.id(),
        "kind": entity.kind().as_str(),
        "path": entity.path(),
        "name": entity.name(),
        "contentHash": entity.content_hash(),
    });
    match entity {
        Entity::Document(d) => {
            value["language"] = json!(d.language);
            value["agentDoc"] = json!(d.agent_doc);
        }
        Entity::Module(m) => {
            value["language"] = json!(m.language);
            value["symbols"] = json!(m.symbols.len());
        }
        Entity::Package(p) => {
            value["ecosystem"] = json!(p.ecosystem);
            value["version"] = json!(p.version);
            value["manifest"] = json!(p.manifest);
        }
        Entity::Area(a) => {
            value["modules"] = json!(a.module_count);
            value["package"] = json!(a.package_id);
        }
        Entity::File(_) => {}
    }
    Row {
        line: format!("{}  {}  {}", entity.id(), entity.path(), entity.name()),
        json: value,
    }
}

/// A `knowledge[]` entry as the index holds it; the line adds its type.
fn knowledge_row(entry: &KnowledgeEntry) -> Row {
    Row {
        line: format!(
            "{}  {}  {}  [{}]",
            entry.id, entry.path, entry.title, entry.entry_type
        ),
        json: serde_json::to_value(entry).unwrap_or_default(),
    }
}
