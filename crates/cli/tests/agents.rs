//! The enrich stage with real child processes: the reference agent end to end, the cache (zero
//! calls on an unchanged repository), and untrusted agents that fail in every way.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use serde_json::{Value, json};

fn configure(dir: &FixtureCopy, cli: Value) {
    let config = json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "reference-agent", "agentVersion": "1", "promptVersion": "1", "cli": cli}}});
    std::fs::write(
        dir.path().join("doc-bridge.config.json"),
        serde_json::to_vec(&config).unwrap(),
    )
    .unwrap();
    index(dir.path());
}

fn enrich(dir: &FixtureCopy) -> Value {
    let out = run(dir.path(), &["enrich", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn reference_agent_runs_the_whole_loop_and_the_cache_saves_every_call_on_an_unchanged_repository() {
    let dir = fixture_copy("ts-workspace");
    configure(
        &dir,
        json!({"command": env!("CARGO_BIN_EXE_doc-bridge-reference-agent")}),
    );
    let first = enrich(&dir);
    let packs = first["stage"]["packs"].as_u64().unwrap();
    assert_eq!(packs, 5, "{first:#}");
    assert_eq!(first["stage"]["agentCalls"], packs);
    assert!(first["accepted"].as_u64().unwrap() >= 5, "{first:#}");
    assert_eq!(first["stage"]["failures"], json!([]));

    // Unchanged repository: zero agent calls, every pack from the cache, nothing new decided.
    let second = enrich(&dir);
    assert_eq!(second["stage"]["agentCalls"], 0, "{second:#}");
    assert_eq!(second["stage"]["cacheHits"], packs);
    assert_eq!(second["accepted"], 0);

    // One document changes: only the packs whose hash moved run again.
    std::fs::write(
        dir.path().join("docs/core.md"),
        "# Core utilities\n\n## Logging\n\nThe logger writes lines.\n",
    )
    .unwrap();
    index(dir.path());
    let third = enrich(&dir);
    let calls = third["stage"]["agentCalls"].as_u64().unwrap();
    assert!(calls >= 1 && calls < packs, "{third:#}");

    // Intents the agent proposed are searchable.
    let intents = artifact(dir.path(), "index.json")["projection"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "intent" && e["provenance"] == "proposed")
        .count();
    assert!(intents > 0);
}

#[test]
fn failing_agents_are_recorded_with_value_free_reasons_and_lose_nothing() {
    let dir = fixture_copy("go-module");
    configure(
        &dir,
        json!({"command": env!("CARGO_BIN_EXE_doc-bridge-reference-agent")}),
    );
    let good = enrich(&dir);
    assert!(good["accepted"].as_u64().unwrap() > 0);
    let overlay_before: Value = serde_json::from_slice(
        &std::fs::read(dir.path().join(".doc-bridge/enrich/overlay.json")).unwrap(),
    )
    .unwrap();
    // Change the prompt version so nothing comes from the cache, then break the agent.
    let cases = [
        (
            json!({"command": "sh", "args": ["-c", "cat >/dev/null; echo 'secret sk-live1234567890abcdefghij' >&2; exit 3"]}),
            "exit 3",
        ),
        (
            json!({"command": "sh", "args": ["-c", "sleep 20"], "timeoutMs": 300}),
            "timeout",
        ),
        (
            json!({"command": "sh", "args": ["-c", "cat >/dev/null; echo not json"]}),
            "invalid JSON",
        ),
        (
            json!({"command": "sh", "args": ["-c", "cat >/dev/null; head -c 3000000 /dev/zero"], "maxOutputBytes": 100000}),
            "output too large",
        ),
        (json!({"command": "/definitely/not/a/program"}), "spawn"),
    ];
    for (cli, reason) in cases {
        let config = json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "reference-agent", "promptVersion": "2", "cli": cli}}});
        std::fs::write(
            dir.path().join("doc-bridge.config.json"),
            serde_json::to_vec(&config).unwrap(),
        )
        .unwrap();
        index(dir.path());
        let report = enrich(&dir);
        let failures = report["stage"]["failures"].as_array().unwrap();
        assert_eq!(
            failures.len() as u64,
            report["stage"]["packs"].as_u64().unwrap(),
            "{reason}: {report:#}"
        );
        assert!(
            failures.iter().all(|f| f["reason"] == reason),
            "{reason}: {report:#}"
        );
        let text =
            std::fs::read_to_string(dir.path().join(".doc-bridge/enrich/overlay.json")).unwrap();
        assert!(!text.contains("sk-live"));
        let overlay: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            overlay["accepted"], overlay_before["accepted"],
            "{reason}: decisions were lost"
        );
    }
}

#[test]
fn enrich_without_a_configured_agent_is_a_usage_error() {
    let dir = fixture_copy("go-module");
    index(dir.path());
    let out = run(dir.path(), &["enrich"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("intelligence.registry"),
        "{}",
        stderr(&out)
    );
}
