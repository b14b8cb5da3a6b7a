//! `doc-bridge init`: a starting config. Never overwrites one.

use serde_json::json;

use doc_bridge_model::artifact::write_json;
use doc_bridge_model::config::{CONFIG_FILE, DEFAULT_AGENT_ROOT, DEFAULT_MAX_FILE_BYTES};

use crate::args::InitArgs;
use crate::exit::{CommandResult, Exit, UserError};
use crate::repo::Repo;

/// Writes `doc-bridge.config.json` with the defaults spelled out; exit 1 when one exists.
pub fn run(args: &InitArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let path = repo.root.join(CONFIG_FILE);
    if path.symlink_metadata().is_ok() {
        let message = format!("{CONFIG_FILE} already exists; left unchanged");
        if args.json {
            crate::outln!(
                "{:#}",
                json!({"written": false, "path": CONFIG_FILE, "message": message})
            );
            return Ok(Exit::Findings);
        }
        return Err(UserError::findings(message));
    }
    let config = json!({
        "schemaVersion": 1,
        "project": {"name": repo.default_project_name()},
        "corpus": {"agent": {"root": DEFAULT_AGENT_ROOT}},
        "safety": {"exclude": [], "maxFileBytes": DEFAULT_MAX_FILE_BYTES},
        "analysis": {"areas": {"depth": 1}},
        "retrieval": {"language": "en"},
    });
    write_json(&path, &config)
        .map_err(|e| UserError::error(format!("cannot write {CONFIG_FILE}: {e}")))?;
    if args.json {
        crate::outln!("{:#}", json!({"written": true, "path": CONFIG_FILE}));
    } else {
        crate::outln!("wrote {CONFIG_FILE}");
    }
    Ok(Exit::Ok)
}
