//! `search` and `query` on the fixture repositories: snapshot tests of their output, stale
//! handling, and exit codes.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;

fn search_json(root: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["search", "--json"];
    all.extend_from_slice(args);
    let out = run(root, &all);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn result_ids(value: &serde_json::Value) -> Vec<String> {
    value["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn search_text_and_json_output_on_the_ts_workspace() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let text = run(dir.path(), &["search", "how do sessions expire"]);
    assert_eq!(code(&text), 0);
    insta::assert_snapshot!("search-sessions-text", stdout(&text));
    insta::assert_json_snapshot!(
        "search-create-session-explain",
        search_json(dir.path(), &["--explain", "createSession"])
    );
}

#[test]
fn exact_symbol_finds_the_declaring_module_first() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let value = search_json(dir.path(), &["createSession"]);
    let ids = result_ids(&value);
    assert_eq!(ids[0], "module:packages/auth/src/session.ts");
    assert_eq!(value["results"][0]["confidence"], "high");
    assert_eq!(
        value["results"][0]["evidence"]["path"],
        "packages/auth/src/session.ts"
    );
}

#[test]
fn explain_does_not_change_the_order() {
    let dir = fixture_copy("rust-workspace");
    index(dir.path());
    for query in ["parser tokens", "engine design", "trim"] {
        let plain = result_ids(&search_json(dir.path(), &[query]));
        let explained = result_ids(&search_json(dir.path(), &["--explain", query]));
        assert_eq!(plain, explained, "{query}");
    }
}

#[test]
fn kind_filter_and_limit_apply() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let value = search_json(
        dir.path(),
        &["--kind", "module", "--limit", "2", "--floor", "0", "auth"],
    );
    let results = value["results"].as_array().unwrap();
    assert!(results.len() <= 2 && !results.is_empty());
    assert!(results.iter().all(|r| r["kind"] == "module"));
}

#[test]
fn english_page_ranks_above_its_translation() {
    let dir = fixture_copy("docs-site");
    index(dir.path());
    let ids = result_ids(&search_json(
        dir.path(),
        &["--floor", "0", "getting started"],
    ));
    let en = ids
        .iter()
        .position(|i| i == "document:docs/en/guide/getting-started.md")
        .unwrap();
    if let Some(ja) = ids
        .iter()
        .position(|i| i == "document:docs/ja/guide/getting-started.md")
    {
        assert!(en < ja);
    }
}

#[test]
fn stale_index_refuses_unless_allowed() {
    let dir = fixture_copy("python-package");
    index(dir.path());
    // Warm the search cache, then change a file: the cache must not hide staleness.
    search_json(dir.path(), &["store"]);
    std::fs::write(
        dir.path().join("docs/index.md"),
        "# Rewritten\n\nA new store guide.\n",
    )
    .unwrap();
    let out = run(dir.path(), &["search", "store"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("docs/index.md") && stderr(&out).contains("doc-bridge index"),
        "{}",
        stderr(&out)
    );
    let allowed = search_json(dir.path(), &["--allow-stale", "store"]);
    assert_eq!(allowed["stale"], true);
}

#[test]
fn corrupt_search_cache_is_rebuilt_not_trusted() {
    let dir = fixture_copy("go-module");
    index(dir.path());
    let expected = result_ids(&search_json(dir.path(), &["Store"]));
    let cache = dir.path().join(".doc-bridge/cache/search.bin");
    let mut bytes = std::fs::read(&cache).unwrap();
    let middle = bytes.len() / 2;
    for b in &mut bytes[middle..] {
        *b = 0xff;
    }
    std::fs::write(&cache, &bytes).unwrap();
    assert_eq!(result_ids(&search_json(dir.path(), &["Store"])), expected);
    std::fs::write(&cache, b"").unwrap();
    assert_eq!(result_ids(&search_json(dir.path(), &["Store"])), expected);
}

#[test]
fn missing_index_is_an_error() {
    let dir = fixture_copy("go-module");
    let out = run(dir.path(), &["search", "store"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("doc-bridge index"));
}

#[test]
fn query_prints_handoffs_for_every_entity_kind() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    for (target, name) in [
        ("@fx/auth", "query-package"),
        ("packages/auth/src", "query-area"),
        ("packages/auth/src/session.ts", "query-module"),
        ("docs/auth.md", "query-document"),
        ("packages/auth/package.json", "query-file"),
    ] {
        let out = run(dir.path(), &["query", "--json", target]);
        assert_eq!(code(&out), 0, "{target}: {}", stderr(&out));
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        insta::assert_json_snapshot!(name, value);
    }
    let text = run(dir.path(), &["query", "@fx/auth"]);
    insta::assert_snapshot!("query-package-text", stdout(&text));
}

#[test]
fn query_handoff_names_related_areas_with_proof() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let out = run(dir.path(), &["query", "--json", "package:@fx/auth"]);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let related = value["related"].as_array().unwrap();
    let core = related
        .iter()
        .find(|r| r["area"] == "area:packages/core/src")
        .unwrap();
    assert_eq!(core["direction"], "imports");
    assert_eq!(core["evidence"]["specifier"], "@fx/core");
    assert_eq!(value["checksSource"], "front-matter");
    assert_eq!(value["startHere"], "docs/for-agents/auth.md");
}

