//! Ranking behaviour: every score part, the floor, explain, and the exact-identity bound.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;

use doc_bridge_model::projection::{
    Edge, EntryGraph, GraphParams, LexicalStats, ProjectedEntry, ProjectedSymbol, RetrievalIndexV1,
};
use doc_bridge_model::{ContentHash, EntityId, RelPath};
use doc_bridge_retrieve::collection::Collection;
use doc_bridge_retrieve::rank::{
    CANONICALITY_CAP, Confidence, PASSAGE_WEIGHT, PHRASE_WEIGHT, PROXIMITY_ONE_HOP,
    REPORT_PASSAGE_WEIGHT, REPORT_PHRASE_WEIGHT, SIGNAL_WEIGHT, SearchOptions, TERM_IDENTITY,
    rerank_by_passages, search,
};
use proptest::prelude::*;

fn entry(id: &str, title: &str, body: &str) -> ProjectedEntry {
    let (kind, path) = id.split_once(':').unwrap();
    let mut fields = BTreeMap::new();
    for name in [
        "title", "headings", "symbols", "path", "aliases", "summary", "body",
    ] {
        fields.insert(name.to_owned(), String::new());
    }
    fields.insert("title".into(), title.into());
    fields.insert("path".into(), path.into());
    fields.insert("body".into(), body.into());
    ProjectedEntry {
        id: id.into(),
        kind: kind.into(),
        path: RelPath::new(path).unwrap(),
        title: title.into(),
        aliases: Vec::new(),
        symbols: Vec::new(),
        tags: Vec::new(),
        fields,
        graph: EntryGraph {
            pagerank: 0.1,
            ..EntryGraph::default()
        },
        content_hash: ContentHash::of_bytes(id.as_bytes()),
        provenance: "observed".into(),
        confidence: "observed".into(),
        language: None,
        mentions: Vec::new(),
        audience: Vec::new(),
        agent_doc: false,
        target: None,
        signal: 0.0,
    }
}

fn projection(mut entries: Vec<ProjectedEntry>) -> RetrievalIndexV1 {
    entries.sort_by(|a, b| a.id.cmp(&b.id));
    RetrievalIndexV1 {
        schema_version: 1,
        content_hash: ContentHash::of_bytes(b""),
        snapshot_hash: ContentHash::of_bytes(b""),
        overlay_hash: ContentHash::of_bytes(b""),
        configuration_hash: ContentHash::of_bytes(b""),
        lexicon_version: 1,
        graph: GraphParams {
            version: 1,
            damping: 0.85,
            iterations: 100,
            tolerance: 1e-10,
            edges: vec![],
        },
        lexical: LexicalStats {
            document_count: 0,
            fields: vec![],
            average_field_lengths: BTreeMap::new(),
        },
        entries,
    }
}

fn ids(projection: &RetrievalIndexV1, query: &str, options: &SearchOptions) -> Vec<String> {
    let collection = Collection::build(projection);
    search(&collection, query, options)
        .iter()
        .map(|h| projection.entries[h.entry].id.clone())
        .collect()
}

fn with_symbol(mut e: ProjectedEntry, name: &str, declared: bool) -> ProjectedEntry {
    e.symbols.push(ProjectedSymbol {
        name: name.into(),
        declared,
    });
    e.fields.insert("symbols".into(), name.into());
    e
}

/// Search options that keep every result (no floor).
fn unfloored() -> SearchOptions {
    SearchOptions {
        floor: 0.0,
        ..SearchOptions::default()
    }
}

/// `from` links to `to` (the collection finds the inbound side from `from`'s outbound edges).
fn link(mut from: ProjectedEntry, to: &mut ProjectedEntry) -> ProjectedEntry {
    from.graph.outbound.push(Edge {
        kind: "links-to".into(),
        entity: EntityId::from_raw(to.id.clone()),
        confidence: "observed".into(),
    });
    from
}

#[test]
fn exact_id_beats_any_lexical_match() {
    let mut package = entry("package:auth", "auth", "");
    package.aliases.push("auth".into());
    let noisy = entry(
        "document:docs/notes.md",
        "Auth auth auth",
        "auth auth auth auth auth auth",
    );
    let p = projection(vec![package, noisy]);
    let options = unfloored();
    assert_eq!(ids(&p, "auth", &options)[0], "package:auth");
}

