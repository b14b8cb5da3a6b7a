//! `doc-bridge get PATH[:START[-END]]`: a file's lines, numbered, confined to the root and
//! redacted (the reader the MCP `read_document` tool uses, `crate::lines`).

use serde_json::json;

use crate::args::GetArgs;
use crate::exit::{CommandResult, Exit, UserError};
use crate::lines::read_lines;
use crate::repo::Repo;

/// The most lines one `get` prints.
pub const MAX_LINES: u32 = 100_000;

/// Prints the lines, or refuses (exit 2) naming why.
pub fn run(args: &GetArgs) -> CommandResult {
    let (path, start, end) = parse_target(&args.target)?;
    let repo = Repo::open(args.common.root.as_deref())?;
    let count = match end {
        Some(end) => end - start + 1,
        None => MAX_LINES,
    };
    let read = read_lines(&repo, path, start, count.min(MAX_LINES)).map_err(UserError::error)?;
    if args.output.json {
        crate::outln!(
            "{:#}",
            json!({
                "path": read.path,
                "startLine": read.first,
                "endLine": read.last,
                "totalLines": read.total,
                "lines": read.lines,
            })
        );
        return Ok(Exit::Ok);
    }
    let width = read.last.max(1).to_string().len();
    for (line, n) in read.lines.iter().zip(read.first..) {
        crate::outln!("{n:>width$} │ {line}");
    }
    Ok(Exit::Ok)
}

/// `PATH`, `PATH:START` or `PATH:START-END`: the path and the 1-based range. A final `:N` or
/// `:N-M` of digits is a range; anything else is part of the path.
fn parse_target(target: &str) -> Result<(&str, u32, Option<u32>), UserError> {
    let usage = || {
        UserError::error(format!(
            "`{target}`: give PATH, PATH:START or PATH:START-END with 1 <= START <= END"
        ))
    };
    let Some((path, range)) = target.rsplit_once(':') else {
        return Ok((target, 1, None));
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (start, end) = match range.split_once('-') {
        Some((a, b)) if digits(a) && digits(b) => (a, Some(b)),
        None if digits(range) => (range, None),
        _ => return Ok((target, 1, None)),
    };
    let start: u32 = start.parse().map_err(|_| usage())?;
    let end: Option<u32> = end.map(str::parse).transpose().map_err(|_| usage())?;
    if start == 0 || end.is_some_and(|end| end < start) || path.is_empty() {
        return Err(usage());
    }
    Ok((path, start, end))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::parse_target;

    #[test]
    fn targets_parse_into_a_path_and_a_range() {
        assert_eq!(parse_target("a/b.md").unwrap(), ("a/b.md", 1, None));
        assert_eq!(parse_target("a/b.md:5").unwrap(), ("a/b.md", 5, None));
        assert_eq!(parse_target("a/b.md:5-9").unwrap(), ("a/b.md", 5, Some(9)));
        assert_eq!(parse_target("a:b.md").unwrap(), ("a:b.md", 1, None));
        assert!(parse_target("a.md:0").is_err());
        assert!(parse_target("a.md:9-5").is_err());
        assert!(parse_target(":5").is_err());
    }
}
