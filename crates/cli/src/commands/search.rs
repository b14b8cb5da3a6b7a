//! `doc-bridge search`.

use serde_json::json;

use std::collections::BTreeSet;

use doc_bridge_retrieve::collection::Collection;
use doc_bridge_retrieve::lexicon;
use doc_bridge_retrieve::rank::{self, Hit, Scoring, SearchOptions, search};
use doc_bridge_retrieve::snippet::{self, Passage};

use doc_bridge_model::timing::phase;

use crate::args::SearchArgs;
use crate::exit::{CommandResult, Exit, UserError};
use crate::pipeline::load_for_search;
use crate::repo::Repo;

/// Runs a search and prints the results.
/// `--refresh`: the index pipeline once, then one line on stderr saying what it wrote.
fn refresh(repo: &Repo) -> Result<(), UserError> {
    let outcome = phase("refresh", || {
        super::index::index_once(
            repo,
            super::index::IndexRun {
                force: false,
                allow_pending_findings: false,
                quiet: true,
            },
        )
    })?;
    crate::errln!("refresh: {}", outcome.describe());
    Ok(())
}

pub fn run(args: &SearchArgs) -> CommandResult {
    let floor = args.floor.unwrap_or(rank::DEFAULT_FLOOR);
    if !(0.0..=1.0).contains(&floor) {
        return Err(UserError::error("--floor must be between 0 and 1"));
    }
    let limit = usize::try_from(args.limit).unwrap_or(usize::MAX);
    let repo = phase("open repository", || {
        Repo::open(args.common.root.as_deref())
    })?;
    if args.refresh {
        refresh(&repo)?;
    }
    let loaded = phase("load for search", || {
        load_for_search(&repo, args.allow_stale)
    })?;
    let query = args.query.join(" ");
    let options = SearchOptions {
        // The best few dozen are looked into for their passages, then cut to the limit.
        limit: limit.max(rank::PASSAGE_CANDIDATES),
        no_tests: args.no_tests,
        paths: path_globs(&args.paths)?,
        kind: args.kind.clone(),
        explain: args.explain,
        agent: args.agent,
        floor,
        language: args
            .lang
            .clone()
            .unwrap_or_else(|| repo.config.retrieval.language().to_owned()),
        scoring: Scoring::from_settings(&loaded.retrieval),
    };
    let collection = &loaded.collection;
    let hits = phase("rank", || search(collection, &query, &options));
    let (hits, snippets) = phase("passages", || {
        let texts = result_texts(&repo, collection, &hits);
        let order: Vec<usize> = hits.iter().map(|h| h.entry).collect();
        let hits = rank::rerank_by_passages(collection, &query, hits, &texts, limit);
        let terms: BTreeSet<String> = lexicon::tokens(&query).into_iter().collect();
        let snippets: Vec<Option<Passage>> = hits
            .iter()
            .map(|hit| {
                let text = order
                    .iter()
                    .position(|e| *e == hit.entry)
                    .and_then(|i| texts[i].as_deref())?;
                snippet::best_passage(
                    text,
                    &terms,
                    snippet::text_kind(collection.entry(hit.entry).path()),
                )
            })
            .collect();
        (hits, snippets)
    });
    if args.output.json {
        let results: Vec<serde_json::Value> = hits
            .iter()
            .zip(&snippets)
            .map(|(hit, snippet)| {
                let mut value = result_json(collection, hit);
                if let Some(snippet) = snippet {
                    value["snippet"] = serde_json::to_value(snippet).unwrap_or_default();
                }
                value
            })
            .collect();
        let mut report = json!({"query": query, "results": results});
        if loaded.stale.is_some() {
            report["stale"] = json!(true);
        }
        crate::outln!("{report:#}");
    } else {
        if let Some(stale) = &loaded.stale {
            crate::errln!(
                "warning: answering from a stale index: {}",
                stale.summary(5)
            );
        }
        if hits.is_empty() {
            crate::outln!("no results for `{query}`");
        }
        for (rank, (hit, snippet)) in hits.iter().zip(&snippets).enumerate() {
            let entry = collection.entry(hit.entry);
            crate::outln!(
                "{:>2}. {}  {}  [{} {:.1}]",
                rank + 1,
                entry.path(),
                entry.title(),
                entry.kind(),
                hit.score
            );
            if let Some(snippet) = snippet {
                if let Some(context) = &snippet.context {
                    crate::outln!("      § {context}");
                }
                for (i, line) in snippet.lines.iter().enumerate() {
                    crate::outln!("      {:>4} │ {line}", snippet.start_line + i);
                }
            }
            if let Some(explain) = &hit.explain {
                let p = &explain.parts;
                crate::outln!(
                    "      lexical {:.2} × prior {:.2} + exactId {:.0} + exactPath {:.0} + exactSymbol {:.0} + exactTitle {:.0} + termIdentity {:.0} + reference {:.2} + passage {:.2} + proximity {:.2} + canonicality {:.2} + audienceFit {:.2} + signals {:.2}",
                    p.lexical,
                    p.prior,
                    p.exact_id,
                    p.exact_path,
                    p.exact_symbol,
                    p.exact_title,
                    p.term_identity,
                    p.reference,
                    p.passage,
                    p.graph_proximity,
                    p.canonicality,
                    p.audience_fit,
                    p.accepted_agent_signals
                );
                // Each matched term as the query wrote it, with the fields it was found in.
                let terms: Vec<String> = explain
                    .terms
                    .iter()
                    .map(|t| {
                        let said = if t.words.is_empty() {
                            t.term.clone()
                        } else {
                            t.words.join("/")
                        };
                        format!(
                            "{said} ({})",
                            t.fields.keys().cloned().collect::<Vec<_>>().join(", ")
                        )
                    })
                    .collect();
                if !terms.is_empty() {
                    crate::outln!("      matched: {}", terms.join("; "));
                }
                if !explain.references.is_empty() {
                    crate::outln!("      references: {}", explain.references.join(", "));
                }
                for line in explain.identity.iter().chain(&explain.notes) {
                    crate::outln!("      {line}");
                }
                if let Some(anchor) = &explain.proximity_anchor {
                    crate::outln!("      near {anchor}");
                }
            }
        }
    }
    // The process ends right after this: handing the collection's pages back to the system, one
    // by one, would cost more than the whole ranking did.
    std::mem::forget(loaded);
    Ok(Exit::Ok)
}

