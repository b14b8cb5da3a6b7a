//! The tools: their arguments (with the JSON Schemas `tools/list` shows) and their handlers. A
//! handler takes the state and typed arguments and returns the response JSON with the parts the
//! budget may drop; it never prints and never calls an agent.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use doc_bridge_enrich::redact::redact;
use doc_bridge_model::EntityId;
use doc_bridge_model::snapshot::Severity;
use doc_bridge_retrieve::graph::Graph;
use doc_bridge_retrieve::lexicon::tokens;
use doc_bridge_retrieve::query::{Resolution, entity_handoff, resolve};
use doc_bridge_retrieve::rank::{Scoring, SearchOptions, search};
use doc_bridge_retrieve::snippet;

use super::budget::{self, Droppable, Page, Part};
use super::confine::{MAX_PATH_BYTES, confine};
use super::state::{Loaded, State};
use crate::pipeline::{OverlayState, load_overlay};

/// Why a call failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolError {
    /// The arguments are wrong (a JSON-RPC `invalid params` error).
    Invalid(String),
    /// The call was understood but cannot be answered (an MCP error result the caller reads):
    /// no index, a stale or corrupt one, an unknown entity, a refused path or decision.
    Failed(String),
}

impl From<crate::exit::UserError> for ToolError {
    fn from(error: crate::exit::UserError) -> Self {
        ToolError::Failed(error.message)
    }
}

/// A response and what the budget may drop from it.
pub struct Answer {
    /// The response object.
    pub value: Value,
    /// Droppable parts, least important first inside each part.
    pub droppables: Vec<Droppable>,
    /// The paged list the response holds, if any: its cursor is written after fitting.
    pub page: Option<Page>,
}

impl Answer {
    fn core(value: Value) -> Self {
        Answer {
            value,
            droppables: Vec::new(),
            page: None,
        }
    }

    /// A response holding one page of each of `page.lists`, cut from their ends to fit a
    /// budget (`part` says which go first).
    fn paged(mut value: Value, part: Part, page: Page) -> Self {
        page.reserve(&mut value);
        Answer {
            value,
            droppables: page
                .lists
                .iter()
                .map(|(array, _)| Droppable::tail(part, array.clone()))
                .collect(),
            page: Some(page),
        }
    }

    /// The response as the client receives it: fitted to `budget_tokens`, then the page's
    /// cursor written.
    pub fn fitted(self, budget_tokens: Option<u64>) -> Value {
        let mut value = budget::fit(self.value, &self.droppables, budget_tokens);
        if let Some(page) = &self.page {
            page.finish(&mut value);
        }
        value
    }
}

/// The longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 1_000;
/// The most search results.
pub const MAX_LIMIT: usize = 100;
/// The deepest neighbourhood `lookup` walks.
pub const MAX_DEPTH: u8 = 3;
/// Neighbours listed per relation kind unless `limit` says otherwise.
pub const DEFAULT_NEIGHBOURS_PER_KIND: usize = 50;
/// The most neighbours listed per relation kind in one answer.
pub const MAX_NEIGHBOURS_PER_KIND: usize = 200;
/// The most covering documents and diagnostics a lookup lists (the counts say how many there
/// are; `diagnostics` with the entity's path lists them all).
pub const MAX_LOOKUP_LIST: usize = 50;
/// Diagnostics in one answer unless `limit` says otherwise.
pub const DEFAULT_DIAGNOSTICS: usize = 100;
/// The most diagnostics in one answer.
pub const MAX_DIAGNOSTICS: usize = 1_000;
/// The most lines `read_document` returns at once.
pub const MAX_LINE_COUNT: u32 = 2_000;
/// Lines returned when `lineCount` is not given.
pub const DEFAULT_LINE_COUNT: u32 = 400;
/// The longest name, proposal id or reason accepted.
pub const MAX_TEXT_CHARS: usize = 2_000;

/// `search` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchArgs {
    /// What to look for: words, an identifier, a path or a package name.
    pub query: String,
    /// Maximum results (default 10, at most 100).
    pub limit: Option<u32>,
    /// Only results of this kind (`document`, `module`, `package`, `area`, ...).
    pub kind: Option<String>,
    /// Attach every score part to each result.
    pub explain: Option<bool>,
    /// Fit the response into this many tokens (≈ characters / 4).
    pub budget_tokens: Option<u64>,
}

