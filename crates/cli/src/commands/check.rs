//! `doc-bridge check`: rules over the snapshot and the index, the report, SARIF.

use crate::args::CheckArgs;
use crate::exit::{CommandResult, UserError};

/// Runs the command.
pub fn run(_args: &CheckArgs) -> CommandResult {
    Err(UserError::error("`check` is not built yet"))
}