#[test]
fn declared_symbol_outranks_its_reexport() {
    let declared = with_symbol(
        entry("module:src/session.ts", "session.ts", ""),
        "createSession",
        true,
    );
    let reexport = with_symbol(
        entry("module:src/index.ts", "index.ts", ""),
        "createSession",
        false,
    );
    let p = projection(vec![declared, reexport]);
    let collection = Collection::build(&p);
    let hits = search(&collection, "createSession", &unfloored());
    assert_eq!(p.entries[hits[0].entry].id, "module:src/session.ts");
    assert!(hits[0].parts.exact_symbol > hits[1].parts.exact_symbol);
}

/// Proximity runs both ways although the projection stores outbound edges only: a page that
/// links to the best hit is its neighbour too (the collection finds the inbound side).
#[test]
fn a_page_linking_to_the_best_hit_is_its_neighbour() {
    let mut doc = entry(
        "document:docs/crypto.md",
        "Signing keys",
        "rotation of the signing keys",
    );
    let index = link(entry("document:docs/index.md", "Index", ""), &mut doc);
    let p = projection(vec![doc, index]);
    let collection = Collection::build(&p);
    let options = unfloored();
    let hits = search(&collection, "signing rotation", &options);
    let linking = hits
        .iter()
        .find(|h| p.entries[h.entry].id == "document:docs/index.md")
        .expect("surfaced by its link to the best hit");
    assert!(linking.parts.graph_proximity > 0.0, "{:?}", linking.parts);
}

#[test]
fn proximity_only_results_carry_the_weaker_confidence() {
    let mut module = entry("module:src/keystore.ts", "keystore.ts", "");
    let doc = link(
        entry(
            "document:docs/crypto.md",
            "Signing keys",
            "rotation of the signing keys",
        ),
        &mut module,
    );
    let p = projection(vec![doc, module]);
    let collection = Collection::build(&p);
    // A relation alone scores under the default floor; with none, it is listed last.
    let hits = search(&collection, "signing rotation", &unfloored());
    let related = hits
        .iter()
        .find(|h| p.entries[h.entry].id == "module:src/keystore.ts")
        .expect("surfaced by the link");
    assert_eq!(related.confidence, Confidence::Low);
    assert_eq!(related.parts.lexical, 0.0);
    assert_eq!(related.parts.canonicality, 0.0);
    assert!(related.parts.graph_proximity > 0.0);
    assert!(related.parts.graph_proximity <= 5.0);
    assert_eq!(hits[0].confidence, Confidence::Medium);
    assert!(
        !ids(&p, "signing rotation", &SearchOptions::default())
            .contains(&"module:src/keystore.ts".to_owned())
    );
}

#[test]
fn results_under_a_third_of_the_best_are_dropped_unless_the_floor_is_zero() {
    let strong = entry(
        "document:a.md",
        "rotation rotation",
        "key rotation procedure rotation",
    );
    let weak = entry(
        "document:b.md",
        "unrelated",
        &format!("{} rotation", "filler ".repeat(2000)),
    );
    let mut entries = vec![strong, weak];
    entries.extend((0..4).map(|i| entry(&format!("document:other{i}.md"), "other", "short text")));
    let p = projection(entries);
    assert_eq!(
        ids(&p, "rotation", &SearchOptions::default()),
        ["document:a.md"]
    );
    assert_eq!(ids(&p, "rotation", &unfloored()).len(), 2);
}

#[test]
fn explain_never_changes_the_order() {
    let entries: Vec<ProjectedEntry> = (0..20)
        .map(|i| {
            entry(
                &format!("document:d{i}.md"),
                &format!("doc {i}"),
                &"alpha beta gamma ".repeat(i % 5 + 1),
            )
        })
        .collect();
    let p = projection(entries);
    let plain = SearchOptions {
        floor: 0.0,
        limit: 50,
        ..SearchOptions::default()
    };
    let explained = SearchOptions {
        explain: true,
        ..plain.clone()
    };
    assert_eq!(
        ids(&p, "alpha gamma", &plain),
        ids(&p, "alpha gamma", &explained)
    );
}

