//! A small snapshot built in code, and a builder for well-formed proposals against it.
//!
//! Files: `README.md` (20 lines), `docs/auth.md` and `docs/auth-copy.md` (40 lines, identical
//! bytes), `docs/ops/runbook.md` (30 lines), `crates/auth/Cargo.toml` (12 lines),
//! `crates/auth/src/session.rs` (120), `crates/auth/src/token.rs` (80), `assets/logo.png` (no
//! line count). Entities: four documents, two modules, `area:crates/auth/src`,
//! `package:auth-core`. One diagnostic: a broken link at `docs/ops/runbook.md:7`.

#![allow(dead_code, clippy::unwrap_used)]

use std::collections::BTreeMap;

use doc_bridge_model::enrichment::EnrichmentProposalV1;
use doc_bridge_model::hash::semantic_hash;
use doc_bridge_model::snapshot::{
    Area, Diagnostic, Document, Ecosystem, Entity, Evidence, FileClass, FileRecord, Module,
    Package, Project, Provenance, Relation, RelationKind, SNAPSHOT_HASH_EXCLUDED, Severity,
    Snapshot, SnapshotStats, TitleSource,
};
use doc_bridge_model::{ContentHash, EntityId, RelPath};
use serde_json::{Value, json};

pub const README: &str = "document:README.md";
pub const AUTH: &str = "document:docs/auth.md";
pub const AUTH_COPY: &str = "document:docs/auth-copy.md";
pub const RUNBOOK: &str = "document:docs/ops/runbook.md";
pub const SESSION: &str = "module:crates/auth/src/session.rs";
pub const TOKEN: &str = "module:crates/auth/src/token.rs";
pub const AREA: &str = "area:crates/auth/src";
pub const PACKAGE: &str = "package:auth-core";

pub fn p(path: &str) -> RelPath {
    RelPath::new(path).unwrap()
}

pub fn h(seed: &str) -> ContentHash {
    ContentHash::of_bytes(seed.as_bytes())
}

fn file(path: &str, class: FileClass, lines: Option<u32>, seed: &str) -> FileRecord {
    FileRecord {
        path: p(path),
        bytes: 100,
        content_hash: h(seed),
        class,
        lines,
        linguist: None,
    }
}

fn document(path: &str, seed: &str, title: &str, summary: &str, lines: u32) -> Document {
    Document {
        id: EntityId::document(&p(path)),
        path: p(path),
        content_hash: h(seed),
        title: title.to_owned(),
        title_source: TitleSource::Heading,
        excluded_from_site: false,
        named_by: Vec::new(),
        headings: Vec::new(),
        summary: summary.to_owned(),
        tags: Vec::new(),
        audience: Vec::new(),
        owner: None,
        checks: Vec::new(),
        covers: Vec::new(),
        language: Some("en".to_owned()),
        language_source: None,
        agent_doc: false,
        front_matter: BTreeMap::new(),
        line_count: lines,
        mentions: Vec::new(),
    }
}

fn module(path: &str, seed: &str, lines: u32) -> Module {
    Module {
        id: EntityId::module(&p(path)),
        path: p(path),
        content_hash: h(seed),
        language: "rust".to_owned(),
        symbols: Vec::new(),
        imports: Vec::new(),
        line_count: lines,
        members: Vec::new(),
    }
}

fn relation(from: &str, to: &str, kind: RelationKind, path: &str) -> Relation {
    Relation {
        from: EntityId::from_raw(from),
        to: EntityId::from_raw(to),
        kind,
        provenance: Provenance::Observed,
        evidence: Evidence {
            path: p(path),
            lines: [1, 1],
        },
        via: None,
    }
}