/// `lookup` arguments: one of `id` or `path`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LookupArgs {
    /// An entity id (`document:docs/a.md`, `module:src/x.ts`, `package:name`, `area:dir`), a
    /// package name or an alias.
    pub id: Option<String>,
    /// A repository-relative file or directory path.
    pub path: Option<String>,
    /// How many relation hops to follow (default 1, at most 3).
    pub depth: Option<u8>,
    /// The most neighbours listed per relation kind (default 50, at most 200).
    pub limit: Option<usize>,
    /// Where to start in every neighbour list: the `nextCursor` of the previous answer.
    pub cursor: Option<String>,
    /// Fit the response into this many tokens (≈ characters / 4).
    pub budget_tokens: Option<u64>,
}

/// `handoff` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HandoffArgs {
    /// An entity id, package name, alias or path.
    pub id: String,
    /// Fit the response into this many tokens (≈ characters / 4).
    pub budget_tokens: Option<u64>,
}

/// `read_document` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadDocumentArgs {
    /// A repository-relative file path.
    pub path: String,
    /// The first line to return, 1-based (default 1).
    pub start_line: Option<u32>,
    /// How many lines (default 400, at most 2000).
    pub line_count: Option<u32>,
    /// Fit the response into this many tokens (≈ characters / 4).
    pub budget_tokens: Option<u64>,
}

/// `diagnostics` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiagnosticsArgs {
    /// Only diagnostics of this file, or of files under this directory.
    pub path: Option<String>,
    /// The lowest severity listed: `info` (everything, the default), `warning` or `error`.
    pub severity: Option<SeverityArg>,
    /// The most diagnostics in one answer (default 100, at most 1,000).
    pub limit: Option<usize>,
    /// Where to start: the `nextCursor` of the previous answer.
    pub cursor: Option<String>,
    /// Fit the response into this many tokens (≈ characters / 4).
    pub budget_tokens: Option<u64>,
}

/// A severity filter.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SeverityArg {
    /// Everything.
    Info,
    /// Warnings and errors.
    Warning,
    /// Errors only.
    Error,
}

/// `proposals` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProposalsArgs {
    /// `list` (every entry of the overlay), `approve` or `reject` (a pending proposal).
    pub action: ProposalAction,
    /// The proposal to decide (for `approve` and `reject`).
    pub proposal_id: Option<String>,
    /// The person deciding: a person's name, never an agent identity or `policy`.
    pub by: Option<String>,
    /// Why (kept in the approval record).
    pub reason: Option<String>,
    /// Fit the response into this many tokens (≈ characters / 4).
    pub budget_tokens: Option<u64>,
}

/// What `proposals` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ProposalAction {
    /// List the overlay.
    List,
    /// Approve a pending proposal.
    Approve,
    /// Reject a pending proposal.
    Reject,
}

fn stale_flag(value: &mut Value, loaded: &Loaded) {
    value["fresh"] = json!(loaded.stale.is_none());
    if let Some(summary) = &loaded.stale {
        value["stale"] = json!(true);
        value["staleReason"] = json!(summary);
    }
    if let Some(refreshed) = &loaded.refreshed {
        value["refreshed"] = json!(refreshed);
    }
}

/// `refresh` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RefreshArgs {
    /// Re-index in full even when nothing changed.
    pub force: Option<bool>,
}

/// `refresh`: what changed since the index re-read (`force`: the whole pipeline, as
/// `doc-bridge index --force`), then what it did and the index it left.
pub fn refresh_tool(state: &mut State, args: RefreshArgs) -> Result<Answer, ToolError> {
    let did = match args.force.unwrap_or(false) {
        true => state.refresh_now(true),
        false => state.refresh_changed(),
    }
    .map_err(|e| ToolError::Failed(e.to_string()))?;
    let loaded = state.ready()?;
    let mut value = json!({
        "refreshed": did,
        "indexHash": loaded.index_hash(),
        "files": loaded.file_count(),
    });
    stale_flag(&mut value, loaded);
    value["refreshed"] = json!(did);
    Ok(Answer::core(value))
}

