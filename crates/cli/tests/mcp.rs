//! `doc-bridge mcp` through a real MCP client: the rmcp client spawns the built binary over stdio
//! and speaks the protocol to it (initialize, tools/list, tools/call).
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;

use common::*;
use doc_bridge_model::EntityId;
use doc_bridge_model::enrichment::{ProposalKind, proposal_id};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult, ErrorCode};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

type Client = RunningService<RoleClient, ()>;

async fn connect(root: &Path) -> Client {
    connect_with(root, &[]).await
}

/// A server started with `flags` after `mcp`.
async fn connect_with(root: &Path, flags: &[&str]) -> Client {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_doc-bridge"));
    command
        .arg("mcp")
        .args(flags)
        .arg("--root")
        .arg(root)
        .env("SOURCE_DATE_EPOCH", "1767225600")
        .env_remove("RUST_LOG");
    let transport = TokioChildProcess::new(command).unwrap();
    ().serve(transport).await.unwrap()
}

async fn call(
    client: &Client,
    name: &str,
    arguments: Value,
) -> Result<CallToolResult, ServiceError> {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    client
        .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments))
        .await
}

fn text(result: &CallToolResult) -> String {
    result.content[0].as_text().unwrap().text.clone()
}

/// A successful call's JSON.
async fn ok(client: &Client, name: &str, arguments: Value) -> Value {
    let result = call(client, name, arguments).await.unwrap();
    assert_ne!(result.is_error, Some(true), "{name}: {}", text(&result));
    serde_json::from_str(&text(&result)).unwrap()
}

/// A call that fails with an MCP error result; its message.
async fn failed(client: &Client, name: &str, arguments: Value) -> String {
    let result = call(client, name, arguments).await.unwrap();
    assert_eq!(result.is_error, Some(true), "{name}: {}", text(&result));
    text(&result)
}

/// A call refused with a JSON-RPC error; its code and message.
async fn refused(client: &Client, name: &str, arguments: Value) -> (ErrorCode, String) {
    match call(client, name, arguments).await {
        Err(ServiceError::McpError(error)) => (error.code, error.message.to_string()),
        other => panic!("{name}: expected a JSON-RPC error, got {other:?}"),
    }
}

fn indexed(name: &str) -> FixtureCopy {
    let dir = fixture_copy(name);
    index(dir.path());
    dir
}

