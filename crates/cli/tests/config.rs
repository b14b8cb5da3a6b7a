//! `doc-bridge validate-config` and `--config FILE`: every configuration error by key; the
//! configuration file chosen explicitly, its directory the repository root.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::*;

fn validate(root: &Path) -> (i32, serde_json::Value, String) {
    let text = run(root, &["validate-config"]);
    let json = run(root, &["validate-config", "--json"]);
    assert_eq!(code(&text), code(&json));
    let value = serde_json::from_slice(&json.stdout)
        .unwrap_or_else(|e| panic!("{e}: {} {}", stdout(&json), stderr(&json)));
    (code(&json), value, stdout(&text))
}

#[test]
fn no_config_file_means_the_defaults() {
    let dir = fixture_copy("go-module");
    let (exit, report, text) = validate(dir.path());
    assert_eq!(exit, 0);
    assert_eq!(report["status"], "defaults");
    assert!(text.contains("the defaults apply"), "{text}");
}

#[test]
fn a_valid_file_is_valid() {
    let dir = fixture_copy("go-module");
    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "rules": {"orphan-document": "off"}}),
    );
    let (exit, report, _) = validate(dir.path());
    assert_eq!(exit, 0);
    assert_eq!(report["status"], "valid");
    assert_eq!(report["errors"], serde_json::json!([]));
}

#[test]
fn every_wrong_key_is_named_not_only_the_first() {
    let dir = fixture_copy("go-module");
    std::fs::write(
        dir.path().join("doc-bridge.config.json"),
        r#"{
  "schemaVersion": 1,
  "safety": {"exlude": ["vendor/"], "maxFileBytes": "big", "exclude": ["docs/{a,b"]},
  "routing": {"options": {"intents": [{"phrase": 7, "target": "x"}, {"phrase": "p", "target": "y", "to": 1}]}},
  "rules": {"broken-lnk": "off"},
  "intelligence": {"registry": {"agentId": "a", "cli": {"command": "x"}, "roles": {"critic": true}}}
}"#,
    )
    .unwrap();
    let (exit, report, text) = validate(dir.path());
    assert_eq!(exit, 1, "{report:#}");
    assert_eq!(report["status"], "invalid");
    let keys: Vec<&str> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "intelligence.registry.roles",
            "routing.options.intents[0].phrase",
            "routing.options.intents[1].to",
            "rules.broken-lnk",
            "safety.exclude[0]",
            "safety.exlude",
            "safety.maxFileBytes",
        ]
    );
    assert!(text.contains("is invalid: 7 errors"), "{text}");
    for key in keys {
        assert!(text.contains(&format!("  {key}: ")), "{key}: {text}");
    }
    // Every other command stops at the first, and says where the rest are.
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("doc-bridge validate-config"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_agent_error_alone_stops_enrich_only() {
    let dir = fixture_copy("go-module");
    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "a"}}}),
    );
    let (exit, report, text) = validate(dir.path());
    assert_eq!(exit, 1);
    assert_eq!(report["errors"][0]["key"], "intelligence.registry");
    assert!(text.contains("`enrich` refuses"), "{text}");
    // Indexing does not read the agents.
    assert_eq!(code(&run(dir.path(), &["index", "--quiet"])), 0);
}