#[test]
fn two_term_queries_name_things_but_sentences_do_not() {
    let session = entry("module:src/session.ts", "session.ts", "");
    let tokens = entry("module:src/tokens.ts", "tokens.ts", "");
    let p = projection(vec![session, tokens]);
    let collection = Collection::build(&p);
    let two = search(&collection, "session tokens", &unfloored());
    // Each term names a module: a small bonus on top of the lexical match, not an identity.
    assert!(two.iter().all(|h| h.parts.term_identity > 0.0));
    assert!(two.iter().all(|h| h.parts.identity() == 0.0));
    let sentence = search(
        &collection,
        "how are session tokens refreshed",
        &unfloored(),
    );
    assert!(sentence.iter().all(|h| h.parts.identity() == 0.0));
}

#[test]
fn translation_never_outranks_the_page_in_the_asked_language() {
    let mut en = entry(
        "document:docs/en/guide/config.md",
        "Configuration",
        "configuration options",
    );
    en.language = Some("en".into());
    let mut ja = entry(
        "document:docs/ja/guide/config.md",
        "Configuration configuration",
        "configuration configuration configuration options",
    );
    ja.language = Some("ja".into());
    let p = projection(vec![en, ja]);
    let order = ids(&p, "configuration", &unfloored());
    // One result per page, in the asked language; the translation is folded into it.
    assert_eq!(order, ["document:docs/en/guide/config.md"]);
    let collection = Collection::build(&p);
    let explained = search(
        &collection,
        "configuration",
        &SearchOptions {
            floor: 0.0,
            explain: true,
            ..SearchOptions::default()
        },
    );
    let explain = explained[0].explain.as_ref().unwrap();
    assert_eq!(explain.collapsed, ["document:docs/ja/guide/config.md"]);
    let japanese = ids(
        &p,
        "configuration",
        &SearchOptions {
            floor: 0.0,
            language: "ja".into(),
            ..SearchOptions::default()
        },
    );
    assert_eq!(japanese[0], "document:docs/ja/guide/config.md");
}

#[test]
fn long_pasted_reports_use_every_term() {
    let target = entry(
        "document:docs/timeouts.md",
        "Timeouts",
        "the upstream gateway timeout is configured per route",
    );
    let other = entry(
        "document:docs/intro.md",
        "Introduction",
        "welcome to the gateway documentation",
    );
    let p = projection(vec![target, other]);
    let report = format!(
        "{} we see a gateway error every night. {} the upstream timeout hits after 30 seconds on one route.",
        "Hello team, ".repeat(50),
        "Stack trace follows. ".repeat(50)
    );
    assert_eq!(
        ids(&p, &report, &SearchOptions::default())[0],
        "document:docs/timeouts.md"
    );
}

#[test]
fn accepted_signal_is_bounded_by_its_weight() {
    let mut a = entry("document:a.md", "alpha", "alpha");
    a.signal = 7.0; // out of range values are clamped
    let p = projection(vec![a]);
    let collection = Collection::build(&p);
    let hit = &search(&collection, "alpha", &SearchOptions::default())[0];
    assert_eq!(hit.parts.accepted_agent_signals, SIGNAL_WEIGHT);
}

fn arb_word() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "alpha", "beta", "gamma", "delta", "session", "token", "config", "router", "cache", "store",
    ])
    .prop_map(str::to_owned)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    /// An entry the query names exactly (id, path or declared symbol) is never outranked by an
    /// entry that matched only lexically, even with the maximum accepted signal.
    #[test]
    fn exactly_named_entry_is_never_outranked_by_lexical_plus_signal(
        bodies in prop::collection::vec(prop::collection::vec(arb_word(), 1..40), 2..12),
        named in 0usize..12,
        how in 0u8..3,
        agent in any::<bool>(),
    ) {
        let named = named % bodies.len();
        let mut entries: Vec<ProjectedEntry> = bodies.iter().enumerate().map(|(i, words)| {
            let mut e = entry(&format!("module:src/m{i}.ts"), &words[0], &words.join(" "));
            e.signal = 1.0;
            e.agent_doc = i % 2 == 0;
            e
        }).collect();
        let query = match how {
            0 => entries[named].id.clone(),
            1 => entries[named].path.to_string(),
            _ => {
                entries[named] = with_symbol(entries[named].clone(), "uniqueNamedSymbol", true);
                "uniqueNamedSymbol".to_owned()
            }
        };
        entries[named].signal = 0.0;
        let named_id = entries[named].id.clone();
        let p = projection(entries);
        let collection = Collection::build(&p);
        let hits = search(&collection, &query, &SearchOptions { floor: 0.0, limit: 100, agent, ..SearchOptions::default() });
        let named_score = hits.iter().find(|h| p.entries[h.entry].id == named_id).map(|h| h.score).unwrap();
        for hit in &hits {
            if hit.parts.identity() == 0.0 {
                prop_assert!(hit.score < named_score, "{} {} >= {}", p.entries[hit.entry].id, hit.score, named_score);
            }
        }
    }
}

