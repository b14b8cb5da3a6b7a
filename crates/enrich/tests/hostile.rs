//! No panic on any proposal (DESIGN, "What never happens"): hostile JSON values, wrong types
//! and huge strings always yield exactly one decision per distinct proposal, and a rejection's
//! strings are bounded and redacted.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::BTreeSet;

use common::*;
use doc_bridge_enrich::redact::contains_secret;
use doc_bridge_enrich::{
    Context, DETAIL_MAX_CHARS, Decision, REJECTED_FIELD_MAX_CHARS, decide_batch,
};
use doc_bridge_model::enrichment::{ProposalKind, parse_proposals};
use doc_bridge_model::hash::canonical_json;
use proptest::prelude::*;
use serde_json::{Value, json};

/// Strings an attacker might try: vocabulary, paths, secrets, control characters, anything.
fn arb_string() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "add-alias",
            "summarize",
            "mark-canonical",
            "propose-relation",
            "flag-gap",
            "suggest-area",
            "snapshot",
            "report",
            AUTH,
            AREA,
            SESSION,
            "docs/auth.md",
            "../etc/passwd",
            "/abs",
            "a\\b",
            "",
            " ",
            "policy",
            "AKIAIOSFODNN7EXAMPLE",
            "\u{0}",
            "😀",
            "document:",
            "area:.",
        ])
        .prop_map(str::to_owned),
        ".{0,40}",
        "[0-9a-f]{64}",
    ]
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u32>().prop_map(Value::from),
        (-1e300f64..1e300).prop_map(Value::from),
        arb_string().prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        let keys = prop_oneof![
            prop::sample::select(vec![
                "proposalId",
                "kind",
                "entity",
                "targetContentHash",
                "confidence",
                "reason",
                "evidence",
                "relatedDiagnosticIds",
                "origin",
                "baseSnapshotHash",
                "payload",
                "source",
                "path",
                "lines",
                "agentId",
                "alias",
                "scope",
                "to",
                "directories",
            ])
            .prop_map(str::to_owned),
            ".{0,8}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(keys, inner, 0..8)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Well-formed proposals of every kind, to mutate.
fn valid(snap: &doc_bridge_model::snapshot::Snapshot) -> Vec<Value> {
    vec![
        proposal(
            snap,
            "classify-document",
            AUTH,
            json!({"type": "guide", "audience": "both", "lifecycle": "draft", "criticality": "low"}),
        ),
        proposal(
            snap,
            "summarize",
            RUNBOOK,
            json!({"summary": "Restarts.", "language": "en"}),
        ),
        proposal(snap, "add-alias", AUTH, json!({"alias": "sso handbook"})),
        proposal(
            snap,
            "add-intent",
            AUTH,
            json!({"phrase": "log in", "language": "en"}),
        ),
        proposal(snap, "mark-canonical", AUTH, json!({"scope": AREA})),
        proposal(
            snap,
            "propose-relation",
            AUTH,
            json!({"from": AUTH, "to": TOKEN, "kind": "documents", "detection": "prose"}),
        ),
        proposal(
            snap,
            "flag-contradiction",
            AUTH,
            json!({"against": SESSION, "claim": "a", "observed": "b"}),
        ),
        proposal(snap, "flag-redundancy", README, json!({"with": AUTH})),
        proposal(
            snap,
            "flag-gap",
            AREA,
            json!({"area": AREA, "missing": "rotation"}),
        ),
        proposal(snap, "rank-hint", SESSION, json!({"relevance": "weak"})),
        proposal(
            snap,
            "suggest-area",
            README,
            json!({"directories": ["docs"], "name": "docs"}),
        ),
    ]
}

/// Every JSON pointer inside a value (objects and arrays), the root excluded.
fn pointers(value: &Value, prefix: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                let p = format!("{prefix}/{k}");
                out.push(p.clone());
                pointers(v, &p, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let p = format!("{prefix}/{i}");
                out.push(p.clone());
                pointers(v, &p, out);
            }
        }
        _ => {}
    }
}

fn distinct(values: &[Value]) -> usize {
    values
        .iter()
        .map(|v| canonical_json(v).unwrap())
        .collect::<BTreeSet<_>>()
        .len()
}

fn assert_safe(decisions: &[Decision]) {
    for decision in decisions {
        if let Decision::Rejected {
            proposal_id,
            kind,
            entity,
            detail,
            ..
        } = decision
        {
            for field in [proposal_id, kind, entity] {
                assert!(field.chars().count() <= REJECTED_FIELD_MAX_CHARS);
                assert!(!contains_secret(field), "{field}");
            }
            assert!(detail.chars().count() <= DETAIL_MAX_CHARS);
            assert!(!contains_secret(detail), "{detail}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn hostile_values_never_panic_and_get_one_decision_each(
        values in prop::collection::vec(arb_json(), 0..8)
    ) {
        let snap = snapshot();
        let decisions = decide_batch(values.clone(), &Context::new(&snap));
        prop_assert_eq!(decisions.len(), distinct(&values));
        assert_safe(&decisions);
    }

    #[test]
    fn a_valid_proposal_with_any_part_replaced_never_panics(
        which in 0..11usize,
        at in any::<prop::sample::Index>(),
        replacement in arb_json(),
    ) {
        let snap = snapshot();
        let value = valid(&snap)[which].clone();
        let mut all = Vec::new();
        pointers(&value, "", &mut all);
        let pointer = at.get(&all).clone();
        let mutated = with_raw(value.clone(), &pointer, replacement.clone());
        let reided = with(value, &pointer, replacement);
        let decisions = decide_batch(vec![mutated.clone(), reided.clone()], &Context::new(&snap));
        prop_assert_eq!(decisions.len(), distinct(&[mutated, reided]));
        assert_safe(&decisions);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_parser(bytes in prop::collection::vec(any::<u8>(), 0..256)) {
        if let Ok(values) = parse_proposals(&bytes) {
            let snap = snapshot();
            let decisions = decide_batch(values.clone(), &Context::new(&snap));
            prop_assert_eq!(decisions.len(), distinct(&values));
        }
    }
}

#[test]
fn huge_strings_are_rejected_and_bounded_in_the_rejection() {
    let snap = snapshot();
    let huge = "x".repeat(200_000);
    let mut batch = Vec::new();
    for pointer in [
        "/proposalId",
        "/kind",
        "/entity",
        "/reason",
        "/payload/alias",
        "/origin/agentId",
    ] {
        batch.push(with_raw(
            proposal(&snap, "add-alias", AUTH, json!({"alias": "sso handbook"})),
            pointer,
            json!(huge),
        ));
    }
    let decisions = decide_batch(batch, &Context::new(&snap));
    assert_eq!(decisions.len(), 6);
    assert!(
        decisions.iter().all(|d| d.reason().is_some()),
        "{decisions:?}"
    );
    assert_safe(&decisions);
}

#[test]
fn every_kind_survives_every_top_level_field_set_to_every_json_type() {
    let snap = snapshot();
    let types = [
        json!(null),
        json!(true),
        json!(-1),
        json!(0.5),
        json!("s"),
        json!([]),
        json!({}),
    ];
    for value in valid(&snap) {
        let keys: Vec<String> = value.as_object().unwrap().keys().cloned().collect();
        for key in keys {
            for t in &types {
                let pointer = format!("/{key}");
                let decisions = decide_batch(
                    vec![with_raw(value.clone(), &pointer, t.clone())],
                    &Context::new(&snap),
                );
                assert_eq!(decisions.len(), 1);
                assert_safe(&decisions);
            }
        }
    }
    assert_eq!(ProposalKind::ALL.len(), valid(&snap).len());
}
