//! Reading and writing artifacts: sorted-key JSON with a trailing newline, written atomically,
//! read strictly. A missing, malformed or hash-mismatched artifact is reported as absent.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Serializes an artifact: keys sorted by code point (serde_json's map is ordered), two-space
/// indentation, trailing newline.
///
/// Inside [`crate::memo::with_memo`] the same bytes are assembled from memoized pieces.
pub fn to_artifact_bytes<T: Serialize>(value: &T) -> Result<Vec<u8>, ArtifactError> {
    if let Some(result) = crate::memo::artifact_bytes(value) {
        return result.map_err(ArtifactError::Encode);
    }
    let mut bytes = crate::sorted_json::to_vec(value, crate::sorted_json::Style::Pretty)
        .map_err(|e| ArtifactError::Encode(e.to_string()))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// [`to_artifact_bytes`] for an artifact sealed to `hash` (its `contentHash`). Inside
/// [`crate::memo::with_memo`], when the memo sealed this artifact to that hash, the sealed
/// fields are written from the seal's memoized pieces without keying every element again;
/// otherwise (and outside a memo) it is [`to_artifact_bytes`].
pub fn to_artifact_bytes_sealed<T: Serialize>(
    value: &T,
    hash: &crate::ContentHash,
) -> Result<Vec<u8>, ArtifactError> {
    match crate::memo::sealed_artifact_bytes(value, hash) {
        Some(result) => result.map_err(ArtifactError::Encode),
        None => to_artifact_bytes(value),
    }
}

/// The name prefix of the temporary files [`write_atomic`] renames into place. The walk never
/// admits such a file: it is an artifact (`llms.txt` is written at the repository root) in
/// flight, possibly another doc-bridge process's, never an input.
pub const TEMP_PREFIX: &str = ".doc-bridge-tmp-";

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed and
/// synced, then renamed over the target. Creates parent directories. Readers never observe a
/// torn file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ArtifactError> {
    let io = |source| ArtifactError::Io {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX);
    // Temporary files are private by default; artifacts are ordinary files (0644 before umask).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    let mut tmp = builder.tempfile_in(dir).map_err(io)?;
    tmp.write_all(bytes).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Writes a serializable artifact atomically.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), ArtifactError> {
    write_atomic(path, &to_artifact_bytes(value)?)
}

/// Reads and strictly parses a JSON artifact. `Ok(None)` when the file does not exist.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<Option<T>, ArtifactError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(ArtifactError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let malformed = |detail: String| ArtifactError::Malformed {
        path: path.to_path_buf(),
        detail,
    };
    let mut deserializer = serde_json::Deserializer::from_slice(&bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|e| malformed(format!("{} (at `{}`)", e.inner(), e.path())))?;
    deserializer
        .end()
        .map_err(|e| malformed(format!("trailing content: {e}")))?;
    Ok(Some(value))
}

/// Artifact I/O failures.
#[derive(Debug, thiserror::Error)]
pub enum ArtifactError {
    /// Reading or writing failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The artifact.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not a valid artifact of the expected type.
    #[error("{}: not a valid artifact: {detail}", path.display())]
    Malformed {
        /// The artifact.
        path: PathBuf,
        /// The parser's complaint.
        detail: String,
    },
    /// The value could not be serialized.
    #[error("cannot encode artifact: {0}")]
    Encode(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn artifact_bytes_sort_keys_and_end_with_newline() {
        let bytes = to_artifact_bytes(&json!({"b": 1, "a": {"d": 2, "c": 3}})).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.ends_with("}\n"));
        assert!(text.find("\"a\"").unwrap() < text.find("\"b\"").unwrap());
        assert!(text.find("\"c\"").unwrap() < text.find("\"d\"").unwrap());
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/a.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path().join("nested"))
            .unwrap()
            .collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn truncated_artifact_is_malformed_and_missing_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        assert!(read_json::<serde_json::Value>(&path).unwrap().is_none());
        std::fs::write(&path, b"{\"a\": [1, 2").unwrap();
        assert!(matches!(
            read_json::<serde_json::Value>(&path),
            Err(ArtifactError::Malformed { .. })
        ));
    }
}
