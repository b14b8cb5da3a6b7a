//! Crash consistency: whatever moment an `index` is killed at, the next command accepts the
//! pair of artifacts it finds or reports it stale (never "corrupt"), the next `index` repairs
//! it, and temporary files left behind are cleaned up.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::time::{Duration, SystemTime};

use common::*;

fn tree(root: &Path, docs: usize) {
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::write(
        root.join("README.md"),
        "# Readme\n\nStart [here](docs/d0.md).\n",
    )
    .unwrap();
    for i in 0..docs {
        std::fs::write(
            root.join(format!("docs/d{i}.md")),
            format!(
                "# Document {i}\n\nAbout topic {i} and [the next](d{}.md).\n",
                i + 1
            ),
        )
        .unwrap();
    }
}

/// The moment between the snapshot's rename and the index's, made exact: the snapshot the
/// old index names is kept (as `index` keeps it), the new snapshot is in place, the index is
/// the old one. Queries answer from the old pair (stale, since the file changed); the next
/// `index` leaves a consistent pair and nothing kept.
#[test]
fn a_run_killed_between_the_two_renames_leaves_a_pair_readers_accept() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path(), 5);
    index(dir.path());
    let old_index = artifact_bytes(dir.path(), "index.json");
    let old_snapshot = artifact_bytes(dir.path(), "snapshot.json");
    std::fs::write(
        dir.path().join("docs/d1.md"),
        "# Document 1\n\nRewritten.\n",
    )
    .unwrap();
    index(dir.path());
    let kept = dir.path().join(".doc-bridge/cache/snapshot-paired.json");
    assert!(!kept.exists(), "a completed run releases the kept snapshot");
    // The interrupted state: the old snapshot kept, the new one in place, the old index.
    std::fs::write(&kept, &old_snapshot).unwrap();
    std::fs::write(dir.path().join(".doc-bridge/index.json"), &old_index).unwrap();
    assert_ne!(artifact_bytes(dir.path(), "snapshot.json"), old_snapshot);

    let stale = run(dir.path(), &["search", "topic"]);
    assert_eq!(code(&stale), 1, "stale, not corrupt: {}", stderr(&stale));
    let allowed = run(dir.path(), &["search", "topic", "--allow-stale"]);
    assert_eq!(code(&allowed), 0, "{}", stderr(&allowed));
    let query = run(
        dir.path(),
        &["query", "document:docs/d2.md", "--allow-stale"],
    );
    assert_eq!(code(&query), 0, "{}", stderr(&query));
    assert_eq!(code(&run(dir.path(), &["index", "--check"])), 1);

    // The next index repairs: a pair that names each other, nothing kept.
    index(dir.path());
    assert!(!kept.exists());
    assert_eq!(code(&run(dir.path(), &["search", "topic"])), 0);
}

/// Without the kept snapshot, a pair from two runs is a mismatch that `index --check` reports
/// (exit 2) rather than calling the index fresh; a corrupt snapshot likewise.
#[test]
fn a_corrupt_snapshot_is_never_called_fresh() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path(), 3);
    index(dir.path());
    assert_eq!(code(&run(dir.path(), &["index", "--check"])), 0);
    let path = dir.path().join(".doc-bridge/snapshot.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("Document 1", "Document X")).unwrap();
    let check = run(dir.path(), &["index", "--check"]);
    assert_eq!(code(&check), 2, "{}{}", stdout(&check), stderr(&check));
    assert!(stderr(&check).contains("snapshot"), "{}", stderr(&check));
    let json = run(dir.path(), &["index", "--check", "--json"]);
    assert_eq!(code(&json), 2);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["status"], "invalid");
}

/// A bounded race with real kills: `index` is killed at varied moments after an edit; every
/// time, a reader either answers or says stale, never "corrupt", and the next `index` repairs.
#[test]
fn kill_nine_during_index_never_leaves_a_pair_readers_refuse() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path(), 1500);
    index(dir.path());
    let binary = assert_cmd::cargo::cargo_bin("doc-bridge");
    for round in 0..6u64 {
        std::fs::write(
            dir.path().join(format!("docs/d{round}.md")),
            format!("# Document {round}\n\nEdited in round {round}.\n"),
        )
        .unwrap();
        let mut child = std::process::Command::new(&binary)
            .args(["index", "--quiet", "--root"])
            .arg(dir.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(40 + round * 90));
        let _ = child.kill();
        let _ = child.wait();
        let out = run(dir.path(), &["search", "topic", "--allow-stale"]);
        assert_eq!(code(&out), 0, "round {round}: {}", stderr(&out));
    }
    index(dir.path());
    assert_eq!(code(&run(dir.path(), &["search", "topic"])), 0);
    assert!(
        !dir.path()
            .join(".doc-bridge/cache/snapshot-paired.json")
            .exists()
    );
}

/// Temporary files a killed run left behind are removed by the next `index`, once old enough
/// that no live write can own them.
#[test]
fn stale_temporary_files_are_removed_and_fresh_ones_kept() {
    let dir = tempfile::tempdir().unwrap();
    tree(dir.path(), 2);
    index(dir.path());
    let old_time = SystemTime::now() - Duration::from_secs(3600);
    let mut made = Vec::new();
    for (rel, old) in [
        (".doc-bridge/.doc-bridge-tmp-old1", true),
        (".doc-bridge/cache/.doc-bridge-tmp-old2", true),
        (".doc-bridge-tmp-old-llms", true),
        (".doc-bridge/.doc-bridge-tmp-live", false),
    ] {
        let path = dir.path().join(rel);
        std::fs::write(&path, vec![0u8; 1024]).unwrap();
        if old {
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(old_time)
                .unwrap();
        }
        made.push((path, old));
    }
    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "llms": {"enabled": true}}),
    );
    index(dir.path());
    for (path, old) in made {
        assert_eq!(path.exists(), !old, "{}", path.display());
    }
}
