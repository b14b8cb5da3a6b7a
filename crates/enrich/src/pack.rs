//! Context packs (enrichment-overlay-v1, "Context packs and the cache"): what an agent sees of
//! one target entity. Agents never receive the snapshot. Every string passes redaction; a pack
//! is bounded by a byte budget and drops sections least-important-first, never the target.
//!
//! Text (names, summaries, the excerpt, messages) passes [`redact`]. Ids and paths (the target's,
//! its evidence's, every neighbour's and diagnostic's) pass [`Restorations::redact`] instead: a
//! secret in a file or directory name becomes a stable placeholder, the same in every pack and
//! every run, and [`ContextPack::restorations`] (never sent) remembers what each stands for, so
//! the stage can resolve the ids an agent echoes back.

use doc_bridge_model::hash::hash_canonical;
use doc_bridge_model::snapshot::{Entity, Snapshot};
use doc_bridge_model::{ContentHash, EntityId, RelPath};
use serde::Serialize;

use crate::redact::{REDACTION_PATTERNS_VERSION, Restorations, redact};

/// Default `intelligence.registry.maxPackBytes`.
pub const DEFAULT_MAX_PACK_BYTES: usize = 64 * 1024;
/// Most neighbours in a pack.
pub const MAX_NEIGHBOURS: usize = 32;
/// Most diagnostics in a pack.
pub const MAX_DIAGNOSTICS: usize = 16;
/// Longest evidence excerpt (bytes).
pub const MAX_EXCERPT_BYTES: usize = 12 * 1024;
/// Most symbols listed in a module target's metadata.
const MAX_SYMBOLS: usize = 64;

/// One context pack.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextPack {
    /// Covers the target's and every neighbour's content hash and [`REDACTION_PATTERNS_VERSION`]
    /// (what the pack hides), and nothing else: never the text, so never a secret.
    pub pack_hash: ContentHash,
    /// The entity the pack is about.
    pub target: PackTarget,
    /// The other end of every relation touching the target.
    pub neighbours: Vec<PackNeighbour>,
    /// Open diagnostics naming the target or citing its file.
    pub diagnostics: Vec<PackDiagnostic>,
    /// The target's own file, redacted (absent when unreadable or changed since the snapshot).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<PackEvidence>,
    /// The budget and what it dropped.
    pub budget: PackBudget,
    /// What each placeholder in the pack's ids and paths stands for. Never serialized: it stays
    /// with the stage and never reaches an agent.
    #[serde(skip)]
    pub restorations: Restorations,
}

/// The target section.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackTarget {
    /// Entity id.
    pub id: EntityId,
    /// Entity kind.
    pub kind: String,
    /// Title or name.
    pub name: String,
    /// File or directory.
    pub path: RelPath,
    /// Content hash (what a proposal's `targetContentHash` must be).
    pub content_hash: ContentHash,
    /// Known aliases (front matter).
    pub aliases: Vec<String>,
    /// The evidence an agent may cite for the target itself.
    pub evidence: Vec<PackEvidenceRef>,
    /// Bounded facts (summary, tags, language, symbols, ...).
    pub metadata: serde_json::Map<String, serde_json::Value>,
}

/// An evidence reference (`{source, path, lines}`), as proposals cite it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackEvidenceRef {
    /// Always `snapshot`.
    pub source: String,
    /// The file.
    pub path: RelPath,
    /// Whole file: `[1, lineCount]` (`[0, 0]` for an empty file).
    pub lines: [u32; 2],
}

/// A neighbour.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackNeighbour {
    /// Entity kind.
    pub kind: String,
    /// Entity id.
    pub id: EntityId,
    /// File or directory.
    pub path: RelPath,
    /// Content hash.
    pub content_hash: ContentHash,
    /// The relation kind.
    pub relation: String,
    /// `outbound` (target → neighbour) or `inbound`.
    pub direction: String,
}

/// A diagnostic.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackDiagnostic {
    /// Its id (what `relatedDiagnosticIds` cites).
    pub id: String,
    /// Its code.
    pub code: String,
    /// File.
    pub path: RelPath,
    /// Line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Message, redacted.
    pub message: String,
}

/// The target file's text.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackEvidence {
    /// The file.
    pub path: RelPath,
    /// Redacted text, possibly cut at a character boundary.
    pub excerpt: String,
    /// Whether it was cut.
    pub truncated: bool,
}

