//! Command-line behaviour: help, usage errors, schema, init.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;

#[test]
fn usage_error_exits_two() {
    let out = doc_bridge()
        .args(["index", "--no-such-flag"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    let out = doc_bridge().args(["frobnicate"]).output().unwrap();
    assert_eq!(code(&out), 2);
}

#[test]
fn help_lists_every_command() {
    let out = doc_bridge().arg("--help").output().unwrap();
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    for command in ["index", "scan", "schema", "init"] {
        assert!(text.contains(command), "{command} missing from help");
    }
}

#[test]
fn missing_root_is_an_io_error() {
    let out = doc_bridge()
        .args(["index", "--root", "/definitely/not/here"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("cannot open repository root"));
}

#[test]
fn schema_prints_json_schema_for_each_artifact() {
    for name in ["index", "snapshot", "config", "proposal", "overlay"] {
        let out = doc_bridge().args(["schema", name]).output().unwrap();
        assert_eq!(code(&out), 0);
        let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
    }
}

#[test]
fn init_writes_a_valid_config_once_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let first = run(dir.path(), &["init"]);
    assert_eq!(code(&first), 0);
    let written = std::fs::read(dir.path().join("doc-bridge.config.json")).unwrap();
    doc_bridge_model::config::Config::parse(&written, "doc-bridge.config.json").unwrap();
    std::fs::write(
        dir.path().join("doc-bridge.config.json"),
        b"{\"schemaVersion\": 1}",
    )
    .unwrap();
    let second = run(dir.path(), &["init"]);
    assert_eq!(code(&second), 1);
    assert_eq!(
        std::fs::read(dir.path().join("doc-bridge.config.json")).unwrap(),
        b"{\"schemaVersion\": 1}"
    );
}

#[test]
fn index_json_output_reports_counts_and_hash() {
    let dir = fixture_copy("ts-workspace");
    let out = run(dir.path(), &["index", "--json"]);
    assert_eq!(code(&out), 0);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["entities"]["package"], 3);
    assert_eq!(report["entities"]["document"], 5);
    assert_eq!(
        report["indexHash"],
        artifact(dir.path(), "index.json")["contentHash"]
    );
    insta::assert_json_snapshot!("index-json-output", report);
}
