//! Feedback (the ingestion notes' FEEDBACK.md, "Retrieval and provider boundaries"): people's
//! approvals and rejections become bounded few-shot examples for later packs of the same role.
//! Similar judgments only (lowercase Unicode word-set Jaccard with the pack's target text, at
//! least [`MIN_SIMILARITY`], ties by the immutable record id), positive and negative both; a
//! judgment whose target changed since is no longer offered; and a byte budget that fails
//! closed: an example that does not fit is not sent, never cut, and counted ([`fit`]).

use std::collections::BTreeSet;

use doc_bridge_model::approval::{ApprovalDecision, ApprovalRecord};
use doc_bridge_model::snapshot::Snapshot;
use serde_json::{Value, json};
use unicode_normalization::char::is_combining_mark;

use crate::pack::ContextPack;
use crate::redact::{Restorations, redact};

/// Most examples per request.
pub const MAX_EXAMPLES: usize = 3;
/// Least word-set Jaccard similarity for a judgment to count as similar (the ingestion notes:
/// "minimum 0.2").
pub const MIN_SIMILARITY: f64 = 0.2;
/// Most bytes of examples per request: the compact JSON of the request's `examples` array.
pub const MAX_EXAMPLE_BYTES: usize = 4 * 1024;

/// The set of words of `text`: maximal runs of Unicode letters, digits and combining marks
/// (`char::is_alphanumeric`, so any script; a mark stays with its letter), each lowercased by
/// Unicode's rules. Every word counts, however short.
pub fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !(c.is_alphanumeric() || is_combining_mark(c)))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Jaccard similarity of the word sets of `a` and `b` ([`words`]): shared words over all words,
/// 0 when neither has any.
pub fn similarity(a: &str, b: &str) -> f64 {
    jaccard(&words(a), &words(b))
}

fn jaccard(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// The text a pack is compared by: its target's name, path and metadata values.
pub fn pack_text(pack: &ContextPack) -> String {
    let mut text = format!("{} {}", pack.target.name, pack.target.path);
    for value in pack.target.metadata.values() {
        text.push(' ');
        text.push_str(&value.to_string());
    }
    text
}

/// The text a judgment is compared by: its entity, payload and the person's reason.
pub fn judgment_text(judgment: &ApprovalRecord) -> String {
    format!(
        "{} {} {}",
        judgment.entity,
        judgment
            .payload
            .as_ref()
            .map(Value::to_string)
            .unwrap_or_default(),
        judgment.reason.as_deref().unwrap_or("")
    )
}

/// The examples chosen for one pack, before any budget: judgments of `role` whose target still
/// has the recorded hash and whose [`similarity`] with the pack is at least
/// [`MIN_SIMILARITY`], most similar first, ties by approval id (the record's immutable id), at
/// most [`MAX_EXAMPLES`], each as it would be sent (redacted).
pub fn examples_for(
    pack: &ContextPack,
    judgments: &[ApprovalRecord],
    snapshot: &Snapshot,
    role: &str,
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
            let score = jaccard(&target_words, &words(&judgment_text(j)));
            (score >= MIN_SIMILARITY).then_some((score, j))
        })
        .collect();
    scored.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(a.1.approval_id.cmp(&b.1.approval_id))
    });
    scored
        .into_iter()
        .take(MAX_EXAMPLES)
        .map(|(_, judgment)| example(judgment))
        .collect()
}

fn example(judgment: &ApprovalRecord) -> Value {
    json!({
        "id": judgment.approval_id,
        "kind": judgment.kind,
        // An id, shown like the packs show it: a secret in it as its stable placeholder.
        "entity": Restorations::default().redact(&judgment.entity),
        "decision": match judgment.decision { ApprovalDecision::Approved => "approved", ApprovalDecision::Rejected => "rejected" },
        "payload": judgment.payload.as_ref().map(|p| redact(&p.to_string())),
        "reason": judgment.reason.as_deref().map(redact),
    })
}

/// What one request carries of the `chosen` examples, in their order: each is sent whole if the
/// compact JSON of the `examples` array still fits `byte_budget` (and [`MAX_EXAMPLE_BYTES`])
/// with it, and while fewer than [`MAX_EXAMPLES`] are taken; one that does not fit is left out,
/// never cut (fail closed), and a later, smaller one may still fit. Returns the examples sent
/// and how many were left out.
pub fn fit(chosen: &[Value], byte_budget: usize) -> (Vec<Value>, usize) {
    let cap = byte_budget.min(MAX_EXAMPLE_BYTES);
    // `[` and `]`, then each example and the comma before every one but the first.
    let mut used = 2;
    let mut sent = Vec::new();
    for example in chosen {
        let bytes = example.to_string().len() + usize::from(!sent.is_empty());
        if sent.len() < MAX_EXAMPLES && used + bytes <= cap {
            used += bytes;
            sent.push(example.clone());
        }
    }
    let dropped = chosen.len() - sent.len();
    (sent, dropped)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn the_sent_examples_fit_the_budget_to_the_byte() {
        let chosen: Vec<Value> = (0..3).map(|i| json!({"id": format!("e{i}")})).collect();
        let whole = serde_json::to_string(&chosen).unwrap().len();
        assert_eq!(fit(&chosen, whole), (chosen.clone(), 0));
        let (sent, dropped) = fit(&chosen, whole - 1);
        assert_eq!((sent.len(), dropped), (2, 1));
        assert!(serde_json::to_string(&sent).unwrap().len() < whole);
        assert_eq!(fit(&chosen, 1), (Vec::new(), 3));
    }
}