/// The budget.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackBudget {
    /// The limit.
    pub max_bytes: usize,
    /// The pack's serialized size.
    pub bytes: usize,
    /// What was dropped, in order (`excerpt-bytes`, `excerpt`, `diagnostic`, `neighbour`).
    pub dropped: Vec<String>,
}

/// Builds the pack for `target`. `read` returns a file's bytes; the excerpt is used only when they
/// still hash to what the snapshot recorded.
pub fn build_pack(
    snapshot: &Snapshot,
    target: &EntityId,
    max_bytes: usize,
    read: &dyn Fn(&RelPath) -> Option<Vec<u8>>,
) -> Option<ContextPack> {
    let entity = snapshot.entities.iter().find(|e| e.id() == target)?;
    let file = snapshot
        .files
        .binary_search_by(|f| f.path.cmp(entity.path()))
        .ok()
        .map(|i| &snapshot.files[i]);
    let mut restorations = Restorations::default();
    let mut neighbours: Vec<PackNeighbour> = snapshot
        .relations
        .iter()
        .filter_map(|r| {
            let (other, direction) = if &r.from == target {
                (&r.to, "outbound")
            } else if &r.to == target {
                (&r.from, "inbound")
            } else {
                return None;
            };
            let other = snapshot.entities.iter().find(|e| e.id() == other)?;
            Some(PackNeighbour {
                kind: redact(other.kind().as_str()),
                id: redact_id(other.id(), &mut restorations),
                path: redact_path(other.path(), &mut restorations),
                content_hash: other.content_hash().clone(),
                relation: redact(r.kind.as_str()),
                direction: direction.to_owned(),
            })
        })
        .collect();
    neighbours.sort();
    neighbours.dedup();
    neighbours.truncate(MAX_NEIGHBOURS);
    let diagnostics: Vec<PackDiagnostic> = snapshot
        .diagnostics
        .iter()
        .filter(|d| d.entity.as_ref() == Some(target) || &d.path == entity.path())
        .take(MAX_DIAGNOSTICS)
        .map(|d| PackDiagnostic {
            id: restorations.redact(&d.id),
            code: redact(&d.code),
            path: redact_path(&d.path, &mut restorations),
            line: d.line,
            message: redact(&d.message),
        })
        .collect();
    let evidence = file.and_then(|f| {
        let bytes = read(&f.path)?;
        (ContentHash::of_bytes(&bytes) == f.content_hash).then_some(())?;
        let text = String::from_utf8_lossy(&bytes);
        let (excerpt, truncated) = cut(&redact(&text), MAX_EXCERPT_BYTES);
        Some(PackEvidence {
            path: redact_path(&f.path, &mut restorations),
            excerpt,
            truncated,
        })
    });
    let pack_hash = hash_canonical(&serde_json::json!({
        "target": entity.content_hash(),
        "neighbours": neighbours.iter().map(|n| n.content_hash.as_str()).collect::<Vec<_>>(),
        "redaction": REDACTION_PATTERNS_VERSION,
    }))
    .unwrap_or_else(|_| ContentHash::of_bytes(b""));
    let lines = file.and_then(|f| f.lines).unwrap_or(0);
    let target_evidence: Vec<PackEvidenceRef> = file
        .map(|f| PackEvidenceRef {
            source: "snapshot".into(),
            path: redact_path(&f.path, &mut restorations),
            lines: if lines == 0 { [0, 0] } else { [1, lines] },
        })
        .into_iter()
        .collect();
    let mut pack = ContextPack {
        pack_hash,
        target: PackTarget {
            id: redact_id(target, &mut restorations),
            kind: redact(entity.kind().as_str()),
            name: redact(entity.name()),
            path: redact_path(entity.path(), &mut restorations),
            content_hash: entity.content_hash().clone(),
            aliases: aliases(entity),
            evidence: target_evidence,
            metadata: metadata(entity),
        },
        neighbours,
        diagnostics,
        evidence,
        budget: PackBudget {
            max_bytes,
            bytes: 0,
            dropped: Vec::new(),
        },
        restorations,
    };
    fit(&mut pack);
    Some(pack)
}

/// An id as the agent sees it: every secret span a stable placeholder, remembered.
fn redact_id(id: &EntityId, restorations: &mut Restorations) -> EntityId {
    EntityId::from_raw(restorations.redact(id.as_str()))
}

