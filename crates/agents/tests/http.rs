//! The HTTP agent against a real loopback server speaking the chat-completions wire format.
#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use doc_bridge_agents::http::{portable, response_schema};
use doc_bridge_agents::{HttpAgent, Permits};
use doc_bridge_enrich::agent::{Agent, AgentFailure, AgentIdentity, AgentRequest, Traffic};
use serde_json::{Value, json};

struct Reply {
    status: u16,
    body: String,
    delay: Duration,
}

/// Serves the replies in order, one per connection; records each request (headers + body).
fn serve(replies: Vec<Reply>) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    std::thread::spawn(move || {
        for reply in replies {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut head = String::new();
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = value.trim().parse().unwrap_or(0);
                }
                head.push_str(&line);
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            record
                .lock()
                .unwrap()
                .push(format!("{head}\n{}", String::from_utf8_lossy(&body)));
            std::thread::sleep(reply.delay);
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{}",
                reply.status,
                reply.body.len(),
                reply.body
            );
        }
    });
    (url, seen)
}

fn completion(finish: Option<&str>, content: &str) -> Reply {
    completion_by(Some("tiny"), finish, content)
}

/// A completion answered by `model` (`None`: the response names no model).
fn completion_by(model: Option<&str>, finish: Option<&str>, content: &str) -> Reply {
    let mut choice = json!({"index": 0, "message": {"role": "assistant", "content": content}});
    if let Some(finish) = finish {
        choice["finish_reason"] = json!(finish);
    }
    let mut body = json!({"choices": [choice]});
    if let Some(model) = model {
        body["model"] = json!(model);
    }
    Reply {
        status: 200,
        body: body.to_string(),
        delay: Duration::ZERO,
    }
}

fn agent(url: &str, attempts: u32, timeout_ms: u64) -> HttpAgent {
    HttpAgent {
        identity: AgentIdentity {
            agent_id: "local-model".into(),
            agent_version: "1".into(),
        },
        base_url: url.to_owned(),
        model: "tiny".into(),
        api_key: Some("sk-test-key-0123456789abcdef".into()),
        timeout: Duration::from_millis(timeout_ms),
        attempts,
        backoff: Duration::from_millis(10),
        max_output_bytes: 1 << 20,
        permits: Permits::new(1),
        meter: Default::default(),
    }
}

fn request() -> AgentRequest {
    AgentRequest::new(
        "curate",
        "curator",
        "1",
        AgentIdentity {
            agent_id: "local-model".into(),
            agent_version: "1".into(),
        },
        &"a".repeat(64),
        Vec::new(),
    )
}

#[test]
fn stop_with_json_content_returns_the_proposals_and_the_request_carries_the_schema() {
    let (url, seen) = serve(vec![completion(
        Some("stop"),
        r#"{"proposals": [{"kind": "rank-hint"}]}"#,
    )]);
    let proposals = agent(&url, 1, 5000).call(&request()).unwrap();
    assert_eq!(proposals, vec![json!({"kind": "rank-hint"})]);
    let sent = seen.lock().unwrap()[0].clone();
    let (head, body) = sent
        .split_once("\n\n")
        .map(|(h, b)| (h.to_owned(), b.to_owned()))
        .unwrap_or_default();
    assert!(
        head.to_ascii_lowercase()
            .contains("authorization: bearer sk-test-key")
    );
    assert!(
        !body.contains("sk-test-key"),
        "the key must only travel in the header"
    );
    // Free text comes last in the schema the model follows: `reason` after `targetContentHash`
    // (alphabetical order would put it first).
    let (reason, target) = (
        body.find("\"reason\":{").unwrap(),
        body.find("\"targetContentHash\":{").unwrap(),
    );
    assert!(reason > target, "free-text fields must come last");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["response_format"]["type"], "json_schema");
    assert_eq!(
        body["response_format"]["json_schema"]["schema"]["required"],
        json!(["proposals"])
    );
    assert_eq!(body["messages"][0]["role"], "system");
    let user: Value =
        serde_json::from_str(body["messages"][1]["content"].as_str().unwrap()).unwrap();
    assert_eq!(user["protocol"], "doc-bridge.registry-agent.v2");
    assert_eq!(user["network"], false);
}

