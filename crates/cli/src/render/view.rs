//! The view model: everything the template shows, gathered from the artifacts into plain
//! strings and lists, sorted and bounded. The template only loops and prints (and escapes).

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_model::EntityId;
use doc_bridge_model::approval::ApprovalRecord;
use doc_bridge_model::enrichment::{EnrichmentOverlayV1, ProposalPayload};
use doc_bridge_model::index::DocBridgeIndexV1;
use doc_bridge_model::snapshot::{Entity, Severity, Snapshot};

use super::graph::{self, Svg};
use super::report::{CheckReport, ReportDiagnostic};
use crate::commands::approve::acceptance_rows;

/// Most modules listed per area.
pub const MAX_MODULES_PER_AREA: usize = 60;
/// Most documents listed.
pub const MAX_DOCUMENTS: usize = 500;
/// Most diagnostics listed.
pub const MAX_DIAGNOSTICS: usize = 500;
/// Most pending proposals listed.
pub const MAX_PENDING: usize = 300;
/// Most symbols named per module.
const MAX_SYMBOLS: usize = 12;

/// What the page is built from. Nothing here is read from disk by the view.
pub struct Inputs<'a> {
    /// The verified index.
    pub index: &'a DocBridgeIndexV1,
    /// The snapshot it was built from.
    pub snapshot: &'a Snapshot,
    /// Set when the index is stale: a short summary of what changed.
    pub stale: Option<String>,
    /// The overlay, when valid.
    pub overlay: Option<&'a EnrichmentOverlayV1>,
    /// Why the overlay was not used, when it exists but is invalid.
    pub overlay_problem: Option<String>,
    /// The approval records.
    pub approvals: &'a [ApprovalRecord],
    /// `check`'s report.
    pub report: CheckReport,
    /// The configuration (which agent plays which role).
    pub config: &'a doc_bridge_model::config::Config,
}

/// A link to an entity card.
#[derive(Debug, Clone)]
pub struct Link {
    /// `#` target.
    pub anchor: String,
    /// Text.
    pub label: String,
}

/// A count on the overview.
#[derive(Debug, Clone)]
pub struct Count {
    /// What.
    pub label: &'static str,
    /// How many.
    pub value: usize,
}

/// A package card.
#[derive(Debug, Clone)]
pub struct PackageView {
    /// Anchor.
    pub anchor: String,
    /// Name.
    pub name: String,
    /// Ecosystem and version.
    pub detail: String,
    /// Root directory.
    pub path: String,
    /// Manifest file.
    pub manifest: String,
    /// Areas inside.
    pub areas: Vec<Link>,
    /// Workspace dependencies (depends-on targets).
    pub depends_on: Vec<Link>,
}

/// An area card.
#[derive(Debug, Clone)]
pub struct AreaView {
    /// Anchor.
    pub anchor: String,
    /// Directory.
    pub path: String,
    /// The package holding it.
    pub package: Option<Link>,
    /// Modules (bounded).
    pub modules: Vec<ModuleView>,
    /// Modules not listed.
    pub more_modules: usize,
    /// Documents that link to, mention or cover it or its modules.
    pub documents: Vec<Link>,
}

/// A module row.
#[derive(Debug, Clone)]
pub struct ModuleView {
    /// File.
    pub path: String,
    /// Language.
    pub language: String,
    /// Exported symbols, bounded, comma-separated.
    pub symbols: String,
}

/// A document row.
#[derive(Debug, Clone)]
pub struct DocumentView {
    /// Anchor.
    pub anchor: String,
    /// Title.
    pub title: String,
    /// File.
    pub path: String,
    /// One-line summary.
    pub summary: String,
    /// Curated agent document.
    pub agent_doc: bool,
    /// What it links to, mentions or covers (areas, packages, documents).
    pub refers_to: Vec<Link>,
}

/// A diagnostic row.
#[derive(Debug, Clone)]
pub struct DiagnosticView {
    /// `error`, `warning` or `info`.
    pub severity: &'static str,
    /// Code.
    pub code: String,
    /// `path:line`.
    pub location: String,
    /// Message.
    pub message: String,
    /// `index` (the snapshot) or `check` (report.json).
    pub source: &'static str,
}

