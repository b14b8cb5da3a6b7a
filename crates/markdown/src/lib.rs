//! Document analyzers of doc-bridge: Markdown, reStructuredText and AsciiDoc.
//!
//! [`analyze`] (Markdown), [`rst::analyze`] and [`asciidoc::analyze`] are pure functions from a
//! document's text to one [`MarkdownFacts`]: front matter, title, headings, summary, searchable
//! body text, code, links, labels and inline code mentions. [`Format`] picks the analyzer by
//! file name. They read no files, no clock and no global state, and they never panic, whatever
//! the input.

#![warn(missing_docs)]

pub mod asciidoc;
mod autolink;
mod collected;
mod front_matter;
mod lines;
mod links;
pub use links::forge_file_path;
mod mdbook;
mod myst;
pub mod rst;
mod text;
mod walk;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Bumped whenever the output for the same input could change (it keys analysis caches).
pub const ANALYZER_VERSION: u32 = 14;

/// The markup language of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Markdown and MDX (`.md`, `.mdx`, `.markdown`).
    Markdown,
    /// reStructuredText (`.rst`, `.rest`; `.txt` only where the caller knows a Sphinx source
    /// tree holds it).
    ReStructuredText,
    /// AsciiDoc (`.adoc`, `.asciidoc`, `.asc`).
    AsciiDoc,
}

impl Format {
    /// The format a file extension (any case) names; `txt` names none.
    pub fn from_extension(extension: &str) -> Option<Format> {
        match extension.to_ascii_lowercase().as_str() {
            "md" | "mdx" | "markdown" => Some(Format::Markdown),
            "rst" | "rest" => Some(Format::ReStructuredText),
            "adoc" | "asciidoc" | "asc" => Some(Format::AsciiDoc),
            _ => None,
        }
    }

    /// Analyzes `text` with this format's analyzer.
    pub fn analyze(self, text: &str, file_stem: &str) -> MarkdownFacts {
        match self {
            Format::Markdown => analyze(text, file_stem),
            Format::ReStructuredText => rst::analyze(text, file_stem),
            Format::AsciiDoc => asciidoc::analyze(text, file_stem),
        }
    }
}

/// Maximum length of [`MarkdownFacts::summary`] in characters, the trailing
/// "…" of a cut summary included.
pub const SUMMARY_MAX_CHARS: usize = 280;

/// Everything the analyzer learns from one Markdown (or MDX) document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MarkdownFacts {
    /// The parsed front matter; None when the document has none or it is broken.
    pub front_matter: Option<FrontMatter>,
    /// Set when a front matter block exists but is not a valid YAML mapping.
    pub front_matter_error: Option<FrontMatterError>,
    /// Front matter title, else the first level-1 heading, else the file stem.
    pub title: String,
    /// Where [`Self::title`] came from.
    pub title_source: TitleSource,
    /// Headings of levels 1 to 3, in document order.
    pub headings: Vec<Heading>,
    /// Front matter description, else the first paragraph's plain text;
    /// whitespace collapsed, at most [`SUMMARY_MAX_CHARS`] characters, ending
    /// with "…" when cut.
    pub summary: String,
    /// The whole document as plain searchable text, one block (paragraph,
    /// heading, list item, table row…) per line. Markup, HTML, code blocks and
    /// front matter are left out; inline code, link text and image alt text
    /// stay.
    pub body: String,
    /// The text of the code blocks (fenced and indented), as written, one block per run of
    /// lines; searchable apart from the prose (configuration examples, commands, API calls).
    pub code: String,
    /// Every link and image with a destination, and every raw URL, in
    /// document order.
    pub links: Vec<Link>,
    /// Every inline code span (not code blocks), in document order; in reStructuredText also
    /// the objects Sphinx roles and directives name.
    pub code_mentions: Vec<CodeMention>,
    /// Labels a link can name from another document (`.. _label:` in reStructuredText,
    /// `[[id]]` and `[#id]` in AsciiDoc), in document order. Markdown has none.
    #[serde(default)]
    pub labels: Vec<Label>,
    /// Number of lines of the whole text; a trailing line ending does not add
    /// a line and the empty text has 0.
    pub line_count: u32,
}

/// Where the title of a document came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TitleSource {
    /// The `title` of the front matter.
    FrontMatter,
    /// The first level-1 heading.
    Heading,
    /// The file stem given by the caller.
    FileStem,
}

