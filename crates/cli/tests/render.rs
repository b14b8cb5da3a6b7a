//! `doc-bridge render`: one self-contained, deterministic HTML page, loaded in headless Chromium
//! without a console message; stale, corrupt and hostile inputs.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::Command;

use common::*;
use doc_bridge_model::EntityId;
use doc_bridge_model::enrichment::{ProposalKind, proposal_id};
use serde_json::{Value, json};

fn entity_hash(snapshot: &Value, id: &str) -> String {
    snapshot["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .unwrap()["contentHash"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn proposal(
    snapshot: &Value,
    kind: ProposalKind,
    entity: &str,
    key: Value,
    payload: Value,
) -> Value {
    let target = entity_hash(snapshot, entity);
    let id = proposal_id(
        kind,
        &EntityId::from_raw(entity),
        &target,
        "test-agent",
        "1",
        key,
    );
    let path = entity.trim_start_matches("document:");
    json!({
        "proposalId": id,
        "kind": kind.as_str(),
        "entity": entity,
        "targetContentHash": target,
        "confidence": 0.9,
        "reason": "written by the <test>",
        "evidence": [{"source": "snapshot", "path": path, "lines": [1, 2]}],
        "relatedDiagnosticIds": [],
        "origin": {"agentId": "test-agent", "agentVersion": "1", "promptVersion": "1"},
        "baseSnapshotHash": snapshot["contentHash"],
        "payload": payload,
    })
}

/// Indexes the ts-workspace with one pending `mark-canonical` and one approved `propose-relation`
/// (docs/core.md related-to @fx/auth). Returns (pending id, accepted id).
fn enriched(dir: &FixtureCopy) -> (String, String) {
    index(dir.path());
    let snapshot = artifact(dir.path(), "snapshot.json");
    let canonical = proposal(
        &snapshot,
        ProposalKind::MarkCanonical,
        "document:docs/auth.md",
        Value::Null,
        json!({"scope": "package:@fx/auth"}),
    );
    let relation = proposal(
        &snapshot,
        ProposalKind::ProposeRelation,
        "document:docs/core.md",
        json!({"kind": "related-to", "to": "package:@fx/auth"}),
        json!({"from": "document:docs/core.md", "to": "package:@fx/auth", "kind": "related-to", "detection": "the test says so"}),
    );
    let ids = (
        canonical["proposalId"].as_str().unwrap().to_owned(),
        relation["proposalId"].as_str().unwrap().to_owned(),
    );
    let file = dir.path().join(".doc-bridge/proposals.json");
    std::fs::write(
        &file,
        serde_json::to_vec(&json!([canonical, relation])).unwrap(),
    )
    .unwrap();
    let out = run(
        dir.path(),
        &["enrich", "--from-file", file.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = run(dir.path(), &["enrich", "approve", &ids.1, "--by", "alice"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    ids
}

fn render(root: &Path) -> (i32, String) {
    let out = run(root, &["render"]);
    let page = std::fs::read_to_string(root.join(".doc-bridge/report.html")).unwrap_or_default();
    (code(&out), page)
}

/// What headless Chromium made of a page: the DOM after scripts ran, and every console message.
struct Loaded {
    dom: String,
    console: Vec<String>,
}

/// Loads `page` in headless Chromium; `None` when Chromium is not installed (a failure under CI).
fn load_in_chromium(page: &Path) -> Option<Loaded> {
    load_in_chromium_at(page, "")
}

/// [`load_in_chromium`] at a fragment (`#graph`), with timers run until the page is idle.
fn load_in_chromium_at(page: &Path, fragment: &str) -> Option<Loaded> {
    let Some(chromium) = ["chromium", "chromium-browser"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    }) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "chromium is not installed (apt-get install chromium); the render test needs it under CI"
        );
        eprintln!("notice: chromium is not installed; skipping the browser check");
        return None;
    };
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=3000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}{fragment}", page.display()))
        // Into files, not pipes: a large page would fill a pipe nobody reads until the exit.
        .stdout(std::fs::File::create(profile.path().join("dom.html")).unwrap())
        .stderr(std::fs::File::create(profile.path().join("log.txt")).unwrap())
        .spawn()
        .unwrap();
    // A safety net, not a measurement: a browser that never exits must not hang the suite.
    let mut waited = 0;
    while child.try_wait().unwrap().is_none() {
        if waited > 1200 {
            let _ = child.kill();
            panic!("chromium did not exit");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        waited += 1;
    }
    let status = child.wait().unwrap();
    let log = std::fs::read(profile.path().join("log.txt")).unwrap();
    assert!(
        status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&log)
    );
    // Chromium logs every console message (log, warning, error, uncaught exception) as a
    // `CONSOLE` line; the report prints none, so any such line is a failure.
    let console = String::from_utf8_lossy(&log)
        .lines()
        .filter(|l| l.contains(":CONSOLE"))
        .map(str::to_owned)
        .collect();
    let dom = std::fs::read(profile.path().join("dom.html")).unwrap();
    Some(Loaded {
        dom: String::from_utf8_lossy(&dom).into_owned(),
        console,
    })
}

#[test]
fn the_page_runs_in_headless_chromium_without_console_messages() {
    let dir = fixture_copy("ts-workspace");
    let (pending, accepted) = enriched(&dir);
    let (exit, page) = render(dir.path());
    assert_eq!(exit, 0);
    // The review page: the pending proposal, its evidence and the exact commands.
    assert!(
        page.contains(&format!(
            "doc-bridge enrich approve {pending} --by &#60;name&#62;"
        )),
        "approve command"
    );
    assert!(
        page.contains(&format!(
            "doc-bridge enrich reject {pending} --by &#60;name&#62; --reason"
        )),
        "reject command"
    );
    assert!(
        page.contains("docs/auth.md lines 1–2 (snapshot)"),
        "evidence"
    );
    assert!(
        !page.contains(&format!("enrich approve {accepted}")),
        "accepted is not pending"
    );
    // Acceptance per agent: the person's approval and the pending one.
    assert!(page.contains("<td>test-agent</td><td>curator</td><td>propose-relation</td><td>0</td><td>1</td><td>0</td><td>0</td><td>100%</td>"), "stats row");
    // The accepted relation is drawn dashed.
    assert!(
        page.contains(r#"class="edge k-related-to proposed""#),
        "dashed edge"
    );
    assert!(page.contains("document:docs/core.md related-to package:@fx/auth (accepted proposal)"));

    let Some(loaded) = load_in_chromium(&dir.path().join(".doc-bridge/report.html")) else {
        return;
    };
    assert!(
        loaded.console.is_empty(),
        "console messages: {:#?}",
        loaded.console
    );
    assert!(
        loaded.dom.contains(r#"data-ready="yes""#),
        "the inline script did not finish"
    );
    assert!(
        loaded.dom.contains(r#"class="js""#),
        "the inline script did not start"
    );
}

#[test]
fn the_browser_check_catches_a_script_error() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("bad.html");
    std::fs::write(
        &page,
        r#"<!DOCTYPE html><html><body><script>document.body.setAttribute("data-ready", "yes"); null.boom();</script></body></html>"#,
    )
    .unwrap();
    let Some(loaded) = load_in_chromium(&page) else {
        return;
    };
    assert_eq!(loaded.console.len(), 1, "{:#?}", loaded.console);
    assert!(
        loaded.console[0].contains("Uncaught TypeError"),
        "{:#?}",
        loaded.console
    );
}

#[test]
fn the_page_loads_nothing_from_the_network_and_is_byte_identical_on_rerun() {
    let dir = fixture_copy("rust-workspace");
    index(dir.path());
    let (exit, first) = render(dir.path());
    assert_eq!(exit, 0);
    for attribute in ["src=", "href="] {
        for quote in ["\"", "'", ""] {
            for scheme in ["http:", "https:", "//"] {
                let needle = format!("{attribute}{quote}{scheme}");
                assert!(!first.to_lowercase().contains(&needle), "{needle}");
            }
        }
    }
    assert!(!first.contains("url(http"), "no remote CSS resources");
    assert!(!first.contains("@import"), "no CSS imports");
    let out = run(dir.path(), &["render"]);
    assert!(stdout(&out).contains("(unchanged)"), "{}", stdout(&out));
    let custom = dir.path().join("out/page.html");
    let out = run(dir.path(), &["render", "--out", custom.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_same_bytes(&std::fs::read(&custom).unwrap(), first.as_bytes(), "render");
    // Areas, packages, modules and documents are on the page.
    for text in [
        "engine",
        "crates/engine/src",
        "crates/engine/src/parse.rs",
        "Engine design",
    ] {
        assert!(first.contains(text), "{text}");
    }
}

#[test]
fn repository_text_is_escaped() {
    let dir = fixture_copy("docs-site");
    std::fs::write(
        dir.path().join("docs/en/evil.md"),
        "---\ntitle: \"<script>alert(1)</script> & <img src=x onerror=alert(2)>\"\n---\nSee the guide.\n",
    )
    .unwrap();
    index(dir.path());
    let (exit, page) = render(dir.path());
    assert_eq!(exit, 0);
    assert!(!page.contains("<script>alert"), "title escaped");
    assert!(!page.contains("<img src=x"), "title escaped");
    assert!(
        page.contains("&#60;script&#62;alert(1)&#60;/script&#62;"),
        "escaped title shown"
    );
    assert_eq!(
        page.matches("<script>").count(),
        1,
        "only the report's own script"
    );
}

#[test]
fn a_stale_index_renders_with_a_banner_and_exits_one() {
    let dir = fixture_copy("go-module");
    index(dir.path());
    std::fs::write(dir.path().join("docs/architecture.md"), "# Changed\n").unwrap();
    let (exit, page) = render(dir.path());
    assert_eq!(exit, 1);
    assert!(page.contains(r#"class="banner stale""#), "stale banner");
    assert!(page.contains("docs/architecture.md"), "names what changed");
}

#[test]
fn missing_or_corrupt_artifacts_exit_two_without_writing_a_page() {
    let dir = fixture_copy("python-package");
    let out = run(dir.path(), &["render"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("run `doc-bridge index`"),
        "{}",
        stderr(&out)
    );

    index(dir.path());
    let index_path = dir.path().join(".doc-bridge/index.json");
    let good = std::fs::read(&index_path).unwrap();
    for corrupt in [&b"{"[..], b"[]", b"\xff\xfe"] {
        std::fs::write(&index_path, corrupt).unwrap();
        let out = run(dir.path(), &["render"]);
        assert_eq!(code(&out), 2, "{}", stderr(&out));
        assert!(
            stderr(&out).contains("index at .doc-bridge/index.json is invalid"),
            "{}",
            stderr(&out)
        );
    }
    std::fs::write(&index_path, &good).unwrap();
    std::fs::write(
        dir.path().join(".doc-bridge/snapshot.json"),
        b"{\"type\": 1}",
    )
    .unwrap();
    let out = run(dir.path(), &["render"]);
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(stderr(&out).contains("snapshot"), "{}", stderr(&out));
    assert!(!dir.path().join(".doc-bridge/report.html").exists());
}

#[test]
fn an_invalid_overlay_or_report_is_ignored_and_named_on_the_page() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    std::fs::create_dir_all(dir.path().join(".doc-bridge/enrich")).unwrap();
    std::fs::write(
        dir.path().join(".doc-bridge/enrich/overlay.json"),
        b"{ not json",
    )
    .unwrap();
    std::fs::write(dir.path().join(".doc-bridge/report.json"), b"[1, 2]").unwrap();
    // The overlay is an input of the index: re-index so only the overlay and report are bad.
    index(dir.path());
    let out = run(dir.path(), &["render"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let page = std::fs::read_to_string(dir.path().join(".doc-bridge/report.html")).unwrap();
    assert!(page.contains("The enrichment overlay is invalid and was ignored"));
    assert!(page.contains("report.json is not a readable check report"));
}

#[test]
fn check_report_diagnostics_are_shown_once_beside_the_snapshot_ones() {
    let dir = fixture_copy("docs-site");
    index(dir.path());
    let snapshot = artifact(dir.path(), "snapshot.json");
    let first = snapshot["diagnostics"][0].clone();
    let report = json!({
        "type": "doc-bridge-check-report",
        "snapshotHash": snapshot["contentHash"],
        "diagnostics": [
            first,
            {"id": "x1", "code": "orphan-document", "severity": "warning", "path": "docs/en/regions/norway.md",
             "message": "nothing links to this document", "entity": "document:docs/en/regions/norway.md"}
        ],
    });
    std::fs::write(
        dir.path().join(".doc-bridge/report.json"),
        serde_json::to_vec(&report).unwrap(),
    )
    .unwrap();
    let (exit, page) = render(dir.path());
    assert_eq!(exit, 0);
    assert!(page.contains("nothing links to this document"));
    let message = first["message"].as_str().unwrap();
    let escaped = message
        .replace('&', "&#38;")
        .replace('<', "&#60;")
        .replace('>', "&#62;")
        .replace('"', "&#34;")
        .replace('\'', "&#39;");
    assert_eq!(page.matches(&escaped).count(), 1, "{message}");
}

/// The counts say how many diagnostics there are, not how many the list shows.
#[test]
fn the_overview_counts_every_diagnostic_beyond_the_listed_ones() {
    let dir = fixture_copy("docs-site");
    index(dir.path());
    let snapshot = artifact(dir.path(), "snapshot.json");
    let own = snapshot["diagnostics"].as_array().unwrap().len();
    let extra: Vec<Value> = (0..600)
        .map(|n| {
            json!({"id": format!("x{n}"), "code": "orphan-document", "severity": "warning",
                   "path": format!("docs/gone-{n:03}.md"), "message": "nothing links to this document"})
        })
        .collect();
    let report = json!({
        "type": "doc-bridge-check-report",
        "snapshotHash": snapshot["contentHash"],
        "diagnostics": extra,
    });
    std::fs::write(
        dir.path().join(".doc-bridge/report.json"),
        serde_json::to_vec(&report).unwrap(),
    )
    .unwrap();
    let (exit, page) = render(dir.path());
    assert_eq!(exit, 0);
    let total = 600 + own;
    assert!(
        page.contains(&format!("Diagnostics ({total})")),
        "tab label"
    );
    assert!(
        page.contains(&format!("<b>{total}</b><span>diagnostics</span>")),
        "the overview count"
    );
    assert!(
        page.contains(&format!("shows the first 500 of {total}")),
        "the notice"
    );
}

/// When the graph keeps only the most connected, tests and fixtures give way to the rest.
#[test]
fn the_graph_keeps_guides_over_more_connected_test_fixtures() {
    let dir = fixture_copy("docs-site");
    let fixtures = dir.path().join("tests/fixtures");
    std::fs::create_dir_all(&fixtures).unwrap();
    for n in 0..5 {
        std::fs::write(
            fixtures.join(format!("fx{n}.md")),
            format!("# Zzfixture{n}\n\nA sample page.\n"),
        )
        .unwrap();
    }
    let guides = dir.path().join("docs/guides");
    std::fs::create_dir_all(&guides).unwrap();
    let links: String = (0..5)
        .map(|n| format!("[f{n}](../../tests/fixtures/fx{n}.md) "))
        .collect();
    for n in 0..45 {
        std::fs::write(
            guides.join(format!("g{n:02}.md")),
            format!("# Guide {n}\n\nSee {links}\n"),
        )
        .unwrap();
    }
    index(dir.path());
    let (exit, page) = render(dir.path());
    assert_eq!(exit, 0);
    let graph = &page[page.find("aria-label=\"Relation graph\"").unwrap()..];
    let graph = &graph[..graph.find("</svg>").unwrap()];
    assert!(
        !graph.contains("fixtures/fx"),
        "fixtures were kept over guides"
    );
    assert!(graph.contains("guides/g01"), "guides are drawn: {graph}");
}

/// A script appended to a rendered page for the deep-link test: once the page is idle it records
/// the scroll position, the active tab, where `#<target>` is in the viewport, and how many
/// cards and tables of the active tab overflow their box or reach past the tab's right edge.
const SCROLL_PROBE: &str = r#"<script>
window.setTimeout(function () {
  var target = document.getElementById(window.location.hash.slice(1));
  var tab = document.querySelector("section.tab.active");
  var top = target ? Math.round(target.getBoundingClientRect().top) : "none";
  var edge = tab ? tab.getBoundingClientRect().right : 0;
  var boxes = tab ? Array.prototype.slice.call(tab.querySelectorAll(".card, table")) : [];
  var over = boxes.filter(function (b) {
    return b.scrollWidth > b.clientWidth + 1 || b.getBoundingClientRect().right > edge + 1;
  }).length;
  document.body.setAttribute("data-probe",
    window.scrollY + " " + (tab ? tab.id : "none") + " " + top + " " + over);
}, 1500);
</script>
</body>"#;

/// A link to a tab (`report.html#graph`) shows that tab from the top of the page, the header and
/// the tabs in view, not scrolled to where the tab was before the others were hidden; a link to
/// a card shows the card's tab with the card at the top. A long name without a space wraps inside
/// its card.
#[test]
fn a_deep_link_shows_its_tab_from_the_top_and_a_card_in_view() {
    let dir = fixture_copy("docs-site");
    // Enough documents that the page is long before its script hides the other tabs.
    std::fs::create_dir_all(dir.path().join("docs/many")).unwrap();
    for i in 0..150 {
        std::fs::write(
            dir.path().join(format!("docs/many/page-{i}.md")),
            format!("# Page {i}\n\nText of page {i}, see [the index](../index.md).\n"),
        )
        .unwrap();
    }
    let long = "Configuring_the_extremely_long_identifier_that_never_breaks_".repeat(3);
    std::fs::write(
        dir.path().join("docs/many/long.md"),
        format!("# {long}\n\nA page with a long name.\n"),
    )
    .unwrap();
    index(dir.path());
    let (exit, page) = render(dir.path());
    assert_eq!(exit, 0);
    let probed = dir.path().join(".doc-bridge/probed.html");
    std::fs::write(&probed, page.replace("</body>", SCROLL_PROBE)).unwrap();
    let probe = |fragment: &str| -> Option<Vec<String>> {
        let loaded = load_in_chromium_at(&probed, fragment)?;
        let start = loaded.dom.find("data-probe=\"").unwrap() + "data-probe=\"".len();
        let end = start + loaded.dom[start..].find('"').unwrap();
        Some(
            loaded.dom[start..end]
                .split(' ')
                .map(str::to_owned)
                .collect(),
        )
    };
    let Some(graph) = probe("#graph") else {
        return;
    };
    assert_eq!(graph[..2], ["0", "graph"], "{graph:?}");
    let card = page
        .split("<a href=\"#")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap();
    let at_card = probe(&format!("#{card}")).unwrap();
    assert_ne!(at_card[1], "graph", "the card's own tab: {at_card:?}");
    let top: i64 = at_card[2].parse().unwrap();
    assert!(top.abs() <= 2, "the card at the top: {at_card:?}");
    let documents = probe("#documents").unwrap();
    assert_eq!(documents[1], "documents", "{documents:?}");
    assert_eq!(documents[3], "0", "boxes overflowing: {documents:?}");
}
