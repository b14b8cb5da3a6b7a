//! The record of the last `index` run that wrote every artifact (`.doc-bridge/cache/last-index.json`),
//! so that the next run can tell, before observing anything, that it would write exactly the
//! same bytes, and stop there.
//!
//! An `index` run is a function of the repository's inputs (every admitted file and the
//! configuration sections the index derives from, overlay included: all of it in
//! `inputs.hash`), of the program, and of where the repository is (a project without a
//! configured or manifest name is named after its directory). The record holds each of those as
//! the run saw them, and the stamps (size, modification time, inode) of what the run left on
//! disk: `index.json`, `snapshot.json`, the search cache vouching for both, and `llms.txt`. When
//! every one still holds, a full run would rebuild the same artifacts and find them unchanged,
//! so the up-to-date run prints the same summary and writes nothing. Anything else (a moved
//! stamp, a damaged or missing record or cache, an invalid overlay, which a full run warns
//! about, another build of doc-bridge) means a full run. `index --force` always runs in full.
//!
//! The inputs are judged exactly as `index --check` judges them (the stamp cache, re-hashing
//! what moved), so an up-to-date run is as sure as a fresh check, no more: a file edited in place
//! to the same size within one clock tick of the last run, or with its old time put back, goes
//! unseen by both.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use doc_bridge_model::{ContentHash, RelPath};
use doc_bridge_retrieve::cache::{FileStamp, SearchCache};

use crate::pipeline::{
    self, INDEX_FILE, OverlayState, SEARCH_CACHE_FILE, SNAPSHOT_FILE, file_stamp,
};
use crate::repo::Repo;

/// The record, under `.doc-bridge/`.
pub const LAST_RUN_FILE: &str = "cache/last-index.json";

/// Bumped whenever the record's meaning changes: an older record is then no record.
const FORMAT: u32 = 1;

/// What an `index` run reports (`index --json`, and the text summary).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// Files admitted by the walk.
    pub files: u64,
    /// Entities by kind (every kind, zeros included).
    pub entities: BTreeMap<String, u64>,
    /// Relations.
    pub relations: u64,
    /// Diagnostics.
    pub diagnostics: u64,
    /// Diagnostics by code.
    pub diagnostics_by_code: BTreeMap<String, u64>,
    /// The snapshot's seal.
    pub snapshot_hash: ContentHash,
    /// The index's seal.
    pub index_hash: ContentHash,
}

/// The record itself. See the module documentation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LastRun {
    format: u32,
    /// The program that ran: its version and its executable's stamp (any rebuild moves it).
    program: Program,
    /// The repository root, as the run resolved it.
    root: String,
    /// The index's `inputs.hash`.
    inputs_hash: ContentHash,
    index_stamp: FileStamp,
    snapshot_stamp: FileStamp,
    /// Where `llms.txt` was written and its stamp; `None` when `llms.enabled` is false.
    llms: Option<(RelPath, FileStamp)>,
    /// What the run reported.
    summary: Summary,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Program {
    version: String,
    executable: FileStamp,
}

impl Program {
    fn current() -> Option<Program> {
        let executable = std::env::current_exe().ok()?;
        Some(Program {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            executable: file_stamp(&executable)?,
        })
    }
}

/// The root as recorded: the path the run worked in.
fn root_text(repo: &Repo) -> String {
    repo.root.to_string_lossy().into_owned()
}

impl LastRun {
    /// The record of a run that just wrote (or found unchanged) every artifact: `index_stamp`
    /// and `snapshot_stamp` are what those files have now, `llms` where `llms.txt` is (`None`
    /// when disabled). `None` when the program's own stamp cannot be read (then no run is ever
    /// skipped).
    pub fn of_run(
        repo: &Repo,
        inputs_hash: ContentHash,
        (index_stamp, snapshot_stamp): (FileStamp, FileStamp),
        llms: Option<(RelPath, FileStamp)>,
        summary: Summary,
    ) -> Option<LastRun> {
        Some(LastRun {
            format: FORMAT,
            program: Program::current()?,
            root: root_text(repo),
            inputs_hash,
            index_stamp,
            snapshot_stamp,
            llms,
            summary,
        })
    }

    /// Writes the record (best effort: without it the next run is simply a full one).
    pub fn write(&self, repo: &Repo) {
        if let Ok(bytes) = serde_json::to_vec_pretty(self) {
            let _ = doc_bridge_store::artifact::write_cache_atomic(
                &repo.artifact(LAST_RUN_FILE),
                &bytes,
            );
        }
    }
}

/// Forgets the record (a run that must not be skipped next time, though its files may keep
/// their stamps: one that left a foreign `llms.txt` alone, whose warning must be repeated).
pub fn forget(repo: &Repo) {
    let _ = std::fs::remove_file(repo.artifact(LAST_RUN_FILE));
}

/// What the last run reported, when a full run now would write exactly what is on disk; `None`
/// whenever that is not certain. The cheap checks come first; re-fingerprinting the inputs last.
pub fn unchanged(repo: &Repo) -> Option<Summary> {
    let bytes = std::fs::read(repo.artifact(LAST_RUN_FILE)).ok()?;
    let record: LastRun = serde_json::from_slice(&bytes).ok()?;
    let holds = record.format == FORMAT
        && Program::current().as_ref() == Some(&record.program)
        && record.root == root_text(repo)
        && file_stamp(&repo.artifact(INDEX_FILE)) == Some(record.index_stamp)
        && file_stamp(&repo.artifact(SNAPSHOT_FILE)) == Some(record.snapshot_stamp)
        && llms_unchanged(repo, record.llms.as_ref())
        // The search cache is written with the index: made for this index file, vouching for
        // this snapshot.
        && SearchCache::header(&repo.artifact(SEARCH_CACHE_FILE), &record.index_stamp)
            .is_some_and(|header| {
                header.index_hash == record.summary.index_hash
                    && header.snapshot_stamp == Some(record.snapshot_stamp)
            })
        // A full run warns about an invalid overlay (and indexes without it): let it.
        && !matches!(pipeline::load_overlay(repo), OverlayState::Invalid(_));
    if !holds {
        return None;
    }
    let inputs = pipeline::current_inputs_hash(repo).ok()?;
    (inputs == record.inputs_hash).then_some(record.summary)
}

fn llms_unchanged(repo: &Repo, recorded: Option<&(RelPath, FileStamp)>) -> bool {
    match (crate::llms::output_path(repo), recorded) {
        (None, None) => true,
        (Some(path), Some((was, stamp))) => {
            path == *was && file_stamp(&repo.root.join(path.as_str())) == Some(*stamp)
        }
        _ => false,
    }
}
