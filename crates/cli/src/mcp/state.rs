//! What the server keeps in memory between calls: the verified index, its snapshot and the search
//! collection, reloaded only when `.doc-bridge/index.json` changes on disk (size, modification
//! time or inode). Freshness is checked before every call; a stale (or missing) index is brought
//! up to date first, unless the server runs with `--no-refresh`. The refresh goes through a
//! watch session (`crate::watch::Session`, the machinery of `index --watch`): the first one
//! observes every file as `index` does, later ones re-read only the files whose stat moved, and
//! the server answers from what the refresh built instead of reading the artifacts back. Such a
//! refresh leaves its artifacts to write ([`State::settle`]) until the call is answered: the
//! server writes them right after the answer, and every call settles them before it starts,
//! so no call reads, writes or reports an index that is not yet on disk.

use std::path::PathBuf;

use doc_bridge_model::index::DocBridgeIndexV1;
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_retrieve::cache::{FileStamp, SearchCache};
use doc_bridge_retrieve::collection::Collection;

use crate::exit::UserError;
use crate::pipeline::{
    INDEX_FILE, SEARCH_CACHE_FILE, current_inputs_hash, file_stamp, fresh_query_image,
    freshness_of, stale_error, verified_index_with_snapshot,
};
use crate::repo::Repo;
use crate::watch::{Artifacts, Batch, Rebuilt, Refreshed, Session, Unwritten, Writes};
use doc_bridge_model::index::RetrievalSettings;
use doc_bridge_model::snapshot::Diagnostic;
use doc_bridge_model::{ContentHash, EntityId, RelPath};
use doc_bridge_retrieve::Freshness;
use doc_bridge_retrieve::graph::Graph;
use doc_bridge_retrieve::query::{NameLookup, closest_in};
use doc_bridge_retrieve::query_image::QueryImage;
use std::borrow::Cow;
use std::sync::OnceLock;

/// A loaded index with what the tools read.
pub struct Loaded {
    /// The repository, re-opened with the index (its configuration may have changed too).
    pub repo: Repo,
    /// The index and its snapshot, parsed or mapped.
    held: Held,
    /// What ranking needs: built with the index, or read from the search cache the first time
    /// a call ranks ([`Loaded::collection`]).
    collection: OnceLock<Collection>,
    /// Set when the index is stale and the server was started with `--allow-stale`: a short
    /// summary of what changed.
    pub stale: Option<String>,
    /// What the refresh before this call did, when one ran.
    pub refreshed: Option<String>,
}

/// How a loaded index is held.
enum Held {
    /// Both artifacts parsed: after a refresh (which built them), or when the query image
    /// could not answer.
    Parsed {
        index: Box<DocBridgeIndexV1>,
        snapshot: Box<Snapshot>,
    },
    /// The query image over the mapped `snapshot.json`: what a server's first calls answer
    /// from without parsing either artifact. It is parsed once the index goes stale (the
    /// refresh needs what changed, and builds both).
    Mapped { image: Box<QueryImage> },
}

impl Loaded {
    /// What the tools read, before any call looked at its freshness.
    fn new(repo: Repo, held: Held, collection: Option<Collection>) -> Self {
        let cell = OnceLock::new();
        if let Some(collection) = collection {
            let _ = cell.set(collection);
        }
        Loaded {
            repo,
            held,
            collection: cell,
            stale: None,
            refreshed: None,
        }
    }

    /// What ranking needs. For a mapped index, read from the search cache made for the same
    /// index at the first call that ranks (so a first `handoff` does not wait for it); when
    /// that cache is gone or was made for another index, built from the index, parsed for it.
    /// An error only when the index itself changed under the server (the next call reloads).
    pub fn collection(&self) -> Result<&Collection, UserError> {
        if let Some(collection) = self.collection.get() {
            return Ok(collection);
        }
        let built = match &self.held {
            Held::Parsed { index, .. } => Some(Collection::build(&index.projection)),
            Held::Mapped { image } => {
                let header = image.header();
                search_cache(&self.repo, &header.index_stamp)
                    .filter(|cache| cache.index_hash == header.index_hash)
                    .map(|cache| cache.collection)
                    .or_else(|| {
                        let index = crate::pipeline::verified_index(&self.repo).ok()?;
                        (index.content_hash == header.index_hash)
                            .then(|| Collection::build(&index.projection))
                    })
            }
        };
        let built = built.ok_or_else(|| {
            UserError::error("the index changed while this call was answered; call again")
        })?;
        Ok(self.collection.get_or_init(|| built))
    }

