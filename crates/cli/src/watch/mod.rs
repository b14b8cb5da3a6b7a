//! `doc-bridge index --watch`: an initial index, then a debounced file watcher whose batches
//! refresh the snapshot and the index, re-reading only the files that changed.
//!
//! Every refresh goes through the same functions as `doc-bridge index`
//! ([`pipeline::snapshot_unsealed_of`], `commands::index::publish`), so the
//! artifacts of a refresh are byte-identical to those of a cold `index` of the same tree
//! (tested in `crates/cli/tests/watch.rs`). No agent is ever called.
//!
//! The loop ends on Ctrl-C or SIGTERM (exit 0, after the refresh in progress), and when the root
//! is removed (exit 2). Closing stdin does not stop it, so it can run in the background.

mod events;
mod observations;
mod signals;

use std::collections::BTreeSet;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use doc_bridge_discover::analysis_cache::AnalysisCache;
use doc_bridge_discover::walk::PathRules;
use doc_bridge_model::RelPath;
use doc_bridge_retrieve::token_memo::TokenMemo;
use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, new_debouncer};
use serde_json::json;

use crate::args::IndexArgs;
use crate::commands::index::Published;
use crate::exit::{CommandResult, Exit, UserError};
use crate::pipeline::{self, ANALYSIS_CACHE_FILE};
use crate::repo::Repo;
use doc_bridge_model::timing::phase;

pub use events::Batch;
use events::EventFilter;
use observations::{Changes, Observations};

/// What reaches the loop.
enum Message {
    /// A debounced batch of file events (or the watcher's errors).
    Events(DebounceEventResult),
    /// Ctrl-C or SIGTERM.
    Stop,
}

/// How often the loop checks that the root still exists when no event arrives (inotify does not
/// always report the removal of the watched directory itself).
const ROOT_CHECK: Duration = Duration::from_secs(1);

/// Runs the watch loop.
pub fn run(args: &IndexArgs) -> CommandResult {
    let repo = Repo::open(args.common.root.as_deref())?;
    let (sender, receiver) = mpsc::channel::<Message>();
    // Watch before the initial index, so edits made while it runs are not lost.
    let events = sender.clone();
    let mut debouncer = new_debouncer(
        Duration::from_millis(args.debounce_ms),
        None,
        move |result: DebounceEventResult| {
            let _ = events.send(Message::Events(result));
        },
    )
    .map_err(|e| UserError::error(format!("cannot start the file watcher: {e}")))?;
    debouncer
        .watch(&repo.root, RecursiveMode::Recursive)
        .map_err(|e| {
            UserError::error(format!(
                "cannot watch {}: {e} (on Linux, raise fs.inotify.max_user_watches for large trees)",
                repo.root.display()
            ))
        })?;
    signals::on_stop(sender, Message::Stop)
        .map_err(|e| UserError::error(format!("cannot install signal handlers: {e}")))?;

    let mut session = Session::new(repo, args.json, args.common.quiet);
    session.refresh_and_report(Batch::default(), true)?;
    loop {
        let first = match receiver.recv_timeout(ROOT_CHECK) {
            Ok(message) => message,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                session.check_root()?;
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(Exit::Ok),
        };
        // Coalesce everything already queued (events that arrived during the last refresh).
        let mut batch = Batch::default();
        for message in std::iter::once(first).chain(receiver.try_iter()) {
            match message {
                Message::Stop => {
                    session.say("watch stopped");
                    return Ok(Exit::Ok);
                }
                Message::Events(Ok(events)) => batch.merge(session.filter.batch(&events)),
                Message::Events(Err(errors)) => {
                    for error in errors {
                        session.report_error(&format!("file watcher: {error}"));
                    }
                    // Events may have been lost: look at everything again.
                    batch.rescan = true;
                }
            }
        }
        if batch.is_empty() {
            continue;
        }
        session.refresh_and_report(batch, false)?;
    }
}

/// What one refresh did.
pub enum Refreshed {
    /// Nothing the index derives from changed: nothing was written.
    Unchanged,
    /// The snapshot and the index were rebuilt (and written where their bytes changed).
    Rebuilt(Box<Rebuilt>),
    /// A problem of this refresh alone (a configuration that does not parse, an artifact that
    /// cannot be written): the index is left as it was.
    Failed(String),
}

