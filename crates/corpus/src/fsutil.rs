//! Writing generated trees to disk.

use anyhow::{Context, Result, bail};
use std::fs;
use std::path::{Path, PathBuf};

/// Makes sure `dir` can receive a generated tree: creates it when missing, and refuses an existing
/// non-empty directory unless `force` (then files are overwritten and anything else is left alone;
/// nothing is ever deleted, so a mistyped `--out` cannot wipe a directory).
pub fn prepare_out_dir(dir: &Path, force: bool) -> Result<()> {
    if !dir.exists() {
        return fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output directory {}", dir.display()));
    }
    if !dir.is_dir() {
        bail!("{} exists and is not a directory", dir.display());
    }
    let mut entries =
        fs::read_dir(dir).with_context(|| format!("cannot read directory {}", dir.display()))?;
    if entries.next().is_some() && !force {
        bail!(
            "{} is not empty; pass --force to write into it anyway (existing files are overwritten, other files are kept)",
            dir.display()
        );
    }
    Ok(())
}

/// Streams files into a directory tree, creating parent directories on demand and keeping count.
#[derive(Debug)]
pub struct TreeWriter {
    root: PathBuf,
    /// The directory created last: files come grouped by directory, so this saves most
    /// `create_dir_all` calls.
    last_dir: Option<PathBuf>,
    files: u64,
    bytes: u64,
}

impl TreeWriter {
    /// A writer rooted at `root` (which must exist).
    pub fn new(root: &Path) -> Self {
        Self {
            root: root.to_path_buf(),
            last_dir: None,
            files: 0,
            bytes: 0,
        }
    }

    /// Writes `content` to the `/`-separated relative path `rel`.
    pub fn write(&mut self, rel: &str, content: &[u8]) -> Result<()> {
        let path = self.root.join(rel);
        if let Some(dir) = path.parent()
            && self.last_dir.as_deref() != Some(dir)
        {
            fs::create_dir_all(dir)
                .with_context(|| format!("cannot create directory {}", dir.display()))?;
            self.last_dir = Some(dir.to_path_buf());
        }
        fs::write(&path, content).with_context(|| format!("cannot write {}", path.display()))?;
        self.files += 1;
        self.bytes += content.len() as u64;
        Ok(())
    }

    /// Number of files written so far.
    pub fn files(&self) -> u64 {
        self.files
    }

    /// Number of bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_non_empty_directory_without_force() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        prepare_out_dir(&dir, false).unwrap();
        assert!(dir.is_dir());
        prepare_out_dir(&dir, false).unwrap(); // empty is fine
        fs::write(dir.join("keep.txt"), "x").unwrap();
        let err = prepare_out_dir(&dir, false).unwrap_err();
        assert!(err.to_string().contains("--force"), "{err}");
        prepare_out_dir(&dir, true).unwrap();
        assert!(dir.join("keep.txt").exists());
    }

    #[test]
    fn refuses_a_file_as_output() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f");
        fs::write(&file, "x").unwrap();
        assert!(prepare_out_dir(&file, true).is_err());
    }

    #[test]
    fn writer_creates_parents_and_counts() {
        let tmp = tempfile::tempdir().unwrap();
        let mut w = TreeWriter::new(tmp.path());
        w.write("a/b/c.txt", b"hello").unwrap();
        w.write("a/d.txt", b"hi").unwrap();
        assert_eq!(w.files(), 2);
        assert_eq!(w.bytes(), 7);
        assert_eq!(fs::read(tmp.path().join("a/b/c.txt")).unwrap(), b"hello");
    }
}