/// A pending proposal on the review page.
#[derive(Debug, Clone)]
pub struct PendingView {
    /// Proposal id.
    pub id: String,
    /// Kind.
    pub kind: String,
    /// Target entity id.
    pub entity: String,
    /// Its card, when it has one.
    pub entity_anchor: Option<String>,
    /// Agent id and version.
    pub agent: String,
    /// Confidence, two decimals.
    pub confidence: String,
    /// The agent's reason.
    pub reason: String,
    /// Why it waits.
    pub note: String,
    /// The payload as pretty JSON.
    pub payload: String,
    /// Evidence items (`path lines a–b (source)`).
    pub evidence: Vec<String>,
    /// The approve command.
    pub approve: String,
    /// The reject command.
    pub reject: String,
}

/// A row of acceptance per agent and kind.
#[derive(Debug, Clone)]
pub struct AcceptanceView {
    /// Agent.
    pub agent: String,
    /// The role it played.
    pub role: String,
    /// Kind.
    pub kind: String,
    /// Accepted by policy.
    pub by_policy: u64,
    /// Accepted by people.
    pub by_person: u64,
    /// Pending.
    pub pending: u64,
    /// Rejected by people.
    pub rejected: u64,
    /// Acceptance rate.
    pub rate: String,
}

/// The whole page.
#[derive(Debug, Clone)]
pub struct Page {
    /// Project name.
    pub project: String,
    /// Index content hash.
    pub index_hash: String,
    /// Snapshot content hash.
    pub snapshot_hash: String,
    /// The index's `generatedAt` (the only date on the page).
    pub generated_at: String,
    /// Set when the index is stale.
    pub stale: Option<String>,
    /// Things the reader should know (invalid overlay, ignored report, caps).
    pub notices: Vec<String>,
    /// Overview counts.
    pub counts: Vec<Count>,
    /// Packages.
    pub packages: Vec<PackageView>,
    /// Areas.
    pub areas: Vec<AreaView>,
    /// Documents.
    pub documents: Vec<DocumentView>,
    /// The graph.
    pub graph: Svg,
    /// Diagnostics.
    pub diagnostics: Vec<DiagnosticView>,
    /// Diagnostics by severity, for the summary line.
    pub diagnostic_counts: String,
    /// All diagnostics, listed or not (the list stops at [`MAX_DIAGNOSTICS`]).
    pub diagnostic_total: usize,
    /// Pending proposals.
    pub pending: Vec<PendingView>,
    /// Pending proposals in all.
    pub pending_total: usize,
    /// Acceptance per agent and kind.
    pub acceptance: Vec<AcceptanceView>,
    /// Validator rejections by reason.
    pub rejection_reasons: Vec<(String, u64)>,
    /// Whether an overlay was read.
    pub has_overlay: bool,
}