/// `search`: ranked results with title, path, a short excerpt with line numbers, and score parts
/// when asked.
pub fn search_tool(state: &mut State, args: SearchArgs) -> Result<Answer, ToolError> {
    if args.query.trim().is_empty() {
        return Err(ToolError::Invalid("`query` is empty".to_owned()));
    }
    if args.query.chars().count() > MAX_QUERY_CHARS {
        return Err(ToolError::Invalid(format!(
            "`query` is longer than {MAX_QUERY_CHARS} characters"
        )));
    }
    let limit = args.limit.unwrap_or(10) as usize;
    if limit == 0 || limit > MAX_LIMIT {
        return Err(ToolError::Invalid(format!(
            "`limit` must be between 1 and {MAX_LIMIT}"
        )));
    }
    let loaded = state.ready()?;
    let options = SearchOptions {
        // As `doc-bridge search` does: the best few dozen are looked into for their passages.
        limit: limit.max(doc_bridge_retrieve::rank::PASSAGE_CANDIDATES),
        kind: args.kind.clone(),
        explain: args.explain.unwrap_or(false),
        language: loaded.repo.config.retrieval.language().to_owned(),
        scoring: Scoring::from_settings(loaded.retrieval()),
        ..SearchOptions::default()
    };
    let collection = loaded.collection()?;
    let hits = search(collection, &args.query, &options);
    let texts = crate::commands::search::result_texts(&loaded.repo, collection, &hits);
    let hits =
        doc_bridge_retrieve::rank::rerank_by_passages(collection, &args.query, hits, &texts, limit);
    let graph = loaded.graph();
    let terms: BTreeSet<String> = tokens(&args.query).into_iter().collect();
    let mut results = Vec::new();
    let mut droppables = Vec::new();
    for (rank, hit) in hits.iter().enumerate() {
        let entry = collection.entry(hit.entry);
        let mut result = json!({
            "id": entry.id(),
            "kind": entry.kind(),
            "path": entry.path(),
            "title": entry.title(),
            "score": round(hit.score),
            "confidence": hit.confidence,
        });
        if let Some(explain) = &hit.explain {
            result["explain"] = serde_json::to_value(explain).unwrap_or_default();
        }
        if graph.has_file(entry.path())
            && let Some(excerpt) = excerpt(loaded, entry.path(), &terms)
        {
            result["excerpt"] = excerpt;
            droppables.push(Droppable::key(
                Part::Excerpts,
                format!("/results/{rank}"),
                "excerpt",
            ));
        }
        results.push(result);
    }
    // The last result's excerpt is the least important.
    droppables.reverse();
    let mut value = json!({"query": args.query, "results": results});
    stale_flag(&mut value, loaded);
    Ok(Answer {
        value,
        droppables,
        page: None,
    })
}

/// Scores to 4 decimals, as `search --json` prints them.
fn round(score: f64) -> f64 {
    (score * 1e4).round() / 1e4
}

/// The best passage of a file for the query terms (`doc_bridge_retrieve::snippet`, as `search`
/// shows it), numbered and redacted. `None` when unreadable, not text, or no line matches.
fn excerpt(loaded: &Loaded, path: &str, terms: &BTreeSet<String>) -> Option<Value> {
    let bytes = loaded
        .repo
        .root_dir
        .read_file(path, snippet::MAX_TEXT_BYTES as u64)
        .ok()??;
    let text = std::str::from_utf8(&bytes).ok()?;
    let passage = snippet::best_passage(text, terms, snippet::text_kind(path))?;
    let text: Vec<String> = passage
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| format!("{}: {}", passage.start_line + i, redact(line)))
        .collect();
    let mut value = json!({"startLine": passage.start_line, "text": text.join("\n")});
    if let Some(context) = &passage.context {
        value["context"] = json!(redact(context));
    }
    Some(value)
}

