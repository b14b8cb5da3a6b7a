//! `doc-bridge index --watch` as a real child process on fixture copies: after every change the
//! artifacts it writes are byte-identical to those of a cold `doc-bridge index` of the same tree.
//!
//! Fair comparison: the cold run indexes a copy of the watched tree (without `.doc-bridge/`, so
//! no cache or previous artifact helps it) in a directory of the same name (the default project
//! name is the directory's), and both processes run with the same `SOURCE_DATE_EPOCH`, so
//! `generatedAt` is equal exactly when the content is. Every byte of `snapshot.json` and
//! `index.json` is compared. Nothing is timed: the tests poll the artifacts until they match,
//! with a generous deadline, and fail with the first differing line.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;

const DEADLINE: Duration = Duration::from_secs(30);
const POLL: Duration = Duration::from_millis(50);
const ARTIFACTS: [&str; 2] = ["snapshot.json", "index.json"];

/// A running `doc-bridge index --watch --json`; killed on drop, so a failing test leaks no
/// process.
struct Watch {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
    stderr: Arc<Mutex<String>>,
}

impl Watch {
    /// Starts watching `root` and waits for the initial index.
    fn start(root: &Path) -> Watch {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("doc-bridge"))
            .args([
                "index",
                "--watch",
                "--json",
                "--debounce-ms",
                "50",
                "--root",
            ])
            .arg(root)
            .env("SOURCE_DATE_EPOCH", "1767225600")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let stderr = Arc::new(Mutex::new(String::new()));
        let stdout = child.stdout.take().unwrap();
        let sink = Arc::clone(&lines);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        let err = child.stderr.take().unwrap();
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                let mut text = sink.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
            }
        });
        let watch = Watch {
            child,
            lines,
            stderr,
        };
        watch.wait_for(
            |lines| lines.iter().any(|l| event(l) == "index"),
            "initial index",
        );
        watch
    }

    /// Polls the JSON lines until `done` holds.
    fn wait_for(&self, done: impl Fn(&[String]) -> bool, what: &str) {
        let start = Instant::now();
        while start.elapsed() < DEADLINE {
            if done(&self.lines.lock().unwrap()) {
                return;
            }
            std::thread::sleep(POLL);
        }
        panic!(
            "gave up waiting for {what}; stdout: {:?}; stderr: {}",
            self.lines.lock().unwrap(),
            self.stderr.lock().unwrap()
        );
    }

    /// Waits for the process to end and returns its exit code.
    fn wait_exit(&mut self) -> i32 {
        let start = Instant::now();
        while start.elapsed() < DEADLINE {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            std::thread::sleep(POLL);
        }
        panic!("the watch did not exit");
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn event(line: &str) -> String {
    serde_json::from_str::<serde_json::Value>(line)
        .ok()
        .and_then(|v| v["event"].as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The artifacts of a cold `doc-bridge index` of `root` as it is now.
fn cold_artifacts(root: &Path) -> Vec<Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join(root.file_name().unwrap());
    copy_without_artifacts(root, &copy);
    index(&copy);
    ARTIFACTS
        .iter()
        .map(|name| artifact_bytes(&copy, name))
        .collect()
}

fn copy_without_artifacts(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() == ".doc-bridge" {
            continue;
        }
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_without_artifacts(&entry.path(), &target);
        } else if let Err(e) = std::fs::copy(entry.path(), &target) {
            // An atomic write's temporary file (the watch rewriting `llms.txt` beside the
            // tree's files) can be renamed away between the listing and the copy.
            assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "{e}");
        }
    }
}

/// Polls until the watched tree's artifacts equal a cold index of the same tree, byte for byte.
fn assert_matches_cold_index(watch: &Watch, root: &Path, step: &str) {
    let expected = cold_artifacts(root);
    let start = Instant::now();
    loop {
        let actual: Vec<Vec<u8>> = ARTIFACTS
            .iter()
            .map(|name| std::fs::read(root.join(".doc-bridge").join(name)).unwrap_or_default())
            .collect();
        if actual == expected {
            return;
        }
        if start.elapsed() > DEADLINE {
            eprintln!("watch stdout: {:?}", watch.lines());
            eprintln!("watch stderr: {}", watch.stderr());
            for (i, name) in ARTIFACTS.iter().enumerate() {
                assert_same_bytes(&actual[i], &expected[i], &format!("{step}: {name}"));
            }
        }
        std::thread::sleep(POLL);
    }
}

