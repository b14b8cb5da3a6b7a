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
    // A Hugo archetype: YAML once `hugo new` fills it in.
    write(
        root,
        "archetypes/default.md",
        b"---\ntitle: {{ replace .File.ContentBaseName \"-\" \" \" }}\ndate: {{ .Date }}\n---\n",
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
    // A FIFO with no writer: opening it for reading would wait forever.
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        root.join("pipe.md"),
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
    )
    .unwrap();
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
    assert!(
        !has("front-matter-invalid", "archetypes/default.md"),
        "a template's front matter: {codes:?}"
    );
    assert!(has("parse-error", "src/bad.ts"), "{codes:?}");
    assert!(has("manifest-invalid", "package.json"), "{codes:?}");
    assert!(has("manifest-invalid", "crates/x/Cargo.toml"), "{codes:?}");
    assert!(has("symlink-skipped", "loop"), "{codes:?}");
    assert!(has("symlink-skipped", "etc"), "{codes:?}");
    assert!(has("symlink-skipped", "passwd.md"), "{codes:?}");
    assert!(has("broken-link", "docs/escape.md"), "{codes:?}");
    // The undecodable name is named (its bad byte replaced), not the root.
    assert!(has("unreadable-path", "bad\u{FFFD}name.md"), "{codes:?}");
    assert!(has("special-file-skipped", "pipe.md"), "{codes:?}");

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