/// Resolves an id, name or path to one entity, or a failure naming the candidates.
fn resolve_target(loaded: &Loaded, graph: &Graph<'_>, target: &str) -> Result<EntityId, ToolError> {
    match resolve(graph, loaded.names(), target) {
        Resolution::Found(id) => Ok(id),
        Resolution::Ambiguous(ids) => {
            let names: Vec<String> = ids.iter().map(ToString::to_string).collect();
            Err(ToolError::Failed(format!(
                "`{target}` names {} entities; pick one: {}",
                ids.len(),
                names.join(", ")
            )))
        }
        Resolution::NotFound => {
            let closest = loaded.closest_matches(target);
            let hint = if closest.is_empty() {
                String::new()
            } else {
                format!("; closest matches: {}", closest.join(", "))
            };
            Err(ToolError::Failed(format!(
                "no entity named `{target}`{hint}"
            )))
        }
    }
}

fn check_text(name: &str, value: &str, max: usize) -> Result<(), ToolError> {
    if value.chars().count() > max {
        return Err(ToolError::Invalid(format!(
            "`{name}` is longer than {max} characters"
        )));
    }
    Ok(())
}

/// `lookup`: the entity, its neighbours by relation kind (up to `depth` hops), the documents that
/// cover it, its diagnostics and its evidence.
pub fn lookup_tool(state: &mut State, args: LookupArgs) -> Result<Answer, ToolError> {
    let target = match (&args.id, &args.path) {
        (Some(id), None) => id.clone(),
        (None, Some(path)) => path.clone(),
        _ => {
            return Err(ToolError::Invalid(
                "give exactly one of `id` or `path`".to_owned(),
            ));
        }
    };
    check_text("id", &target, MAX_PATH_BYTES)?;
    let depth = args.depth.unwrap_or(1);
    if !(1..=MAX_DEPTH).contains(&depth) {
        return Err(ToolError::Invalid(format!(
            "`depth` must be between 1 and {MAX_DEPTH}"
        )));
    }
    let limit = args.limit.unwrap_or(DEFAULT_NEIGHBOURS_PER_KIND);
    if !(1..=MAX_NEIGHBOURS_PER_KIND).contains(&limit) {
        return Err(ToolError::Invalid(format!(
            "`limit` must be between 1 and {MAX_NEIGHBOURS_PER_KIND}"
        )));
    }
    let start = parse_cursor(args.cursor.as_deref())?;
    let loaded = state.ready()?;
    let graph = loaded.graph();
    let id = resolve_target(loaded, &graph, &target)?;
    let entity = graph
        .entity(&id)
        .ok_or_else(|| ToolError::Failed(format!("entity `{id}` vanished from the snapshot")))?;
    // The snapshot's entity holds no text (that is `read_document`'s job): a lookup stays small.
    let mut entity_json = serde_json::to_value(entity).unwrap_or_default();
    // Summaries, headings and front matter quote the file: they pass redaction like any text.
    redact_strings(&mut entity_json);

    // Breadth-first over relations in both directions, grouped by kind; each entity listed once,
    // at the depth it was first reached.
    let mut seen: BTreeSet<EntityId> = BTreeSet::from([id.clone()]);
    let mut queue: VecDeque<(EntityId, u8)> = VecDeque::from([(id.clone(), 0)]);
    let mut neighbours: BTreeMap<&'static str, Vec<(u8, Value)>> = BTreeMap::new();
    while let Some((current, at)) = queue.pop_front() {
        if at >= depth {
            continue;
        }
        let (outbound, inbound) = (graph.outbound(&current), graph.inbound(&current));
        let outbound = outbound.iter().map(|r| ("out", *r, &r.to));
        let inbound = inbound.iter().map(|r| ("in", *r, &r.from));
        let mut step: Vec<(&str, &doc_bridge_model::snapshot::Relation, &EntityId)> =
            outbound.chain(inbound).collect();
        step.sort_by(|a, b| (a.2, a.1.kind, a.0).cmp(&(b.2, b.1.kind, b.0)));
        for (direction, relation, other) in step {
            if !seen.insert(other.clone()) {
                continue;
            }
            queue.push_back((other.clone(), at + 1));
            let list = neighbours.entry(relation.kind.as_str()).or_default();
            let mut item = json!({
                "id": other,
                "direction": direction,
                "depth": at + 1,
                "from": relation.from,
                "evidence": {"path": relation.evidence.path, "lines": relation.evidence.lines},
            });
            if let Some(via) = &relation.via {
                item["via"] = json!(via);
            }
            list.push((at + 1, item));
        }
    }
    let mut lists = Vec::new();
    let mut counts = serde_json::Map::new();
    let mut neighbours_json = serde_json::Map::new();
    for (kind, mut list) in neighbours {
        // Nearest first (stable: the walk's order inside a depth), so cutting from the end
        // drops the farthest.
        list.sort_by_key(|(d, _)| *d);
        lists.push((format!("/neighbours/{}", pointer_escape(kind)), list.len()));
        counts.insert(kind.to_owned(), json!(list.len()));
        let page: Vec<Value> = list
            .into_iter()
            .skip(start)
            .take(limit)
            .map(|(_, v)| v)
            .collect();
        neighbours_json.insert(kind.to_owned(), Value::Array(page));
    }

    let covering: BTreeSet<&EntityId> = graph
        .inbound(&id)
        .iter()
        .filter(|r| r.from.as_str().starts_with("document:"))
        .map(|r| &r.from)
        .collect();
    let path = entity.path();
    let diagnostics: Vec<Value> = loaded
        .diagnostics_about(&id, path)
        .iter()
        .map(|d| serde_json::to_value(d).unwrap_or_default())
        .collect();
    let mut value = json!({
        "id": id,
        "entity": entity_json,
        "coveringCount": covering.len(),
        "coveringDocuments": covering.iter().take(MAX_LOOKUP_LIST).collect::<Vec<_>>(),
        "diagnosticCount": diagnostics.len(),
        "diagnostics": diagnostics.into_iter().take(MAX_LOOKUP_LIST).collect::<Vec<_>>(),
        "evidence": {"path": path, "contentHash": entity.content_hash()},
        "neighbourCounts": counts,
        "neighbours": neighbours_json,
    });
    stale_flag(&mut value, loaded);
    Ok(Answer::paged(
        value,
        Part::Neighbours,
        Page { lists, start },
    ))
}

