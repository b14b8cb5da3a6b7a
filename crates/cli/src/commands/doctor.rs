//! `doc-bridge doctor`: one screen on the repository's state — the configuration, the index's
//! freshness, the indexed snapshot's diagnostics, the agents — and what to run next.
//!
//! It writes nothing, not even the caches other reads may refresh (`cache/stamps.bin`,
//! `cache/search.bin`, `cache/query.bin`): freshness is computed here the way `index --check` computes it, with the
//! stamp cache read and never recorded. It never builds or calls an agent (the agents are read
//! as configuration, `agent_config`). Exit 0 when nothing needs doing; 1 when something does
//! (an invalid configuration, an index that is missing, invalid, legacy or stale, an error
//! diagnostic); 2 when the repository cannot be read (usage and I/O errors). Warnings and infos
//! are shown, never findings. See docs/doctor.md.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use doc_bridge_check::{CheckInput, IndexCondition};
use doc_bridge_model::config::{Config, ConfigError};
use doc_bridge_model::report::SeverityCounts;
use doc_bridge_model::snapshot::{Severity, Snapshot};
use doc_bridge_model::{ContentHash, RelPath};
use doc_bridge_retrieve::Freshness;

use crate::agent_config::{AgentSetup, RegistryError, agent_setup};
use crate::args::DoctorArgs;
use crate::exit::{CommandResult, Exit, UserError};
use crate::pipeline::{self, INDEX_FILE, IndexState};
use crate::repo::{ARTIFACT_DIR, ConfigState, Repo};

/// How many changed paths the stale line names.
const CHANGED_NAMED: usize = 5;

/// Runs the command.
pub fn run(args: &DoctorArgs) -> CommandResult {
    let (repo, state) = Repo::open_checked(args.common.root.as_deref())?;
    // What the rest is judged with: the configuration, or what could be read of an invalid one
    // (its valid `rules` and `intelligence`).
    let (config, config_valid) = match &state {
        ConfigState::Defaults | ConfigState::Valid => (Some(&repo.config), true),
        ConfigState::Invalid { read, .. } => (read.as_deref(), false),
    };
    let agents = config.map(agent_setup);
    let (index, snapshot) = index_health(&repo, config_valid)?;
    let default_rules = Config::default().rules;
    let rules = config.map_or(&default_rules, |c| &c.rules);
    let diagnostics = snapshot
        .as_ref()
        .map(|(hash, snapshot)| Diagnostics::of(snapshot, hash, rules));
    let report = Report {
        repo: &repo,
        state: &state,
        index,
        diagnostics,
        agents,
    };
    if args.json {
        crate::outln!("{:#}", report.json());
    } else {
        report.print();
    }
    Ok(if report.next().is_empty() {
        Exit::Ok
    } else {
        Exit::Findings
    })
}

/// The stored index, as doctor found it.
enum IndexHealth {
    /// No `index.json`.
    Missing,
    /// Unreadable, mis-sealed, or beside a snapshot that is not its own: the message says which.
    Invalid(String),
    /// Sealed with the legacy algorithm: to migrate.
    Legacy,
    /// Valid, its freshness not checked: the configuration it would be compared with is invalid.
    Unchecked(ContentHash),
    /// Inputs changed since it was built.
    Stale(ContentHash, Freshness),
    /// Built from exactly the current inputs.
    Fresh(ContentHash),
}

