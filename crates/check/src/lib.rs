//! `doc-bridge check`: rules over a snapshot and the state of the stored index, the check report
//! (`CheckReportV1`), and its text and SARIF forms.
//!
//! Architecture invariant: pure functions. Nothing here reads the disk or the clock, and nothing
//! depends on the enrich or agent crates (`crates/cli/tests/boundaries.rs`): a check never calls
//! an agent. The CLI observes the repository, computes the index state, and hands both in.

mod coverage;
mod cycles;
mod graph;
mod index_rules;
mod orphans;
mod roles;

pub use roles::drop_exempt;
pub mod sarif;
mod severity;
pub mod text;

use std::collections::BTreeMap;

use doc_bridge_model::hash::semantic_hash;
use doc_bridge_model::report::{
    CheckReportV1, EnrichmentStatus, IndexStatus, REPORT_HASH_EXCLUDED, REPORT_SCHEMA_VERSION,
    REPORT_TYPE, RuleLevel, SeverityCounts,
};
use doc_bridge_model::snapshot::{Diagnostic, Severity, Snapshot};
use doc_bridge_model::{ContentHash, RelPath, SEMANTIC_HASH_ALGO};

pub use cycles::{MAX_CYCLES, Tangle, area_cycles, tangles};
pub use orphans::is_entry_document;

/// The state of the stored index, as the CLI found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndexCondition {
    /// Built from exactly the current inputs.
    Fresh {
        /// The index's `contentHash`.
        hash: ContentHash,
    },
    /// Inputs changed since it was built.
    Stale {
        /// The index's `contentHash`.
        hash: ContentHash,
        /// What changed, for people (`2 file(s) changed since it was built (a.md, +b.md)`).
        summary: String,
    },
    /// No index file.
    Missing,
    /// Unreadable, malformed or mis-sealed.
    Invalid {
        /// Why, for people.
        reason: String,
    },
}

impl IndexCondition {
    /// The report's `indexStatus`.
    pub fn status(&self) -> IndexStatus {
        match self {
            IndexCondition::Fresh { .. } => IndexStatus::Fresh,
            IndexCondition::Stale { .. } => IndexStatus::Stale,
            IndexCondition::Missing => IndexStatus::Missing,
            IndexCondition::Invalid { .. } => IndexStatus::Invalid,
        }
    }

    /// The index's `contentHash`, when it was readable and verified.
    pub fn hash(&self) -> Option<&ContentHash> {
        match self {
            IndexCondition::Fresh { hash } | IndexCondition::Stale { hash, .. } => Some(hash),
            IndexCondition::Missing | IndexCondition::Invalid { .. } => None,
        }
    }
}

/// Everything the rules look at.
#[derive(Debug, Clone, Copy)]
pub struct CheckInput<'a> {
    /// The snapshot observed for this check.
    pub snapshot: &'a Snapshot,
    /// The stored index compared with the repository.
    pub index: &'a IndexCondition,
    /// Where the index lives, repository-relative (the location of index diagnostics).
    pub index_path: &'a RelPath,
    /// Configured levels by code (`rules` in the config).
    pub rules: &'a BTreeMap<String, RuleLevel>,
}

/// Every diagnostic of a check: the snapshot's own plus the rules', without the content findings
/// on tests, fixtures, examples and generated files ([`roles`]), with the configured severity
/// applied (`off` codes dropped), sorted by (path, line, code, message, id), duplicates removed,
/// bounded per file and code and per code ([`doc_bridge_model::cap_diagnostics`]).
pub fn diagnostics(input: &CheckInput<'_>) -> Vec<Diagnostic> {
    let graph = graph::Graph::new(input.snapshot);
    // The rules' own diagnostics are bounded like discovery's (the snapshot's are already).
    let mut rules: Vec<Diagnostic> = index_rules::diagnostics(input.index, input.index_path);
    rules.extend(orphans::diagnostics(input.snapshot, &graph));
    rules.extend(coverage::diagnostics(input.snapshot, &graph));
    rules.extend(cycles::diagnostics(&graph));
    sort_and_dedup(&mut rules);
    let mut all: Vec<Diagnostic> = input.snapshot.diagnostics.clone();
    all.extend(doc_bridge_model::cap_diagnostics(
        rules,
        doc_bridge_model::MAX_DIAGNOSTICS_PER_FILE_AND_CODE,
        doc_bridge_model::MAX_DIAGNOSTICS_PER_CODE,
    ));
    let all = roles::drop_exempt(input.snapshot, all);
    let mut all = severity::apply(all, input.rules);
    sort_and_dedup(&mut all);
    all
}

