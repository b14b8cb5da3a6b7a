//! The index pipeline: walk → observe → snapshot → index, the freshness fingerprint, loading for
//! queries, the derived caches and the overlay, one module each. Artifacts are written
//! atomically and only when their bytes change.

mod build;
mod caches;
mod freshness;
mod load;
mod overlay;
mod query_image;

pub use build::*;
pub use caches::*;
pub use freshness::*;
pub use load::*;
pub use overlay::*;
pub use query_image::*;

pub use doc_bridge_discover::seal_snapshot;

/// The snapshot file name.
pub const SNAPSHOT_FILE: &str = "snapshot.json";
/// The index file name.
pub const INDEX_FILE: &str = "index.json";