#[test]
fn an_unreadable_config_file_is_exit_2() {
    let dir = fixture_copy("go-module");
    std::fs::create_dir(dir.path().join("doc-bridge.config.json")).unwrap();
    let out = run(dir.path(), &["validate-config"]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
    assert!(stderr(&out).contains("cannot read"), "{}", stderr(&out));
}

/// `doc-bridge <args>` run from `cwd`, without `--root`.
fn run_in(cwd: &Path, args: &[&str]) -> std::process::Output {
    doc_bridge().current_dir(cwd).args(args).output().unwrap()
}

#[test]
fn config_option_chooses_the_root_and_the_file() {
    let dir = fixture_copy("ts-workspace");
    let elsewhere = tempfile::tempdir().unwrap();
    // Another name than the default, which excludes the documentation.
    let config = dir.path().join("ci.config.json");
    std::fs::write(
        &config,
        r#"{"schemaVersion": 1, "safety": {"exclude": ["docs/"]}}"#,
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let out = run_in(elsewhere.path(), &["index", "--quiet", "--config", config]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(dir.path().join(".doc-bridge/index.json").exists());
    assert!(!elsewhere.path().join(".doc-bridge").exists());
    let out = run_in(elsewhere.path(), &["list", "documents", "--config", config]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "document:AGENTS.md  AGENTS.md  Agent guide\n");
    // Without it, the default (absent) configuration applies: another configuration hash, so
    // the same index is stale.
    let out = run(dir.path(), &["list", "documents"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    // The same directory given both ways is fine; two different ones are not.
    let root = dir.path().to_str().unwrap();
    let out = run_in(
        elsewhere.path(),
        &["doctor", "--config", config, "--root", root],
    );
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    assert!(
        stdout(&out).contains("ci.config.json: valid"),
        "{}",
        stdout(&out)
    );
    let other = elsewhere.path().to_str().unwrap();
    let out = run_in(
        elsewhere.path(),
        &["doctor", "--config", config, "--root", other],
    );
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--root names"), "{}", stderr(&out));
}

#[test]
fn a_missing_config_file_given_explicitly_is_exit_2() {
    let dir = fixture_copy("go-module");
    let missing = dir.path().join("nope.json");
    let out = run_in(
        dir.path(),
        &["doctor", "--config", missing.to_str().unwrap()],
    );
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("nope.json") && stderr(&out).contains("no such file"),
        "{}",
        stderr(&out)
    );
    // `init` writes the file it is given.
    let out = run_in(dir.path(), &["init", "--config", missing.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(missing.exists());
    let out = run_in(dir.path(), &["validate-config", "--config", "nope.json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("nope.json is valid"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn numeric_agent_settings_out_of_range_are_named_by_key_everywhere() {
    let dir = fixture_copy("go-module");
    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "intelligence": {"registry": {
            "agentId": "a", "maxPackBytes": 10, "batchSize": 0,
            "captureFailedAnswers": {"maxBytes": 1000000},
            "http": {"baseUrl": "http://127.0.0.1:9/v1", "model": "m", "attempts": 0,
                "backoffMs": 600000, "concurrency": 65, "timeoutMs": 0},
            "roles": {"reviewer": {"agentId": "b", "cli": {"command": "x", "timeoutMs": 0, "maxOutputBytes": 0}}}}}}),
    );
    let (exit, report, text) = validate(dir.path());
    assert_eq!(exit, 1, "{report:#}");
    let errors: Vec<(&str, &str)> = report["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["key"].as_str().unwrap(), e["message"].as_str().unwrap()))
        .collect();
    assert_eq!(
        errors,
        [
            ("intelligence.registry.batchSize", "must be 1..=64, got 0"),
            (
                "intelligence.registry.captureFailedAnswers.maxBytes",
                "must be 1..=65536, got 1000000"
            ),
            (
                "intelligence.registry.http.attempts",
                "must be 1..=10, got 0"
            ),
            (
                "intelligence.registry.http.backoffMs",
                "must be 0..=60000, got 600000"
            ),
            (
                "intelligence.registry.http.concurrency",
                "must be 1..=64, got 65"
            ),
            (
                "intelligence.registry.http.timeoutMs",
                "must be 1..=3600000, got 0"
            ),
            (
                "intelligence.registry.maxPackBytes",
                "must be 1024..=1048576, got 10"
            ),
            (
                "intelligence.registry.roles.reviewer.cli.maxOutputBytes",
                "must be 1..=67108864, got 0"
            ),
            (
                "intelligence.registry.roles.reviewer.cli.timeoutMs",
                "must be 1..=3600000, got 0"
            ),
        ]
    );
    assert!(
        text.contains("  intelligence.registry.http.attempts: must be 1..=10, got 0"),
        "{text}"
    );
    // `enrich` refuses before anything runs, naming the first key; `doctor` shows it too.
    let out = run(dir.path(), &["enrich"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("intelligence.registry.batchSize: must be 1..=64, got 0"),
        "{}",
        stderr(&out)
    );
    let out = run(dir.path(), &["doctor", "--json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let doctor: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doctor["agents"]["status"], "invalid", "{doctor:#}");
    assert_eq!(
        doctor["agents"]["error"]["key"],
        "intelligence.registry.batchSize"
    );

    // At the edges of the ranges, the file is valid.
    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "intelligence": {"registry": {
            "agentId": "a", "maxPackBytes": 1024, "batchSize": 64,
            "http": {"baseUrl": "http://127.0.0.1:9/v1", "model": "m", "attempts": 10,
                "backoffMs": 0, "concurrency": 1, "timeoutMs": 3600000}}}}),
    );
    let (exit, report, _) = validate(dir.path());
    assert_eq!(exit, 0, "{report:#}");
}