#[tokio::test]
async fn initialize_and_tools_list_describe_seven_portable_tools() {
    let dir = indexed("ts-workspace");
    let client = connect(dir.path()).await;
    let info = client.peer_info().unwrap();
    let server = info.server_info.as_ref().unwrap();
    assert_eq!(server.name, "doc-bridge");
    assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
    assert!(info.capabilities.tools.is_some());

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "search",
            "lookup",
            "handoff",
            "read_document",
            "diagnostics",
            "proposals",
            "refresh"
        ]
    );
    for tool in &tools {
        assert!(
            !tool.name.is_empty()
                && tool
                    .name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "{}",
            tool.name
        );
        assert!(tool.description.as_ref().is_some_and(|d| !d.is_empty()));
    }
    // The whole interface (names, descriptions, input schemas), so a change shows in review.
    insta::assert_json_snapshot!("mcp-tools-list", serde_json::to_value(&tools).unwrap());
    // The input schemas are real JSON Schemas that accept good arguments and refuse bad ones.
    let search = serde_json::to_value(&*tools[0].input_schema).unwrap();
    let validator = jsonschema::validator_for(&search).unwrap();
    assert!(validator.is_valid(&json!({"query": "auth", "limit": 3, "budgetTokens": 100})));
    assert!(!validator.is_valid(&json!({"query": 5})));
    assert!(!validator.is_valid(&json!({"limit": 3})));
    let proposals = serde_json::to_value(&*tools[5].input_schema).unwrap();
    let validator = jsonschema::validator_for(&proposals).unwrap();
    assert!(validator.is_valid(&json!({"action": "list"})));
    assert!(!validator.is_valid(&json!({"action": "delete"})));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn every_tool_answers_from_the_index() {
    let dir = indexed("ts-workspace");
    let client = connect(dir.path()).await;

    // search: ranked, with a numbered excerpt, and score parts on request.
    let found = ok(&client, "search", json!({"query": "session", "limit": 3})).await;
    let first = &found["results"][0];
    assert_eq!(first["path"], "packages/auth/src/session.ts", "{found:#}");
    assert_eq!(first["title"], "session.ts");
    let excerpt = first["excerpt"]["text"].as_str().unwrap();
    assert!(excerpt.contains("4: export interface Session"), "{excerpt}");
    assert!(first.get("explain").is_none());
    assert!(found.get("fits").is_none(), "no budget, no budget flag");
    let explained = ok(
        &client,
        "search",
        json!({"query": "session", "explain": true}),
    )
    .await;
    assert!(
        explained["results"][0]["explain"]["parts"]["bm25"].is_number(),
        "{explained:#}"
    );

    // lookup by id: the entity, neighbours by kind, covering documents, diagnostics, evidence.
    let module = ok(
        &client,
        "lookup",
        json!({"id": "module:packages/auth/src/session.ts"}),
    )
    .await;
    assert_eq!(module["id"], "module:packages/auth/src/session.ts");
    assert_eq!(module["entity"]["path"], "packages/auth/src/session.ts");
    assert_eq!(module["evidence"]["path"], "packages/auth/src/session.ts");
    let imports = module["neighbours"]["imports"].as_array().unwrap();
    assert!(
        imports
            .iter()
            .any(|n| n["id"] == "module:packages/core/src/index.ts" && n["direction"] == "out"),
        "{module:#}"
    );
    assert!(imports.iter().all(|n| n["depth"] == 1));
    // Deeper neighbourhoods reach further; a document lookup by path lists its diagnostics.
    let deep = ok(
        &client,
        "lookup",
        json!({"id": "module:packages/auth/src/session.ts", "depth": 3}),
    )
    .await;
    let count = |v: &Value| {
        v["neighbours"]
            .as_object()
            .unwrap()
            .values()
            .map(|l| l.as_array().unwrap().len())
            .sum::<usize>()
    };
    assert!(count(&deep) > count(&module), "{deep:#}");
    let doc = ok(&client, "lookup", json!({"path": "docs/auth.md"})).await;
    assert_eq!(doc["id"], "document:docs/auth.md");
    assert!(
        doc["entity"].get("body").is_none(),
        "the text is read_document's job"
    );
    assert_eq!(doc["diagnostics"][0]["code"], "broken-link", "{doc:#}");

    // handoff by package name.
    let handoff = ok(&client, "handoff", json!({"id": "@fx/auth"})).await;
    assert_eq!(handoff["id"], "package:@fx/auth");
    assert_eq!(handoff["type"], "agent-handoff");
    assert_eq!(
        handoff["editRoots"],
        json!(["packages/auth"]),
        "{handoff:#}"
    );
    assert_eq!(handoff["checks"], json!(["npm test -w @fx/auth"]));
    let unknown = failed(&client, "handoff", json!({"id": "no-such-thing"})).await;
    assert!(
        unknown.contains("no entity named `no-such-thing`"),
        "{unknown}"
    );

    // read_document: numbered lines, a window.
    let read = ok(
        &client,
        "read_document",
        json!({"path": "docs/auth.md", "startLine": 2, "lineCount": 2}),
    )
    .await;
    assert_eq!(read["path"], "docs/auth.md");
    assert_eq!(read["startLine"], 2);
    assert_eq!(read["endLine"], 3);
    assert_eq!(
        read["text"],
        "2: title: Authentication\n3: description: How the auth package issues and revokes sessions."
    );
    assert!(read["totalLines"].as_u64().unwrap() > 3);

    // diagnostics: all, by path, by severity.
    let all = ok(&client, "diagnostics", json!({})).await;
    assert_eq!(all["count"], 2, "{all:#}");
    assert_eq!(all["checkReport"], false);
    let core = ok(&client, "diagnostics", json!({"path": "packages/core"})).await;
    assert_eq!(core["count"], 1);
    assert_eq!(core["diagnostics"][0]["code"], "unresolved-import");
    let errors = ok(&client, "diagnostics", json!({"severity": "error"})).await;
    assert_eq!(errors["count"], 0);

    // proposals: an empty overlay lists nothing.
    let listed = ok(&client, "proposals", json!({"action": "list"})).await;
    assert_eq!(listed["entries"], json!([]));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn responses_fit_the_token_budget_dropping_excerpts_first() {
    let dir = indexed("ts-workspace");
    let client = connect(dir.path()).await;
    let full = ok(
        &client,
        "search",
        json!({"query": "auth session", "limit": 5}),
    )
    .await;
    let full_chars = serde_json::to_string(&full).unwrap().len();
    let with_excerpts = full["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r.get("excerpt").is_some())
        .count();
    assert!(with_excerpts >= 2, "{full:#}");

    // A little less room than the full answer: only excerpts go, and the text fits.
    let budget = (full_chars / 4 - 10) as u64;
    let fitted = call(
        &client,
        "search",
        json!({"query": "auth session", "limit": 5, "budgetTokens": budget}),
    )
    .await
    .unwrap();
    let body = text(&fitted);
    assert!(
        body.len() <= budget as usize * 4,
        "{} > {}",
        body.len(),
        budget * 4
    );
    let fitted: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(fitted["fits"], true);
    assert_eq!(fitted["dropped"], json!(["excerpts"]));
    assert_eq!(
        fitted["results"].as_array().unwrap().len(),
        full["results"].as_array().unwrap().len(),
        "results are the core and stay"
    );
    assert!(
        fitted["results"][0].get("excerpt").is_some(),
        "the best result keeps its excerpt"
    );

    // Far too little room: the core stays whole and says it does not fit.
    let tiny = ok(
        &client,
        "search",
        json!({"query": "auth session", "limit": 5, "budgetTokens": 10}),
    )
    .await;
    assert_eq!(tiny["fits"], false);
    assert_eq!(tiny["results"][0]["id"], full["results"][0]["id"]);

    // lookup drops neighbours, handoff drops related areas.
    let lookup = ok(
        &client,
        "lookup",
        json!({"id": "package:@fx/auth", "depth": 3, "budgetTokens": 150}),
    )
    .await;
    assert_eq!(lookup["id"], "package:@fx/auth");
    assert!(
        lookup["dropped"]
            .as_array()
            .unwrap()
            .contains(&json!("neighbours")),
        "{lookup:#}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn paths_that_escape_the_root_are_refused_and_the_server_keeps_serving() {
    let dir = indexed("ts-workspace");
    let outside = dir.path().parent().unwrap().join("outside.md");
    std::fs::write(&outside, "secret outside\n").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("docs/passwd.md")).unwrap();
        std::os::unix::fs::symlink(&outside, dir.path().join("docs/out.md")).unwrap();
    }
    std::fs::write(dir.path().join(".env"), "API_KEY=hunter2\n").unwrap();
    let client = connect(dir.path()).await;
    let mut cases = vec![
        ("../outside.md", "outside the repository root"),
        ("docs/../../outside.md", "outside the repository root"),
        ("/etc/passwd", "is absolute"),
        (".env", "secret store"),
        (".doc-bridge/index.json", "never reads"),
        ("node_modules/left-pad/index.js", "never reads"),
        ("generated/ignored.ts", "not in the index"),
    ];
    if cfg!(unix) {
        cases.push(("docs/passwd.md", "outside the repository root"));
        cases.push(("docs/out.md", "outside the repository root"));
    }
    for (path, why) in cases {
        let message = failed(&client, "read_document", json!({"path": path})).await;
        assert!(message.contains(why), "{path}: {message}");
        assert!(!message.contains("root:x:0"), "{path} leaked content");
    }
    // Still serving.
    let read = ok(&client, "read_document", json!({"path": "AGENTS.md"})).await;
    assert!(read["text"].as_str().unwrap().starts_with("1: "));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn secrets_in_a_document_are_redacted() {
    let dir = fixture_copy("ts-workspace");
    std::fs::write(
        dir.path().join("docs/keys.md"),
        "# Keys\n\nUse AKIAABCDEFGHIJKLMNOP to sign in.\n",
    )
    .unwrap();
    index(dir.path());
    let client = connect(dir.path()).await;
    let read = ok(&client, "read_document", json!({"path": "docs/keys.md"})).await;
    let text = read["text"].as_str().unwrap();
    assert!(!text.contains("AKIAABCDEFGHIJKLMNOP"), "{text}");
    assert!(text.contains("3: Use [redacted]"), "{text}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn bad_requests_get_json_rpc_errors_and_the_server_keeps_serving() {
    let dir = indexed("ts-workspace");
    let client = connect(dir.path()).await;
    let (code, message) = refused(&client, "no_such_tool", json!({})).await;
    assert_eq!(code, ErrorCode::INVALID_PARAMS);
    assert!(message.contains("unknown tool"), "{message}");
    for (tool, arguments, expect) in [
        ("search", json!({"query": 5}), "invalid type"),
        (
            "search",
            json!({"query": "x", "limit": "ten"}),
            "invalid type",
        ),
        (
            "search",
            json!({"query": "x", "bogus": true}),
            "unknown field",
        ),
        ("search", json!({}), "missing field `query`"),
        ("search", json!({"query": "x", "limit": 0}), "`limit`"),
        ("lookup", json!({"id": "a", "path": "b"}), "exactly one"),
        (
            "lookup",
            json!({"id": "package:@fx/auth", "depth": 9}),
            "`depth`",
        ),
        (
            "read_document",
            json!({"path": "AGENTS.md", "startLine": -1}),
            "invalid value",
        ),
        (
            "diagnostics",
            json!({"severity": "fatal"}),
            "unknown variant",
        ),
        ("proposals", json!({"action": "approve"}), "`proposalId`"),
        ("search", json!({"query": "x".repeat(100_000)}), "limit is"),
        ("search", json!({"query": "x".repeat(5_000)}), "longer than"),
    ] {
        let (code, message) = refused(&client, tool, arguments).await;
        assert_eq!(code, ErrorCode::INVALID_PARAMS, "{tool}: {message}");
        assert!(message.contains(expect), "{tool}: {message}");
    }
    let found = ok(&client, "search", json!({"query": "session"})).await;
    assert!(!found["results"].as_array().unwrap().is_empty());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn without_refresh_the_index_is_reloaded_when_it_changes_and_bad_indexes_are_reported() {
    let dir = fixture_copy("ts-workspace");
    let client = connect_with(dir.path(), &["--no-refresh"]).await;
    // No index yet: the CLI's message, as an error result.
    let missing = failed(&client, "search", json!({"query": "auth"})).await;
    assert_eq!(
        missing,
        "no index at .doc-bridge/index.json; run `doc-bridge index`"
    );
    index(dir.path());
    let before = ok(&client, "search", json!({"query": "zanzibar"})).await;
    assert_eq!(before["results"], json!([]));

    // A changed document makes the index stale: refused with the CLI's message.
    let doc = dir.path().join("docs/core.md");
    let mut text = std::fs::read_to_string(&doc).unwrap();
    text.push_str("\nThe zanzibar protocol lives here.\n");
    std::fs::write(&doc, text).unwrap();
    let stale = failed(&client, "search", json!({"query": "zanzibar"})).await;
    assert!(stale.starts_with("index is stale: "), "{stale}");
    assert!(stale.contains("docs/core.md"), "{stale}");

    // Re-indexing is picked up by the next call.
    index(dir.path());
    let after = ok(&client, "search", json!({"query": "zanzibar"})).await;
    assert_eq!(after["results"][0]["path"], "docs/core.md", "{after:#}");
    assert!(
        after["results"][0]["excerpt"]["text"]
            .as_str()
            .unwrap()
            .contains("The zanzibar protocol"),
        "{after:#}"
    );

    // A corrupt index is reported, never a crash; a fresh index brings the server back.
    let index_file = dir.path().join(".doc-bridge/index.json");
    std::fs::write(&index_file, b"{ not json").unwrap();
    let corrupt = failed(&client, "lookup", json!({"id": "package:@fx/auth"})).await;
    assert!(
        corrupt.starts_with("index at .doc-bridge/index.json is invalid"),
        "{corrupt}"
    );
    index(dir.path());
    let back = ok(&client, "lookup", json!({"id": "package:@fx/auth"})).await;
    assert_eq!(back["id"], "package:@fx/auth");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn allow_stale_answers_with_a_stale_flag() {
    let dir = indexed("ts-workspace");
    std::fs::write(dir.path().join("docs/new.md"), "# New\n").unwrap();
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_doc-bridge"));
    command
        .args(["mcp", "--allow-stale", "--no-refresh", "--root"])
        .arg(dir.path());
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    let found = ok(&client, "search", json!({"query": "auth"})).await;
    assert_eq!(found["stale"], true);
    assert_eq!(found["fresh"], false);
    assert!(
        found["staleReason"]
            .as_str()
            .unwrap()
            .contains("docs/new.md"),
        "{found:#}"
    );
    client.cancel().await.unwrap();
}

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

/// A pending `mark-canonical` proposal by `test-agent`, in a repository whose configuration names
/// `curator-bot` as its agent; returns the proposal id.
fn with_pending(root: &Path) -> String {
    std::fs::write(
        root.join("doc-bridge.config.json"),
        serde_json::to_vec(
            &json!({"schemaVersion": 1, "intelligence": {"registry": {"agentId": "curator-bot"}}}),
        )
        .unwrap(),
    )
    .unwrap();
    index(root);
    let snapshot = artifact(root, "snapshot.json");
    let entity = "document:docs/auth.md";
    let target = entity_hash(&snapshot, entity);
    let id = proposal_id(
        ProposalKind::MarkCanonical,
        &EntityId::from_raw(entity),
        &target,
        "test-agent",
        "1",
        Value::Null,
    );
    let proposal = json!({
        "proposalId": id,
        "kind": "mark-canonical",
        "entity": entity,
        "targetContentHash": target,
        "confidence": 0.9,
        "reason": "written by the test",
        "evidence": [{"source": "snapshot", "path": "docs/auth.md", "lines": [1, 1]}],
        "relatedDiagnosticIds": [],
        "origin": {"agentId": "test-agent", "agentVersion": "1", "promptVersion": "1"},
        "baseSnapshotHash": snapshot["contentHash"],
        "payload": {"scope": "package:@fx/auth"},
    });
    let file = root.join(".doc-bridge/pending.json");
    std::fs::write(&file, serde_json::to_vec(&json!([proposal])).unwrap()).unwrap();
    let out = run(root, &["enrich", "--from-file", file.to_str().unwrap()]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    id.to_string()
}

#[tokio::test]
async fn approvals_through_mcp_need_a_person() {
    let dir = fixture_copy("ts-workspace");
    let id = with_pending(dir.path());
    let overlay = || std::fs::read(dir.path().join(".doc-bridge/enrich/overlay.json")).unwrap();
    let before = overlay();
    let client = connect(dir.path()).await;
    let listed = ok(&client, "proposals", json!({"action": "list"})).await;
    assert_eq!(listed["entries"][0]["state"], "pending", "{listed:#}");
    assert_eq!(listed["entries"][0]["proposalId"], id.as_str());

    for (by, expect) in [
        ("", "must name the person"),
        ("policy", "`policy` is not a person"),
        ("curator-bot", "agent identity"),
        ("test-agent", "cannot decide its own proposal"),
        ("Curator-Bot", "agent identity"),
        ("p\u{043E}licy", "`policy` is not a person"),
    ] {
        let message = failed(
            &client,
            "proposals",
            json!({"action": "approve", "proposalId": id, "by": by}),
        )
        .await;
        assert!(message.contains(expect), "{by}: {message}");
        assert_eq!(before, overlay(), "{by}");
    }
    let unknown = failed(
        &client,
        "proposals",
        json!({"action": "reject", "proposalId": "feedbeef", "by": "Ada"}),
    )
    .await;
    assert!(unknown.contains("no pending proposal"), "{unknown}");
    assert!(!dir.path().join(".doc-bridge/approvals").exists());

    let decided = ok(
        &client,
        "proposals",
        json!({"action": "approve", "proposalId": id, "by": "Ada", "reason": "reviewed"}),
    )
    .await;
    assert_eq!(decided["decision"], "approved");
    assert_eq!(decided["by"], "Ada");
    let record: Value = serde_json::from_slice(
        &std::fs::read(dir.path().join(format!(
            ".doc-bridge/approvals/{}.json",
            decided["approvalId"].as_str().unwrap()
        )))
        .unwrap(),
    )
    .unwrap();
    assert_eq!(record["by"], "Ada");
    assert_eq!(record["reason"], "reviewed");
    let listed = ok(&client, "proposals", json!({"action": "list"})).await;
    assert_eq!(listed["entries"][0]["state"], "accepted");
    assert_eq!(listed["entries"][0]["acceptedBy"], "Ada");
    // The re-derived index is what the next call answers from.
    let found = ok(&client, "search", json!({"query": "authentication"})).await;
    assert!(!found["results"].as_array().unwrap().is_empty());
    let again = failed(
        &client,
        "proposals",
        json!({"action": "reject", "proposalId": id, "by": "Grace"}),
    )
    .await;
    assert!(again.contains("already decided"), "{again}");
    client.cancel().await.unwrap();
}

#[test]
fn install_prints_the_client_configuration() {
    let dir = fixture_copy("ts-workspace");
    for flag in ["--claude", "--cursor"] {
        let out = run(dir.path(), &["mcp", "install", flag]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let config: Value = serde_json::from_slice(&out.stdout).unwrap();
        let server = &config["mcpServers"]["doc-bridge"];
        let exe = Path::new(server["command"].as_str().unwrap());
        assert!(exe.is_absolute() && exe.exists(), "{config:#}");
        assert_eq!(
            server["args"],
            json!(["mcp", "--root", dir.path().canonicalize().unwrap()])
        );
    }
    assert!(
        !dir.path().join(".mcp.json").exists(),
        "printing writes nothing"
    );
}

#[test]
fn install_writes_merging_other_servers_and_asks_first() {
    let dir = fixture_copy("ts-workspace");
    // Without a terminal and without --yes: refused, nothing written.
    let out = run(dir.path(), &["mcp", "install", "--claude", "--write"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("pass --yes"), "{}", stderr(&out));
    assert!(!dir.path().join(".mcp.json").exists());

    std::fs::create_dir_all(dir.path().join(".cursor")).unwrap();
    std::fs::write(
        dir.path().join(".cursor/mcp.json"),
        r#"{"mcpServers": {"other": {"command": "other-server"}}}"#,
    )
    .unwrap();
    let out = run(
        dir.path(),
        &["mcp", "install", "--cursor", "--write", "--yes"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let written: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join(".cursor/mcp.json")).unwrap())
            .unwrap();
    assert_eq!(written["mcpServers"]["other"]["command"], "other-server");
    // A project file to commit: no path of this machine in it.
    assert_eq!(
        written["mcpServers"]["doc-bridge"],
        json!({"command": "doc-bridge", "args": ["mcp"]})
    );
    // Again: already there, byte for byte.
    let first = std::fs::read(dir.path().join(".cursor/mcp.json")).unwrap();
    let out = run(
        dir.path(),
        &["mcp", "install", "--cursor", "--write", "--yes"],
    );
    assert_eq!(code(&out), 0);
    assert_eq!(
        first,
        std::fs::read(dir.path().join(".cursor/mcp.json")).unwrap()
    );

    // A file that is not a configuration is never overwritten.
    std::fs::write(dir.path().join(".mcp.json"), "[]").unwrap();
    let out = run(
        dir.path(),
        &["mcp", "install", "--claude", "--write", "--yes"],
    );
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("refusing to change"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(dir.path().join(".mcp.json")).unwrap(), b"[]");
}

/// No agent is ever called from the MCP server: its modules do not name the agent crate or the
/// agent stage (the compiler cannot check this inside one crate, so the source is read).
#[test]
fn the_mcp_server_never_reaches_an_agent() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/mcp");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/commands/mcp.rs"));
    assert!(files.len() >= 6, "{files:?}");
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for forbidden in ["doc_bridge_agents", "agent_stage", "run_stage"] {
            assert!(
                !text.contains(forbidden),
                "{} names {forbidden}",
                file.display()
            );
        }
    }
}

#[tokio::test]
async fn diagnostics_and_lookups_come_in_pages_with_a_cursor_and_one_entry_per_diagnostic() {
    let dir = indexed("ts-workspace");
    // `check` writes a report that repeats the index's diagnostics: still one entry each.
    run(dir.path(), &["check", "--format", "json"]);
    assert!(dir.path().join(".doc-bridge/report.json").is_file());
    let client = connect(dir.path()).await;
    let all = ok(&client, "diagnostics", json!({})).await;
    let total = all["count"].as_u64().unwrap() as usize;
    let rows = all["diagnostics"].as_array().unwrap();
    assert_eq!(rows.len(), total, "{all:#}");
    assert!(total >= 2, "{all:#}");
    let keys: std::collections::BTreeSet<String> = rows
        .iter()
        .map(|r| format!("{}|{}|{}|{}", r["path"], r["line"], r["code"], r["message"]))
        .collect();
    assert_eq!(keys.len(), total, "no diagnostic twice: {all:#}");
    assert!(rows.iter().any(|r| r["source"] == "both"), "{all:#}");
    assert_eq!(all["remaining"], 0);
    assert!(all.get("nextCursor").is_none());

    // One at a time: the pages together are the whole list, in order.
    let mut paged = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args = json!({"limit": 1});
        if let Some(c) = &cursor {
            args["cursor"] = json!(c);
        }
        let page = ok(&client, "diagnostics", args).await;
        assert_eq!(page["count"].as_u64().unwrap() as usize, total);
        paged.extend(page["diagnostics"].as_array().unwrap().iter().cloned());
        assert_eq!(
            page["remaining"].as_u64().unwrap() as usize,
            total - paged.len()
        );
        match page.get("nextCursor") {
            Some(next) => cursor = Some(next.as_str().unwrap().to_owned()),
            None => break,
        }
    }
    assert_eq!(&paged, rows);

    // A budget shortens the page and the cursor resumes at the first item left out.
    let one_row = serde_json::to_string(&rows[0]).unwrap().len();
    let budget = ((serde_json::to_string(&all).unwrap().len() - one_row / 2) / 4) as u64;
    let cut = ok(&client, "diagnostics", json!({"budgetTokens": budget})).await;
    let kept = cut["diagnostics"].as_array().unwrap().len();
    assert!(kept < total, "{cut:#}");
    assert_eq!(cut["dropped"], json!(["items"]));
    assert_eq!(cut["nextCursor"], json!(format!("o{kept}")));
    assert_eq!(cut["remaining"].as_u64().unwrap() as usize, total - kept);
    let rest = ok(
        &client,
        "diagnostics",
        json!({"cursor": format!("o{kept}")}),
    )
    .await;
    assert_eq!(rest["diagnostics"][0], rows[kept]);

    // Bad limits and cursors are refused.
    for bad in [
        json!({"limit": 0}),
        json!({"limit": 1001}),
        json!({"cursor": "12"}),
        json!({"cursor": "o-1"}),
    ] {
        let (code, message) = refused(&client, "diagnostics", bad.clone()).await;
        assert_eq!(code, ErrorCode::INVALID_PARAMS, "{bad}: {message}");
    }

    // lookup: every kind paged alike, with the counts of the whole lists.
    let full = ok(
        &client,
        "lookup",
        json!({"id": "package:@fx/auth", "depth": 3}),
    )
    .await;
    let counts = full["neighbourCounts"].as_object().unwrap().clone();
    let longest = counts.values().map(|c| c.as_u64().unwrap()).max().unwrap();
    assert!(longest >= 2, "{full:#}");
    let first = ok(
        &client,
        "lookup",
        json!({"id": "package:@fx/auth", "depth": 3, "limit": 1}),
    )
    .await;
    for (kind, list) in first["neighbours"].as_object().unwrap() {
        assert_eq!(list.as_array().unwrap().len(), 1, "{kind}");
        assert_eq!(list[0], full["neighbours"][kind][0], "{kind}");
    }
    assert_eq!(first["nextCursor"], "o1");
    let second = ok(
        &client,
        "lookup",
        json!({"id": "package:@fx/auth", "depth": 3, "limit": 1, "cursor": "o1"}),
    )
    .await;
    for (kind, list) in second["neighbours"].as_object().unwrap() {
        let expected = &full["neighbours"][kind];
        match expected.get(1) {
            Some(item) => assert_eq!(&list[0], item, "{kind}"),
            None => assert_eq!(list, &json!([]), "{kind}"),
        }
    }
    client.cancel().await.unwrap();
}

/// The agent workflow: edit a file, ask again, get the edit; the index follows by itself.
#[tokio::test]
async fn an_edit_between_calls_is_in_the_next_answer_and_every_answer_says_it_is_fresh() {
    let dir = fixture_copy("ts-workspace");
    let client = connect(dir.path()).await;
    // No index yet: the first call builds it.
    let first = ok(&client, "search", json!({"query": "zanzibar"})).await;
    assert_eq!(first["results"], json!([]));
    assert_eq!(first["fresh"], true);
    assert!(
        first["refreshed"]
            .as_str()
            .unwrap()
            .starts_with("re-indexed"),
        "{first:#}"
    );
    assert!(dir.path().join(".doc-bridge/index.json").is_file());
    let again = ok(&client, "search", json!({"query": "session"})).await;
    assert_eq!(again["fresh"], true);
    assert!(
        again.get("refreshed").is_none(),
        "nothing changed: {again:#}"
    );

    // An edit, then at once a call: the answer has the edit and says it refreshed.
    let doc = dir.path().join("docs/core.md");
    let mut text = std::fs::read_to_string(&doc).unwrap();
    text.push_str("\nThe zanzibar protocol lives here.\n");
    std::fs::write(&doc, text).unwrap();
    let after = ok(&client, "search", json!({"query": "zanzibar"})).await;
    assert_eq!(after["fresh"], true);
    assert_eq!(after["results"][0]["path"], "docs/core.md", "{after:#}");
    assert!(
        after["refreshed"].as_str().unwrap().contains("index.json"),
        "{after:#}"
    );
    let read = ok(&client, "read_document", json!({"path": "docs/core.md"})).await;
    assert_eq!(read["fresh"], true);
    assert!(read["text"].as_str().unwrap().contains("zanzibar"));

    // A new file is found by lookup right away; `refresh` says what it did.
    std::fs::write(
        dir.path().join("docs/new.md"),
        "# New page\n\nFresh words.\n",
    )
    .unwrap();
    let new = ok(&client, "lookup", json!({"path": "docs/new.md"})).await;
    assert_eq!(new["id"], "document:docs/new.md", "{new:#}");
    assert_eq!(new["fresh"], true);
    let refreshed = ok(&client, "refresh", json!({})).await;
    assert_eq!(
        refreshed["refreshed"], "the index was up to date",
        "{refreshed:#}"
    );
    assert_eq!(refreshed["fresh"], true);
    let forced = ok(&client, "refresh", json!({"force": true})).await;
    assert!(
        forced["refreshed"]
            .as_str()
            .unwrap()
            .starts_with("re-indexed"),
        "{forced:#}"
    );
    client.cancel().await.unwrap();
}

/// The artifacts as they are once the server has written what its last refresh built (a call
/// waits for that: the server answers a refreshing call first and writes right after), then
/// after `index --force`: equal when what the server wrote is what a cold index writes (an
/// equal content keeps its `generatedAt`, so the bytes are equal).
async fn assert_as_a_cold_index_writes(client: &Client, root: &Path, label: &str) {
    let settled = ok(client, "refresh", json!({})).await;
    assert_eq!(
        settled["refreshed"], "the index was up to date",
        "{label}: {settled:#}"
    );
    let read = |name: &str| std::fs::read(root.join(".doc-bridge").join(name)).unwrap();
    let (snapshot, index_json) = (read("snapshot.json"), read("index.json"));
    let out = run(root, &["index", "--force", "--quiet"]);
    assert_eq!(code(&out), 0, "{label}: {}", stderr(&out));
    assert_same_bytes(&snapshot, &read("snapshot.json"), label);
    assert_same_bytes(&index_json, &read("index.json"), label);
}

fn append(root: &Path, path: &str, text: &str) {
    let file = root.join(path);
    let mut content = std::fs::read_to_string(&file).unwrap();
    content.push_str(text);
    std::fs::write(&file, content).unwrap();
}

/// Refreshes before a call re-read what changed (the watch session) and write what a cold
/// `index` writes, whatever changed: an edit, a new file, a removed file, and edits made while
/// another process re-indexed (the server's record of the tree is then older than the index).
#[tokio::test]
async fn refreshes_before_calls_write_what_a_cold_index_writes() {
    let dir = fixture_copy("ts-workspace");
    let root = dir.path();
    index(root);
    let client = connect(root).await;
    let top = |answer: &Value| answer["results"][0]["path"].as_str().map(str::to_owned);

    append(root, "docs/core.md", "\nThe quokka handshake.\n");
    let found = ok(&client, "search", json!({"query": "quokka"})).await;
    assert_eq!(top(&found).as_deref(), Some("docs/core.md"), "{found:#}");
    assert!(
        found["refreshed"].as_str().unwrap().starts_with("re-read"),
        "{found:#}"
    );
    assert_as_a_cold_index_writes(&client, root, "after an edit").await;

    std::fs::write(root.join("docs/added.md"), "# Added\n\nThe wombat page.\n").unwrap();
    let found = ok(&client, "search", json!({"query": "wombat"})).await;
    assert_eq!(top(&found).as_deref(), Some("docs/added.md"), "{found:#}");
    assert_as_a_cold_index_writes(&client, root, "after a new file").await;

    std::fs::remove_file(root.join("docs/added.md")).unwrap();
    let gone = ok(&client, "search", json!({"query": "wombat"})).await;
    assert_eq!(gone["results"], json!([]), "{gone:#}");
    assert_as_a_cold_index_writes(&client, root, "after a removal").await;

    // Another process indexes an edit the server never saw; then one more edit.
    append(root, "docs/core.md", "\nThe numbat relay.\n");
    index(root);
    append(root, "docs/auth.md", "\nThe bilby token.\n");
    let found = ok(&client, "search", json!({"query": "bilby"})).await;
    assert_eq!(top(&found).as_deref(), Some("docs/auth.md"), "{found:#}");
    let earlier = ok(&client, "search", json!({"query": "numbat"})).await;
    assert_eq!(
        top(&earlier).as_deref(),
        Some("docs/core.md"),
        "{earlier:#}"
    );
    assert_as_a_cold_index_writes(&client, root, "after edits around another process's index")
        .await;
    client.cancel().await.unwrap();
}
