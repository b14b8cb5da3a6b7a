//! The original tool's forms of `query`: `query package NAME`, `query ownership KEY` and
//! `query intent PHRASE...`, beside `query <ID|ALIAS|PATH>`, which keeps its meaning (a form
//! needs words after its name).
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::*;

fn configured(root: &Path) {
    write_config(
        root,
        &serde_json::json!({"schemaVersion": 1, "routing": {"options": {
            "ownership": {"identity": {"path": "packages/auth", "checks": ["make auth-test"]}},
            "intents": [{"phrase": "rotate the signing key", "target": "packages/auth/src/tokens.ts"}]
        }}}),
    );
    index(root);
}

fn query_json(root: &Path, words: &[&str]) -> (i32, serde_json::Value) {
    let mut args = vec!["query", "--json"];
    args.extend_from_slice(words);
    let out = run(root, &args);
    let value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {} {}", stdout(&out), stderr(&out)));
    (code(&out), value)
}

#[test]
fn package_form_answers_as_the_package_id_does() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let by_form = run(dir.path(), &["query", "package", "@fx/auth"]);
    let by_id = run(dir.path(), &["query", "package:@fx/auth"]);
    assert_eq!(code(&by_form), 0, "{}", stderr(&by_form));
    assert_eq!(stdout(&by_form), stdout(&by_id));
    let by_form_id = run(dir.path(), &["query", "package", "package:@fx/auth"]);
    assert_eq!(stdout(&by_form_id), stdout(&by_id));
}

#[test]
fn package_form_refuses_what_is_not_a_package() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    // `session` names a module through its stem: the old form finds it, the package form not.
    assert_eq!(code(&run(dir.path(), &["query", "session"])), 0);
    let (exit, answer) = query_json(dir.path(), &["package", "session"]);
    assert_eq!(exit, 1);
    assert_eq!(answer["error"], "no package named `session`");
    let (exit, answer) = query_json(dir.path(), &["package", "@fx/aut"]);
    assert_eq!(exit, 1);
    assert_eq!(answer["closest"][0], "package:@fx/auth");
}

#[test]
fn one_word_is_still_the_old_form() {
    let dir = fixture_copy("ts-workspace");
    std::fs::write(
        dir.path().join("docs/package.md"),
        "# Packaging\n\nHow the packages are published.\n",
    )
    .unwrap();
    index(dir.path());
    let (exit, answer) = query_json(dir.path(), &["package"]);
    assert_eq!(exit, 0, "{answer:#}");
    assert_eq!(answer["id"], "document:docs/package.md");
    // Words after a target that is no form are a usage error, as they always were.
    let out = run(dir.path(), &["query", "session", "expiry"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("query package NAME"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn ownership_form_resolves_configured_keys_and_package_names() {
    let dir = fixture_copy("ts-workspace");
    configured(dir.path());
    let (exit, answer) = query_json(dir.path(), &["ownership", "identity"]);
    assert_eq!(exit, 0, "{answer:#}");
    assert_eq!(answer["id"], "package:@fx/auth");
    assert_eq!(answer["checks"], serde_json::json!(["make auth-test"]));
    assert_eq!(answer["checksSource"], "ownership");
    let (exit, answer) = query_json(dir.path(), &["ownership", "@fx/core"]);
    assert_eq!(exit, 0);
    assert_eq!(answer["id"], "package:@fx/core");
    let (exit, answer) = query_json(dir.path(), &["ownership", "identty"]);
    assert_eq!(exit, 1);
    assert_eq!(answer["error"], "no ownership key `identty`");
    assert_eq!(answer["closest"][0], "identity");
}

#[test]
fn intent_form_follows_the_declared_route_else_the_top_search_hit() {
    let dir = fixture_copy("ts-workspace");
    configured(dir.path());
    let (exit, answer) = query_json(dir.path(), &["intent", "Rotate", "the", "signing", "key"]);
    assert_eq!(exit, 0, "{answer:#}");
    assert_eq!(answer["id"], "module:packages/auth/src/tokens.ts");
    // No route for this phrase: the entity `search` ranks first.
    let phrase = "how do sessions expire";
    let search = run(dir.path(), &["search", "--json", phrase]);
    let search: serde_json::Value = serde_json::from_slice(&search.stdout).unwrap();
    let words: Vec<&str> = phrase.split(' ').collect();
    let mut args = vec!["intent"];
    args.extend(words);
    let (exit, answer) = query_json(dir.path(), &args);
    assert_eq!(exit, 0);
    assert_eq!(answer["id"], search["results"][0]["id"]);
    let text = run(
        dir.path(),
        &["query", "intent", "how", "do", "sessions", "expire"],
    );
    assert!(
        stderr(&text).contains("the top search hit"),
        "{}",
        stderr(&text)
    );
}

#[test]
fn forms_refuse_a_stale_index_unless_allowed() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    std::fs::write(dir.path().join("docs/new.md"), "# New\n").unwrap();
    let out = run(dir.path(), &["query", "package", "@fx/auth"]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("stale"), "{}", stderr(&out));
    let (exit, answer) = query_json(dir.path(), &["--allow-stale", "package", "@fx/auth"]);
    assert_eq!(exit, 0);
    assert_eq!(answer["stale"], true);
}
