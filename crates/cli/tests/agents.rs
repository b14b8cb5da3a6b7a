//! The enrich stage with real child processes: the reference agent end to end, the cache (zero
//! calls on an unchanged repository), and untrusted agents that fail in every way.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use serde_json::{Value, json};

fn configure(dir: &FixtureCopy, cli: Value) {
    let config = json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "reference-agent", "agentVersion": "1", "promptVersion": "1", "cli": cli}}});
    write_config(dir.path(), &config);
    index(dir.path());
}

fn enrich(dir: &FixtureCopy) -> Value {
    let out = run(dir.path(), &["enrich", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `enrich --json` with an agent that never answers: exit 2, the summary still printed.
fn enrich_failing(dir: &FixtureCopy) -> Value {
    let out = run(dir.path(), &["enrich", "--json"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("every agent call failed"),
        "{}",
        stderr(&out)
    );
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
    // Every pack asked (batched by area: fewer calls than packs), none from the cache.
    assert_eq!(first["stage"]["cacheHits"], 0);
    let calls = first["stage"]["agentCalls"].as_u64().unwrap();
    assert!(calls >= 1 && calls <= packs, "{first:#}");
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
    let hits = third["stage"]["cacheHits"].as_u64().unwrap();
    assert!(calls >= 1, "{third:#}");
    assert!(hits >= 1 && hits < packs, "{third:#}");
    assert_eq!(third["stage"]["reRun"].as_u64().unwrap(), packs - hits);

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
        write_config(dir.path(), &config);
        index(dir.path());
        // No agent answered: exit 2 naming the reason, and the summary still printed.
        let out = run(dir.path(), &["enrich", "--json"]);
        assert_eq!(code(&out), 2, "{reason}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!("every agent call failed ({reason} ×")),
            "{reason}: {}",
            stderr(&out)
        );
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
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

/// A loopback chat-completions server answering `{"proposals": []}`; records request bodies.
fn empty_answers(count: usize) -> (String, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = seen.clone();
    std::thread::spawn(move || {
        for _ in 0..count {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            record
                .lock()
                .unwrap()
                .push(String::from_utf8_lossy(&body).into_owned());
            let reply = json!({"model": "tiny", "choices": [{"finish_reason": "stop", "message": {"content": "{\"proposals\": []}"}}]}).to_string();
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                reply.len()
            );
        }
    });
    (url, seen)
}

#[test]
fn http_agent_gets_redacted_packs_and_planted_secrets_never_reach_a_request() {
    let dir = fixture_copy("go-module");
    std::fs::write(
        dir.path().join("docs/architecture.md"),
        "# gofx architecture\n\nDeploy key AKIAABCDEFGHIJKLMNOP for the store.\n",
    )
    .unwrap();
    let (url, seen) = empty_answers(8);
    let config = json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "local-model", "http": {"baseUrl": url, "model": "tiny", "timeoutMs": 5000}}}});
    write_config(dir.path(), &config);
    index(dir.path());
    let report = enrich(&dir);
    let calls = report["stage"]["agentCalls"].as_u64().unwrap();
    assert!(calls >= 1, "{report:#}");
    assert_eq!(report["stage"]["failures"], json!([]));
    let bodies = seen.lock().unwrap().clone();
    assert_eq!(bodies.len() as u64, calls);
    assert!(bodies.iter().any(|b| b.contains("gofx architecture")));
    for body in &bodies {
        assert!(
            !body.contains("AKIAABCDEFGHIJKLMNOP"),
            "a secret reached the endpoint"
        );
    }
    for entry in std::fs::read_dir(dir.path().join(".doc-bridge/enrich/cache")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!text.contains("AKIAABCDEFGHIJKLMNOP"));
    }
}

