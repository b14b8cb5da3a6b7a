//! AsciiDoc analyzer: the same facts as the Markdown one, read line by line.
//!
//! What it reads:
//!
//! - the document title (`= Title`) and sections (`==` to `======`, or Markdown-style `#`),
//!   `=` as level 1, `==` as level 2 and so on; header attributes (`:description:`,
//!   `:keywords:`, any other `:name: value` right after the title) as front matter;
//! - paragraphs, list items, block titles, admonitions and table cells as body text; listing
//!   (`----`) and literal (`....`) blocks and indented literal paragraphs as code; comments
//!   (`//`, `////`) and passthrough blocks (`++++`) are left out;
//! - links: `xref:` and `<<file.adoc#id,text>>` (to a file), `<<id>>` (to a label,
//!   [`Link::label`]), `include::`, `image::`/`image:`, `link:`, URLs with or without a
//!   `[text]`;
//! - labels: `[[id]]`, `[#id]` and each section's generated id (`_getting_started`);
//! - mentions: monospace text (`` `name` ``).
//!
//! Linear in the text; never panics.

use crate::collected::Collected;
use crate::lines::split_lines;
use crate::links::split_destination;
use crate::text::Collapsed;
use crate::{CodeMention, FrontMatter, Link, MarkdownFacts};

/// Block macros whose target is a file the document includes or shows.
const FILE_MACROS: &[(&str, bool)] = &[
    ("include::", false),
    ("image::", true),
    ("video::", false),
    ("audio::", false),
];

/// Analyzes one AsciiDoc document. `file_stem` is the title of last resort.
pub fn analyze(text: &str, file_stem: &str) -> MarkdownFacts {
    let lines = split_lines(text);
    let mut walker = Walker::default();
    walker.walk(&lines);
    let description = walker
        .out
        .front_matter
        .as_ref()
        .and_then(|fm| fm.description.clone());
    walker
        .out
        .into_facts(file_stem, lines.len(), description.as_deref())
}

/// What the lines inside an open delimited block are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Delimited {
    /// Listing and literal blocks: code.
    Code,
    /// Comment and passthrough blocks: not read.
    Skipped,
}

#[derive(Default)]
struct Walker {
    out: Collected,
    paragraph: Option<Collapsed>,
    /// Lines of an indented (literal) paragraph are code.
    literal_paragraph: bool,
    /// In the header: right after the document title, where attribute entries are metadata.
    in_header: bool,
}

impl Walker {
    fn walk(&mut self, lines: &[&str]) {
        // The open delimited block: its delimiter line and what it holds.
        let mut open: Option<(&str, Delimited)> = None;
        for (index, line) in lines.iter().enumerate() {
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            let trimmed = line.trim_end();
            if let Some((delimiter, kind)) = open {
                if trimmed == delimiter {
                    open = None;
                    if kind == Delimited::Code {
                        self.out.code.push('\n');
                    }
                } else if kind == Delimited::Code {
                    self.out.code.push_str(trimmed);
                    self.out.code.push('\n');
                }
                continue;
            }
            if trimmed.is_empty() {
                self.end_paragraph();
                self.in_header = false;
                continue;
            }
            if let Some(kind) = delimiter_kind(trimmed) {
                self.end_paragraph();
                self.in_header = false;
                if let Some(kind) = kind {
                    open = Some((trimmed, kind));
                }
                continue;
            }
            if trimmed.starts_with("//") {
                continue;
            }
            if let Some((level, title)) = section(trimmed)
                && self.paragraph.is_none()
            {
                self.heading(level, title, number);
                continue;
            }
            if let Some((name, value)) = attribute_entry(trimmed)
                && self.paragraph.is_none()
            {
                if self.in_header || self.out.headings.is_empty() {
                    self.attribute(name, value);
                }
                continue;
            }
            self.in_header = false;
            if let Some(block_attributes) = trimmed
                .strip_prefix('[')
                .and_then(|rest| rest.strip_suffix(']'))
                && self.paragraph.is_none()
            {
                self.block_attributes(block_attributes, number);
                continue;
            }
            if self.paragraph.is_none()
                && let Some(found) = FILE_MACROS
                    .iter()
                    .find_map(|(name, image)| Some((trimmed.strip_prefix(name)?, *image)))
            {
                let (macro_target, is_image) = found;
                let target = macro_target.split('[').next().unwrap_or(macro_target);
                self.link(target, number, is_image);
                continue;
            }
            if self.paragraph.is_none() && line.starts_with([' ', '\t']) {
                self.literal_paragraph = true;
            }
            if self.literal_paragraph {
                self.out.code.push_str(trimmed.trim_start());
                self.out.code.push('\n');
                continue;
            }
            // A block title (`.Title`) is text, not a paragraph's start.
            let text = match trimmed.strip_prefix('.') {
                Some(title) if title.starts_with(|c: char| !c.is_whitespace() && c != '.') => title,
                _ => trimmed,
            };
            self.paragraph_line(text, number);
        }
        self.end_paragraph();
    }

