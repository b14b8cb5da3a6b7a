//! `doc-bridge render`: one self-contained HTML report with the review page.

use crate::args::RenderArgs;
use crate::exit::{CommandResult, UserError};

/// Runs the command.
pub fn run(_args: &RenderArgs) -> CommandResult {
    Err(UserError::error("`render` is not built yet"))
}
