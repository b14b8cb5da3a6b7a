//! Opening repository files so that nothing outside the root is ever read.
//!
//! The walk sees a regular file; by the time a reader opens the path, it may have been replaced
//! by a symbolic link (to `/etc/passwd`), a FIFO (a read that never returns) or a device
//! (`/dev/zero`, a read that never ends). So every reader of repository files opens through a
//! [`RootDir`]:
//!
//! - on Linux, `openat2` relative to the root's descriptor with `RESOLVE_BENEATH` and
//!   `RESOLVE_NO_SYMLINKS`: no component of the path may be a symbolic link or leave the root;
//!   elsewhere on Unix (or where `openat2` is refused), each directory is opened in turn with
//!   `O_NOFOLLOW`, which gives the same guarantee one component at a time;
//! - always with `O_NONBLOCK` and `O_NOCTTY`, so opening a FIFO or a terminal cannot wait;
//! - then `fstat` on the open descriptor: anything but a regular file is refused
//!   ([`ReadError::NotRegular`]), whatever the name pointed at when it was walked;
//! - reads are bounded ([`RepoFile::read_bounded`]): never more than the limit plus one byte is
//!   held in memory, and never more than the size the descriptor reported is hashed.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Why a repository file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The path names something other than a regular file (a symbolic link, FIFO, socket,
    /// device or directory), or a path through one.
    #[error("not a regular file ({0})")]
    NotRegular(&'static str),
    /// The path is not a plain relative path inside the root (`..`, absolute, empty).
    #[error("not a path inside the repository")]
    OutsideRoot,
    /// Opening or reading failed.
    #[error("{}", .0.kind())]
    Io(#[from] io::Error),
}

/// The repository root, opened once; every repository file is opened relative to it.
#[derive(Debug)]
pub struct RootDir {
    path: PathBuf,
    #[cfg(unix)]
    fd: rustix::fd::OwnedFd,
}

/// A repository file opened by [`RootDir::open_file`]: a regular file, with its metadata as
/// the open descriptor reports it.
#[derive(Debug)]
pub struct RepoFile {
    /// The open file.
    pub file: File,
    /// Its metadata (from `fstat`, not from the path).
    pub metadata: std::fs::Metadata,
}

impl RootDir {
    /// Opens `path` (following a symbolic link there: the root itself is the caller's choice).
    pub fn open(path: &Path) -> io::Result<Self> {
        #[cfg(unix)]
        {
            use rustix::fs::{Mode, OFlags};
            let fd = rustix::fs::open(
                path,
                OFlags::DIRECTORY | OFlags::RDONLY | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            Ok(Self {
                path: path.to_path_buf(),
                fd,
            })
        }
        #[cfg(not(unix))]
        {
            if !std::fs::metadata(path)?.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::NotADirectory,
                    "not a directory",
                ));
            }
            Ok(Self {
                path: path.to_path_buf(),
            })
        }
    }

    /// The root's path, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens the regular file at `rel` (repository-relative, `/`-separated) for reading,
    /// refusing symbolic links anywhere on the way, paths that leave the root, and anything
    /// that is not a regular file once open.
    pub fn open_file(&self, rel: &str) -> Result<RepoFile, ReadError> {
        if rel.is_empty()
            || rel.starts_with('/')
            || rel
                .split('/')
                .any(|part| part.is_empty() || part == "." || part == "..")
        {
            return Err(ReadError::OutsideRoot);
        }
        let file = self.open_beneath(rel)?;
        let metadata = file.metadata()?;
        let kind = file_kind(&metadata.file_type());
        if kind != "regular file" {
            return Err(ReadError::NotRegular(kind));
        }
        Ok(RepoFile { file, metadata })
    }

    /// [`RootDir::open_file`], then the whole file if it has at most `max_bytes` bytes.
    /// `Ok(None)` when it is larger (nothing beyond `max_bytes + 1` bytes is read).
    pub fn read_file(&self, rel: &str, max_bytes: u64) -> Result<Option<Vec<u8>>, ReadError> {
        let mut file = self.open_file(rel)?;
        if file.metadata.len() > max_bytes {
            return Ok(None);
        }
        let bytes = file.read_bounded(max_bytes)?;
        Ok((bytes.len() as u64 <= max_bytes).then_some(bytes))
    }

    #[cfg(target_os = "linux")]
    fn open_beneath(&self, rel: &str) -> Result<File, ReadError> {
        use rustix::fs::{Mode, ResolveFlags};
        let resolve =
            ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        match rustix::fs::openat2(&self.fd, rel, read_flags(), Mode::empty(), resolve) {
            Ok(fd) => Ok(File::from(fd)),
            // A symbolic link on the way.
            Err(rustix::io::Errno::LOOP) => Err(ReadError::NotRegular("symbolic link")),
            // A kernel without openat2 (before 5.6), or a sandbox that refuses it.
            Err(rustix::io::Errno::NOSYS | rustix::io::Errno::PERM) => self.open_by_components(rel),
            Err(errno) => Err(ReadError::Io(errno.into())),
        }
    }

    #[cfg(all(unix, not(target_os = "linux")))]
    fn open_beneath(&self, rel: &str) -> Result<File, ReadError> {
        self.open_by_components(rel)
    }

    /// One directory at a time, each opened with `O_NOFOLLOW` relative to the one before.
    #[cfg(unix)]
    fn open_by_components(&self, rel: &str) -> Result<File, ReadError> {
        use rustix::fs::{Mode, OFlags};
        let (dirs, name) = rel.rsplit_once('/').unwrap_or(("", rel));
        let mut dir: Option<rustix::fd::OwnedFd> = None;
        for part in dirs.split('/').filter(|p| !p.is_empty()) {
            let parent = dir.as_ref().unwrap_or(&self.fd);
            let flags = OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::RDONLY | OFlags::CLOEXEC;
            let opened = match rustix::fs::openat(parent, part, flags, Mode::empty()) {
                Ok(fd) => fd,
                // `O_DIRECTORY | O_NOFOLLOW` on a link fails with `ENOTDIR`, as on a file.
                Err(rustix::io::Errno::NOTDIR) => {
                    let stat =
                        rustix::fs::statat(parent, part, rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
                            .map_err(|e| ReadError::Io(e.into()))?;
                    let kind = rustix::fs::FileType::from_raw_mode(stat.st_mode);
                    return Err(if kind.is_symlink() {
                        ReadError::NotRegular("symbolic link")
                    } else {
                        ReadError::Io(rustix::io::Errno::NOTDIR.into())
                    });
                }
                Err(errno) => return Err(no_follow_error(errno)),
            };
            dir = Some(opened);
        }
        let parent = dir.as_ref().unwrap_or(&self.fd);
        let fd = rustix::fs::openat(parent, name, read_flags(), Mode::empty())
            .map_err(no_follow_error)?;
        Ok(File::from(fd))
    }

    #[cfg(not(unix))]
    fn open_beneath(&self, rel: &str) -> Result<File, ReadError> {
        // Best effort: no component may be a link when looked at just before the open.
        let mut path = self.path.clone();
        for part in rel.split('/') {
            path.push(part);
            if std::fs::symlink_metadata(&path)?.file_type().is_symlink() {
                return Err(ReadError::NotRegular("symbolic link"));
            }
        }
        Ok(File::open(&path)?)
    }
}