impl IndexHealth {
    fn status(&self) -> &'static str {
        match self {
            IndexHealth::Missing => "missing",
            IndexHealth::Invalid(_) => "invalid",
            IndexHealth::Legacy => "legacy",
            IndexHealth::Unchecked(_) => "unchecked",
            IndexHealth::Stale(..) => "stale",
            IndexHealth::Fresh(_) => "fresh",
        }
    }

    fn hash(&self) -> Option<&ContentHash> {
        match self {
            IndexHealth::Unchecked(hash)
            | IndexHealth::Stale(hash, _)
            | IndexHealth::Fresh(hash) => Some(hash),
            IndexHealth::Missing | IndexHealth::Invalid(_) | IndexHealth::Legacy => None,
        }
    }

    fn message(&self) -> String {
        match self {
            IndexHealth::Missing => format!("no {ARTIFACT_DIR}/{INDEX_FILE}"),
            IndexHealth::Invalid(why) => why.clone(),
            IndexHealth::Legacy => pipeline::legacy_message(),
            IndexHealth::Unchecked(_) => {
                "freshness not checked: the configuration is invalid".to_owned()
            }
            IndexHealth::Stale(_, freshness) => freshness.summary(CHANGED_NAMED),
            IndexHealth::Fresh(hash) => format!("built from the current files ({hash})"),
        }
    }
}

/// The index's health and, when it is valid, the snapshot it was built from (with the index's
/// hash, for the diagnostics).
fn index_health(
    repo: &Repo,
    config_valid: bool,
) -> Result<(IndexHealth, Option<(ContentHash, Snapshot)>), UserError> {
    match pipeline::verified_index_with_snapshot(repo) {
        Ok((index, snapshot)) => {
            let hash = index.content_hash.clone();
            let health = if !config_valid {
                IndexHealth::Unchecked(hash.clone())
            } else {
                let freshness = pipeline::freshness_read_only(repo, &index)?;
                if freshness.is_fresh() {
                    IndexHealth::Fresh(hash.clone())
                } else {
                    IndexHealth::Stale(hash.clone(), freshness)
                }
            };
            Ok((health, Some((hash, snapshot))))
        }
        // Which of the two files is at fault: the index's own state says.
        Err(error) => {
            let health = match pipeline::load_index(repo) {
                IndexState::Missing => IndexHealth::Missing,
                IndexState::Invalid(why) => {
                    IndexHealth::Invalid(format!("{ARTIFACT_DIR}/{INDEX_FILE} is invalid: {why}"))
                }
                IndexState::Legacy(_) => IndexHealth::Legacy,
                IndexState::Valid(_) => IndexHealth::Invalid(error.message),
            };
            Ok((health, None))
        }
    }
}

/// The diagnostics `check` would report over the indexed snapshot, by severity and code.
struct Diagnostics {
    counts: SeverityCounts,
    /// Code → (severity, count).
    codes: BTreeMap<String, (Severity, u64)>,
}

impl Diagnostics {
    /// The snapshot's own diagnostics and the rules' over it (orphans, coverage, cycles), at the
    /// configured severity. The index rules are left out: the index line reports the index.
    fn of(
        snapshot: &Snapshot,
        index_hash: &ContentHash,
        rules: &BTreeMap<String, doc_bridge_model::report::RuleLevel>,
    ) -> Diagnostics {
        let index_path = RelPath::new(&format!("{ARTIFACT_DIR}/{INDEX_FILE}"));
        let condition = IndexCondition::Fresh {
            hash: index_hash.clone(),
        };
        let all = match &index_path {
            Some(index_path) => doc_bridge_check::diagnostics(&CheckInput {
                snapshot,
                index: &condition,
                index_path,
                rules,
            }),
            None => Vec::new(),
        };
        let mut codes: BTreeMap<String, (Severity, u64)> = BTreeMap::new();
        for diagnostic in &all {
            let entry = codes
                .entry(diagnostic.code.clone())
                .or_insert((diagnostic.severity, 0));
            entry.0 = entry.0.max(diagnostic.severity);
            entry.1 += 1;
        }
        Diagnostics {
            counts: SeverityCounts::of(&all),
            codes,
        }
    }
}

/// Everything doctor found.
struct Report<'a> {
    repo: &'a Repo,
    state: &'a ConfigState,
    index: IndexHealth,
    /// `None` without a valid index and snapshot.
    diagnostics: Option<Diagnostics>,
    /// `None` when nothing of the configuration could be read.
    agents: Option<Result<AgentSetup, RegistryError>>,
}

