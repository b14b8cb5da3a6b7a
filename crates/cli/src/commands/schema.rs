//! `doc-bridge schema <name>`.

use crate::args::{SchemaArgs, SchemaName};
use crate::exit::{CommandResult, Exit, UserError};

/// Prints the JSON Schema of an artifact.
pub fn run(args: &SchemaArgs) -> CommandResult {
    let name = match args.name {
        SchemaName::Index => "index",
        SchemaName::Snapshot => "snapshot",
        SchemaName::Config => "config",
        SchemaName::Proposal => "proposal",
        SchemaName::Overlay => "overlay",
        SchemaName::Report => "report",
    };
    let schema = doc_bridge_model::schema::schema_for(name)
        .ok_or_else(|| UserError::error(format!("no schema named `{name}`")))?;
    crate::outln!("{schema:#}");
    Ok(Exit::Ok)
}
