//! The walker: every file under the root that the ignore rules and the safety excludes admit.
//!
//! Honours `.gitignore`, `.ignore`, `.git/info/exclude` and the global git excludes, inside and
//! outside a git repository. Never follows a symbolic link, so it can neither leave the root nor
//! loop. The parallel walk returns entries in arbitrary order; they are sorted by path before
//! anything else sees them.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use doc_bridge_model::RelPath;
use doc_bridge_model::snapshot::{Diagnostic, Severity};
use doc_bridge_store::artifact::TEMP_PREFIX;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::{DirEntry, WalkBuilder, WalkState};

/// Whether a directory the walk would skip by its name is source after all: a Python package
/// (it holds `__init__.py`: pip's `_internal/operations/build/`), never build output.
fn is_source_package(dir: &Path) -> bool {
    dir.join("__init__.py").is_file()
}

/// Output directory names (`build`, `dist`, `coverage`) that may also name a source package.
const OUTPUT_DIRS: &[&str] = &["dist", "build", "coverage"];

/// Directory names never walked, at any depth (but a Python package named `build`, `dist` or
/// `coverage`, [`is_source_package`]).
pub const ALWAYS_SKIPPED_DIRS: &[&str] = &[
    ".git",
    ".doc-bridge",
    "node_modules",
    "target",
    "dist",
    "build",
    "coverage",
];

/// A file the walk admitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkedFile {
    /// Repository-relative path.
    pub path: RelPath,
    /// Absolute (or root-joined) path for reading.
    pub full_path: PathBuf,
    /// Size in bytes when walked.
    pub bytes: u64,
    /// Modification time when walked (nanoseconds since the epoch), when the platform has one.
    pub modified_ns: Option<i128>,
}

/// The walk's result: files sorted by path, and problems met on the way.
#[derive(Debug, Default)]
pub struct Walk {
    /// Admitted files, sorted by path (code point order).
    pub files: Vec<WalkedFile>,
    /// Unreadable directories, skipped symbolic links, undecodable names.
    pub diagnostics: Vec<Diagnostic>,
    /// Every directory the walk entered (the root included), with its modification time: a
    /// directory whose time has not moved lists the same entries (see `stamps::Stamps::quick_walk`).
    pub dirs: Vec<(RelPath, Option<i128>)>,
}

/// Walk options.
#[derive(Debug, Clone, Default)]
pub struct WalkOptions {
    /// `safety.exclude` globs, in gitignore syntax, relative to the root.
    pub exclude: Vec<String>,
    /// Walker threads; 0 picks a default.
    pub threads: usize,
    /// Files doc-bridge itself writes into the tree (`llms.txt`): never inputs, or writing them
    /// would make the index stale.
    pub skip_files: Vec<RelPath>,
    /// Leave each file's `bytes` and `modified_ns` unset (0 and `None`) for the caller to fill
    /// in when it opens the file ([`crate::observe::observe_and_stat_all`]): a stat by path per
    /// file is most of a walk's time, and a directory's files are visited by one walker thread.
    pub defer_stat: bool,
}

/// Whether a file or directory name looks like a secret store (`.env*`, `*secret*`,
/// `*credential*`, `*.pem`, `*.key`). Compared case-insensitively.
pub fn looks_like_secret(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with(".env")
        || lower.contains("secret")
        || lower.contains("credential")
        || lower.ends_with(".pem")
        || lower.ends_with(".key")
}

