//! What the last refresh observed, kept in memory so the next one re-reads only what moved.
//!
//! Every refresh walks the tree again (the same walk `index` does, so ignore rules, safety
//! excludes and symbolic-link handling cannot drift from a cold run), then re-observes only the
//! files that are new, whose (size, modification time) stamp moved, or that an event named. The
//! walk is a `stat` per file; the expensive part, reading and analysing, is limited to changed
//! files.

use std::collections::{BTreeMap, BTreeSet};

use doc_bridge_discover::analysis_cache::AnalysisCache;
use doc_bridge_discover::observe::{ObservedFile, observe_all};
use doc_bridge_discover::walk::{Walk, WalkedFile};
use doc_bridge_model::RelPath;
use doc_bridge_model::snapshot::{Diagnostic, FileClass};

/// A file's stamp as the walk saw it: size and modification time.
type Stamp = (u64, Option<i128>);

/// The per-file facts of the last refresh, keyed by path.
#[derive(Default)]
pub struct Observations {
    files: BTreeMap<RelPath, (Stamp, ObservedFile)>,
    walk_diagnostics: Vec<Diagnostic>,
    walked: Vec<WalkedFile>,
}

/// What a refresh changed in the inventory.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Changes {
    /// Paths admitted now and not before.
    pub added: Vec<RelPath>,
    /// Paths admitted before and not now.
    pub removed: Vec<RelPath>,
    /// Paths whose content hash, class or analysis inputs moved.
    pub modified: Vec<RelPath>,
    /// Files re-read (changed or not).
    pub reread: usize,
    /// Files that vanished between the walk and the read (left out; their removal event brings
    /// the next refresh).
    pub vanished: Vec<RelPath>,
}

impl Changes {
    /// Whether the inventory or any file's content moved.
    pub fn any(&self) -> bool {
        !(self.added.is_empty() && self.removed.is_empty() && self.modified.is_empty())
    }

    /// The number of files added, removed or modified.
    pub fn count(&self) -> usize {
        self.added.len() + self.removed.len() + self.modified.len()
    }
}

impl Observations {
    /// Applies a fresh walk: re-observes new files, files whose stamp moved and the `forced`
    /// paths (named by file events: an edit can keep size and modification time), and keeps
    /// the previous observation of every other file.
    pub fn refresh(
        &mut self,
        walk: Walk,
        forced: &BTreeSet<RelPath>,
        max_file_bytes: u64,
        cache: &AnalysisCache,
    ) -> Changes {
        let mut changes = Changes::default();
        let to_read: Vec<WalkedFile> = walk
            .files
            .iter()
            .filter(|file| match self.files.get(&file.path) {
                None => true,
                Some((stamp, _)) => {
                    *stamp != (file.bytes, file.modified_ns) || forced.contains(&file.path)
                }
            })
            .cloned()
            .collect();
        changes.reread = to_read.len();
        let fresh = observe_all(&to_read, max_file_bytes, cache, &|| {});
        let mut fresh: BTreeMap<RelPath, (Stamp, ObservedFile)> = to_read
            .iter()
            .zip(fresh)
            .filter_map(|(walked, observed)| {
                if vanished(walked, &observed) {
                    changes.vanished.push(walked.path.clone());
                    return None;
                }
                Some((
                    walked.path.clone(),
                    ((walked.bytes, walked.modified_ns), observed),
                ))
            })
            .collect();
        let gone: BTreeSet<&RelPath> = changes.vanished.iter().collect();
        let mut next = BTreeMap::new();
        for file in &walk.files {
            let path = &file.path;
            if gone.contains(path) {
                // Left in `self.files` when known before, so it is counted as removed below.
                continue;
            }
            let previous = self.files.remove(path);
            match (fresh.remove(path), previous) {
                (Some(entry), Some((_, old))) => {
                    if !same_observation(&old, &entry.1) {
                        changes.modified.push(path.clone());
                    }
                    next.insert(path.clone(), entry);
                }
                (Some(entry), None) => {
                    changes.added.push(path.clone());
                    next.insert(path.clone(), entry);
                }
                (None, Some(entry)) => {
                    next.insert(path.clone(), entry);
                }
                // Not reachable: every new path was read, and vanished ones were skipped above.
                (None, None) => {}
            }
        }
        // Whatever is left was admitted before and is not now (or vanished mid-read).
        changes.removed = std::mem::take(&mut self.files).into_keys().collect();
        self.files = next;
        self.walked = walk
            .files
            .into_iter()
            .filter(|f| self.files.contains_key(&f.path))
            .collect();
        self.walk_diagnostics = walk.diagnostics;
        changes
    }

    /// Every observed file, in walk (path) order.
    pub fn observed(&self) -> Vec<ObservedFile> {
        self.files.values().map(|(_, o)| o.clone()).collect()
    }

    /// The walk's diagnostics of the last refresh.
    pub fn walk_diagnostics(&self) -> Vec<Diagnostic> {
        self.walk_diagnostics.clone()
    }

    /// The walked files of the last refresh that were observed (for the stamp cache).
    pub fn walked(&self) -> &[WalkedFile] {
        &self.walked
    }
}

/// Whether two observations of a path would feed the snapshot the same facts. The content hash
/// and class decide: analysis is a pure function of the bytes and the configuration, and a
/// configuration change starts from empty observations.
fn same_observation(a: &ObservedFile, b: &ObservedFile) -> bool {
    a.record == b.record && a.diagnostics == b.diagnostics
}

/// A file the walk listed but that was gone when it was read: an unreadable record whose path no
/// longer exists. A cold `index` of the tree as it is now would not list it either.
fn vanished(walked: &WalkedFile, observed: &ObservedFile) -> bool {
    observed.record.class == FileClass::Unreadable
        && observed
            .diagnostics
            .iter()
            .any(|d| d.code == "unreadable-file")
        && walked.full_path.symlink_metadata().is_err()
}