/// When a refresh writes what it built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writes {
    /// Before the refresh returns (the watch loop).
    Now,
    /// When the caller says, with [`Session::write`]: the MCP server answers the call first.
    Later,
}

/// What a refresh left to write ([`Writes::Later`]) beside the snapshot and the index it
/// built, neither of them sealed: the analyses, for the file caches.
pub struct Unwritten {
    analyses: AnalysisCache,
}

/// What a refresh built: for a caller that answers from memory (the MCP server).
pub struct Rebuilt {
    /// The snapshot.
    pub snapshot: doc_bridge_model::snapshot::Snapshot,
    /// The index.
    pub index: doc_bridge_model::index::DocBridgeIndexV1,
    /// Its search collection.
    pub collection: doc_bridge_retrieve::collection::Collection,
    /// The repository as configured for this refresh.
    pub repo: Repo,
    /// What changed, in words ("1 file changed (docs/a.md)").
    pub changes: String,
    /// What became of the artifacts.
    pub artifacts: Artifacts,
}

/// What a refresh did with the artifacts.
pub enum Artifacts {
    /// Written where their bytes changed: whether `snapshot.json` and `index.json` were.
    Written(bool, bool),
    /// Left to write ([`Writes::Later`]); the snapshot and the index are not sealed yet.
    Unwritten(Unwritten),
}

/// The state between refreshes: what was observed of every file, the artifacts last written,
/// the tokens of projection entries. The watch loop keeps one; so does the MCP server, which
/// refreshes through it before answering a call that follows an edit.
pub struct Session {
    repo: Repo,
    observations: Observations,
    /// Tokenized projection entries, reused when the search collection is rebuilt.
    tokens: TokenMemo,
    filter: EventFilter,
    json: bool,
    quiet: bool,
}

impl Session {
    /// A session for `repo`, nothing observed yet: its first refresh (`initial`) observes every
    /// file, as `index` does. `json` and `quiet` say what the watch loop prints.
    pub fn new(repo: Repo, json: bool, quiet: bool) -> Self {
        let filter = event_filter(&repo);
        Session {
            repo,
            observations: Observations::default(),
            tokens: TokenMemo::new(),
            filter,
            json,
            quiet,
        }
    }

    /// [`Session::refresh`], with a failed refresh reported as the watch loop reports it.
    fn refresh_and_report(&mut self, batch: Batch, initial: bool) -> Result<(), UserError> {
        if let Refreshed::Failed(message) = self.refresh(batch, initial, Writes::Now)? {
            self.report_error(&message);
        }
        Ok(())
    }

    /// Exit 2 with a clear message when the root is gone.
    fn check_root(&self) -> Result<(), UserError> {
        if self.repo.root.is_dir() {
            return Ok(());
        }
        let message = format!(
            "the watched root {} was removed or moved; watch stopped",
            self.repo.root.display()
        );
        if self.json {
            crate::outln!("{}", json!({"event": "stopped", "message": message}));
        }
        Err(UserError::error(message))
    }