#[test]
fn peoples_judgments_become_bounded_examples_until_their_target_changes() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    // A judgment: Ada approves a canonical marker on docs/auth.md.
    let snapshot = artifact(dir.path(), "snapshot.json");
    let target = snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "document:docs/auth.md")
        .unwrap()["contentHash"]
        .as_str()
        .unwrap()
        .to_owned();
    let id = doc_bridge_model::enrichment::proposal_id(
        doc_bridge_model::enrichment::ProposalKind::MarkCanonical,
        &doc_bridge_model::EntityId::from_raw("document:docs/auth.md"),
        &target,
        "test-agent",
        "1",
        Value::Null,
    );
    let proposal = json!({"proposalId": id, "kind": "mark-canonical", "entity": "document:docs/auth.md", "targetContentHash": target,
        "confidence": 0.9, "reason": "the auth guide", "evidence": [{"source": "snapshot", "path": "docs/auth.md", "lines": [1, 1]}],
        "relatedDiagnosticIds": [], "origin": {"agentId": "test-agent", "agentVersion": "1", "promptVersion": "1"},
        "baseSnapshotHash": snapshot["contentHash"], "payload": {"scope": "package:@fx/auth"}});
    let file = dir.path().join(".doc-bridge/p.json");
    std::fs::write(&file, serde_json::to_vec(&json!([proposal])).unwrap()).unwrap();
    assert_eq!(
        code(&run(
            dir.path(),
            &["enrich", "--from-file", file.to_str().unwrap()]
        )),
        0
    );
    assert_eq!(
        code(&run(dir.path(), &["enrich", "approve", &id, "--by", "Ada"])),
        0
    );

    // An agent that records its requests.
    let recorder = |prompt: &str| {
        let config = json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "recorder", "promptVersion": prompt,
            "cli": {"command": "sh", "args": ["-c", "cat >> .doc-bridge/requests.jsonl; echo >> .doc-bridge/requests.jsonl; echo '{\"proposals\": []}'"]}}}});
        write_config(dir.path(), &config);
        let _ = std::fs::remove_file(dir.path().join(".doc-bridge/requests.jsonl"));
        index(dir.path());
        assert_eq!(code(&run(dir.path(), &["enrich"])), 0);
        std::fs::read_to_string(dir.path().join(".doc-bridge/requests.jsonl"))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .collect::<Vec<_>>()
    };
    let requests = recorder("1");
    let offered: Vec<&Value> = requests
        .iter()
        .flat_map(|r| r["examples"].as_array().unwrap().iter())
        .collect();
    assert!(
        offered
            .iter()
            .any(|e| e["entity"] == "document:docs/auth.md" && e["decision"] == "approved"),
        "{offered:?}"
    );
    assert!(
        requests
            .iter()
            .all(|r| r["examples"].as_array().unwrap().len()
                <= doc_bridge_enrich::feedback::MAX_EXAMPLES)
    );
    assert!(
        requests
            .iter()
            .all(|r| r["examples"].to_string().len()
                <= doc_bridge_enrich::feedback::MAX_EXAMPLE_BYTES)
    );

    // The target changes: the judgment is no longer offered.
    std::fs::write(
        dir.path().join("docs/auth.md"),
        "# Authentication\n\nSign-in moved to a new service.\n",
    )
    .unwrap();
    let requests = recorder("2");
    assert!(
        requests
            .iter()
            .all(|r| r["examples"].as_array().unwrap().is_empty()),
        "{requests:?}"
    );
}

#[test]
fn failed_answers_are_kept_only_when_configured_redacted_and_capped() {
    let dir = fixture_copy("go-module");
    let noisy = json!({"command": "sh", "args": ["-c", "cat >/dev/null; echo 'no JSON here, key sk-live1234567890abcdefghij and a long tail of words after it'"]});
    let failed = dir.path().join(".doc-bridge/enrich/failed");

    // Off by default: nothing kept.
    configure(&dir, noisy.clone());
    let report = enrich_failing(&dir);
    assert!(!report["stage"]["failures"].as_array().unwrap().is_empty());
    assert_eq!(report["stage"]["captured"], 0);
    assert!(!failed.exists());

    // Configured: one file per failed pack, redacted before being cut to 48 bytes.
    let config = json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "noisy", "cli": noisy,
        "captureFailedAnswers": {"maxBytes": 48}}}});
    write_config(dir.path(), &config);
    index(dir.path());
    let report = enrich_failing(&dir);
    // One capture per failed call (a call may carry several packs of one area).
    let calls = report["stage"]["agentCalls"].as_u64().unwrap();
    assert_eq!(report["stage"]["captured"].as_u64().unwrap(), calls);
    let files: Vec<_> = std::fs::read_dir(&failed).unwrap().flatten().collect();
    assert_eq!(files.len() as u64, calls);
    for file in files {
        let text = std::fs::read_to_string(file.path()).unwrap();
        assert!(text.len() <= 48, "{text}");
        assert!(text.starts_with("no JSON here, key "), "{text}");
        assert!(!text.contains("sk-live"), "{text}");
    }
    // Captures are outside the decisions: the overlay never mentions them.
    let overlay =
        std::fs::read_to_string(dir.path().join(".doc-bridge/enrich/overlay.json")).unwrap();
    assert!(!overlay.contains("no JSON here"));
}