/// A command to run, and why.
struct Next {
    command: &'static str,
    why: String,
}

impl Report<'_> {
    fn config_errors(&self) -> &[ConfigError] {
        match self.state {
            ConfigState::Invalid { errors, .. } => errors,
            ConfigState::Defaults | ConfigState::Valid => &[],
        }
    }

    /// What to run next, in the order to run it; empty when nothing needs doing (exit 0).
    fn next(&self) -> Vec<Next> {
        let mut next = Vec::new();
        let agents_invalid = matches!(self.agents, Some(Err(_)));
        if !self.config_errors().is_empty() || agents_invalid {
            next.push(Next {
                command: "doc-bridge validate-config",
                why: "the configuration is invalid: it lists every wrong key".to_owned(),
            });
        }
        let index_why = match &self.index {
            IndexHealth::Missing => Some("there is no index yet"),
            IndexHealth::Invalid(_) => Some("the index is invalid: a new one replaces it"),
            IndexHealth::Legacy => Some("the index is sealed with the legacy algorithm"),
            IndexHealth::Stale(..) => Some("the index is stale"),
            // Fixing the configuration comes first; `index` follows if it is stale then.
            IndexHealth::Unchecked(_) | IndexHealth::Fresh(_) => None,
        };
        if let Some(why) = index_why {
            next.push(Next {
                command: "doc-bridge index",
                why: why.to_owned(),
            });
        }
        if let Some(diagnostics) = &self.diagnostics
            && diagnostics.counts.error > 0
        {
            next.push(Next {
                command: "doc-bridge check",
                why: format!(
                    "{}: it shows each with its file and line",
                    plural(diagnostics.counts.error, "error diagnostic")
                ),
            });
        }
        next
    }

    fn print(&self) {
        let label = |name: &str| {
            let name = if name.is_empty() {
                String::new()
            } else {
                format!("{name}:")
            };
            format!("{name:<15}")
        };
        crate::outln!("{}{}", label("root"), self.repo.root.display());
        let file = &self.repo.config_file;
        match self.state {
            ConfigState::Defaults => {
                crate::outln!("{}no {file}: the defaults apply", label("configuration"))
            }
            ConfigState::Valid => crate::outln!("{}{file}: valid", label("configuration")),
            ConfigState::Invalid { errors, .. } => {
                crate::outln!(
                    "{}{file}: invalid, {}",
                    label("configuration"),
                    plural(errors.len() as u64, "error")
                );
                for error in errors {
                    crate::outln!("{}  {}: {}", label(""), error.key, error.message);
                }
            }
        }
        crate::outln!(
            "{}{}: {}",
            label("index"),
            self.index.status(),
            self.index.message()
        );
        match &self.diagnostics {
            None => crate::outln!("{}not counted: no valid index", label("diagnostics")),
            Some(diagnostics) => {
                let c = &diagnostics.counts;
                let when = match self.index {
                    IndexHealth::Fresh(_) => "",
                    _ => " (as indexed: the files may have changed since)",
                };
                crate::outln!(
                    "{}{}, {}, {}{when}",
                    label("diagnostics"),
                    plural(c.error, "error"),
                    plural(c.warning, "warning"),
                    plural(c.info, "info")
                );
                for (code, (severity, count)) in &diagnostics.codes {
                    crate::outln!(
                        "{}  {:<8} {code} ({count})",
                        label(""),
                        severity_name(*severity)
                    );
                }
            }
        }
        crate::outln!("{}{}", label("agents"), agents_line(self.agents.as_ref()));
        let next = self.next();
        if next.is_empty() {
            crate::outln!("{}nothing to do: everything is in order", label("next"));
        }
        for (i, step) in next.iter().enumerate() {
            let name = if i == 0 { "next" } else { "" };
            crate::outln!("{}{}  ({})", label(name), step.command, step.why);
        }
    }

    fn json(&self) -> Value {
        let errors: Vec<Value> = self
            .config_errors()
            .iter()
            .map(|e| json!({"key": e.key, "message": e.message}))
            .collect();
        let config_status = match self.state {
            ConfigState::Defaults => "defaults",
            ConfigState::Valid => "valid",
            ConfigState::Invalid { .. } => "invalid",
        };
        let mut index = json!({
            "status": self.index.status(),
            "message": self.index.message(),
            "hash": self.index.hash(),
        });
        if let IndexHealth::Stale(_, freshness) = &self.index {
            index["changes"] = serde_json::to_value(freshness).unwrap_or_default();
        }
        let diagnostics = self.diagnostics.as_ref().map(|d| {
            let codes: serde_json::Map<String, Value> = d
                .codes
                .iter()
                .map(|(code, (severity, count))| {
                    (
                        code.clone(),
                        json!({"severity": severity_name(*severity), "count": count}),
                    )
                })
                .collect();
            json!({
                "error": d.counts.error,
                "warning": d.counts.warning,
                "info": d.counts.info,
                "codes": codes,
            })
        });
        let next: Vec<Value> = self
            .next()
            .iter()
            .map(|n| json!({"command": n.command, "why": n.why}))
            .collect();
        json!({
            "root": self.repo.root,
            "ok": next.is_empty(),
            "configuration": {
                "file": self.repo.config_file,
                "status": config_status,
                "errors": errors,
            },
            "index": index,
            "diagnostics": diagnostics,
            "agents": agents_json(self.agents.as_ref()),
            "next": next,
        })
    }
}

