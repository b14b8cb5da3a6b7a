//! Writing to stdout without panicking: a closed pipe (`doc-bridge search | head`) ends output
//! quietly; any other write failure is remembered and turns the exit code into 2.
//!
//! Everything printed, to stdout and stderr alike, passes [`escape_controls`]: a file name, a
//! title or a name given on the command line can hold terminal escape sequences, and printing
//! them raw would let a repository recolour, retitle or rewrite the user's terminal.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static WRITE_FAILED: AtomicBool = AtomicBool::new(false);
static PIPE_CLOSED: AtomicBool = AtomicBool::new(false);

/// Whether printing `c` raw could drive a terminal: C0 controls but newline and tab, DEL, C1
/// controls, and the bidirectional overrides and isolates (which reorder what is shown).
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every unsafe character (see above) written as `\uXXXX`. Inside a JSON string
/// that is the JSON escape of the same character, so JSON output keeps its meaning; in text it
/// shows what is there without obeying it.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Writes one line to stdout, control characters escaped.
pub fn line(text: std::fmt::Arguments<'_>) {
    if PIPE_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let text = std::fmt::format(text);
    let text = escape_controls(&text);
    let mut stdout = std::io::stdout().lock();
    if let Err(error) = stdout
        .write_all(text.as_bytes())
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

/// Writes one line to stderr, control characters escaped; a failed write is ignored (there is
/// nowhere left to report it).
pub fn error_line(text: std::fmt::Arguments<'_>) {
    let text = std::fmt::format(text);
    let text = escape_controls(&text);
    let mut stderr = std::io::stderr().lock();
    let _ = stderr
        .write_all(text.as_bytes())
        .and_then(|()| stderr.write_all(b"\n"));
}

/// `eprintln!` that never panics and escapes control characters (see [`error_line`]).
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::error_line(format_args!($($arg)*))
    };
}

/// `println!` that never panics (see [`line`]).
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::line(format_args!($($arg)*))
    };
}

#[cfg(test)]
mod escape_tests {
    use super::escape_controls;

    #[test]
    fn escape_sequences_are_shown_not_obeyed() {
        assert_eq!(
            escape_controls("docs/\u{1b}[31mred.md"),
            "docs/\\u001b[31mred.md"
        );
        assert_eq!(
            escape_controls("a\rb\u{7f}\u{9b}c"),
            "a\\u000db\\u007f\\u009bc"
        );
        assert_eq!(escape_controls("evil\u{202E}txt"), "evil\\u202etxt");
        // Lines and tabs stay; plain text is borrowed, not copied.
        assert!(matches!(
            escape_controls("a\tb\nc é"),
            std::borrow::Cow::Borrowed("a\tb\nc é")
        ));
    }

    #[test]
    fn inside_json_the_escape_is_the_same_string() {
        let value = serde_json::json!({"path": "x\u{9b}y\u{202e}"});
        let printed = serde_json::to_string(&value).unwrap();
        let escaped = escape_controls(&printed);
        let back: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(back, value);
    }
}
