//! The repository being worked on: its root, its configuration and its artifact paths.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use doc_bridge_discover::read::{ReadError, RootDir};
use doc_bridge_model::RelPath;
use doc_bridge_model::config::{CONFIG_FILE, Config, DEFAULT_AGENT_ROOT};

use crate::exit::UserError;

/// `.doc-bridge/` under the root.
pub const ARTIFACT_DIR: &str = ".doc-bridge";

/// The directories doc-bridge writes under [`ARTIFACT_DIR`]: none of them may be anything but
/// a real directory (a committed symbolic link would send artifacts outside the root).
const ARTIFACT_SUBDIRS: &[&str] = &[
    "cache",
    "enrich",
    "enrich/cache",
    "enrich/failed",
    "approvals",
];

/// The largest configuration file read.
const MAX_CONFIG_BYTES: u64 = 4 << 20;

/// A repository root with its loaded configuration.
#[derive(Debug, Clone)]
pub struct Repo {
    /// The root directory (canonical).
    pub root: PathBuf,
    /// The configuration (defaults when there is no config file).
    pub config: Config,
    /// Whether a config file exists.
    pub has_config_file: bool,
    /// The root, opened: every repository file is read through it (see
    /// `doc_bridge_discover::read`).
    pub root_dir: Arc<RootDir>,
}

impl Repo {
    /// Opens the repository at `root` (default: the current directory) and loads its config.
    pub fn open(root: Option<&Path>) -> Result<Repo, UserError> {
        let root = match root {
            Some(root) => root.to_path_buf(),
            None => std::env::current_dir()
                .map_err(|e| UserError::error(format!("cannot read the current directory: {e}")))?,
        };
        let root = root.canonicalize().map_err(|e| {
            UserError::error(format!(
                "cannot open repository root {}: {e}",
                root.display()
            ))
        })?;
        if !root.is_dir() {
            return Err(UserError::error(format!(
                "{} is not a directory",
                root.display()
            )));
        }
        let root_dir = RootDir::open(&root).map_err(|e| {
            UserError::error(format!(
                "cannot open repository root {}: {e}",
                root.display()
            ))
        })?;
        check_artifact_dirs(&root)?;
        let config_path = root.join(CONFIG_FILE);
        let (config, has_config_file) = match root_dir.read_file(CONFIG_FILE, MAX_CONFIG_BYTES) {
            Ok(None) => {
                return Err(UserError::error(format!(
                    "{CONFIG_FILE} is larger than {MAX_CONFIG_BYTES} bytes"
                )));
            }
            Ok(Some(bytes)) => {
                let config = Config::parse(&bytes, CONFIG_FILE).map_err(|e| {
                    UserError::error(format!("invalid configuration: {e}; fix the key or run `doc-bridge schema config` to see the format"))
                })?;
                doc_bridge_discover::walk::validate_excludes(&config.safety.exclude).map_err(
                    |e| {
                        UserError::error(format!(
                            "invalid configuration: {CONFIG_FILE}: safety.exclude: {e}"
                        ))
                    },
                )?;
                (config, true)
            }
            Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                (Config::default(), false)
            }
            Err(e) => {
                return Err(UserError::error(format!(
                    "cannot read {}: {e}",
                    config_path.display()
                )));
            }
        };
        Ok(Repo {
            root,
            config,
            has_config_file,
            root_dir: Arc::new(root_dir),
        })
    }

    /// Refuses to write `rel` (repository-relative) when a directory on its way is a symbolic
    /// link or not a directory: a write there would land outside the root.
    pub fn check_inside(&self, rel: &RelPath) -> Result<(), UserError> {
        let mut path = self.root.clone();
        let parts: Vec<&str> = rel.as_str().split('/').collect();
        for part in &parts[..parts.len().saturating_sub(1)] {
            path.push(part);
            match std::fs::symlink_metadata(&path) {
                Ok(meta) if meta.is_dir() => {}
                Ok(_) => {
                    return Err(UserError::error(format!(
                        "{} is not a directory inside the repository (a symbolic link?); refusing to write {rel} through it",
                        path.display()
                    )));
                }
                // Missing: created as a real directory by the write.
                Err(_) => return Ok(()),
            }
        }
        Ok(())
    }

    /// An artifact path under `.doc-bridge/`.
    pub fn artifact(&self, name: &str) -> PathBuf {
        self.root.join(ARTIFACT_DIR).join(name)
    }

    /// The agent corpus root: the configured one, else `docs/for-agents` when it exists.
    pub fn agent_root(&self) -> Option<RelPath> {
        match &self.config.corpus.agent.root {
            Some(root) => RelPath::new(root.trim_start_matches("./").trim_end_matches('/')),
            None => {
                RelPath::new(DEFAULT_AGENT_ROOT).filter(|p| self.root.join(p.as_str()).is_dir())
            }
        }
    }

    /// The project name: configured, else the root package's name (filled in by the caller),
    /// else the root directory's name.
    pub fn default_project_name(&self) -> String {
        self.config.project.name.clone().unwrap_or_else(|| {
            self.root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "repository".to_owned())
        })
    }
}

/// `.doc-bridge` and the directories under it must be real directories where they exist.
fn check_artifact_dirs(root: &Path) -> Result<(), UserError> {
    let base = root.join(ARTIFACT_DIR);
    let dirs = std::iter::once(base.clone()).chain(ARTIFACT_SUBDIRS.iter().map(|d| base.join(d)));
    for dir in dirs {
        match std::fs::symlink_metadata(&dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(meta) => {
                let what = doc_bridge_discover::read::file_kind(&meta.file_type());
                let target = std::fs::read_link(&dir)
                    .map(|t| format!(" to {}", t.display()))
                    .unwrap_or_default();
                return Err(UserError::error(format!(
                    "{} is a {what}{target}, not a directory; doc-bridge keeps its artifacts only inside the repository: remove it (or replace it with a directory) and run again",
                    dir.display()
                )));
            }
            Err(_) => continue,
        }
    }
    Ok(())
}
