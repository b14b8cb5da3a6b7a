//! The query image (`.doc-bridge/cache/query.bin`): every lookup the handoff code makes answers
//! from it exactly as from the snapshot in memory, and `query` answers the same with it, without
//! it, and with it damaged (when it rebuilds it).
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::*;
use doc_bridge_model::index::DocBridgeIndexV1;
use doc_bridge_model::snapshot::{Entity, Snapshot};
use doc_bridge_model::{EntityId, RelPath};
use doc_bridge_retrieve::collection::Storage;
use doc_bridge_retrieve::graph::Graph;
use doc_bridge_retrieve::query::{entity_handoff, resolve};
use doc_bridge_retrieve::query_image::QueryImage;

const IMAGE: &str = ".doc-bridge/cache/query.bin";

fn read<T: serde::de::DeserializeOwned>(root: &Path, name: &str) -> T {
    serde_json::from_slice(&artifact_bytes(root, name)).unwrap()
}

fn open_image(root: &Path) -> QueryImage {
    let (snapshot, _) = QueryImage::map_snapshot(&root.join(".doc-bridge/snapshot.json")).unwrap();
    QueryImage::open(&root.join(IMAGE), snapshot).expect("the image `index` wrote opens")
}

/// Every directory that holds an entity or a file, the root included.
fn directories(snapshot: &Snapshot) -> BTreeSet<RelPath> {
    let mut dirs = BTreeSet::from([RelPath::root()]);
    let paths = snapshot
        .entities
        .iter()
        .map(|e| e.path().clone())
        .chain(snapshot.files.iter().map(|f| f.path.clone()));
    for path in paths {
        let mut dir = path.parent();
        while !dir.is_root() {
            dirs.insert(dir.clone());
            dir = dir.parent();
        }
        dirs.insert(path);
    }
    dirs
}

#[test]
fn every_lookup_answers_from_the_image_as_from_the_snapshot() {
    for fixture in [
        "docs-site",
        "python-package",
        "ts-workspace",
        "rust-workspace",
        "gradle-project",
        "ruby-gem",
        "site-links",
    ] {
        let dir = fixture_copy(fixture);
        index(dir.path());
        let snapshot: Snapshot = read(dir.path(), "snapshot.json");
        let index: DocBridgeIndexV1 = read(dir.path(), "index.json");
        let image = open_image(dir.path());
        let memory = Graph::new(&snapshot);
        let mapped = Graph::from_image(&image);
        let config = doc_bridge_model::config::Config::default();
        let agent_root = RelPath::new("docs");
        assert!(!snapshot.entities.is_empty(), "{fixture}");

        let mut texts: BTreeSet<String> = BTreeSet::from(["no-such-thing".to_owned()]);
        for entity in &snapshot.entities {
            let id = entity.id();
            assert_eq!(mapped.entity(id), memory.entity(id), "{fixture}: {id}");
            assert_eq!(mapped.inbound(id), memory.inbound(id), "{fixture}: {id}");
            assert_eq!(mapped.outbound(id), memory.outbound(id), "{fixture}: {id}");
            let handoff = |graph: &Graph<'_>| {
                serde_json::to_value(entity_handoff(graph, &config, agent_root.as_ref(), id))
                    .unwrap()
            };
            assert_eq!(handoff(&mapped), handoff(&memory), "{fixture}: {id}");
            texts.insert(id.to_string());
            texts.insert(entity.path().to_string());
            texts.insert(entity.path().file_name().to_owned());
            texts.insert(entity.path().file_stem().to_uppercase());
            if let Entity::Package(p) = entity {
                texts.insert(p.name.clone());
            }
        }
        for entry in &index.projection.entries {
            texts.extend(entry.aliases.iter().cloned());
        }
        for text in &texts {
            assert_eq!(
                resolve(&mapped, &image, text),
                resolve(&memory, &index.projection, text),
                "{fixture}: resolving `{text}`"
            );
        }
        // Relation endpoints that are no entity still have their relations.
        for relation in &snapshot.relations {
            assert_eq!(mapped.inbound(&relation.to), memory.inbound(&relation.to));
        }
        for dir in directories(&snapshot) {
            assert_eq!(
                mapped.documents_within(&dir),
                memory.documents_within(&dir),
                "{fixture}: {dir}"
            );
            let ids = |graph: &Graph<'_>| -> BTreeSet<EntityId> {
                graph.within(&dir).iter().map(|e| e.id().clone()).collect()
            };
            assert_eq!(ids(&mapped), ids(&memory), "{fixture}: within {dir}");
            assert_eq!(
                mapped.at_path(&dir),
                memory.at_path(&dir),
                "{fixture}: {dir}"
            );
            assert_eq!(
                mapped.has_files_below(&dir),
                memory.has_files_below(&dir),
                "{fixture}: {dir}"
            );
            assert_eq!(mapped.has_file(dir.as_str()), memory.has_file(dir.as_str()));
        }
        let packages = |graph: &Graph<'_>| graph.packages().cloned().collect::<Vec<_>>();
        assert_eq!(packages(&mapped), packages(&memory), "{fixture}");
        let owners: BTreeSet<&str> = snapshot
            .entities
            .iter()
            .filter_map(|e| match e {
                Entity::Document(d) => d.owner.as_deref(),
                _ => None,
            })
            .chain(["nobody"])
            .collect();
        for owner in owners {
            assert_eq!(
                mapped.agent_docs_owned_by(owner),
                memory.agent_docs_owned_by(owner),
                "{fixture}: {owner}"
            );
        }
    }
}

