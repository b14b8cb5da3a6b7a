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
    let mut bytes =
        doc_bridge_model::sorted_json::to_vec(value, doc_bridge_model::sorted_json::Style::Pretty)
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
    hash: &doc_bridge_model::ContentHash,
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
    let mut sink = ChangeWriter::new(path);
    match sink.write_all(bytes) {
        Ok(()) => sink.finish()?.commit(),
        Err(source) => Err(sink.io_error().unwrap_or(ArtifactError::Io {
            path: path.to_path_buf(),
            source,
        })),
    }
}

/// [`write_bytes_if_changed`] for an artifact sealed to `hash` (its `contentHash`). Inside
/// [`crate::memo::with_memo`] the text is streamed from the seal's pieces (see
/// [`to_artifact_bytes_sealed`]) and compared with the file as it is made; a temporary file is
/// started only at the first difference. The whole artifact is then never held in memory.
pub fn write_sealed_if_changed<T: Serialize>(
    path: &Path,
    value: &T,
    hash: &doc_bridge_model::ContentHash,
) -> Result<bool, ArtifactError> {
    prepare_sealed_if_changed(path, value, hash)?.commit()
}

/// [`write_sealed_if_changed`] up to, not including, the sync and the rename: the new content is
/// complete (or found equal to the file) and [`PendingWrite::commit`] puts it in place. In
/// between, the caller may do other work while the disk is still busy, knowing the metadata the
/// file will have ([`PendingWrite::metadata`]).
pub fn prepare_sealed_if_changed<T: Serialize>(
    path: &Path,
    value: &T,
    hash: &doc_bridge_model::ContentHash,
) -> Result<PendingWrite, ArtifactError> {
    let mut sink = ChangeWriter::new(path);
    let written = match crate::memo::write_sealed_artifact(value, hash, &mut sink) {
        Some(written) => written,
        // No memo: the whole artifact, through the same comparison.
        None => sink
            .write_all(&to_artifact_bytes(value)?)
            .map_err(|e| e.to_string()),
    };
    match written {
        Ok(()) => sink.finish(),
        Err(e) => Err(sink.io_error().unwrap_or(ArtifactError::Encode(e))),
    }
}

/// [`prepare_sealed_if_changed`] for an artifact of type `T` sealed to `hash` inside the active
/// encoding memo, with the fields its seal left out (`contentHash`, `generatedAt`, ...) given
/// as `left_out`: for a caller that sealed the artifact but cannot hand over the value with
/// those fields set (another thread still reads it). Fails when the memo holds no such seal.
pub fn prepare_sealed_fields_if_changed<T: ?Sized, F: ?Sized + Serialize>(
    path: &Path,
    left_out: &F,
    hash: &doc_bridge_model::ContentHash,
) -> Result<PendingWrite, ArtifactError> {
    let mut sink = ChangeWriter::new(path);
    let written = crate::memo::write_sealed_fields::<T, F>(left_out, hash, &mut sink)
        .unwrap_or_else(|| {
            Err(format!(
                "no seal of {} to {hash} in the active encoding memo",
                std::any::type_name::<T>()
            ))
        });
    match written {
        Ok(()) => sink.finish(),
        Err(e) => Err(sink.io_error().unwrap_or(ArtifactError::Encode(e))),
    }
}