/// The position a client's `cursor` names (0 without one).
fn parse_cursor(cursor: Option<&str>) -> Result<usize, ToolError> {
    match cursor {
        None => Ok(0),
        Some(cursor) => Page::parse_cursor(cursor).ok_or_else(|| {
            ToolError::Invalid("`cursor` is not one this server gave (use `nextCursor`)".into())
        }),
    }
}

/// Redacts every string inside `value`.
fn redact_strings(value: &mut Value) {
    match value {
        Value::String(text) => *text = redact(text),
        Value::Array(items) => items.iter_mut().for_each(redact_strings),
        Value::Object(object) => object.values_mut().for_each(redact_strings),
        _ => {}
    }
}

fn pointer_escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// `handoff`: where to start for an entity (the handoff `query` prints), with related areas.
pub fn handoff_tool(state: &mut State, args: HandoffArgs) -> Result<Answer, ToolError> {
    check_text("id", &args.id, MAX_PATH_BYTES)?;
    if args.id.trim().is_empty() {
        return Err(ToolError::Invalid("`id` is empty".to_owned()));
    }
    let loaded = state.ready()?;
    let graph = loaded.graph();
    let id = resolve_target(loaded, &graph, &args.id)?;
    let agent_root = loaded.repo.agent_root();
    let handoff = entity_handoff(&graph, &loaded.repo.config, agent_root.as_ref(), &id)
        .ok_or_else(|| ToolError::Failed(format!("entity `{id}` vanished from the snapshot")))?;
    let mut value = serde_json::to_value(&handoff).unwrap_or_default();
    value["id"] = json!(id);
    stale_flag(&mut value, loaded);
    Ok(Answer {
        value,
        droppables: vec![Droppable::tail(Part::Related, "/related")],
        page: None,
    })
}

