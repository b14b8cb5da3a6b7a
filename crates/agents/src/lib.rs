//! Implementations of [`doc_bridge_enrich::agent::Agent`].
//!
//! Architecture invariant: agents are untrusted. An adapter checks transport and budget (time,
//! bytes, JSON shape) and returns raw proposals; the validators decide them. Nothing on the
//! index, check, search, query, render or MCP path depends on this crate (tested over
//! `cargo metadata`).

mod cli;
pub mod http;
mod permits;

pub use cli::CliAgent;
pub use http::HttpAgent;
pub use permits::{Permit, Permits};
