//! The command agent's traffic, with real child processes: what the child took on stdin and
//! what it printed on stdout.
#![allow(clippy::unwrap_used)]

use std::time::Duration;

use doc_bridge_agents::CliAgent;
use doc_bridge_enrich::agent::{Agent, AgentIdentity, AgentRequest, Traffic};

fn agent(script: &str) -> CliAgent {
    CliAgent {
        identity: AgentIdentity {
            agent_id: "local".into(),
            agent_version: "1".into(),
        },
        command: "sh".into(),
        args: vec!["-c".into(), script.into()],
        cwd: std::env::temp_dir(),
        timeout: Duration::from_secs(20),
        max_input_bytes: 8 << 20,
        max_output_bytes: 1 << 20,
        meter: Default::default(),
    }
}

fn request(padding: usize) -> AgentRequest {
    let mut request = AgentRequest::new(
        "curate",
        "curator",
        "1",
        AgentIdentity {
            agent_id: "local".into(),
            agent_version: "1".into(),
        },
        &"a".repeat(64),
        Vec::new(),
    );
    request
        .examples
        .push(serde_json::json!({"id": "x".repeat(padding)}));
    request
}

#[test]
fn traffic_is_the_request_the_child_read_and_the_answer_it_printed() {
    let answer = r#"{"proposals": []}"#;
    let agent = agent(&format!("cat >/dev/null; printf '%s' '{answer}'"));
    assert_eq!(agent.traffic(), Traffic::default());
    let request = request(10);
    let bytes = serde_json::to_vec(&request).unwrap().len() as u64;
    agent.call(&request).unwrap();
    agent.call(&request).unwrap();
    assert_eq!(
        agent.traffic(),
        Traffic {
            sent: 2 * bytes,
            received: 2 * answer.len() as u64,
        }
    );
}

#[test]
fn a_child_that_reads_nothing_is_not_counted_as_sent_the_whole_request() {
    // Far more than a pipe holds, to a child that exits without reading.
    let agent = agent("exit 0");
    let request = request(4 << 20);
    let bytes = serde_json::to_vec(&request).unwrap().len() as u64;
    assert!(agent.call(&request).is_err());
    let traffic = agent.traffic();
    assert!(traffic.sent < bytes, "{traffic:?} of {bytes}");
    assert_eq!(traffic.received, 0);
}