    /// The lookups over the snapshot.
    pub fn graph(&self) -> Graph<'_> {
        match &self.held {
            Held::Parsed { snapshot, .. } => Graph::new(snapshot),
            Held::Mapped { image, .. } => Graph::from_image(image),
        }
    }

    /// Where names resolve (aliases, file names, stems).
    pub fn names(&self) -> &dyn NameLookup {
        match &self.held {
            Held::Parsed { index, .. } => &index.projection,
            Held::Mapped { image, .. } => image.as_ref(),
        }
    }

    /// The index's `contentHash`.
    pub fn index_hash(&self) -> &ContentHash {
        match &self.held {
            Held::Parsed { index, .. } => &index.content_hash,
            Held::Mapped { image, .. } => &image.header().index_hash,
        }
    }

    /// The index's ranking settings.
    pub fn retrieval(&self) -> &RetrievalSettings {
        match &self.held {
            Held::Parsed { index, .. } => &index.retrieval,
            Held::Mapped { image } => &image.header().retrieval,
        }
    }

    /// How many files the snapshot inventoried.
    pub fn file_count(&self) -> usize {
        match &self.held {
            Held::Parsed { snapshot, .. } => snapshot.files.len(),
            Held::Mapped { image, .. } => image.file_count(),
        }
    }

    /// Every diagnostic of the snapshot.
    pub fn diagnostics(&self) -> Cow<'_, [Diagnostic]> {
        match &self.held {
            Held::Parsed { snapshot, .. } => Cow::Borrowed(&snapshot.diagnostics),
            Held::Mapped { image, .. } => Cow::Owned(image.diagnostics()),
        }
    }

    /// The snapshot's diagnostics about entity `id` or the file at `path` (not the root).
    pub fn diagnostics_about(&self, id: &EntityId, path: &RelPath) -> Vec<Diagnostic> {
        match &self.held {
            Held::Parsed { snapshot, .. } => snapshot
                .diagnostics
                .iter()
                .filter(|d| d.entity.as_ref() == Some(id) || (!path.is_root() && &d.path == path))
                .cloned()
                .collect(),
            Held::Mapped { image, .. } => image.diagnostics_about(id, path),
        }
    }

    /// Up to five ids close to an unknown target (`query`'s closest matches).
    pub fn closest_matches(&self, target: &str) -> Vec<String> {
        let projection = match &self.held {
            Held::Parsed { index, .. } => Some(&index.projection),
            Held::Mapped { .. } => None,
        };
        match self.collection() {
            Ok(collection) => closest_in(collection, self.retrieval(), projection, target),
            Err(_) => Vec::new(),
        }
    }
}

/// The server's state.
pub struct State {
    root: PathBuf,
    allow_stale: bool,
    refresh: bool,
    loaded: Option<(FileStamp, Loaded)>,
    /// What was observed of the tree at the last refresh (none before the first).
    session: Option<Session>,
    /// What the last refresh left to write (the loaded index is then not on disk yet).
    unwritten: Option<Unwritten>,
}

impl State {
    /// A state for the repository at `root`; nothing is loaded until the first call. With
    /// `refresh`, a stale or missing index is brought up to date before a call is answered.
    pub fn new(root: PathBuf, allow_stale: bool, refresh: bool) -> Self {
        State {
            root,
            allow_stale,
            refresh,
            loaded: None,
            session: None,
            unwritten: None,
        }
    }