fn sort_and_dedup(list: &mut Vec<Diagnostic>) {
    list.sort_by(|a, b| {
        a.sort_key()
            .cmp(&b.sort_key())
            .then_with(|| a.id.cmp(&b.id))
    });
    list.dedup();
}

/// Builds the sealed report. `generated_at` is the caller's clock reading (kept by the caller
/// from the previous report when the hash did not move); `enrichment` is set with `--enrich`
/// and never influences anything else.
pub fn report(
    input: &CheckInput<'_>,
    generated_at: String,
    enrichment: Option<EnrichmentStatus>,
) -> CheckReportV1 {
    let diagnostics = diagnostics(input);
    let mut report = CheckReportV1 {
        artifact_type: REPORT_TYPE.to_owned(),
        schema_version: REPORT_SCHEMA_VERSION,
        content_hash: ContentHash::of_bytes(b""),
        content_hash_algo: SEMANTIC_HASH_ALGO.to_owned(),
        generated_at,
        project: input.snapshot.project.clone(),
        snapshot_hash: input.snapshot.content_hash.clone(),
        index_status: input.index.status(),
        index_hash: input.index.hash().cloned(),
        counts: SeverityCounts::of(&diagnostics),
        diagnostics,
        enrichment,
    };
    seal(&mut report);
    report
}

/// Recomputes a report's `contentHash` (after a change to a field inside the hash).
pub fn seal(report: &mut CheckReportV1) {
    if let Ok(hash) = semantic_hash(report, REPORT_HASH_EXCLUDED) {
        report.content_hash = hash;
    }
}

/// Whether a report's `contentHash` matches its content.
pub fn seal_matches(report: &CheckReportV1) -> bool {
    semantic_hash(report, REPORT_HASH_EXCLUDED).is_ok_and(|hash| hash == report.content_hash)
}

/// The report of the findings at least as severe as `min`, sealed anew (its `counts` are of
/// what it lists), and the counts of the findings left out.
pub fn at_least(report: &CheckReportV1, min: Severity) -> (CheckReportV1, SeverityCounts) {
    if min == Severity::Info {
        return (report.clone(), SeverityCounts::default());
    }
    let (kept, left_out): (Vec<Diagnostic>, Vec<Diagnostic>) = report
        .diagnostics
        .iter()
        .cloned()
        .partition(|d| d.severity >= min);
    let mut shown = CheckReportV1 {
        counts: SeverityCounts::of(&kept),
        diagnostics: kept,
        ..report.clone()
    };
    seal(&mut shown);
    (shown, SeverityCounts::of(&left_out))
}

/// Whether the report fails a check: any error, or any warning with `strict`.
pub fn fails(report: &CheckReportV1, strict: bool) -> bool {
    report.counts.error > 0 || (strict && report.counts.warning > 0)
}

/// The severity a code is reported with: the configured level, else the catalog default, else
/// (a code this build does not know) the severity the diagnostic came with.
pub fn effective_level(
    code: &str,
    found: Severity,
    rules: &BTreeMap<String, RuleLevel>,
) -> Option<Severity> {
    severity::level(code, found, rules)
}

/// Hand-made snapshots for the rule tests.
#[cfg(test)]
#[allow(clippy::unwrap_used)]
pub(crate) mod tests {
    use std::collections::BTreeMap;

    use doc_bridge_model::snapshot::{
        Area, Document, Ecosystem, Entity, Evidence, Import, ImportResolution, Module, Package,
        Project, Provenance, Relation, RelationKind, SNAPSHOT_SCHEMA_VERSION, SNAPSHOT_TYPE,
        Snapshot, SnapshotStats, TitleSource,
    };
    use doc_bridge_model::{ContentHash, EntityId, RelPath, SEMANTIC_HASH_ALGO};

    fn p(path: &str) -> RelPath {
        RelPath::new(path).unwrap()
    }

