//! Stat'ing many known files quickly: what the freshness check of every `search` and `query`
//! spends most of its time on.
//!
//! On Unix each file is stat'ed relative to an open descriptor of its directory (`fstatat`), so
//! the kernel resolves one name instead of the whole path: about 40% less time per file on
//! ext4 (measured: 10,366 files, 21.8 ms with full paths, 13.3 ms relative, one thread).
//! Elsewhere, plain `symlink_metadata`.

use std::path::Path;

use rayon::prelude::*;

/// A regular file's size and modification time (nanoseconds since the epoch; `None` when the
/// platform has none or it precedes the epoch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStat {
    /// Size in bytes.
    pub bytes: u64,
    /// Modification time.
    pub modified_ns: Option<i128>,
}

/// Stats `files` (repository-relative, `/`-separated) under `root` without following a final
/// symlink. `None` for a file that is missing or no longer a regular file. Results are in input
/// order.
pub fn stat_files(root: &Path, files: &[&str]) -> Vec<Option<FileStat>> {
    // Chunks keep neighbouring files (mostly one directory) on one thread, which reuses the
    // directory it opened last.
    files
        .par_chunks(512)
        .flat_map_iter(|chunk| {
            let mut stat = Stater::new(root);
            chunk
                .iter()
                .map(move |file| stat.stat(file))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[cfg(unix)]
struct Stater<'a> {
    root: &'a Path,
    dir: Option<(String, Option<rustix::fd::OwnedFd>)>,
}

#[cfg(unix)]
impl<'a> Stater<'a> {
    fn new(root: &'a Path) -> Self {
        Self { root, dir: None }
    }

    fn stat(&mut self, file: &str) -> Option<FileStat> {
        use rustix::fs::{AtFlags, FileType, Mode, OFlags};
        let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
        if self.dir.as_ref().is_none_or(|(open, _)| open != dir) {
            let path = if dir.is_empty() {
                self.root.to_path_buf()
            } else {
                self.root.join(dir)
            };
            let flags = OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC;
            let fd = rustix::fs::open(&path, flags, Mode::empty()).ok();
            self.dir = Some((dir.to_owned(), fd));
        }
        let fd = self.dir.as_ref()?.1.as_ref()?;
        let stat = rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW).ok()?;
        if !FileType::from_raw_mode(stat.st_mode).is_file() {
            return None;
        }
        let seconds = i128::from(stat.st_mtime);
        let nanos = i128::from(stat.st_mtime_nsec);
        Some(FileStat {
            bytes: u64::try_from(stat.st_size).ok()?,
            modified_ns: (seconds >= 0).then_some(seconds * 1_000_000_000 + nanos),
        })
    }
}

#[cfg(not(unix))]
struct Stater<'a> {
    root: &'a Path,
}

#[cfg(not(unix))]
impl<'a> Stater<'a> {
    fn new(root: &'a Path) -> Self {
        Self { root }
    }

    fn stat(&mut self, file: &str) -> Option<FileStat> {
        let metadata = std::fs::symlink_metadata(self.root.join(file)).ok()?;
        if !metadata.is_file() {
            return None;
        }
        Some(FileStat {
            bytes: metadata.len(),
            modified_ns: crate::walk::modified_ns(Some(metadata)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_match_std_and_refuse_what_is_not_a_regular_file() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = dir.path();
        std::fs::create_dir_all(root.join("a/b")).unwrap_or_default();
        std::fs::write(root.join("top.md"), "top").unwrap_or_default();
        std::fs::write(root.join("a/one.md"), "one!").unwrap_or_default();
        std::fs::write(root.join("a/b/two.md"), "two").unwrap_or_default();
        #[cfg(unix)]
        std::os::unix::fs::symlink("one.md", root.join("a/link.md")).unwrap_or_default();
        let files = [
            "top.md",
            "a/one.md",
            "a/b/two.md",
            "a/missing.md",
            "a/b",
            "a/link.md",
            "gone/x.md",
        ];
        let stats = stat_files(root, &files);
        for (file, stat) in files.iter().zip(&stats) {
            let expected = std::fs::symlink_metadata(root.join(file))
                .ok()
                .filter(|m| m.is_file())
                .map(|m| FileStat {
                    bytes: m.len(),
                    modified_ns: crate::walk::modified_ns(Some(m)),
                });
            assert_eq!(*stat, expected, "{file}");
        }
        assert_eq!(stats.iter().filter(|s| s.is_some()).count(), 3);
    }
}
