//! `doc-bridge index --check`: exit 0 fresh, 1 stale or missing, 2 invalid or error.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;

#[test]
fn fresh_index_exits_zero_and_writes_nothing() {
    let dir = fixture_copy("python-package");
    index(dir.path());
    let before = artifact_bytes(dir.path(), "index.json");
    let out = run(dir.path(), &["index", "--check"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).starts_with("index is fresh"));
    assert_eq!(before, artifact_bytes(dir.path(), "index.json"));
}

#[test]
fn stale_index_lists_changed_added_and_removed_paths() {
    let dir = fixture_copy("python-package");
    index(dir.path());
    std::fs::write(dir.path().join("docs/index.md"), "# Rewritten\n").unwrap();
    std::fs::write(dir.path().join("docs/new.md"), "# New\n").unwrap();
    std::fs::remove_file(dir.path().join("README.md")).unwrap();
    let out = run(dir.path(), &["index", "--check", "--json"]);
    assert_eq!(code(&out), 1);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["status"], "stale");
    assert_eq!(report["changed"], serde_json::json!(["docs/index.md"]));
    assert_eq!(report["added"], serde_json::json!(["docs/new.md"]));
    assert_eq!(report["removed"], serde_json::json!(["README.md"]));

    let text = run(dir.path(), &["index", "--check"]);
    assert_eq!(code(&text), 1);
    insta::assert_snapshot!("stale-text", stdout(&text));
}

#[test]
fn missing_index_is_stale() {
    let dir = fixture_copy("go-module");
    let out = run(dir.path(), &["index", "--check"]);
    assert_eq!(code(&out), 1);
    assert!(stdout(&out).contains("run `doc-bridge index`"));
}

