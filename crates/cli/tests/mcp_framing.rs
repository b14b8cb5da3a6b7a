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

#[test]
fn malformed_lines_are_answered_and_the_server_keeps_serving() {
    let dir = fixture_copy("ts-workspace");
    index(dir.path());
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("doc-bridge"))
        .args(["mcp", "--root"])
        .arg(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
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
    let next = || received.recv_timeout(Duration::from_secs(20)).unwrap();
    let mut send = |bytes: &[u8]| {
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    };
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"}}});
    send(initialize.to_string().as_bytes());
    assert_eq!(next()["id"], 1);
    send(
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
            .to_string()
            .as_bytes(),
    );

    for (line, code) in [
        (&b"garbage"[..], -32700),
        (b"{", -32700),
        (b"\xff\xfe not utf-8", -32700),
        (b"42", -32600),
    ] {
        send(line);
        let answer = next();
        assert_eq!(answer["error"]["code"], code, "{line:?}: {answer}");
        assert_eq!(answer["id"], Value::Null, "{line:?}");
    }
    // Duplicate argument keys: refused with the request's id.
    send(br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search","arguments":{"query":"auth","query":"core"}}}"#);
    let answer = next();
    assert_eq!(answer["id"], 5, "{answer}");
    assert_eq!(answer["error"]["code"], -32600, "{answer}");

    // Still serving.
    send(
        json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call",
        "params": {"name": "search", "arguments": {"query": "auth"}}})
        .to_string()
        .as_bytes(),
    );
    let answer = next();
    assert_eq!(answer["id"], 9, "{answer}");
    assert!(answer.get("result").is_some(), "{answer}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}