/// Seals `value` (its semantic hash without `excluded`, the elements of `arrays` keyed ahead)
/// and writes it at the same time, inside the active encoding memo: the hash on one thread
/// while this one writes, compared with the file at `path` on the way as
/// [`prepare_sealed_if_changed`] does.
///
/// `value`'s `contentHash` is a guess: the file's own hash, when the file there is most likely
/// unchanged (every byte then matches, and nothing is written at all), or a placeholder of a
/// hash's length. When the guess is wrong, the hash is put in its place, and so is each
/// `(field, text)` of `if_changed` (another left-out string field whose value depends on
/// whether the content changed, such as `generatedAt`; of the same length as written). Returns
/// the seal and the write, to commit; `None` outside an encoding memo (the caller then seals,
/// and writes after).
pub fn seal_and_prepare<T: Serialize>(
    path: &Path,
    value: &T,
    excluded: &[&str],
    arrays: &[&dyn crate::memo::Prekey],
    if_changed: &[(&str, &str)],
) -> Option<Result<(doc_bridge_model::ContentHash, PendingWrite), ArtifactError>> {
    let mut sink = ChangeWriter::new(path);
    let written = crate::memo::seal_and_write(value, excluded, arrays, &mut sink)?;
    let (hash, fields) = match written {
        Ok(written) => written,
        Err(e) => return Some(Err(sink.io_error().unwrap_or(ArtifactError::Encode(e)))),
    };
    let guessed = fields.iter().find(|field| field.key == "contentHash");
    if guessed.is_some_and(|field| field.text == hash.as_str()) {
        return Some(sink.finish().map(|pending| (hash, pending)));
    }
    let patches = std::iter::once(("contentHash", hash.as_str())).chain(if_changed.iter().copied());
    let patched = sink.finish_new().and_then(|mut pending| {
        for (key, text) in patches {
            let Some(field) = fields.iter().find(|field| field.key == key) else {
                return Err(ArtifactError::Encode(format!("no {key} string written")));
            };
            // Same bytes in the file as in the text: nothing either way needs escaping.
            if field.text.len() != text.len() || !written_as_is(&field.text) || !written_as_is(text)
            {
                return Err(ArtifactError::Encode(format!(
                    "{key}: {text:?} cannot take the place of {:?}",
                    field.text
                )));
            }
            pending
                .patch(field.at, text.as_bytes())
                .map_err(|source| ArtifactError::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
        }
        Ok(pending)
    });
    Some(patched.map(|pending| (hash, pending)))
}

/// Whether a JSON string's text is written as it is (no byte needing an escape).
fn written_as_is(text: &str) -> bool {
    !text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\')
}

/// An artifact whose new content is complete but not yet in place (see
/// [`prepare_sealed_if_changed`]). Dropped without [`PendingWrite::commit`], it leaves the file
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

    /// Overwrites the new content at `offset` with `bytes` (a placeholder of their length).
    fn patch(&mut self, offset: u64, bytes: &[u8]) -> std::io::Result<()> {
        use std::io::{Seek, SeekFrom};
        let Some(tmp) = &self.tmp else {
            return Err(std::io::Error::other("no new content to patch"));
        };
        let mut file = tmp.as_file();
        file.seek(SeekFrom::Start(offset))?;
        file.write_all(bytes)
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

/// Bytes compared with a file's current content while they arrive; from the first difference
/// on, written to a temporary file beside it (which [`ChangeWriter::finish`] renames into place).
struct ChangeWriter<'p> {
    path: &'p Path,
    /// The current content, while everything so far matched it.
    old: Option<Vec<u8>>,
    /// Bytes of `old` matched so far.
    matched: usize,
    tmp: Option<std::io::BufWriter<tempfile::NamedTempFile>>,
    /// The first I/O error, kept to report it with the path.
    error: Option<std::io::Error>,
}

impl<'p> ChangeWriter<'p> {
    fn new(path: &'p Path) -> Self {
        Self {
            path,
            // Missing or unreadable: it will be replaced (or the write fails and says why).
            old: std::fs::read(path).ok(),
            matched: 0,
            tmp: None,
            error: None,
        }
    }

    fn io_error(&mut self) -> Option<ArtifactError> {
        self.error.take().map(|source| ArtifactError::Io {
            path: self.path.to_path_buf(),
            source,
        })
    }

    /// Starts the temporary file with the part of the old content that matched.
    fn diverge(&mut self) -> std::io::Result<&mut std::io::BufWriter<tempfile::NamedTempFile>> {
        let file = temp_file_beside(self.path)?;
        let mut tmp = std::io::BufWriter::with_capacity(1 << 20, file);
        if let Some(old) = self.old.take() {
            tmp.write_all(old.get(..self.matched).unwrap_or_default())?;
        }
        Ok(self.tmp.insert(tmp))
    }

    /// [`ChangeWriter::finish`], with the new content in a temporary file even when it equals
    /// the file (it is about to be patched).
    fn finish_new(mut self) -> Result<PendingWrite, ArtifactError> {
        if self.tmp.is_none() {
            let path = self.path;
            self.diverge().map_err(|source| ArtifactError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        }
        self.finish()
    }

    /// The new content, complete, to be committed ([`PendingWrite::commit`] syncs it and
    /// renames it into place); nothing to commit when it equals the file.
    fn finish(mut self) -> Result<PendingWrite, ArtifactError> {
        let io = |source| ArtifactError::Io {
            path: self.path.to_path_buf(),
            source,
        };
        let unchanged = PendingWrite {
            path: self.path.to_path_buf(),
            tmp: None,
        };
        if self.tmp.is_none() {
            match &self.old {
                // Every byte matched, and there was no more: unchanged.
                Some(old) if old.len() == self.matched => return Ok(unchanged),
                // Shorter than before, or no file: write what was made.
                _ => {
                    self.diverge().map_err(io)?;
                }
            }
        }
        let Some(tmp) = self.tmp.take() else {
            return Ok(unchanged);
        };
        let tmp = tmp.into_inner().map_err(|e| io(e.into_error()))?;
        Ok(PendingWrite {
            tmp: Some(tmp),
            ..unchanged
        })
    }
}

impl Write for ChangeWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let result = (|| {
            if self.tmp.is_none() {
                if let Some(old) = &self.old
                    && old.get(self.matched..self.matched + buf.len()) == Some(buf)
                {
                    self.matched += buf.len();
                    return Ok(());
                }
                self.diverge()?;
            }
            match &mut self.tmp {
                Some(tmp) => tmp.write_all(buf),
                None => Ok(()),
            }
        })();
        match result {
            Ok(()) => Ok(buf.len()),
            Err(e) => {
                let kind = e.kind();
                self.error.get_or_insert(e);
                Err(std::io::Error::from(kind))
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
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

/// [`read_json`], with the metadata of the file read taken from it just before and just after
/// the read: when the two agree (size, modification time, inode), nothing wrote to the file in
/// between, so a record of that file's stamp speaks for the bytes parsed.
pub fn read_json_between<T: DeserializeOwned>(
    path: &Path,
) -> Result<Option<(T, std::fs::Metadata, std::fs::Metadata)>, ArtifactError> {
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
    parse_json(path, &bytes).map(|value| Some((value, before, after)))
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
        let (value, before, after) = read_json_between::<serde_json::Value>(&path)
            .unwrap()
            .unwrap();
        assert_eq!(Some(value), read_json(&path).unwrap());
        assert_eq!(before.len(), after.len());
        assert_eq!(before.modified().unwrap(), after.modified().unwrap());
        std::fs::write(&path, b"{").unwrap();
        assert!(matches!(
            read_json_between::<serde_json::Value>(&path),
            Err(ArtifactError::Malformed { .. })
        ));
    }

    /// Writes `pieces` through a [`ChangeWriter`] at `path`; returns whether it wrote.
    fn write_in_pieces(path: &Path, pieces: &[&[u8]]) -> bool {
        let mut sink = ChangeWriter::new(path);
        for piece in pieces {
            sink.write_all(piece).unwrap();
        }
        sink.finish().unwrap().commit().unwrap()
    }

    #[cfg(unix)]
    #[test]
    fn a_pending_write_knows_the_final_metadata_and_changes_nothing_until_committed() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        let value = json!({"contentHash": "", "b": [1, 2, 3]});
        let hash = doc_bridge_model::hash::semantic_hash(&value, &["contentHash"]).unwrap();
        let bytes = to_artifact_bytes(&value).unwrap();
        // Not committed: no file, no temporary file left.
        drop(prepare_sealed_if_changed(&path, &value, &hash).unwrap());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        // Committed: the file is in place with the metadata announced before.
        let pending = prepare_sealed_if_changed(&path, &value, &hash).unwrap();
        let announced = pending.metadata().unwrap();
        assert!(pending.commit().unwrap());
        let actual = std::fs::metadata(&path).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        assert_eq!(
            (
                announced.ino(),
                announced.len(),
                announced.mtime_nsec(),
                announced.mtime()
            ),
            (
                actual.ino(),
                actual.len(),
                actual.mtime_nsec(),
                actual.mtime()
            )
        );
        // Unchanged: the metadata of the file that stays, and nothing written.
        let pending = prepare_sealed_if_changed(&path, &value, &hash).unwrap();
        assert_eq!(pending.metadata().unwrap().ino(), actual.ino());
        assert!(!pending.commit().unwrap());
    }

    #[cfg(unix)]
    #[test]
    fn a_streamed_write_replaces_only_what_changed_and_leaves_no_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nested/a.json");
        let inode = |path: &Path| {
            use std::os::unix::fs::MetadataExt;
            std::fs::metadata(path).unwrap().ino()
        };
        // No file yet.
        assert!(write_in_pieces(&path, &[b"abc", b"def"]));
        assert_eq!(std::fs::read(&path).unwrap(), b"abcdef");
        // The same bytes, cut differently: no write, the very same file.
        let before = inode(&path);
        assert!(!write_in_pieces(&path, &[b"ab", b"cdef"]));
        assert_eq!(inode(&path), before);
        // Longer, shorter, different in the middle, empty.
        for expected in [&b"abcdefgh"[..], b"abc", b"abXdef", b""] {
            let (head, tail) = expected.split_at(expected.len() / 2);
            assert!(write_in_pieces(&path, &[head, tail]));
            assert_eq!(std::fs::read(&path).unwrap(), expected);
        }
        let names: Vec<_> = std::fs::read_dir(dir.path().join("nested"))
            .unwrap()
            .collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn a_sealed_artifact_is_written_with_its_left_out_fields_given_apart() {
        use crate::memo::{EncodingMemo, with_memo};
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Sealed {
            items: Vec<serde_json::Value>,
            name: String,
            content_hash: String,
            generated_at: String,
        }
        let mut value = Sealed {
            items: vec![json!({"b": 1.5, "a": "x"}), json!({"c": [1, 2]})],
            name: "n".to_owned(),
            content_hash: String::new(),
            generated_at: String::new(),
        };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        let excluded = ["contentHash", "generatedAt"];
        let prepare = |memo: &std::sync::Arc<EncodingMemo>,
                       left_out: &serde_json::Value,
                       hash: &doc_bridge_model::ContentHash| {
            with_memo(memo, || {
                prepare_sealed_fields_if_changed::<Sealed, _>(&path, left_out, hash)
            })
        };
        for memo in [EncodingMemo::new(), EncodingMemo::single_use()] {
            let _ = std::fs::remove_file(&path);
            let hash = with_memo(&memo, || {
                crate::semantic_hash_large(&value, &excluded).unwrap()
            });
            let left_out = json!({"contentHash": hash, "generatedAt": "2026-11-30T00:00:00Z"});
            assert!(prepare(&memo, &left_out, &hash).unwrap().commit().unwrap());
            value.content_hash = hash.as_str().to_owned();
            value.generated_at = "2026-11-30T00:00:00Z".to_owned();
            assert_eq!(
                std::fs::read(&path).unwrap(),
                to_artifact_bytes(&value).unwrap()
            );
            // Unchanged: nothing to write.
            assert!(!prepare(&memo, &left_out, &hash).unwrap().commit().unwrap());
            // A missing or an extra left-out field, a seal of another hash or type: an error.
            assert!(prepare(&memo, &json!({"contentHash": hash}), &hash).is_err());
            let extra = json!({"contentHash": hash, "generatedAt": "", "name": "m"});
            assert!(prepare(&memo, &extra, &hash).is_err());
            let other = doc_bridge_model::ContentHash::of_bytes(b"other");
            assert!(prepare(&memo, &left_out, &other).is_err());
            let other_type = with_memo(&memo, || {
                prepare_sealed_fields_if_changed::<Vec<u8>, _>(&path, &left_out, &hash)
            });
            assert!(other_type.is_err());
            value.content_hash.clear();
            value.generated_at.clear();
        }
        // Outside a memo there is no seal to write from.
        let hash = doc_bridge_model::ContentHash::of_bytes(b"");
        let outside = prepare_sealed_fields_if_changed::<Sealed, _>(&path, &json!({}), &hash);
        assert!(outside.is_err());
    }

    #[cfg(unix)]
    #[test]
    fn sealing_while_writing_gives_the_seal_and_the_bytes_of_sealing_then_writing() {
        use crate::memo::{EncodingMemo, with_memo};
        use std::os::unix::fs::MetadataExt;
        #[derive(Serialize, Clone)]
        #[serde(rename_all = "camelCase")]
        struct Sealed {
            // Sorts before `contentHash` and is large: the positions are counted across
            // flushed chunks and indented pieces.
            aardvarks: Vec<serde_json::Value>,
            content_hash: doc_bridge_model::ContentHash,
            generated_at: String,
            name: String,
        }
        let excluded = ["contentHash", "generatedAt"];
        let placeholder = doc_bridge_model::ContentHash::of_bytes(b"");
        let value = |name: &str, generated_at: &str| Sealed {
            aardvarks: (0..3000)
                .map(|i| json!({"n": i, "text": "x".repeat(i % 200), "f": 0.5}))
                .collect(),
            content_hash: placeholder.clone(),
            generated_at: generated_at.to_owned(),
            name: name.to_owned(),
        };
        let sealed = |mut value: Sealed| {
            value.content_hash = doc_bridge_model::hash::semantic_hash(&value, &excluded).unwrap();
            value
        };
        let (t1, t2) = ("2026-11-30T00:00:01.000Z", "2026-11-30T00:00:02.000Z");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        for memo in [EncodingMemo::new(), EncodingMemo::single_use()] {
            let prepare = |value: &Sealed, if_changed: &[(&str, &str)]| {
                with_memo(&memo, || {
                    seal_and_prepare(&path, value, &excluded, &[&value.aardvarks], if_changed)
                })
                .unwrap()
            };
            // An old file of other content: replaced, the placeholder hash patched.
            std::fs::write(&path, b"old").unwrap();
            let first = value("n", t1);
            let (hash, pending) = prepare(&first, &[]).unwrap();
            assert_eq!(hash, sealed(first.clone()).content_hash);
            let announced = pending.metadata().unwrap().len();
            assert!(pending.commit().unwrap());
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(bytes, to_artifact_bytes(&sealed(first.clone())).unwrap());
            assert_eq!(announced, bytes.len() as u64);
            // Guessed unchanged, and it is: nothing written, the very same file.
            let inode = std::fs::metadata(&path).unwrap().ino();
            let (_, pending) = prepare(&sealed(first.clone()), &[("generatedAt", t2)]).unwrap();
            assert!(!pending.commit().unwrap());
            assert_eq!(std::fs::metadata(&path).unwrap().ino(), inode);
            // Guessed unchanged, but it changed: the hash and the time patched in.
            let guess = Sealed {
                name: "m".to_owned(),
                ..sealed(first.clone())
            };
            let (hash, pending) = prepare(&guess, &[("generatedAt", t2)]).unwrap();
            assert!(pending.commit().unwrap());
            let changed = sealed(value("m", t2));
            assert_eq!(hash, changed.content_hash);
            assert_eq!(
                std::fs::read(&path).unwrap(),
                to_artifact_bytes(&changed).unwrap()
            );
            // A file whose hash was edited by hand: every other byte matches, still rewritten.
            let tampered = Sealed {
                content_hash: doc_bridge_model::ContentHash::of_bytes(b"tampered"),
                ..changed.clone()
            };
            std::fs::write(&path, to_artifact_bytes(&tampered).unwrap()).unwrap();
            let (_, pending) = prepare(&tampered, &[]).unwrap();
            assert!(pending.commit().unwrap());
            assert_eq!(
                std::fs::read(&path).unwrap(),
                to_artifact_bytes(&changed).unwrap()
            );
            // A replacement of another length is refused, the file left as it was.
            let before = std::fs::read(&path).unwrap();
            assert!(prepare(&guess, &[("generatedAt", "later")]).is_err());
            assert_eq!(std::fs::read(&path).unwrap(), before);
        }
        // Outside a memo: not done here.
        assert!(seal_and_prepare(&path, &value("n", t1), &excluded, &[], &[]).is_none());
    }

    #[test]
    fn a_sealed_write_inside_a_single_use_memo_streams_the_artifact_form() {
        use crate::memo::{EncodingMemo, with_memo};
        let value =
            json!({"items": [{"b": 1.0, "a": "x"}, {"c": [1, 2]}], "name": "n", "contentHash": ""});
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        let memo = EncodingMemo::single_use();
        let hash = with_memo(&memo, || {
            crate::semantic_hash_large(&value, &["contentHash"]).unwrap()
        });
        let wrote = with_memo(&memo, || {
            write_sealed_if_changed(&path, &value, &hash).unwrap()
        });
        assert!(wrote);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            to_artifact_bytes(&value).unwrap()
        );
        let again = with_memo(&memo, || {
            write_sealed_if_changed(&path, &value, &hash).unwrap()
        });
        assert!(!again);
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
