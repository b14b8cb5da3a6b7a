//! Writing to stdout without panicking: a closed pipe (`doc-bridge search | head`) ends output
//! quietly; any other write failure is remembered and turns the exit code into 2.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static WRITE_FAILED: AtomicBool = AtomicBool::new(false);
static PIPE_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes one line to stdout.
pub fn line(text: std::fmt::Arguments<'_>) {
    if PIPE_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout
        .write_fmt(text)
        .and_then(|()| stdout.write_all(b"\n"))
    {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            PIPE_CLOSED.store(true, Ordering::Relaxed);
        } else {
            WRITE_FAILED.store(true, Ordering::Relaxed);
        }
    }
}

/// Whether a write to stdout failed for a reason other than a closed pipe.
pub fn write_failed() -> bool {
    WRITE_FAILED.load(Ordering::Relaxed)
}

/// `println!` that never panics (see [`line`]).
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))
    };
}
