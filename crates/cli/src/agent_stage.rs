//! Running the agent stage from the configuration (`intelligence.registry`): the CLI agent, the
//! file-backed answer cache, and reading files for pack excerpts. Reached only from `enrich`.

use std::path::PathBuf;
use std::time::Duration;

use doc_bridge_agents::{CliAgent, HttpAgent};
use doc_bridge_enrich::adjudicate::Dispute;
use doc_bridge_enrich::agent::{Agent, AgentIdentity};
use doc_bridge_enrich::pack::DEFAULT_MAX_PACK_BYTES;
use doc_bridge_enrich::redact::{map_strings, redact};
use doc_bridge_enrich::stage::{
    AnswerCache, Role, StageOutcome, StageSettings, run_adjudication, run_stage,
};
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_model::{ContentHash, RelPath};
use doc_bridge_store::artifact::{read_json, write_json};
use serde::Deserialize;

use crate::agent_config::{
    AgentConfig, DEFAULT_BACKOFF_MS, DEFAULT_BATCH_SIZE, chosen_roles, registry,
};
use crate::exit::UserError;
use crate::repo::Repo;

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
        // The stage hands over redacted answers; redacting every string again here (a no-op for
        // them) keeps a secret off the disk whoever calls `put`.
        let proposals = proposals
            .iter()
            .map(|proposal| {
                let mut proposal = proposal.clone();
                map_strings(&mut proposal, &mut |text| redact(text));
                proposal
            })
            .collect();
        // A cache that cannot be written costs a repeated call later, never a wrong answer.
        let _ = write_json(
            &self.dir.join(format!("{key}.json")),
            &CachedAnswer { proposals },
        );
    }
}

/// A role with its agent, ready to run.
pub struct RoleAgent {
    /// The role.
    pub role: Role,
    /// Its agent.
    pub agent: Box<dyn Agent>,
    /// Its settings (task, role, prompt version, pack budget).
    pub settings: StageSettings,
}

/// The configured roles, in [`Role::ALL`] order. Refuses (exit 2) a configuration with no
/// agent, an unknown role, a role without exactly one transport, or an adjudicator that shares
/// an identity with the curator or the reviewer.
pub fn configured_roles(repo: &Repo) -> Result<Vec<RoleAgent>, UserError> {
    let configure = "configure `intelligence.registry` (agentId and `cli: {command, args}`) in doc-bridge.config.json, or decide proposals from a file with `doc-bridge enrich --from-file FILE`";
    let invalid = |(key, message): (String, String)| {
        UserError::error(format!("invalid configuration: {key}: {message}"))
    };
    let registry = registry(&repo.config)
        .map_err(invalid)?
        .ok_or_else(|| UserError::error(format!("no agent is configured: {configure}")))?;
    if !registry.enabled {
        return Err(UserError::error(
            "intelligence.registry.enabled is false: enrichment is switched off",
        ));
    }
    let chosen = chosen_roles(&registry).map_err(invalid)?;
    let max_pack_bytes = registry.max_pack_bytes.unwrap_or(DEFAULT_MAX_PACK_BYTES);
    chosen
        .into_iter()
        .map(|(role, _, config)| {
            let settings = StageSettings {
                task: role.task().to_owned(),
                role: role.as_str().to_owned(),
                prompt_version: config.prompt_version.clone(),
                max_pack_bytes,
                capture_failed_bytes: registry
                    .capture_failed_answers
                    .map(|c| c.max_bytes.min(64 * 1024)),
                batch_size: registry
                    .batch_size
                    .unwrap_or(DEFAULT_BATCH_SIZE)
                    .clamp(1, 64),
            };
            let agent = build_agent(repo, config, role, configure)?;
            Ok(RoleAgent {
                role,
                agent,
                settings,
            })
        })
        .collect()
}

fn build_agent(
    repo: &Repo,
    config: AgentConfig,
    role: Role,
    configure: &str,
) -> Result<Box<dyn Agent>, UserError> {
    let identity = AgentIdentity {
        agent_id: config.agent_id,
        agent_version: config.agent_version,
    };
    match (config.cli, config.http) {
        (Some(cli), None) => Ok(Box::new(CliAgent {
            identity,
            command: cli.command,
            args: cli.args,
            cwd: repo.root.clone(),
            timeout: Duration::from_millis(cli.timeout_ms.unwrap_or(60_000)),
            max_input_bytes: 1 << 20,
            max_output_bytes: cli.max_output_bytes.unwrap_or(1 << 20),
            meter: Default::default(),
        })),
        (None, Some(http)) => Ok(Box::new(HttpAgent {
            identity,
            base_url: http.base_url,
            model: http.model,
            api_key: http.api_key_env.and_then(|name| std::env::var(name).ok()),
            timeout: Duration::from_millis(http.timeout_ms.unwrap_or(120_000)),
            attempts: http.attempts.unwrap_or(1),
            backoff: Duration::from_millis(http.backoff_ms.unwrap_or(DEFAULT_BACKOFF_MS)),
            max_output_bytes: 1 << 20,
            permits: doc_bridge_agents::Permits::new(http.concurrency.unwrap_or(1)),
            meter: Default::default(),
        })),
        (Some(_), Some(_)) => Err(UserError::error(format!(
            "invalid configuration: intelligence.registry ({}): set one of `cli` and `http`, not both",
            role.as_str()
        ))),
        (None, None) => Err(UserError::error(format!(
            "no agent command or endpoint for the {}: {configure}",
            role.as_str()
        ))),
    }
}

