//! `doc-bridge index --watch`: keeps the index current as files change.

use crate::args::IndexArgs;
use crate::exit::{CommandResult, UserError};

/// Runs the watch loop.
pub fn run(_args: &IndexArgs) -> CommandResult {
    Err(UserError::error("`index --watch` is not built yet"))
}
