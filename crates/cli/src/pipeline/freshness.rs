//! The inputs fingerprint and freshness: the repository re-hashed (through the stamp cache)
//! and compared with what an index recorded.

use std::collections::BTreeMap;

use doc_bridge_discover::stamps::{Stamps, hash_all_stamped, now_ns};
use doc_bridge_discover::{analyzer_versions, walk};
use doc_bridge_model::index::{DocBridgeIndexV1, Inputs};
use doc_bridge_model::snapshot::Snapshot;
use doc_bridge_model::{ContentHash, RelPath};
use doc_bridge_retrieve::fingerprint;
use doc_bridge_store::artifact::write_atomic;

use crate::exit::UserError;
use crate::repo::Repo;
use doc_bridge_model::timing::phase;

use super::*;

/// The inputs fingerprint of a snapshot.
pub fn snapshot_inputs(repo: &Repo, snapshot: &Snapshot) -> Inputs {
    let files = snapshot
        .files
        .iter()
        .map(|f| (f.path.clone(), f.content_hash.clone()))
        .collect();
    fingerprint(
        files,
        inputs_configuration_hash(repo),
        snapshot.analyzers.clone(),
    )
}

/// The freshness of recorded inputs against the repository as it is now. The stamp cache decides
/// the common case alone (no file moved: the inputs hash is recomputed from the recorded file
/// digest); anything else fingerprints the repository ([`current_inputs`]) and names what moved.
pub fn freshness_of(
    repo: &Repo,
    index: &DocBridgeIndexV1,
) -> Result<doc_bridge_retrieve::Freshness, UserError> {
    freshness_with(repo, index, Stamping::Record)
}

/// [`freshness_of`] without its one write: the stamp cache is read, never recorded (`doctor`,
/// which writes nothing at all).
pub fn freshness_read_only(
    repo: &Repo,
    index: &DocBridgeIndexV1,
) -> Result<doc_bridge_retrieve::Freshness, UserError> {
    freshness_with(repo, index, Stamping::ReadOnly)
}

/// Whether fingerprinting records what it learned in the stamp cache (a derived cache: writing
/// it changes no answer, only the cost of the next one).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stamping {
    Record,
    ReadOnly,
}

fn freshness_with(
    repo: &Repo,
    index: &DocBridgeIndexV1,
    stamping: Stamping,
) -> Result<doc_bridge_retrieve::Freshness, UserError> {
    let recorded = &index.inputs;
    let stamps = read_stamps(repo);
    let freshness = if unchanged_inputs_hash(repo, &stamps).as_ref() == Some(&recorded.hash) {
        doc_bridge_retrieve::Freshness::default()
    } else {
        let current = current_inputs_with(repo, stamps, stamping)?;
        doc_bridge_retrieve::compare(recorded, &current)
    };
    Ok(freshness.with_lexicon(index.retrieval.lexicon_version))
}

/// The current `inputs.hash`: from the stamp cache when it vouches for every file, else by
/// fingerprinting the repository.
pub fn current_inputs_hash(repo: &Repo) -> Result<ContentHash, UserError> {
    let stamps = read_stamps(repo);
    match unchanged_inputs_hash(repo, &stamps) {
        Some(hash) => Ok(hash),
        None => Ok(current_inputs_with(repo, stamps, Stamping::Record)?.hash),
    }
}

/// `inputs.hash` when no input file moved since the stamp cache was recorded (no file is read,
/// no list is built); `None` when the cache cannot vouch for that.
fn unchanged_inputs_hash(repo: &Repo, stamps: &Stamps) -> Option<ContentHash> {
    let digest = phase("unchanged stamps", || {
        stamps.unchanged_digest(&repo.root, now_ns())
    })?;
    Some(doc_bridge_retrieve::inputs::inputs_hash(
        &digest,
        stamps.file_count() as u64,
        &inputs_configuration_hash(repo),
        &analyzer_versions(),
    ))
}

fn read_stamps(repo: &Repo) -> Stamps {
    phase("read stamps", || {
        std::fs::read(repo.artifact(STAMPS_FILE))
            .map(|b| Stamps::from_bytes(&b))
            .unwrap_or_default()
    })
}

/// The inputs fingerprint of the repository as it is now, by hashing only: files whose size and
/// modification time match the stamp cache are not read again.
pub fn current_inputs(repo: &Repo) -> Result<Inputs, UserError> {
    current_inputs_with(repo, read_stamps(repo), Stamping::Record)
}

fn current_inputs_with(
    repo: &Repo,
    stamps: Stamps,
    stamping: Stamping,
) -> Result<Inputs, UserError> {
    let stamps_path = repo.artifact(STAMPS_FILE);
    // No directory and no ignore file moved since the last full walk: the same files, stat'ed
    // only. Otherwise walk, and record the listing for next time.
    let quick = phase("quick walk", || stamps.quick_walk(&repo.root));
    let (files, walked) = match quick {
        Some(files) => (files, None),
        None => {
            let walked = phase("walk", || walk(&repo.root, &walk_options(repo)))
                .map_err(|e| UserError::error(e.to_string()))?;
            (Vec::new(), Some(walked))
        }
    };
    let files = walked.as_ref().map_or(&files, |w| &w.files);
    let now = now_ns();
    let (hashes, read) = phase("hash files", || {
        hash_all_stamped(&repo.root_dir, files, &stamps, now)
    });
    // Best effort: the stamp cache is a speed-up; failing to write it changes no answer.
    let recorded = match &walked {
        Some(walked) => Some(Stamps::record_walk(walked, &repo.root, &hashes, now)),
        None if read > 0 => {
            let mut again = stamps.clone();
            again.refresh(files, &hashes, now);
            Some(again)
        }
        None => None,
    };
    if let Some(recorded) = recorded.filter(|r| *r != stamps && stamping == Stamping::Record) {
        let _ = write_atomic(&stamps_path, &recorded.to_bytes());
    }
    let files: BTreeMap<RelPath, ContentHash> = hashes.into_iter().collect();
    Ok(phase("fingerprint", || {
        fingerprint(files, inputs_configuration_hash(repo), analyzer_versions())
    }))
}