/// Everything that is neither lexical evidence nor identity, at its largest for an entry that
/// has no accepted signal: proximity, canonicality, a per-term identity, audience fit at most.
const NON_LEXICAL_BOUND: f64 = PROXIMITY_ONE_HOP + CANONICALITY_CAP + TERM_IDENTITY;

/// Documents linked at random, with random words from a small vocabulary: a dense link graph
/// like a documentation site's.
fn linked_site(bodies: &[Vec<usize>], links: &[(usize, usize)]) -> RetrievalIndexV1 {
    const WORDS: [&str; 6] = ["alpha", "beta", "gamma", "delta", "omega", "sigma"];
    let mut entries: Vec<ProjectedEntry> = bodies
        .iter()
        .enumerate()
        .map(|(i, words)| {
            let body: Vec<&str> = words.iter().map(|w| WORDS[w % WORDS.len()]).collect();
            let mut e = entry(&format!("document:d{i:02}.md"), "page", &body.join(" "));
            e.graph.pagerank = 0.01 + (i % 7) as f64 * 0.05;
            e
        })
        .collect();
    for &(from, to) in links {
        let (from, to) = (from % entries.len(), to % entries.len());
        if from == to {
            continue;
        }
        let mut target = entries[to].clone();
        let source = link(entries[from].clone(), &mut target);
        entries[from] = source;
        entries[to] = target;
    }
    projection(entries)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Graph proximity never lifts an entry above the anchor it came from, and no boost that
    /// is not identity lifts an entry above one with clearly stronger lexical evidence.
    #[test]
    fn proximity_and_boosts_never_overrule_clearly_stronger_lexical_evidence(
        bodies in proptest::collection::vec(proptest::collection::vec(0usize..6, 1..12), 2..14),
        links in proptest::collection::vec((0usize..14, 0usize..14), 0..40),
        query in proptest::sample::select(vec!["alpha", "alpha beta", "gamma delta omega", "sigma alpha"]),
    ) {
        let p = linked_site(&bodies, &links);
        let collection = Collection::build(&p);
        let hits = search(
            &collection,
            query,
            &SearchOptions { floor: 0.0, limit: 100, explain: true, ..SearchOptions::default() },
        );
        let score_of: BTreeMap<String, f64> = hits
            .iter()
            .map(|h| (p.entries[h.entry].id.clone(), h.score))
            .collect();
        for hit in &hits {
            let explain = hit.explain.as_ref().unwrap();
            if let Some(anchor) = &explain.proximity_anchor {
                let anchor_id = anchor.split(' ').next().unwrap();
                if let Some(anchor_score) = score_of.get(anchor_id) {
                    prop_assert!(
                        hit.score <= anchor_score + 1e-9,
                        "{} ({}) above its anchor {anchor_id} ({anchor_score})",
                        p.entries[hit.entry].id, hit.score
                    );
                }
            }
        }
        for (i, a) in hits.iter().enumerate() {
            for b in &hits[..i] {
                // `b` ranks above `a`: then `a` must not have clearly stronger evidence.
                prop_assert!(
                    a.parts.evidence() - b.parts.evidence() <= NON_LEXICAL_BOUND + 1e-9,
                    "{} (evidence {}) ranked below {} (evidence {})",
                    p.entries[a.entry].id, a.parts.evidence(),
                    p.entries[b.entry].id, b.parts.evidence()
                );
            }
        }
    }
}

