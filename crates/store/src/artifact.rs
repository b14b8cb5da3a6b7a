//! Reading and writing artifacts: sorted-key JSON with a trailing newline, written atomically,
//! read strictly. A missing, malformed or hash-mismatched artifact is reported as absent.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Serializes a small artifact people read (`report.json`, approvals, the configuration
/// `init` writes): sorted keys, two-space indentation, trailing newline. The sealed artifacts
/// (`snapshot.json`, `index.json`) are one line of canonical JSON instead (see `sealed.rs`).
pub fn to_artifact_bytes<T: Serialize>(value: &T) -> Result<Vec<u8>, ArtifactError> {
    let mut bytes =
        doc_bridge_model::sorted_json::to_vec(value, doc_bridge_model::sorted_json::Style::Pretty)
            .map_err(|e| ArtifactError::Encode(e.to_string()))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// The name prefix of the temporary files [`write_atomic`] renames into place. The walk never
/// admits such a file: it is an artifact (`llms.txt` is written at the repository root) in
/// flight, possibly another doc-bridge process's, never an input.
pub const TEMP_PREFIX: &str = ".doc-bridge-tmp-";

/// Writes `bytes` to `path` atomically: a temporary file in the same directory, flushed and
/// synced, then renamed over the target. Creates parent directories. Readers never observe a
/// torn file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ArtifactError> {
    replace(path, bytes, true)
}

/// [`write_atomic`] without waiting for the disk: for a derived cache that carries its own
/// checksum and is verified on every read (the search cache). Readers still see the old file or
/// the new one whole; after a power loss the file may be lost or torn, which its reader rejects
/// (and the next `index` writes it again), so waiting for the disk would buy nothing but time.
pub fn write_cache_atomic(path: &Path, bytes: &[u8]) -> Result<(), ArtifactError> {
    replace(path, bytes, false)
}

/// A temporary file beside `path` holding `bytes` (synced when `sync`), renamed over `path`.
fn replace(path: &Path, bytes: &[u8], sync: bool) -> Result<(), ArtifactError> {
    let io = |source| ArtifactError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut tmp = temp_file_beside(path).map_err(io)?;
    tmp.write_all(bytes).map_err(io)?;
    if sync {
        tmp.as_file().sync_all().map_err(io)?;
    }
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Writes `bytes` to `path` atomically unless the file already holds exactly them (an unchanged
/// artifact keeps its file, so watchers and `make`-style tools see no change). Returns whether it
/// wrote.
pub fn write_bytes_if_changed(path: &Path, bytes: &[u8]) -> Result<bool, ArtifactError> {
    prepare_bytes_if_changed(path, bytes)?.commit()
}

/// [`write_bytes_if_changed`] up to, not including, the sync and the rename: the new content is
/// in a temporary file beside `path` (or found equal to the file), and [`PendingWrite::commit`]
/// puts it in place. In between, the caller may do other work while the disk is still busy,
/// knowing the metadata the file will have ([`PendingWrite::metadata`]).
pub fn prepare_bytes_if_changed(path: &Path, bytes: &[u8]) -> Result<PendingWrite, ArtifactError> {
    let io = |source| ArtifactError::Io {
        path: path.to_path_buf(),
        source,
    };
    let unchanged = PendingWrite {
        path: path.to_path_buf(),
        tmp: None,
    };
    // The size first: a file of another size is not read at all.
    let same_size = std::fs::metadata(path).is_ok_and(|m| m.len() == bytes.len() as u64);
    if same_size && std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(unchanged);
    }
    let mut tmp = temp_file_beside(path).map_err(io)?;
    tmp.write_all(bytes).map_err(io)?;
    Ok(PendingWrite {
        tmp: Some(tmp),
        ..unchanged
    })
}

/// An artifact whose new content is complete but not yet in place (see
/// [`prepare_bytes_if_changed`]). Dropped without [`PendingWrite::commit`], it leaves the file
/// as it was and removes its temporary file.
#[derive(Debug)]
pub struct PendingWrite {
    path: PathBuf,
    /// The new content, in a temporary file beside `path`; `None` when `path` already holds it.
    tmp: Option<tempfile::NamedTempFile>,
}

impl PendingWrite {
    /// The metadata the file at the target path will have once committed: its size, inode and
    /// modification time (syncing and renaming change none of them).
    pub fn metadata(&self) -> std::io::Result<std::fs::Metadata> {
        match &self.tmp {
            Some(tmp) => tmp.as_file().metadata(),
            None => std::fs::metadata(&self.path),
        }
    }

    /// Whether committing replaces the file (`false`: it already holds these bytes).
    pub fn changes(&self) -> bool {
        self.tmp.is_some()
    }

    /// Syncs the new content and renames it over the target; returns whether anything was
    /// written (`false`: the file already held exactly this content).
    pub fn commit(self) -> Result<bool, ArtifactError> {
        let Some(tmp) = self.tmp else {
            return Ok(false);
        };
        let io = |source| ArtifactError::Io {
            path: self.path.clone(),
            source,
        };
        tmp.as_file().sync_all().map_err(io)?;
        tmp.persist(&self.path).map_err(|e| io(e.error))?;
        Ok(true)
    }
}

/// A new temporary file in `path`'s directory (created if missing), named with
/// [`TEMP_PREFIX`], to be renamed over `path`.
fn temp_file_beside(path: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX);
    // Temporary files are private by default; artifacts are ordinary files (0644 before umask).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    builder.tempfile_in(dir)
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
    parse_json(path, &bytes).map(Some)
}