#[test]
fn corrupt_index_is_an_error_naming_the_fix() {
    let dir = fixture_copy("go-module");
    index(dir.path());
    let path = dir.path().join(".doc-bridge/index.json");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let out = run(dir.path(), &["index", "--check"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("invalid") && stderr(&out).contains("doc-bridge index"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn edited_index_fails_its_seal() {
    let dir = fixture_copy("go-module");
    index(dir.path());
    let path = dir.path().join(".doc-bridge/index.json");
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    value["project"]["name"] = "forged".into();
    std::fs::write(&path, serde_json::to_vec(&value).unwrap()).unwrap();
    let out = run(dir.path(), &["index", "--check"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("contentHash does not match"),
        "{}",
        stderr(&out)
    );
}

/// The artifacts are one line of canonical JSON, whose seals are checked on the bytes; the same
/// content laid out otherwise (indented, as older versions wrote it, or by hand) is still
/// valid, checked by hashing its value, and a forged one indented is still caught.
#[test]
fn artifacts_are_one_canonical_line_and_an_indented_copy_still_verifies() {
    let dir = fixture_copy("go-module");
    index(dir.path());
    let artifacts = dir.path().join(".doc-bridge");
    for name in ["index.json", "snapshot.json"] {
        let bytes = std::fs::read(artifacts.join(name)).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(text.matches('\n').count(), 1, "{name}: one line");
        assert!(text.ends_with("}\n"), "{name}");
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        std::fs::write(
            artifacts.join(name),
            serde_json::to_vec_pretty(&value).unwrap(),
        )
        .unwrap();
    }
    // Nothing vouches for the files now: their seals are checked on their values.
    std::fs::remove_dir_all(artifacts.join("cache")).unwrap();
    let out = run(dir.path(), &["index", "--check"]);
    assert_eq!(code(&out), 0, "{}{}", stdout(&out), stderr(&out));
    let out = run(dir.path(), &["query", "--json", "main.go"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    let path = artifacts.join("index.json");
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    value["project"]["name"] = "forged".into();
    std::fs::write(&path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
    let out = run(dir.path(), &["index", "--check"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

#[test]
fn unknown_algorithm_is_named() {
    let dir = fixture_copy("go-module");
    index(dir.path());
    let path = dir.path().join(".doc-bridge/index.json");
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    value["contentHashAlgo"] = "sha256-normalized-v1".into();
    std::fs::write(&path, serde_json::to_vec(&value).unwrap()).unwrap();
    let out = run(dir.path(), &["index", "--check", "--json"]);
    assert_eq!(code(&out), 2);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["status"], "invalid");
    assert!(
        report["message"]
            .as_str()
            .unwrap()
            .contains("sha256-normalized-v1")
    );
}

#[test]
fn configuration_change_makes_the_index_stale() {
    let dir = fixture_copy("docs-site");
    index(dir.path());
    let config = dir.path().join("doc-bridge.config.json");
    std::fs::write(
        &config,
        r#"{"schemaVersion": 1, "project": {"name": "renamed"}}"#,
    )
    .unwrap();
    let out = run(dir.path(), &["index", "--check", "--json"]);
    assert_eq!(code(&out), 1);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["configurationChanged"], true);
}

#[test]
fn invalid_configuration_is_a_usage_error_naming_the_key() {
    let dir = fixture_copy("docs-site");
    std::fs::write(
        dir.path().join("doc-bridge.config.json"),
        r#"{"schemaVersion": 1, "safety": {"maxFileBytes": "big"}}"#,
    )
    .unwrap();
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("safety.maxFileBytes"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn invalid_exclude_glob_is_a_usage_error_naming_the_key() {
    let dir = fixture_copy("docs-site");
    std::fs::write(
        dir.path().join("doc-bridge.config.json"),
        r#"{"schemaVersion": 1, "safety": {"exclude": ["docs/{a,b"]}}"#,
    )
    .unwrap();
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("safety.exclude") && stderr(&out).contains("docs/{a,b"),
        "{}",
        stderr(&out)
    );
}

/// Sets every directory and file under `root` (`.doc-bridge/` aside) to an old modification
/// time, so stamps recorded afterwards are outside the racy window and can be trusted.
fn age(root: &std::path::Path) {
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000);
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.file_name().is_some_and(|n| n == ".doc-bridge") {
                continue;
            }
            if path.is_dir() {
                stack.push(path.clone());
            }
            if !path.is_symlink() {
                std::fs::File::open(&path)
                    .unwrap()
                    .set_modified(old)
                    .unwrap();
            }
        }
        std::fs::File::open(&dir)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
}

fn check_with_timings(root: &std::path::Path) -> (i32, String) {
    let out = doc_bridge()
        .args(["index", "--check", "--root"])
        .arg(root)
        .env("DOC_BRIDGE_TIMINGS", "1")
        .output()
        .unwrap();
    (code(&out), stderr(&out))
}

#[test]
fn freshness_skips_the_walk_only_while_no_directory_or_ignore_file_moved() {
    let outer = tempfile::tempdir().unwrap();
    let root = outer.path().join("repo");
    copy_tree(&fixtures_dir().join("docs-site"), &root);
    index(&root);
    age(&root);
    // The first check walks and records the listing; the second trusts it.
    let (first, log) = check_with_timings(&root);
    assert_eq!(first, 0, "{log}");
    assert!(log.contains("timing walk:"), "{log}");
    let (second, log) = check_with_timings(&root);
    assert_eq!(second, 0, "{log}");
    assert!(
        !log.contains("timing walk:"),
        "the quick path was not taken: {log}"
    );
    // Nothing moved since the stamps were recorded: they alone decide, nothing is hashed.
    assert!(
        log.contains("timing unchanged stamps:") && !log.contains("timing hash files:"),
        "the stamps did not decide alone: {log}"
    );

    // Edits in place move no directory: the stamps must still catch them. The same bytes
    // written again (a new time, the same content) stay fresh; other bytes of the same length
    // do not.
    let page = root.join("docs/en/index.md");
    let bytes = std::fs::read(&page).unwrap();
    std::fs::write(&page, &bytes).unwrap();
    let (code, log) = check_with_timings(&root);
    assert_eq!(code, 0, "rewriting the same bytes made it stale: {log}");
    let mut edited = bytes.clone();
    let last = edited.len() - 2;
    edited[last] = if edited[last] == b'x' { b'y' } else { b'x' };
    std::fs::write(&page, &edited).unwrap();
    let (code, log) = check_with_timings(&root);
    assert_eq!(code, 1, "an edit in place was missed: {log}");
    std::fs::write(&page, &bytes).unwrap();
    age(&root);

    // A new file moves its directory's time: walked again, and stale.
    std::fs::write(root.join("docs/en/zebra.md"), "# Zebra\n").unwrap();
    let (code, log) = check_with_timings(&root);
    assert_eq!(code, 1, "{log}");
    assert!(log.contains("timing walk:"), "{log}");
    std::fs::remove_file(root.join("docs/en/zebra.md")).unwrap();
    age(&root);
    assert_eq!(check_with_timings(&root).0, 0);
    let (code, log) = check_with_timings(&root);
    assert_eq!(code, 0);
    assert!(!log.contains("timing walk:"), "{log}");

    // An ignore file above the root changes what the walk admits without touching the tree.
    std::fs::write(outer.path().join(".ignore"), "docs/\n").unwrap();
    let (code, log) = check_with_timings(&root);
    assert_eq!(
        code, 1,
        "an ancestor's ignore file must make the index stale: {log}"
    );
}

/// `index` records the walk's listing with the file stamps: the first check after it skips the
/// walk, as long as the run moved no directory of the tree itself (the first run creates
/// `.doc-bridge/`, and a changed `llms.txt` is renamed into the root).
#[test]
fn the_first_check_after_an_index_skips_the_walk() {
    let outer = tempfile::tempdir().unwrap();
    let root = outer.path().join("repo");
    copy_tree(&fixtures_dir().join("docs-site"), &root);
    index(&root);
    // An edit in place to a page's last line: a full run, the same `llms.txt`.
    let page = root.join("docs/en/index.md");
    let mut text = std::fs::read_to_string(&page).unwrap();
    text.push_str("\nOne more line at the end.\n");
    std::fs::write(&page, text).unwrap();
    age(&root);
    let llms = std::fs::read(root.join("llms.txt")).unwrap();
    index(&root);
    assert_eq!(std::fs::read(root.join("llms.txt")).unwrap(), llms);
    let (code, log) = check_with_timings(&root);
    assert_eq!(code, 0, "{log}");
    assert!(
        !log.contains("timing walk:"),
        "the check walked again after index: {log}"
    );
}

/// Removes the query image, so that `query` reads the artifacts (and is vouched for by the
/// search cache) rather than answer from the image (`tests/query_image.rs`).
fn remove_query_image(root: &std::path::Path) {
    std::fs::remove_file(root.join(".doc-bridge/cache/query.bin")).unwrap();
}

/// `args` under `root` with timings on: exit code, stdout, and the timing log.
fn run_with_timings(root: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = doc_bridge()
        .args(args)
        .arg("--root")
        .arg(root)
        .env("DOC_BRIDGE_TIMINGS", "1")
        .output()
        .unwrap();
    (code(&out), stdout(&out), stderr(&out))
}

#[test]
fn the_search_cache_vouches_for_the_index_it_was_made_from_and_for_no_other() {
    let dir = fixture_copy("python-package");
    index(dir.path());
    let sealed = artifact(dir.path(), "index.json")["contentHash"].clone();
    let check = ["index", "--check", "--json"];

    // The cache written with the index answers a fresh check: the index is not even read.
    let (code, vouched, log) = run_with_timings(dir.path(), &check);
    assert_eq!(code, 0, "{log}");
    assert!(!log.contains("timing read index:"), "{log}");
    let report: serde_json::Value = serde_json::from_str(&vouched).unwrap();
    assert_eq!(report["status"], "fresh");
    assert_eq!(report["indexHash"], sealed);
    // A query that reads the index (no query image to answer from) does not hash it again.
    remove_query_image(dir.path());
    let (code, _, log) = run_with_timings(dir.path(), &["query", "module:src/pyfx/store.py"]);
    assert_eq!(code, 0, "{log}");
    assert!(
        log.contains("timing read index:") && !log.contains("timing verify index:"),
        "{log}"
    );

    // A damaged cache vouches for nothing: the index is read and its seal checked, and the
    // answer is the same, byte for byte.
    let cache = dir.path().join(".doc-bridge/cache/search.bin");
    let mut bytes = std::fs::read(&cache).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&cache, &bytes).unwrap();
    let (code, verified, log) = run_with_timings(dir.path(), &check);
    assert_eq!(code, 0, "{log}");
    assert!(log.contains("timing verify index:"), "{log}");
    assert_eq!(verified, vouched);

    // Neither does a cache made for another file: an index edited after the cache was written
    // (the cache is rebuilt by the search, then the index is changed under it).
    let searched = run(dir.path(), &["search", "store"]);
    assert_eq!(searched.status.code(), Some(0));
    let path = dir.path().join(".doc-bridge/index.json");
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    value["project"]["name"] = "forged".into();
    std::fs::write(&path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
    let (code, _, log) = run_with_timings(dir.path(), &check);
    assert_eq!(code, 2, "a forged index passed: {log}");
}

#[test]
fn the_search_cache_vouches_for_the_snapshot_written_with_its_index_and_for_no_other() {
    let dir = fixture_copy("python-package");
    index(dir.path());
    let query = ["query", "module:src/pyfx/store.py"];
    remove_query_image(dir.path());
    let (code, answer, log) = run_with_timings(dir.path(), &query);
    assert_eq!(code, 0, "{log}");
    assert!(
        log.contains("timing read snapshot:") && !log.contains("timing verify snapshot:"),
        "{log}"
    );
    // One look at the cache's record vouches for both files.
    assert_eq!(
        log.matches("timing read search cache header:").count(),
        1,
        "{log}"
    );

    // The same bytes written again: another file as far as the record goes, so hashed, and
    // the answer is the same.
    let path = dir.path().join(".doc-bridge/snapshot.json");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    // (The query image rewritten by the query above names the old file's stamp: not used.)
    let (code, again, log) = run_with_timings(dir.path(), &query);
    assert_eq!(code, 0, "{log}");
    assert!(log.contains("timing verify snapshot:"), "{log}");
    assert_eq!(again, answer);

    // A forged snapshot that keeps the seal it claims is caught by that hash.
    let mut value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    value["project"]["name"] = "forged".into();
    std::fs::write(&path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
    let out = run(dir.path(), &query);
    assert_eq!(out.status.code(), Some(2), "a forged snapshot passed");
    assert!(stderr(&out).contains("does not match"), "{}", stderr(&out));
}