    /// Writes what the last refresh left to write, sealing the loaded index, so `.doc-bridge/`
    /// holds what the server answers from. Called after a call is answered, before the next
    /// one starts (for every tool: `proposals` writes the index too) and by [`State::ready`]. A write that fails is reported on stderr and forgotten with what it was
    /// built from, so the next call looks at the tree again.
    pub fn settle(&mut self) {
        let Some(unwritten) = self.unwritten.take() else {
            return;
        };
        let (Some(session), Some((stamp, loaded))) = (&self.session, self.loaded.as_mut()) else {
            return;
        };
        let Held::Parsed { index, snapshot } = &mut loaded.held else {
            // A refresh leaves what it built parsed; nothing else leaves anything to write.
            return;
        };
        // A refresh keeps the collection it built.
        let Some(collection) = loaded.collection.get() else {
            crate::errln!("warning: the refreshed index was not written: it has no collection");
            self.loaded = None;
            self.session = None;
            return;
        };
        let written = session.write(unwritten, snapshot, index, collection);
        let now = file_stamp(&loaded.repo.artifact(INDEX_FILE));
        match (written, now) {
            (Ok(_), Some(now)) => *stamp = now,
            (Err(error), _) => {
                crate::errln!("warning: the refreshed index was not written: {error}");
                self.loaded = None;
                self.session = None;
            }
            (Ok(_), None) => {
                self.loaded = None;
                self.session = None;
            }
        }
    }

    /// Runs the index pipeline once (`force`: in full even when nothing changed) and forgets
    /// the loaded index, so the next [`State::ready`] reads what it wrote. Returns what it did.
    pub fn refresh_now(&mut self, force: bool) -> Result<String, UserError> {
        let repo = Repo::open(Some(&self.root))?;
        let outcome = crate::commands::index::index_once(
            &repo,
            crate::commands::index::IndexRun {
                force,
                allow_pending_findings: false,
                quiet: true,
            },
        )?;
        self.invalidate();
        // `index` wrote the artifacts: what a session observed may be older than them.
        self.session = None;
        Ok(outcome.describe())
    }

    /// The `refresh` tool without `force`: what changed since the index is re-read (through the
    /// watch session, [`State::refresh_stale`]); an index that is fresh is left alone, a missing
    /// or unreadable one is rebuilt by the full pipeline.
    pub fn refresh_changed(&mut self) -> Result<String, UserError> {
        match self.load_and_check() {
            Ok(None) => Ok("the index was up to date".to_owned()),
            Ok(Some(freshness)) => self.refresh_stale(&freshness),
            Err(_) => self.refresh_now(false),
        }
    }

    /// Brings a stale index up to date through the watch session (started on first use, when
    /// it observes every file), keeping what it built as the loaded index. Falls back to the
    /// full pipeline ([`State::refresh_now`]) when the session finds nothing to rebuild although
    /// the index is stale (an index another process wrote from another tree state).
    fn refresh_stale(&mut self, freshness: &Freshness) -> Result<String, UserError> {
        let repo = Repo::open(Some(&self.root))?;
        if repo.config.index.reference_findings_gate {
            // The publication gate is `index`'s; the watch machinery does not apply it.
            return self.refresh_now(false);
        }
        let initial = self.session.is_none();
        let session = match &mut self.session {
            Some(session) => session,
            None => self.session.insert(Session::new(repo, false, true)),
        };
        let batch = Batch {
            paths: freshness
                .changed
                .iter()
                .chain(&freshness.added)
                .chain(&freshness.removed)
                .cloned()
                .collect(),
            config: freshness.configuration_changed,
            overlay: freshness.configuration_changed,
            rescan: freshness.versions_changed || freshness.lexicon_changed,
            root: false,
            walk: true,
        };
        let rebuilt = match session.refresh(batch, initial, Writes::Later)? {
            Refreshed::Rebuilt(rebuilt) => rebuilt,
            Refreshed::Unchanged => return self.refresh_now(false),
            Refreshed::Failed(why) => {
                self.session = None;
                return Err(UserError::error(why));
            }
        };
        let Rebuilt {
            snapshot,
            index,
            collection,
            repo,
            changes,
            artifacts,
        } = *rebuilt;
        let described = match artifacts {
            Artifacts::Written(snapshot, index) => format!(
                "re-read {changes}; {}",
                crate::commands::index::what_was_written(snapshot, index)
            ),
            Artifacts::Unwritten(unwritten) => {
                self.unwritten = Some(unwritten);
                format!(
                    "re-read {changes}; .doc-bridge/snapshot.json and index.json are written after this answer"
                )
            }
        };
        // The stamp of the file on disk now, replaced when the refresh's own is written; `None`
        // (none there) needs one that cannot match a file.
        let stamp = file_stamp(&repo.artifact(INDEX_FILE)).unwrap_or(FileStamp {
            bytes: u64::MAX,
            modified_ns: 0,
            inode: 0,
        });
        let held = Held::Parsed {
            index: Box::new(index),
            snapshot: Box::new(snapshot),
        };
        self.loaded = Some((stamp, Loaded::new(repo, held, Some(collection))));
        Ok(described)
    }