    pub fn document(path: &str) -> Entity {
        Entity::Document(Document {
            id: EntityId::document(&p(path)),
            path: p(path),
            content_hash: ContentHash::of_bytes(path.as_bytes()),
            title: path.to_owned(),
            title_source: TitleSource::FileStem,
            excluded_from_site: false,
            named_by: Vec::new(),
            headings: Vec::new(),
            summary: String::new(),
            tags: Vec::new(),
            audience: Vec::new(),
            owner: None,
            checks: Vec::new(),
            covers: Vec::new(),
            language: None,
            language_source: None,
            agent_doc: false,
            front_matter: BTreeMap::new(),
            line_count: 1,
            mentions: Vec::new(),
        })
    }

    pub fn module(path: &str) -> Entity {
        Entity::Module(Module {
            id: EntityId::module(&p(path)),
            path: p(path),
            content_hash: ContentHash::of_bytes(path.as_bytes()),
            language: "typescript".to_owned(),
            symbols: Vec::new(),
            imports: Vec::new(),
            line_count: 10,
            members: Vec::new(),
        })
    }

    /// A module whose imports (target path, line, kind) resolved to the given modules.
    pub fn module_importing(path: &str, imports: &[(&str, u32, &str)]) -> Entity {
        let mut entity = module(path);
        if let Entity::Module(m) = &mut entity {
            m.imports = imports
                .iter()
                .map(|(target, line, kind)| Import {
                    specifier: (*target).to_owned(),
                    kind: (*kind).to_owned(),
                    names: Vec::new(),
                    line: *line,
                    resolution: ImportResolution::Internal,
                    targets: vec![EntityId::module(&p(target))],
                })
                .collect();
        }
        entity
    }

    pub fn area(path: &str) -> Entity {
        Entity::Area(Area {
            id: EntityId::area(&p(path)),
            path: p(path),
            content_hash: ContentHash::of_bytes(path.as_bytes()),
            title: path.to_owned(),
            package_id: None,
            module_count: 1,
        })
    }

    pub fn package(name: &str, path: &str) -> Entity {
        Entity::Package(Package {
            readme: None,
            id: EntityId::package(name),
            path: p(path),
            content_hash: ContentHash::of_bytes(name.as_bytes()),
            name: name.to_owned(),
            ecosystem: Ecosystem::Npm,
            manifest: p(&format!("{path}/package.json")),
            version: None,
            scripts: BTreeMap::new(),
            workspaces: Vec::new(),
            dependencies: Vec::new(),
            package_manager: "npm".to_owned(),
        })
    }

    fn relation(from: &str, to: &str, kind: RelationKind, line: u32) -> Relation {
        let path = from.split_once(':').map_or(from, |(_, rest)| rest);
        Relation {
            from: EntityId::from_raw(from),
            to: EntityId::from_raw(to),
            kind,
            provenance: Provenance::Observed,
            evidence: Evidence {
                path: p(path),
                lines: [line, line],
            },
            via: None,
        }
    }

    pub fn link(from: &str, to: &str) -> Relation {
        relation(
            &format!("document:{from}"),
            &format!("document:{to}"),
            RelationKind::LinksTo,
            1,
        )
    }

    pub fn mention(from: &str, to: &str) -> Relation {
        relation(&format!("document:{from}"), to, RelationKind::Mentions, 1)
    }

    pub fn covers(from: &str, to: &str) -> Relation {
        relation(&format!("document:{from}"), to, RelationKind::Covers, 1)
    }

    pub fn contains(from: &str, to: &str) -> Relation {
        relation(from, to, RelationKind::Contains, 1)
    }

    pub fn snapshot(entities: Vec<Entity>, relations: Vec<Relation>) -> Snapshot {
        let mut entities = entities;
        entities.sort_by(|a, b| a.id().cmp(b.id()));
        Snapshot {
            artifact_type: SNAPSHOT_TYPE.to_owned(),
            schema_version: SNAPSHOT_SCHEMA_VERSION,
            content_hash: ContentHash::of_bytes(b"snapshot"),
            content_hash_algo: SEMANTIC_HASH_ALGO.to_owned(),
            generated_at: "2026-01-01T00:00:00.000Z".to_owned(),
            project: Project {
                name: "t".to_owned(),
                root: ".".to_owned(),
            },
            analyzers: BTreeMap::new(),
            files: Vec::new(),
            entities,
            relations,
            diagnostics: Vec::new(),
            stats: SnapshotStats::default(),
        }
    }
}
