//! What the validators judge against: the snapshot, the report and the overlay already on disk
//! (enrichment-overlay-v1, "The stage", step 3), and the lookups built from them once per batch.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use doc_bridge_model::enrichment::{EnrichmentOverlayV1, EvidenceItem, EvidenceSource};
use doc_bridge_model::snapshot::{
    Diagnostic, Entity, EntityKind, FileRecord, RelationKind, Snapshot,
};
use doc_bridge_model::{ContentHash, EntityId, RelPath};

mod names;
pub(crate) use names::NameIndex;

/// The inputs of a decision. Validators read nothing else: no disk, no clock.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The snapshot proposals must have been made against.
    pub snapshot: &'a Snapshot,
    /// The report's diagnostics (`relatedDiagnosticIds` and `report` evidence are checked
    /// against these). For now the snapshot's own diagnostics; a slice so that `check`'s report
    /// can be passed later.
    pub report_diagnostics: &'a [Diagnostic],
    /// The overlay on disk, if any: its live accepted and pending entries take part in
    /// collisions, conflicts and duplicate findings.
    pub overlay: Option<&'a EnrichmentOverlayV1>,
}

impl<'a> Context<'a> {
    /// A context over `snapshot`, its own diagnostics as the report, and no overlay.
    pub fn new(snapshot: &'a Snapshot) -> Self {
        Context {
            snapshot,
            report_diagnostics: &snapshot.diagnostics,
            overlay: None,
        }
    }

    /// The same context with `overlay` as the overlay on disk.
    pub fn with_overlay(self, overlay: &'a EnrichmentOverlayV1) -> Self {
        Context {
            overlay: Some(overlay),
            ..self
        }
    }
}

/// A name an alias could collide with, normalized, with whose name it is.
pub(crate) struct Name {
    pub normalized: String,
    pub chars: usize,
    pub owner: String,
    pub what: &'static str,
}

/// Lookups over one snapshot and report, built once per batch.
pub(crate) struct Facts<'a> {
    pub snapshot: &'a Snapshot,
    entities: HashMap<&'a str, &'a Entity>,
    files: HashMap<&'a str, &'a FileRecord>,
    directories: HashSet<String>,
    observed: HashSet<(&'a str, &'a str, RelationKind)>,
    diagnostic_ids: HashSet<&'a str>,
    diagnostic_lines: HashMap<&'a str, Vec<Option<u32>>>,
    names: OnceCell<NameIndex>,
}

impl<'a> Facts<'a> {
    pub fn new(snapshot: &'a Snapshot, report: &'a [Diagnostic]) -> Self {
        let entities = snapshot
            .entities
            .iter()
            .map(|e| (e.id().as_str(), e))
            .collect();
        let files: HashMap<&str, &FileRecord> = snapshot
            .files
            .iter()
            .map(|f| (f.path.as_str(), f))
            .collect();
        let mut directories = HashSet::new();
        for file in &snapshot.files {
            let mut dir = file.path.parent();
            loop {
                let done = dir.is_root();
                if !directories.insert(dir.as_str().to_owned()) {
                    break;
                }
                if done {
                    break;
                }
                dir = dir.parent();
            }
        }
        let observed = snapshot
            .relations
            .iter()
            .map(|r| (r.from.as_str(), r.to.as_str(), r.kind))
            .collect();
        let diagnostic_ids = report.iter().map(|d| d.id.as_str()).collect();
        let mut diagnostic_lines: HashMap<&str, Vec<Option<u32>>> = HashMap::new();
        for d in report {
            diagnostic_lines
                .entry(d.path.as_str())
                .or_default()
                .push(d.line);
        }
        Facts {
            snapshot,
            entities,
            files,
            directories,
            observed,
            diagnostic_ids,
            diagnostic_lines,
            names: OnceCell::new(),
        }
    }