    /// The repository as configured now (for calls that do not need the index).
    pub fn repo(&self) -> Result<Repo, UserError> {
        match &self.loaded {
            Some((_, loaded)) => Ok(loaded.repo.clone()),
            None => Repo::open(Some(&self.root)),
        }
    }

    /// Forgets the loaded index, so the next call reads it again (after a write by this server),
    /// and anything it left to write.
    pub fn invalidate(&mut self) {
        self.loaded = None;
        self.unwritten = None;
    }

    /// The loaded index, reloaded first when its file changed, and checked for freshness. A stale
    /// or missing index is refreshed first (unless `--no-refresh`); one that cannot be, or a
    /// corrupt one, is an error with the message the CLI gives, and a stale one without refresh
    /// is an error too unless `--allow-stale`, when it is served marked stale.
    pub fn ready(&mut self) -> Result<&Loaded, UserError> {
        // The server settles before every call; this is for the `refresh` tool, whose
        // refresh comes before it reads the index it reports.
        self.settle();
        let mut refreshed = None;
        let index_path = self.root.join(crate::repo::ARTIFACT_DIR).join(INDEX_FILE);
        if self.refresh && file_stamp(&index_path).is_none() {
            refreshed = Some(self.refresh_now(false)?);
        }
        let stale = self.load_and_check()?;
        let stale = match stale {
            Some(freshness) if self.refresh => {
                refreshed = Some(self.refresh_stale(&freshness).map_err(|e| {
                    UserError::error(format!(
                        "the index is stale and could not be refreshed: {e}"
                    ))
                })?);
                // What the watch session built in this call is the check: it walked the tree
                // after the call arrived. Anything else (the full pipeline ran, or another
                // process replaced `index.json` since) is read and checked again.
                if self.unwritten.is_some() || self.holds_index_on_disk() {
                    None
                } else {
                    self.load_and_check()?
                }
            }
            other => other,
        };
        let allow_stale = self.allow_stale;
        let Some((_, loaded)) = self.loaded.as_mut() else {
            return Err(UserError::error(
                "no index at .doc-bridge/index.json; run `doc-bridge index`",
            ));
        };
        loaded.refreshed = refreshed;
        match stale {
            None => loaded.stale = None,
            Some(freshness) if allow_stale => loaded.stale = Some(freshness.summary(5)),
            Some(freshness) => return Err(stale_error(&freshness)),
        }
        Ok(loaded)
    }

    /// Whether the loaded index is the one `index.json` holds now (same stamp).
    fn holds_index_on_disk(&self) -> bool {
        let path = self.root.join(crate::repo::ARTIFACT_DIR).join(INDEX_FILE);
        matches!((&self.loaded, file_stamp(&path)), (Some((loaded, _)), Some(now)) if *loaded == now)
    }

