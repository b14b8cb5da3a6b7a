//! The file paths a module's string literals name: `"general-llm-prompt.md"`,
//! `f"release.{kind}.rst"`, `` `messages/${category}/${file}` ``. A script that reads or writes
//! a document names it this way, and discovery uses them to tell a data file or a generated
//! page from an orphan or a broken link ([`crate::SourceFacts::paths`]).
//!
//! Only literals that read as a relative path to a document are kept, as glob patterns (an
//! interpolation is `*`): the file name ends in a document extension and something besides the
//! extension is written out (`*/*.md` could be any document), or the path has a folder and ends
//! in an interpolation (a file the code picks at run time). Nothing with spaces, a
//! scheme (`https:`), an absolute root, or a `*` written in the literal: a glob in code (an
//! exclusion list's `api/*`, a link checker's `**/*.md`) matches files, it names none of them.

/// At most this many paths are kept per module.
pub const MAX_PATHS: usize = 64;

/// The extensions of the files discovery reads as documents.
const DOCUMENT_EXTENSIONS: &[&str] = &[
    "md", "mdx", "markdown", "rst", "txt", "adoc", "asciidoc", "ipynb",
];

/// The pattern `literal` names, when it reads as a relative path to a document; `*` stands for
/// an interpolation. A leading `./` is dropped.
pub(crate) fn document_pattern(literal: &str) -> Option<&str> {
    let path = literal.trim_start_matches("./");
    if path.len() < 3 || path.len() > 240 || path.starts_with('/') || path.contains("**") {
        return None;
    }
    let allowed = |c: char| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '/' | '*' | '+');
    if !path.chars().all(allowed) || path.split('/').any(str::is_empty) {
        return None;
    }
    let (dir, name) = match path.rsplit_once('/') {
        Some((dir, name)) => (Some(dir), name),
        None => (None, path),
    };
    let named = |text: &str| text.chars().any(char::is_alphanumeric);
    // A document, with something of its path written out (`*/*.md` could be any document).
    let document = path.rsplit_once('.').is_some_and(|(rest, extension)| {
        name.contains('.')
            && named(rest)
            && DOCUMENT_EXTENSIONS
                .iter()
                .any(|e| e.eq_ignore_ascii_case(extension))
    });
    // A file the code picks at run time, in a folder it names (`messages/*/*`).
    let picked = name == "*" && dir.is_some_and(named);
    (document || picked).then_some(path)
}

/// A string literal being assembled from its parts.
#[derive(Default)]
pub(crate) struct Pattern {
    text: String,
    /// A part that cannot be part of a path (an escape sequence) was seen.
    spoiled: bool,
}

impl Pattern {
    /// Appends literal text. A `*` written in the literal spoils it: a glob in code (an
    /// exclusion list's `api/*`) matches files, it does not name one.
    pub(crate) fn text(&mut self, text: &str) {
        if text.contains('*') {
            self.spoiled = true;
        }
        self.text.push_str(text);
    }

    /// Appends an interpolation: `*`, once for a run of them.
    pub(crate) fn interpolation(&mut self) {
        if !self.text.ends_with('*') {
            self.text.push('*');
        }
    }

    /// Marks the literal as no path.
    pub(crate) fn spoil(&mut self) {
        self.spoiled = true;
    }

    /// The document pattern the literal names, if any.
    pub(crate) fn finish(&self) -> Option<&str> {
        if self.spoiled {
            return None;
        }
        document_pattern(&self.text)
    }
}

/// Adds `pattern` to `paths` unless it is there or the list is full.
pub(crate) fn push(paths: &mut Vec<String>, pattern: &str) {
    if paths.len() < MAX_PATHS && !paths.iter().any(|p| p == pattern) {
        paths.push(pattern.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_paths_and_run_time_picks_are_kept() {
        for (literal, pattern) in [
            ("general-llm-prompt.md", "general-llm-prompt.md"),
            ("./docs/guide.RST", "docs/guide.RST"),
            ("../README.md", "../README.md"),
            ("release.*.rst", "release.*.rst"),
            ("messages/*/*", "messages/*/*"),
            ("docs/*", "docs/*"),
            ("*-gallery.txt", "*-gallery.txt"),
            ("notebooks/intro.ipynb", "notebooks/intro.ipynb"),
        ] {
            assert_eq!(document_pattern(literal), Some(pattern), "{literal}");
        }
    }

    #[test]
    fn what_is_no_document_path_is_dropped() {
        for literal in [
            "./utils",            // an import: no document extension
            "text/html",          // a media type
            "https://x.org/a.md", // a URL
            "/etc/motd.txt",      // absolute
            "**/*.md",            // every document
            "*.md",               // every document of an unnamed folder
            "*/*.md",             // any document of any folder
            "*",                  // anything
            "a//b.md",            // not a path
            "see the guide.md",   // prose
            ".md",                // no name
            "*/*",                // a pick in a folder the module does not say
        ] {
            assert_eq!(document_pattern(literal), None, "{literal}");
        }
    }

    #[test]
    fn interpolations_become_one_star_and_escapes_and_written_globs_spoil() {
        let mut glob = Pattern::default();
        glob.text("api/*");
        assert_eq!(glob.finish(), None);
        let mut pattern = Pattern::default();
        pattern.text("messages/");
        pattern.interpolation();
        pattern.text("/");
        pattern.interpolation();
        pattern.interpolation();
        assert_eq!(pattern.finish(), Some("messages/*/*"));
        pattern.spoil();
        assert_eq!(pattern.finish(), None);
    }

    #[test]
    fn a_path_is_kept_once_and_the_list_is_bounded() {
        let mut paths = Vec::new();
        push(&mut paths, "a.md");
        push(&mut paths, "a.md");
        assert_eq!(paths, ["a.md"]);
        for i in 0..100 {
            push(&mut paths, &format!("{i}.md"));
        }
        assert_eq!(paths.len(), MAX_PATHS);
    }
}