#[test]
fn a_query_equal_to_a_title_or_a_stem_in_another_case_style_names_the_page() {
    let state = entry("document:docs/02-$state.md", "$state", "the state rune");
    let islands = entry(
        "document:docs/server-islands.md",
        "Islands",
        "islands of html",
    );
    let noisy = entry(
        "document:docs/notes.md",
        "Notes",
        "$state state state server islands islands islands",
    );
    let p = projection(vec![state, islands, noisy]);
    let options = SearchOptions::default();
    assert_eq!(ids(&p, "$state", &options)[0], "document:docs/02-$state.md");
    for query in [
        "server-islands",
        "server islands",
        "serverIslands",
        "server_islands",
    ] {
        assert_eq!(
            ids(&p, query, &options)[0],
            "document:docs/server-islands.md",
            "{query}"
        );
    }
}

#[test]
fn a_path_suffix_names_the_file_and_extensions_are_not_content() {
    let app = entry("module:src/flask/app.py", "app.py", "");
    let other = entry(
        "module:src/flask/helpers.py",
        "helpers.py",
        "flask app app app",
    );
    let p = projection(vec![app, other]);
    let options = SearchOptions::default();
    assert_eq!(
        ids(&p, "flask/app.py", &options)[0],
        "module:src/flask/app.py"
    );
    assert_eq!(
        ids(&p, "src/flask/app.py", &options)[0],
        "module:src/flask/app.py"
    );
}

#[test]
fn tests_rank_below_the_code_they_exercise_unless_asked_for() {
    let source = entry(
        "module:src/session.py",
        "session.py",
        "session refresh token",
    );
    let mut test = entry(
        "module:tests/test_session.py",
        "test_session.py",
        "session refresh token session refresh",
    );
    test.tags.push("role:test".into());
    let p = projection(vec![source, test]);
    let options = unfloored();
    assert_eq!(
        ids(&p, "session refresh", &options)[0],
        "module:src/session.py"
    );
    assert_eq!(
        ids(&p, "session refresh tests", &options)[0],
        "module:tests/test_session.py"
    );
    let no_tests = SearchOptions {
        no_tests: true,
        ..options.clone()
    };
    assert_eq!(
        ids(&p, "session refresh tests", &no_tests),
        ["module:src/session.py"]
    );
}

#[test]
fn a_pasted_traceback_names_the_file_it_went_through() {
    let target = entry(
        "module:sklearn/compose/_column_transformer.py",
        "_column_transformer.py",
        "column transformer",
    );
    let decoy = entry(
        "module:sklearn/pipeline.py",
        "pipeline.py",
        "the pipeline fails when the transformer output has columns columns columns",
    );
    let p = projection(vec![target, decoy]);
    let report = r#"ColumnTransformer fails when the output of one transformer has no columns.
Traceback (most recent call last):
  File "repro.py", line 3, in <module>
  File "/usr/lib/python3/site-packages/sklearn/compose/_column_transformer.py", line 862, in _hstack
ValueError: the pipeline fails"#;
    let collection = Collection::build(&p);
    let hits = search(
        &collection,
        report,
        &SearchOptions {
            explain: true,
            ..SearchOptions::default()
        },
    );
    assert_eq!(
        p.entries[hits[0].entry].id,
        "module:sklearn/compose/_column_transformer.py"
    );
    assert!(hits[0].parts.reference > 0.0);
    assert!(
        hits[0]
            .explain
            .as_ref()
            .unwrap()
            .references
            .iter()
            .any(|r| r.ends_with("_column_transformer.py"))
    );
}

