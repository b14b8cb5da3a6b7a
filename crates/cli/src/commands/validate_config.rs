//! `doc-bridge validate-config`: the configuration file read the way every command reads it,
//! with every error listed by key instead of the first only.
//!
//! Exit 0 when the file is valid or absent (the defaults apply), 1 when it is invalid, 2 when it
//! cannot be read (or the root cannot be opened). Besides the keys every command checks, the
//! agents of `intelligence.registry` are checked as `enrich` checks them (an error there stops
//! `enrich` only); no agent is built or called.

use serde_json::json;

use doc_bridge_model::config::{Config, ConfigError};

use crate::agent_config::agent_problems;
use crate::args::ValidateConfigArgs;
use crate::exit::{CommandResult, Exit};
use crate::repo::{ConfigState, Repo};

/// Runs the command.
pub fn run(args: &ValidateConfigArgs) -> CommandResult {
    let (repo, state) = Repo::open_checked(args.common.root.as_deref())?;
    let file = repo.config_file.to_string();
    let (status, errors) = match &state {
        ConfigState::Defaults => ("defaults", Vec::new()),
        ConfigState::Valid => ("valid", agent_errors(&repo.config, &file)),
        ConfigState::Invalid { errors, read } => {
            let mut errors = errors.clone();
            if let Some(read) = read {
                errors.extend(agent_errors(read, &file));
                errors.sort_by(|a, b| a.key.cmp(&b.key).then(a.message.cmp(&b.message)));
            }
            ("invalid", errors)
        }
    };
    let status = if errors.is_empty() { status } else { "invalid" };
    if args.json {
        let errors: Vec<serde_json::Value> = errors
            .iter()
            .map(|e| json!({"key": e.key, "message": e.message}))
            .collect();
        crate::outln!(
            "{:#}",
            json!({
                "file": file,
                "path": repo.root.join(&file),
                "status": status,
                "errors": errors,
            })
        );
    } else {
        match status {
            "defaults" => crate::outln!(
                "no {file} at {}: the defaults apply (`doc-bridge init` writes a starting file)",
                repo.root.display()
            ),
            "valid" => crate::outln!("{file} is valid"),
            _ => {
                let count = match errors.len() {
                    1 => "1 error".to_owned(),
                    n => format!("{n} errors"),
                };
                crate::outln!("{file} is invalid: {count}");
                for error in &errors {
                    crate::outln!("  {}: {}", error.key, error.message);
                }
                let who = if errors.iter().all(|e| e.key.starts_with("intelligence.")) {
                    "`enrich` refuses to run until then (other commands do not read its agents)"
                } else {
                    "every command but `doctor` and `validate-config` refuses to run until then"
                };
                crate::outln!("fix each key (`doc-bridge schema config` prints the format); {who}");
            }
        }
    }
    Ok(if errors.is_empty() {
        Exit::Ok
    } else {
        Exit::Findings
    })
}

/// What `enrich` would refuse in `intelligence.registry`, as errors of `file`: every value out
/// of its range, and the first error of the roles and transports.
pub(crate) fn agent_errors(config: &Config, file: &str) -> Vec<ConfigError> {
    ConfigError::all_of(file, agent_problems(config))
}
