//! This repository's own retrieval suite (`bench/suites/doc-bridge.json`) over a copy of its docs
//! and code: ranking changes that lose our own answers fail here.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;

#[test]
fn own_suite_keeps_hit_at_3_above_0_9() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("doc-bridge");
    for entry in [
        "crates",
        "docs",
        "bench",
        "README.md",
        "ARCHITECTURE.md",
        "Cargo.toml",
        "doc-bridge.config.json",
    ] {
        let from = repo.join(entry);
        if from.is_dir() {
            copy_tree(&from, &root.join(entry));
        } else {
            std::fs::copy(&from, root.join(entry)).unwrap();
        }
    }
    index(&root);
    let suite = root.join("bench/suites/doc-bridge.json");
    let out = run(
        &root,
        &[
            "bench",
            "retrieval",
            "--json",
            "--min",
            "0.9",
            suite.to_str().unwrap(),
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(code(&out), 0, "{report:#}");
    assert!(report["mrr"].as_f64().unwrap() > 0.8, "{report:#}");
}
