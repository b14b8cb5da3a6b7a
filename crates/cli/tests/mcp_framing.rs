//! The MCP server over a real pipe: malformed lines get JSON-RPC errors instead of silence, and
//! the server keeps serving after them.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::*;
use serde_json::{Value, json};

/// `doc-bridge mcp` over real pipes, initialized.
struct Server {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    received: mpsc::Receiver<Value>,
}

impl Server {
    fn start(root: &std::path::Path) -> Server {
        Self::start_logged(root, Stdio::null())
    }

    /// A server whose phase timings go to `stderr`.
    fn start_logged(root: &std::path::Path, stderr: Stdio) -> Server {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("doc-bridge"))
            .args(["mcp", "--root"])
            .arg(root)
            .env("DOC_BRIDGE_TIMINGS", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (lines, received) = mpsc::channel::<Value>();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Ok(value) = serde_json::from_str(&line) {
                    let _ = lines.send(value);
                }
            }
        });
        let mut server = Server {
            child,
            stdin,
            received,
        };
        let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}});
        server.send(initialize.to_string().as_bytes());
        assert_eq!(server.next()["id"], 1);
        server.send(
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
                .to_string()
                .as_bytes(),
        );
        server
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn next(&self) -> Value {
        self.received.recv_timeout(Duration::from_secs(20)).unwrap()
    }

    fn search(&mut self, id: u64, query: &str) -> Value {
        self.call(id, "search", json!({"query": query}))
    }

    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Value {
        self.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}})
            .to_string()
            .as_bytes(),
        );
        self.next()
    }

    /// Closes stdin and waits for the server to end: whether it ended well.
    fn close(mut self) -> bool {
        drop(self.stdin.take());
        self.child.wait().unwrap().success()
    }
}

#[test]
fn malformed_lines_are_answered_and_the_server_keeps_serving() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let mut server = Server::start(dir.path());
    for (line, code) in [
        (&b"garbage"[..], -32700),
        (b"{", -32700),
        (b"\xff\xfe not utf-8", -32700),
        (b"42", -32600),
    ] {
        server.send(line);
        let answer = server.next();
        assert_eq!(answer["error"]["code"], code, "{line:?}: {answer}");
        assert_eq!(answer["id"], Value::Null, "{line:?}");
    }
    // Duplicate argument keys: refused with the request's id.
    server.send(br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":"auth","query":"core"}}}"#);
    let answer = server.next();
    assert_eq!(answer["id"], 5, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");

    // Still serving.
    let answer = server.search(9, "auth");
    assert_eq!(answer["id"], 9, "{answer}");
    assert!(answer.get("result").is_some(), "{answer}");
    assert!(server.close());
}

/// A call after an edit is answered before the refresh's artifacts are written; a server that
/// ends right after it still leaves them on disk, as a cold `index` writes them.
#[test]
fn a_server_that_ends_right_after_a_refreshing_call_leaves_the_refreshed_index() {
    let dir = fixture_copy("ts-workspace");
    let root = dir.path();
    index(root);
    let mut server = Server::start(root);
    assert!(server.search(2, "auth").get("result").is_some());
    let doc = root.join("docs/core.md");
    let mut text = std::fs::read_to_string(&doc).unwrap();
    text.push_str("\nThe okapi gateway.\n");
    std::fs::write(&doc, text).unwrap();
    let answer = server.search(3, "okapi");
    let found: Value =
        serde_json::from_str(answer["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(found["results"][0]["path"], "docs/core.md", "{found:#}");
    assert!(server.close());

    let fresh = run(root, &["index", "--check"]);
    assert_eq!(code(&fresh), 0, "{}", stderr(&fresh));
    let (snapshot, index_json) = (
        artifact_bytes(root, "snapshot.json"),
        artifact_bytes(root, "index.json"),
    );
    let out = run(root, &["index", "--force", "--quiet"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_same_bytes(
        &snapshot,
        &artifact_bytes(root, "snapshot.json"),
        "snapshot",
    );
    assert_same_bytes(&index_json, &artifact_bytes(root, "index.json"), "index");
}

/// Each call's answer from a new server, and the server's timing log.
fn answers_and_log(root: &std::path::Path, calls: &[(&str, Value)]) -> (Vec<Value>, String) {
    let log = tempfile::NamedTempFile::new().unwrap();
    let mut server = Server::start_logged(root, Stdio::from(log.reopen().unwrap()));
    let answers = calls
        .iter()
        .enumerate()
        .map(|(at, (tool, arguments))| {
            let answer = server.call(at as u64 + 2, tool, arguments.clone());
            answer["result"].clone()
        })
        .collect();
    assert!(server.close());
    (answers, std::fs::read_to_string(log.path()).unwrap())
}

#[test]
fn a_server_answers_from_the_query_image_as_from_the_artifacts() {
    let dir = fixture_copy("ts-workspace");
    let root = dir.path();
    index(root);
    let calls = [
        ("handoff", json!({"id": "docs/core.md"})),
        ("handoff", json!({"id": "packages/auth/src/tokens.ts"})),
        (
            "lookup",
            json!({"path": "packages/auth/src/tokens.ts", "depth": 2}),
        ),
        ("lookup", json!({"id": "no-such-thing"})),
        ("search", json!({"query": "auth token"})),
        ("diagnostics", json!({})),
        ("read_document", json!({"path": "docs/core.md"})),
        ("refresh", json!({})),
    ];
    // With the query image (written by `index`), neither artifact is parsed.
    let (mapped, log) = answers_and_log(root, &calls);
    assert!(log.contains("timing open query image:"), "{log}");
    assert!(!log.contains("timing read snapshot:"), "{log}");
    assert!(!log.contains("timing read index:"), "{log}");
    for ((tool, arguments), answer) in calls.iter().zip(&mapped) {
        let failed = answer["isError"] == json!(true);
        let unknown = arguments["id"] == "no-such-thing";
        assert_eq!(failed, unknown, "{tool} {arguments}: {answer:#}");
    }
    // Without it, both are, and every answer is the same.
    std::fs::remove_file(root.join(".doc-bridge/cache/query.bin")).unwrap();
    let (parsed, log) = answers_and_log(root, &calls);
    assert!(log.contains("timing read snapshot:"), "{log}");
    for ((tool, _), (a, b)) in calls.iter().zip(mapped.iter().zip(&parsed)) {
        assert_eq!(a, b, "{tool}");
    }
}
