//! The repository being worked on: its root, its configuration and its artifact paths.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use doc_bridge_discover::read::{ReadError, RootDir};
use doc_bridge_model::RelPath;
use doc_bridge_model::config::{CONFIG_FILE, Config, ConfigError, DEFAULT_AGENT_ROOT};

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
    /// The configuration file's name at the root: [`CONFIG_FILE`] unless `--config` named
    /// another.
    pub config_file: RelPath,
    /// The root, opened: every repository file is read through it (see
    /// `doc_bridge_discover::read`).
    pub root_dir: Arc<RootDir>,
}

/// What the configuration file held, for the commands that report on it (`doctor`,
/// `validate-config`) rather than stop at its first error.
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigState {
    /// No configuration file: the defaults apply.
    Defaults,
    /// A valid configuration file.
    Valid,
    /// An invalid file (the repository was opened with the defaults).
    Invalid {
        /// Every error, sorted by key.
        errors: Vec<ConfigError>,
        /// What could be read, the wrong keys set aside (for reporting on what is left, such
        /// as the agents); `None` when nothing could be read.
        read: Option<Box<Config>>,
    },
}

/// The repository root for a command run in `start` without `--root`: the nearest directory,
/// `start` or above, that holds `.doc-bridge/` or `doc-bridge.config.json`; else the nearest that
/// holds `.git` (a work tree, or a worktree's `.git` file); else `start` itself. So a command run
/// anywhere inside a repository answers for the repository (docs/configuration.md).
pub fn discover_root(start: &Path) -> PathBuf {
    let marked = |dir: &Path, names: &[&str]| {
        names
            .iter()
            .any(|name| std::fs::symlink_metadata(dir.join(name)).is_ok())
    };
    let found = |names: &[&str]| {
        start
            .ancestors()
            .find(|dir| marked(dir, names))
            .map(Path::to_path_buf)
    };
    found(&[ARTIFACT_DIR, CONFIG_FILE])
        .or_else(|| found(&[".git"]))
        .unwrap_or_else(|| start.to_path_buf())
}

/// The configuration file `--config` named, for this process: set once, before the command
/// runs, by [`choose_config`]. A [`Repo::open`] of its directory reads it instead of
/// [`CONFIG_FILE`].
static CHOSEN_CONFIG: OnceLock<ChosenConfig> = OnceLock::new();

#[derive(Debug)]
struct ChosenConfig {
    /// Its directory, canonical: the repository root.
    root: PathBuf,
    /// Its file name.
    name: RelPath,
    /// Whether it must exist (every command but `init`, which writes it).
    required: bool,
}

/// Applies `--config FILE`: the file's directory is the repository root (returned), and every
/// [`Repo::open`] of that root in this process reads `FILE`'s name there. `--root` as well must
/// name the same directory. Unless `to_write` (`init`), the file must exist. Errors are usage
/// errors (exit 2).
pub fn choose_config(
    config: &Path,
    root: Option<&Path>,
    to_write: bool,
) -> Result<PathBuf, UserError> {
    let shown = config.display();
    let name = config
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(RelPath::new)
        .ok_or_else(|| UserError::error(format!("--config {shown}: not a file name")))?;
    let dir = match config.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let dir = dir.canonicalize().map_err(|e| {
        UserError::error(format!(
            "--config {shown}: cannot open its directory {}: {e}",
            dir.display()
        ))
    })?;
    if !to_write {
        match std::fs::symlink_metadata(dir.join(name.as_str())) {
            Ok(meta) if meta.is_dir() => {
                return Err(UserError::error(format!(
                    "--config {shown} is a directory; give the configuration file (or use --root DIR)"
                )));
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(UserError::error(format!(
                    "--config {shown}: no such file; give an existing configuration file, or leave --config out to use {CONFIG_FILE} (or the defaults)"
                )));
            }
            Err(e) => {
                return Err(UserError::error(format!("--config {shown}: {e}")));
            }
        }
    }
    if let Some(root) = root {
        let same = root.canonicalize().is_ok_and(|root| root == dir);
        if !same {
            return Err(UserError::error(format!(
                "--config {shown} belongs to the repository at {}, but --root names {}; give one of them (the configuration file's directory is the root)",
                dir.display(),
                root.display()
            )));
        }
    }
    // Set once per process (`run` calls this once); a second choice would be a programming
    // error, and the first one stands.
    let _ = CHOSEN_CONFIG.set(ChosenConfig {
        root: dir.clone(),
        name,
        required: !to_write,
    });
    Ok(dir)
}