/// An artifact read by [`read_json_between`].
#[derive(Debug)]
pub struct ReadBetween<T> {
    /// The parsed artifact.
    pub value: T,
    /// The file's metadata just before the read and just after it.
    pub before: std::fs::Metadata,
    pub after: std::fs::Metadata,
    /// The bytes parsed (a seal can be checked on them, see `sealed::bytes_carry_seal`).
    pub bytes: Vec<u8>,
}

/// [`read_json`], with the metadata of the file read taken from it just before and just after
/// the read: when the two agree (size, modification time, inode), nothing wrote to the file in
/// between, so a record of that file's stamp speaks for the bytes parsed.
pub fn read_json_between<T: DeserializeOwned>(
    path: &Path,
) -> Result<Option<ReadBetween<T>>, ArtifactError> {
    use std::io::Read;
    let io = |source| ArtifactError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(io(source)),
    };
    let before = file.metadata().map_err(io)?;
    let mut bytes = Vec::new();
    // The size comes from the file system: an allocation it cannot have is an error, not an
    // abort (as with `std::fs::read`).
    bytes
        .try_reserve_exact(usize::try_from(before.len()).unwrap_or(usize::MAX))
        .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::OutOfMemory, e)))?;
    file.read_to_end(&mut bytes).map_err(io)?;
    let after = file.metadata().map_err(io)?;
    let value = parse_json(path, &bytes)?;
    Ok(Some(ReadBetween {
        value,
        before,
        after,
        bytes,
    }))
}

/// Parses a whole artifact file's bytes.
fn parse_json<T: DeserializeOwned>(path: &Path, bytes: &[u8]) -> Result<T, ArtifactError> {
    let malformed = |detail: String| ArtifactError::Malformed {
        path: path.to_path_buf(),
        detail,
    };
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|e| malformed(format!("{} (at `{}`)", e.inner(), e.path())))?;
    deserializer
        .end()
        .map_err(|e| malformed(format!("trailing content: {e}")))?;
    Ok(value)
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
        write_cache_atomic(&path, b"three").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"three");
        let names: Vec<_> = std::fs::read_dir(dir.path().join("nested"))
            .unwrap()
            .collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn reading_between_two_looks_parses_like_read_json_and_sees_the_same_file_twice() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        assert!(
            read_json_between::<serde_json::Value>(&path)
                .unwrap()
                .is_none()
        );
        std::fs::write(&path, br#"{"a": [1, 2]}"#).unwrap();
        let ReadBetween {
            value,
            before,
            after,
            bytes,
        } = read_json_between::<serde_json::Value>(&path)
            .unwrap()
            .unwrap();
        assert_eq!(bytes, br#"{"a": [1, 2]}"#);
        assert_eq!(Some(value), read_json(&path).unwrap());
        assert_eq!(before.len(), after.len());
        assert_eq!(before.modified().unwrap(), after.modified().unwrap());
        std::fs::write(&path, b"{").unwrap();
        assert!(matches!(
            read_json_between::<serde_json::Value>(&path),
            Err(ArtifactError::Malformed { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_pending_write_knows_the_final_metadata_and_changes_nothing_until_committed() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/a.json");
        let bytes = b"{\"a\":1}\n";
        // Not committed: no file, no temporary file left.
        drop(prepare_bytes_if_changed(&path, bytes).unwrap());
        assert_eq!(
            std::fs::read_dir(dir.path().join("nested"))
                .unwrap()
                .count(),
            0
        );
        // Committed: the file is in place with the metadata announced before.
        let pending = prepare_bytes_if_changed(&path, bytes).unwrap();
        let announced = pending.metadata().unwrap();
        assert!(pending.changes());
        assert!(pending.commit().unwrap());
        let actual = std::fs::metadata(&path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        let stamp = |m: &std::fs::Metadata| (m.ino(), m.len(), m.mtime_nsec(), m.mtime());
        assert_eq!(stamp(&announced), stamp(&actual));
        // Unchanged: the metadata of the file that stays, and nothing written.
        let pending = prepare_bytes_if_changed(&path, bytes).unwrap();
        assert_eq!(pending.metadata().unwrap().ino(), actual.ino());
        assert!(!pending.commit().unwrap());
        // Same size, other bytes; longer; shorter: written.
        for other in [&b"{\"a\":2}\n"[..], b"{\"a\":22}\n", b"{}\n"] {
            assert!(write_bytes_if_changed(&path, other).unwrap());
            assert_eq!(std::fs::read(&path).unwrap(), other);
        }
        assert_eq!(
            std::fs::read_dir(dir.path().join("nested"))
                .unwrap()
                .count(),
            1
        );
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
