//! Running the agent stage from the configuration (`intelligence.registry`): the CLI agent, the
//! file-backed answer cache, and reading files for pack excerpts. Reached only from `enrich`.

use std::path::PathBuf;
use std::time::Duration;

use doc_bridge_agents::{CliAgent, HttpAgent};
use doc_bridge_enrich::agent::{Agent, AgentIdentity};
use doc_bridge_enrich::pack::DEFAULT_MAX_PACK_BYTES;
use doc_bridge_enrich::stage::{AnswerCache, StageOutcome, StageSettings, run_stage};
use doc_bridge_model::artifact::{read_json, write_json};
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_model::{ContentHash, RelPath};
use serde::Deserialize;

use crate::exit::UserError;
use crate::repo::Repo;

/// `intelligence.registry`, as far as this stage reads it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Registry {
    #[serde(default = "yes")]
    enabled: bool,
    agent_id: String,
    #[serde(default = "one")]
    agent_version: String,
    #[serde(default = "one")]
    prompt_version: String,
    #[serde(default)]
    max_pack_bytes: Option<usize>,
    cli: Option<CliConfig>,
    http: Option<HttpConfig>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct HttpConfig {
    base_url: String,
    model: String,
    /// The environment variable holding the API key (the key never sits in the config).
    #[serde(default)]
    api_key_env: Option<String>,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    attempts: Option<u32>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CliConfig {
    command: String,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    timeout_ms: Option<u64>,
    #[serde(default)]
    max_output_bytes: Option<usize>,
}

fn yes() -> bool {
    true
}

fn one() -> String {
    "1".to_owned()
}

/// The answer cache under `.doc-bridge/enrich/cache/`: one JSON file per key; unreadable = miss.
struct FileCache {
    dir: PathBuf,
}

#[derive(serde::Serialize, Deserialize)]
struct CachedAnswer {
    proposals: Vec<serde_json::Value>,
}

impl AnswerCache for FileCache {
    fn get(&self, key: &ContentHash) -> Option<Vec<serde_json::Value>> {
        read_json::<CachedAnswer>(&self.dir.join(format!("{key}.json")))
            .ok()
            .flatten()
            .map(|a| a.proposals)
    }

    fn put(&mut self, key: &ContentHash, proposals: &[serde_json::Value]) {
        // A cache that cannot be written costs a repeated call later, never a wrong answer.
        let _ = write_json(
            &self.dir.join(format!("{key}.json")),
            &CachedAnswer {
                proposals: proposals.to_vec(),
            },
        );
    }
}

/// Runs the configured agent over every document. Exit 2 when no agent is configured.
pub fn run(repo: &Repo, snapshot: &Snapshot) -> Result<StageOutcome, UserError> {
    let configure = "configure `intelligence.registry` (agentId and `cli: {command, args}`) in doc-bridge.config.json, or decide proposals from a file with `doc-bridge enrich --from-file FILE`";
    let registry = repo
        .config
        .intelligence
        .as_ref()
        .and_then(|i| i.get("registry"))
        .ok_or_else(|| UserError::error(format!("no agent is configured: {configure}")))?;
    let registry: Registry = serde_json::from_value(registry.clone()).map_err(|e| {
        UserError::error(format!("invalid configuration: intelligence.registry: {e}"))
    })?;
    if !registry.enabled {
        return Err(UserError::error(
            "intelligence.registry.enabled is false: enrichment is switched off",
        ));
    }
    let identity = AgentIdentity {
        agent_id: registry.agent_id,
        agent_version: registry.agent_version,
    };
    let agent: Box<dyn Agent> = match (registry.cli, registry.http) {
        (Some(cli), None) => Box::new(CliAgent {
            identity,
            command: cli.command,
            args: cli.args,
            cwd: repo.root.clone(),
            timeout: Duration::from_millis(cli.timeout_ms.unwrap_or(60_000)),
            max_input_bytes: 1 << 20,
            max_output_bytes: cli.max_output_bytes.unwrap_or(1 << 20),
        }),
        (None, Some(http)) => Box::new(HttpAgent {
            identity,
            base_url: http.base_url,
            model: http.model,
            api_key: http.api_key_env.and_then(|name| std::env::var(name).ok()),
            timeout: Duration::from_millis(http.timeout_ms.unwrap_or(120_000)),
            attempts: http.attempts.unwrap_or(1),
            backoff: Duration::from_millis(500),
            max_output_bytes: 1 << 20,
        }),
        (Some(_), Some(_)) => {
            return Err(UserError::error(
                "invalid configuration: intelligence.registry: set one of `cli` and `http`, not both",
            ));
        }
        (None, None) => {
            return Err(UserError::error(format!(
                "no agent command or endpoint: {configure}"
            )));
        }
    };
    let settings = StageSettings {
        task: "curate".to_owned(),
        role: "curator".to_owned(),
        prompt_version: registry.prompt_version,
        max_pack_bytes: registry.max_pack_bytes.unwrap_or(DEFAULT_MAX_PACK_BYTES),
    };
    let mut cache = FileCache {
        dir: repo.artifact("enrich/cache"),
    };
    let root = repo.root.clone();
    let read = move |path: &RelPath| std::fs::read(root.join(path.as_str())).ok();
    let judgments = load_judgments(repo);
    Ok(run_stage(
        snapshot,
        agent.as_ref(),
        &settings,
        &mut cache,
        &read,
        &judgments,
    ))
}

/// Every readable approval record (unreadable ones are skipped, never trusted).
pub fn load_judgments(repo: &Repo) -> Vec<doc_bridge_model::approval::ApprovalRecord> {
    let mut records = Vec::new();
    if let Ok(entries) = std::fs::read_dir(repo.artifact("approvals")) {
        for entry in entries.flatten() {
            if let Ok(Some(record)) = read_json(&entry.path()) {
                records.push(record);
            }
        }
    }
    records.sort_by(|a: &doc_bridge_model::approval::ApprovalRecord, b| {
        a.approval_id.cmp(&b.approval_id)
    });
    records
}