    fn attribute(&mut self, name: &str, value: &str) {
        let front_matter = self
            .out
            .front_matter
            .get_or_insert_with(FrontMatter::default);
        match name {
            "description" => front_matter.description = Some(value.to_owned()),
            "keywords" => {
                front_matter.tags = value
                    .split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(str::to_owned)
                    .collect();
            }
            _ => {
                let value = if value.is_empty() {
                    serde_json::Value::Bool(true)
                } else {
                    serde_json::Value::String(value.to_owned())
                };
                front_matter.extra.insert(name.to_ascii_lowercase(), value);
            }
        }
    }

    /// `[[id]]`, `[#id.role]`, `[source,python]` on a line of their own.
    fn block_attributes(&mut self, attributes: &str, number: u32) {
        if let Some(anchor) = attributes
            .strip_prefix('[')
            .and_then(|a| a.strip_suffix(']'))
        {
            let id = anchor.split(',').next().unwrap_or(anchor);
            self.label(id, number);
        } else if let Some(id) = attributes.strip_prefix('#') {
            let id = id.split(['.', '%', ',']).next().unwrap_or(id);
            self.label(id, number);
        }
    }

    fn label(&mut self, id: &str, number: u32) {
        self.out.label(id.trim(), number);
    }

    fn heading(&mut self, level: usize, title: &str, number: u32) {
        self.end_paragraph();
        self.literal_paragraph = false;
        self.in_header = level == 1 && self.out.headings.is_empty();
        let mut inline = Inline::default();
        inline.scan(title, number);
        let mut text = Collapsed::default();
        text.push(&inline.text);
        self.take_inline(inline);
        let text = text.into_string();
        self.out.label(&generated_id(&text), number);
        self.out.heading(level, text, number);
    }

    fn paragraph_line(&mut self, line: &str, number: u32) {
        let mut inline = Inline::default();
        inline.scan(line, number);
        let paragraph = self.paragraph.get_or_insert_with(Collapsed::default);
        paragraph.push(&inline.text);
        paragraph.push(" ");
        self.take_inline(inline);
    }

    fn end_paragraph(&mut self) {
        self.literal_paragraph = false;
        if let Some(paragraph) = self.paragraph.take() {
            self.out.paragraph(paragraph, true);
        }
    }

    fn take_inline(&mut self, inline: Inline) {
        for (target, line, is_image) in inline.links {
            self.link(&target, line, is_image);
        }
        for (label, line) in inline.label_links {
            self.out.label_link(&label, line);
        }
        self.out.mentions.extend(inline.mentions);
    }

