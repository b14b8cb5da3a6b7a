//! `doc-bridge doctor`: one screen on the index, the configuration, the diagnostics and the
//! agents; exit 0 when nothing needs doing, 1 when something does, 2 on usage or I/O errors;
//! never a write.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::*;

fn doctor_json(root: &Path) -> (i32, serde_json::Value) {
    let out = run(root, &["doctor", "--json"]);
    let value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {} {}", stdout(&out), stderr(&out)));
    (code(&out), value)
}

/// The text with the temporary root and content hashes replaced, for snapshots.
fn stable(text: &str, root: &Path) -> String {
    let root = root.display().to_string();
    let text = text.replace(&root, "[root]");
    let mut out = String::new();
    for word in text.split_inclusive(|c: char| !c.is_ascii_hexdigit()) {
        let hex = word.trim_end_matches(|c: char| !c.is_ascii_hexdigit());
        if hex.len() == 64 {
            out.push_str("[hash]");
            out.push_str(&word[hex.len()..]);
        } else {
            out.push_str(word);
        }
    }
    out
}

#[test]
fn fresh_index_with_warnings_only_is_in_order() {
    let dir = fixture_copy("python-package");
    // One warning: a document nothing links to.
    std::fs::write(dir.path().join("docs/unlinked.md"), "# Unlinked\n").unwrap();
    index(dir.path());
    let out = run(dir.path(), &["doctor"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    insta::assert_snapshot!("doctor-fresh", stable(&stdout(&out), dir.path()));
    let (exit, report) = doctor_json(dir.path());
    assert_eq!(exit, 0);
    assert_eq!(report["ok"], true);
    assert_eq!(report["index"]["status"], "fresh");
    assert_eq!(report["configuration"]["status"], "defaults");
    assert_eq!(report["diagnostics"]["error"], 0);
    assert_eq!(report["diagnostics"]["warning"], 1);
    assert_eq!(report["next"], serde_json::json!([]));
}

#[test]
fn stale_index_is_named_and_nothing_is_written() {
    let dir = fixture_copy("python-package");
    index(dir.path());
    std::fs::write(dir.path().join("docs/index.md"), "# Rewritten\n").unwrap();
    std::fs::write(dir.path().join("docs/new.md"), "# New\n").unwrap();
    let artifacts = dir.path().join(".doc-bridge");
    let before = tree_bytes(&artifacts);

    let out = run(dir.path(), &["doctor"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    insta::assert_snapshot!("doctor-stale", stable(&stdout(&out), dir.path()));
    let (exit, report) = doctor_json(dir.path());
    assert_eq!(exit, 1);
    assert_eq!(report["ok"], false);
    assert_eq!(report["index"]["status"], "stale");
    assert_eq!(
        report["index"]["changes"]["changed"],
        serde_json::json!(["docs/index.md"])
    );
    assert_eq!(
        report["index"]["changes"]["added"],
        serde_json::json!(["docs/new.md"])
    );
    assert_eq!(report["next"][0]["command"], "doc-bridge index");
    // Byte for byte, the stamp cache included: a read that records moved stamps would differ.
    assert_eq!(tree_bytes(&artifacts), before);
    // The case above is one where a read does record them (so the assertion is not vacuous).
    run(dir.path(), &["index", "--check"]);
    assert_ne!(tree_bytes(&artifacts), before);
}

#[test]
fn missing_index_says_to_run_index_and_creates_nothing() {
    let dir = fixture_copy("go-module");
    let out = run(dir.path(), &["doctor"]);
    assert_eq!(code(&out), 1);
    assert!(
        stdout(&out).contains("index:         missing"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("next:          doc-bridge index"));
    let (exit, report) = doctor_json(dir.path());
    assert_eq!(exit, 1);
    assert_eq!(report["index"]["status"], "missing");
    assert_eq!(report["diagnostics"], serde_json::Value::Null);
    assert!(!dir.path().join(".doc-bridge").exists());
}

#[test]
fn corrupt_index_is_a_finding_naming_why() {
    let dir = fixture_copy("go-module");
    index(dir.path());
    let path = dir.path().join(".doc-bridge/index.json");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let (exit, report) = doctor_json(dir.path());
    assert_eq!(exit, 1);
    assert_eq!(report["index"]["status"], "invalid");
    assert!(
        report["index"]["message"]
            .as_str()
            .unwrap()
            .contains("not a valid index"),
        "{report:#}"
    );
}

#[test]
fn error_diagnostics_are_findings_counted_as_check_counts_them() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let (exit, report) = doctor_json(dir.path());
    assert_eq!(exit, 1);
    assert_eq!(report["index"]["status"], "fresh");
    assert_eq!(report["next"][0]["command"], "doc-bridge check");
    let check = run(dir.path(), &["check", "--format", "json"]);
    let check: serde_json::Value = serde_json::from_slice(&check.stdout).unwrap();
    for severity in ["error", "warning", "info"] {
        assert_eq!(
            report["diagnostics"][severity], check["counts"][severity],
            "{severity}"
        );
    }
    assert_eq!(
        report["diagnostics"]["codes"]["broken-link"]["severity"],
        "error"
    );
    // `rules` moves a code's severity, as it does for `check`.
    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "rules": {"broken-link": "info"}}),
    );
    index(dir.path());
    let (exit, report) = doctor_json(dir.path());
    assert_eq!(exit, 0, "{report:#}");
    assert_eq!(
        report["diagnostics"]["codes"]["broken-link"]["severity"],
        "info"
    );
}

#[test]
fn invalid_configuration_is_reported_key_by_key_not_refused() {
    let dir = fixture_copy("go-module");
    index(dir.path());
    std::fs::write(
        dir.path().join("doc-bridge.config.json"),
        r#"{"schemaVersion": 1, "safety": {"maxFileBytes": "big"}, "analysis": {"areas": {"depth": 0}}}"#,
    )
    .unwrap();
    let out = run(dir.path(), &["doctor"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("invalid, 2 errors"), "{text}");
    assert!(text.contains("safety.maxFileBytes") && text.contains("analysis.areas.depth"));
    let (_, report) = doctor_json(dir.path());
    let keys: Vec<&str> = report["configuration"]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["analysis.areas.depth", "safety.maxFileBytes"]);
    // Freshness against a configuration no command accepts means nothing.
    assert_eq!(report["index"]["status"], "unchecked");
    assert_eq!(report["next"][0]["command"], "doc-bridge validate-config");
}

#[test]
fn configured_roles_are_listed_and_no_agent_is_started() {
    let dir = fixture_copy("go-module");
    let marker = dir.path().join("agent-ran");
    let agent =
        serde_json::json!({"command": "sh", "args": ["-c", format!("touch {}", marker.display())]});
    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "intelligence": {"registry": {
            "agentId": "curator-bot", "cli": agent,
            "roles": {"reviewer": false, "adjudicator": {"agentId": "judge-bot", "http": {"baseUrl": "http://127.0.0.1:9", "model": "m"}}}
        }}}),
    );
    index(dir.path());
    let out = run(dir.path(), &["doctor"]);
    assert!(
        stdout(&out).contains(
            "agents:        curator curator-bot (cli), reviewer off, adjudicator judge-bot (http)"
        ),
        "{}",
        stdout(&out)
    );
    let (_, report) = doctor_json(dir.path());
    assert_eq!(report["agents"]["status"], "configured");
    assert_eq!(
        report["agents"]["roles"]["curator"]["agentId"],
        "curator-bot"
    );
    assert_eq!(
        report["agents"]["roles"]["reviewer"],
        serde_json::Value::Null
    );
    assert_eq!(
        report["agents"]["roles"]["adjudicator"]["transport"],
        "http"
    );
    assert!(!marker.exists(), "doctor started the agent");
    // An adjudicator sharing the curator's identity is what `enrich` refuses: a finding.
    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "intelligence": {"registry": {
            "agentId": "bot", "cli": agent, "roles": {"adjudicator": true}
        }}}),
    );
    let (exit, report) = doctor_json(dir.path());
    assert_eq!(exit, 1);
    assert_eq!(report["agents"]["status"], "invalid");
    assert_eq!(
        report["agents"]["error"]["key"],
        "intelligence.registry.roles"
    );
}

#[test]
fn an_unusable_root_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&dir.path().join("nowhere"), &["doctor"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("cannot open repository root"));
}

/// doctor reads the agents as configuration only: neither it nor what it reads them with may
/// name the agent crate or the stage that builds agents (the compiler cannot check this inside
/// one crate, so the source is read).
#[test]
fn doctor_never_reaches_an_agent() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for file in [
        "commands/doctor.rs",
        "agent_config.rs",
        "commands/validate_config.rs",
    ] {
        let text = std::fs::read_to_string(src.join(file)).unwrap();
        for forbidden in ["doc_bridge_agents", "agent_stage::", "run_stage"] {
            assert!(!text.contains(forbidden), "{file} names {forbidden}");
        }
    }
}