/// Walks `root`.
pub fn walk(root: &Path, options: &WalkOptions) -> Result<Walk, WalkError> {
    let meta = std::fs::metadata(root).map_err(|source| WalkError {
        root: root.to_path_buf(),
        source,
    })?;
    if !meta.is_dir() {
        return Err(WalkError {
            root: root.to_path_buf(),
            source: std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"),
        });
    }
    let excludes = build_excludes(root, &options.exclude);
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(false)
        .follow_links(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(true)
        .ignore(true)
        .require_git(false)
        .parents(true)
        .threads(options.threads);
    {
        let root = root.to_path_buf();
        let excludes = excludes.clone();
        builder.filter_entry(move |entry| admit(&root, &excludes, entry));
    }

    let found: Mutex<Walk> = Mutex::new(Walk::default());
    let defer_stat = options.defer_stat;
    builder.build_parallel().run(|| {
        let found = &found;
        let root = root.to_path_buf();
        Box::new(move |result| {
            let outcome = visit(&root, result, defer_stat);
            if let Ok(mut walk) = found.lock() {
                match outcome {
                    Visit::File(file) => walk.files.push(file),
                    Visit::Dir(path, modified_ns) => walk.dirs.push((path, modified_ns)),
                    Visit::Problem(diagnostic) => walk.diagnostics.push(*diagnostic),
                    Visit::Nothing => {}
                }
            }
            WalkState::Continue
        })
    });
    let mut walk = found
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    walk.files.sort_by(|a, b| a.path.cmp(&b.path));
    walk.files.dedup_by(|a, b| a.path == b.path);
    walk.files.retain(|f| !options.skip_files.contains(&f.path));
    walk.dirs.sort();
    walk.dirs.dedup_by(|a, b| a.0 == b.0);
    walk.diagnostics
        .sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    Ok(walk)
}

enum Visit {
    File(WalkedFile),
    Dir(RelPath, Option<i128>),
    Problem(Box<Diagnostic>),
    Nothing,
}

fn visit(root: &Path, result: Result<DirEntry, ignore::Error>, defer_stat: bool) -> Visit {
    let entry = match result {
        Ok(entry) => entry,
        Err(error) => {
            let path = error_path(&error)
                .and_then(|p| relative(root, p))
                .unwrap_or_else(RelPath::root);
            return Visit::Problem(Box::new(Diagnostic::new(
                "walk-error",
                Severity::Warning,
                path,
                None,
                format!(
                    "could not walk this path ({}); it was skipped",
                    short_io_error(&error)
                ),
                None,
            )));
        }
    };
    let Some(file_type) = entry.file_type() else {
        return Visit::Nothing;
    };
    if file_type.is_dir() {
        return match relative(root, entry.path()) {
            Some(path) => Visit::Dir(path, modified_ns(entry.metadata().ok())),
            None => Visit::Nothing,
        };
    }
    let Some(path) = relative(root, entry.path()) else {
        return Visit::Problem(Box::new(Diagnostic::new(
            "unreadable-path",
            Severity::Warning,
            lossy_relative(root, entry.path()),
            None,
            "file name is not valid UTF-8; the file was skipped",
            None,
        )));
    };
    if file_type.is_symlink() {
        return Visit::Problem(Box::new(Diagnostic::new(
            "symlink-skipped",
            Severity::Info,
            path,
            None,
            "symbolic links are never followed; index the target at its real path",
            None,
        )));
    }
    if !file_type.is_file() {
        let what = crate::read::file_kind(&file_type);
        return Visit::Problem(Box::new(Diagnostic::new(
            "special-file-skipped",
            Severity::Info,
            path,
            None,
            format!("a {what} is not a regular file; it was skipped"),
            None,
        )));
    }
    let metadata = if defer_stat {
        None
    } else {
        entry.metadata().ok()
    };
    let bytes = metadata.as_ref().map(|m| m.len()).unwrap_or(0);
    let modified_ns = modified_ns(metadata);
    Visit::File(WalkedFile {
        path,
        full_path: entry.into_path(),
        bytes,
        modified_ns,
    })
}

/// Decides whether the walk enters a directory or yields a file.
fn admit(root: &Path, excludes: &Option<Gitignore>, entry: &DirEntry) -> bool {
    if entry.depth() == 0 {
        return true;
    }
    let name = entry.file_name().to_string_lossy();
    let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
    if is_dir
        && ALWAYS_SKIPPED_DIRS.contains(&name.as_ref())
        && !(OUTPUT_DIRS.contains(&name.as_ref()) && is_source_package(entry.path()))
    {
        return false;
    }
    if !is_dir && name.starts_with(TEMP_PREFIX) {
        return false;
    }
    if looks_like_secret(&name) {
        return false;
    }
    if let Some(excludes) = excludes
        && let Ok(rel) = entry.path().strip_prefix(root)
        && excludes
            .matched_path_or_any_parents(rel, is_dir)
            .is_ignore()
    {
        return false;
    }
    true
}

/// The walk's own exclusion rules for a single repository-relative path, without walking:
/// always-skipped directories, secret-looking names and the `safety.exclude` globs, applied to
/// the path and each of its parents. Git ignore files are not consulted (they need the whole
/// stack of ignore files above the path); callers that must honour them walk.
///
/// Used by the watch loop to drop file events the walk would never admit.
#[derive(Debug, Clone)]
pub struct PathRules {
    root: std::path::PathBuf,
    excludes: Option<Gitignore>,
}

impl PathRules {
    /// The rules of a walk of `root` with these options.
    pub fn new(root: &Path, options: &WalkOptions) -> Self {
        PathRules {
            root: root.to_path_buf(),
            excludes: build_excludes(root, &options.exclude),
        }
    }

    /// Whether the walk could admit `path` (or, for a directory, something under it).
    pub fn admits(&self, path: &RelPath, is_dir: bool) -> bool {
        if path.is_root() {
            return true;
        }
        let parts: Vec<&str> = path.as_str().split('/').collect();
        let last = parts.len() - 1;
        for (i, name) in parts.iter().enumerate() {
            let dir = i < last || is_dir;
            if dir
                && ALWAYS_SKIPPED_DIRS.contains(name)
                && !(OUTPUT_DIRS.contains(name)
                    && is_source_package(&self.root.join(parts[..=i].join("/"))))
            {
                return false;
            }
            if !dir && name.starts_with(TEMP_PREFIX) {
                return false;
            }
            if looks_like_secret(name) {
                return false;
            }
        }
        match &self.excludes {
            Some(excludes) => !excludes
                .matched_path_or_any_parents(Path::new(path.as_str()), is_dir)
                .is_ignore(),
            None => true,
        }
    }
}

/// The repository's root `.gitignore`, asked of paths the tree does not hold: a link into
/// what it ignores (`doc/source/api*`, pages a script generates before the docs build) names
/// build output. Nested `.gitignore` files are not read here.
#[derive(Debug, Clone, Default)]
pub struct RootIgnore(Option<Gitignore>);

impl RootIgnore {
    /// Reads `root/.gitignore`; no rules when it is missing or unreadable.
    pub fn read(root: &Path) -> Self {
        let mut builder = GitignoreBuilder::new(root);
        if builder.add(root.join(".gitignore")).is_some() {
            return RootIgnore(None);
        }
        RootIgnore(builder.build().ok().filter(|rules| !rules.is_empty()))
    }

    /// Whether the rules ignore `path` as a file, or one of its parent directories.
    pub fn ignores(&self, path: &RelPath) -> bool {
        self.0.as_ref().is_some_and(|rules| {
            !path.is_root()
                && rules
                    .matched_path_or_any_parents(Path::new(path.as_str()), false)
                    .is_ignore()
        })
    }
}

/// Checks `safety.exclude` globs (gitignore syntax); the error names the first bad glob.
pub fn validate_excludes(globs: &[String]) -> Result<(), ExcludeError> {
    let mut builder = GitignoreBuilder::new("/");
    for glob in globs {
        builder
            .add_line(None, glob)
            .map_err(|source| ExcludeError::Glob {
                glob: glob.clone(),
                source,
            })?;
    }
    builder.build().map(|_| ()).map_err(ExcludeError::Set)
}

/// Why `safety.exclude` cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ExcludeError {
    /// One glob does not parse.
    #[error("`{glob}` is not a valid glob: {source}")]
    Glob {
        /// The glob as configured.
        glob: String,
        /// What the matcher said.
        source: ignore::Error,
    },
    /// The globs do not build into one matcher.
    #[error("{0}")]
    Set(ignore::Error),
}

