//! Reading a repository file's lines for people and agents (`doc-bridge get`, the MCP
//! `read_document` tool): confined to the root, read beneath it with no link followed, bounded,
//! UTF-8 text only, and redacted.

use doc_bridge_enrich::redact::redact_keeping_lines;
use doc_bridge_model::RelPath;

use crate::mcp::confine::confine;
use crate::repo::Repo;

/// The most bytes read of one file (and never more than `safety.maxFileBytes`).
pub const MAX_READ_BYTES: u64 = 4 << 20;

/// Some lines of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lines {
    /// The file, repository-relative.
    pub path: RelPath,
    /// The first line given (1-based; `total + 1` when the range starts past the end).
    pub first: u32,
    /// The last line given (`first - 1` when none).
    pub last: u32,
    /// The file's line count.
    pub total: u32,
    /// The lines from `first` to `last`, each redacted.
    pub lines: Vec<String>,
}

/// Lines `start..start + count` (1-based) of `requested`, or why it cannot be read (a message
/// naming the path, never its contents).
pub fn read_lines(repo: &Repo, requested: &str, start: u32, count: u32) -> Result<Lines, String> {
    if start == 0 {
        return Err("lines are numbered from 1".to_owned());
    }
    let confined = confine(&repo.root, requested)?;
    let limit = repo.config.safety.max_file_bytes().min(MAX_READ_BYTES);
    // Opened beneath the root with no link followed: the file confined a moment ago may have
    // been swapped since.
    let bytes = repo
        .root_dir
        .read_file(confined.rel.as_str(), limit)
        .map_err(|e| format!("cannot read `{}`: {e}", confined.rel))?
        .ok_or_else(|| format!("`{}` is over the {limit}-byte read limit", confined.rel))?;
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) if !text.contains('\0') => text,
        _ => return Err(format!("`{}` is not UTF-8 text", confined.rel)),
    };
    let all: Vec<&str> = text.lines().collect();
    let total = u32::try_from(all.len()).unwrap_or(u32::MAX);
    let first = start.min(total.saturating_add(1));
    let last = first.saturating_add(count.saturating_sub(1)).min(total);
    let chosen: Vec<&str> = (first..=last)
        .filter_map(|n| all.get((n as usize).checked_sub(1)?).copied())
        .collect();
    // Redacted as one text, so a secret spanning lines is caught whole; line for line, so the
    // numbers still hold.
    let lines: Vec<String> = if chosen.is_empty() {
        Vec::new()
    } else {
        redact_keeping_lines(&chosen.join("\n"))
            .split('\n')
            .map(str::to_owned)
            .collect()
    };
    let last = if lines.is_empty() {
        first.saturating_sub(1)
    } else {
        last
    };
    Ok(Lines {
        path: confined.rel,
        first,
        last,
        total,
        lines,
    })
}