/// A page that answers in one place outranks one whose same words are spread over it.
#[test]
fn a_page_that_answers_in_one_place_moves_up_after_its_passages_are_read() {
    let spread_text = format!(
        "session\n{}timeout\n{}rotation\n",
        "filler words here\n".repeat(30),
        "more filler words\n".repeat(30)
    );
    let together_text = format!(
        "{}the session timeout forces key rotation\n",
        "intro words here\n".repeat(30)
    );
    let spread = entry("document:spread.md", "Spread", &spread_text);
    let together = entry("document:together.md", "Together", &together_text);
    let p = projection(vec![spread, together]);
    let collection = Collection::build(&p);
    let options = unfloored();
    let texts_of = |hits: &[doc_bridge_retrieve::rank::Hit]| -> Vec<Option<String>> {
        hits.iter()
            .map(|h| {
                Some(match p.entries[h.entry].id.as_str() {
                    "document:spread.md" => spread_text.clone(),
                    _ => together_text.clone(),
                })
            })
            .collect()
    };
    let hits = search(&collection, "session timeout rotation", &options);
    let texts = texts_of(&hits);
    let reranked = rerank_by_passages(&collection, "session timeout rotation", hits, &texts, 10);
    assert_eq!(p.entries[reranked[0].entry].id, "document:together.md");
    assert!(reranked[0].parts.passage > reranked[1].parts.passage);
    assert!(reranked[0].parts.passage <= PASSAGE_WEIGHT + PHRASE_WEIGHT);
    // A few words are answered in one place: the window weighs more than it does for a report.
    assert!(
        reranked[0].parts.passage > REPORT_PASSAGE_WEIGHT + REPORT_PHRASE_WEIGHT,
        "{}",
        reranked[0].parts.passage
    );
    // A pasted report with the same words gains at most the report's weights.
    let report = format!(
        "session timeout rotation {}",
        "while upgrading yesterday something unexpected happened ".repeat(6)
    );
    let hits = search(&collection, &report, &options);
    let report_texts = texts_of(&hits);
    let reranked = rerank_by_passages(&collection, &report, hits, &report_texts, 10);
    assert_eq!(p.entries[reranked[0].entry].id, "document:together.md");
    assert!(reranked[0].parts.passage > 0.0);
    assert!(reranked[0].parts.passage <= REPORT_PASSAGE_WEIGHT + REPORT_PHRASE_WEIGHT);
    // The limit holds, and a result without text gains nothing.
    let hits = search(&collection, "session timeout rotation", &options);
    let none = rerank_by_passages(
        &collection,
        "session timeout rotation",
        hits,
        &[None, None],
        1,
    );
    assert_eq!(none.len(), 1);
    assert_eq!(none[0].parts.passage, 0.0);
}

/// Of two pages with the same words, the one that writes a pasted
/// message's words in its order moves up: word order is evidence BM25 does not see.
#[test]
fn a_page_that_writes_the_query_as_a_phrase_moves_up() {
    // The same words, so the same lexical score: only their order differs.
    let ordered_text = "# Custom elements\n\nVue emits failed to resolve component warning here.\n";
    let scrambled_text =
        "# Custom elements\n\nVue emits warning component resolve to failed here.\n";
    let ordered = entry("document:ordered.md", "Ordered", ordered_text);
    let scrambled = entry("document:scrambled.md", "Scrambled", scrambled_text);
    // The scrambled page first in the projection: ties would keep it first.
    let p = projection(vec![scrambled, ordered]);
    let collection = Collection::build(&p);
    let options = unfloored();
    let query = "Failed to resolve component warning";
    let hits = search(&collection, query, &options);
    let texts: Vec<Option<String>> = hits
        .iter()
        .map(|h| {
            Some(match p.entries[h.entry].id.as_str() {
                "document:ordered.md" => ordered_text.to_owned(),
                _ => scrambled_text.to_owned(),
            })
        })
        .collect();
    let reranked = rerank_by_passages(&collection, query, hits, &texts, 10);
    assert_eq!(p.entries[reranked[0].entry].id, "document:ordered.md");
    let gap = reranked[0].parts.passage - reranked[1].parts.passage;
    assert!(gap > 0.0 && gap <= PHRASE_WEIGHT, "{gap}");
}

