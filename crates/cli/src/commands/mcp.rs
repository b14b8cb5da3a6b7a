//! `doc-bridge mcp`: the Model Context Protocol server over stdio.

use crate::args::McpArgs;
use crate::exit::{CommandResult, UserError};

/// Runs the command.
pub fn run(_args: &McpArgs) -> CommandResult {
    Err(UserError::error("`mcp` is not built yet"))
}