    /// One refresh. Problems that concern one refresh (a configuration that does not parse, an
    /// artifact that cannot be written) are [`Refreshed::Failed`], and the loop goes on; only a
    /// removed root is an error.
    pub fn refresh(
        &mut self,
        batch: Batch,
        initial: bool,
        writes: Writes,
    ) -> Result<Refreshed, UserError> {
        let started = Instant::now();
        self.check_root()?;
        let mut cache = AnalysisCache::default();
        if initial {
            // Same as `index`: unchanged modules are not parsed again.
            cache = std::fs::read(self.repo.artifact(ANALYSIS_CACHE_FILE))
                .map(|b| AnalysisCache::from_bytes(&b))
                .unwrap_or_default();
        }
        if batch.config {
            match Repo::open(Some(&self.repo.root)) {
                Ok(repo) => {
                    self.filter = event_filter(&repo);
                    self.repo = repo;
                    // Analysis depends on the configuration (size limit, excludes): start over.
                    self.observations = Observations::default();
                }
                Err(error) => {
                    return Ok(Refreshed::Failed(format!(
                        "{}; the index is left as it was until the configuration is fixed",
                        error.message
                    )));
                }
            }
        }
        if batch.rescan {
            self.observations = Observations::default();
        }
        let known = match (initial, &batch) {
            (
                false,
                Batch {
                    config: false,
                    rescan: false,
                    root: false,
                    walk: false,
                    paths,
                    ..
                },
            ) => phase("restat", || {
                self.observations.restat(&self.repo.root, paths)
            }),
            _ => None,
        };
        let walked = match known.map(Ok).unwrap_or_else(|| {
            phase("walk", || {
                doc_bridge_discover::walk(&self.repo.root, &pipeline::walk_options(&self.repo))
            })
        }) {
            Ok(walked) => walked,
            Err(error) => {
                self.check_root()?;
                return Ok(Refreshed::Failed(error.to_string()));
            }
        };
        let forced: BTreeSet<RelPath> = batch.paths.clone();
        let max_bytes = self.repo.config.safety.max_file_bytes();
        let changes = phase("observe", || {
            self.observations
                .refresh(&self.repo.root_dir, walked, &forced, max_bytes, &cache)
        });
        drop(cache);
        if !(initial || changes.any() || batch.overlay || batch.config || batch.rescan) {
            return Ok(Refreshed::Unchanged);
        }
        let result = self.rebuild(initial, &changes, started, writes);
        self.tokens.sweep();
        result
    }

    /// Builds and writes (or, with [`Writes::Later`], leaves to write) the snapshot, the index
    /// and the caches from the observations, as `index` does (`commands::index::publish`).
    fn rebuild(
        &mut self,
        initial: bool,
        changes: &Changes,
        started: Instant,
        writes: Writes,
    ) -> Result<Refreshed, UserError> {
        let observed = phase("observations", || self.observations.observed());
        let analyses = AnalysisCache::from_observed(&observed);
        let (snapshot, texts) = pipeline::snapshot_unsealed_of(
            &self.repo,
            observed,
            self.observations.walk_diagnostics(),
        );
        let (snapshot, index, collection, artifacts) = match writes {
            Writes::Now => {
                let published = crate::commands::index::publish(
                    &self.repo,
                    snapshot,
                    &texts,
                    crate::pipeline::ScanRecord {
                        walked: self.observations.walked(),
                        dirs: None,
                        analyses: &analyses,
                    },
                    None,
                    Some(&self.tokens),
                );
                let published = match published {
                    Ok(published) => published,
                    Err(error) => {
                        self.check_root()?;
                        return Ok(Refreshed::Failed(error.message));
                    }
                };
                let written = (published.written.snapshot, published.written.index);
                self.print(&Report {
                    initial,
                    changes,
                    files: published.snapshot.files.len(),
                    elapsed: started.elapsed(),
                    snapshot_hash: published.snapshot.content_hash.as_str(),
                    index_hash: published.index.content_hash.as_str(),
                    written,
                });
                let artifacts = Artifacts::Written(written.0, written.1);
                let Published {
                    snapshot,
                    index,
                    collection,
                    ..
                } = published;
                (snapshot, index, collection, artifacts)
            }
            Writes::Later => {
                // Neither the snapshot nor the index is encoded or sealed: that is the writing.
                let (index, collection) = pipeline::index_from(
                    &self.repo,
                    &snapshot,
                    &texts,
                    None,
                    false,
                    Some(&self.tokens),
                );
                let artifacts = Artifacts::Unwritten(Unwritten { analyses });
                (snapshot, index, collection, artifacts)
            }
        };
        Ok(Refreshed::Rebuilt(Box::new(Rebuilt {
            changes: describe(changes),
            artifacts,
            snapshot,
            index,
            collection,
            repo: self.repo.clone(),
        })))
    }

    /// Writes what a refresh built and left to write ([`Writes::Later`]), sealing `snapshot`
    /// and `index` on the way: whether `snapshot.json` and `index.json` changed.
    pub fn write(
        &self,
        unwritten: Unwritten,
        snapshot: &mut doc_bridge_model::snapshot::Snapshot,
        index: &mut doc_bridge_model::index::DocBridgeIndexV1,
        collection: &doc_bridge_retrieve::collection::Collection,
    ) -> Result<(bool, bool), UserError> {
        let written = crate::commands::index::seal_and_write(
            &self.repo,
            snapshot,
            index,
            collection,
            crate::pipeline::ScanRecord {
                walked: self.observations.walked(),
                dirs: None,
                analyses: &unwritten.analyses,
            },
        )?;
        Ok((written.snapshot, written.index))
    }

