//! `doc-bridge init`: a starting config. Never overwrites one. With `--config FILE`, that file
//! is the one written (its directory being the root).

use serde_json::json;

use doc_bridge_model::config::{DEFAULT_AGENT_ROOT, DEFAULT_MAX_FILE_BYTES};
use doc_bridge_store::artifact::write_json;

use crate::args::InitArgs;
use crate::exit::{CommandResult, Exit, UserError};
use crate::repo::Repo;

/// Writes `doc-bridge.config.json` (or the `--config` file) with the defaults spelled out;
/// exit 1 when one exists.
pub fn run(args: &InitArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let file = repo.config_file.as_str();
    let path = repo.root.join(file);
    if path.symlink_metadata().is_ok() {
        let message = format!("{file} already exists; left unchanged");
        if args.json {
            crate::outln!(
                "{:#}",
                json!({"written": false, "path": file, "message": message})
            );
            return Ok(Exit::Findings);
        }
        return Err(UserError::findings(message));
    }
    // No `project.name`: left out, the index takes the root manifest's package name, else the
    // directory's; pinning the directory's name here would hide the package's.
    let config = json!({
        "schemaVersion": 1,
        "corpus": {"agent": {"root": DEFAULT_AGENT_ROOT}},
        "safety": {"exclude": [], "maxFileBytes": DEFAULT_MAX_FILE_BYTES},
        "analysis": {"areas": {"depth": 1}},
        "retrieval": {"language": "en"},
    });
    write_json(&path, &config)
        .map_err(|e| UserError::error(format!("cannot write {file}: {e}")))?;
    if args.json {
        crate::outln!("{:#}", json!({"written": true, "path": file}));
    } else {
        crate::outln!("wrote {file}");
    }
    Ok(Exit::Ok)
}
