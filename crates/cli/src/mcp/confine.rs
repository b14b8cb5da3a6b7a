//! Path confinement for `read_document`: a requested path is resolved (`..`, symbolic links) and
//! admitted only when it lands on a regular file inside the canonical root that the walker would
//! not skip for safety.

use std::path::{Path, PathBuf};

use doc_bridge_discover::walk::{ALWAYS_SKIPPED_DIRS, looks_like_secret};
use doc_bridge_model::RelPath;

/// The longest path accepted, in bytes.
pub const MAX_PATH_BYTES: usize = 4096;

/// A path admitted inside the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confined {
    /// Repository-relative, `/`-separated, after resolution.
    pub rel: RelPath,
    /// The resolved file on disk.
    pub full: PathBuf,
}

/// Resolves `requested` against `root` (which must be canonical). Refuses absolute paths, paths
/// that resolve outside the root (through `..` or links), paths through directories the walker
/// never enters (`.git`, `.doc-bridge`, ...), secret stores (`.env*`, `*secret*`, ...), and
/// anything that is not a regular file. The message says which.
pub fn confine(root: &Path, requested: &str) -> Result<Confined, String> {
    if requested.trim().is_empty() {
        return Err("`path` is empty; give a repository-relative file path".to_owned());
    }
    if requested.len() > MAX_PATH_BYTES || requested.contains('\0') {
        return Err("`path` is not a usable file path".to_owned());
    }
    let asked = Path::new(requested);
    if asked.is_absolute() || requested.starts_with('\\') {
        return Err(format!(
            "`{requested}` is absolute; give a path relative to the repository root"
        ));
    }
    // Climbing above the root is refused before anything outside it is looked at, so the answer
    // never tells whether a file exists out there.
    let mut depth: usize = 0;
    for component in asked.components() {
        match component {
            std::path::Component::ParentDir if depth == 0 => {
                return Err(format!(
                    "`{requested}` resolves outside the repository root; only files inside it can be read"
                ));
            }
            std::path::Component::ParentDir => depth -= 1,
            std::path::Component::Normal(_) => depth += 1,
            _ => {}
        }
    }
    let joined = root.join(asked);
    let full = joined.canonicalize().map_err(|_| {
        format!("no file at `{requested}` in the repository; search or lookup give valid paths")
    })?;
    let Ok(inside) = full.strip_prefix(root) else {
        return Err(format!(
            "`{requested}` resolves outside the repository root; only files inside it can be read"
        ));
    };
    let mut parts: Vec<String> = Vec::new();
    for component in inside.components() {
        let std::path::Component::Normal(name) = component else {
            return Err(format!("`{requested}` is not a plain repository path"));
        };
        let Some(name) = name.to_str() else {
            return Err(format!("`{requested}` has a name that is not UTF-8"));
        };
        parts.push(name.to_owned());
    }
    let dirs = parts.len().saturating_sub(1);
    for (i, name) in parts.iter().enumerate() {
        if i < dirs && ALWAYS_SKIPPED_DIRS.contains(&name.as_str()) {
            return Err(format!(
                "`{requested}` is inside `{name}/`, which doc-bridge never reads"
            ));
        }
        if looks_like_secret(name) {
            return Err(format!(
                "`{requested}` looks like a secret store; doc-bridge never reads those"
            ));
        }
    }
    let rel = RelPath::new(&parts.join("/"))
        .filter(|p| !p.is_root())
        .ok_or_else(|| format!("`{requested}` is not a file path"))?;
    let metadata =
        std::fs::metadata(&full).map_err(|e| format!("cannot read `{requested}`: {e}"))?;
    if !metadata.is_file() {
        return Err(format!("`{requested}` is not a regular file"));
    }
    Ok(Confined { rel, full })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn repo() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir_all(root.join("docs")).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join("docs/a.md"), "# A\n").unwrap();
        std::fs::write(root.join(".git/config"), "x").unwrap();
        std::fs::write(root.join(".env"), "KEY=1").unwrap();
        std::fs::write(dir.path().join("outside.md"), "no").unwrap();
        let root = root.canonicalize().unwrap();
        (dir, root)
    }

    #[test]
    fn a_plain_path_and_a_dotted_one_resolve_to_the_same_file() {
        let (_dir, root) = repo();
        let a = confine(&root, "docs/a.md").unwrap();
        assert_eq!(a.rel.as_str(), "docs/a.md");
        assert_eq!(confine(&root, "docs/../docs/./a.md").unwrap(), a);
    }

    #[test]
    fn escapes_and_unsafe_places_are_refused() {
        let (_dir, root) = repo();
        for (path, why) in [
            ("../outside.md", "outside the repository"),
            ("docs/../../outside.md", "outside the repository"),
            ("/etc/passwd", "absolute"),
            (".git/config", "never reads"),
            (".env", "secret store"),
            ("docs", "not a regular file"),
            ("", "empty"),
            ("missing.md", "no file"),
        ] {
            let error = confine(&root, path).unwrap_err();
            assert!(error.contains(why), "{path}: {error}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_pointing_out_of_the_root_is_refused() {
        let (dir, root) = repo();
        std::os::unix::fs::symlink(dir.path().join("outside.md"), root.join("docs/link.md"))
            .unwrap();
        let error = confine(&root, "docs/link.md").unwrap_err();
        assert!(error.contains("outside the repository"), "{error}");
    }
}