/// Builds the page.
pub fn build(inputs: &Inputs<'_>) -> Page {
    let snapshot = inputs.snapshot;
    let anchors: BTreeMap<&EntityId, String> = snapshot
        .entities
        .iter()
        .filter(|e| !matches!(e, Entity::Module(_)))
        .enumerate()
        .map(|(i, e)| (e.id(), format!("e{i}")))
        .collect();
    let anchor = |id: &EntityId| anchors.get(id).cloned().unwrap_or_default();
    let link = |id: &EntityId| {
        let label = snapshot
            .entities
            .binary_search_by(|e| e.id().cmp(id))
            .ok()
            .map(|i| match &snapshot.entities[i] {
                Entity::Area(a) if a.path.is_root() => "(root)".to_owned(),
                Entity::Area(a) => a.path.to_string(),
                other => other.name().to_owned(),
            })
            .unwrap_or_else(|| id.to_string());
        Link {
            anchor: anchor(id),
            label,
        }
    };

    let proposed = accepted_relations(inputs);
    let edges = graph::fold_edges(snapshot, &proposed);
    let graph = graph::layout(snapshot, &edges, &anchor);
    let mut notices = Vec::new();
    if let Some(problem) = &inputs.overlay_problem {
        notices.push(problem.clone());
    }
    if let CheckReport::Ignored(why) = &inputs.report {
        notices.push(why.clone());
    }
    notices.extend(graph.omitted.iter().cloned());

    // Folded edges tell which documents refer to which areas/packages/documents.
    let mut refers: BTreeMap<&EntityId, BTreeSet<&EntityId>> = BTreeMap::new();
    let mut referred_by: BTreeMap<&EntityId, BTreeSet<&EntityId>> = BTreeMap::new();
    let mut depends: BTreeMap<&EntityId, BTreeSet<&EntityId>> = BTreeMap::new();
    let mut package_areas: BTreeMap<&EntityId, BTreeSet<&EntityId>> = BTreeMap::new();
    for edge in &edges {
        if edge.from.as_str().starts_with("document:") && edge.kind != "contains" {
            refers.entry(&edge.from).or_default().insert(&edge.to);
            referred_by.entry(&edge.to).or_default().insert(&edge.from);
        }
        if edge.kind == "depends-on" && edge.from.as_str().starts_with("package:") {
            depends.entry(&edge.from).or_default().insert(&edge.to);
        }
    }
    for entity in &snapshot.entities {
        if let Entity::Area(a) = entity
            && let Some(package) = &a.package_id
        {
            package_areas.entry(package).or_default().insert(&a.id);
        }
    }
    let links = |set: Option<&BTreeSet<&EntityId>>| -> Vec<Link> {
        set.into_iter().flatten().map(|id| link(id)).collect()
    };

    let mut modules_by_area: BTreeMap<&EntityId, Vec<ModuleView>> = BTreeMap::new();
    let area_of: BTreeMap<&EntityId, &EntityId> = snapshot
        .relations
        .iter()
        .filter(|r| r.from.as_str().starts_with("area:") && r.to.as_str().starts_with("module:"))
        .map(|r| (&r.to, &r.from))
        .collect();
    let mut packages = Vec::new();
    let mut documents = Vec::new();
    let mut document_total = 0;
    for entity in &snapshot.entities {
        match entity {
            Entity::Module(m) => {
                if let Some(area) = area_of.get(&m.id) {
                    let names: Vec<&str> = m.symbols.iter().map(|s| s.name.as_str()).collect();
                    let mut symbols = names
                        .iter()
                        .take(MAX_SYMBOLS)
                        .copied()
                        .collect::<Vec<_>>()
                        .join(", ");
                    if names.len() > MAX_SYMBOLS {
                        symbols.push_str(&format!(", … ({} in all)", names.len()));
                    }
                    modules_by_area.entry(area).or_default().push(ModuleView {
                        path: m.path.to_string(),
                        language: m.language.clone(),
                        symbols,
                    });
                }
            }
            Entity::Package(p) => packages.push(PackageView {
                anchor: anchor(&p.id),
                name: p.name.clone(),
                detail: match &p.version {
                    Some(v) => format!("{:?} {v}", p.ecosystem).to_lowercase(),
                    None => format!("{:?}", p.ecosystem).to_lowercase(),
                },
                path: p.path.to_string(),
                manifest: p.manifest.to_string(),
                areas: links(package_areas.get(&p.id)),
                depends_on: links(depends.get(&p.id)),
            }),
            Entity::Document(d) => {
                document_total += 1;
                if documents.len() < MAX_DOCUMENTS {
                    documents.push(DocumentView {
                        anchor: anchor(&d.id),
                        title: d.title.clone(),
                        path: d.path.to_string(),
                        summary: d.summary.split_whitespace().collect::<Vec<_>>().join(" "),
                        agent_doc: d.agent_doc,
                        refers_to: links(refers.get(&d.id)),
                    });
                }
            }
            Entity::Area(_) | Entity::File(_) => {}
        }
    }
    if document_total > MAX_DOCUMENTS {
        notices.push(format!(
            "The document list shows the first {MAX_DOCUMENTS} of {document_total} documents by path."
        ));
    }
    let areas = snapshot
        .entities
        .iter()
        .filter_map(|e| match e {
            Entity::Area(a) => Some(a),
            _ => None,
        })
        .map(|a| {
            let mut modules = modules_by_area.remove(&a.id).unwrap_or_default();
            let more_modules = modules.len().saturating_sub(MAX_MODULES_PER_AREA);
            modules.truncate(MAX_MODULES_PER_AREA);
            AreaView {
                anchor: anchor(&a.id),
                path: if a.path.is_root() {
                    "(root)".to_owned()
                } else {
                    a.path.to_string()
                },
                package: a.package_id.as_ref().map(&link),
                modules,
                more_modules,
                documents: links(referred_by.get(&a.id)),
            }
        })
        .collect();

    let (diagnostics, diagnostic_counts, diagnostic_total) =
        diagnostics(snapshot, &inputs.report, &mut notices);
    let (pending, pending_total) = pending(inputs, &anchor);
    if pending_total > pending.len() {
        notices.push(format!(
            "The review page lists the first {} of {pending_total} pending proposals by id.",
            pending.len()
        ));
    }
    let acceptance = acceptance_rows(inputs.config, inputs.overlay, inputs.approvals)
        .into_iter()
        .map(|row| AcceptanceView {
            rate: row.percent(),
            agent: row.agent,
            role: row.role,
            kind: row.kind,
            by_policy: row.by_policy,
            by_person: row.by_person,
            pending: row.pending,
            rejected: row.rejected_by_person,
        })
        .collect();

    let count = |kind: &str| {
        snapshot
            .entities
            .iter()
            .filter(|e| e.kind().as_str() == kind)
            .count()
    };
    Page {
        project: inputs.index.project.name.clone(),
        index_hash: inputs.index.content_hash.to_string(),
        snapshot_hash: snapshot.content_hash.to_string(),
        generated_at: inputs.index.generated_at.clone(),
        stale: inputs.stale.clone(),
        notices,
        counts: vec![
            Count {
                label: "files",
                value: snapshot.files.len(),
            },
            Count {
                label: "documents",
                value: count("document"),
            },
            Count {
                label: "modules",
                value: count("module"),
            },
            Count {
                label: "areas",
                value: count("area"),
            },
            Count {
                label: "packages",
                value: count("package"),
            },
            Count {
                label: "relations",
                value: snapshot.relations.len(),
            },
            Count {
                label: "diagnostics",
                value: diagnostic_total,
            },
            Count {
                label: "pending proposals",
                value: pending_total,
            },
        ],
        packages,
        areas,
        documents,
        graph,
        diagnostics,
        diagnostic_counts,
        diagnostic_total,
        pending,
        pending_total,
        acceptance,
        rejection_reasons: inputs
            .overlay
            .map(|o| {
                o.stats
                    .rejection_reasons
                    .iter()
                    .map(|(r, n)| (r.clone(), *n))
                    .collect()
            })
            .unwrap_or_default(),
        has_overlay: inputs.overlay.is_some(),
    }
}

