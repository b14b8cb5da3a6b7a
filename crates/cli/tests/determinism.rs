//! Same inputs, same bytes: across runs, thread counts and file-discovery order.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;

#[test]
fn artifacts_are_identical_across_thread_counts_and_directories() {
    for name in REPOSITORY_FIXTURES {
        let one = fixture_copy(name);
        let two = fixture_copy(name);
        let a = run(one.path(), &["index", "--quiet", "--threads", "1"]);
        let b = run(two.path(), &["index", "--quiet", "--threads", "4"]);
        assert_eq!((code(&a), code(&b)), (0, 0));
        for artifact in ["snapshot.json", "index.json"] {
            assert_same_bytes(
                &artifact_bytes(one.path(), artifact),
                &artifact_bytes(two.path(), artifact),
                &format!("{name}/{artifact} between 1 and 4 threads"),
            );
        }
    }
}

#[test]
fn artifacts_do_not_depend_on_file_creation_order() {
    // Create the same files in reverse order: directory listing order may follow creation order
    // on some file systems.
    let source = fixtures_dir().join("ts-workspace");
    let mut files = Vec::new();
    collect(&source, &source, &mut files);
    let forward_dir = tempfile::tempdir().unwrap();
    let backward_dir = tempfile::tempdir().unwrap();
    let forward = forward_dir.path().join("repo");
    let backward = backward_dir.path().join("repo");
    for rel in &files {
        write_copy(&source, &forward, rel);
    }
    for rel in files.iter().rev() {
        write_copy(&source, &backward, rel);
    }
    index(&forward);
    index(&backward);
    for name in ["index.json", "snapshot.json"] {
        assert_same_bytes(
            &artifact_bytes(&forward, name),
            &artifact_bytes(&backward, name),
            name,
        );
    }
}

fn collect(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            collect(root, &entry.path(), out);
        } else {
            out.push(entry.path().strip_prefix(root).unwrap().to_path_buf());
        }
    }
    out.sort();
}

fn write_copy(from_root: &std::path::Path, to_root: &std::path::Path, rel: &std::path::Path) {
    let target = to_root.join(rel);
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::copy(from_root.join(rel), target).unwrap();
}

#[test]
fn unchanged_repository_rewrites_nothing_and_keeps_generated_at() {
    let dir = fixture_copy("rust-workspace");
    let first = doc_bridge()
        .env("SOURCE_DATE_EPOCH", "1000")
        .args(["index", "--quiet", "--root"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(code(&first), 0);
    let before = artifact_bytes(dir.path(), "index.json");
    // A later clock: the content did not change, so generatedAt and every byte stay.
    let second = doc_bridge()
        .env("SOURCE_DATE_EPOCH", "2000000")
        // Forced: rebuilt in full, not found up to date.
        .args(["index", "--force", "--json", "--root"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(code(&second), 0);
    let report: serde_json::Value = serde_json::from_slice(&second.stdout).unwrap();
    assert_eq!(report["written"]["index"], false);
    assert_eq!(before, artifact_bytes(dir.path(), "index.json"));

    // A content change moves the hash and the time.
    std::fs::write(dir.path().join("docs/design.md"), "# Changed\n").unwrap();
    let third = doc_bridge()
        .env("SOURCE_DATE_EPOCH", "2000000")
        .args(["index", "--quiet", "--root"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(code(&third), 0);
    let after = artifact(dir.path(), "index.json");
    assert_ne!(before, artifact_bytes(dir.path(), "index.json"));
    assert_eq!(after["generatedAt"], "1970-01-24T03:33:20.000Z");

    // The index written over the previous one (as if unchanged, the hash and time put in at
    // the end) is byte for byte the index of a first run on the changed tree.
    let fresh = fixture_copy("rust-workspace");
    std::fs::write(fresh.path().join("docs/design.md"), "# Changed\n").unwrap();
    let cold = doc_bridge()
        .env("SOURCE_DATE_EPOCH", "2000000")
        .args(["index", "--quiet", "--root"])
        .arg(fresh.path())
        .output()
        .unwrap();
    assert_eq!(code(&cold), 0);
    for name in ["index.json", "snapshot.json"] {
        assert_same_bytes(
            &artifact_bytes(fresh.path(), name),
            &artifact_bytes(dir.path(), name),
            name,
        );
    }
}

#[test]
fn a_previous_time_of_another_length_is_still_kept() {
    // The index is written as if unchanged and the time put in at the end when it changed,
    // which needs times of one length; a hand-edited time takes the other way, same result.
    let dir = fixture_copy("python-package");
    let index = |epoch: &str| {
        let out = doc_bridge()
            .env("SOURCE_DATE_EPOCH", epoch)
            .args(["index", "--json", "--root"])
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    index("1000");
    let path = dir.path().join(".doc-bridge/index.json");
    let edited =
        std::fs::read_to_string(&path)
            .unwrap()
            .replacen("1970-01-01T00:16:40.000Z", "long ago", 1);
    std::fs::write(&path, &edited).unwrap();
    let report = index("2000000");
    assert_eq!(report["written"]["index"], false);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
    // A change: the new time, the file as a first run writes it.
    std::fs::write(dir.path().join("README.md"), "# Changed\n").unwrap();
    let report = index("2000000");
    assert_eq!(report["written"]["index"], true);
    assert_eq!(
        artifact(dir.path(), "index.json")["generatedAt"],
        "1970-01-24T03:33:20.000Z"
    );
}

#[test]
fn analysis_cache_is_reused_and_never_changes_the_artifacts() {
    let dir = fixture_copy("ts-workspace");
    let json = |args: &[&str]| -> serde_json::Value {
        let out = run(dir.path(), args);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let first = json(&["index", "--json"]);
    assert_eq!(first["reusedAnalyses"], 0);
    let snapshot = artifact_bytes(dir.path(), "snapshot.json");
    let index_bytes = artifact_bytes(dir.path(), "index.json");

    // Forced: nothing changed, so an unforced run would not analyse anything at all.
    let second = json(&["index", "--force", "--json"]);
    assert_eq!(second["reusedAnalyses"], first["entities"]["module"]);
    assert_eq!(second["written"]["snapshot"], false);
    assert_same_bytes(
        &snapshot,
        &artifact_bytes(dir.path(), "snapshot.json"),
        "snapshot after reuse",
    );

    // A corrupt cache is ignored, and the result is the same.
    std::fs::write(
        dir.path().join(".doc-bridge/cache/analyses.bin"),
        b"\x01\x02garbage",
    )
    .unwrap();
    let third = json(&["index", "--force", "--json"]);
    assert_eq!(third["reusedAnalyses"], 0);
    assert_same_bytes(
        &index_bytes,
        &artifact_bytes(dir.path(), "index.json"),
        "index after a corrupt cache",
    );
}
