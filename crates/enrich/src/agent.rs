//! The agent seam (enrichment-overlay-v1, "Protocol v2"): one trait, implemented in
//! `doc-bridge-agents` (a local command, an OpenAI-compatible endpoint). The adapter checks
//! transport and budget and returns the raw proposals; grounding is the validators' job.

use serde::{Deserialize, Serialize};

use crate::pack::ContextPack;

/// The protocol name.
pub const PROTOCOL_V2: &str = "doc-bridge.registry-agent.v2";

/// Who the agent is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentIdentity {
    /// `origin.agentId` of its proposals.
    pub agent_id: String,
    /// Its version.
    pub agent_version: String,
}

/// One request: `{"protocol": "doc-bridge.registry-agent.v2", "task", "role", "promptVersion",
/// "agent", "baseSnapshotHash", "packs", "examples", "capabilities", "network", "shell",
/// "deterministic"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentRequest {
    /// Always [`PROTOCOL_V2`].
    pub protocol: String,
    /// `curate`, `review` or `adjudicate`.
    pub task: String,
    /// `curator`, `reviewer` or `adjudicator`.
    pub role: String,
    /// The prompt version proposals must carry.
    pub prompt_version: String,
    /// The agent's identity.
    pub agent: AgentIdentity,
    /// The snapshot proposals must be made against.
    pub base_snapshot_hash: String,
    /// The packs (agents never receive the snapshot); for `adjudicate`, followed by one
    /// `adjudication-request` item.
    pub packs: Vec<RequestItem>,
    /// Past reviewer judgments offered as examples.
    pub examples: Vec<serde_json::Value>,
    /// Always `["pack.read", "proposal.write"]`.
    pub capabilities: Vec<String>,
    /// Always false.
    pub network: bool,
    /// Always false.
    pub shell: bool,
    /// Always true.
    pub deterministic: bool,
}

/// One item of a request's `packs`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum RequestItem {
    /// A context pack.
    Pack(Box<ContextPack>),
    /// The `adjudication-request` item that follows the packs of an `adjudicate` call.
    Adjudication(serde_json::Value),
}

impl AgentRequest {
    /// A request for `packs` under protocol v2.
    pub fn new(
        task: &str,
        role: &str,
        prompt_version: &str,
        agent: AgentIdentity,
        base_snapshot_hash: &str,
        packs: Vec<ContextPack>,
    ) -> Self {
        AgentRequest {
            protocol: PROTOCOL_V2.to_owned(),
            task: task.to_owned(),
            role: role.to_owned(),
            prompt_version: prompt_version.to_owned(),
            agent,
            base_snapshot_hash: base_snapshot_hash.to_owned(),
            packs: packs
                .into_iter()
                .map(|p| RequestItem::Pack(Box::new(p)))
                .collect(),
            examples: Vec::new(),
            capabilities: vec!["pack.read".to_owned(), "proposal.write".to_owned()],
            network: false,
            shell: false,
            deterministic: true,
        }
    }
}

/// What an agent may fail with: value-free reasons from a closed grammar, never document text or
/// the agent's own error prose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentFailure {
    /// The command could not be started.
    Spawn,
    /// It did not answer within the deadline.
    Timeout,
    /// It exited with a non-zero status (or a signal).
    Exit(Option<i32>),
    /// It printed more than the output limit.
    OutputTooLarge,
    /// The request was larger than the input limit.
    InputTooLarge,
    /// The answer was not one JSON object with a `proposals` array.
    InvalidJson,
    /// An HTTP status from an endpoint.
    Http(u16),
    /// A transport failure class (`connect`, `io`, `tls`, ...).
    Transport(&'static str),
    /// A finish reason other than `stop`: one of [`FINISH_REASONS`], anything else `other`
    /// (a provider's own words never reach a summary), `missing` when there was none.
    FinishReason(&'static str),
    /// The endpoint answered with another model than the one requested (or named none).
    ModelMismatch,
}

/// The finish reasons kept as they are; any other becomes `other`.
pub const FINISH_REASONS: &[&str] = &[
    "content_filter",
    "function_call",
    "length",
    "stop",
    "tool_calls",
];

impl AgentFailure {
    /// The failure for a finish reason other than `stop`, from the closed list.
    pub fn finish_reason(reason: Option<&str>) -> AgentFailure {
        AgentFailure::FinishReason(match reason {
            None => "missing",
            Some(reason) => FINISH_REASONS
                .iter()
                .copied()
                .find(|known| *known == reason)
                .unwrap_or("other"),
        })
    }
}

impl AgentFailure {
    /// The value-free reason recorded in summaries and logs.
    pub fn reason(&self) -> String {
        match self {
            AgentFailure::Spawn => "spawn".to_owned(),
            AgentFailure::Timeout => "timeout".to_owned(),
            AgentFailure::Exit(Some(code)) => format!("exit {code}"),
            AgentFailure::Exit(None) => "killed by signal".to_owned(),
            AgentFailure::OutputTooLarge => "output too large".to_owned(),
            AgentFailure::InputTooLarge => "input too large".to_owned(),
            AgentFailure::InvalidJson => "invalid JSON".to_owned(),
            AgentFailure::Http(status) => format!("http {status}"),
            AgentFailure::Transport(class) => format!("transport {class}"),
            AgentFailure::FinishReason(reason) => format!("finish reason {reason}"),
            AgentFailure::ModelMismatch => "model mismatch".to_owned(),
        }
    }
}

/// Bytes an agent sent to and received from its transport: what went out on a command's stdin
/// or in HTTP request bodies, and what came back on stdout or in response bodies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Bytes sent.
    pub sent: u64,
    /// Bytes received.
    pub received: u64,
}

