//! What the server keeps in memory between calls: the verified index, its snapshot and the search
//! collection, reloaded only when `.doc-bridge/index.json` changes on disk (size, modification
//! time or inode), and a freshness verdict re-checked at most once per second.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use doc_bridge_model::index::DocBridgeIndexV1;
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_retrieve::cache::{FileStamp, SearchCache};
use doc_bridge_retrieve::collection::Collection;

use crate::exit::UserError;
use crate::pipeline::{
    INDEX_FILE, SEARCH_CACHE_FILE, file_stamp, freshness_of, stale_error,
    verified_index_with_snapshot,
};
use crate::repo::Repo;

/// How long a freshness verdict is trusted: the check walks and stamps the repository, so it is
/// not repeated for every call of a burst.
pub const FRESHNESS_TTL: Duration = Duration::from_secs(1);

/// A loaded index with what the tools read.
pub struct Loaded {
    /// The repository, re-opened with the index (its configuration may have changed too).
    pub repo: Repo,
    /// The verified index.
    pub index: DocBridgeIndexV1,
    /// The snapshot it was built from.
    pub snapshot: Snapshot,
    /// What ranking needs.
    pub collection: Collection,
    /// Set when the index is stale and the server was started with `--allow-stale`: a short
    /// summary of what changed.
    pub stale: Option<String>,
}

/// The server's state.
pub struct State {
    root: PathBuf,
    allow_stale: bool,
    loaded: Option<(FileStamp, Loaded)>,
    checked: Option<(Instant, Option<doc_bridge_retrieve::Freshness>)>,
}

impl State {
    /// A state for the repository at `root`; nothing is loaded until the first call.
    pub fn new(root: PathBuf, allow_stale: bool) -> Self {
        State {
            root,
            allow_stale,
            loaded: None,
            checked: None,
        }
    }

    /// The repository as configured now (for calls that do not need the index).
    pub fn repo(&self) -> Result<Repo, UserError> {
        match &self.loaded {
            Some((_, loaded)) => Ok(loaded.repo.clone()),
            None => Repo::open(Some(&self.root)),
        }
    }

    /// Forgets the loaded index, so the next call reads it again (after a write by this server).
    pub fn invalidate(&mut self) {
        self.loaded = None;
        self.checked = None;
    }

    /// The loaded index, reloaded first when its file changed, and checked for freshness (at most
    /// once per [`FRESHNESS_TTL`]). A missing, corrupt or (without `--allow-stale`) stale index is
    /// an error with the message the CLI gives.
    pub fn ready(&mut self) -> Result<&Loaded, UserError> {
        let repo_root = self.root.clone();
        let stamp = file_stamp(&repo_root.join(crate::repo::ARTIFACT_DIR).join(INDEX_FILE));
        let current = match (&self.loaded, &stamp) {
            (Some((loaded_stamp, _)), Some(stamp)) => loaded_stamp == stamp,
            _ => false,
        };
        if !current {
            self.loaded = None;
            self.checked = None;
            let repo = Repo::open(Some(&repo_root))?;
            let loaded = load(repo, stamp.as_ref())?;
            // The stamp taken before reading: a write during the read makes the next call reload.
            let Some(stamp) = stamp else {
                return Err(UserError::error(
                    "no index at .doc-bridge/index.json; run `doc-bridge index`",
                ));
            };
            self.loaded = Some((stamp, loaded));
        }
        let expired = self
            .checked
            .as_ref()
            .is_none_or(|(at, _)| at.elapsed() >= FRESHNESS_TTL);
        let Some((_, loaded)) = self.loaded.as_mut() else {
            return Err(UserError::error(
                "no index at .doc-bridge/index.json; run `doc-bridge index`",
            ));
        };
        if expired {
            let freshness = freshness_of(&loaded.repo, &loaded.index)?;
            let verdict = (!freshness.is_fresh()).then_some(freshness);
            self.checked = Some((Instant::now(), verdict));
        }
        let stale = self.checked.as_ref().and_then(|(_, v)| v.as_ref());
        match stale {
            None => loaded.stale = None,
            Some(freshness) if self.allow_stale => loaded.stale = Some(freshness.summary(5)),
            Some(freshness) => return Err(stale_error(freshness)),
        }
        Ok(loaded)
    }
}

/// Reads and verifies the index and its snapshot, and takes the collection from the search cache
/// when the cache was built for this very index file (else builds it).
fn load(repo: Repo, stamp: Option<&FileStamp>) -> Result<Loaded, UserError> {
    let (index, snapshot) = verified_index_with_snapshot(&repo)?;
    let cached = stamp.and_then(|stamp| {
        let bytes = std::fs::read(repo.artifact(SEARCH_CACHE_FILE)).ok()?;
        let cache = SearchCache::from_bytes(bytes, stamp)?;
        (cache.index_hash == index.content_hash).then_some(cache.collection)
    });
    let collection = cached.unwrap_or_else(|| Collection::build(&index.projection));
    Ok(Loaded {
        repo,
        index,
        snapshot,
        collection,
        stale: None,
    })
}
