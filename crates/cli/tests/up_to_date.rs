//! `doc-bridge index` when nothing changed since the last run: the same summary, nothing
//! observed or written; and every change that must make it a full run again does, leaving the
//! artifacts a first run on the same tree writes.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::*;

/// `index --json` under `root` (plus `extra`): the report and the timing log.
fn index_json(root: &Path, extra: &[&str]) -> (serde_json::Value, String) {
    let out = doc_bridge()
        .args(["index", "--json"])
        .args(extra)
        .arg("--root")
        .arg(root)
        .env("DOC_BRIDGE_TIMINGS", "1")
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    (serde_json::from_slice(&out.stdout).unwrap(), stderr(&out))
}

fn up_to_date(report: &serde_json::Value) -> bool {
    report["upToDate"].as_bool().unwrap()
}

/// The artifacts a first run writes on a copy of `root`'s tree (without `.doc-bridge/`) equal
/// the ones in `root`.
fn assert_artifacts_of_a_first_run(root: &Path) {
    // Under the same directory name: a project without a configured name is named after it.
    let outer = tempfile::tempdir().unwrap();
    let fresh = outer.path().join(root.file_name().unwrap());
    std::fs::create_dir_all(&fresh).unwrap();
    copy_tree_without_artifacts(root, &fresh);
    let out = run(&fresh, &["index", "--quiet"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    for name in ["snapshot.json", "index.json"] {
        let mut ours = artifact(root, name);
        let mut first = artifact(&fresh, name);
        // Times differ between runs by design (kept while the content is unchanged).
        for value in [&mut ours, &mut first] {
            value["generatedAt"] = serde_json::Value::Null;
        }
        assert_eq!(ours, first, "{name}");
    }
}

fn copy_tree_without_artifacts(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == ".doc-bridge" {
            continue;
        }
        let target = to.join(&name);
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree_without_artifacts(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn an_unchanged_repository_is_up_to_date_and_reported_as_a_full_run_reports_it() {
    let dir = fixture_copy("docs-site");
    let (first, _) = index_json(dir.path(), &[]);
    assert!(!up_to_date(&first));
    let bytes = |name: &str| artifact_bytes(dir.path(), name);
    let (snapshot, index, llms) = (
        bytes("snapshot.json"),
        bytes("index.json"),
        std::fs::read(dir.path().join("llms.txt")).unwrap(),
    );

    let (second, log) = index_json(dir.path(), &[]);
    assert!(up_to_date(&second), "{second:#}");
    assert!(!log.contains("timing observe:"), "observed again: {log}");
    // A forced run over the same tree reports the same, bar how it got there.
    let (forced, log) = index_json(dir.path(), &["--force"]);
    assert!(!up_to_date(&forced));
    assert!(log.contains("timing observe:"), "{log}");
    let without_how = |report: &serde_json::Value| {
        let mut report = report.clone();
        report["upToDate"] = serde_json::Value::Null;
        report["reusedAnalyses"] = serde_json::Value::Null;
        report
    };
    assert_eq!(without_how(&second), without_how(&forced));
    assert_eq!(second["written"], forced["written"]);
    assert_eq!(
        second["written"],
        serde_json::json!({"snapshot": false, "index": false, "llms": false})
    );
    assert_eq!(bytes("snapshot.json"), snapshot);
    assert_eq!(bytes("index.json"), index);
    assert_eq!(std::fs::read(dir.path().join("llms.txt")).unwrap(), llms);

    // And up to date again after the forced run; the text says so.
    let out = run(dir.path(), &["index"]);
    assert_eq!(code(&out), 0);
    assert!(
        stdout(&out).starts_with("up to date (nothing changed since the last run): "),
        "{}",
        stdout(&out)
    );
}

/// One way to change what a run would write, and whether it changes the artifacts.
struct Change {
    name: &'static str,
    apply: fn(&Path),
}

#[test]
fn every_change_a_run_depends_on_makes_it_a_full_run() {
    let changes = [
        Change {
            name: "an input edited",
            apply: |root| std::fs::write(root.join("docs/en/index.md"), "# Edited\n").unwrap(),
        },
        Change {
            name: "an input added",
            apply: |root| std::fs::write(root.join("docs/en/zebra.md"), "# Zebra\n").unwrap(),
        },
        Change {
            name: "an input removed",
            apply: |root| std::fs::remove_file(root.join("README.md")).unwrap(),
        },
        Change {
            name: "the configuration",
            apply: |root| {
                std::fs::write(
                    root.join("doc-bridge.config.json"),
                    r#"{"schemaVersion": 1, "project": {"name": "renamed"}}"#,
                )
                .unwrap()
            },
        },
        Change {
            name: "llms.txt removed",
            apply: |root| std::fs::remove_file(root.join("llms.txt")).unwrap(),
        },
        Change {
            name: "index.json rewritten with its own bytes",
            apply: |root| rewrite(&root.join(".doc-bridge/index.json")),
        },
        Change {
            name: "snapshot.json rewritten with its own bytes",
            apply: |root| rewrite(&root.join(".doc-bridge/snapshot.json")),
        },
        Change {
            name: "index.json removed",
            apply: |root| std::fs::remove_file(root.join(".doc-bridge/index.json")).unwrap(),
        },
        Change {
            name: "the search cache damaged",
            apply: |root| {
                let path = root.join(".doc-bridge/cache/search.bin");
                let mut bytes = std::fs::read(&path).unwrap();
                let middle = bytes.len() / 2;
                bytes[middle] ^= 0xff;
                std::fs::write(&path, bytes).unwrap();
            },
        },
        Change {
            name: "the record damaged",
            apply: |root| {
                std::fs::write(root.join(".doc-bridge/cache/last-index.json"), "{").unwrap()
            },
        },
        Change {
            name: "another build of doc-bridge",
            apply: |root| {
                let path = root.join(".doc-bridge/cache/last-index.json");
                let mut record: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
                let modified = record["program"]["executable"]["modified_ns"]
                    .as_i64()
                    .unwrap();
                record["program"]["executable"]["modified_ns"] = (modified + 1).into();
                std::fs::write(&path, serde_json::to_vec(&record).unwrap()).unwrap();
            },
        },
    ];
    for change in changes {
        let dir = fixture_copy("docs-site");
        let (first, _) = index_json(dir.path(), &[]);
        assert!(!up_to_date(&first));
        (change.apply)(dir.path());
        let (report, log) = index_json(dir.path(), &[]);
        assert!(!up_to_date(&report), "{}: skipped\n{log}", change.name);
        assert_artifacts_of_a_first_run(dir.path());
        assert!(
            dir.path().join("llms.txt").exists(),
            "{}: llms.txt",
            change.name
        );
        // Then up to date again.
        let (again, log) = index_json(dir.path(), &[]);
        assert!(
            up_to_date(&again),
            "{}: not up to date after\n{log}",
            change.name
        );
    }
}

/// The same bytes, written to a new file: a new stamp.
fn rewrite(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    std::fs::remove_file(path).unwrap();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_renamed_repository_named_after_its_directory_is_indexed_again() {
    let outer = tempfile::tempdir().unwrap();
    let before = outer.path().join("before");
    copy_tree(&fixtures_dir().join("go-module"), &before);
    let (first, _) = index_json(&before, &[]);
    assert!(!up_to_date(&first));
    // A rename keeps every file's stamp.
    let after = outer.path().join("after");
    std::fs::rename(&before, &after).unwrap();
    let (report, _) = index_json(&after, &[]);
    assert!(!up_to_date(&report));
    assert_artifacts_of_a_first_run(&after);
}

#[test]
fn warnings_a_full_run_gives_are_given_every_time() {
    // A foreign llms.txt is left alone with a warning.
    let dir = fixture_copy("go-module");
    std::fs::write(dir.path().join("llms.txt"), "# Mine\n").unwrap();
    for _ in 0..2 {
        let out = run(dir.path(), &["index", "--json"]);
        assert_eq!(code(&out), 0);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(!up_to_date(&report));
        assert!(stderr(&out).contains("not generated by doc-bridge"));
    }
    // An invalid overlay is ignored with a warning.
    let dir = fixture_copy("go-module");
    index(dir.path());
    let overlay = dir.path().join(".doc-bridge/enrich/overlay.json");
    std::fs::create_dir_all(overlay.parent().unwrap()).unwrap();
    std::fs::write(&overlay, "{ not json").unwrap();
    for _ in 0..2 {
        let out = run(dir.path(), &["index", "--json"]);
        assert_eq!(code(&out), 0);
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(!up_to_date(&report));
        assert!(
            stderr(&out).contains("ignoring the enrichment overlay"),
            "{}",
            stderr(&out)
        );
    }
}