/// The live accepted `propose-relation` entries, as (from, to, kind).
fn accepted_relations(inputs: &Inputs<'_>) -> Vec<(EntityId, EntityId, String)> {
    let Some(overlay) = inputs.overlay else {
        return Vec::new();
    };
    let (live, _) = doc_bridge_retrieve::overlay::expire(overlay, inputs.snapshot);
    live.iter()
        .filter_map(|entry| match &entry.proposal.payload {
            ProposalPayload::ProposeRelation(p) => {
                Some((p.from.clone(), p.to.clone(), p.kind.as_str().to_owned()))
            }
            _ => None,
        })
        .collect()
}

fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// A diagnostic from either source, before display.
struct Row {
    severity: Severity,
    path: String,
    line: Option<u32>,
    code: String,
    message: String,
    source: &'static str,
}

/// The snapshot's diagnostics and those of a valid `report.json` (which repeats the snapshot's;
/// shown once), most severe first, then by path, line and code.
fn diagnostics(
    snapshot: &Snapshot,
    report: &CheckReport,
    notices: &mut Vec<String>,
) -> (Vec<DiagnosticView>, String, usize) {
    let from_report: &[ReportDiagnostic] = match report {
        CheckReport::Diagnostics(list) => list,
        _ => &[],
    };
    let key = |code: &str, path: &str, line: Option<u32>, message: &str| {
        (code.to_owned(), path.to_owned(), line, message.to_owned())
    };
    let reported: BTreeSet<_> = from_report
        .iter()
        .map(|d| key(&d.code, &d.path, d.line, &d.message))
        .collect();
    let reported_ids: BTreeSet<&str> = from_report.iter().filter_map(|d| d.id.as_deref()).collect();
    let mut rows: Vec<Row> = from_report
        .iter()
        .map(|d| Row {
            severity: d.severity,
            path: d.path.clone(),
            line: d.line,
            code: d.code.clone(),
            message: d.message.clone(),
            source: "check",
        })
        .collect();
    for d in &snapshot.diagnostics {
        if reported_ids.contains(d.id.as_str())
            || reported.contains(&key(&d.code, d.path.as_str(), d.line, &d.message))
        {
            continue;
        }
        rows.push(Row {
            severity: d.severity,
            path: d.path.to_string(),
            line: d.line,
            code: d.code.clone(),
            message: d.message.clone(),
            source: "index",
        });
    }
    rows.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.path.cmp(&b.path))
            .then_with(|| a.line.cmp(&b.line))
            .then_with(|| a.code.cmp(&b.code))
            .then_with(|| a.message.cmp(&b.message))
    });
    let mut by_severity: BTreeMap<std::cmp::Reverse<Severity>, usize> = BTreeMap::new();
    for row in &rows {
        *by_severity
            .entry(std::cmp::Reverse(row.severity))
            .or_default() += 1;
    }
    let summary = by_severity
        .iter()
        .map(|(s, n)| format!("{n} {}", severity_name(s.0)))
        .collect::<Vec<_>>()
        .join(", ");
    let total = rows.len();
    if rows.len() > MAX_DIAGNOSTICS {
        notices.push(format!(
            "The diagnostics list shows the first {MAX_DIAGNOSTICS} of {}.",
            rows.len()
        ));
        rows.truncate(MAX_DIAGNOSTICS);
    }
    let views = rows
        .into_iter()
        .map(|row| DiagnosticView {
            severity: severity_name(row.severity),
            location: match row.line {
                Some(line) => format!("{}:{line}", row.path),
                None => row.path,
            },
            code: row.code,
            message: row.message,
            source: row.source,
        })
        .collect();
    (views, summary, total)
}