fn build_excludes(root: &Path, globs: &[String]) -> Option<Gitignore> {
    if globs.is_empty() {
        return None;
    }
    let mut builder = GitignoreBuilder::new(root);
    for glob in globs {
        // Invalid globs are rejected when the config is validated; skip defensively here.
        let _ = builder.add_line(None, glob);
    }
    builder.build().ok()
}

/// The repository-relative form of `path`, or `None` when it is not valid UTF-8.
/// A modification time in nanoseconds since the epoch.
pub(crate) fn modified_ns(metadata: Option<std::fs::Metadata>) -> Option<i128> {
    metadata
        .and_then(|m| m.modified().ok())
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| d.as_nanos() as i128)
}

/// The repository-relative form of a path whose name is not UTF-8, with the undecodable bytes
/// replaced (U+FFFD), so a diagnostic names the file and not the root.
fn lossy_relative(root: &Path, path: &Path) -> RelPath {
    let rel = path.strip_prefix(root).unwrap_or(path);
    RelPath::new(&rel.to_string_lossy().replace('\\', "/")).unwrap_or_else(RelPath::root)
}

fn relative(root: &Path, path: &Path) -> Option<RelPath> {
    let rel = path.strip_prefix(root).ok()?;
    let mut parts = Vec::new();
    for component in rel.components() {
        parts.push(component.as_os_str().to_str()?);
    }
    if parts.is_empty() {
        return Some(RelPath::root());
    }
    RelPath::new(&parts.join("/"))
}