    fn link(&mut self, target: &str, line: u32, is_image: bool) {
        let target = target.trim();
        // An attribute reference (`{docs-url}/x`) is resolved by the toolchain, not here.
        if target.is_empty() || target.contains('{') {
            return;
        }
        let external = target.contains("://") || target.starts_with("mailto:");
        // Antora's `component:module:page.adoc` names a page of another component.
        let antora = !external && target.split('#').next().unwrap_or("").contains(':');
        let destination = split_destination(target, external || antora);
        self.out.links.push(Link {
            target: target.to_owned(),
            path: destination.path,
            site_path: destination.site_path,
            fragment: destination.fragment,
            label: None,
            line,
            is_image,
            glob: false,
            includes: false,
        });
    }
}

/// The inline markup of one line: its visible text, links, label links and mentions.
#[derive(Default)]
struct Inline {
    text: String,
    links: Vec<(String, u32, bool)>,
    label_links: Vec<(String, u32)>,
    mentions: Vec<CodeMention>,
}

impl Inline {
    fn scan(&mut self, line: &str, number: u32) {
        let mut at = 0;
        // From these offsets on, the line has no closing backtick or `>>` (searches found none),
        // so every search resumes past the last and the scan stays linear.
        let mut no_backtick_from = usize::MAX;
        let mut no_angle_from = usize::MAX;
        while at < line.len() {
            let rest = &line[at..];
            if rest.starts_with('`') && at < no_backtick_from {
                match rest[1..].find('`') {
                    Some(end) if end > 0 => {
                        let code = &rest[1..1 + end];
                        let code = code
                            .strip_prefix('+')
                            .and_then(|c| c.strip_suffix('+'))
                            .unwrap_or(code);
                        self.text.push_str(code);
                        if !code.trim().is_empty() {
                            self.mentions.push(CodeMention {
                                text: code.trim().to_owned(),
                                line: number,
                            });
                        }
                        at += end + 2;
                        continue;
                    }
                    Some(_) => {}
                    None => no_backtick_from = at,
                }
            }
            if rest.starts_with("<<") && at < no_angle_from {
                match rest[2..].find(">>") {
                    Some(end) => {
                        let inner = &rest[2..2 + end];
                        let (target, text) = inner.split_once(',').unwrap_or((inner, ""));
                        let target = target.trim();
                        if target.contains('#') || target.ends_with(".adoc") {
                            self.links.push((target.to_owned(), number, false));
                        } else if !target.is_empty() {
                            self.label_links.push((target.to_owned(), number));
                        }
                        self.text
                            .push_str(if text.is_empty() { target } else { text });
                        at += end + 4;
                        continue;
                    }
                    None => no_angle_from = at,
                }
            }
            if let Some((target, text, length, is_image)) = inline_macro(rest) {
                let starts_word = line[..at].ends_with(|c: char| !c.is_alphanumeric()) || at == 0;
                if starts_word {
                    if !target.is_empty() {
                        self.links.push((target.to_owned(), number, is_image));
                    }
                    self.text.push_str(text);
                    at += length;
                    continue;
                }
            }
            let Some(c) = rest.chars().next() else {
                break;
            };
            // Constrained formatting marks (`*bold*`, `_italic_`, `#mark#`) are not text.
            let before = line[..at].chars().next_back();
            let after = rest[c.len_utf8()..].chars().next();
            let opens = before.is_none_or(|b| !b.is_alphanumeric())
                && after.is_some_and(|a| !a.is_whitespace());
            let closes = before.is_some_and(|b| !b.is_whitespace())
                && after.is_none_or(|a| !a.is_alphanumeric());
            let mark = matches!(c, '*' | '_' | '#') && (opens || closes);
            if !mark {
                self.text.push(c);
            }
            at += c.len_utf8();
        }
    }
}