/// `read_document`: numbered, redacted lines of a file inside the repository that the index
/// inventoried.
pub fn read_document_tool(state: &mut State, args: ReadDocumentArgs) -> Result<Answer, ToolError> {
    check_text("path", &args.path, MAX_PATH_BYTES)?;
    let start = args.start_line.unwrap_or(1);
    if start == 0 {
        return Err(ToolError::Invalid("`startLine` is 1-based".to_owned()));
    }
    let count = args.line_count.unwrap_or(DEFAULT_LINE_COUNT);
    if count == 0 || count > MAX_LINE_COUNT {
        return Err(ToolError::Invalid(format!(
            "`lineCount` must be between 1 and {MAX_LINE_COUNT}"
        )));
    }
    let loaded = state.ready()?;
    let confined = confine(&loaded.repo.root, &args.path).map_err(ToolError::Failed)?;
    let graph = loaded.graph();
    if !graph.has_file(confined.rel.as_str()) {
        return Err(ToolError::Failed(format!(
            "`{}` is not in the index (ignored, excluded, too large, or added since the last `doc-bridge index`)",
            confined.rel
        )));
    }
    let read = crate::lines::read_lines(&loaded.repo, confined.rel.as_str(), start, count)
        .map_err(ToolError::Failed)?;
    let numbered: Vec<String> = read
        .lines
        .iter()
        .zip(read.first..)
        .map(|(line, n)| format!("{n}: {line}"))
        .collect();
    let mut value = json!({
        "path": read.path,
        "startLine": read.first,
        "endLine": read.last,
        "totalLines": read.total,
        "text": numbered.join("\n"),
    });
    stale_flag(&mut value, loaded);
    Ok(Answer::core(value))
}

/// `diagnostics`: the snapshot's diagnostics, and `check`'s report when one is present and valid,
/// filtered by path and lowest severity.
pub fn diagnostics_tool(state: &mut State, args: DiagnosticsArgs) -> Result<Answer, ToolError> {
    if let Some(path) = &args.path {
        check_text("path", path, MAX_PATH_BYTES)?;
    }
    let prefix = args
        .path
        .as_deref()
        .map(|p| p.trim().trim_start_matches("./").trim_end_matches('/'))
        .filter(|p| !p.is_empty())
        .map(str::to_owned);
    let lowest = match args.severity.unwrap_or(SeverityArg::Info) {
        SeverityArg::Info => Severity::Info,
        SeverityArg::Warning => Severity::Warning,
        SeverityArg::Error => Severity::Error,
    };
    let limit = args.limit.unwrap_or(DEFAULT_DIAGNOSTICS);
    if !(1..=MAX_DIAGNOSTICS).contains(&limit) {
        return Err(ToolError::Invalid(format!(
            "`limit` must be between 1 and {MAX_DIAGNOSTICS}"
        )));
    }
    let start = parse_cursor(args.cursor.as_deref())?;
    let loaded = state.ready()?;
    let under = |path: &str| {
        prefix
            .as_deref()
            .is_none_or(|p| path == p || path.starts_with(&format!("{p}/")))
    };
    // One row per diagnostic: the index's, then the check report's that the index does not
    // already hold (`check` repeats the discovery diagnostics), keyed by what a reader sees.
    let key = |v: &Value| {
        (
            v["path"].as_str().unwrap_or("").to_owned(),
            v["line"].as_u64().unwrap_or(0),
            v["code"].as_str().unwrap_or("").to_owned(),
            v["message"].as_str().unwrap_or("").to_owned(),
        )
    };
    let mut rows: BTreeMap<(String, u64, String, String), Value> = BTreeMap::new();
    for d in loaded.diagnostics().iter() {
        if d.severity >= lowest && under(d.path.as_str()) {
            let mut v = serde_json::to_value(d).unwrap_or_default();
            v["source"] = json!("index");
            rows.entry(key(&v)).or_insert(v);
        }
    }
    let report = check_report(loaded);
    for d in report.iter().flatten() {
        let severity = d.get("severity").and_then(Value::as_str).unwrap_or("info");
        let rank = match severity {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            _ => Severity::Info,
        };
        let path = d.get("path").and_then(Value::as_str).unwrap_or("");
        if rank >= lowest && under(path) {
            match rows.entry(key(d)) {
                std::collections::btree_map::Entry::Occupied(mut seen) => {
                    seen.get_mut()["source"] = json!("both");
                }
                std::collections::btree_map::Entry::Vacant(slot) => {
                    let mut v = d.clone();
                    v["source"] = json!("check");
                    slot.insert(v);
                }
            }
        }
    }
    let total = rows.len();
    let page: Vec<Value> = rows.into_values().skip(start).take(limit).collect();
    let mut value = json!({
        "count": total,
        "diagnostics": page,
        "checkReport": report.is_some(),
    });
    stale_flag(&mut value, loaded);
    Ok(Answer::paged(
        value,
        Part::Items,
        Page {
            lists: vec![("/diagnostics".to_owned(), total)],
            start,
        },
    ))
}