fn error_path(error: &ignore::Error) -> Option<&Path> {
    match error {
        ignore::Error::WithPath { path, .. } => Some(path),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child),
        _ => None,
    }
}

fn short_io_error(error: &ignore::Error) -> String {
    match error.io_error() {
        Some(io) => io.kind().to_string(),
        None => "walk error".to_owned(),
    }
}

/// The root could not be walked at all.
#[derive(Debug, thiserror::Error)]
#[error("cannot walk {}: {source}", root.display())]
pub struct WalkError {
    /// The root.
    pub root: PathBuf,
    /// Why.
    pub source: std::io::Error,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_store_names_are_recognised() {
        for name in [
            ".env",
            ".env.local",
            "my-secrets.json",
            "aws_credentials",
            "id.pem",
            "tls.KEY",
        ] {
            assert!(looks_like_secret(name), "{name}");
        }
        for name in ["environment.md", "keys.md", "keyboard.ts"] {
            assert!(!looks_like_secret(name), "{name}");
        }
    }

    #[test]
    fn a_python_package_named_build_is_walked_and_build_output_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let write = |path: &str| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x = 1\n").unwrap();
        };
        write("src/pip/operations/build/__init__.py");
        write("src/pip/operations/build/wheel.py");
        write("build/lib/pip/x.py");
        write("dist/__main__.py");
        let walked = walk(dir.path(), &WalkOptions::default()).unwrap();
        let paths: Vec<&str> = walked.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "src/pip/operations/build/__init__.py",
                "src/pip/operations/build/wheel.py"
            ]
        );
        let rules = PathRules::new(dir.path(), &WalkOptions::default());
        let admits = |path: &str| rules.admits(&RelPath::new(path).unwrap(), false);
        assert!(admits("src/pip/operations/build/wheel.py"));
        assert!(!admits("build/lib/pip/x.py"));
        assert!(!admits("node_modules/p/__init__.py"));
    }

    #[test]
    fn artifacts_in_flight_are_never_inputs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("page.md"), "# Page\n").unwrap();
        // What `write_atomic` leaves while it writes `llms.txt` at the root.
        let in_flight = format!("{TEMP_PREFIX}a1b2c3");
        std::fs::write(dir.path().join(&in_flight), "# partial").unwrap();
        let walked = walk(dir.path(), &WalkOptions::default()).unwrap();
        let paths: Vec<&str> = walked.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["page.md"]);
        let rules = PathRules::new(dir.path(), &WalkOptions::default());
        assert!(!rules.admits(&RelPath::new(&in_flight).unwrap(), false));
        assert!(rules.admits(&RelPath::new("page.md").unwrap(), false));
    }
}