/// The pending proposals, by id, bounded; and how many there are.
fn pending(inputs: &Inputs<'_>, anchor: &dyn Fn(&EntityId) -> String) -> (Vec<PendingView>, usize) {
    let Some(overlay) = inputs.overlay else {
        return (Vec::new(), 0);
    };
    let mut entries: Vec<_> = overlay.pending.iter().collect();
    entries.sort_by(|a, b| a.proposal.proposal_id.cmp(&b.proposal.proposal_id));
    let total = entries.len();
    let views = entries
        .into_iter()
        .take(MAX_PENDING)
        .map(|entry| {
            let p = &entry.proposal;
            let payload = serde_json::to_value(&p.payload)
                .ok()
                .and_then(|v| v.get("payload").cloned())
                .and_then(|v| serde_json::to_string_pretty(&v).ok())
                .unwrap_or_default();
            let entity_anchor = Some(anchor(&p.entity)).filter(|a| !a.is_empty());
            PendingView {
                id: p.proposal_id.clone(),
                kind: p.kind().as_str().to_owned(),
                entity: p.entity.to_string(),
                entity_anchor,
                agent: format!("{} {}", p.origin.agent_id, p.origin.agent_version),
                confidence: format!("{:.2}", p.confidence),
                reason: p.reason.clone(),
                note: entry.note.clone(),
                payload,
                evidence: p
                    .evidence
                    .iter()
                    .map(|e| {
                        let source = match e.source {
                            doc_bridge_model::enrichment::EvidenceSource::Snapshot => "snapshot",
                            doc_bridge_model::enrichment::EvidenceSource::Report => "report",
                        };
                        format!("{} lines {}–{} ({source})", e.path, e.lines[0], e.lines[1])
                    })
                    .collect(),
                approve: format!("doc-bridge enrich approve {} --by <name>", p.proposal_id),
                reject: format!(
                    "doc-bridge enrich reject {} --by <name> --reason \"…\"",
                    p.proposal_id
                ),
            }
        })
        .collect();
    (views, total)
}