    fn print(&self, report: &Report<'_>) {
        let ms = (report.elapsed.as_secs_f64() * 1000.0).round() as u64;
        if self.json {
            fn list(paths: &[RelPath]) -> Vec<&str> {
                paths.iter().take(LISTED).map(|p| p.as_str()).collect()
            }
            crate::outln!(
                "{}",
                json!({
                    "event": if report.initial { "index" } else { "refresh" },
                    "files": report.files,
                    "changed": report.changes.count(),
                    "added": list(&report.changes.added),
                    "removed": list(&report.changes.removed),
                    "modified": list(&report.changes.modified),
                    "reread": report.changes.reread,
                    "vanished": list(&report.changes.vanished),
                    "ms": ms,
                    "snapshotHash": report.snapshot_hash,
                    "indexHash": report.index_hash,
                    "written": {"snapshot": report.written.0, "index": report.written.1},
                })
            );
        }
        if !self.quiet {
            let short = &report.index_hash[..report.index_hash.len().min(12)];
            let state = if report.written.1 {
                "written"
            } else {
                "unchanged"
            };
            if report.initial {
                crate::errln!(
                    "indexed {} files in {ms} ms; index {short} ({state}); watching {} (Ctrl-C stops)",
                    report.files,
                    self.repo.root.display()
                );
            } else {
                crate::errln!(
                    "refreshed: {} in {ms} ms; index {short} ({state})",
                    describe(report.changes)
                );
            }
        }
    }

    fn say(&self, message: &str) {
        if self.json {
            crate::outln!("{}", json!({"event": "stopped", "message": message}));
        }
        if !self.quiet {
            crate::errln!("{message}");
        }
    }

    fn report_error(&self, message: &str) {
        if self.json {
            crate::outln!("{}", json!({"event": "error", "message": message}));
        }
        // Errors are shown even with --quiet: they mean the index may be behind the tree.
        crate::errln!("doc-bridge: watch: {message}");
    }
}

/// Paths listed per kind in a JSON line; the counts are always complete.
const LISTED: usize = 50;

struct Report<'a> {
    initial: bool,
    changes: &'a Changes,
    files: usize,
    elapsed: Duration,
    snapshot_hash: &'a str,
    index_hash: &'a str,
    written: (bool, bool),
}

/// "1 file changed (docs/a.md)", "3 files changed (2 added, 1 removed)".
fn describe(changes: &Changes) -> String {
    let count = changes.count();
    if count == 0 {
        return "no file changed".to_owned();
    }
    let noun = if count == 1 { "file" } else { "files" };
    if count == 1 {
        let path = changes
            .added
            .iter()
            .chain(&changes.removed)
            .chain(&changes.modified)
            .next()
            .map(|p| p.as_str())
            .unwrap_or_default();
        return format!("1 {noun} changed ({path})");
    }
    let parts: Vec<String> = [
        (changes.added.len(), "added"),
        (changes.removed.len(), "removed"),
        (changes.modified.len(), "modified"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    format!("{count} {noun} changed ({})", parts.join(", "))
}

/// The event filter of a repository: the walk's rules, plus the outputs doc-bridge writes in the
/// tree outside `.doc-bridge/` (none yet; `llms.txt` goes here once `index` writes it).
fn event_filter(repo: &Repo) -> EventFilter {
    let options = pipeline::walk_options(repo);
    EventFilter::new(
        &repo.root,
        PathRules::new(&repo.root, &options),
        generated_outputs(repo),
    )
    .with_config_file(&repo.config_file)
}

/// Files `index` writes inside the tree but outside `.doc-bridge/`: the configured `llms.txt`.
/// Their events are our own writes, never a reason to refresh.
fn generated_outputs(repo: &Repo) -> BTreeSet<RelPath> {
    crate::llms::output_path(repo).into_iter().collect()
}
