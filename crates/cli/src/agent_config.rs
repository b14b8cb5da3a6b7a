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
    /// Wait before the n-th retry: `backoffMs × n` milliseconds; default [`DEFAULT_BACKOFF_MS`].
    #[serde(default)]
    pub(crate) backoff_ms: Option<u64>,
    /// Calls in flight at once (a FIFO semaphore); default 1.
    #[serde(default)]
    pub(crate) concurrency: Option<usize>,
}

/// Default `http.backoffMs`.
pub const DEFAULT_BACKOFF_MS: u64 = 500;

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

/// The ranges of the numeric agent settings (docs/enrichment.md, "Numeric settings"), checked
/// when the configuration is read: (key below the agent or the registry, least, most).
pub const AGENT_RANGES: &[(&str, u64, u64)] = &[
    ("cli.maxOutputBytes", 1, 64 << 20),
    ("cli.timeoutMs", 1, 3_600_000),
    ("http.attempts", 1, 10),
    ("http.backoffMs", 0, 60_000),
    ("http.concurrency", 1, 64),
    ("http.timeoutMs", 1, 3_600_000),
];
/// The ranges of the registry's own numeric settings, as [`AGENT_RANGES`].
pub const REGISTRY_RANGES: &[(&str, u64, u64)] = &[
    ("batchSize", 1, 64),
    ("captureFailedAnswers.maxBytes", 1, 64 * 1024),
    ("maxPackBytes", 1024, 1 << 20),
];

/// `intelligence.registry`, read; `None` when it is absent. A value out of its range is an
/// error (the first, by key; [`agent_problems`] lists them all).
pub(crate) fn registry(
    config: &doc_bridge_model::config::Config,
) -> Result<Option<Registry>, RegistryError> {
    let Some(registry) = parse_registry(config)? else {
        return Ok(None);
    };
    match range_problems(&registry).into_iter().next() {
        Some(problem) => Err(problem),
        None => Ok(Some(registry)),
    }
}

fn parse_registry(
    config: &doc_bridge_model::config::Config,
) -> Result<Option<Registry>, RegistryError> {
    let Some(registry) = config.intelligence.as_ref().and_then(|i| i.get("registry")) else {
        return Ok(None);
    };
    serde_json::from_value(registry.clone())
        .map(Some)
        .map_err(|e| ("intelligence.registry".to_owned(), e.to_string()))
}

/// Every numeric setting of the registry and its agents outside its range ([`REGISTRY_RANGES`],
/// [`AGENT_RANGES`]), sorted by key: `intelligence.registry.http.attempts` / `must be 1..=10,
/// got 0`.
fn range_problems(registry: &Registry) -> Vec<RegistryError> {
    let mut problems = Vec::new();
    let mut check = |key: String, value: Option<u64>, (least, most): (u64, u64)| {
        if let Some(value) = value
            && !(least..=most).contains(&value)
        {
            problems.push((key, format!("must be {least}..={most}, got {value}")));
        }
    };
    let wide = |v: Option<usize>| v.map(|v| u64::try_from(v).unwrap_or(u64::MAX));
    let range = |table: &[(&str, u64, u64)], name: &str| {
        table
            .iter()
            .find(|(key, ..)| *key == name)
            .map_or((0, u64::MAX), |&(_, least, most)| (least, most))
    };
    let top = "intelligence.registry";
    for (name, value) in [
        ("batchSize", wide(registry.batch_size)),
        (
            "captureFailedAnswers.maxBytes",
            wide(registry.capture_failed_answers.map(|c| c.max_bytes)),
        ),
        ("maxPackBytes", wide(registry.max_pack_bytes)),
    ] {
        check(format!("{top}.{name}"), value, range(REGISTRY_RANGES, name));
    }
    let agents =
        std::iter::once((top.to_owned(), &registry.agent)).chain(registry.roles.iter().filter_map(
            |(role, setting)| match setting {
                RoleSetting::Agent(agent) => Some((format!("{top}.roles.{role}"), agent.as_ref())),
                RoleSetting::Enabled(_) => None,
            },
        ));
    for (prefix, agent) in agents {
        let cli = agent.cli.as_ref();
        let http = agent.http.as_ref();
        for (name, value) in [
            (
                "cli.maxOutputBytes",
                wide(cli.and_then(|c| c.max_output_bytes)),
            ),
            ("cli.timeoutMs", cli.and_then(|c| c.timeout_ms)),
            (
                "http.attempts",
                http.and_then(|h| h.attempts).map(u64::from),
            ),
            ("http.backoffMs", http.and_then(|h| h.backoff_ms)),
            ("http.concurrency", wide(http.and_then(|h| h.concurrency))),
            ("http.timeoutMs", http.and_then(|h| h.timeout_ms)),
        ] {
            check(format!("{prefix}.{name}"), value, range(AGENT_RANGES, name));
        }
    }
    problems.sort();
    problems
}

/// Every error `enrich` would find in `intelligence.registry`, for `validate-config`: a file it
/// cannot read as a registry (one error), else every value out of range and the first error of
/// the roles and transports ([`agent_setup`]'s), sorted by key.
pub fn agent_problems(config: &doc_bridge_model::config::Config) -> Vec<RegistryError> {
    let registry = match parse_registry(config) {
        Err(error) => return vec![error],
        Ok(None) => return Vec::new(),
        Ok(Some(registry)) => registry,
    };
    let mut problems = range_problems(&registry);
    if let Err(error) = setup_of(registry) {
        problems.push(error);
    }
    problems.sort();
    problems
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
    match registry(config)? {
        None => Ok(AgentSetup::None),
        Some(registry) => setup_of(registry),
    }
}

fn setup_of(registry: Registry) -> Result<AgentSetup, RegistryError> {
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