#[test]
fn packs_batched_by_area_decide_the_same_and_cache_per_pack() {
    let decide = |batch: usize| {
        let dir = fixture_copy("ts-workspace");
        let config = json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "reference-agent",
            "batchSize": batch, "cli": {"command": env!("CARGO_BIN_EXE_doc-bridge-reference-agent")}}}});
        write_config(dir.path(), &config);
        index(dir.path());
        let first = enrich(&dir);
        let again = enrich(&dir);
        let overlay = artifact(dir.path(), "enrich/overlay.json");
        (first, again, overlay)
    };
    let (one, _, single) = decide(1);
    let (four, again, batched) = decide(4);
    let packs = one["stage"]["packs"].as_u64().unwrap();
    assert_eq!(one["stage"]["agentCalls"].as_u64().unwrap(), packs);
    assert_eq!(four["stage"]["packs"].as_u64().unwrap(), packs);
    let calls = four["stage"]["agentCalls"].as_u64().unwrap();
    assert!(calls < packs, "batched: {calls} calls for {packs} packs");
    assert!(calls * 4 >= packs);
    // Each pack's share of a batched answer was cached on its own: nothing is asked twice.
    assert_eq!(again["stage"]["agentCalls"], 0, "{again:#}");
    assert_eq!(again["stage"]["cacheHits"].as_u64().unwrap(), packs);
    // Batching changes the number of calls, never a decision. (The overlays' hashes differ: the
    // config file, with its batchSize, is part of the snapshot the proposals are made against.)
    let ids = |overlay: &Value, list: &str| -> Vec<String> {
        let mut ids: Vec<String> = overlay[list]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                e["proposal"]["proposalId"]
                    .as_str()
                    .or(e["proposalId"].as_str())
                    .unwrap()
                    .to_owned()
            })
            .collect();
        ids.sort();
        ids
    };
    for list in ["accepted", "pending", "rejected"] {
        assert_eq!(ids(&single, list), ids(&batched, list), "{list}");
    }
    assert!(!ids(&single, "accepted").is_empty());
    assert_eq!(four["stage"]["offPack"], 0);
}

#[test]
fn a_batch_holds_packs_of_one_area_only() {
    let dir = fixture_copy("ts-workspace");
    let config = json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "recorder", "batchSize": 8,
        "roles": {"curator": false, "reviewer": true},
        "cli": {"command": "sh", "args": ["-c", "cat >> .doc-bridge/requests.jsonl; echo >> .doc-bridge/requests.jsonl; echo '{\"proposals\": []}'"]}}}});
    write_config(dir.path(), &config);
    index(dir.path());
    enrich(&dir);
    let snapshot = artifact(dir.path(), "snapshot.json");
    let area_of = |id: &str| -> Option<String> {
        snapshot["relations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| {
                r["kind"] == "contains"
                    && r["to"] == id
                    && r["from"].as_str().unwrap().starts_with("area:")
            })
            .map(|r| r["from"].as_str().unwrap().to_owned())
    };
    let requests: Vec<Value> =
        std::fs::read_to_string(dir.path().join(".doc-bridge/requests.jsonl"))
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
    assert!(
        requests
            .iter()
            .any(|r| r["packs"].as_array().unwrap().len() > 1)
    );
    for request in &requests {
        let packs = request["packs"].as_array().unwrap();
        assert!(packs.len() <= 8);
        let areas: std::collections::BTreeSet<Option<String>> = packs
            .iter()
            .map(|p| area_of(p["target"]["id"].as_str().unwrap()))
            .collect();
        assert_eq!(areas.len(), 1, "{areas:?}");
    }
}

