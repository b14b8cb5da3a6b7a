//! File stamps: a derived cache of (size, modification time) → content hash, so freshness checks
//! re-hash only files that changed, as git's index does. Never authoritative: a missing or
//! corrupt stamp file just means every file is hashed.

use std::collections::HashMap;

use doc_bridge_model::index::FilesDigest;
use doc_bridge_model::{ContentHash, RelPath};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::observe::hash_file;
use crate::walk::WalkedFile;

/// Bumped when the stamp format changes.
const STAMP_FORMAT: u32 = 5;

/// Files modified this recently (nanoseconds) are never trusted from a stamp: a write within the
/// same clock tick as the stamp could leave size and time unchanged.
const RACY_WINDOW_NS: i128 = 2_000_000_000;

/// A recorded stamp: size, modification time and the raw sha256 (32 bytes, not hex).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    bytes: u64,
    modified_ns: i128,
    hash: [u8; 32],
}

/// Bytes per file in [`Stamps::stamps`]: a presence byte, size (u64), modification time (i128)
/// and the raw sha256, little-endian.
const STAMP_BYTES: usize = 1 + 8 + 16 + 32;

impl Stamp {
    fn write(stamp: Option<&Stamp>, out: &mut Vec<u8>) {
        match stamp {
            Some(stamp) => {
                out.push(1);
                out.extend_from_slice(&stamp.bytes.to_le_bytes());
                out.extend_from_slice(&stamp.modified_ns.to_le_bytes());
                out.extend_from_slice(&stamp.hash);
            }
            None => out.extend_from_slice(&[0; STAMP_BYTES]),
        }
    }

    fn read(record: &[u8]) -> Option<Stamp> {
        if *record.first()? != 1 {
            return None;
        }
        Some(Stamp {
            bytes: u64::from_le_bytes(record.get(1..9)?.try_into().ok()?),
            modified_ns: i128::from_le_bytes(record.get(9..25)?.try_into().ok()?),
            hash: record.get(25..57)?.try_into().ok()?,
        })
    }
}

/// The stamp cache. Files are kept in columns (one string of paths, one byte string of
/// fixed-size stamps), because the cache is read on every query: decoding it is a few copies,
/// not an allocation per file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamps {
    format: u32,
    /// Every walked file's path, sorted (the walk's order), back to back.
    paths: String,
    /// Where each path ends in `paths`.
    ends: Vec<u32>,
    /// Per file, [`STAMP_BYTES`]; absent (a zero presence byte) when its hash cannot be trusted
    /// later.
    #[serde(with = "serde_bytes")]
    stamps: Vec<u8>,
    /// What else a full walk saw, for [`Stamps::quick_walk`]; absent when it cannot be trusted.
    listing: Option<Listing>,
    /// The [`FilesDigest`] of the files with their stamped hashes, recorded when every file has
    /// a stamp, for [`Stamps::unchanged_digest`].
    digest: Option<ContentHash>,
}

/// The shape of a full walk besides its files: every directory entered with its modification
/// time, and the stamps of the ignore files outside the walked tree that decide what it admits.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Listing {
    dirs: Vec<(String, i128)>,
    sources: Vec<(String, Option<(u64, i128)>)>,
}

/// Files outside the walked tree that can change what the walk admits: ignore files of the
/// ancestors of `root` (the walk honours them), the enclosing repository's `.git/info/exclude`,
/// and git's global configuration and excludes. Missing ones are recorded as missing.
pub fn ignore_sources(root: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut sources = Vec::new();
    for dir in root.ancestors() {
        for name in [".gitignore", ".ignore", ".git/info/exclude"] {
            sources.push(dir.join(name));
        }
    }
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    if let Some(home) = &home {
        sources.push(home.join(".gitconfig"));
    }
    if let Some(config) = config {
        sources.push(config.join("git/config"));
        sources.push(config.join("git/ignore"));
    }
    sources
}

fn source_stamp(path: &std::path::Path) -> Option<(u64, i128)> {
    let metadata = std::fs::metadata(path).ok()?;
    Some((
        metadata.len(),
        crate::walk::modified_ns(Some(metadata)).unwrap_or(0),
    ))
}

