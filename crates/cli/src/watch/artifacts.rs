//! The artifacts the watch loop writes, remembered between refreshes: the head (`contentHash`,
//! `generatedAt`) it wrote and the file's stamp right after. While the stamp is unchanged the
//! file holds exactly what the loop wrote, so the previous head need not be parsed out of a
//! 50 MB file again, and the write needs no read-and-compare. Whenever the stamp moved (someone
//! else wrote the file, or it was deleted), the loop falls back to what `index` does.

use std::path::PathBuf;

use doc_bridge_model::artifact::{to_artifact_bytes_sealed, write_atomic};
use doc_bridge_model::timing::phase;
use doc_bridge_retrieve::cache::FileStamp;
use serde::Serialize;

use crate::exit::UserError;
use crate::pipeline::{Head, file_stamp, read_head, write_if_changed};

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

    /// Writes `value` (whose head is `head`) unless the file already holds it. Returns whether
    /// it wrote. An unchanged head on an untouched file means unchanged bytes: everything outside
    /// the seal (`generatedAt`, `stats`, `publication`) follows from the sealed content and the
    /// kept time.
    pub fn write<T: Serialize>(&mut self, value: &T, head: Head) -> Result<bool, UserError> {
        let current = file_stamp(&self.path);
        let wrote = match &self.last {
            Some((stamp, last)) if current.as_ref() == Some(stamp) => {
                if *last == head {
                    false
                } else {
                    let bytes = phase("artifact: encode", || {
                        to_artifact_bytes_sealed(value, &head.content_hash)
                    })
                    .map_err(|e| UserError::error(e.to_string()))?;
                    phase("artifact: write file", || write_atomic(&self.path, &bytes))
                        .map_err(|e| UserError::error(format!("cannot write artifact: {e}")))?;
                    true
                }
            }
            _ => write_if_changed(&self.path, value)?,
        };
        self.last = file_stamp(&self.path).map(|stamp| (stamp, head));
        Ok(wrote)
    }
}