/// Every id in an overlay list (`proposal.entity` for accepted and pending, `entity` for
/// rejected), with its proposal id and (for rejections) reason.
fn decided(overlay: &Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for list in ["accepted", "pending", "rejected"] {
        for e in overlay[list].as_array().unwrap() {
            let proposal = if e["proposal"].is_object() {
                &e["proposal"]
            } else {
                e
            };
            out.push((
                proposal["proposalId"].as_str().unwrap().to_owned(),
                proposal["entity"].as_str().unwrap_or("").to_owned(),
                format!("{list} {}", e["reason"].as_str().unwrap_or("")),
            ));
        }
    }
    out.sort();
    out
}

#[test]
fn secret_file_and_directory_names_reach_neither_agent_nor_cache_yet_proposals_about_them_count() {
    const AWS: &str = "AKIAIOSFODNN7EXAMPLE";
    const GITHUB: &str = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB";
    let dir = fixture_copy("go-module");
    std::fs::write(
        dir.path().join(format!("docs/{AWS}.md")),
        "# Key rotation\n\nHow the store rotates its keys.\n\n## Rotating keys\n\nRun the job.\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.path().join(format!("notes/{GITHUB}"))).unwrap();
    std::fs::write(
        dir.path().join(format!("notes/{GITHUB}/readme.md")),
        "# Token notes\n\nWhere the tokens live.\n\n## Finding tokens\n\nLook here.\n",
    )
    .unwrap();
    // The reference agent, behind a recorder of its requests.
    let recorded = |prompt: &str| {
        let config = json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "reference-agent", "promptVersion": prompt,
            "cli": {"command": "sh", "args": ["-c", "tee -a .doc-bridge/requests.jsonl | \"$0\"; echo >> .doc-bridge/requests.jsonl",
                env!("CARGO_BIN_EXE_doc-bridge-reference-agent")]}}}});
        write_config(dir.path(), &config);
        let _ = std::fs::remove_file(dir.path().join(".doc-bridge/requests.jsonl"));
        index(dir.path());
        let report = enrich(&dir);
        let requests = std::fs::read_to_string(dir.path().join(".doc-bridge/requests.jsonl"))
            .unwrap_or_default();
        (report, requests)
    };
    let (first, requests) = recorded("1");
    assert!(
        first["stage"]["agentCalls"].as_u64().unwrap() >= 1,
        "{first:#}"
    );
    assert_eq!(first["stage"]["offPack"], 0, "{first:#}");
    // The agent saw stable placeholders, never the secrets.
    assert!(!requests.contains(AWS) && !requests.contains(GITHUB));
    let aws_id = format!(
        "document:docs/{}.md",
        doc_bridge_enrich::redact::placeholder(AWS)
    );
    let github_path = format!(
        "notes/{}/readme.md",
        doc_bridge_enrich::redact::placeholder(GITHUB)
    );
    assert!(requests.contains(&aws_id), "{requests}");
    assert!(requests.contains(&github_path), "{requests}");
    // Nothing the agent said about them, nor any cached answer, holds a secret.
    let cache = dir.path().join(".doc-bridge/enrich/cache");
    for entry in std::fs::read_dir(&cache).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!text.contains(AWS) && !text.contains(GITHUB), "{text}");
    }
    // Yet its proposals about those documents were resolved to them and decided like any other.
    let overlay = artifact(dir.path(), "enrich/overlay.json");
    let decisions = decided(&overlay);
    for real in [
        format!("document:docs/{AWS}.md"),
        format!("document:notes/{GITHUB}/readme.md"),
    ] {
        assert!(
            decisions
                .iter()
                .any(|(_, e, d)| *e == real && d.starts_with("accepted")),
            "{real}: {decisions:#?}"
        );
    }
    assert!(
        decisions.iter().all(|(_, _, d)| !d.starts_with("rejected")),
        "{decisions:#?}"
    );

    // Replayed from the cache: no call, and the same decisions.
    let again = enrich(&dir);
    assert_eq!(again["stage"]["agentCalls"], 0, "{again:#}");
    assert_eq!(again["stage"]["cacheHits"], first["stage"]["packs"]);
    assert_eq!(again["stage"]["offPack"], 0);
    assert_eq!(
        decided(&artifact(dir.path(), "enrich/overlay.json")),
        decisions
    );

    // Another run asks again (a new prompt version) and shows the same placeholders.
    let (_, requests) = recorded("2");
    assert!(requests.contains(&aws_id) && requests.contains(&github_path));
    assert!(!requests.contains(AWS) && !requests.contains(GITHUB));
}