/// The YAML front matter of a document, with the keys doc-bridge knows typed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FrontMatter {
    /// `title`, trimmed; a number or boolean is kept as its text.
    pub title: Option<String>,
    /// `description`, trimmed.
    pub description: Option<String>,
    /// `tags`: a YAML list, or a single string split on commas.
    pub tags: Vec<String>,
    /// `audience`, read like `tags`.
    pub audience: Vec<String>,
    /// `owner`, trimmed.
    pub owner: Option<String>,
    /// `covers`, read like `tags`.
    pub covers: Vec<String>,
    /// `checks`, read like `tags`.
    pub checks: Vec<String>,
    /// `lang`, else `language`, else `locale`.
    pub lang: Option<String>,
    /// Every other top-level key, as JSON.
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// Why a front matter block could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrontMatterError {
    /// 1-based line of the file where the problem was found.
    pub line: u32,
    /// The YAML parser's message (no snippet of the document).
    pub message: String,
}

/// A heading of level 1 to 3.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heading {
    /// 1, 2 or 3.
    pub level: u8,
    /// Plain text of the heading, whitespace collapsed; inline code and
    /// emphasised text kept.
    pub text: String,
    /// 1-based line of the file where the heading starts.
    pub line: u32,
}

/// A link, image or raw URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// The destination as written (after Markdown unescaping); a raw `www.`
    /// URL gets an `http://` scheme.
    pub target: String,
    /// Percent-decoded relative path without query and fragment; None for
    /// URLs with a scheme, `//host`, absolute `/…` paths and bare `#anchors`.
    pub path: Option<String>,
    /// Percent-decoded path of a site-absolute target (`/guide/intro`, as a documentation site
    /// serves it), without query and fragment, the leading `/` kept; None for every other
    /// target (`//host` included).
    pub site_path: Option<String>,
    /// Percent-decoded text after the first `#`, if any.
    pub fragment: Option<String>,
    /// A link to a label rather than a file (a Sphinx `:ref:`, an AsciiDoc `<<id>>`), normalized
    /// by [`normalize_label`]; `path` and `site_path` are None.
    #[serde(default)]
    pub label: Option<String>,
    /// 1-based line of the file where the link starts.
    pub line: u32,
    /// True for images.
    pub is_image: bool,
    /// A pattern of document names (a `toctree` entry under `:glob:`, `guide/*`): `path` or
    /// `site_path` holds the pattern, which links to every document whose name it matches.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub glob: bool,
    /// The target's text is read into this document where the link stands (reStructuredText's
    /// `include`, mdBook's `{{#include}}`): its relative links are then written for this
    /// document's folder as much as for its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub includes: bool,
}

/// A label a document defines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Label {
    /// The label, normalized by [`normalize_label`].
    pub name: String,
    /// 1-based line where it is defined.
    pub line: u32,
}

/// A label as references match it (docutils' reference names): lowercase, whitespace runs
/// collapsed to one space, trimmed.
pub fn normalize_label(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// An inline code span.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeMention {
    /// The code, as the Markdown parser reports it (line endings become spaces).
    pub text: String,
    /// 1-based line of the file where the span starts.
    pub line: u32,
}

/// Analyzes one document. `file_stem` is the title of last resort.
///
/// Linear in the length of `text`; never panics.
pub fn analyze(text: &str, file_stem: &str) -> MarkdownFacts {
    let lines = lines::LineIndex::new(text);
    let split = front_matter::unless_prose(front_matter::split(text), text);
    let (front_matter, front_matter_error) = match split.block.as_ref().map(front_matter::parse) {
        Some(Ok(front_matter)) => (Some(front_matter), None),
        Some(Err(error)) => (None, Some(error)),
        None => (None, None),
    };
    let walked = walk::walk(text, split.body_start, &lines);
    let (labels, myst_links) = myst::scan(text, split.body_start);
    let mut links = walked.links;
    links.extend(myst_links);
    links.extend(mdbook::scan(text, split.body_start));

    let front_matter_title = front_matter.as_ref().and_then(|fm| fm.title.clone());
    let first_h1 = walked
        .headings
        .iter()
        .find(|heading| heading.level == 1 && !heading.text.is_empty())
        .map(|heading| heading.text.clone());
    let (title, title_source) = if let Some(title) = front_matter_title {
        (title, TitleSource::FrontMatter)
    } else if let Some(title) = first_h1 {
        (title, TitleSource::Heading)
    } else {
        (file_stem.to_owned(), TitleSource::FileStem)
    };

    let description = front_matter
        .as_ref()
        .and_then(|fm| fm.description.as_deref())
        .map(|description| {
            let mut buffer = text::summary_buffer();
            buffer.push(description);
            buffer
        })
        .filter(|buffer| !buffer.is_empty())
        .map(text::Collapsed::into_string);
    let summary = description
        .or(walked.first_paragraph)
        .map(text::truncate_summary)
        .unwrap_or_default();

    MarkdownFacts {
        front_matter,
        front_matter_error,
        title,
        title_source,
        headings: walked.headings,
        summary,
        body: walked.body,
        code: walked.code,
        links,
        code_mentions: walked.code_mentions,
        labels,
        line_count: lines.line_count(),
    }
}
