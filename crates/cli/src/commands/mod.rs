//! One module per command.

pub mod approve;
pub mod bench;
pub mod enrich;
pub mod index;
pub mod init;
pub mod query;
pub mod schema;
pub mod search;
