//! Retrieval: builds the index artifact from the snapshot (knowledge, handoffs, lookup, inputs,
//! retrieval settings, the projection), ranks it (lexicon, BM25F, named score parts) and answers
//! freshness.
//!
//! Architecture invariant: retrieval is a pure function of the snapshot, the configuration and
//! (later) the accepted overlay; it never touches an agent.

pub mod cache;
pub mod collection;
pub use doc_bridge_model::file_role;
pub mod freshness;
pub mod graph;
pub mod handoff;
pub mod index_build;
pub mod inputs;
pub mod legacy;
pub mod lexicon;
pub mod llms;
pub mod overlay;
pub mod projection;
pub mod query;
pub mod query_image;
pub mod rank;
pub mod references;
pub mod snippet;
pub mod table;
pub mod token_memo;

pub use freshness::{Freshness, compare};
pub use index_build::{
    IndexOptions, Sealed, build_index, build_index_with_collection,
    build_unsealed_index_with_collection, index_hash, retrieval_settings, seal,
};
pub use inputs::{PROJECTION_VERSION, configuration_hash, fingerprint};
