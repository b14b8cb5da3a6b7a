//! Turning a debounced batch of file events into what a refresh must look at.
//!
//! Events the walk would never admit are dropped here (`.doc-bridge/` except the overlay,
//! `.git/`, always-skipped directories, secret-looking names, `safety.exclude`, and the
//! artifacts doc-bridge itself writes outside `.doc-bridge/`), so the loop does not refresh on
//! its own writes or on build output. Git-ignored paths pass this filter (the ignore-file stack
//! needs a walk); the walk of the refresh then finds nothing changed and nothing is rebuilt.

use std::collections::BTreeSet;
use std::path::Path;

use doc_bridge_discover::walk::PathRules;
use doc_bridge_model::RelPath;
use doc_bridge_model::config::CONFIG_FILE;
use notify::EventKind;
use notify_debouncer_full::DebouncedEvent;

use crate::pipeline::OVERLAY_FILE;
use crate::repo::ARTIFACT_DIR;

/// What a batch of events asks of the next refresh.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Batch {
    /// Repository-relative paths named by events that the walk could admit. Files among them are
    /// re-read even when their size and modification time did not move.
    pub paths: BTreeSet<RelPath>,
    /// The configuration file changed: reload it and observe everything again.
    pub config: bool,
    /// The enrichment overlay changed: re-derive the index.
    pub overlay: bool,
    /// The watcher lost events (queue overflow): observe everything again.
    pub rescan: bool,
    /// An event named the root itself (removed or moved away, usually).
    pub root: bool,
    /// Walk again and compare every file's stat, not only those of `paths`: the paths come
    /// from somewhere other than this watcher's events (the MCP server's freshness check), so
    /// they need not name every change since the last refresh.
    pub walk: bool,
}

impl Batch {
    /// Whether nothing in the batch concerns the index.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
            && !self.config
            && !self.overlay
            && !self.rescan
            && !self.root
            && !self.walk
    }

    /// Adds another batch (events that arrived while a refresh ran).
    pub fn merge(&mut self, other: Batch) {
        self.paths.extend(other.paths);
        self.config |= other.config;
        self.overlay |= other.overlay;
        self.rescan |= other.rescan;
        self.root |= other.root;
        self.walk |= other.walk;
    }
}

/// Decides which event paths matter.
pub struct EventFilter {
    root: std::path::PathBuf,
    rules: PathRules,
    /// Files doc-bridge writes inside the tree but outside `.doc-bridge/` (the hook for
    /// `llms.txt`, whose path is configurable): events on them never start a refresh.
    generated: BTreeSet<RelPath>,
    /// The configuration file (`doc-bridge.config.json` unless `--config` named another).
    config_file: String,
}

impl EventFilter {
    /// A filter for `root` with the walk's rules and the paths of generated outputs.
    pub fn new(root: &Path, rules: PathRules, generated: BTreeSet<RelPath>) -> Self {
        EventFilter {
            root: root.to_path_buf(),
            rules,
            generated,
            config_file: CONFIG_FILE.to_owned(),
        }
    }

    /// The filter with another configuration file than [`CONFIG_FILE`] (`--config`).
    pub fn with_config_file(mut self, config_file: &RelPath) -> Self {
        config_file.as_str().clone_into(&mut self.config_file);
        self
    }

    /// Sorts one debounced batch.
    pub fn batch(&self, events: &[DebouncedEvent]) -> Batch {
        let mut batch = Batch::default();
        for event in events {
            if event.need_rescan() {
                batch.rescan = true;
            }
            // Opening and reading change nothing, and the refresh's own reads would otherwise
            // start the next refresh.
            if matches!(event.kind, EventKind::Access(_)) {
                continue;
            }
            for path in &event.paths {
                self.path(path, &mut batch);
            }
        }
        batch
    }

    fn path(&self, path: &Path, batch: &mut Batch) {
        let Ok(rel) = path.strip_prefix(&self.root) else {
            return;
        };
        let mut parts = Vec::new();
        for component in rel.components() {
            match component.as_os_str().to_str() {
                Some(part) => parts.push(part),
                // Not UTF-8: the walk skips it with a diagnostic; a rescan would only repeat it.
                None => return,
            }
        }
        if parts.is_empty() {
            batch.root = true;
            return;
        }
        let Some(rel) = RelPath::new(&parts.join("/")) else {
            return;
        };
        if parts[0] == ARTIFACT_DIR {
            if rel.as_str() == format!("{ARTIFACT_DIR}/{OVERLAY_FILE}") {
                batch.overlay = true;
            }
            return;
        }
        if self.generated.contains(&rel) {
            return;
        }
        let is_dir = path.symlink_metadata().is_ok_and(|m| m.is_dir());
        if !self.rules.admits(&rel, is_dir) {
            return;
        }
        if rel.as_str() == self.config_file {
            batch.config = true;
        }
        batch.paths.insert(rel);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use doc_bridge_discover::WalkOptions;

    fn filter(root: &Path, exclude: &[&str], generated: &[&str]) -> EventFilter {
        let options = WalkOptions {
            exclude: exclude.iter().map(|s| s.to_string()).collect(),
            threads: 1,
            skip_files: Vec::new(),
            defer_stat: false,
        };
        EventFilter::new(
            root,
            PathRules::new(root, &options),
            generated.iter().filter_map(|p| RelPath::new(p)).collect(),
        )
    }

    fn sorted(filter: &EventFilter, paths: &[&str]) -> Batch {
        let mut batch = Batch::default();
        for path in paths {
            filter.path(&filter.root.join(path), &mut batch);
        }
        batch
    }

    #[test]
    fn own_artifacts_git_build_output_secrets_and_excludes_are_dropped() {
        let root = Path::new("/repo");
        let f = filter(root, &["vendor/"], &["llms.txt"]);
        let batch = sorted(
            &f,
            &[
                ".doc-bridge/index.json",
                ".doc-bridge/cache/search.bin",
                ".git/index",
                "node_modules/x/index.js",
                "target/debug/a.rs",
                ".env",
                "config/credentials.md",
                "vendor/lib.ts",
                "llms.txt",
            ],
        );
        assert!(batch.is_empty(), "{batch:?}");
    }

    #[test]
    fn documents_config_overlay_and_root_are_kept_apart() {
        let root = Path::new("/repo");
        let f = filter(root, &[], &[]);
        let batch = sorted(
            &f,
            &[
                "docs/a.md",
                "doc-bridge.config.json",
                ".doc-bridge/enrich/overlay.json",
                "",
            ],
        );
        let paths: Vec<&str> = batch.paths.iter().map(|p| p.as_str()).collect();
        assert_eq!(paths, ["doc-bridge.config.json", "docs/a.md"]);
        assert!(batch.config && batch.overlay && batch.root && !batch.rescan);
    }

    #[test]
    fn a_config_file_chosen_with_config_is_the_one_that_reloads() {
        let root = Path::new("/repo");
        let f = filter(root, &[], &[]).with_config_file(&RelPath::new("ci.config.json").unwrap());
        assert!(sorted(&f, &["ci.config.json"]).config);
        let other = sorted(&f, &["doc-bridge.config.json"]);
        assert!(!other.config && other.paths.len() == 1, "{other:?}");
    }

    #[test]
    fn paths_outside_the_root_are_ignored() {
        let f = filter(Path::new("/repo"), &[], &[]);
        let mut batch = Batch::default();
        f.path(Path::new("/elsewhere/a.md"), &mut batch);
        assert!(batch.is_empty());
    }
}