#[test]
fn unknown_query_target_exits_one_with_closest_matches() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let out = run(dir.path(), &["query", "--json", "sesion"]);
    assert_eq!(code(&out), 1);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!value["closest"].as_array().unwrap().is_empty(), "{value}");
}

#[test]
fn bench_retrieval_reports_and_enforces_min() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let suite = dir.path().join("suite.json");
    std::fs::write(
        &suite,
        r#"[{"query": "createSession", "expected": ["packages/auth/src/session.ts"]},
            {"query": "Logger", "expected": ["module:packages/core/src/index.ts"], "kind": "module"},
            {"query": "no such words anywhere zzzz", "expected": ["docs/auth.md"]}]"#,
    )
    .unwrap();
    let out = run(
        dir.path(),
        &["bench", "retrieval", "--json", suite.to_str().unwrap()],
    );
    // The suite file itself is new: allow the stale index.
    let out = if code(&out) == 1 {
        run(
            dir.path(),
            &[
                "bench",
                "retrieval",
                "--allow-stale",
                "--json",
                suite.to_str().unwrap(),
            ],
        )
    } else {
        out
    };
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["cases"], 3);
    assert!((report["hitAt1"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-9);
    assert!((report["zeroResultRate"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9);
    let strict = run(
        dir.path(),
        &[
            "bench",
            "retrieval",
            "--allow-stale",
            "--min",
            "0.9",
            suite.to_str().unwrap(),
        ],
    );
    assert_eq!(code(&strict), 1);
}

/// `.gitattributes` `linguist-*` marks come before path conventions: a file the repository calls
/// generated ranks after the source, and one it calls source keeps no role whatever its path.
#[test]
fn gitattributes_linguist_marks_set_file_roles() {
    let dir = tempfile::tempdir().unwrap();
    let write = |rel: &str, text: &str| {
        let path = dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write(
        ".gitattributes",
        "src/schema.ts linguist-generated\ntests/helpers.ts -linguist-generated\n",
    );
    write(
        "src/schema.ts",
        "// balance sheet balance sheet\nexport const value = 1;\n",
    );
    write(
        "src/ledger.ts",
        "// balance sheet\nexport function post() {}\n",
    );
    write("tests/helpers.ts", "export const x = 1;\n");
    index(dir.path());
    let snapshot = artifact(dir.path(), "snapshot.json");
    let linguist = |path: &str| {
        snapshot["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == path)
            .unwrap()["linguist"]
            .clone()
    };
    assert_eq!(linguist("src/schema.ts"), "generated");
    assert_eq!(linguist("tests/helpers.ts"), "source");
    assert_eq!(linguist("src/ledger.ts"), serde_json::Value::Null);
    let entries = artifact(dir.path(), "index.json")["projection"]["entries"].clone();
    let tags = |id: &str| {
        entries
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"] == id)
            .unwrap()["tags"]
            .clone()
    };
    assert_eq!(
        tags("module:src/schema.ts"),
        serde_json::json!(["role:generated"])
    );
    // Under `tests/`, but the repository says it is source: no role.
    assert_eq!(tags("module:tests/helpers.ts"), serde_json::Value::Null);
    // The generated file matches more often; it still ranks after the source.
    let out = run(dir.path(), &["search", "--json", "balance sheet"]);
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        results["results"][0]["path"], "src/ledger.ts",
        "{results:#}"
    );
}

/// A package's handoff starts at its README, not at a changelog that names every module.
#[test]
fn a_package_handoff_starts_at_its_readme_and_reads_changelogs_last() {
    let dir = fixture_copy("ts-workspace");
    std::fs::write(
        dir.path().join("packages/core/CHANGELOG.md"),
        "# Changelog\n\n## 1.1.0\n\n- `packages/core/src/index.ts`: a new `Logger` option.\n\
         - `packages/core/src/index.ts`: faster start.\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("packages/core/README.md"),
        "# @fx/core\n\nShared logging and configuration.\n",
    )
    .unwrap();
    index(dir.path());
    let out = run(dir.path(), &["query", "--json", "package:@fx/core"]);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reading: Vec<&str> = value["readBeforeEditing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    // `docs/core.md` covers the package and comes first; the README before what only mentions.
    assert_eq!(value["startHere"], "docs/core.md", "{value:#}");
    let position = |path: &str| reading.iter().position(|p| *p == path);
    let readme = position("packages/core/README.md").expect("the README is read");
    assert_eq!(readme, 1, "{reading:?}");
    if let Some(changelog) = position("packages/core/CHANGELOG.md") {
        assert!(readme < changelog, "{reading:?}");
    }
}

/// `search --refresh` re-indexes first, says so on stderr, and answers from the new index.
#[test]
fn search_refresh_brings_the_index_up_to_date_and_says_what_it_wrote() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let doc = dir.path().join("docs/core.md");
    let mut text = std::fs::read_to_string(&doc).unwrap();
    text.push_str("\nThe zanzibar protocol lives here.\n");
    std::fs::write(&doc, text).unwrap();
    let stale = run(dir.path(), &["search", "zanzibar"]);
    assert_eq!(code(&stale), 1, "{}", stderr(&stale));
    let out = run(dir.path(), &["search", "--refresh", "--json", "zanzibar"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("refresh: re-indexed") && stderr(&out).contains("index.json"),
        "{}",
        stderr(&out)
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["results"][0]["path"], "docs/core.md", "{value:#}");
    let again = run(dir.path(), &["search", "--refresh", "zanzibar"]);
    assert!(
        stderr(&again).contains("the index was up to date"),
        "{}",
        stderr(&again)
    );
    let both = run(
        dir.path(),
        &["search", "--refresh", "--allow-stale", "zanzibar"],
    );
    assert_eq!(code(&both), 2);
}

/// `--explain` as text names every part JSON has, the passage part (where the words stand in the
/// file, and in which order) included, with the same value.
#[test]
fn explain_text_shows_the_passage_part_json_has() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let query = "session token refresh";
    let json = run(dir.path(), &["search", "--json", "--explain", query]);
    assert_eq!(code(&json), 0, "{}", stderr(&json));
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let passage = value["results"][0]["explain"]["parts"]["passage"]
        .as_f64()
        .unwrap();
    assert!(passage > 0.0, "{value:#}");
    let text = run(dir.path(), &["search", "--explain", query]);
    let shown = format!("+ passage {passage:.2} +");
    assert!(stdout(&text).contains(&shown), "{}", stdout(&text));
}

/// A file no analyzer reads (a manifest, a config file, an image, a language without an
/// analyzer) is an entity that `search` finds by its name and path and `query` resolves.
#[test]
fn every_file_is_found_by_name_and_path() {
    let dir = fixture_copy("ts-workspace");
    std::fs::write(dir.path().join("Dockerfile"), "FROM node:20\n").unwrap();
    std::fs::create_dir_all(dir.path().join("deploy/k8s")).unwrap();
    std::fs::write(
        dir.path().join("deploy/k8s/service.yaml"),
        "kind: Service\n",
    )
    .unwrap();
    index(dir.path());
    for (query, id) in [
        ("Dockerfile", "file:Dockerfile"),
        ("service.yaml", "file:deploy/k8s/service.yaml"),
        ("k8s/service.yaml", "file:deploy/k8s/service.yaml"),
        (
            "packages/core/package.json",
            "file:packages/core/package.json",
        ),
    ] {
        let found = result_ids(&search_json(dir.path(), &[query]));
        assert_eq!(
            found.first().map(String::as_str),
            Some(id),
            "{query}: {found:?}"
        );
    }
    let (exit, answer) = {
        let out = run(dir.path(), &["query", "--json", "deploy/k8s/service.yaml"]);
        (
            code(&out),
            serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap(),
        )
    };
    assert_eq!(exit, 0);
    assert_eq!(answer["id"], "file:deploy/k8s/service.yaml");
    let listed = stdout(&run(dir.path(), &["list", "files"]));
    assert!(listed.contains("file:Dockerfile"), "{listed}");
    assert!(
        !listed.contains("file:docs/"),
        "documents are not files: {listed}"
    );
}
