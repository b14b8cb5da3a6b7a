//! Discovery: walks a repository, reads each admitted file once, runs its analyzer, resolves
//! relations and builds the snapshot.
//!
//! Architecture invariant: discovery never reads outside the root (symbolic links are never
//! followed) and never calls an agent; the snapshot is a pure function of the files' bytes and
//! the configuration.

pub mod analysis_cache;
pub mod areas;
pub mod attributes;
pub mod build;
mod code_paths;
pub mod documents;
pub mod imports;
pub mod links;
pub mod manifest;
pub mod observe;
pub mod packages;
pub mod read;
pub mod sites;
pub mod stamps;
pub mod stat;
pub mod walk;

pub use build::{
    BuildOptions, Disk, analyzer_versions, build_snapshot, build_snapshot_unsealed_from,
    seal_snapshot,
};
pub use walk::{RootIgnore, WalkOptions, walk};
