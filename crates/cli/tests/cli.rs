//! Command-line behaviour: help, usage errors, schema, init.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;

#[test]
fn usage_error_exits_two() {
    let out = doc_bridge()
        .args(["index", "--no-such-flag"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    let out = doc_bridge().args(["frobnicate"]).output().unwrap();
    assert_eq!(code(&out), 2);
}

#[test]
fn help_lists_every_command() {
    let out = doc_bridge().arg("--help").output().unwrap();
    assert_eq!(code(&out), 0);
    let text = stdout(&out);
    for command in ["index", "scan", "schema", "init"] {
        assert!(text.contains(command), "{command} missing from help");
    }
}

#[test]
fn missing_root_is_an_io_error() {
    let out = doc_bridge()
        .args(["index", "--root", "/definitely/not/here"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("cannot open repository root"));
}

#[test]
fn schema_prints_json_schema_for_each_artifact() {
    for name in ["index", "snapshot", "config", "proposal", "overlay"] {
        let out = doc_bridge().args(["schema", name]).output().unwrap();
        assert_eq!(code(&out), 0);
        let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
    }
}

#[test]
fn init_writes_a_valid_config_once_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let first = run(dir.path(), &["init"]);
    assert_eq!(code(&first), 0);
    let written = std::fs::read(dir.path().join("doc-bridge.config.json")).unwrap();
    doc_bridge_model::config::Config::parse(&written, "doc-bridge.config.json").unwrap();
    std::fs::write(
        dir.path().join("doc-bridge.config.json"),
        b"{\"schemaVersion\": 1}",
    )
    .unwrap();
    let second = run(dir.path(), &["init"]);
    assert_eq!(code(&second), 1);
    assert_eq!(
        std::fs::read(dir.path().join("doc-bridge.config.json")).unwrap(),
        b"{\"schemaVersion\": 1}"
    );
}

#[test]
fn index_json_output_reports_counts_and_hash() {
    let dir = fixture_copy("ts-workspace");
    let out = run(dir.path(), &["index", "--json"]);
    assert_eq!(code(&out), 0);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["entities"]["package"], 3);
    assert_eq!(report["entities"]["document"], 5);
    assert_eq!(
        report["indexHash"],
        artifact(dir.path(), "index.json")["contentHash"]
    );
    insta::assert_json_snapshot!("index-json-output", report);
}

/// Runs `doc-bridge <args>` in `cwd`, without `--root`.
fn run_in(cwd: &std::path::Path, args: &[&str]) -> std::process::Output {
    doc_bridge().current_dir(cwd).args(args).output().unwrap()
}

/// Without `--root`, a command run anywhere inside a repository finds its root: the nearest
/// `.doc-bridge/` or `doc-bridge.config.json` above, else the enclosing git work tree; `--root`
/// still wins.
#[test]
fn commands_find_the_repository_root_from_a_nested_directory() {
    let dir = fixture_copy("ts-workspace");
    let nested = dir.path().join("packages/auth/src");
    // No index yet, only a work tree: `index` from deep inside indexes the whole tree.
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let out = run_in(&nested, &["index", "--quiet"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(dir.path().join(".doc-bridge/index.json").is_file());
    assert!(!nested.join(".doc-bridge").exists());

    // Search and query from the nested directory answer for the repository.
    let out = run_in(&nested, &["search", "createSession", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        !results["results"].as_array().unwrap().is_empty(),
        "{results:#}"
    );
    let out = run_in(&nested, &["index", "--check"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    // A nested project with its own configuration is its own root, inside the outer work tree.
    let inner = dir.path().join("packages/core");
    write_config(&inner, &serde_json::json!({"schemaVersion": 1}));
    let out = run_in(&inner.join("src"), &["index", "--check"]);
    assert_eq!(code(&out), 1, "no index there yet: {}", stdout(&out));
    assert!(stdout(&out).contains("no index"), "{}", stdout(&out));

    // `--root` wins: the outer index, which the inner configuration file made stale.
    let out = run_in(
        &inner,
        &["index", "--check", "--root", dir.path().to_str().unwrap()],
    );
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("+packages/core/doc-bridge.config.json"),
        "{}",
        stdout(&out)
    );
}

/// Rough edges of the command line: `--limit 0` is a usage error, the floor's default reads as
/// words in `--help`, and `-q` leaves stdout to `--json`.
#[test]
fn limit_zero_floor_help_and_quiet_runs() {
    let dir = fixture_copy("ts-workspace");
    let out = run(dir.path(), &["index", "-q"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout(&out), "", "index -q prints no summary");
    let out = run(dir.path(), &["index", "-q", "--force", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report["indexHash"].is_string());
    let out = run(dir.path(), &["scan", "-q"]);
    assert_eq!((code(&out), stdout(&out)), (0, String::new()));

    let out = run(dir.path(), &["search", "session", "--limit", "0"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("--limit"), "{}", stderr(&out));
    let out = run(dir.path(), &["search", "session", "--limit", "1", "--json"]);
    let results: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(results["results"].as_array().unwrap().len(), 1);

    let help = doc_bridge().args(["search", "--help"]).output().unwrap();
    let help = stdout(&help);
    assert!(help.contains("[default: a third]"), "{help}");
    assert!(!help.contains("0.333"), "{help}");
}

/// `init` does not pin the project's name: the index still takes the root package's.
#[test]
fn init_leaves_the_project_named_after_its_package() {
    let dir = fixture_copy("ts-workspace");
    assert_eq!(code(&run(dir.path(), &["init"])), 0);
    let written: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("doc-bridge.config.json")).unwrap())
            .unwrap();
    assert!(written["project"]["name"].is_null(), "{written:#}");
    index(dir.path());
    assert_eq!(
        artifact(dir.path(), "index.json")["project"]["name"],
        "ts-workspace-root"
    );
}

/// A handoff without checks says so once (not "(none) (none)").
#[test]
fn a_handoff_without_checks_says_so_once() {
    let dir = fixture_copy("docs-site");
    index(dir.path());
    let index = artifact(dir.path(), "index.json");
    let document = index["knowledge"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["type"] == "document")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let out = run(dir.path(), &["query", &document]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let checks = text.lines().find(|l| l.starts_with("checks:")).unwrap();
    assert_eq!(checks, "checks:      (none found)");
}

/// `get PATH[:START[-END]]`: numbered lines, confined to the root, secrets redacted line for
/// line (a key block spanning lines included), a range past the end empty.
#[test]
fn get_prints_numbered_lines_confined_and_redacted() {
    let dir = fixture_copy("ts-workspace");
    let core = std::fs::read_to_string(dir.path().join("docs/core.md")).unwrap();
    let second: Vec<&str> = core.lines().skip(1).take(2).collect();
    let out = run(dir.path(), &["get", "docs/core.md:2-3"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("2 │ {}\n3 │ {}\n", second[0], second[1])
    );

    std::fs::write(
        dir.path().join("docs/keys.md"),
        "# Keys\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nqwertyuiopasdf\n-----END RSA PRIVATE KEY-----\nafter\n",
    )
    .unwrap();
    let out = run(dir.path(), &["get", "docs/keys.md", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let read: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(read["totalLines"], 6);
    let lines: Vec<&str> = read["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    assert_eq!((lines[0], lines[5]), ("# Keys", "after"));
    assert!(!stdout(&out).contains("MIIE") && !stdout(&out).contains("qwerty"));

    let out = run(dir.path(), &["get", "docs/core.md:500"]);
    assert_eq!((code(&out), stdout(&out)), (0, String::new()));
    for refused in [
        "../outside.md",
        "/etc/passwd",
        "docs/core.md:0",
        "docs/core.md:9-3",
    ] {
        let out = run(dir.path(), &["get", refused]);
        assert_eq!(code(&out), 2, "{refused}: {}", stdout(&out));
    }
    std::fs::write(dir.path().join(".env"), "TOKEN=x\n").unwrap();
    assert_eq!(code(&run(dir.path(), &["get", ".env"])), 2);
}

/// `show` prints a sealed artifact as stored (one line of canonical JSON) or indented, the same
/// JSON either way, and says (exit 1, still printing) when the seal no longer matches.
#[test]
fn show_prints_an_artifact_as_stored_or_indented_and_names_a_broken_seal() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    for (name, file) in [("index", "index.json"), ("snapshot", "snapshot.json")] {
        let stored = std::fs::read(dir.path().join(".doc-bridge").join(file)).unwrap();
        let out = run(dir.path(), &["show", name]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        assert_eq!(out.stdout, stored, "{name}: printed as stored");
        assert_eq!(stored.iter().filter(|&&b| b == b'\n').count(), 1);
        let pretty = run(dir.path(), &["show", name, "--pretty"]);
        assert_eq!(code(&pretty), 0, "{}", stderr(&pretty));
        assert!(stdout(&pretty).lines().count() > 20, "{name}: indented");
        let read = |bytes: &[u8]| serde_json::from_slice::<serde_json::Value>(bytes).unwrap();
        assert_eq!(read(&pretty.stdout), read(&stored), "{name}: the same JSON");
    }
    let path = dir.path().join(".doc-bridge/snapshot.json");
    let edited =
        std::fs::read_to_string(&path)
            .unwrap()
            .replacen(r#""root":".""#, r#""root":"x""#, 1);
    assert!(edited.contains(r#""root":"x""#));
    std::fs::write(&path, &edited).unwrap();
    let out = run(dir.path(), &["show", "snapshot"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_eq!(stdout(&out), edited);
    assert!(
        stderr(&out).contains("contentHash does not match"),
        "{}",
        stderr(&out)
    );
    // No report before `check`: a usage error naming the command that writes it.
    let out = run(dir.path(), &["show", "report"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("doc-bridge check"),
        "{}",
        stderr(&out)
    );
    assert_eq!(code(&run(dir.path(), &["show", "projection"])), 2);
}
