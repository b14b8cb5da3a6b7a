//! doc-bridge's artifact model: the types of every artifact and their JSON, canonical JSON and
//! content hashing (the hash definitions), and JSON Schema export. Writing and reading the
//! artifacts is `doc-bridge-store`'s.
//!
//! Architecture invariant: this crate knows nothing about how artifacts are produced. It depends
//! on serde and hashing crates only; every other doc-bridge crate depends on it.

pub mod approval;
pub mod config;
mod diagnostic;
pub use diagnostic::{
    MAX_DIAGNOSTICS_PER_CODE, MAX_DIAGNOSTICS_PER_FILE_AND_CODE, cap_diagnostics, is_cap_summary,
};
pub mod enrichment;
pub mod file_role;
pub mod hash;
pub mod ids;
pub mod index;
pub mod projection;
pub mod report;
pub mod retrieval;
pub mod schema;
pub mod site_generator;
pub mod snapshot;
pub mod sorted_json;
pub mod timing;

pub use hash::{ContentHash, SEMANTIC_HASH_ALGO};
pub use ids::{EntityId, RelPath};
pub use retrieval::{FIELD_NAMES, Field};