/// An inline macro or URL at the start of `text`: `xref:t[x]`, `link:t[x]`, `image:t[x]`,
/// `https://t[x]`, a bare `https://t`. Gives the target, the visible text, the bytes read and
/// whether it is an image.
fn inline_macro(text: &str) -> Option<(&str, &str, usize, bool)> {
    let (prefix, is_image, keep_prefix) =
        ["xref:", "link:", "image:", "https://", "http://", "mailto:"]
            .iter()
            .find(|p| text.starts_with(**p))
            .map(|p| (*p, *p == "image:", p.contains("//") || *p == "mailto:"))?;
    let after = &text[prefix.len()..];
    let end = after
        .find(|c: char| c.is_whitespace() || c == '[')
        .unwrap_or(after.len());
    let target_end = prefix.len() + end;
    let target = if keep_prefix {
        &text[..target_end]
    } else {
        &after[..end]
    };
    if after[end..].starts_with('[')
        && let Some(close) = after[end..].find(']')
    {
        let shown = &after[end + 1..end + close];
        let shown = shown.split(',').next().unwrap_or(shown);
        let shown = if shown.is_empty() && !is_image {
            target
        } else {
            shown
        };
        return Some((target, shown, target_end + close + 1, is_image));
    }
    if !keep_prefix {
        // `xref:` and `link:` need their brackets; without them the text is prose.
        return None;
    }
    let target = target.trim_end_matches(['.', ',', ';', ':', ')']);
    Some((target, target, target.len(), false))
}

/// `== Title` (or `## Title`): the level (`=` is 1) and the title.
fn section(line: &str) -> Option<(usize, &str)> {
    let marker = line.chars().next().filter(|c| matches!(c, '=' | '#'))?;
    let level = line.chars().take_while(|c| *c == marker).count();
    let title = line[level..].strip_prefix([' ', '\t'])?.trim();
    ((1..=6).contains(&level) && !title.is_empty()).then_some((level, title))
}

/// `:name: value` or `:name!:` (an attribute entry): the name and the value.
fn attribute_entry(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix(':')?;
    let end = inner.find(':')?;
    let name = inner[..end].trim_end_matches('!');
    let value = &inner[end + 1..];
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_'))
        && (value.is_empty() || value.starts_with(' '));
    valid.then(|| (name, value.trim()))
}

/// For a delimiter line: `Some(Some(kind))` opens a code or skipped block, `Some(None)` a
/// block whose content is text (example, sidebar, quote, open, table); `None` for other lines.
fn delimiter_kind(line: &str) -> Option<Option<Delimited>> {
    if line == "--" {
        return Some(None);
    }
    if matches!(line, "|===" | ",===" | ":===" | "!===") {
        return Some(None);
    }
    let first = line.chars().next()?;
    if line.len() < 4 || !line.chars().all(|c| c == first) {
        return None;
    }
    match first {
        '-' | '.' => Some(Some(Delimited::Code)),
        '/' | '+' => Some(Some(Delimited::Skipped)),
        '=' | '*' | '_' => Some(None),
        _ => None,
    }
}

/// The id Asciidoctor generates for a section title by default: `_` and the title lowercased,
/// each run of other characters than letters and digits one `_`.
fn generated_id(title: &str) -> String {
    let mut id = String::from("_");
    for c in title.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            id.push(c);
        } else if !id.ends_with('_') {
            id.push('_');
        }
    }
    if id.len() > 1 {
        while id.ends_with('_') {
            id.pop();
        }
    }
    id
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A link's fields as the tests compare them.
    type LinkRow<'a> = (
        &'a str,
        Option<&'a str>,
        Option<&'a str>,
        Option<&'a str>,
        u32,
        bool,
    );

    const SAMPLE: &str = "\
= Getting Started
:description: How to install and run the server.
:keywords: install, setup
:toc:

The *server* reads `config.yml` at start.
See xref:reference/options.adoc#port[the port option] and <<running>>.

[[running]]
== Running It

[source,java]
----
Server.start();
----

// a comment
NOTE: Use https://example.org/docs[the docs] or https://example.org.

include::partials/common.adoc[]
image::images/logo.png[Logo]

