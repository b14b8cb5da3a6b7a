//! File stamps: a derived cache of (size, modification time) → content hash, so freshness checks
//! re-hash only files that changed, as git's index does. Never authoritative: a missing or
//! corrupt stamp file just means every file is hashed.

use std::collections::HashMap;

use doc_bridge_model::{ContentHash, RelPath};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::observe::hash_file;
use crate::walk::WalkedFile;

/// Bumped when the stamp format changes.
const STAMP_FORMAT: u32 = 1;

/// Files modified this recently (nanoseconds) are never trusted from a stamp: a write within the
/// same clock tick as the stamp could leave size and time unchanged.
const RACY_WINDOW_NS: i128 = 2_000_000_000;

/// A recorded stamp.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Stamp {
    bytes: u64,
    modified_ns: i128,
    hash: String,
}

/// The stamp cache.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamps {
    format: u32,
    files: HashMap<String, Stamp>,
}

impl Stamps {
    /// Reads a stamp cache; anything unreadable is an empty cache.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        match postcard::from_bytes::<Stamps>(bytes) {
            Ok(stamps) if stamps.format == STAMP_FORMAT => stamps,
            _ => Stamps::default(),
        }
    }

    /// Serializes the cache.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).unwrap_or_default()
    }

    /// Records the hashes of walked files (only those whose stamps can be trusted later).
    pub fn record(files: &[WalkedFile], hashes: &[(RelPath, ContentHash)], now_ns: i128) -> Self {
        let by_path: HashMap<&RelPath, &ContentHash> = hashes.iter().map(|(p, h)| (p, h)).collect();
        let files = files
            .iter()
            .filter_map(|file| {
                let modified_ns = file.modified_ns?;
                if now_ns - modified_ns < RACY_WINDOW_NS {
                    return None;
                }
                let hash = by_path.get(&file.path)?;
                Some((
                    file.path.to_string(),
                    Stamp {
                        bytes: file.bytes,
                        modified_ns,
                        hash: hash.to_string(),
                    },
                ))
            })
            .collect();
        Stamps {
            format: STAMP_FORMAT,
            files,
        }
    }

    fn lookup(&self, file: &WalkedFile, now_ns: i128) -> Option<ContentHash> {
        let stamp = self.files.get(file.path.as_str())?;
        let modified_ns = file.modified_ns?;
        let trusted = stamp.bytes == file.bytes
            && stamp.modified_ns == modified_ns
            && now_ns - modified_ns >= RACY_WINDOW_NS;
        if trusted {
            ContentHash::parse(&stamp.hash)
        } else {
            None
        }
    }
}

/// Hashes every walked file, reusing stamped hashes where size and modification time match.
/// Returns the hashes (in walk order) and how many files had to be read.
pub fn hash_all_stamped(
    files: &[WalkedFile],
    stamps: &Stamps,
    now_ns: i128,
) -> (Vec<(RelPath, ContentHash)>, usize) {
    let hashes: Vec<(RelPath, ContentHash, bool)> = files
        .par_iter()
        .map(|file| match stamps.lookup(file, now_ns) {
            Some(hash) => (file.path.clone(), hash, false),
            None => (file.path.clone(), hash_file(file), true),
        })
        .collect();
    let read = hashes.iter().filter(|(_, _, read)| *read).count();
    (hashes.into_iter().map(|(p, h, _)| (p, h)).collect(), read)
}

/// Now, in nanoseconds since the epoch.
pub fn now_ns() -> i128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as i128)
        .unwrap_or(0)
}
