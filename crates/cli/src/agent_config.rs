//! `intelligence.registry` read as configuration: the agents and the roles they play, checked
//! the way `enrich` checks them. Nothing here builds or calls an agent (this module does not
//! name the agent crate), so `doctor` and `validate-config` can report on agents safely;
//! `agent_stage` builds them from what is read here.

use doc_bridge_enrich::stage::Role;
use serde::Deserialize;

/// Packs of one area per agent call unless `batchSize` says otherwise: enough to share context
/// between neighbouring documents, small enough that one failed call loses little.
pub const DEFAULT_BATCH_SIZE: usize = 8;

/// `intelligence.registry`, as far as doc-bridge reads it: the default agent (its fields sit at
/// the top level, as they did before roles existed) and `roles`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Registry {
    #[serde(default = "yes")]
    pub(crate) enabled: bool,
    #[serde(flatten)]
    pub(crate) agent: AgentConfig,
    #[serde(default)]
    pub(crate) max_pack_bytes: Option<usize>,
    /// Most packs of one area per agent call; default [`DEFAULT_BATCH_SIZE`].
    #[serde(default)]
    pub(crate) batch_size: Option<usize>,
    /// `{"curator"|"reviewer"|"adjudicator": true | false | {agent}}`; default: curator only.
    #[serde(default)]
    pub(crate) roles: std::collections::BTreeMap<String, RoleSetting>,
    /// Keep failed raw answers, redacted and capped, under `.doc-bridge/enrich/failed/`. Off
    /// unless configured.
    #[serde(default)]
    pub(crate) capture_failed_answers: Option<CaptureConfig>,
}

/// `captureFailedAnswers`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct CaptureConfig {
    /// Bytes kept per failed answer (at most 64 KiB); default 4 KiB.
    #[serde(default = "capture_bytes")]
    pub(crate) max_bytes: usize,
}

fn capture_bytes() -> usize {
    4096
}

/// One role's agent: `true` (the registry's agent), `false` (off), or an agent of its own.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum RoleSetting {
    Enabled(bool),
    Agent(Box<AgentConfig>),
}

/// An agent: its identity, prompt version and one transport.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AgentConfig {
    pub(crate) agent_id: String,
    #[serde(default = "one")]
    pub(crate) agent_version: String,
    #[serde(default = "one")]
    pub(crate) prompt_version: String,
    pub(crate) cli: Option<CliConfig>,
    pub(crate) http: Option<HttpConfig>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct HttpConfig {
    pub(crate) base_url: String,
    pub(crate) model: String,
    /// The environment variable holding the API key (the key never sits in the config).
    #[serde(default)]
    pub(crate) api_key_env: Option<String>,
    #[serde(default)]
    pub(crate) timeout_ms: Option<u64>,
    #[serde(default)]
    pub(crate) attempts: Option<u32>,
    /// Calls in flight at once (a FIFO semaphore); default 1.
    #[serde(default)]
    pub(crate) concurrency: Option<usize>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct CliConfig {
    pub(crate) command: String,
    #[serde(default)]
    pub(crate) args: Vec<String>,
    #[serde(default)]
    pub(crate) timeout_ms: Option<u64>,
    #[serde(default)]
    pub(crate) max_output_bytes: Option<usize>,
}

fn yes() -> bool {
    true
}

fn one() -> String {
    "1".to_owned()
}

/// A configuration error of the registry: the key and what is wrong.
pub type RegistryError = (String, String);

/// `intelligence.registry`, read; `None` when it is absent.
pub(crate) fn registry(
    config: &doc_bridge_model::config::Config,
) -> Result<Option<Registry>, RegistryError> {
    let Some(registry) = config.intelligence.as_ref().and_then(|i| i.get("registry")) else {
        return Ok(None);
    };
    serde_json::from_value(registry.clone())
        .map(Some)
        .map_err(|e| ("intelligence.registry".to_owned(), e.to_string()))
}

/// The roles the registry configures, in [`Role::ALL`] order, each with the key its agent is
/// configured under and that agent. Refuses an unknown role and an adjudicator that shares an
/// identity with the curator or the reviewer.
pub(crate) fn chosen_roles(
    registry: &Registry,
) -> Result<Vec<(Role, String, AgentConfig)>, RegistryError> {
    let roles_key = || "intelligence.registry.roles".to_owned();
    if let Some(unknown) = registry.roles.keys().find(|k| Role::parse(k).is_none()) {
        return Err((
            roles_key(),
            format!("unknown role `{unknown}` (curator, reviewer, adjudicator)"),
        ));
    }
    let mut chosen: Vec<(Role, String, AgentConfig)> = Vec::new();
    for role in Role::ALL {
        let own_key = format!("intelligence.registry.roles.{}", role.as_str());
        let default = || ("intelligence.registry".to_owned(), registry.agent.clone());
        let config = match registry.roles.get(role.as_str()) {
            None if role == Role::Curator => Some(default()),
            None | Some(RoleSetting::Enabled(false)) => None,
            Some(RoleSetting::Enabled(true)) => Some(default()),
            Some(RoleSetting::Agent(agent)) => Some((own_key, agent.as_ref().clone())),
        };
        if let Some((key, config)) = config {
            chosen.push((role, key, config));
        }
    }
    if let Some((_, _, judge)) = chosen.iter().find(|(r, _, _)| *r == Role::Adjudicator)
        && let Some((other, _, _)) = chosen
            .iter()
            .find(|(r, _, c)| *r != Role::Adjudicator && c.agent_id == judge.agent_id)
    {
        return Err((
            roles_key(),
            format!(
                "the adjudicator must be a different identity from the {}; both are `{}`",
                other.as_str(),
                judge.agent_id
            ),
        ));
    }
    Ok(chosen)
}

/// One configured role, as `doctor` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleSummary {
    /// The role.
    pub role: Role,
    /// Its agent's identity.
    pub agent_id: String,
    /// `cli` or `http`.
    pub transport: &'static str,
}

/// What the configuration says about agents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentSetup {
    /// No `intelligence.registry`: no agent (`enrich --from-file` still works).
    None,
    /// `intelligence.registry.enabled` is false.
    Disabled,
    /// The configured roles, in [`Role::ALL`] order.
    Roles(Vec<RoleSummary>),
}

/// The agents the configuration sets up, read the way `enrich` reads them but never built or
/// called (for `doctor` and `validate-config`); an error names the key and what is wrong.
pub fn agent_setup(config: &doc_bridge_model::config::Config) -> Result<AgentSetup, RegistryError> {
    let Some(registry) = registry(config)? else {
        return Ok(AgentSetup::None);
    };
    if !registry.enabled {
        return Ok(AgentSetup::Disabled);
    }
    chosen_roles(&registry)?
        .into_iter()
        .map(|(role, key, agent)| {
            let transport = match (&agent.cli, &agent.http) {
                (Some(_), None) => "cli",
                (None, Some(_)) => "http",
                (Some(_), Some(_)) => {
                    return Err((key, "set one of `cli` and `http`, not both".to_owned()));
                }
                (None, None) => {
                    return Err((
                        key,
                        format!(
                            "no agent command (`cli`) or endpoint (`http`) for the {}",
                            role.as_str()
                        ),
                    ));
                }
            };
            Ok(RoleSummary {
                role,
                agent_id: agent.agent_id,
                transport,
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(AgentSetup::Roles)
}