impl Traffic {
    /// What moved between `before` and `self` (never negative).
    pub fn since(self, before: Traffic) -> Traffic {
        Traffic {
            sent: self.sent.saturating_sub(before.sent),
            received: self.received.saturating_sub(before.received),
        }
    }
}

/// Running [`Traffic`] counters for an agent implementation, safe to add to from any thread.
/// Clones share the counters.
#[derive(Debug, Clone, Default)]
pub struct TrafficMeter {
    sent: std::sync::Arc<std::sync::atomic::AtomicU64>,
    received: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl TrafficMeter {
    /// Counts `bytes` sent.
    pub fn sent(&self, bytes: usize) {
        self.sent
            .fetch_add(bytes as u64, std::sync::atomic::Ordering::Relaxed);
    }

    /// Counts `bytes` received.
    pub fn received(&self, bytes: usize) {
        self.received
            .fetch_add(bytes as u64, std::sync::atomic::Ordering::Relaxed);
    }

    /// The totals so far.
    pub fn total(&self) -> Traffic {
        Traffic {
            sent: self.sent.load(std::sync::atomic::Ordering::Relaxed),
            received: self.received.load(std::sync::atomic::Ordering::Relaxed),
        }
    }
}

/// An agent.
pub trait Agent: Sync {
    /// Who it is.
    fn identity(&self) -> AgentIdentity;
    /// Answers one request with raw proposals (JSON values, untrusted).
    fn call(&self, request: &AgentRequest) -> Result<Vec<serde_json::Value>, AgentFailure>;
    /// How many calls the stage may have in flight at once (default 1: one after another).
    fn max_in_flight(&self) -> usize {
        1
    }
    /// The bytes it has sent and received so far, over every call (default: none counted). The
    /// stage records the difference over its run.
    fn traffic(&self) -> Traffic {
        Traffic::default()
    }
    /// Like [`Agent::call`], and on failure also the raw answer when there was one (what a
    /// command printed, a model's message content), for the optional, redacted capture of
    /// failed answers. The default has no raw answer.
    fn call_with_raw(&self, request: &AgentRequest) -> Result<Vec<serde_json::Value>, RawFailure> {
        self.call(request)
            .map_err(|failure| RawFailure { failure, raw: None })
    }
}

/// A failed call with the raw answer, if any. The raw bytes are untrusted and may hold anything:
/// they only ever leave the stage redacted, byte-capped and outside the hashed decisions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawFailure {
    /// The value-free failure.
    pub failure: AgentFailure,
    /// What the agent answered, when it answered something.
    pub raw: Option<Vec<u8>>,
}

/// Reads an agent's answer: exactly one JSON object with a `proposals` array. Never repairs JSON.
pub fn parse_answer(bytes: &[u8]) -> Result<Vec<serde_json::Value>, AgentFailure> {
    let value: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|_| AgentFailure::InvalidJson)?;
    match value.get("proposals") {
        Some(serde_json::Value::Array(items)) if value.is_object() => Ok(items.clone()),
        _ => Err(AgentFailure::InvalidJson),
    }
}
