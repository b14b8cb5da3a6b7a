//! The artifacts the watch loop writes, remembered between refreshes: the head (`contentHash`,
//! `generatedAt`) it wrote and the file's stamp right after. While the stamp is unchanged the
//! file holds exactly what the loop wrote, so the previous head need not be read out of a large
//! file again, and an unchanged head means nothing to write. Whenever the stamp moved (someone
//! else wrote the file, or it was deleted), the loop falls back to what `index` does: compare
//! the bytes, and write them by rename when they differ.

use std::path::PathBuf;

use doc_bridge_model::timing::phase;
use doc_bridge_retrieve::cache::FileStamp;
use serde::Serialize;

use crate::exit::UserError;
use crate::pipeline::{Head, file_stamp, read_head};

/// One artifact file and what the loop last wrote there.
pub struct Tracked {
    path: PathBuf,
    last: Option<(FileStamp, Head)>,
}

impl Tracked {
    /// An artifact at `path`, nothing known yet.
    pub fn new(path: PathBuf) -> Self {
        Tracked { path, last: None }
    }

    /// The head of the artifact on disk: remembered while the file is untouched, else read.
    pub fn previous(&self) -> Option<Head> {
        match &self.last {
            Some((stamp, head)) if file_stamp(&self.path).as_ref() == Some(stamp) => {
                Some(head.clone())
            }
            _ => read_head(&self.path),
        }
    }

    /// Writes `value` (a sealed artifact whose head is `head`) unless the file already holds
    /// it. Returns whether it wrote. An unchanged head on an untouched file means unchanged
    /// bytes: everything outside the seal (`generatedAt`, `stats`, `publication`) follows from
    /// the sealed content and the kept time.
    pub fn write<T: Serialize>(&mut self, value: &T, head: Head) -> Result<bool, UserError> {
        let untouched = matches!(
            &self.last,
            Some((stamp, last)) if file_stamp(&self.path).as_ref() == Some(stamp) && *last == head
        );
        let wrote = if untouched {
            false
        } else {
            phase("artifact: encode and write", || {
                doc_bridge_store::sealed::write_if_changed(&self.path, value)
            })
            .map_err(|e| UserError::error(format!("cannot write artifact: {e}")))?
        };
        self.last = file_stamp(&self.path).map(|stamp| (stamp, head));
        Ok(wrote)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use doc_bridge_model::ContentHash;
    use serde_json::json;

    fn head(text: &str) -> Head {
        Head {
            content_hash: ContentHash::of_bytes(text.as_bytes()),
            generated_at: "2026-11-30T00:00:00Z".into(),
        }
    }

    #[test]
    fn each_write_leaves_the_latest_bytes_at_the_path_and_an_unchanged_head_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("index.json");
        let mut tracked = Tracked::new(path.clone());
        let versions = [
            json!({"v": 1, "text": "a much longer first version of the artifact"}),
            json!({"v": 2}),
            json!({"v": 3, "text": "third"}),
        ];
        for (i, value) in versions.iter().enumerate() {
            assert!(tracked.write(value, head(&i.to_string())).unwrap());
            let expected = doc_bridge_store::canonical::encode(value).unwrap();
            assert_eq!(std::fs::read(&path).unwrap(), expected, "version {i}");
        }
        // The same head on an untouched file writes nothing; on a file someone replaced, the
        // bytes are compared and written again.
        assert!(!tracked.write(&versions[2], head("2")).unwrap());
        std::fs::write(&path, b"{}").unwrap();
        assert!(tracked.write(&versions[2], head("2")).unwrap());
        let expected = doc_bridge_store::canonical::encode(&versions[2]).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), expected);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