    /// Reloads the index when its file changed, then checks its freshness: what is stale, if
    /// anything.
    fn load_and_check(&mut self) -> Result<Option<doc_bridge_retrieve::Freshness>, UserError> {
        let repo_root = self.root.clone();
        let stamp = file_stamp(&repo_root.join(crate::repo::ARTIFACT_DIR).join(INDEX_FILE));
        let current = match (&self.loaded, &stamp) {
            (Some((loaded_stamp, _)), Some(stamp)) => loaded_stamp == stamp,
            _ => false,
        };
        if !current {
            self.loaded = None;
            let repo = Repo::open(Some(&repo_root))?;
            let loaded = load(repo, stamp.as_ref())?;
            // The stamp taken before reading: a write during the read makes the next call reload.
            let Some(stamp) = stamp else {
                return Err(UserError::error(
                    "no index at .doc-bridge/index.json; run `doc-bridge index`",
                ));
            };
            // The query image answers only for unchanged inputs: checked as it was loaded.
            let mapped = matches!(loaded.held, Held::Mapped { .. });
            self.loaded = Some((stamp, loaded));
            if mapped {
                return Ok(None);
            }
        }
        let Some((stamp, loaded)) = self.loaded.as_mut() else {
            return Err(UserError::error(
                "no index at .doc-bridge/index.json; run `doc-bridge index`",
            ));
        };
        if let Held::Mapped { image, .. } = &loaded.held {
            if current_inputs_hash(&loaded.repo)? == image.header().inputs_hash {
                return Ok(None);
            }
            // Stale: what changed is the index's to say, and the refresh starts from it.
            let stamp = *stamp;
            let repo = loaded.repo.clone();
            self.loaded = None;
            let loaded = parse(repo, Some(&stamp))?;
            self.loaded = Some((stamp, loaded));
        }
        let Some((_, loaded)) = self.loaded.as_ref() else {
            return Err(UserError::error(
                "no index at .doc-bridge/index.json; run `doc-bridge index`",
            ));
        };
        let Held::Parsed { index, .. } = &loaded.held else {
            return Ok(None);
        };
        let freshness = freshness_of(&loaded.repo, index)?;
        Ok((!freshness.is_fresh()).then_some(freshness))
    }
}

/// The index as the tools read it: from the query image when it was made for `index.json` as it
/// is (and the inputs are unchanged), parsing neither artifact (the collection follows from the
/// search cache when a call ranks); else both artifacts read and verified ([`parse`]).
fn load(repo: Repo, stamp: Option<&FileStamp>) -> Result<Loaded, UserError> {
    if let Some(stamp) = stamp
        && let Some(image) = fresh_query_image(&repo)?
        && image.header().index_stamp == *stamp
    {
        let held = Held::Mapped {
            image: Box::new(image),
        };
        return Ok(Loaded::new(repo, held, None));
    }
    parse(repo, stamp)
}

/// Reads and verifies the index and its snapshot, and takes the collection from the search cache
/// when the cache was built for this very index file (else builds it).
fn parse(repo: Repo, stamp: Option<&FileStamp>) -> Result<Loaded, UserError> {
    let (index, snapshot) = verified_index_with_snapshot(&repo)?;
    let cached = stamp
        .and_then(|stamp| search_cache(&repo, stamp))
        .filter(|cache| cache.index_hash == index.content_hash)
        .map(|cache| cache.collection);
    let collection = cached.unwrap_or_else(|| Collection::build(&index.projection));
    let held = Held::Parsed {
        index: Box::new(index),
        snapshot: Box::new(snapshot),
    };
    Ok(Loaded::new(repo, held, Some(collection)))
}

/// The search cache made for the `index.json` with this stamp, read into memory (the server
/// keeps it for its lifetime: a mapped file could be replaced under it).
fn search_cache(repo: &Repo, stamp: &FileStamp) -> Option<SearchCache> {
    let bytes = std::fs::read(repo.artifact(SEARCH_CACHE_FILE)).ok()?;
    SearchCache::from_bytes(bytes, stamp)
}
