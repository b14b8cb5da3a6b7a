//! `doc-bridge list documents|modules|packages|areas|knowledge`: the entities of one kind from
//! the verified index and its snapshot, sorted, as lines or a JSON array.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;

fn list_json(root: &std::path::Path, kind: &str) -> Vec<serde_json::Value> {
    let out = run(root, &["list", kind, "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn each_kind_lists_one_line_per_entity() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let mut all = String::new();
    for kind in ["documents", "modules", "packages", "areas", "knowledge"] {
        let out = run(dir.path(), &["list", kind]);
        assert_eq!(code(&out), 0, "{kind}: {}", stderr(&out));
        all.push_str(&format!("== {kind}\n{}", stdout(&out)));
    }
    insta::assert_snapshot!("list-ts-workspace", all);
}

#[test]
fn json_lists_the_snapshot_entities_of_the_kind_sorted_by_id() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let snapshot = artifact(dir.path(), "snapshot.json");
    for (kind, entity) in [
        ("documents", "document"),
        ("modules", "module"),
        ("packages", "package"),
        ("areas", "area"),
    ] {
        let listed = list_json(dir.path(), kind);
        let ids: Vec<&str> = listed.iter().map(|e| e["id"].as_str().unwrap()).collect();
        let mut expected: Vec<&str> = snapshot["entities"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["kind"] == entity)
            .map(|e| e["id"].as_str().unwrap())
            .collect();
        expected.sort();
        assert!(!expected.is_empty(), "{kind}");
        assert_eq!(ids, expected, "{kind}");
        assert!(
            listed
                .iter()
                .all(|e| e["kind"] == entity && e["path"].is_string())
        );
    }
    let packages = list_json(dir.path(), "packages");
    let auth = packages
        .iter()
        .find(|p| p["id"] == "package:@fx/auth")
        .unwrap();
    assert_eq!(auth["name"], "@fx/auth");
    assert_eq!(auth["manifest"], "packages/auth/package.json");
}

#[test]
fn knowledge_lists_the_index_entries_as_the_index_holds_them() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let index = artifact(dir.path(), "index.json");
    let mut expected: Vec<serde_json::Value> = index["knowledge"].as_array().unwrap().clone();
    expected.sort_by(|a, b| {
        (a["id"].as_str(), a["path"].as_str()).cmp(&(b["id"].as_str(), b["path"].as_str()))
    });
    let listed = list_json(dir.path(), "knowledge");
    assert_eq!(listed, expected);
    assert!(listed.iter().any(|e| e["type"] == "agent-doc"));
}

#[test]
fn stale_index_refuses_unless_allowed() {
    let dir = fixture_copy("python-package");
    index(dir.path());
    std::fs::write(dir.path().join("docs/new.md"), "# New page\n").unwrap();
    let out = run(dir.path(), &["list", "documents"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("+docs/new.md"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let out = run(
        dir.path(),
        &["list", "documents", "--allow-stale", "--json"],
    );
    assert_eq!(code(&out), 0);
    assert!(stderr(&out).contains("stale"), "{}", stderr(&out));
    // The list is the indexed one: the new page is not in it yet.
    let listed: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!listed.is_empty());
    assert!(listed.iter().all(|e| e["path"] != "docs/new.md"));
}

#[test]
fn missing_index_is_exit_2_naming_the_fix() {
    let dir = fixture_copy("go-module");
    let out = run(dir.path(), &["list", "packages"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("doc-bridge index"),
        "{}",
        stderr(&out)
    );
}
