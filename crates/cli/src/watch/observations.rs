//! What the last refresh observed, kept in memory so the next one re-reads only what moved.
//!
//! A refresh walks the tree again (the same walk `index` does, so ignore rules, safety excludes
//! and symbolic-link handling cannot drift from a cold run), then re-observes only the files
//! that are new, whose (size, modification time) stamp moved, or that an event named. The walk
//! is a `stat` per file; the expensive part, reading and analysing, is limited to changed files.
//!
//! When the events named only files the last walk admitted, that are still regular files and
//! are not ignore files, the walk is known without walking ([`Observations::restat`]): the
//! same files, those few stat'ed again. Any other change to the tree would have raised an event
//! of its own.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use doc_bridge_discover::analysis_cache::AnalysisCache;
use doc_bridge_discover::observe::{ObservedFile, observe_all};
use doc_bridge_discover::read::RootDir;
use doc_bridge_discover::stat::{FileStat, stat_files};
use doc_bridge_discover::walk::{Walk, WalkedFile};
use doc_bridge_model::RelPath;
use doc_bridge_model::snapshot::{Diagnostic, FileClass};

/// The files whose content decides what the walk admits (`crates/discover/src/walk.rs` honours
/// these two inside the tree).
const IGNORE_FILES: [&str; 2] = [".gitignore", ".ignore"];

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
        root: &RootDir,
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
        let fresh = observe_all(root, &to_read, max_file_bytes, cache, &|| {});
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

    /// The walk a refresh would make when only `paths` changed (none: the enrichment overlay,
    /// which is not a walked file): the last walk, with those files stat'ed again. `None` when that cannot be known without walking: nothing walked yet, a
    /// path the last walk did not admit (new, ignored, a directory), one that is no longer a
    /// regular file (removed, replaced), or an ignore file (it changes what the walk admits).
    pub fn restat(&self, root: &Path, paths: &BTreeSet<RelPath>) -> Option<Walk> {
        if self.walked.is_empty() {
            return None;
        }
        let admitted_file = |path: &RelPath| {
            self.files.contains_key(path) && !IGNORE_FILES.contains(&path.file_name())
        };
        if !paths.iter().all(admitted_file) {
            return None;
        }
        let names: Vec<&str> = paths.iter().map(RelPath::as_str).collect();
        let stats: BTreeMap<&RelPath, FileStat> = paths
            .iter()
            .zip(stat_files(root, &names))
            .map(|(path, stat)| stat.map(|stat| (path, stat)))
            .collect::<Option<_>>()?;
        let files = self
            .walked
            .iter()
            .map(|file| match stats.get(&file.path) {
                Some(stat) => WalkedFile {
                    bytes: stat.bytes,
                    modified_ns: stat.modified_ns,
                    ..file.clone()
                },
                None => file.clone(),
            })
            .collect();
        Some(Walk {
            files,
            diagnostics: self.walk_diagnostics.clone(),
            dirs: Vec::new(),
        })
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use doc_bridge_discover::walk::{WalkOptions, walk};

    fn paths(list: &[&str]) -> BTreeSet<RelPath> {
        list.iter().map(|p| RelPath::new(p).unwrap()).collect()
    }

    fn listing(walk: &Walk) -> Vec<(String, u64, Option<i128>)> {
        walk.files
            .iter()
            .map(|f| (f.path.as_str().to_owned(), f.bytes, f.modified_ns))
            .collect()
    }

    #[test]
    fn restat_is_the_walk_when_only_admitted_files_changed_and_declines_otherwise() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir(root.join("docs")).unwrap();
        std::fs::write(root.join("docs/a.md"), "# A\n").unwrap();
        std::fs::write(root.join("docs/b.md"), "# B\n").unwrap();
        std::fs::write(root.join(".gitignore"), "ignored/\n").unwrap();
        let options = WalkOptions::default();
        let mut observations = Observations::default();
        assert!(observations.restat(root, &paths(&["docs/a.md"])).is_none());
        let first = walk(root, &options).unwrap();
        observations.refresh(
            &RootDir::open(root).unwrap(),
            first,
            &BTreeSet::new(),
            1 << 20,
            &AnalysisCache::default(),
        );

        std::fs::write(root.join("docs/a.md"), "# A, longer now\n").unwrap();
        let known = observations.restat(root, &paths(&["docs/a.md"])).unwrap();
        assert_eq!(listing(&known), listing(&walk(root, &options).unwrap()));
        let unchanged = observations.restat(root, &BTreeSet::new()).unwrap();
        assert_eq!(unchanged.files.len(), 3);

        // A new file, an ignore file, a removed file: only a walk knows.
        std::fs::write(root.join("docs/c.md"), "# C\n").unwrap();
        assert!(observations.restat(root, &paths(&["docs/c.md"])).is_none());
        assert!(observations.restat(root, &paths(&[".gitignore"])).is_none());
        std::fs::remove_file(root.join("docs/b.md")).unwrap();
        assert!(
            observations
                .restat(root, &paths(&["docs/a.md", "docs/b.md"]))
                .is_none()
        );
    }
}