    pub fn entity(&self, id: &EntityId) -> Option<&'a Entity> {
        self.entities.get(id.as_str()).copied()
    }

    /// The entity's content hash (what an accepted proposal's `targetContentHash` is bound to).
    pub fn content_hash(&self, id: &EntityId) -> Option<&'a ContentHash> {
        self.entity(id).map(Entity::content_hash)
    }

    pub fn is_directory(&self, dir: &RelPath) -> bool {
        self.directories.contains(dir.as_str())
    }

    pub fn is_observed(&self, from: &EntityId, to: &EntityId, kind: RelationKind) -> bool {
        self.observed.contains(&(from.as_str(), to.as_str(), kind))
    }

    pub fn has_diagnostic(&self, id: &str) -> bool {
        self.diagnostic_ids.contains(id)
    }

    /// Whether an evidence item names something present in the snapshot or the report
    /// (enrichment-overlay-v1, "Typed proposals": "every item present — by source, path and
    /// lines — in the snapshot or the report").
    ///
    /// - `snapshot`: the path is a repository-relative path (no leading `/`, no `..`, no
    ///   backslash) of a file in `snapshot.files`, and the lines satisfy
    ///   `1 <= start <= end <= lines` for a file with a recorded line count of at least one, or
    ///   are `[0, 0]`, citing the file whole (the only way to cite a file with no recorded lines:
    ///   binary, oversize, inventoried only, or empty).
    /// - `report`: some report diagnostic has this path, and either its line lies within
    ///   `start..=end` (with `start >= 1`), or it has no line and the item says `[0, 0]`.
    pub fn evidence_problem(&self, item: &EvidenceItem) -> Option<String> {
        let Some(path) = RelPath::new(&item.path).filter(|p| !p.is_root()) else {
            return Some("an evidence path is not a repository-relative file path".into());
        };
        let [start, end] = item.lines;
        match item.source {
            EvidenceSource::Snapshot => {
                let Some(file) = self.files.get(path.as_str()) else {
                    return Some(format!("evidence file {path} is not in the snapshot"));
                };
                let ok = match file.lines {
                    _ if start == 0 && end == 0 => true,
                    Some(lines) if lines >= 1 => 1 <= start && start <= end && end <= lines,
                    _ => false,
                };
                (!ok).then(|| {
                    format!(
                        "evidence lines [{start}, {end}] are outside {path} ({} lines)",
                        file.lines
                            .map_or("no recorded".to_owned(), |l| l.to_string())
                    )
                })
            }
            EvidenceSource::Report => {
                let lines = self.diagnostic_lines.get(path.as_str());
                let ok = lines.is_some_and(|lines| {
                    lines.iter().any(|line| match line {
                        Some(l) => 1 <= start && start <= *l && *l <= end,
                        None => start == 0 && end == 0,
                    })
                });
                (!ok).then(|| format!("no report diagnostic at {path} lines [{start}, {end}]"))
            }
        }
    }

    /// Every name an alias must not collide with (enrichment-overlay-v1, "Typed proposals",
    /// add-alias): each entity's id, name, title, file or directory stem, and front matter
    /// `aliases`, indexed ([`NameIndex`]). Accepted aliases from the overlay and the batch are
    /// kept by the caller, in an index of their own ([`NameIndex::empty_counting`]).
    pub fn names(&self) -> &NameIndex {
        self.names.get_or_init(|| {
            let mut names = Vec::new();
            for entity in &self.snapshot.entities {
                let owner = entity.id().as_str();
                let mut push = |text: &str, what: &'static str| {
                    if let Some(name) = Name::new(text, owner, what) {
                        names.push(name);
                    }
                };
                push(owner, "id");
                push(entity.name(), "name");
                if !entity.path().is_root() {
                    push(entity.path().file_stem(), "file stem");
                }
                if let Entity::Document(d) = entity {
                    push(&d.title, "title");
                    if let Some(aliases) = d.front_matter.get("aliases") {
                        for alias in front_matter_aliases(aliases) {
                            push(&alias, "alias");
                        }
                    }
                }
            }
            NameIndex::new(names)
        })
    }
}

impl Name {
    pub fn new(text: &str, owner: &str, what: &'static str) -> Option<Self> {
        let normalized = normalize(text);
        let chars = normalized.chars().count();
        (chars > 0).then(|| Name {
            normalized,
            chars,
            owner: owner.to_owned(),
            what,
        })
    }
}

/// Lowercase with runs of whitespace collapsed to one space and trimmed: the form names,
/// summaries and gap texts are compared in.
pub(crate) fn normalize(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Front matter `aliases` as the projection reads them (`crates/retrieve/src/projection.rs`,
/// `string_list`): a comma-separated string or an array of strings.
fn front_matter_aliases(value: &serde_json::Value) -> Vec<String> {
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

/// Whether `path` (an evidence path) lies inside `entity`: the entity's own file for documents,
/// modules and files, anything within the directory for areas and packages.
pub(crate) fn inside(path: &str, entity: &Entity) -> bool {
    let Some(path) = RelPath::new(path) else {
        return false;
    };
    match entity.kind() {
        EntityKind::Document | EntityKind::Module | EntityKind::File => &path == entity.path(),
        EntityKind::Area | EntityKind::Package => path.is_within(entity.path()),
    }
}
