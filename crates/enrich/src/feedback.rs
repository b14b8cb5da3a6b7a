//! Feedback (the ingestion notes' FEEDBACK.md): people's approvals and rejections become bounded
//! few-shot examples for later packs of the same role. Similar judgments only (word overlap with
//! the pack's target text, above a threshold), positive and negative both, within a byte cap; a
//! judgment whose target changed since is no longer offered.

use std::collections::BTreeSet;

use doc_bridge_model::approval::{ApprovalDecision, ApprovalRecord};
use doc_bridge_model::snapshot::Snapshot;
use serde_json::{Value, json};

use crate::pack::ContextPack;
use crate::redact::{Restorations, redact};

/// Most examples per request.
pub const MAX_EXAMPLES: usize = 3;
/// Least word overlap (Jaccard) for a judgment to count as similar.
pub const MIN_SIMILARITY: f64 = 0.1;
/// Most bytes of examples per request.
pub const MAX_EXAMPLE_BYTES: usize = 4 * 1024;

fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3)
        .map(str::to_lowercase)
        .collect()
}

fn similarity(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

fn pack_text(pack: &ContextPack) -> String {
    let mut text = format!("{} {}", pack.target.name, pack.target.path);
    for value in pack.target.metadata.values() {
        text.push(' ');
        text.push_str(&value.to_string());
    }
    text
}

/// The examples for one pack: judgments of `role` whose target still has the recorded hash,
/// most similar first (ties by approval id), at most [`MAX_EXAMPLES`] and `byte_budget` bytes.
pub fn examples_for(
    pack: &ContextPack,
    judgments: &[ApprovalRecord],
    snapshot: &Snapshot,
    role: &str,
    byte_budget: usize,
) -> Vec<Value> {
    let target_words = words(&pack_text(pack));
    let mut scored: Vec<(f64, &ApprovalRecord)> = judgments
        .iter()
        .filter(|j| j.role == role)
        .filter(|j| {
            snapshot.entities.iter().any(|e| {
                e.id().as_str() == j.entity && e.content_hash().as_str() == j.target_content_hash
            })
        })
        .filter_map(|j| {
            let text = format!(
                "{} {} {}",
                j.entity,
                j.payload.as_ref().map(Value::to_string).unwrap_or_default(),
                j.reason.as_deref().unwrap_or("")
            );
            let score = similarity(&target_words, &words(&text));
            (score >= MIN_SIMILARITY).then_some((score, j))
        })
        .collect();
    scored.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(a.1.approval_id.cmp(&b.1.approval_id))
    });
    let cap = byte_budget.min(MAX_EXAMPLE_BYTES);
    let mut used = 0;
    let mut out = Vec::new();
    for (_, judgment) in scored.into_iter().take(MAX_EXAMPLES) {
        let example = json!({
            "id": judgment.approval_id,
            "kind": judgment.kind,
            // An id, shown like the packs show it: a secret in it as its stable placeholder.
            "entity": Restorations::default().redact(&judgment.entity),
            "decision": match judgment.decision { ApprovalDecision::Approved => "approved", ApprovalDecision::Rejected => "rejected" },
            "payload": judgment.payload.as_ref().map(|p| redact(&p.to_string())),
            "reason": judgment.reason.as_deref().map(redact),
        });
        let bytes = example.to_string().len();
        if used + bytes > cap {
            break;
        }
        used += bytes;
        out.push(example);
    }
    out
}
