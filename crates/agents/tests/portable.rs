//! "valid ⇒ portable-valid": every proposal our own schema accepts is accepted by the portable
//! schema sent to OpenAI-compatible endpoints, so loosening keywords for common backends never
//! refuses an answer the validators would take.
#![allow(clippy::unwrap_used)]

use doc_bridge_agents::http::response_schema;
use proptest::prelude::*;
use serde_json::{Value, json};

fn full_validator() -> jsonschema::Validator {
    let schema = doc_bridge_model::schema::schema_for("proposal").unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

fn portable_validator() -> jsonschema::Validator {
    jsonschema::validator_for(&response_schema()).unwrap()
}

fn hex64() -> impl Strategy<Value = String> {
    "[0-9a-f]{64}"
}

fn text(max: usize) -> impl Strategy<Value = String> {
    proptest::string::string_regex(&format!("[a-zA-Z0-9 é漢.,:/_-]{{1,{max}}}")).unwrap()
}

fn entity() -> impl Strategy<Value = String> {
    prop_oneof![
        "document:[a-z]{1,8}/[a-z]{1,8}\\.md",
        "module:src/[a-z]{1,8}\\.rs",
        "area:[a-z]{1,8}",
        "package:@?[a-z]{1,8}",
    ]
}

fn payload() -> impl Strategy<Value = (&'static str, Value)> {
    prop_oneof![
        (
            prop_oneof![Just("guide"), Just("reference")],
            prop_oneof![Just("human"), Just("agent"), Just("both")],
            prop_oneof![Just("draft"), Just("current"), Just("deprecated")],
            prop_oneof![Just("low"), Just("medium"), Just("high")],
        )
            .prop_map(|(t, a, l, c)| (
                "classify-document",
                json!({"type": t, "audience": a, "lifecycle": l, "criticality": c})
            )),
        (text(400), "[a-z]{2}(-[A-Z]{2})?")
            .prop_map(|(s, l)| ("summarize", json!({"summary": s, "language": l}))),
        text(64).prop_map(|a| ("add-alias", json!({"alias": a}))),
        (text(120), "[a-z]{2}")
            .prop_map(|(p, l)| ("add-intent", json!({"phrase": p, "language": l}))),
        entity().prop_map(|s| ("mark-canonical", json!({"scope": s}))),
        (
            entity(),
            entity(),
            prop_oneof![Just("covers"), Just("mentions"), Just("related-to")],
            text(80)
        )
            .prop_map(|(f, t, k, d)| (
                "propose-relation",
                json!({"from": f, "to": t, "kind": k, "detection": d})
            )),
        (entity(), text(200), text(200)).prop_map(|(a, c, o)| (
            "flag-contradiction",
            json!({"against": a, "claim": c, "observed": o})
        )),
        entity().prop_map(|w| ("flag-redundancy", json!({"with": w}))),
        (entity(), text(200)).prop_map(|(a, m)| ("flag-gap", json!({"area": a, "missing": m}))),
        prop_oneof![Just("strong"), Just("weak")]
            .prop_map(|r| ("rank-hint", json!({"relevance": r}))),
        (
            proptest::collection::vec("[a-z]{1,8}(/[a-z]{1,8})?", 1..4),
            text(40)
        )
            .prop_map(|(d, n)| ("suggest-area", json!({"directories": d, "name": n}))),
    ]
}

fn proposal() -> impl Strategy<Value = Value> {
    (
        hex64(),
        entity(),
        hex64(),
        0.0f64..=1.0,
        text(1000),
        proptest::collection::vec(
            (
                prop_oneof![Just("snapshot"), Just("report")],
                "[a-z]{1,8}\\.md",
                1u32..500,
                0u32..20,
            ),
            1..5,
        ),
        proptest::option::of(proptest::collection::vec("[0-9a-f]{16}", 0..3)),
        proptest::option::of(text(30)),
        payload(),
    )
        .prop_map(
            |(id, entity, target, confidence, reason, evidence, related, model, (kind, payload))| {
                let evidence: Vec<Value> = evidence
                    .into_iter()
                    .map(|(s, p, start, len)| json!({"source": s, "path": p, "lines": [start, start + len]}))
                    .collect();
                let mut origin = json!({"agentId": "curator", "agentVersion": "1", "promptVersion": "1"});
                if let Some(model) = model {
                    origin["model"] = json!(model);
                }
                let mut value = json!({
                    "proposalId": id, "kind": kind, "entity": entity, "targetContentHash": target,
                    "confidence": confidence, "reason": reason, "evidence": evidence,
                    "origin": origin, "baseSnapshotHash": "0".repeat(64), "payload": payload,
                });
                if let Some(related) = related {
                    value["relatedDiagnosticIds"] = json!(related);
                }
                value
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_proposal_valid_under_our_schema_is_valid_under_the_portable_one(proposal in proposal()) {
        let full = full_validator();
        // The generator must produce proposals our own schema accepts, or the property says nothing.
        prop_assert!(full.is_valid(&proposal), "generator produced an invalid proposal: {proposal}");
        let portable = portable_validator();
        prop_assert!(portable.is_valid(&json!({"proposals": [proposal.clone()]})), "{proposal}");
    }
}

#[test]
fn the_portable_schema_is_looser_not_different_it_still_refuses_a_wrong_shape() {
    let portable = portable_validator();
    assert!(!portable.is_valid(&json!({"proposals": "none"})));
    assert!(!portable.is_valid(&json!({})));
    assert!(portable.is_valid(&json!({"proposals": []})));
}