#[test]
fn a_secret_an_agent_echoes_never_lands_in_the_answer_cache() {
    let dir = fixture_copy("go-module");
    let answer = json!({"proposals": [{"entity": "document:README.md", "kind": "add-intent",
        "reason": "use ghp_abcdefghijklmnopqrstuvwxyz0123456789AB or AKIA\u{200b}IOSFODNN7EXAMPLE",
        "payload": {"phrase": "postgres://app:hunter2@db/x", "language": "en"}}]});
    configure(
        &dir,
        json!({"command": "sh", "args": ["-c", format!("cat >/dev/null; printf '%s' '{answer}'")]}),
    );
    let report = enrich(&dir);
    assert!(
        report["stage"]["agentCalls"].as_u64().unwrap() >= 1,
        "{report:#}"
    );
    let mut cached = String::new();
    for entry in std::fs::read_dir(dir.path().join(".doc-bridge/enrich/cache")).unwrap() {
        cached.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    assert!(cached.contains("document:README.md"), "{cached}");
    for secret in ["ghp_abc", "IOSFODNN7EXAMPLE", "hunter2"] {
        assert!(!cached.contains(secret), "{secret}: {cached}");
    }
}

#[test]
fn overlay_stats_count_the_bytes_really_sent_to_and_received_from_agents() {
    // A command agent: what it read is what it wrote down, one request per line.
    let dir = fixture_copy("ts-workspace");
    let config = json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "recorder", "batchSize": 2,
        "cli": {"command": "sh", "args": ["-c", "cat >> .doc-bridge/requests.jsonl; echo >> .doc-bridge/requests.jsonl; echo '{\"proposals\": []}'"]}}}});
    write_config(dir.path(), &config);
    index(dir.path());
    let report = enrich(&dir);
    let calls = report["stage"]["agentCalls"].as_u64().unwrap();
    assert!(calls >= 2, "{report:#}");
    let recorded = std::fs::read(dir.path().join(".doc-bridge/requests.jsonl")).unwrap();
    let sent = recorded.len() as u64 - calls; // one newline per request added by the recorder
    let received = calls * "{\"proposals\": []}\n".len() as u64;
    assert_eq!(report["stage"]["inputBytes"], sent, "{report:#}");
    assert_eq!(report["stage"]["outputBytes"], received, "{report:#}");
    let stats = &artifact(dir.path(), "enrich/overlay.json")["stats"];
    assert_eq!(
        (&stats["inputBytes"], &stats["outputBytes"]),
        (&json!(sent), &json!(received))
    );
    // From the cache: nothing moves, and the totals stand.
    let again = enrich(&dir);
    assert_eq!(again["stage"]["agentCalls"], 0);
    assert_eq!(
        (
            &again["stage"]["inputBytes"],
            &again["stage"]["outputBytes"]
        ),
        (&json!(0), &json!(0))
    );
    let stats = &artifact(dir.path(), "enrich/overlay.json")["stats"];
    assert_eq!(
        (&stats["inputBytes"], &stats["outputBytes"]),
        (&json!(sent), &json!(received))
    );

    // An HTTP agent: the request bodies the loopback server received.
    let dir = fixture_copy("go-module");
    let (url, seen) = empty_answers(8);
    let config = json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "local-model", "http": {"baseUrl": url, "model": "tiny", "timeoutMs": 5000}}}});
    write_config(dir.path(), &config);
    index(dir.path());
    let report = enrich(&dir);
    let bodies = seen.lock().unwrap().clone();
    assert_eq!(
        bodies.len() as u64,
        report["stage"]["agentCalls"].as_u64().unwrap()
    );
    let sent: u64 = bodies.iter().map(|b| b.len() as u64).sum();
    let reply = json!({"model": "tiny", "choices": [{"finish_reason": "stop", "message": {"content": "{\"proposals\": []}"}}]}).to_string();
    let stats = &artifact(dir.path(), "enrich/overlay.json")["stats"];
    assert_eq!(stats["inputBytes"], sent, "{report:#}");
    assert_eq!(
        stats["outputBytes"],
        bodies.len() as u64 * reply.len() as u64
    );
}
