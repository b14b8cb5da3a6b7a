//! `doc-bridge index --watch`: keeps the index current as files change (see `crate::watch`).

use crate::args::IndexArgs;
use crate::exit::CommandResult;

/// Runs the watch loop until Ctrl-C, SIGTERM, or the root is removed.
pub fn run(args: &IndexArgs) -> CommandResult {
    crate::watch::run(args)
}