/// A committed `.doc-bridge` that is a link would send every artifact and cache where it points.
#[test]
fn a_symlinked_artifact_directory_is_refused_and_nothing_is_written_through_it() {
    let outside = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "README.md", b"# Readme\n");
    std::os::unix::fs::symlink(outside.path(), dir.path().join(".doc-bridge")).unwrap();
    for args in [
        &["index", "--quiet"][..],
        &["scan", "--quiet"],
        &["check"],
        &["index", "--check"],
    ] {
        let out = run(dir.path(), args);
        assert_eq!(code(&out), 2, "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(".doc-bridge is a symbolic link"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);

    // A real `.doc-bridge` whose `cache` is a link: refused the same way.
    std::fs::remove_file(dir.path().join(".doc-bridge")).unwrap();
    std::fs::create_dir(dir.path().join(".doc-bridge")).unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join(".doc-bridge/cache")).unwrap();
    let out = run(dir.path(), &["index", "--quiet"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("cache is a symbolic link"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}

/// `llms.path` through a linked directory would write outside the root.
#[test]
fn llms_txt_is_never_written_through_a_linked_directory() {
    let outside = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "README.md", b"# Readme\n");
    std::os::unix::fs::symlink(outside.path(), dir.path().join("public")).unwrap();
    write_config(
        dir.path(),
        &serde_json::json!({"schemaVersion": 1, "llms": {"enabled": true, "path": "public/llms.txt"}}),
    );
    let out = run(dir.path(), &["index", "--quiet"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("refusing to write public/llms.txt"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}

/// A bounded race: while `index` runs again and again, a document flips between a regular file
/// and a link to a file outside the root. The outside file's text never reaches an artifact.
#[test]
fn a_file_flipping_to_a_link_during_index_never_lets_outside_text_in() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("passwd");
    std::fs::write(&secret, "root:x:0:0:outside-marker-7f3a\n").unwrap();
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "README.md", b"# Readme\n");
    for i in 0..200 {
        write(dir.path(), &format!("docs/d{i}.md"), b"# Doc\n\nText.\n");
    }
    let target = dir.path().join("docs/d100.md");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flipper = {
        let stop = std::sync::Arc::clone(&stop);
        let target = target.clone();
        let spare = dir.path().join("spare.tmp");
        std::thread::spawn(move || {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = std::fs::remove_file(&spare);
                let _ = std::os::unix::fs::symlink(&secret, &spare);
                let _ = std::fs::rename(&spare, &target);
                let _ = std::fs::write(&spare, b"# Doc\n\nText.\n");
                let _ = std::fs::rename(&spare, &target);
            }
        })
    };
    for _ in 0..8 {
        let out = run(dir.path(), &["index", "--quiet", "--force"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        for name in ["snapshot.json", "index.json"] {
            let bytes = artifact_bytes(dir.path(), name);
            assert!(
                !String::from_utf8_lossy(&bytes).contains("outside-marker-7f3a"),
                "{name} holds the outside file's text"
            );
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    flipper.join().unwrap();
}

/// Inputs that a quadratic loop or an unbounded report could not finish: a module with 100,000
/// exports (membership was tested by scanning, 10^10 comparisons) and a document with 200,000
/// broken links (every one a SARIF result, gigabytes). Both finish, and the report is bounded
/// with a summary saying how many were left out.
#[test]
fn huge_export_lists_and_link_floods_cost_linear_time_and_a_bounded_report() {
    let dir = tempfile::tempdir().unwrap();
    let exports: String = (0..100_000)
        .map(|i| format!("export const name{i} = {i};\n"))
        .collect();
    write(dir.path(), "src/many.js", exports.as_bytes());
    let links: String = (0..200_000)
        .map(|i| format!("[x](missing{i}.md)\n"))
        .collect();
    write(dir.path(), "docs/links.md", links.as_bytes());
    write(
        dir.path(),
        "doc-bridge.config.json",
        br#"{"schemaVersion": 1, "safety": {"maxFileBytes": 16777216}}"#,
    );
    let out = run(dir.path(), &["index", "--quiet"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let snapshot = artifact(dir.path(), "snapshot.json");
    let module = snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == "module:src/many.js")
        .unwrap()
        .clone();
    assert_eq!(module["symbols"].as_array().unwrap().len(), 100_000);
    let broken: Vec<&serde_json::Value> = snapshot["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "broken-link")
        .collect();
    assert_eq!(broken.len(), 101, "100 listed and one summary");
    assert!(
        broken.iter().any(|d| d["message"]
            .as_str()
            .unwrap()
            .starts_with("199900 more `broken-link`")),
        "{broken:?}"
    );
    assert_eq!(snapshot["stats"]["diagnostics"]["broken-link"], 200_000);

    let sarif = run(dir.path(), &["check", "--format", "sarif"]);
    assert_eq!(code(&sarif), 1, "{}", stderr(&sarif));
    let sarif: serde_json::Value = serde_json::from_slice(&sarif.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(results.len() < 200, "{} results", results.len());
}

/// File names, titles and names given on the command line with escape sequences are printed
/// escaped by every text output (`search`, `check`, `query`, errors), never raw.
#[test]
fn escape_sequences_in_names_and_titles_never_reach_the_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "README.md",
        b"# Readme\n\nSee [gone](gone.md).\n",
    );
    write(
        dir.path(),
        "docs/red\x1b[31mname.md",
        b"# Title \x1b]0;pwned\x07 escape\n\nescape body with [a broken link](nowhere.md).\n",
    );
    assert_eq!(code(&run(dir.path(), &["index", "--quiet"])), 0);
    let outputs = [
        run(dir.path(), &["search", "escape", "--text"]),
        run(dir.path(), &["search", "escape", "--explain"]),
        run(dir.path(), &["check"]),
        run(
            dir.path(),
            &["query", "document:docs/red\x1b[31mname.md", "--text"],
        ),
        run(dir.path(), &["query", "no-such\x1b[2Jthing"]),
        run(
            dir.path(),
            &["enrich", "approve", "x\x1b[31m", "--by", "ada"],
        ),
    ];
    for out in &outputs {
        for stream in [&out.stdout, &out.stderr] {
            assert!(
                !stream.iter().any(|b| *b == 0x1b || *b == 0x07),
                "raw control bytes in {:?}",
                String::from_utf8_lossy(stream)
            );
        }
    }
    let search = stdout(&outputs[0]);
    assert!(search.contains("red\\u001b[31mname.md"), "{search}");
    let check = stdout(&outputs[2]);
    assert!(check.contains("red\\u001b[31mname.md"), "{check}");
}