#[cfg(unix)]
fn read_flags() -> rustix::fs::OFlags {
    use rustix::fs::OFlags;
    OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC
}

/// `O_NOFOLLOW` on a symbolic link fails with `ELOOP`.
#[cfg(unix)]
fn no_follow_error(errno: rustix::io::Errno) -> ReadError {
    if errno == rustix::io::Errno::LOOP {
        ReadError::NotRegular("symbolic link")
    } else {
        ReadError::Io(errno.into())
    }
}

/// What a file type is called in a diagnostic.
pub fn file_kind(file_type: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "FIFO";
        }
        if file_type.is_socket() {
            return "socket";
        }
        if file_type.is_block_device() || file_type.is_char_device() {
            return "device";
        }
    }
    if file_type.is_symlink() {
        "symbolic link"
    } else if file_type.is_dir() {
        "directory"
    } else if file_type.is_file() {
        "regular file"
    } else {
        "special file"
    }
}

impl RepoFile {
    /// Reads at most `max_bytes + 1` bytes: a result longer than `max_bytes` means the file
    /// is (or grew) over the limit. The buffer is reserved for the size `fstat` reported, at
    /// most the limit.
    pub fn read_bounded(&mut self, max_bytes: u64) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        let expected = self.metadata.len().min(max_bytes);
        // Fallible: an absurd reported size is an error, not an abort.
        bytes
            .try_reserve_exact(usize::try_from(expected).unwrap_or(0))
            .map_err(|e| io::Error::new(io::ErrorKind::OutOfMemory, e))?;
        // Through `Take`: `File`'s own `read_to_end` asks the size and position again.
        (&mut self.file)
            .take(max_bytes.saturating_add(1))
            .read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    /// A reader over at most the size `fstat` reported: a file that keeps growing (a log being
    /// written) cannot keep a reader busy.
    pub fn reported_bytes(&mut self) -> io::Take<&mut File> {
        let len = self.metadata.len();
        (&mut self.file).take(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root_with(files: &[(&str, &[u8])]) -> (tempfile::TempDir, RootDir) {
        let dir = tempfile::tempdir().unwrap();
        for (path, bytes) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, bytes).unwrap();
        }
        let root = RootDir::open(dir.path()).unwrap();
        (dir, root)
    }

