//! One module per command.

pub mod approve;
pub mod bench;
pub mod check;
pub mod enrich;
pub mod index;
pub mod init;
pub mod mcp;
pub mod query;
pub mod render;
pub mod schema;
pub mod search;
pub mod watch;