impl Stamps {
    /// Reads a stamp cache; anything unreadable is an empty cache.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        match postcard::from_bytes::<Stamps>(bytes) {
            Ok(stamps) if stamps.format == STAMP_FORMAT && stamps.is_consistent() => stamps,
            _ => Stamps::default(),
        }
    }

    /// Whether the columns agree (a decoded cache is untrusted input).
    fn is_consistent(&self) -> bool {
        self.stamps.len() == self.ends.len() * STAMP_BYTES
            && self.ends.windows(2).all(|w| w[0] <= w[1])
            && self
                .ends
                .last()
                .is_none_or(|e| *e as usize == self.paths.len())
            && (0..self.ends.len()).all(|i| self.paths.is_char_boundary(self.start(i)))
    }

    /// Number of files recorded.
    pub fn file_count(&self) -> usize {
        self.ends.len()
    }

    fn start(&self, index: usize) -> usize {
        match index {
            0 => 0,
            i => self.ends.get(i - 1).map_or(0, |e| *e as usize),
        }
    }

    /// File `index`'s path.
    fn path(&self, index: usize) -> &str {
        let end = self.ends.get(index).map_or(0, |e| *e as usize);
        self.paths.get(self.start(index)..end).unwrap_or_default()
    }

    /// File `index`'s stamp, when it has one.
    fn stamp(&self, index: usize) -> Option<Stamp> {
        let at = index.checked_mul(STAMP_BYTES)?;
        Stamp::read(self.stamps.get(at..at.checked_add(STAMP_BYTES)?)?)
    }

    /// Every file's path, in order.
    fn paths(&self) -> impl Iterator<Item = &str> {
        (0..self.file_count()).map(|i| self.path(i))
    }

    /// Serializes the cache.
    pub fn to_bytes(&self) -> Vec<u8> {
        postcard::to_allocvec(self).unwrap_or_default()
    }

    /// Records every walked file, with a stamp for those whose hash can be trusted later (not
    /// modified within the racy window).
    pub fn record(files: &[WalkedFile], hashes: &[(RelPath, ContentHash)], now_ns: i128) -> Self {
        let by_path: HashMap<&RelPath, &ContentHash> = hashes.iter().map(|(p, h)| (p, h)).collect();
        let mut files: Vec<(&str, Option<Stamp>)> = files
            .iter()
            .map(|file| {
                let stamp = (|| {
                    let modified_ns = file.modified_ns?;
                    if now_ns - modified_ns < RACY_WINDOW_NS {
                        return None;
                    }
                    let hash = by_path.get(&file.path)?;
                    let mut raw = [0u8; 32];
                    hex::decode_to_slice(hash.as_str(), &mut raw).ok()?;
                    Some(Stamp {
                        bytes: file.bytes,
                        modified_ns,
                        hash: raw,
                    })
                })();
                (file.path.as_str(), stamp)
            })
            .collect();
        // The walk sorts already; a caller's list might not be.
        files.sort_by(|a, b| a.0.cmp(b.0));
        files.dedup_by(|a, b| a.0 == b.0);
        let mut stamps = Stamps {
            format: STAMP_FORMAT,
            ..Stamps::default()
        };
        for (path, stamp) in &files {
            stamps.paths.push_str(path);
            stamps
                .ends
                .push(u32::try_from(stamps.paths.len()).unwrap_or(u32::MAX));
            Stamp::write(stamp.as_ref(), &mut stamps.stamps);
        }
        stamps.digest = files_digest(&files);
        stamps
    }

    /// Re-records the file stamps after a quick walk re-hashed some files, keeping the listing
    /// (the quick walk proved it still holds).
    pub fn refresh(
        &mut self,
        files: &[WalkedFile],
        hashes: &[(RelPath, ContentHash)],
        now_ns: i128,
    ) {
        let listing = self.listing.take();
        *self = Stamps {
            listing,
            ..Stamps::record(files, hashes, now_ns)
        };
    }

    /// [`Stamps::record`] plus the walk's listing, so a later freshness check can skip the walk
    /// while no directory and no ignore source moved. A directory modified within the racy
    /// window (or without a time) leaves the listing out: it could change again unseen.
    pub fn record_walk(
        walk: &crate::walk::Walk,
        root: &std::path::Path,
        hashes: &[(RelPath, ContentHash)],
        now_ns: i128,
    ) -> Self {
        Stamps::record_listing(&walk.files, &walk.dirs, root, hashes, now_ns)
    }

    /// [`Stamps::record_walk`] from a walk's parts: its files and the directories it entered.
    pub fn record_listing(
        files: &[WalkedFile],
        walked_dirs: &[(RelPath, Option<i128>)],
        root: &std::path::Path,
        hashes: &[(RelPath, ContentHash)],
        now_ns: i128,
    ) -> Self {
        let mut stamps = Stamps::record(files, hashes, now_ns);
        let dirs: Option<Vec<(String, i128)>> = walked_dirs
            .iter()
            .map(|(path, modified)| match modified {
                Some(ns) if now_ns - ns >= RACY_WINDOW_NS => Some((path.to_string(), *ns)),
                _ => None,
            })
            .collect();
        stamps.listing = dirs.map(|dirs| Listing {
            dirs,
            sources: ignore_sources(root)
                .iter()
                .map(|p| (p.to_string_lossy().into_owned(), source_stamp(p)))
                .collect(),
        });
        stamps
    }

    /// The walk's files without walking, when nothing that decides the listing moved since the
    /// recorded full walk: every recorded directory has its recorded modification time (a
    /// directory's time moves when an entry is added, removed or renamed in it) and every ignore
    /// source its recorded stamp. Each file is then stat'ed for its size and time, as the walk
    /// would. `None` (walk instead) on any doubt: no listing, a moved directory or source, a
    /// vanished file, or a root that is not the recorded one.
    pub fn quick_walk(&self, root: &std::path::Path) -> Option<Vec<WalkedFile>> {
        if !self.listing_holds(root) {
            return None;
        }
        let paths: Vec<&str> = self.paths().collect();
        let stats =
            doc_bridge_model::timing::phase("stat files", || crate::stat::stat_files(root, &paths));
        paths
            .iter()
            .zip(stats)
            .map(|(path, stat)| {
                let stat = stat?;
                Some(WalkedFile {
                    path: RelPath::new(path)?,
                    bytes: stat.bytes,
                    modified_ns: stat.modified_ns,
                    full_path: root.join(path),
                })
            })
            .collect()
    }

    /// The [`FilesDigest`] of the current files when nothing moved since the stamps were
    /// recorded: the listing holds (as for [`Stamps::quick_walk`]) and every file still has its
    /// stamped size and modification time, outside the racy window. The hashes the stamps hold
    /// are then the files' hashes, and nothing needs to be read or hashed. `None` on any doubt.
    pub fn unchanged_digest(&self, root: &std::path::Path, now_ns: i128) -> Option<ContentHash> {
        let digest = self.digest.as_ref()?;
        if !self.listing_holds(root) {
            return None;
        }
        let paths: Vec<&str> = self.paths().collect();
        let stats =
            doc_bridge_model::timing::phase("stat files", || crate::stat::stat_files(root, &paths));
        let unchanged =
            stats
                .into_iter()
                .enumerate()
                .all(|(i, stat)| match (self.stamp(i), stat) {
                    (Some(stamp), Some(stat)) => {
                        stat.bytes == stamp.bytes
                            && stat.modified_ns == Some(stamp.modified_ns)
                            && now_ns - stamp.modified_ns >= RACY_WINDOW_NS
                    }
                    _ => false,
                });
        unchanged.then(|| digest.clone())
    }

    /// Whether nothing that decides the walk's listing moved since the recorded full walk (see
    /// [`Stamps::quick_walk`]).
    fn listing_holds(&self, root: &std::path::Path) -> bool {
        let Some(listing) = self.listing.as_ref() else {
            return false;
        };
        let same_sources = ignore_sources(root).len() == listing.sources.len()
            && listing
                .sources
                .iter()
                .all(|(path, stamp)| source_stamp(std::path::Path::new(path)) == *stamp);
        same_sources
            && listing.dirs.par_iter().all(|(dir, recorded)| {
                let path = if dir == "." {
                    root.to_path_buf()
                } else {
                    root.join(dir)
                };
                std::fs::symlink_metadata(&path)
                    .ok()
                    .filter(|m| m.is_dir())
                    .and_then(|m| crate::walk::modified_ns(Some(m)))
                    == Some(*recorded)
            })
    }

    fn lookup(&self, file: &WalkedFile, now_ns: i128) -> Option<ContentHash> {
        let (mut low, mut high) = (0, self.file_count());
        let at = loop {
            if low >= high {
                return None;
            }
            let middle = low + (high - low) / 2;
            match self.path(middle).cmp(file.path.as_str()) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => break middle,
            }
        };
        let stamp = self.stamp(at)?;
        let modified_ns = file.modified_ns?;
        let trusted = stamp.bytes == file.bytes
            && stamp.modified_ns == modified_ns
            && now_ns - modified_ns >= RACY_WINDOW_NS;
        trusted.then(|| ContentHash::from_digest(&stamp.hash))
    }
}

/// The digest of a stamped file list, when every file has a stamp.
fn files_digest(files: &[(&str, Option<Stamp>)]) -> Option<ContentHash> {
    let mut digest = FilesDigest::default();
    let mut hex = [0u8; 64];
    for (path, stamp) in files {
        let stamp = stamp.as_ref()?;
        hex::encode_to_slice(stamp.hash, &mut hex).ok()?;
        digest.add(path, std::str::from_utf8(&hex).ok()?);
    }
    Some(digest.finish())
}

/// Hashes every walked file, reusing stamped hashes where size and modification time match.
/// Returns the hashes (in walk order) and how many files had to be read.
pub fn hash_all_stamped(
    root: &crate::read::RootDir,
    files: &[WalkedFile],
    stamps: &Stamps,
    now_ns: i128,
) -> (Vec<(RelPath, ContentHash)>, usize) {
    let hashes: Vec<(RelPath, ContentHash, bool)> = files
        .par_iter()
        .map(|file| match stamps.lookup(file, now_ns) {
            Some(hash) => (file.path.clone(), hash, false),
            None => (file.path.clone(), hash_file(root, file), true),
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
