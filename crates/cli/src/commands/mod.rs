//! One module per command.

pub mod index;
pub mod init;
pub mod schema;