/// The fixture snapshot, hashed like a real one.
pub fn snapshot() -> Snapshot {
    let mut auth = document(
        "docs/auth.md",
        "auth",
        "Authentication Guide",
        "How sign-in works.",
        40,
    );
    auth.front_matter
        .insert("aliases".to_owned(), json!(["login docs"]));
    let entities = vec![
        Entity::Area(Area {
            id: EntityId::from_raw(AREA),
            path: p("crates/auth/src"),
            content_hash: h("area"),
            title: "crates/auth/src".to_owned(),
            package_id: Some(EntityId::from_raw(PACKAGE)),
            module_count: 2,
        }),
        Entity::Document(document(
            "README.md",
            "readme",
            "Doc Bridge",
            "A repository knowledge engine.",
            20,
        )),
        Entity::Document(document(
            "docs/auth-copy.md",
            "auth",
            "Sign-in, again",
            "How sign-in works.",
            40,
        )),
        Entity::Document(auth),
        Entity::Document(document(
            "docs/ops/runbook.md",
            "runbook",
            "Operations Runbook",
            "",
            30,
        )),
        Entity::Module(module("crates/auth/src/session.rs", "session", 120)),
        Entity::Module(module("crates/auth/src/token.rs", "token", 80)),
        Entity::Package(Package {
            readme: None,
            id: EntityId::from_raw(PACKAGE),
            path: p("crates/auth"),
            content_hash: h("manifest"),
            name: "auth-core".to_owned(),
            ecosystem: Ecosystem::Cargo,
            manifest: p("crates/auth/Cargo.toml"),
            version: None,
            scripts: BTreeMap::new(),
            workspaces: Vec::new(),
            dependencies: Vec::new(),
            package_manager: "cargo".to_owned(),
        }),
    ];
    let relations = vec![
        relation(
            AREA,
            SESSION,
            RelationKind::Contains,
            "crates/auth/src/session.rs",
        ),
        relation(
            AREA,
            TOKEN,
            RelationKind::Contains,
            "crates/auth/src/token.rs",
        ),
        relation(README, AUTH, RelationKind::LinksTo, "README.md"),
        relation(AUTH, SESSION, RelationKind::Mentions, "docs/auth.md"),
        relation(
            SESSION,
            TOKEN,
            RelationKind::Imports,
            "crates/auth/src/session.rs",
        ),
        relation(
            PACKAGE,
            AREA,
            RelationKind::Contains,
            "crates/auth/Cargo.toml",
        ),
    ];
    let diagnostics = vec![Diagnostic::new(
        "broken-link",
        Severity::Warning,
        p("docs/ops/runbook.md"),
        Some(7),
        "link target `missing.md` does not exist",
        Some(EntityId::from_raw(RUNBOOK)),
    )];
    let mut snapshot = Snapshot {
        artifact_type: "doc-bridge-snapshot".to_owned(),
        schema_version: 1,
        content_hash: h("placeholder"),
        content_hash_algo: "sha256-semantic-v1".to_owned(),
        generated_at: "2026-01-01T00:00:00Z".to_owned(),
        project: Project {
            name: "fixture".to_owned(),
            root: ".".to_owned(),
        },
        analyzers: BTreeMap::new(),
        files: vec![
            file("README.md", FileClass::Document, Some(20), "readme"),
            file("assets/logo.png", FileClass::Other, None, "logo"),
            file(
                "crates/auth/Cargo.toml",
                FileClass::Manifest,
                Some(12),
                "manifest",
            ),
            file(
                "crates/auth/src/session.rs",
                FileClass::Module,
                Some(120),
                "session",
            ),
            file(
                "crates/auth/src/token.rs",
                FileClass::Module,
                Some(80),
                "token",
            ),
            file("docs/auth-copy.md", FileClass::Document, Some(40), "auth"),
            file("docs/auth.md", FileClass::Document, Some(40), "auth"),
            file(
                "docs/ops/runbook.md",
                FileClass::Document,
                Some(30),
                "runbook",
            ),
        ],
        entities,
        relations,
        diagnostics,
        stats: SnapshotStats::default(),
    };
    snapshot.content_hash = semantic_hash(&snapshot, SNAPSHOT_HASH_EXCLUDED).unwrap();
    snapshot
}

/// The id of the fixture's one diagnostic.
pub fn diagnostic_id(snapshot: &Snapshot) -> String {
    snapshot.diagnostics[0].id.clone()
}

fn entity<'a>(snapshot: &'a Snapshot, id: &str) -> Option<&'a Entity> {
    snapshot.entities.iter().find(|e| e.id().as_str() == id)
}

/// A file inside the entity, to cite as evidence.
pub fn evidence_path(id: &str) -> &'static str {
    match id {
        README => "README.md",
        AUTH => "docs/auth.md",
        AUTH_COPY => "docs/auth-copy.md",
        RUNBOOK => "docs/ops/runbook.md",
        SESSION | AREA => "crates/auth/src/session.rs",
        TOKEN => "crates/auth/src/token.rs",
        PACKAGE => "crates/auth/Cargo.toml",
        _ => "README.md",
    }
}