/// The agents, on one line.
fn agents_line(agents: Option<&Result<AgentSetup, RegistryError>>) -> String {
    match agents {
        None => "not read: the configuration could not be read".to_owned(),
        Some(Err((key, message))) => format!("invalid: {key}: {message}"),
        Some(Ok(AgentSetup::None)) => {
            "none configured (`doc-bridge enrich --from-file FILE` still decides proposals)"
                .to_owned()
        }
        Some(Ok(AgentSetup::Disabled)) => {
            "switched off (intelligence.registry.enabled is false)".to_owned()
        }
        Some(Ok(AgentSetup::Roles(roles))) => doc_bridge_enrich::stage::Role::ALL
            .iter()
            .map(|role| match roles.iter().find(|r| r.role == *role) {
                Some(r) => format!("{} {} ({})", role.as_str(), r.agent_id, r.transport),
                None => format!("{} off", role.as_str()),
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The agents as JSON: `{"status", "roles": {role: {"agentId", "transport"} | null}, "error"?}`.
fn agents_json(agents: Option<&Result<AgentSetup, RegistryError>>) -> Value {
    match agents {
        None => json!({"status": "unread", "roles": {}}),
        Some(Err((key, message))) => {
            json!({"status": "invalid", "roles": {}, "error": {"key": key, "message": message}})
        }
        Some(Ok(AgentSetup::None)) => json!({"status": "none", "roles": {}}),
        Some(Ok(AgentSetup::Disabled)) => json!({"status": "disabled", "roles": {}}),
        Some(Ok(AgentSetup::Roles(roles))) => {
            let roles: serde_json::Map<String, Value> = doc_bridge_enrich::stage::Role::ALL
                .iter()
                .map(|role| {
                    let agent = roles
                        .iter()
                        .find(|r| r.role == *role)
                        .map(|r| json!({"agentId": r.agent_id, "transport": r.transport}));
                    (role.as_str().to_owned(), agent.unwrap_or(Value::Null))
                })
                .collect();
            json!({"status": "configured", "roles": roles})
        }
    }
}

/// A severity as artifacts write it.
fn severity_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "info",
    }
}

/// `1 error`, `2 errors`, `0 infos`.
fn plural(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
