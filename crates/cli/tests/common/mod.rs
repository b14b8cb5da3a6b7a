//! Shared helpers for the CLI tests: fixture copies in temporary directories and real runs of
//! the `doc-bridge` binary.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Output;

/// The fixtures that model whole repositories (`problems` and `site-links`, which hold known
/// problems for single rules, are not among them): the determinism and contract tests run on
/// every one.
pub const REPOSITORY_FIXTURES: &[&str] = &[
    "ts-workspace",
    "rust-workspace",
    "python-package",
    "go-module",
    "docs-site",
    "sphinx-project",
    "asciidoc-site",
    "java-project",
    "csharp-project",
    "ruby-gem",
    "ruby-app",
    "swift-package",
    "cmake-project",
    "php-app",
    "gradle-project",
];

/// The repository's `fixtures/` directory.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// A fixture copied to `<temporary directory>/<fixture name>`, removed on drop. The root keeps
/// the fixture's name, so the default project name does not depend on the temporary path.
pub struct FixtureCopy {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl FixtureCopy {
    /// The repository root.
    pub fn path(&self) -> &Path {
        &self.root
    }
}

/// Copies a fixture repository into a fresh temporary directory (outside any git repository,
/// so only the fixture's own ignore files apply).
pub fn fixture_copy(name: &str) -> FixtureCopy {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join(name);
    copy_tree(&fixtures_dir().join(name), &root);
    FixtureCopy { _dir: dir, root }
}

/// Asserts two byte strings are equal, reporting the first differing line instead of the bytes.
pub fn assert_same_bytes(a: &[u8], b: &[u8], label: &str) {
    if a == b {
        return;
    }
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    let first = a
        .lines()
        .zip(b.lines())
        .enumerate()
        .find(|(_, (x, y))| x != y);
    panic!("{label} differs; first difference: {first:?}");
}

/// Recursively copies `from` into `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .unwrap()
        .map(|e| e.unwrap())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A `doc-bridge` command with a fixed clock.
pub fn doc_bridge() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("doc-bridge").unwrap();
    cmd.env("SOURCE_DATE_EPOCH", "1767225600")
        .env_remove("RUST_LOG");
    cmd
}

/// Runs `doc-bridge <args> --root <root>` and returns its output.
pub fn run(root: &Path, args: &[&str]) -> Output {
    doc_bridge()
        .args(args)
        .arg("--root")
        .arg(root)
        .output()
        .unwrap()
}

/// The exit code.
pub fn code(output: &Output) -> i32 {
    output.status.code().unwrap_or(-1)
}

/// stdout as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// stderr as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Reads `.doc-bridge/<name>` as JSON.
pub fn artifact(root: &Path, name: &str) -> serde_json::Value {
    let bytes = std::fs::read(root.join(".doc-bridge").join(name)).unwrap();
    serde_json::from_slice(&bytes).unwrap()
}

/// Reads `.doc-bridge/<name>` as bytes.
pub fn artifact_bytes(root: &Path, name: &str) -> Vec<u8> {
    std::fs::read(root.join(".doc-bridge").join(name)).unwrap()
}

/// Indexes `root`, asserting success.
pub fn index(root: &Path) {
    let output = run(root, &["index", "--quiet"]);
    assert_eq!(code(&output), 0, "index failed: {}", stderr(&output));
}

/// Writes `config` as the repository's `doc-bridge.config.json`.
#[allow(dead_code)]
pub fn write_config(root: &Path, config: &serde_json::Value) {
    std::fs::write(
        root.join("doc-bridge.config.json"),
        serde_json::to_vec(config).unwrap(),
    )
    .unwrap();
}

/// Every file under `dir` (recursively) and its bytes, by path relative to `dir`; empty when
/// `dir` does not exist. For asserting that a command wrote nothing.
pub fn tree_bytes(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().to_path_buf();
                files.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}
