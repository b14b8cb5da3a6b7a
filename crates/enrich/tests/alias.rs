//! `alias-collision` agrees with its definition on near-miss aliases: case-insensitive exact,
//! or Jaro-Winkler ≥ 0.95, against every id, name, title, file stem and alias (the validator's
//! length prefilter must never change an answer).

#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use doc_bridge_enrich::{ALIAS_JARO_WINKLER_THRESHOLD, Decision};
use doc_bridge_model::enrichment::RejectionReason;
use doc_bridge_model::snapshot::{Entity, Snapshot};
use proptest::prelude::*;
use serde_json::json;

/// The names an alias must not collide with, written out from the seed's list.
fn names(snap: &Snapshot) -> Vec<String> {
    let mut names = Vec::new();
    for entity in &snap.entities {
        names.push(entity.id().as_str().to_owned());
        names.push(entity.name().to_owned());
        names.push(entity.path().file_stem().to_owned());
        if let Entity::Document(d) = entity {
            names.push(d.title.clone());
        }
    }
    names.push("login docs".to_owned());
    names.into_iter().map(|n| n.to_lowercase()).collect()
}

fn edited(base: &str, edits: &[(u8, usize, char)]) -> String {
    let mut chars: Vec<char> = base.chars().collect();
    for (op, at, c) in edits {
        let at = if chars.is_empty() {
            0
        } else {
            at % (chars.len() + 1)
        };
        match op % 3 {
            0 => chars.insert(at, *c),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = *c,
            _ => {}
        }
    }
    chars.into_iter().collect::<String>().trim().to_owned()
}

#[test]
fn the_threshold_is_the_seeds() {
    assert_eq!(ALIAS_JARO_WINKLER_THRESHOLD, 0.95);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn alias_collision_matches_exact_or_jaro_winkler_095(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<u8>(), any::<usize>(), prop::char::range('a', 'z')), 0..4),
        upper in any::<bool>(),
    ) {
        let snap = snapshot();
        let all = names(&snap);
        let mut alias = edited(which.get(&all).as_str(), &edits);
        if upper {
            alias = alias.to_uppercase();
        }
        prop_assume!(!alias.is_empty() && alias.chars().count() <= 64 && !alias.contains("  "));
        let lower = alias.to_lowercase();
        let expected = all
            .iter()
            .any(|n| *n == lower || strsim::jaro_winkler(&lower, n) >= 0.95);
        let decision = decide_one(&snap, proposal(&snap, "add-alias", AUTH, json!({"alias": alias})));
        match decision {
            Decision::Accepted(_) => prop_assert!(!expected),
            Decision::Rejected { reason, .. } => {
                prop_assert!(expected);
                prop_assert_eq!(reason, RejectionReason::AliasCollision);
            }
            Decision::Pending(..) => prop_assert!(false, "an alias never waits"),
        }
    }
}

/// `n` alias-like phrases (one to three pseudo-random words), deterministic.
fn phrases(n: usize) -> Vec<String> {
    let letters: Vec<char> =
        "eeeeeeeeetttttttaaaaaaoooooiiiiinnnnnsssssrrrrhhhhlllddcccuummffggppwwyybbvkjxqz"
            .chars()
            .collect();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    (0..n)
        .map(|_| {
            (0..1 + next(3))
                .map(|_| {
                    (0..3 + next(7))
                        .map(|_| letters[next(letters.len())])
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// Thousands of aliases in one batch: each decision is what the definition gives against the
/// snapshot's names and the aliases accepted before it (in the batch's own order), so indexing
/// the accepted aliases changes no answer.
#[test]
fn a_large_batch_of_aliases_decides_as_the_definition_says() {
    let snap = snapshot();
    let texts = phrases(3_000);
    let raw: Vec<_> = texts
        .iter()
        .map(|t| proposal(&snap, "add-alias", AUTH, json!({"alias": t})))
        .collect();
    let text_of: std::collections::HashMap<String, String> = raw
        .iter()
        .map(|p| {
            (
                p["proposalId"].as_str().unwrap().to_owned(),
                p["payload"]["alias"].as_str().unwrap().to_lowercase(),
            )
        })
        .collect();
    let decisions = doc_bridge_enrich::decide_batch(raw, &doc_bridge_enrich::Context::new(&snap));
    assert_eq!(decisions.len(), texts.len());
    let mut known = names(&snap);
    let mut rejected = 0;
    for (i, decision) in decisions.iter().enumerate() {
        let alias = &text_of[decision.proposal_id()];
        let collides = |known: &[String]| {
            known
                .iter()
                .any(|n| n == alias || strsim::jaro_winkler(alias, n) >= 0.95)
        };
        match decision {
            Decision::Accepted(_) => {
                if i % 7 == 0 {
                    assert!(!collides(&known), "{alias} collides, yet was accepted");
                }
                known.push(alias.clone());
            }
            Decision::Rejected { reason, .. } => {
                assert_eq!(*reason, RejectionReason::AliasCollision);
                assert!(
                    collides(&known),
                    "{alias} was rejected, yet collides with nothing"
                );
                rejected += 1;
            }
            Decision::Pending(..) => panic!("an alias never waits"),
        }
    }
    assert!(rejected < texts.len() / 20, "{rejected}");
}