#[test]
fn finish_reasons_other_than_stop_are_refused() {
    for (finish, reason) in [
        (Some("length"), "finish reason length"),
        (Some("tool_calls"), "finish reason tool_calls"),
        (None, "finish reason missing"),
        // A provider's own words never reach a summary: outside the closed list it is `other`.
        (
            Some("Stopped: see https://example.test/why"),
            "finish reason other",
        ),
        (Some("eos_token"), "finish reason other"),
    ] {
        let (url, _) = serve(vec![completion(finish, r#"{"proposals": []}"#)]);
        let failure = agent(&url, 1, 5000).call(&request()).unwrap_err();
        assert_eq!(failure.reason(), reason);
    }
}

#[test]
fn malformed_content_is_invalid_json_and_never_repaired() {
    for content in [
        r#"{"proposals": [}"#,
        "not json",
        r#"{"proposals": {}}"#,
        r#"```json {"proposals": []} ```"#,
    ] {
        let (url, _) = serve(vec![completion(Some("stop"), content)]);
        assert_eq!(
            agent(&url, 1, 5000).call(&request()).unwrap_err(),
            AgentFailure::InvalidJson,
            "{content}"
        );
    }
}

#[test]
fn server_errors_retry_when_allowed_and_fail_with_the_status_otherwise() {
    let error = || Reply {
        status: 503,
        body: "{\"error\": \"overloaded: secret prose\"}".into(),
        delay: Duration::ZERO,
    };
    let (url, _) = serve(vec![error()]);
    assert_eq!(
        agent(&url, 1, 5000).call(&request()).unwrap_err(),
        AgentFailure::Http(503)
    );
    let (url, seen) = serve(vec![
        error(),
        completion(Some("stop"), r#"{"proposals": []}"#),
    ]);
    assert_eq!(
        agent(&url, 2, 5000).call(&request()).unwrap(),
        Vec::<Value>::new()
    );
    assert_eq!(seen.lock().unwrap().len(), 2);
    // A client error is not retried.
    let (url, seen) = serve(vec![
        Reply {
            status: 400,
            body: "{}".into(),
            delay: Duration::ZERO,
        },
        completion(Some("stop"), "{}"),
    ]);
    assert_eq!(
        agent(&url, 3, 5000).call(&request()).unwrap_err(),
        AgentFailure::Http(400)
    );
    assert_eq!(seen.lock().unwrap().len(), 1);
}

#[test]
fn a_slow_endpoint_times_out_and_a_closed_port_is_a_connect_failure() {
    let (url, _) = serve(vec![Reply {
        status: 200,
        body: "{}".into(),
        delay: Duration::from_secs(3),
    }]);
    assert_eq!(
        agent(&url, 1, 300).call(&request()).unwrap_err(),
        AgentFailure::Timeout
    );
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let failure = agent(&format!("http://127.0.0.1:{port}/v1"), 1, 2000)
        .call(&request())
        .unwrap_err();
    assert!(matches!(failure, AgentFailure::Transport(_)), "{failure:?}");
}

#[test]
fn the_sent_schema_is_portable_and_keeps_property_names() {
    let schema = response_schema().to_string();
    for keyword in ["\"oneOf\"", "\"$schema\"", "\"format\"", "\"maxLength\""] {
        assert!(!schema.contains(keyword), "{keyword} survived");
    }
    let kept = portable(
        &json!({"type": "object", "properties": {"format": {"type": "string", "maxLength": 3}, "title": {"oneOf": [{"type": "string"}]}}}),
    );
    assert_eq!(
        kept,
        json!({"type": "object", "properties": {"format": {"type": "string"}, "title": {"anyOf": [{"type": "string"}]}}})
    );
}

#[test]
fn calls_beyond_the_permits_wait_their_turn() {
    // A server that answers every connection on its own thread, holding each for a while, and
    // records the most connections it saw open at once.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let open = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let most = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (open2, most2) = (open.clone(), most.clone());
    std::thread::spawn(move || {
        for stream in listener.incoming().take(6) {
            let Ok(stream) = stream else { return };
            let (open, most) = (open2.clone(), most2.clone());
            std::thread::spawn(move || {
                use std::sync::atomic::Ordering::SeqCst;
                let now = open.fetch_add(1, SeqCst) + 1;
                most.fetch_max(now, SeqCst);
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0; length];
                let _ = reader.read_exact(&mut body);
                std::thread::sleep(Duration::from_millis(150));
                let reply = completion(Some("stop"), r#"{"proposals": []}"#).body;
                open.fetch_sub(1, SeqCst);
                let mut stream = stream;
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{}",
                    reply.len(),
                    reply
                );
            });
        }
    });
    let mut agent = agent(&url, 1, 10_000);
    agent.permits = Permits::new(2);
    assert_eq!(agent.max_in_flight(), 2);
    std::thread::scope(|scope| {
        for _ in 0..6 {
            scope.spawn(|| assert_eq!(agent.call(&request()).unwrap(), Vec::<Value>::new()));
        }
    });
    assert!(most.load(std::sync::atomic::Ordering::SeqCst) <= 2);
}

/// An answer from another model than the one requested is refused; a dated or tagged variant of
/// the requested name is the same model.
#[test]
fn an_answer_from_another_model_is_refused() {
    for (model, accepted) in [
        (Some("tiny"), true),
        (Some("TINY"), true),
        (Some("tiny-2024-08-06"), true),
        (Some("tiny:latest"), true),
        (Some("tinyllama"), false),
        (Some("huge"), false),
        (Some("tin"), false),
        (None, false),
    ] {
        let (url, _) = serve(vec![completion_by(
            model,
            Some("stop"),
            r#"{"proposals": []}"#,
        )]);
        let answer = agent(&url, 1, 5000).call(&request());
        if accepted {
            assert_eq!(answer, Ok(Vec::new()), "{model:?}");
        } else {
            assert_eq!(answer, Err(AgentFailure::ModelMismatch), "{model:?}");
        }
    }
}

/// A timeout is final: the call is not sent again, whatever `attempts` allows.
#[test]
fn a_timeout_is_not_retried() {
    let slow = || Reply {
        status: 200,
        body: "{}".into(),
        delay: Duration::from_secs(2),
    };
    let (url, seen) = serve(vec![
        slow(),
        completion(Some("stop"), r#"{"proposals": []}"#),
    ]);
    assert_eq!(
        agent(&url, 3, 300).call(&request()).unwrap_err(),
        AgentFailure::Timeout
    );
    // Long enough for the server to take a second connection a retry would have queued.
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(seen.lock().unwrap().len(), 1);
}

/// The body the server received, from its record of the request.
fn received_body(record: &str) -> String {
    record
        .split_once("\n\n")
        .map(|(_, b)| b.to_owned())
        .unwrap()
}

#[test]
fn traffic_counts_every_attempts_request_body_and_the_response_bodies_read() {
    let answer = completion(Some("stop"), r#"{"proposals": [{"kind": "rank-hint"}]}"#);
    let answer_bytes = answer.body.len() as u64;
    let (url, seen) = serve(vec![
        Reply {
            status: 503,
            body: "{\"error\": \"overloaded\"}".into(),
            delay: Duration::ZERO,
        },
        answer,
    ]);
    let agent = agent(&url, 2, 5000);
    assert_eq!(agent.traffic(), Traffic::default());
    agent.call(&request()).unwrap();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    let sent: u64 = seen.iter().map(|r| received_body(r).len() as u64).sum();
    assert!(sent > 0);
    assert_eq!(
        agent.traffic(),
        Traffic {
            // Both attempts sent the whole body; only the answer's body was read.
            sent,
            received: answer_bytes,
        }
    );

    // Nothing leaves for a port nobody listens on.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let closed = self::agent(&format!("http://127.0.0.1:{port}/v1"), 1, 2000);
    assert!(closed.call(&request()).is_err());
    assert_eq!(closed.traffic(), Traffic::default());
}