/// `--explain` names the query's own words: the piece of a punctuated run that gave the term,
/// never the whole run (`class:active={isActive}` matched `isActive`, and `$state` keeps its `$`).
#[test]
fn explain_names_the_words_that_matched_not_the_whole_run() {
    let p = projection(vec![entry(
        "module:src/toggle.ts",
        "toggle",
        "export const isActive = true; let $state = 1;",
    )]);
    let collection = Collection::build(&p);
    let words = |query: &str| -> Vec<String> {
        let hits = search(
            &collection,
            query,
            &SearchOptions {
                explain: true,
                ..SearchOptions::default()
            },
        );
        let explain = hits[0].explain.as_ref().unwrap();
        let mut words: Vec<String> = explain.terms.iter().flat_map(|t| t.words.clone()).collect();
        words.sort();
        words.dedup();
        words
    };
    assert_eq!(words("class:active={isActive}"), ["active", "isActive"]);
    assert_eq!(words("what is $state"), ["$state"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    /// An alias an agent proposed and policy accepted is words of the `aliases` field, never an
    /// identity: with the maximum accepted signal and the phrase repeated in its body, its entry
    /// stays below the entry the query names exactly. The same alias approved by a person is an
    /// exact name of its entry.
    #[test]
    fn an_agent_alias_is_an_identity_only_once_a_person_approved_it(
        bodies in prop::collection::vec(prop::collection::vec(arb_word(), 1..30), 3..10),
        named in 0usize..10,
        aliased in 0usize..10,
        repeats in 1usize..20,
        approved in any::<bool>(),
    ) {
        let named = named % bodies.len();
        let aliased = (named + 1 + aliased % (bodies.len() - 1)) % bodies.len();
        let phrase = "zebra ledger";
        let mut entries: Vec<ProjectedEntry> = bodies.iter().enumerate().map(|(i, words)| {
            entry(&format!("document:docs/d{i}.md"), &words[0], &words.join(" "))
        }).collect();
        entries[named].title = phrase.to_owned();
        entries[named].fields.insert("title".into(), phrase.into());
        let body = format!("{} {}", entries[aliased].fields["body"], [phrase; 20][..repeats].join(" "));
        entries[aliased].fields.insert("body".into(), body);
        entries[aliased].fields.insert("aliases".into(), phrase.into());
        entries[aliased].signal = 1.0;
        if approved {
            entries[aliased].aliases.push(phrase.to_owned());
        }
        let (named_id, aliased_id) = (entries[named].id.clone(), entries[aliased].id.clone());
        let p = projection(entries);
        let collection = Collection::build(&p);
        let hits = search(&collection, phrase, &SearchOptions { floor: 0.0, limit: 100, ..SearchOptions::default() });
        let find = |id: &str| hits.iter().find(|h| p.entries[h.entry].id == id).unwrap();
        let (named_hit, aliased_hit) = (find(&named_id), find(&aliased_id));
        prop_assert!(named_hit.parts.identity() > 0.0);
        if approved {
            prop_assert!(aliased_hit.parts.identity() > 0.0, "an approved alias is a name");
        } else {
            prop_assert_eq!(aliased_hit.parts.identity(), 0.0);
            prop_assert!(aliased_hit.score < named_hit.score, "{} >= {}", aliased_hit.score, named_hit.score);
        }
    }
}

/// The page with a section about a name outranks pages that only write the name inline and a
/// page that matches its words more often.
#[test]
fn a_heading_that_is_the_whole_query_names_the_page_after_its_title() {
    let mut reference = entry(
        "document:api/application.md",
        "Application API",
        "Configure the app.",
    );
    reference.fields.insert(
        "headings".into(),
        "createApp()\napp.config.errorHandler\napp.config.warnHandler".into(),
    );
    let mut mentions = entry(
        "document:errors.md",
        "Error reference",
        "Use app.config.errorHandler to report errors: app config errorHandler errorHandler.",
    );
    mentions.mentions = vec!["app.config.errorHandler".into()];
    let titled = entry(
        "document:handler.md",
        "app.config.errorHandler",
        "A page titled with the name.",
    );
    let p = projection(vec![reference.clone(), mentions.clone()]);
    let order = ids(&p, "app.config.errorHandler", &SearchOptions::default());
    assert_eq!(order[0], "document:api/application.md", "{order:?}");
    assert!(order.contains(&"document:errors.md".to_owned()));
    // A heading is not a title: the page titled with the name comes first.
    let p = projection(vec![reference, mentions, titled]);
    let order = ids(&p, "app.config.errorHandler", &SearchOptions::default());
    assert_eq!(order[0], "document:handler.md", "{order:?}");
    assert_eq!(order[1], "document:api/application.md", "{order:?}");
}

/// One word of a short query that is a common heading gives no identity bonus.
#[test]
fn a_heading_is_no_term_identity() {
    let mut usage = entry("document:a.md", "Alpha", "worker pool sizing");
    usage.fields.insert("headings".into(), "Options".into());
    let plain = entry("document:b.md", "Beta", "worker pool sizing");
    let p = projection(vec![usage, plain]);
    let collection = Collection::build(&p);
    let hits = search(&collection, "worker options", &SearchOptions::default());
    assert!(
        hits.iter().all(|h| h.parts.term_identity == 0.0),
        "{hits:?}"
    );
}

#[test]
fn a_compound_word_weighs_one_whole_and_its_parts_share_one_more() {
    use doc_bridge_retrieve::rank::query_terms;
    let terms = query_terms("JavaScript module");
    assert_eq!(terms.get("javascript"), Some(&1.0));
    assert_eq!(terms.get("java"), Some(&0.5));
    assert_eq!(terms.get("script"), Some(&0.5));
    assert_eq!(terms.get("modul"), Some(&1.0));
    let terms = query_terms("get_element_by_id element");
    assert_eq!(terms.get("get_element_by_id"), Some(&1.0));
    // `get`, `element`, `id` share one (`by` is a stopword); `element` again as a word.
    let third = 1.0 / 3.0;
    assert_eq!(terms.get("get"), Some(&third));
    assert_eq!(terms.get("element"), Some(&(third + 1.0)));
}

/// A word written in camel case does not outweigh the rest of the query three to one.
#[test]
fn a_camel_case_word_counts_once_against_plain_words() {
    let camel = entry(
        "document:camel.md",
        "Camel",
        "JavaScript JavaScript JavaScript",
    );
    let plain = entry("document:plain.md", "Plain", "reusable reactive logic");
    let p = projection(vec![camel, plain]);
    let order = ids(
        &p,
        "reusable reactive logic in JavaScript",
        &SearchOptions::default(),
    );
    assert_eq!(order[0], "document:plain.md", "{order:?}");
}

/// A file no analyzer reads is found by its name and path, and changes no other entry's score:
/// it takes part in no BM25 statistic (the count of entries, average field lengths, document
/// frequencies), so adding a repository's data files leaves documents and modules ranked as
/// they were.
#[test]
fn files_are_found_by_name_and_leave_every_other_score_alone() {
    let pages = vec![
        entry(
            "document:docs/deploy.md",
            "Deploying",
            "compose the services with docker",
        ),
        entry(
            "document:docs/config.md",
            "Configuration",
            "settings for docker images",
        ),
        entry("module:src/run.py", "run.py", "docker compose run"),
    ];
    let mut with_files = pages.clone();
    for path in [
        "docker-compose.yml",
        "assets/docker.png",
        "deploy/docker/Dockerfile",
    ] {
        with_files.push(entry(
            &format!("file:{path}"),
            path.rsplit('/').next().unwrap(),
            "",
        ));
    }
    let scores = |p: &RetrievalIndexV1, query: &str| -> Vec<(String, f64)> {
        search(&Collection::build(p), query, &unfloored())
            .into_iter()
            .map(|h| (p.entries[h.entry].id.clone(), h.score))
            .filter(|(id, _)| !id.starts_with("file:"))
            .collect()
    };
    for query in ["docker compose", "docker images settings", "deploying"] {
        assert_eq!(
            scores(&projection(pages.clone()), query),
            scores(&projection(with_files.clone()), query),
            "{query}"
        );
    }
    let p = projection(with_files);
    assert_eq!(
        ids(&p, "docker-compose.yml", &unfloored())[0],
        "file:docker-compose.yml"
    );
    assert_eq!(
        ids(&p, "Dockerfile", &unfloored())[0],
        "file:deploy/docker/Dockerfile"
    );
    assert_eq!(
        ids(&p, "docker/Dockerfile", &unfloored())[0],
        "file:deploy/docker/Dockerfile"
    );
    // Words of a file's path are not content: `docker` alone finds the pages, not the files.
    assert!(
        ids(&p, "docker", &unfloored())
            .iter()
            .all(|id| !id.starts_with("file:")),
        "{:?}",
        ids(&p, "docker", &unfloored())
    );
}
