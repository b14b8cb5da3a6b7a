//! `doc-bridge bench retrieval <suite.json>`: hit@1, hit@3, MRR and zero-result rate.

use serde::Deserialize;
use serde_json::json;

use doc_bridge_retrieve::rank::{Scoring, SearchOptions, search};

use crate::args::BenchRetrievalArgs;
use crate::exit::{CommandResult, Exit, UserError};
use crate::pipeline::load_for_search;
use crate::repo::Repo;

/// One case of a suite.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    query: String,
    expected: Vec<String>,
    #[serde(default)]
    kind: Option<String>,
}

/// Runs the suite in-process against the index.
pub fn retrieval(args: &BenchRetrievalArgs) -> CommandResult {
    if let Some(min) = args.min
        && !(0.0..=1.0).contains(&min)
    {
        return Err(UserError::error("--min must be between 0 and 1"));
    }
    let bytes = std::fs::read(&args.suite).map_err(|e| {
        UserError::error(format!("cannot read suite {}: {e}", args.suite.display()))
    })?;
    let cases: Vec<Case> = serde_json::from_slice(&bytes).map_err(|e| {
        UserError::error(format!(
            "suite {} is not a list of {{query, expected, kind?}}: {e}",
            args.suite.display()
        ))
    })?;
    if cases.is_empty() {
        return Err(UserError::error(format!(
            "suite {} has no cases",
            args.suite.display()
        )));
    }
    let repo = Repo::open(args.common.root.as_deref())?;
    let loaded = load_for_search(&repo, args.allow_stale)?;
    let collection = &loaded.collection;
    let (mut hit1, mut hit3, mut reciprocal, mut zero) = (0usize, 0usize, 0.0f64, 0usize);
    let mut misses = Vec::new();
    for case in &cases {
        let options = SearchOptions {
            limit: doc_bridge_retrieve::rank::PASSAGE_CANDIDATES,
            kind: case.kind.clone(),
            language: repo.config.retrieval.language().to_owned(),
            scoring: Scoring::from_settings(&loaded.retrieval),
            ..SearchOptions::default()
        };
        // Ranked as `search` ranks: the best few dozen looked into for their passages.
        let hits = search(collection, &case.query, &options);
        let texts = crate::commands::search::result_texts(&repo, collection, &hits);
        let hits = doc_bridge_retrieve::rank::rerank_by_passages(
            collection,
            &case.query,
            hits,
            &texts,
            10,
        );
        if hits.is_empty() {
            zero += 1;
        }
        let rank = hits.iter().position(|h| {
            let entry = collection.entry(h.entry);
            case.expected
                .iter()
                .any(|e| e == entry.id() || e == entry.path())
        });
        if let Some(r) = rank {
            hit1 += usize::from(r == 0);
            hit3 += usize::from(r < 3);
            reciprocal += 1.0 / (r as f64 + 1.0);
        }
        if rank.is_none_or(|r| r >= 3) {
            let got: Vec<&str> = hits
                .iter()
                .take(3)
                .map(|h| collection.entry(h.entry).id())
                .collect();
            misses.push(json!({"query": case.query, "expected": case.expected, "rank": rank.map(|r| r + 1), "top3": got}));
        }
    }
    let n = cases.len() as f64;
    let report = json!({
        "cases": cases.len(),
        "hitAt1": hit1 as f64 / n,
        "hitAt3": hit3 as f64 / n,
        "mrr": reciprocal / n,
        "zeroResultRate": zero as f64 / n,
        "misses": misses,
    });
    if args.json {
        crate::outln!("{report:#}");
    } else {
        crate::outln!(
            "{} cases: hit@1 {:.3}  hit@3 {:.3}  MRR {:.3}  zero-result {:.3}",
            cases.len(),
            hit1 as f64 / n,
            hit3 as f64 / n,
            reciprocal / n,
            zero as f64 / n
        );
        for miss in &misses {
            crate::outln!(
                "  miss: {} (rank {}; top: {})",
                miss["query"],
                miss["rank"],
                miss["top3"]
            );
        }
    }
    let below = args.min.is_some_and(|min| (hit3 as f64 / n) < min);
    Ok(if below { Exit::Findings } else { Exit::Ok })
}
