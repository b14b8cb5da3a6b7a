//! A hostile tree: every kind of bad input yields a diagnostic and the rest is still indexed.
//! Never a panic; never a file outside the root read.
#![allow(clippy::unwrap_used)]

mod common;

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use common::*;

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn hostile_tree(root: &Path) {
    write(
        root,
        "README.md",
        b"# Hostile\n\nA [good link](docs/ok.md).\n",
    );
    write(root, "docs/ok.md", b"# OK\n\nStill indexed.\n");
    write(root, "binary.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR");
    write(root, "latin1.md", b"# Caf\xe9\n\ninvalid UTF-8\n");
    write(
        root,
        "broken-front-matter.md",
        b"---\ntitle: [unclosed\n---\n# Body Title\n\ntext\n",
    );
    write(
        root,
        "src/bad.ts",
        b"export function ok() {}\nexport const = ;;; {{{\n",
    );
    write(root, "package.json", b"{\"name\": \"hostile\", ");
    write(root, "crates/x/Cargo.toml", b"[package\nname = ");
    write(root, "name with spaces/naïve ü.md", b"# Unicode name\n");
    write(root, "empty.md", b"");
    write(root, "long-line.md", &[b'a'; 1 << 20]);
    write(
        root,
        "docs/escape.md",
        b"# Escape\n\n[passwd](../../../../../../etc/passwd) and [abs](/etc/passwd)\n",
    );
    // 50 MB document: over the default 4 MiB limit.
    let line = b"a line of a very large document that nobody should parse whole\n";
    let mut huge = Vec::with_capacity(50 << 20);
    while huge.len() < 50 << 20 {
        huge.extend_from_slice(line);
    }
    write(root, "huge.md", &huge);
    // 100 levels of nesting.
    let deep: String = (0..100).map(|i| format!("d{i}/")).collect();
    write(root, &format!("{deep}deep.md"), b"# Deep\n");
    // Symbolic links: a loop, a link to /etc, a link to a file outside the root.
    std::os::unix::fs::symlink(".", root.join("loop")).unwrap();
    std::os::unix::fs::symlink("/etc", root.join("etc")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", root.join("passwd.md")).unwrap();
    // A file name that is not UTF-8.
    let name = std::ffi::OsStr::from_bytes(b"bad\xffname.md");
    std::fs::write(root.join(name), b"# not utf-8 name\n").unwrap();
}

#[test]
fn hostile_tree_is_indexed_with_a_diagnostic_for_each_problem() {
    let dir = tempfile::tempdir().unwrap();
    hostile_tree(dir.path());
    let out = run(dir.path(), &["index", "--quiet"]);
    assert_eq!(code(&out), 0, "stderr: {}", stderr(&out));
    let snapshot = artifact(dir.path(), "snapshot.json");
    let codes: Vec<(String, String)> = snapshot["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["path"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let has = |code: &str, path: &str| codes.iter().any(|(c, p)| c == code && p == path);
    assert!(has("binary-file", "binary.md"), "{codes:?}");
    assert!(has("invalid-utf8", "latin1.md"), "{codes:?}");
    assert!(has("oversize-file", "huge.md"), "{codes:?}");
    assert!(
        has("front-matter-invalid", "broken-front-matter.md"),
        "{codes:?}"
    );
    assert!(has("parse-error", "src/bad.ts"), "{codes:?}");
    assert!(has("manifest-invalid", "package.json"), "{codes:?}");
    assert!(has("manifest-invalid", "crates/x/Cargo.toml"), "{codes:?}");
    assert!(has("symlink-skipped", "loop"), "{codes:?}");
    assert!(has("symlink-skipped", "etc"), "{codes:?}");
    assert!(has("symlink-skipped", "passwd.md"), "{codes:?}");
    assert!(has("broken-link", "docs/escape.md"), "{codes:?}");
    assert!(
        codes.iter().any(|(c, _)| c == "unreadable-path"),
        "{codes:?}"
    );

    let ids: Vec<&str> = snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    let deep: String = (0..100).map(|i| format!("d{i}/")).collect();
    for id in [
        "document:README.md".to_owned(),
        "document:docs/ok.md".to_owned(),
        "document:name with spaces/naïve ü.md".to_owned(),
        "document:empty.md".to_owned(),
        "document:long-line.md".to_owned(),
        format!("document:{deep}deep.md"),
        "module:src/bad.ts".to_owned(),
    ] {
        assert!(ids.contains(&id.as_str()), "{id} missing");
    }
    let bad_ts = snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "module:src/bad.ts")
        .unwrap();
    assert!(
        bad_ts["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["name"] == "ok")
    );
    let broken = snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "document:broken-front-matter.md")
        .unwrap();
    assert_eq!(broken["title"], "Body Title");

    // Nothing outside the root was read: no path under etc/ and no /etc/passwd content.
    let text = std::fs::read_to_string(dir.path().join(".doc-bridge/snapshot.json")).unwrap();
    assert!(!text.contains("root:x:0:0"));
    assert!(
        !snapshot["files"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["path"].as_str().unwrap().starts_with("etc/"))
    );
    // The oversize file is inventoried with the hash sha256sum would print.
    let huge = snapshot["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "huge.md")
        .unwrap();
    assert_eq!(huge["class"], "oversize");
    assert!(huge["bytes"].as_u64().unwrap() >= 50 << 20);
    assert_eq!(
        huge["contentHash"].as_str().unwrap(),
        doc_bridge_model::ContentHash::of_bytes(
            &std::fs::read(dir.path().join("huge.md")).unwrap()
        )
        .as_str()
    );

    // And the index over it is fresh.
    assert_eq!(code(&run(dir.path(), &["index", "--check"])), 0);
}