/// The texts of the results' files, in order, for `rank::rerank_by_passages` and the snippets
/// (`search`, `bench retrieval` and the MCP server alike).
pub(crate) fn result_texts(
    repo: &Repo,
    collection: &Collection,
    hits: &[Hit],
) -> Vec<Option<String>> {
    hits.iter()
        .map(|hit| text_of(repo, collection.entry(hit.entry)))
        .collect()
}

/// The text of a result's file (documents and modules only), read beneath the root; `None`
/// when unreadable, not UTF-8 or over [`snippet::MAX_TEXT_BYTES`].
fn text_of(repo: &Repo, entry: doc_bridge_retrieve::collection::Entry<'_>) -> Option<String> {
    if !matches!(entry.kind(), "document" | "module") {
        return None;
    }
    let bytes = repo
        .root_dir
        .read_file(entry.path(), snippet::MAX_TEXT_BYTES as u64)
        .ok()??;
    String::from_utf8(bytes).ok()
}

fn result_json(collection: &Collection, hit: &Hit) -> serde_json::Value {
    let entry = collection.entry(hit.entry);
    let mut value = json!({
        "id": entry.id(),
        "kind": entry.kind(),
        "path": entry.path(),
        "title": entry.title(),
        "score": round(hit.score),
        "confidence": hit.confidence,
        "provenance": entry.provenance(),
        "evidence": {"path": entry.path(), "contentHash": entry.content_hash()},
    });
    if let Some(explain) = &hit.explain {
        value["explain"] = serde_json::to_value(explain).unwrap_or_default();
    }
    value
}

/// Scores are printed to 4 decimals: stable text, no float noise in snapshots.
fn round(score: f64) -> f64 {
    (score * 1e4).round() / 1e4
}

/// The `--path` globs, matched against repository-relative paths; `None` without any.
fn path_globs(globs: &[String]) -> Result<Option<globset::GlobSet>, UserError> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut set = globset::GlobSetBuilder::new();
    for glob in globs {
        let glob = globset::GlobBuilder::new(glob.trim_start_matches("./"))
            .literal_separator(true)
            .build()
            .map_err(|e| UserError::error(format!("--path {glob}: {e}")))?;
        set.add(glob);
    }
    set.build()
        .map(Some)
        .map_err(|e| UserError::error(format!("--path: {e}")))
}