fn snapshot_paths(root: &Path) -> Vec<String> {
    artifact(root, "snapshot.json")["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn the_initial_index_equals_a_cold_index() {
    let repo = fixture_copy("ts-workspace");
    let watch = Watch::start(repo.path());
    assert_matches_cold_index(&watch, repo.path(), "initial");
}

#[test]
fn an_edited_document_is_reflected_in_the_index() {
    let repo = fixture_copy("docs-site");
    let root = repo.path();
    let watch = Watch::start(root);
    let page = root.join("docs/en/index.md");
    let mut text = std::fs::read_to_string(&page).unwrap();
    text.push_str("\n## Zanzibar quokka section\n\nA brand new paragraph.\n");
    std::fs::write(&page, text).unwrap();
    watch.wait_for(
        |_| {
            std::fs::read_to_string(root.join(".doc-bridge/index.json"))
                .is_ok_and(|index| index.contains("Zanzibar quokka section"))
        },
        "the new heading in index.json",
    );
    assert_matches_cold_index(&watch, root, "edit");
    let refresh = watch
        .lines()
        .into_iter()
        .find(|l| event(l) == "refresh")
        .unwrap();
    let refresh: serde_json::Value = serde_json::from_str(&refresh).unwrap();
    assert_eq!(refresh["modified"], serde_json::json!(["docs/en/index.md"]));
    assert_eq!(refresh["reread"], 1, "only the edited file is read again");
}

#[test]
fn created_deleted_and_renamed_files_match_a_cold_index() {
    let repo = fixture_copy("ts-workspace");
    let root = repo.path();
    let watch = Watch::start(root);

    std::fs::write(
        root.join("docs/new-page.md"),
        "# New page\n\nSee `README.md`.\n",
    )
    .unwrap();
    watch.wait_for(
        |_| snapshot_paths(root).contains(&"docs/new-page.md".into()),
        "create",
    );
    assert_matches_cold_index(&watch, root, "create");

    std::fs::rename(root.join("docs/new-page.md"), root.join("docs/renamed.md")).unwrap();
    watch.wait_for(
        |_| {
            let paths = snapshot_paths(root);
            paths.contains(&"docs/renamed.md".into()) && !paths.contains(&"docs/new-page.md".into())
        },
        "rename",
    );
    assert_matches_cold_index(&watch, root, "rename");

    std::fs::remove_file(root.join("docs/renamed.md")).unwrap();
    watch.wait_for(
        |_| !snapshot_paths(root).contains(&"docs/renamed.md".into()),
        "delete",
    );
    assert_matches_cold_index(&watch, root, "delete");
}

#[test]
fn a_removed_directory_matches_a_cold_index() {
    let repo = fixture_copy("docs-site");
    let root = repo.path();
    let watch = Watch::start(root);
    std::fs::remove_dir_all(root.join("docs/en/guide")).unwrap();
    watch.wait_for(
        |_| {
            !snapshot_paths(root)
                .iter()
                .any(|p| p.starts_with("docs/en/guide/"))
        },
        "directory removal",
    );
    assert_matches_cold_index(&watch, root, "remove directory");
    // A directory moved into the tree is a set of new files.
    std::fs::create_dir_all(root.join("../outside/moved")).unwrap();
    std::fs::write(root.join("../outside/moved/page.md"), "# Moved in\n").unwrap();
    std::fs::rename(root.join("../outside/moved"), root.join("docs/moved")).unwrap();
    watch.wait_for(
        |_| snapshot_paths(root).contains(&"docs/moved/page.md".into()),
        "move in",
    );
    assert_matches_cold_index(&watch, root, "move directory in");
}

#[test]
fn files_that_appear_and_vanish_quickly_leave_no_trace() {
    let repo = fixture_copy("docs-site");
    let root = repo.path();
    let watch = Watch::start(root);
    for i in 0..200 {
        let path = root.join(format!("docs/flicker-{}.md", i % 3));
        std::fs::write(&path, format!("# Flicker {i}\n")).unwrap();
        std::fs::remove_file(&path).unwrap();
    }
    std::fs::write(root.join("docs/done.md"), "# Done\n").unwrap();
    watch.wait_for(
        |_| snapshot_paths(root).contains(&"docs/done.md".into()),
        "marker file",
    );
    assert_matches_cold_index(&watch, root, "flicker");
    assert!(
        !snapshot_paths(root).iter().any(|p| p.contains("flicker")),
        "no vanished file is left in the snapshot"
    );
}

#[test]
fn a_configuration_change_is_applied_and_a_broken_one_is_reported() {
    let repo = fixture_copy("docs-site");
    let root = repo.path();
    let watch = Watch::start(root);
    let config = root.join("doc-bridge.config.json");
    std::fs::write(&config, "{not json").unwrap();
    watch.wait_for(
        |lines| lines.iter().any(|l| event(l) == "error"),
        "config error",
    );
    assert!(
        watch.stderr().contains("invalid configuration"),
        "{}",
        watch.stderr()
    );
    std::fs::write(
        &config,
        r#"{"schemaVersion": 1, "project": {"name": "renamed-site"}, "safety": {"exclude": ["drafts/**"]}}"#,
    )
    .unwrap();
    watch.wait_for(
        |_| {
            std::fs::read_to_string(root.join(".doc-bridge/snapshot.json"))
                .is_ok_and(|s| s.contains("renamed-site"))
        },
        "new project name",
    );
    assert_matches_cold_index(&watch, root, "config");
}

#[test]
fn removing_the_root_ends_the_watch_with_exit_2() {
    let repo = fixture_copy("docs-site");
    let root = repo.path().to_path_buf();
    let mut watch = Watch::start(&root);
    std::fs::remove_dir_all(&root).unwrap();
    assert_eq!(watch.wait_exit(), 2);
    assert!(
        watch
            .stderr()
            .contains("was removed or moved; watch stopped"),
        "{}",
        watch.stderr()
    );
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_the_watch_with_exit_0_and_leaves_no_temporary_file_behind() {
    let repo = fixture_copy("docs-site");
    let mut watch = Watch::start(repo.path());
    // One refresh, so the artifacts are replaced.
    let page = repo.path().join("docs/en/index.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, retitle(&text)).unwrap();
    watch.wait_for(
        |lines| lines.iter().any(|l| event(l) == "refresh"),
        "a refresh",
    );
    let artifacts = repo.path().join(".doc-bridge");
    let temporary = || -> Vec<String> {
        std::fs::read_dir(&artifacts)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with(".doc-bridge-tmp-"))
            .collect()
    };
    assert_eq!(temporary(), Vec::<String>::new());
    let status = Command::new("kill")
        .args(["-INT", &watch.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(watch.wait_exit(), 0);
    watch.wait_for(
        |lines| lines.iter().any(|l| event(l) == "stopped"),
        "stop line",
    );
    assert!(temporary().is_empty(), "{:?}", temporary());
}

#[test]
fn llms_txt_follows_a_retitled_document_without_refreshing_itself() {
    let repo = fixture_copy("docs-site");
    let root = repo.path();
    let watch = Watch::start(root);
    let llms = root.join("llms.txt");
    watch.wait_for(|_| llms.exists(), "llms.txt after the initial index");
    let page = root.join("docs/en/index.md");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, retitle(&text)).unwrap();
    watch.wait_for(
        |_| std::fs::read_to_string(&llms).is_ok_and(|t| t.contains("Okapi handbook")),
        "the new title in llms.txt",
    );
    assert_matches_cold_index(&watch, root, "retitle");
    // Writing llms.txt is our own output: it never triggers a refresh of its own.
    let refreshes = || {
        watch
            .lines()
            .into_iter()
            .filter(|l| event(l) == "refresh")
            .count()
    };
    let seen = refreshes();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert_eq!(
        refreshes(),
        seen,
        "llms.txt must not feed back into the watch"
    );
}

/// `text` with its title (front matter `title`, else the first H1) replaced by "Okapi handbook".
fn retitle(text: &str) -> String {
    if let Some(line) = text.lines().find(|l| l.starts_with("title:")) {
        return text.replacen(line, "title: Okapi handbook", 1);
    }
    if let Some(line) = text.lines().find(|l| l.starts_with("# ")) {
        return text.replacen(line, "# Okapi handbook", 1);
    }
    format!("# Okapi handbook\n\n{text}")
}
