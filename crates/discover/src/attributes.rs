//! `.gitattributes` `linguist-*` attributes: what a repository says of its own files
//! (GitHub Linguist's overrides). `linguist-generated`, `linguist-vendored` and
//! `linguist-documentation` mark files; `-linguist-generated` or `linguist-generated=false`
//! unmark them. The result is recorded per file in the snapshot (`files[].linguist`) and read by
//! the projection's file roles before any path convention.
//!
//! Patterns follow gitattributes: a pattern without a `/` matches a file name at any depth below
//! the `.gitattributes` file's directory; with one, it is relative to that directory; `*`, `?`,
//! `**` and character classes as in gitignore. Files are read in directory order (the root's
//! first) and lines in order: a later match overrides an earlier one, a deeper file a shallower.

use std::collections::BTreeMap;

use ignore::gitignore::GitignoreBuilder;

use doc_bridge_model::RelPath;

/// At most this many lines of one `.gitattributes` file are read.
pub const MAX_LINES: usize = 2_000;

/// What a repository says a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Linguist {
    /// `linguist-generated`.
    Generated,
    /// `linguist-vendored`.
    Vendored,
    /// `linguist-documentation`.
    Documentation,
    /// One of them explicitly unset (`-linguist-generated`, `linguist-vendored=false`): the
    /// file is plain source, whatever its path suggests.
    Source,
}

impl Linguist {
    /// The value recorded in the snapshot.
    pub fn as_str(self) -> &'static str {
        match self {
            Linguist::Generated => "generated",
            Linguist::Vendored => "vendored",
            Linguist::Documentation => "documentation",
            Linguist::Source => "source",
        }
    }
}

/// The `linguist` value of each of `paths` that a `.gitattributes` file names. `files` are the
/// `.gitattributes` files: (their directory, their text).
pub fn linguist_of<'p>(
    files: &[(RelPath, &str)],
    paths: impl Iterator<Item = &'p RelPath>,
) -> BTreeMap<RelPath, Linguist> {
    // Every rule: (directory, matcher, what it sets), in the order they apply.
    let mut ordered: Vec<&(RelPath, &str)> = files.iter().collect();
    ordered.sort_by(|a, b| {
        let depth = |p: &RelPath| {
            if p.is_root() {
                0
            } else {
                p.as_str().split('/').count()
            }
        };
        depth(&a.0).cmp(&depth(&b.0)).then(a.0.cmp(&b.0))
    });
    let mut rules = Vec::new();
    for (dir, text) in ordered {
        for line in text.lines().take(MAX_LINES) {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split_whitespace();
            let Some(pattern) = parts.next() else {
                continue;
            };
            let Some(value) = parts.rev().find_map(attribute) else {
                continue;
            };
            let base = if dir.is_root() {
                std::path::PathBuf::from("/")
            } else {
                std::path::Path::new("/").join(dir.as_str())
            };
            let mut builder = GitignoreBuilder::new(&base);
            if builder.add_line(None, pattern).is_err() {
                continue;
            }
            if let Ok(matcher) = builder.build() {
                rules.push((dir.clone(), matcher, value));
            }
        }
    }
    let mut found = BTreeMap::new();
    if rules.is_empty() {
        return found;
    }
    for path in paths {
        let full = std::path::Path::new("/").join(path.as_str());
        let mut value = None;
        for (dir, matcher, set) in &rules {
            if !path.is_within(dir) {
                continue;
            }
            if matcher
                .matched_path_or_any_parents(&full, false)
                .is_ignore()
            {
                value = Some(*set);
            }
        }
        if let Some(value) = value {
            found.insert(path.clone(), value);
        }
    }
    found
}

/// What one attribute of a line sets, if it is a `linguist-*` one this reads.
fn attribute(token: &str) -> Option<Linguist> {
    let (unset, token) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.strip_prefix('!').unwrap_or(token)),
    };
    let (name, value) = token.split_once('=').unwrap_or((token, "true"));
    let set = !unset && !matches!(value, "false" | "0");
    let kind = match name {
        "linguist-generated" => Linguist::Generated,
        "linguist-vendored" => Linguist::Vendored,
        "linguist-documentation" => Linguist::Documentation,
        _ => return None,
    };
    Some(if set { kind } else { Linguist::Source })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn p(path: &str) -> RelPath {
        RelPath::new(path).unwrap()
    }

    #[test]
    fn patterns_by_name_and_by_path_later_lines_and_deeper_files_win() {
        let root = "# generated code\n*.pb.go linguist-generated\n/third/** linguist-vendored\nsrc/keep.pb.go -linguist-generated\ndocs/*.py linguist-documentation=true\n";
        let nested = "local.js linguist-generated=true\n";
        let files = [(RelPath::root(), root), (p("web"), nested)];
        let paths = [
            p("api/x.pb.go"),
            p("src/keep.pb.go"),
            p("third/lib/a.c"),
            p("docs/example.py"),
            p("web/local.js"),
            p("local.js"),
            p("src/main.go"),
        ];
        let found = linguist_of(&files, paths.iter());
        assert_eq!(found.get(&p("api/x.pb.go")), Some(&Linguist::Generated));
        assert_eq!(found.get(&p("src/keep.pb.go")), Some(&Linguist::Source));
        assert_eq!(found.get(&p("third/lib/a.c")), Some(&Linguist::Vendored));
        assert_eq!(
            found.get(&p("docs/example.py")),
            Some(&Linguist::Documentation)
        );
        assert_eq!(found.get(&p("web/local.js")), Some(&Linguist::Generated));
        // The nested file's rules stay below its directory.
        assert_eq!(found.get(&p("local.js")), None);
        assert_eq!(found.get(&p("src/main.go")), None);
    }

    #[test]
    fn other_attributes_and_junk_lines_are_ignored() {
        let text = "*.txt text eol=lf\n\n   \n[broken\n*.md linguist-language=Markdown\n";
        let found = linguist_of(&[(RelPath::root(), text)], [p("a.txt"), p("b.md")].iter());
        assert!(found.is_empty());
    }
}
