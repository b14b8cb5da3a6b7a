//! The repository being worked on: its root, its configuration and its artifact paths.

use std::path::{Path, PathBuf};

use doc_bridge_model::RelPath;
use doc_bridge_model::config::{CONFIG_FILE, Config, DEFAULT_AGENT_ROOT};

use crate::exit::UserError;

/// `.doc-bridge/` under the root.
pub const ARTIFACT_DIR: &str = ".doc-bridge";

/// A repository root with its loaded configuration.
#[derive(Debug, Clone)]
pub struct Repo {
    /// The root directory (canonical).
    pub root: PathBuf,
    /// The configuration (defaults when there is no config file).
    pub config: Config,
    /// Whether a config file exists.
    pub has_config_file: bool,
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
        let config_path = root.join(CONFIG_FILE);
        let (config, has_config_file) = match std::fs::read(&config_path) {
            Ok(bytes) => {
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
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Config::default(), false),
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
        })
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