////
hidden
////

|===
| Name | Default
| port | 8080
|===

=== Details
Indented below.

  literal text
";

    #[test]
    fn reads_titles_links_labels_and_code() {
        let facts = analyze(SAMPLE, "start");
        assert_eq!(facts.title, "Getting Started");
        let headings: Vec<(u8, &str, u32)> = facts
            .headings
            .iter()
            .map(|h| (h.level, h.text.as_str(), h.line))
            .collect();
        assert_eq!(
            headings,
            vec![
                (1, "Getting Started", 1),
                (2, "Running It", 10),
                (3, "Details", 32)
            ]
        );
        assert_eq!(facts.summary, "How to install and run the server.");
        let front_matter = facts.front_matter.unwrap();
        assert_eq!(front_matter.tags, vec!["install", "setup"]);
        assert_eq!(front_matter.extra["toc"], serde_json::Value::Bool(true));

        let links: Vec<LinkRow<'_>> = facts
            .links
            .iter()
            .map(|l| {
                (
                    l.target.as_str(),
                    l.path.as_deref(),
                    l.fragment.as_deref(),
                    l.label.as_deref(),
                    l.line,
                    l.is_image,
                )
            })
            .collect();
        assert_eq!(
            links,
            vec![
                (
                    "reference/options.adoc#port",
                    Some("reference/options.adoc"),
                    Some("port"),
                    None,
                    7,
                    false
                ),
                ("running", None, None, Some("running"), 7, false),
                ("https://example.org/docs", None, None, None, 18, false),
                ("https://example.org", None, None, None, 18, false),
                (
                    "partials/common.adoc",
                    Some("partials/common.adoc"),
                    None,
                    None,
                    20,
                    false
                ),
                (
                    "images/logo.png",
                    Some("images/logo.png"),
                    None,
                    None,
                    21,
                    true
                ),
            ]
        );
        let labels: Vec<&str> = facts.labels.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(
            labels,
            vec!["_getting_started", "running", "_running_it", "_details"]
        );
        assert_eq!(
            facts
                .code_mentions
                .iter()
                .map(|m| m.text.as_str())
                .collect::<Vec<_>>(),
            vec!["config.yml"]
        );
        assert_eq!(facts.code, "Server.start();\n\nliteral text\n");
        assert!(
            facts
                .body
                .contains("The server reads config.yml at start. See the port option and running."),
            "{}",
            facts.body
        );
        assert!(
            facts
                .body
                .contains("NOTE: Use the docs or https://example.org."),
            "{}",
            facts.body
        );
        assert!(facts.body.contains("| port | 8080"), "{}", facts.body);
        assert!(!facts.body.contains("hidden") && !facts.body.contains("comment"));
        assert_eq!(facts.line_count, 35);
    }

    #[test]
    fn antora_and_attribute_targets_are_not_paths() {
        let facts = analyze(
            "xref:other-component:module:page.adoc[x] link:{base}/a[y] xref:local.adoc[z]\n",
            "x",
        );
        let paths: Vec<Option<&str>> = facts.links.iter().map(|l| l.path.as_deref()).collect();
        assert_eq!(paths, vec![None, Some("local.adoc")]);
    }

    #[test]
    fn generated_ids_follow_asciidoctor() {
        assert_eq!(generated_id("Running It"), "_running_it");
        assert_eq!(generated_id("What's new?"), "_what_s_new");
    }

    proptest::proptest! {
        #[test]
        fn never_panics(text in "[ \t\n\r=#*_`<>,\\[\\]:./a-z\\-+\u{e9}\u{3000}]{0,300}") {
            let facts = analyze(&text, "stem");
            proptest::prop_assert!(facts.headings.iter().all(|h| (1..=3).contains(&h.level)));
            proptest::prop_assert!(facts.links.iter().all(|l| l.line >= 1 && l.line <= facts.line_count.max(1)));
        }
    }
}
