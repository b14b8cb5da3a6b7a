//! Approval records (`.doc-bridge/approvals/<approvalId>.json`): one file per human decision
//! (enrichment-overlay-v1, "Approvals"). The store decides first, the overlay moves second.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A person's decision on a pending proposal. Also a reviewer judgment for feedback (later runs
/// may show it to agents as an example).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApprovalRecord {
    /// sha256 of canonical `{"proposalId", "targetContentHash"}`: an approval cannot be replayed
    /// against a changed target.
    pub approval_id: String,
    /// The proposal decided.
    pub proposal_id: String,
    /// The target's content hash the decision binds to.
    pub target_content_hash: String,
    /// `approved` or `rejected`.
    pub decision: ApprovalDecision,
    /// The person (never `policy`, never the proposal's author).
    pub by: String,
    /// The person's reason, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// RFC 3339 time of the decision.
    pub decided_at: String,
    /// The proposal's kind.
    pub kind: String,
    /// The proposal's entity.
    pub entity: String,
    /// The agent that proposed it.
    pub agent_id: String,
    /// The role the proposal was made in (`curator`, `reviewer`, `adjudicator`).
    #[serde(default = "curator")]
    pub role: String,
    /// The proposal's payload, so later runs can show the judgment as an example.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<serde_json::Value>,
}

fn curator() -> String {
    "curator".to_owned()
}

/// What the person decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ApprovalDecision {
    /// Accepted: the proposal moves from pending to accepted.
    Approved,
    /// Refused: the proposal moves to rejected with reason `human-rejected`.
    Rejected,
}
