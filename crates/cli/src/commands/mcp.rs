//! `doc-bridge mcp`: the Model Context Protocol server over stdio, and `mcp install`.

use crate::args::{McpAction, McpArgs};
use crate::exit::{CommandResult, Exit};
use crate::repo::Repo;

/// Serves MCP over stdin/stdout until the client disconnects, or prints/writes the client
/// configuration (`install`).
pub fn run(args: &McpArgs) -> CommandResult {
    if let Some(McpAction::Install(install)) = &args.action {
        return crate::mcp::install::run(install);
    }
    // Opening the repository first makes a bad root a plain error before any protocol starts.
    let repo = Repo::open(args.common.root.as_deref())?;
    crate::mcp::serve(
        repo.root,
        crate::mcp::ServeOptions {
            allow_stale: args.allow_stale,
            refresh: !args.no_refresh,
        },
    )?;
    Ok(Exit::Ok)
}