impl Repo {
    /// Opens the repository at `root` (default: [`discover_root`] from the current directory)
    /// and loads its config;
    /// an invalid configuration is an error naming the first wrong key (exit 2).
    pub fn open(root: Option<&Path>) -> Result<Repo, UserError> {
        let (repo, state) = Repo::open_checked(root)?;
        match state {
            ConfigState::Defaults | ConfigState::Valid => Ok(repo),
            ConfigState::Invalid { errors, .. } => {
                let more = match errors.len() {
                    0 | 1 => String::new(),
                    n => format!(" ({n} errors in all: `doc-bridge validate-config` lists them)"),
                };
                let first = errors
                    .first()
                    .map(ToString::to_string)
                    .unwrap_or_else(|| repo.config_file.to_string());
                Err(UserError::error(format!(
                    "invalid configuration: {first}{more}; fix the key or run `doc-bridge schema config` to see the format"
                )))
            }
        }
    }

    /// Opens the repository like [`Repo::open`], but an invalid configuration is not an error:
    /// the repository is opened with the defaults and the state lists every error. I/O errors
    /// (an unreadable file, a configuration that is not a regular file) are errors (exit 2).
    pub fn open_checked(root: Option<&Path>) -> Result<(Repo, ConfigState), UserError> {
        let root = match root {
            Some(root) => root.to_path_buf(),
            None => discover_root(&std::env::current_dir().map_err(|e| {
                UserError::error(format!("cannot read the current directory: {e}"))
            })?),
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
        let chosen = CHOSEN_CONFIG.get().filter(|c| c.root == root);
        let config_file = match chosen {
            Some(chosen) => chosen.name.clone(),
            None => RelPath::new(CONFIG_FILE)
                .ok_or_else(|| UserError::error("internal: the config file name is not a path"))?,
        };
        let config_path = root.join(config_file.as_str());
        let (config, has_config_file, state) = match root_dir
            .read_file(config_file.as_str(), MAX_CONFIG_BYTES)
        {
            Ok(None) => {
                let error = ConfigError {
                    file: config_file.to_string(),
                    key: ".".to_owned(),
                    message: format!("larger than {MAX_CONFIG_BYTES} bytes"),
                };
                let state = ConfigState::Invalid {
                    errors: vec![error],
                    read: None,
                };
                (Config::default(), true, state)
            }
            Ok(Some(bytes)) => match check_config(&bytes, config_file.as_str()) {
                (Some(config), errors) if errors.is_empty() => (config, true, ConfigState::Valid),
                (read, errors) => {
                    let read = read.map(Box::new);
                    let state = ConfigState::Invalid { errors, read };
                    (Config::default(), true, state)
                }
            },
            Err(ReadError::Io(e))
                if e.kind() == std::io::ErrorKind::NotFound
                    && !chosen.is_some_and(|c| c.required) =>
            {
                (Config::default(), false, ConfigState::Defaults)
            }
            Err(e) => {
                return Err(UserError::error(format!(
                    "cannot read {}: {e}",
                    config_path.display()
                )));
            }
        };
        let repo = Repo {
            root,
            config,
            has_config_file,
            config_file,
            root_dir: Arc::new(root_dir),
        };
        Ok((repo, state))
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

/// A configuration file's bytes, parsed and validated ([`Config::parse_all`], and each
/// `safety.exclude` glob the walk could not use): what was read and every error, sorted by key;
/// valid when there is none.
pub fn check_config(bytes: &[u8], file: &str) -> (Option<Config>, Vec<ConfigError>) {
    let (config, mut errors) = Config::parse_all(bytes, file);
    let globs = config.iter().flat_map(|c| c.safety.exclude.iter());
    for (i, glob) in globs.enumerate() {
        if let Err(error) = doc_bridge_discover::walk::validate_excludes(std::slice::from_ref(glob))
        {
            errors.push(ConfigError {
                file: file.to_owned(),
                key: format!("safety.exclude[{i}]"),
                message: error.to_string(),
            });
        }
    }
    errors.sort_by(|a, b| a.key.cmp(&b.key).then(a.message.cmp(&b.message)));
    (config, errors)
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
