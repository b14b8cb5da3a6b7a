//! The crate boundary DESIGN.md insists on, checked on `cargo metadata`: nothing on the path of
//! index, check, search, query, render or MCP depends on the crates that enrich or talk to agents.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};

fn workspace_dependencies() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.toml");
    let out = std::process::Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
            "--manifest-path",
        ])
        .arg(manifest)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| d["name"].as_str().unwrap().to_owned())
                .collect();
            (p["name"].as_str().unwrap().to_owned(), deps)
        })
        .collect()
}

/// Every workspace crate reachable from `start` through normal dependencies.
fn reachable(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![start.to_owned()];
    while let Some(name) = stack.pop() {
        if let Some(deps) = graph.get(&name) {
            for dep in deps {
                if graph.contains_key(dep) && seen.insert(dep.clone()) {
                    stack.push(dep.clone());
                }
            }
        }
    }
    seen
}

#[test]
fn indexing_and_ranking_crates_never_reach_enrichment_or_agents() {
    let graph = workspace_dependencies();
    for crate_name in [
        "doc-bridge-model",
        "doc-bridge-store",
        "doc-bridge-markdown",
        "doc-bridge-source",
        "doc-bridge-discover",
        "doc-bridge-retrieve",
        "doc-bridge-check",
    ] {
        assert!(
            graph.contains_key(crate_name),
            "{crate_name} missing from the workspace"
        );
        let reach = reachable(&graph, crate_name);
        let forbidden: Vec<&String> = reach
            .iter()
            .filter(|d| d.contains("enrich") || d.contains("agent"))
            .collect();
        assert!(
            forbidden.is_empty(),
            "{crate_name} depends on {forbidden:?}"
        );
    }
    // And the enrich crate itself stays free of agent transports.
    let enrich = reachable(&graph, "doc-bridge-enrich");
    assert!(!enrich.iter().any(|d| d.contains("agent")), "{enrich:?}");
}

/// `doc-bridge-model` is the ground crate of types, identities and hash definitions: it depends
/// on serde, JSON, hashing and error crates only. No file I/O, thread pools or caches (those
/// are `doc-bridge-store`'s), and no other doc-bridge crate.
#[test]
fn the_model_crate_depends_on_serde_json_and_hashing_only() {
    let graph = workspace_dependencies();
    let allowed = [
        "hex",
        "itoa",
        "memchr",
        "ryu-js",
        "schemars",
        "serde",
        "serde_json",
        "serde_path_to_error",
        "sha2",
        "thiserror",
    ];
    let model = graph.get("doc-bridge-model").unwrap();
    let extra: Vec<&String> = model
        .iter()
        .filter(|d| !allowed.contains(&d.as_str()))
        .collect();
    assert!(extra.is_empty(), "doc-bridge-model depends on {extra:?}");
}

/// The index path in the CLI (building, loading, refreshing and searching the index, the watch
/// loop and the MCP server's state) names nothing of the enrich crate: an accepted overlay
/// reaches the projection through `doc_bridge_retrieve::overlay`, the seam.
#[test]
fn the_cli_index_path_never_names_the_enrich_crate() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<std::path::PathBuf> = [
        "commands/index.rs",
        "commands/search.rs",
        "commands/query.rs",
        "commands/query_forms.rs",
        "publication.rs",
        "last_run.rs",
        "llms.rs",
        "mcp/state.rs",
    ]
    .iter()
    .map(|f| src.join(f))
    .collect();
    for dir in ["pipeline", "watch"] {
        for entry in std::fs::read_dir(src.join(dir)).unwrap() {
            files.push(entry.unwrap().path());
        }
    }
    assert!(files.len() > 12, "{files:?}");
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(
            !text.contains("doc_bridge_enrich"),
            "{} names the enrich crate",
            file.display()
        );
    }
}