/// A path as the agent sees it: every secret span a stable placeholder, remembered. Should the
/// result not be a valid path (a secret spanning a whole segment boundary oddly), the whole path
/// becomes one placeholder.
fn redact_path(path: &RelPath, restorations: &mut Restorations) -> RelPath {
    let shown = restorations.redact(path.as_str());
    if shown == path.as_str() {
        return path.clone();
    }
    RelPath::new(&shown)
        .or_else(|| RelPath::new(&restorations.hide(path.as_str())))
        .unwrap_or_else(RelPath::root)
}

fn aliases(entity: &Entity) -> Vec<String> {
    match entity {
        Entity::Document(d) => match d.front_matter.get("aliases") {
            Some(serde_json::Value::Array(items)) => items
                .iter()
                .filter_map(|v| v.as_str().map(redact))
                .collect(),
            Some(serde_json::Value::String(s)) => s
                .split(',')
                .map(|p| redact(p.trim()))
                .filter(|p| !p.is_empty())
                .collect(),
            _ => Vec::new(),
        },
        Entity::Package(p) => vec![redact(&p.name)],
        Entity::Module(_) | Entity::Area(_) | Entity::File(_) => Vec::new(),
    }
}

fn metadata(entity: &Entity) -> serde_json::Map<String, serde_json::Value> {
    let mut map = serde_json::Map::new();
    match entity {
        Entity::Document(d) => {
            map.insert("title".into(), redact(&d.title).into());
            map.insert("summary".into(), redact(&d.summary).into());
            map.insert(
                "headings".into(),
                d.headings
                    .iter()
                    .take(32)
                    .map(|h| redact(&h.text))
                    .collect::<Vec<_>>()
                    .into(),
            );
            map.insert(
                "tags".into(),
                d.tags.iter().map(|t| redact(t)).collect::<Vec<_>>().into(),
            );
            if let Some(language) = &d.language {
                map.insert("language".into(), redact(language).into());
            }
        }
        Entity::Module(m) => {
            map.insert("language".into(), redact(&m.language).into());
            map.insert(
                "symbols".into(),
                m.symbols
                    .iter()
                    .take(MAX_SYMBOLS)
                    .map(|s| redact(&s.name))
                    .collect::<Vec<_>>()
                    .into(),
            );
        }
        Entity::Area(a) => {
            map.insert("modules".into(), a.module_count.into());
        }
        Entity::Package(p) => {
            map.insert(
                "ecosystem".into(),
                serde_json::to_value(p.ecosystem).unwrap_or_default(),
            );
        }
        Entity::File(_) => {}
    }
    map
}

/// At most `max` bytes of `text`, cut at a character boundary.
fn cut(text: &str, max: usize) -> (String, bool) {
    if text.len() <= max {
        return (text.to_owned(), false);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (text[..end].to_owned(), true)
}

fn size(pack: &ContextPack) -> usize {
    serde_json::to_vec(pack)
        .map(|b| b.len())
        .unwrap_or(usize::MAX)
}

/// Drops, in the seed's order, until the pack fits: excerpt bytes (halved until it fits, then the
/// excerpt), diagnostics from the end, neighbours from the end. The target is never dropped.
fn fit(pack: &mut ContextPack) {
    loop {
        let bytes = size(pack);
        pack.budget.bytes = bytes;
        if bytes <= pack.budget.max_bytes {
            return;
        }
        if let Some(evidence) = &mut pack.evidence {
            if evidence.excerpt.len() > 256 {
                let (half, _) = cut(&evidence.excerpt, evidence.excerpt.len() / 2);
                evidence.excerpt = half;
                evidence.truncated = true;
                pack.budget.dropped.push("excerpt-bytes".into());
            } else {
                pack.evidence = None;
                pack.budget.dropped.push("excerpt".into());
            }
        } else if pack.diagnostics.pop().is_some() {
            pack.budget.dropped.push("diagnostic".into());
        } else if pack.neighbours.pop().is_some() {
            pack.budget.dropped.push("neighbour".into());
        } else {
            return;
        }
    }
}

/// The cache key of an agent answer for a pack: sha256 of canonical `{task, agentId,
/// agentVersion, promptVersion, packHash}`.
pub fn cache_key(
    task: &str,
    agent_id: &str,
    agent_version: &str,
    prompt_version: &str,
    pack_hash: &ContentHash,
) -> ContentHash {
    hash_canonical(&serde_json::json!({
        "task": task,
        "agentId": agent_id,
        "agentVersion": agent_version,
        "promptVersion": prompt_version,
        "packHash": pack_hash,
    }))
    .unwrap_or_else(|_| ContentHash::of_bytes(b""))
}