/// A well-formed proposal of `kind` on `entity` by agent `curator`, prompt version 1, that
/// passes the whole envelope; its id is computed, not trusted.
pub fn proposal(snapshot: &Snapshot, kind: &str, entity_id: &str, payload: Value) -> Value {
    let target = entity(snapshot, entity_id)
        .map(|e| e.content_hash().as_str().to_owned())
        .unwrap_or_else(|| "d".repeat(64));
    let value = json!({
        "proposalId": "0".repeat(64),
        "kind": kind,
        "entity": entity_id,
        "targetContentHash": target,
        "confidence": 0.8,
        "reason": "the fixture says so",
        "evidence": [{"source": "snapshot", "path": evidence_path(entity_id), "lines": [1, 3]}],
        "relatedDiagnosticIds": [],
        "origin": {"agentId": "curator", "agentVersion": "0.1.0", "promptVersion": "1"},
        "baseSnapshotHash": snapshot.content_hash.as_str(),
        "payload": payload,
    });
    reid(value)
}

/// Recomputes the proposal id when the value is a well-formed proposal; leaves it otherwise.
pub fn reid(mut value: Value) -> Value {
    if let Ok(proposal) = EnrichmentProposalV1::from_value(&value) {
        value["proposalId"] = json!(proposal.expected_id());
    }
    value
}

/// Sets the value at a JSON pointer (creating the last key), then recomputes the id.
pub fn with(value: Value, pointer: &str, new: Value) -> Value {
    reid(with_raw(value, pointer, new))
}

/// Sets the value at a JSON pointer without touching the id.
pub fn with_raw(mut value: Value, pointer: &str, new: Value) -> Value {
    let (parent, last) = pointer.rsplit_once('/').unwrap();
    let target = value.pointer_mut(parent).unwrap();
    match target {
        Value::Object(map) => {
            map.insert(last.to_owned(), new);
        }
        Value::Array(items) => {
            let index: usize = last.parse().unwrap();
            items[index] = new;
        }
        _ => panic!("cannot set {pointer}"),
    }
    value
}

/// Removes the key at a JSON pointer, without touching the id.
pub fn without(mut value: Value, pointer: &str) -> Value {
    let (parent, last) = pointer.rsplit_once('/').unwrap();
    if let Some(Value::Object(map)) = value.pointer_mut(parent) {
        map.remove(last);
    }
    value
}

/// Sets the agent identity and recomputes the id.
pub fn by_agent(value: Value, agent: &str) -> Value {
    with(value, "/origin/agentId", json!(agent))
}

/// Decides one proposal against the fixture without an overlay.
pub fn decide_one(snapshot: &Snapshot, value: Value) -> doc_bridge_enrich::Decision {
    let mut decisions =
        doc_bridge_enrich::decide_batch(vec![value], &doc_bridge_enrich::Context::new(snapshot));
    assert_eq!(decisions.len(), 1);
    decisions.remove(0)
}

/// The rejection reason of one proposal, or a panic naming what was decided instead.
pub fn rejection(
    snapshot: &Snapshot,
    value: Value,
) -> doc_bridge_model::enrichment::RejectionReason {
    match decide_one(snapshot, value) {
        doc_bridge_enrich::Decision::Rejected { reason, .. } => reason,
        other => panic!("expected a rejection, got {other:?}"),
    }
}

/// Asserts the proposal is accepted by policy.
pub fn assert_accepted(snapshot: &Snapshot, value: Value) {
    match decide_one(snapshot, value) {
        doc_bridge_enrich::Decision::Accepted(_) => {}
        other => panic!("expected acceptance, got {other:?}"),
    }
}

/// Asserts the proposal waits for a person.
pub fn assert_pending(snapshot: &Snapshot, value: Value) {
    match decide_one(snapshot, value) {
        doc_bridge_enrich::Decision::Pending(_, note) => {
            assert_eq!(note, doc_bridge_enrich::AWAITING_APPROVAL)
        }
        other => panic!("expected pending, got {other:?}"),
    }
}
