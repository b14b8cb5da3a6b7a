//! Context packs: sections, ordering, redaction, the budget's drop order, and what the pack hash
//! and the cache key cover.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_enrich::pack::{ContextPack, MAX_EXCERPT_BYTES, build_pack, cache_key};
use doc_bridge_model::snapshot::{Entity, Snapshot};
use doc_bridge_model::{ContentHash, EntityId, RelPath};

const SECRET: &str = "AKIAABCDEFGHIJKLMNOP";

/// The fixture snapshot with docs/auth.md's recorded hash set to `bytes`.
fn with_file(bytes: &[u8]) -> Snapshot {
    let mut snapshot = snapshot();
    let hash = ContentHash::of_bytes(bytes);
    for file in &mut snapshot.files {
        if file.path.as_str() == "docs/auth.md" {
            file.content_hash = hash.clone();
        }
    }
    snapshot
}

fn pack(snapshot: &Snapshot, bytes: &[u8], max: usize) -> ContextPack {
    let bytes = bytes.to_vec();
    let read = move |path: &RelPath| (path.as_str() == "docs/auth.md").then(|| bytes.clone());
    build_pack(snapshot, &EntityId::from_raw(AUTH), max, &read).unwrap()
}

#[test]
fn pack_holds_the_target_sorted_neighbours_diagnostics_and_a_redacted_excerpt() {
    let text = format!("# Authentication\n\nkey = {SECRET}\n");
    let snapshot = with_file(text.as_bytes());
    let pack = pack(&snapshot, text.as_bytes(), 64 * 1024);
    assert_eq!(pack.target.id.as_str(), AUTH);
    assert_eq!(pack.target.aliases, ["login docs"]);
    let keys: Vec<(String, String)> = pack
        .neighbours
        .iter()
        .map(|n| (n.kind.clone(), n.id.to_string()))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert!(!pack.neighbours.is_empty());
    let excerpt = &pack.evidence.as_ref().unwrap().excerpt;
    assert!(
        excerpt.contains("# Authentication") && !excerpt.contains(SECRET),
        "{excerpt}"
    );
    let json = serde_json::to_string(&pack).unwrap();
    assert!(!json.contains(SECRET));
    assert!(pack.budget.bytes <= pack.budget.max_bytes);
}

#[test]
fn a_file_that_changed_since_the_snapshot_gives_no_excerpt() {
    let snapshot = with_file(b"what the snapshot saw");
    let pack = pack(&snapshot, b"what is on disk now", 64 * 1024);
    assert!(pack.evidence.is_none());
}

#[test]
fn over_budget_drops_excerpt_bytes_then_excerpt_then_diagnostics_then_neighbours_never_the_target()
{
    let text = "x".repeat(MAX_EXCERPT_BYTES * 2);
    let snapshot = with_file(text.as_bytes());
    let roomy = pack(&snapshot, text.as_bytes(), 64 * 1024);
    assert!(roomy.evidence.as_ref().unwrap().truncated);
    assert!(roomy.budget.dropped.is_empty());
    let tight = pack(&snapshot, text.as_bytes(), 600);
    let dropped = &tight.budget.dropped;
    let first = |what: &str| dropped.iter().position(|d| d == what);
    assert!(
        first("excerpt-bytes").unwrap() < first("excerpt").unwrap(),
        "{dropped:?}"
    );
    if let (Some(diagnostic), Some(neighbour)) = (first("diagnostic"), first("neighbour")) {
        assert!(diagnostic < neighbour, "{dropped:?}");
    }
    assert!(tight.evidence.is_none());
    assert_eq!(tight.target.id.as_str(), AUTH);
}

#[test]
fn pack_hash_covers_content_hashes_only_and_the_cache_key_covers_the_agent() {
    let snapshot = with_file(b"a");
    let base = pack(&snapshot, b"a", 64 * 1024);
    // A summary edit alone (no hash change) keeps the pack hash.
    let mut edited = snapshot.clone();
    for entity in &mut edited.entities {
        if let Entity::Document(d) = entity
            && d.id.as_str() == AUTH
        {
            d.summary = "Different words".into();
        }
    }
    assert_eq!(pack(&edited, b"a", 64 * 1024).pack_hash, base.pack_hash);
    // A neighbour's content hash moves it.
    let neighbour = base.neighbours[0].id.clone();
    let mut moved = snapshot.clone();
    for entity in &mut moved.entities {
        if entity.id() == &neighbour {
            match entity {
                Entity::Document(d) => d.content_hash = h("moved"),
                Entity::Module(m) => m.content_hash = h("moved"),
                Entity::Area(a) => a.content_hash = h("moved"),
                Entity::Package(p) => p.content_hash = h("moved"),
                Entity::File(f) => f.content_hash = h("moved"),
            }
        }
    }
    assert_ne!(pack(&moved, b"a", 64 * 1024).pack_hash, base.pack_hash);
    let key = cache_key("curate", "agent", "1", "1", &base.pack_hash);
    assert_ne!(key, cache_key("curate", "agent", "1", "2", &base.pack_hash));
    assert_ne!(key, cache_key("review", "agent", "1", "1", &base.pack_hash));
    assert_eq!(key, cache_key("curate", "agent", "1", "1", &base.pack_hash));
}
