//! The reference agent: a small, deterministic, real agent speaking
//! `doc-bridge.registry-agent.v2` on stdin/stdout, with no model. It shows the whole loop:
//!
//! - `add-intent` from each level-2 heading of a document ("how do I" + the heading),
//! - `classify-document` (agent docs under `for-agents/` as references for agents, others as
//!   guides for people),
//! - `summarize` from the excerpt's first sentence when a document has no summary.
//!
//! Configure it as `"intelligence": {"registry": {"agentId": "reference-agent", "cli":
//! {"command": "doc-bridge-reference-agent"}}}`.

use std::io::Read;

use doc_bridge_model::EntityId;
use doc_bridge_model::enrichment::{ProposalKind, proposal_id};
use serde_json::{Value, json};

fn main() -> std::process::ExitCode {
    let mut input = Vec::new();
    if std::io::stdin().read_to_end(&mut input).is_err() {
        return std::process::ExitCode::from(2);
    }
    let Ok(request) = serde_json::from_slice::<Value>(&input) else {
        eprintln!("reference-agent: the request is not JSON");
        return std::process::ExitCode::from(2);
    };
    let proposals = propose(&request);
    println!("{}", json!({ "proposals": proposals }));
    std::process::ExitCode::SUCCESS
}

fn text(value: &Value, pointer: &str) -> String {
    value
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

fn propose(request: &Value) -> Vec<Value> {
    let agent_id = text(request, "/agent/agentId");
    let agent_version = text(request, "/agent/agentVersion");
    let prompt_version = text(request, "/promptVersion");
    let base = text(request, "/baseSnapshotHash");
    let mut out = Vec::new();
    for pack in request
        .get("packs")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let target = &pack["target"];
        if target["kind"] != "document" {
            continue;
        }
        let entity = text(target, "/id");
        let hash = text(target, "/contentHash");
        let path = text(target, "/path");
        let Some(evidence) = target["evidence"].get(0).cloned() else {
            continue;
        };
        let make = |kind: ProposalKind, key: Value, payload: Value, reason: &str| {
            json!({
                "proposalId": proposal_id(kind, &EntityId::from_raw(entity.clone()), &hash, &agent_id, &prompt_version, key),
                "kind": kind.as_str(),
                "entity": entity,
                "targetContentHash": hash,
                "confidence": 0.6,
                "reason": reason,
                "evidence": [evidence.clone()],
                "relatedDiagnosticIds": [],
                "origin": {"agentId": agent_id, "agentVersion": agent_version, "promptVersion": prompt_version},
                "baseSnapshotHash": base,
                "payload": payload,
            })
        };
        let for_agents = path.contains("for-agents/");
        out.push(make(
            ProposalKind::ClassifyDocument,
            Value::Null,
            json!({
                "type": if for_agents { "reference" } else { "guide" },
                "audience": if for_agents { "agent" } else { "human" },
                "lifecycle": "current",
                "criticality": "medium",
            }),
            "classified by its location",
        ));
        if text(target, "/metadata/summary").is_empty() {
            let excerpt = text(pack, "/evidence/excerpt");
            let sentence = excerpt
                .lines()
                .map(str::trim)
                .find(|l| {
                    !l.is_empty()
                        && !l.starts_with('#')
                        && !l.starts_with("---")
                        && !l.contains(':')
                })
                .map(|l| l.chars().take(200).collect::<String>());
            if let Some(summary) = sentence {
                out.push(make(
                    ProposalKind::Summarize,
                    Value::Null,
                    json!({"summary": summary, "language": "en"}),
                    "first sentence of the document",
                ));
            }
        }
        let headings = target["metadata"]["headings"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        for heading in headings.iter().filter_map(Value::as_str).skip(1).take(3) {
            let phrase: String = format!("how do I {}", heading.to_lowercase())
                .chars()
                .take(120)
                .collect();
            out.push(make(
                ProposalKind::AddIntent,
                json!(phrase),
                json!({"phrase": phrase, "language": "en"}),
                "a question the heading answers",
            ));
        }
    }
    out
}
