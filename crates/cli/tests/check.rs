//! `doc-bridge check`: text, JSON and SARIF on a fixture with known problems, the report
//! artifact, exit codes for fresh, stale, missing and corrupt indexes, `--strict`, the `rules`
//! configuration, and `--enrich` with a failing agent.
#![allow(clippy::unwrap_used)]

mod common;

use common::*;
use serde_json::{Value, json};

fn check(root: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["check", "--quiet"];
    args.extend_from_slice(extra);
    run(root, &args)
}

/// `field` of each object in the array `list`.
fn each(list: &Value, field: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|d| d[field].as_str().unwrap().to_owned())
        .collect()
}

fn codes(report: &Value) -> Vec<String> {
    each(&report["diagnostics"], "code")
}

fn write_config(root: &std::path::Path, config: Value) {
    std::fs::write(
        root.join("doc-bridge.config.json"),
        serde_json::to_vec_pretty(&config).unwrap(),
    )
    .unwrap();
}

#[test]
fn problems_fixture_text_output_lists_every_known_problem() {
    let dir = fixture_copy("problems");
    index(dir.path());
    let out = check(dir.path(), &[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    insta::assert_snapshot!("problems-text", stdout(&out));
}

#[test]
fn problems_fixture_json_output_is_the_report_artifact() {
    let dir = fixture_copy("problems");
    index(dir.path());
    let out = check(dir.path(), &["--format", "json"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert_same_bytes(
        &out.stdout,
        &artifact_bytes(dir.path(), "report.json"),
        "stdout vs report.json",
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    for code in [
        "area-import-cycle",
        "ambiguous-mention",
        "broken-link",
        "covers-unresolved",
        "orphan-document",
        "oversize-file",
        "uncovered-area",
        "uncovered-package",
        "unresolved-import",
        "unresolved-mention",
    ] {
        assert!(codes(&report).iter().any(|c| c == code), "{code} missing");
    }
    insta::assert_json_snapshot!("problems-report", report);
}

#[test]
fn problems_fixture_sarif_output() {
    let dir = fixture_copy("problems");
    index(dir.path());
    let out = check(dir.path(), &["--format", "sarif"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    insta::assert_json_snapshot!("problems-sarif", sarif, {
        ".runs[0].tool.driver.version" => "[version]",
    });
}

fn sarif_subset_schema() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/schemas/sarif-github-subset.json");
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn sarif_output_satisfies_the_github_subset_schema_and_its_cross_references() {
    let validator = jsonschema::validator_for(&sarif_subset_schema()).unwrap();
    for fixture in ["problems", "rust-workspace", "ts-workspace"] {
        let dir = fixture_copy(fixture);
        // No index for ts-workspace: index-missing must still get a file location.
        if fixture != "ts-workspace" {
            index(dir.path());
        }
        let out = check(dir.path(), &["--format", "sarif"]);
        let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&sarif)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{fixture}: {errors:#?}");
        let run = &sarif["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let results = run["results"].as_array().unwrap();
        assert!(!results.is_empty(), "{fixture}");
        for result in results {
            let index = result["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(
                rules[index]["id"], result["ruleId"],
                "{fixture}: {result:#}"
            );
        }
    }
}

#[test]
fn the_subset_schema_rejects_what_github_would_reject() {
    let validator = jsonschema::validator_for(&sarif_subset_schema()).unwrap();
    let dir = fixture_copy("problems");
    index(dir.path());
    let out = check(dir.path(), &["--format", "sarif"]);
    let good: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(validator.is_valid(&good));
    let mutations: [(&str, Value); 5] = [
        ("/version", json!("2.0.0")),
        ("/runs/0/results/0/level", json!("fatal")),
        (
            "/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri",
            json!("/abs/path.md"),
        ),
        (
            "/runs/0/results/0/locations/0/physicalLocation/region/startLine",
            json!(0),
        ),
        ("/runs/0/results/0/locations", json!([])),
    ];
    for (pointer, value) in mutations {
        let mut bad = good.clone();
        *bad.pointer_mut(pointer).unwrap() = value;
        assert!(!validator.is_valid(&bad), "{pointer} accepted");
    }
}

#[test]
fn an_unchanged_repository_gives_byte_identical_reports_and_keeps_generated_at() {
    let dir = fixture_copy("problems");
    index(dir.path());
    check(dir.path(), &[]);
    let first = artifact_bytes(dir.path(), "report.json");
    // A later clock must not change a report whose content did not change.
    let out = doc_bridge()
        .env("SOURCE_DATE_EPOCH", "1798761600")
        .args(["check", "--quiet", "--format", "json", "--root"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert_same_bytes(&first, &artifact_bytes(dir.path(), "report.json"), "report");
    // A real change moves the hash and the time.
    std::fs::write(dir.path().join("docs/orphan.md"), "# Orphan\n\nChanged.\n").unwrap();
    let out = doc_bridge()
        .env("SOURCE_DATE_EPOCH", "1798761600")
        .args(["check", "--quiet", "--root"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let report = artifact(dir.path(), "report.json");
    let before: Value = serde_json::from_slice(&first).unwrap();
    assert_ne!(report["contentHash"], before["contentHash"]);
    assert_eq!(report["generatedAt"], "2027-01-01T00:00:00.000Z");
    assert_eq!(report["indexStatus"], "stale");
}

#[test]
fn fresh_clean_repository_exits_0_and_strict_counts_warnings() {
    let dir = fixture_copy("rust-workspace");
    index(dir.path());
    let out = check(dir.path(), &[]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(stdout(&out).contains("check passed"), "{}", stdout(&out));
    let out = check(dir.path(), &["--strict"]);
    assert_eq!(code(&out), 0, "info never counts: {}", stdout(&out));

    let dir = fixture_copy("python-package");
    with_one_warning(dir.path());
    index(dir.path());
    let out = check(dir.path(), &[]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    let out = check(dir.path(), &["--strict"]);
    assert_eq!(code(&out), 1, "an orphan-document warning fails --strict");
    assert!(
        stdout(&out).contains("warning[orphan-document]"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn stale_index_is_an_error_naming_the_changed_file() {
    let dir = fixture_copy("rust-workspace");
    index(dir.path());
    std::fs::write(
        dir.path().join("docs/new.md"),
        "# New\n\n[home](../README.md)\n",
    )
    .unwrap();
    let out = check(dir.path(), &[]);
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.contains(".doc-bridge/index.json: error[index-stale] index is stale: 1 file(s) changed since it was built (+docs/new.md)"),
        "{text}"
    );
    assert!(text.contains("(index stale)"), "{text}");
}

#[test]
fn missing_index_is_an_error_diagnostic() {
    let dir = fixture_copy("rust-workspace");
    let out = check(dir.path(), &["--format", "json"]);
    assert_eq!(code(&out), 1);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["indexStatus"], "missing");
    assert!(report.get("indexHash").is_none());
    assert_eq!(codes(&report)[0], "index-missing");
}

#[test]
fn corrupt_index_is_an_index_invalid_error_not_a_crash() {
    let dir = fixture_copy("rust-workspace");
    index(dir.path());
    let path = dir.path().join(".doc-bridge/index.json");
    for corrupt in [
        &b"{\"schemaVersion\": 1, \"trunc"[..],
        b"\xff\xfe\x00",
        b"[]",
    ] {
        std::fs::write(&path, corrupt).unwrap();
        let out = check(dir.path(), &[]);
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.contains(".doc-bridge/index.json: error[index-invalid] index at .doc-bridge/index.json is invalid:"),
            "{text}"
        );
        assert!(
            text.contains("run `doc-bridge index` to regenerate it"),
            "{text}"
        );
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
    // An edited index (valid JSON, wrong seal) is invalid too.
    index(dir.path());
    let mut value: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    value["project"]["name"] = json!("edited");
    std::fs::write(&path, serde_json::to_vec(&value).unwrap()).unwrap();
    let report: Value =
        serde_json::from_slice(&check(dir.path(), &["--format", "json"]).stdout).unwrap();
    assert_eq!(report["indexStatus"], "invalid");
    assert!(
        report["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("contentHash does not match")
    );
}

#[test]
fn corrupt_previous_report_is_replaced() {
    let dir = fixture_copy("rust-workspace");
    index(dir.path());
    let path = dir.path().join(".doc-bridge/report.json");
    std::fs::write(&path, b"{not json").unwrap();
    let out = check(dir.path(), &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let report = artifact(dir.path(), "report.json");
    assert_eq!(report["type"], "doc-bridge-check-report");
}

#[test]
fn rules_configuration_changes_severities_and_the_exit_code() {
    let dir = fixture_copy("problems");
    let mut config: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("doc-bridge.config.json")).unwrap())
            .unwrap();
    config["rules"] = json!({
        "broken-link": "warning",
        "covers-unresolved": "off",
        "orphan-document": "info",
    });
    write_config(dir.path(), config);
    index(dir.path());
    let out = check(dir.path(), &["--format", "json"]);
    assert_eq!(code(&out), 0, "no error is left");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(!codes(&report).contains(&"covers-unresolved".to_owned()));
    let severity = |code: &str| {
        report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == code)
            .map(|d| d["severity"].clone())
    };
    assert_eq!(severity("broken-link"), Some(json!("warning")));
    assert_eq!(severity("orphan-document"), Some(json!("info")));
    assert_eq!(report["counts"]["error"], 0);
    assert_eq!(code(&check(dir.path(), &["--strict"])), 1);
}

#[test]
fn unknown_rule_code_is_a_configuration_error_naming_the_key() {
    let dir = fixture_copy("rust-workspace");
    write_config(
        dir.path(),
        json!({"schemaVersion": 1, "rules": {"broken-links": "off"}}),
    );
    let out = check(dir.path(), &[]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("rules.broken-links: unknown diagnostic code `broken-links`"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.path().join(".doc-bridge/report.json").exists());
}

#[test]
fn enrich_with_a_failing_agent_never_changes_diagnostics_or_exit_code() {
    let dir = fixture_copy("problems");
    let mut config: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("doc-bridge.config.json")).unwrap())
            .unwrap();
    index(dir.path());
    let plain = check(dir.path(), &["--format", "json"]);
    let plain_report: Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert!(plain_report.get("enrichment").is_none());

    // No agent configured: skipped.
    let out = check(dir.path(), &["--enrich", "--format", "json"]);
    assert_eq!(code(&out), code(&plain));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["enrichment"]["status"], "skipped");

    for command in ["/definitely/not/a/program", "false"] {
        // The config file is an input of the index: index after writing it.
        config["intelligence"] = json!({"registry": {
            "agentId": "broken-agent", "agentVersion": "1", "promptVersion": "1",
            "cli": {"command": command},
        }});
        write_config(dir.path(), config.clone());
        index(dir.path());
        let plain = check(dir.path(), &["--format", "json"]);
        let plain_report: Value = serde_json::from_slice(&plain.stdout).unwrap();
        assert_eq!(plain_report["indexStatus"], "fresh");
        let out = check(dir.path(), &["--enrich", "--format", "json"]);
        assert_eq!(code(&out), code(&plain), "{command}: {}", stderr(&out));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            report["enrichment"]["status"], "failed",
            "{command}: {report:#}"
        );
        let reason = report["enrichment"]["reason"].as_str().unwrap();
        assert!(!reason.is_empty());
        assert_eq!(
            report["diagnostics"], plain_report["diagnostics"],
            "{command}"
        );
        assert_eq!(
            report["contentHash"], plain_report["contentHash"],
            "{command}"
        );
        assert_eq!(report["counts"], plain_report["counts"]);
        let text = stdout(&check(dir.path(), &["--enrich"]));
        assert!(text.contains("\nenrichment: failed ("), "{text}");
    }

    // A stale index: the stage cannot run, the check still reports exactly what it found.
    std::fs::write(dir.path().join("docs/extra.md"), "# Extra\n").unwrap();
    let plain = check(dir.path(), &[]);
    let out = check(dir.path(), &["--enrich"]);
    assert_eq!(code(&out), code(&plain));
    assert!(
        stdout(&out).starts_with(&stdout(&plain).trim_end().to_owned()),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out).contains("enrichment: failed (the index is stale or missing)"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn schema_report_is_printed_and_the_artifact_conforms() {
    let out = doc_bridge().args(["schema", "report"]).output().unwrap();
    assert_eq!(code(&out), 0);
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let dir = fixture_copy("problems");
    index(dir.path());
    check(dir.path(), &["--enrich"]);
    let report = artifact(dir.path(), "report.json");
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

#[test]
fn corrupt_overlay_changes_nothing_and_enrich_reports_failed() {
    let dir = fixture_copy("rust-workspace");
    write_config(
        dir.path(),
        json!({"schemaVersion": 1, "intelligence": {"registry": {
            "agentId": "broken-agent", "agentVersion": "1", "promptVersion": "1",
            "cli": {"command": "/definitely/not/a/program"},
        }}}),
    );
    index(dir.path());
    let overlay = dir.path().join(".doc-bridge/enrich/overlay.json");
    std::fs::create_dir_all(overlay.parent().unwrap()).unwrap();
    std::fs::write(&overlay, b"{\"type\": \"doc-bridge-enrichment-overlay\", ").unwrap();
    let plain = check(dir.path(), &[]);
    assert_eq!(code(&plain), 0, "{}{}", stdout(&plain), stderr(&plain));
    let out = check(dir.path(), &["--enrich", "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["enrichment"]["status"], "failed", "{report:#}");
    assert_eq!(
        report["enrichment"]["reason"],
        "the enrich stage could not run"
    );
    // The stage refused to overwrite the corrupt overlay.
    assert_eq!(
        std::fs::read(&overlay).unwrap(),
        b"{\"type\": \"doc-bridge-enrichment-overlay\", "
    );
}

#[test]
fn a_report_that_cannot_be_written_is_an_io_error() {
    let dir = fixture_copy("rust-workspace");
    index(dir.path());
    // A directory where the report file should be: the atomic rename fails.
    std::fs::create_dir_all(dir.path().join(".doc-bridge/report.json/blocker")).unwrap();
    let out = check(dir.path(), &[]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("cannot write artifact"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn site_links_resolve_as_documentation_sites_serve_them() {
    let dir = fixture_copy("site-links");
    index(dir.path());
    let out = check(dir.path(), &[]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    // Extensionless, directory, `.html` and site-absolute links to pages that exist, template
    // placeholders, imports of existing stylesheets, components and images, and the templates
    // under `.github/` are not findings; links to pages that do not exist still are.
    for quiet in [
        "server-options`",
        "page.html`",
        "/guide/`",
        "RUN_URL",
        "status_url",
        "download_url",
        "{{version}}",
        "${base}",
        "style.css",
        "Layout.vue",
        "logo.svg",
        "options.js",
        "dist/theme.js",
        ".github/",
    ] {
        assert!(!text.contains(quiet), "{quiet} reported:\n{text}");
    }
    insta::assert_snapshot!("site-links-text", text);
}

#[test]
fn configured_site_roots_replace_the_detected_ones() {
    let dir = fixture_copy("site-links");
    write_config(
        dir.path(),
        json!({"schemaVersion": 1, "analysis": {"links": {"siteRoots": ["handbook/content", "docs"]}}}),
    );
    index(dir.path());
    let out = check(dir.path(), &["--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}",
                d["code"].as_str().unwrap(),
                d["message"].as_str().unwrap()
            )
        })
        .collect();
    let about = |needle: &str| found.iter().filter(|f| f.contains(needle)).count();
    assert_eq!(about("/en/guides/foo`"), 0, "{found:#?}");
    assert_eq!(about("/en/guides/bar`"), 1, "{found:#?}");
    assert!(
        !found
            .iter()
            .any(|f| f.starts_with("orphan-document") && f.contains("foo")),
        "foo.md is linked once its root is configured: {found:#?}"
    );
    assert_eq!(about("/guide/missing-page`"), 1, "{found:#?}");
    assert!(
        found
            .iter()
            .any(|f| f.contains("`handbook/content`, `docs`;")),
        "the message names the roots looked in: {found:#?}"
    );
}

#[test]
fn min_severity_narrows_what_is_printed_and_counted_but_not_the_report_file() {
    let dir = fixture_copy("problems");
    index(dir.path());
    let all = check(dir.path(), &["--format", "json"]);
    let full: Value = serde_json::from_slice(&all.stdout).unwrap();
    let full_codes = codes(&full);
    assert!(full["counts"]["info"].as_u64().unwrap() > 0);

    let out = check(
        dir.path(),
        &["--format", "json", "--min-severity", "warning"],
    );
    assert_eq!(code(&out), 1);
    let shown: Value = serde_json::from_slice(&out.stdout).unwrap();
    let severities = each(&shown["diagnostics"], "severity");
    assert!(!severities.is_empty());
    assert!(severities.iter().all(|s| s != "info"), "{severities:?}");
    assert_eq!(shown["counts"]["info"], 0);
    assert_eq!(shown["counts"]["error"], full["counts"]["error"]);
    assert_ne!(shown["contentHash"], full["contentHash"]);
    // The file on disk keeps everything, byte for byte.
    assert_same_bytes(
        &all.stdout,
        &artifact_bytes(dir.path(), "report.json"),
        "report.json after a filtered check",
    );
    assert_eq!(codes(&artifact(dir.path(), "report.json")), full_codes);

    let out = check(
        dir.path(),
        &["--format", "sarif", "--min-severity", "warning"],
    );
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    let levels = each(&sarif["runs"][0]["results"], "level");
    assert!(!levels.is_empty());
    assert!(levels.iter().all(|l| l != "note"), "{levels:?}");

    let out = check(dir.path(), &["--min-severity", "error", "--strict"]);
    let text = stdout(&out);
    assert!(!text.contains("warning["), "{text}");
    assert!(text.contains("; not shown: "), "{text}");

    let out = check(dir.path(), &["--min-severity", "loud"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

#[test]
fn strict_ignores_warnings_below_the_threshold() {
    let dir = fixture_copy("python-package");
    with_one_warning(dir.path());
    index(dir.path());
    let out = check(dir.path(), &["--strict"]);
    assert_eq!(code(&out), 1, "{}", stdout(&out));
    let out = check(dir.path(), &["--strict", "--min-severity", "error"]);
    assert_eq!(code(&out), 0, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("not shown: 1 warning(s)"),
        "{}",
        stdout(&out)
    );
}

/// Adds a document nothing links to: one `orphan-document` warning, and no error.
fn with_one_warning(root: &std::path::Path) {
    std::fs::write(
        root.join("docs/unlinked.md"),
        "# Unlinked\n\nNobody links here.\n",
    )
    .unwrap();
}

/// A link into what the root `.gitignore` ignores names build output (generated API pages);
/// a link to a missing file it does not ignore is still broken.
#[test]
fn a_link_into_an_ignored_path_is_build_output() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("doc")).unwrap();
    std::fs::write(root.join(".gitignore"), "doc/api*\n").unwrap();
    std::fs::write(
        root.join("README.md"),
        "# P\n\nSee [the API](doc/api/reference.md), [the API index](doc/api-index.md) and [notes](doc/notes.md).\n",
    )
    .unwrap();
    index(root);
    let out = run(root, &["check", "--quiet", "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let broken: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "broken-link")
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        broken,
        ["link `doc/notes.md` points to `doc/notes.md`, which does not exist"]
    );
}

/// A document a manifest names as its package's readme is the page the registry shows: no
/// orphan, and the package is covered, also when the manifest names it through a symbolic link
/// (serde's `serde/crates-io.md` → `../crates-io.md`).
#[test]
fn a_manifest_readme_is_an_entry_point_and_covers_its_package() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (path, text) in [
        ("README.md", "# P\n\nThe workspace.\n"),
        ("crates-io.md", "# lamp\n\nWhat crates.io shows.\n"),
        ("pypi-page.md", "# wick\n\nWhat PyPI shows.\n"),
        (
            "lamp/Cargo.toml",
            "[package]\nname = \"lamp\"\nversion = \"1.0.0\"\nreadme = \"crates-io.md\"\n",
        ),
        ("lamp/src/lib.rs", "pub fn on() {}\n"),
        (
            "wick/pyproject.toml",
            "[project]\nname = \"wick\"\nreadme = {file = \"../pypi-page.md\"}\n",
        ),
        ("wick/wick/__init__.py", "def light():\n    pass\n"),
        ("other.md", "# Other\n\nNobody links here.\n"),
    ] {
        std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        std::fs::write(root.join(path), text).unwrap();
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink("../crates-io.md", root.join("lamp/crates-io.md")).unwrap();
    index(root);
    let out = run(root, &["check", "--quiet", "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings: Vec<String> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "orphan-document" || d["code"] == "uncovered-package")
        .map(|d| {
            format!(
                "{} {}",
                d["code"].as_str().unwrap(),
                d["path"].as_str().unwrap()
            )
        })
        .collect();
    #[cfg(unix)]
    assert_eq!(findings, ["orphan-document other.md"]);
    #[cfg(not(unix))]
    assert!(
        findings.contains(&"orphan-document other.md".to_owned()),
        "{findings:?}"
    );
}
