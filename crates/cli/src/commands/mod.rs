//! One module per command.

pub mod approve;
pub mod bench;
pub mod check;
pub mod doctor;
pub mod enrich;
pub mod get;
pub mod index;
pub mod init;
pub mod list;
pub mod mcp;
pub mod query;
pub mod query_forms;
pub mod render;
pub mod schema;
pub mod search;
pub mod show;
pub mod validate_config;
pub mod watch;