/// Whether `query ID` parsed `snapshot.json` (its timings say so).
fn reads_the_json(root: &Path, id: &str) -> bool {
    let out = doc_bridge()
        .current_dir(root)
        .env("DOC_BRIDGE_TIMINGS", "1")
        .args(["query", id])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    stderr(&out).contains("timing read snapshot:")
}

/// Every entity's `query --json`, in id order.
fn answers(root: &Path, ids: &[String]) -> Vec<String> {
    ids.iter()
        .map(|id| {
            let out = run(root, &["query", "--json", id]);
            assert_eq!(code(&out), 0, "{id}: {}", stderr(&out));
            stdout(&out)
        })
        .collect()
}

#[test]
fn query_answers_alike_from_the_image_the_json_and_a_damaged_image() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let snapshot: Snapshot = read(dir.path(), "snapshot.json");
    let ids: Vec<String> = snapshot
        .entities
        .iter()
        .map(|e| e.id().to_string())
        .collect();
    let image = dir.path().join(IMAGE);
    let written = std::fs::read(&image).unwrap();
    let from_image = answers(dir.path(), &ids);
    assert!(!reads_the_json(dir.path(), &ids[0]), "the image answers");

    // Without the image `query` reads the JSON, and writes the image again (the same bytes:
    // it is a function of the artifacts and their stamps).
    std::fs::remove_file(&image).unwrap();
    assert!(reads_the_json(dir.path(), &ids[0]));
    assert_eq!(std::fs::read(&image).unwrap(), written);
    assert_eq!(answers(dir.path(), &ids), from_image);

    // A flipped byte anywhere, or a cut: not used, and replaced.
    for damage in [written.len() / 2, 3, written.len() - 1] {
        let mut bytes = written.clone();
        bytes[damage] ^= 0x20;
        std::fs::write(&image, &bytes).unwrap();
        assert!(QueryImage::from_bytes(bytes, Storage::Owned(Vec::new())).is_none());
        assert_eq!(answers(dir.path(), &ids[..1]), from_image[..1]);
        assert_eq!(std::fs::read(&image).unwrap(), written, "byte {damage}");
    }
    std::fs::write(&image, &written[..written.len() / 3]).unwrap();
    assert_eq!(answers(dir.path(), &ids), from_image);
}

#[test]
fn an_image_made_for_other_files_is_not_used() {
    let dir = fixture_copy("python-package");
    index(dir.path());
    let image = dir.path().join(IMAGE);
    let first = std::fs::read(&image).unwrap();
    // An edit: the index is stale, and `query` says so rather than answer from the image.
    std::fs::write(dir.path().join("README.md"), "# Rewritten\n").unwrap();
    let out = run(dir.path(), &["query", "README.md"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    assert!(stderr(&out).contains("stale"), "{}", stderr(&out));
    // Re-indexed: a new image, for the new artifacts.
    index(dir.path());
    assert_ne!(std::fs::read(&image).unwrap(), first);
    // A snapshot replaced behind the index's back (same content, new file): the image names
    // the old file's stamp, so `query` reads the JSON, which still answers.
    let snapshot = dir.path().join(".doc-bridge/snapshot.json");
    let bytes = std::fs::read(&snapshot).unwrap();
    std::fs::remove_file(&snapshot).unwrap();
    std::fs::write(&snapshot, &bytes).unwrap();
    let out = run(dir.path(), &["query", "--json", "README.md"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).contains("\"startHere\""));
}

#[test]
fn an_unknown_target_gets_its_closest_matches_without_parsing_the_artifacts() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let ask = |root: &Path| {
        let out = doc_bridge()
            .current_dir(root)
            .env("DOC_BRIDGE_TIMINGS", "1")
            .args(["query", "--json", "sesion"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        (stdout(&out), stderr(&out).contains("timing read snapshot:"))
    };
    let (from_image, parsed) = ask(dir.path());
    assert!(!parsed, "answered from the image and the search cache");
    let value: serde_json::Value = serde_json::from_str(&from_image).unwrap();
    assert!(!value["closest"].as_array().unwrap().is_empty(), "{value}");
    std::fs::remove_file(dir.path().join(IMAGE)).unwrap();
    let (from_json, parsed) = ask(dir.path());
    assert!(parsed);
    assert_eq!(from_image, from_json);
}