/// The diagnostics of `.doc-bridge/report.json`, when `check` wrote one that parses; else `None`
/// (an absent or unreadable report is ignored, never trusted in part).
fn check_report(loaded: &Loaded) -> Option<Vec<Value>> {
    let bytes = std::fs::read(loaded.repo.artifact("report.json")).ok()?;
    let report: Value = serde_json::from_slice(&bytes).ok()?;
    let list = report.get("diagnostics")?.as_array()?;
    list.iter()
        .map(|d| d.is_object().then(|| d.clone()))
        .collect()
}

/// `proposals`: the overlay's entries, or a person's decision on a pending proposal through the
/// same function as `enrich approve|reject`.
pub fn proposals_tool(state: &mut State, args: ProposalsArgs) -> Result<Answer, ToolError> {
    for (name, value) in [
        ("proposalId", &args.proposal_id),
        ("by", &args.by),
        ("reason", &args.reason),
    ] {
        if let Some(value) = value {
            check_text(name, value, MAX_TEXT_CHARS)?;
        }
    }
    let repo = state.repo()?;
    if args.action == ProposalAction::List {
        return list_proposals(&repo).map(Answer::core);
    }
    let approve = args.action == ProposalAction::Approve;
    let proposal_id = args
        .proposal_id
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .ok_or_else(|| ToolError::Invalid("`proposalId` is required to decide".to_owned()))?;
    // Who may decide is the one decision function's rule (no agent, no `policy`, no author).
    let by = args.by.as_deref().unwrap_or("");
    let outcome = crate::commands::approve::decide_proposal(
        &repo,
        proposal_id,
        by,
        args.reason.clone(),
        approve,
    )?;
    // The decision re-derived the index; the next call must read it again.
    state.invalidate();
    Ok(Answer::core(outcome.to_json()))
}

fn list_proposals(repo: &crate::repo::Repo) -> Result<Value, ToolError> {
    let overlay = match load_overlay(repo) {
        OverlayState::Missing => return Ok(json!({"overlayHash": null, "entries": []})),
        OverlayState::Valid(overlay) => *overlay,
        OverlayState::Invalid(why) => {
            return Err(ToolError::Failed(format!(
                "the overlay at .doc-bridge/enrich/overlay.json is invalid ({why}); run `doc-bridge enrich` to rebuild it after moving it aside"
            )));
        }
    };
    let mut rows: Vec<Value> = Vec::new();
    rows.extend(overlay.accepted.iter().map(|e| json!({"state": "accepted", "proposalId": e.proposal.proposal_id, "kind": e.proposal.kind().as_str(), "entity": e.proposal.entity, "agentId": e.proposal.origin.agent_id, "acceptedBy": e.accepted_by})));
    rows.extend(overlay.pending.iter().map(|e| json!({"state": "pending", "proposalId": e.proposal.proposal_id, "kind": e.proposal.kind().as_str(), "entity": e.proposal.entity, "agentId": e.proposal.origin.agent_id, "reason": redact(&e.proposal.reason), "note": e.note})));
    rows.extend(overlay.rejected.iter().map(|e| json!({"state": "rejected", "proposalId": e.proposal_id, "kind": e.kind, "entity": e.entity, "reason": e.reason.as_str(), "detail": e.detail})));
    Ok(json!({"overlayHash": overlay.content_hash, "entries": rows}))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn strings_at_any_depth_are_redacted() {
        let mut value = json!({"summary": "key AKIAABCDEFGHIJKLMNOP", "list": [{"x": "AKIAABCDEFGHIJKLMNOP"}], "n": 1});
        redact_strings(&mut value);
        assert!(
            !value.to_string().contains("AKIAABCDEFGHIJKLMNOP"),
            "{value}"
        );
        assert_eq!(value["n"], 1);
    }
}