    #[test]
    fn a_regular_file_reads_whole_within_the_limit() {
        let (_dir, root) = root_with(&[("docs/a.md", b"hello")]);
        assert_eq!(root.read_file("docs/a.md", 5).unwrap().unwrap(), b"hello");
        assert_eq!(root.read_file("docs/a.md", 4).unwrap(), None);
    }

    #[test]
    fn paths_that_leave_the_root_are_refused_before_any_open() {
        let (_dir, root) = root_with(&[("a.md", b"x")]);
        for bad in [
            "",
            "/etc/passwd",
            "../a.md",
            "docs/../a.md",
            "./a.md",
            "a//b",
        ] {
            assert!(
                matches!(root.open_file(bad), Err(ReadError::OutsideRoot)),
                "{bad}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_refused_as_the_file_and_on_the_way() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret"), b"root:x:0:0").unwrap();
        let (dir, root) = root_with(&[("docs/a.md", b"x")]);
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("link.md"))
            .unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("out")).unwrap();
        std::os::unix::fs::symlink("docs", dir.path().join("inner")).unwrap();
        for path in ["link.md", "out/secret", "inner/a.md"] {
            let error = root.open_file(path).unwrap_err();
            assert!(
                matches!(error, ReadError::NotRegular("symbolic link")),
                "{path}: {error:?}"
            );
        }
        // The fallback refuses them the same way.
        for path in ["link.md", "out/secret", "inner/a.md"] {
            assert!(
                matches!(
                    root.open_by_components(path),
                    Err(ReadError::NotRegular("symbolic link"))
                ),
                "{path}"
            );
        }
        assert!(root.open_by_components("docs/a.md").is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let (dir, root) = root_with(&[]);
        let fifo = dir.path().join("pipe.md");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        )
        .unwrap();
        // Without O_NONBLOCK this open would block forever (no writer).
        assert!(matches!(
            root.open_file("pipe.md"),
            Err(ReadError::NotRegular("FIFO"))
        ));
    }

    #[test]
    fn a_directory_is_not_a_file() {
        let (_dir, root) = root_with(&[("docs/a.md", b"x")]);
        assert!(matches!(
            root.open_file("docs"),
            Err(ReadError::NotRegular("directory"))
        ));
    }

    #[test]
    fn a_bounded_read_stops_one_byte_past_the_limit() {
        let (_dir, root) = root_with(&[("big.txt", &[b'x'; 100])]);
        let mut file = root.open_file("big.txt").unwrap();
        assert_eq!(file.read_bounded(10).unwrap().len(), 11);
    }
}
