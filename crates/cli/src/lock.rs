//! The overlay lock: one command at a time moves the overlay or the approval store.
//!
//! Two `enrich` runs, or two `enrich approve`s, each read the overlay, change it and write it
//! back; without a lock the second write drops the first one's work. Every command that moves
//! the overlay or writes an approval record (`enrich`, `enrich approve|reject`, the MCP
//! `proposals` tool, `check --enrich`) holds an exclusive lock on `.doc-bridge/enrich/lock`
//! from reading the overlay to re-deriving the index; `enrich revalidate` holds a shared one
//! while it reads. The lock is the operating system's advisory file lock (`flock`), so a
//! process that dies releases it. A command waits for it at most [`wait`] (60 s, or
//! `DOC_BRIDGE_LOCK_WAIT_MS`), then fails with exit 2 naming the lock.

use std::fs::{File, TryLockError};
use std::time::{Duration, Instant};

use crate::exit::UserError;
use crate::repo::Repo;

/// The lock file, under `.doc-bridge/`.
pub const LOCK_FILE: &str = "enrich/lock";

/// How long a command waits by default.
const DEFAULT_WAIT: Duration = Duration::from_secs(60);

/// A held lock; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct OverlayLock {
    _file: Option<File>,
}

/// How long to wait for the lock: `DOC_BRIDGE_LOCK_WAIT_MS` when set to a number, else 60 s.
pub fn wait() -> Duration {
    std::env::var("DOC_BRIDGE_LOCK_WAIT_MS")
        .ok()
        .and_then(|ms| ms.trim().parse::<u64>().ok())
        .map_or(DEFAULT_WAIT, Duration::from_millis)
}

/// Takes the exclusive lock, waiting at most [`wait`].
pub fn exclusive(repo: &Repo) -> Result<OverlayLock, UserError> {
    take(repo, true)
}

/// Takes the shared lock (readers that must see the overlay and the records agree). Where the
/// lock file cannot be created (a read-only `.doc-bridge`), nothing can write either, and the
/// reader goes on without it.
pub fn shared(repo: &Repo) -> Result<OverlayLock, UserError> {
    if !repo.artifact(LOCK_FILE).exists()
        && std::fs::create_dir_all(repo.artifact("enrich")).is_err()
    {
        return Ok(OverlayLock { _file: None });
    }
    match take(repo, false) {
        Err(error) if error.message.starts_with("cannot open the overlay lock") => {
            Ok(OverlayLock { _file: None })
        }
        other => other,
    }
}

fn take(repo: &Repo, exclusive: bool) -> Result<OverlayLock, UserError> {
    let path = repo.artifact(LOCK_FILE);
    let io_error = |e: std::io::Error| {
        UserError::error(format!(
            "cannot open the overlay lock {}: {e}",
            path.display()
        ))
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io_error)?;
    }
    let file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(io_error)?;
    let limit = wait();
    let started = Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        let attempt = if exclusive {
            file.try_lock()
        } else {
            file.try_lock_shared()
        };
        match attempt {
            Ok(()) => return Ok(OverlayLock { _file: Some(file) }),
            Err(TryLockError::WouldBlock) if started.elapsed() < limit => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(100));
            }
            Err(TryLockError::WouldBlock) => {
                return Err(UserError::error(format!(
                    "another doc-bridge command is deciding proposals or writing the overlay (it holds {}); waited {} s: try again when it has finished",
                    path.display(),
                    limit.as_secs_f64()
                )));
            }
            Err(TryLockError::Error(e)) => return Err(io_error(e)),
        }
    }
}