/// What the curator and reviewer gathered, and who the adjudicator is (if configured).
pub struct StageRun {
    /// `role=agentId` for every configured role, in order.
    pub roles: Vec<(Role, String)>,
    /// The curator's and reviewer's packs and proposals, summed.
    pub outcome: StageOutcome,
    /// The adjudicator, run later over the disputes the validators find.
    pub adjudicator: Option<RoleAgent>,
}

/// Runs every configured role except the adjudicator (from [`configured_roles`]).
pub fn run(
    repo: &Repo,
    snapshot: &Snapshot,
    roles: Vec<RoleAgent>,
    progress: &crate::progress::Progress,
) -> StageRun {
    let mut cache = file_cache(repo);
    let read = reader(repo);
    let judgments = load_judgments(repo);
    let names = roles
        .iter()
        .map(|r| (r.role, r.agent.identity().agent_id))
        .collect();
    let mut outcome = StageOutcome::default();
    let mut adjudicator = None;
    for role in roles {
        if role.role == Role::Adjudicator {
            adjudicator = Some(role);
            continue;
        }
        let targets = snapshot
            .entities
            .iter()
            .filter(|e| role.role.targets(e))
            .count();
        let bar = progress.packs(targets as u64, role.role.as_str());
        let tick = || bar.inc(1);
        let ran = run_stage(
            snapshot,
            role.agent.as_ref(),
            &role.settings,
            &mut cache,
            &read,
            &judgments,
            &tick,
        );
        bar.finish_and_clear();
        outcome.proposals.extend(ran.proposals);
        outcome.packs += ran.packs;
        outcome.calls += ran.calls;
        outcome.cache_hits += ran.cache_hits;
        outcome.off_pack += ran.off_pack;
        outcome.failures.extend(ran.failures);
        outcome.examples += ran.examples;
        outcome.examples_dropped += ran.examples_dropped;
        outcome.input_bytes += ran.input_bytes;
        outcome.output_bytes += ran.output_bytes;
        outcome.captured.extend(ran.captured);
        outcome.out_of_role.extend(ran.out_of_role);
    }
    write_captured(repo, &outcome.captured);
    StageRun {
        roles: names,
        outcome,
        adjudicator,
    }
}

/// Asks the adjudicator about `disputes` (answers cached per dispute).
pub fn adjudicate(
    repo: &Repo,
    snapshot: &Snapshot,
    adjudicator: &RoleAgent,
    disputes: &[Dispute],
) -> StageOutcome {
    let mut cache = file_cache(repo);
    let read = reader(repo);
    run_adjudication(
        snapshot,
        adjudicator.agent.as_ref(),
        &adjudicator.settings,
        &mut cache,
        &read,
        disputes,
        &|| {},
    )
}

/// Writes each captured failed answer to `.doc-bridge/enrich/failed/<cache key>.txt`. Best
/// effort: a capture that cannot be written is lost, never an error of the run.
fn write_captured(repo: &Repo, captured: &[(doc_bridge_model::EntityId, ContentHash, String)]) {
    let dir = repo.artifact("enrich/failed");
    for (_, key, text) in captured {
        let _ = doc_bridge_store::artifact::write_atomic(
            &dir.join(format!("{key}.txt")),
            text.as_bytes(),
        );
    }
}

fn file_cache(repo: &Repo) -> FileCache {
    FileCache {
        dir: repo.artifact("enrich/cache"),
    }
}

/// Reads a repository file for a pack's excerpts: beneath the root, no link followed, a regular
/// file of at most `safety.maxFileBytes`.
fn reader(repo: &Repo) -> impl Fn(&RelPath) -> Option<Vec<u8>> + use<> {
    let root = std::sync::Arc::clone(&repo.root_dir);
    let max = repo.config.safety.max_file_bytes();
    move |path: &RelPath| root.read_file(path.as_str(), max).ok().flatten()
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
