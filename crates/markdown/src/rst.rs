//! reStructuredText (and Sphinx) analyzer: the same facts as the Markdown one, read line by
//! line.
//!
//! What it reads:
//!
//! - section titles (underlined, or over- and underlined), levels given by the order in which
//!   adornment styles first appear, as docutils does; the first title is the document's;
//! - file-wide metadata (a field list before anything but comments, targets and substitution
//!   definitions, `:orphan:`, `:tocdepth: 2`) as front
//!   matter keys;
//! - paragraphs, list items, table rows and the content of admonitions and other text
//!   directives as body text; literal blocks (`::`) and code directives (`code-block`,
//!   `doctest`, `testcode`, ...) as code; comments are left out;
//! - links: `:doc:` roles and `toctree` entries (document names, `/` for the Sphinx source
//!   directory), `:ref:` roles (to a label, [`Link::label`]), `:download:`, `include`,
//!   `literalinclude`, `image` and `figure` arguments, hyperlink targets
//!   (`.. _name: https://...`), embedded URIs (`` `text <https://...>`_ ``) and bare URLs;
//! - labels (`.. _label:`), normalized as docutils does (lowercase, whitespace collapsed);
//! - mentions: inline literals, Sphinx object roles (`:func:`, `:class:`, `:meth:`, `:mod:`,
//!   ...; `~` and `!` dropped, an explicit title's target taken), default-role text, the
//!   arguments of `auto*` and Python domain directives and `autosummary` entries.
//!
//! Linear in the text (every backtick search resumes where the last one stopped); never
//! panics.

use crate::collected::Collected;
use crate::lines::split_lines;
use crate::links::split_destination;
use crate::text::Collapsed;
use crate::{CodeMention, FrontMatter, Link, MarkdownFacts};

/// Directives whose content is code.
const CODE_DIRECTIVES: &[&str] = &[
    "code-block",
    "code",
    "sourcecode",
    "doctest",
    "testcode",
    "testoutput",
    "testsetup",
    "testcleanup",
    "ipython",
    "jupyter-execute",
    "prompt",
    "parsed-literal",
    "math",
    "graphviz",
    "digraph",
    "graph",
    "mermaid",
    "plot",
    "productionlist",
];

/// Directives whose content is not read at all.
const SKIPPED_DIRECTIVES: &[&str] = &["raw", "highlight", "meta"];

/// Directives whose argument is a file the document shows or includes.
const FILE_DIRECTIVES: &[&str] = &["include", "literalinclude", "image", "figure"];

/// Directives whose argument (and, for `autosummary`, content) names a code object.
fn names_objects(directive: &str) -> bool {
    let bare = directive.strip_prefix("py:").unwrap_or(directive);
    bare.starts_with("auto")
        || matches!(
            bare,
            "module"
                | "currentmodule"
                | "function"
                | "class"
                | "method"
                | "attribute"
                | "exception"
                | "data"
                | "decorator"
                | "property"
                | "classmethod"
                | "staticmethod"
        )
}

/// Roles whose content names a code object or file (a mention).
fn role_mentions(role: &str) -> bool {
    let bare = role.rsplit(':').next().unwrap_or(role);
    matches!(
        bare,
        "func"
            | "meth"
            | "class"
            | "mod"
            | "attr"
            | "exc"
            | "data"
            | "obj"
            | "const"
            | "type"
            | "member"
            | "var"
            | "enum"
            | "struct"
            | "macro"
            | "any"
            | "file"
            | "program"
            | "envvar"
    )
}

/// Analyzes one reStructuredText document. `file_stem` is the title of last resort.
pub fn analyze(text: &str, file_stem: &str) -> MarkdownFacts {
    let lines = split_lines(text);
    let mut walker = Walker::default();
    walker.walk(&lines);
    walker.out.into_facts(file_stem, lines.len(), None)
}

/// What a run of indented lines after a directive or `::` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Content {
    /// Code, kept in [`MarkdownFacts::code`].
    Code,
    /// Not read (comments, raw output).
    Skipped,
    /// `toctree` entries: document names.
    Toctree,
    /// `autosummary` entries: object names.
    Objects,
    /// Text, read as the lines come; the block only skips the directive's options.
    Text,
}

/// An open block: lines indented deeper than `indent` (and blank lines) belong to it.
#[derive(Debug, Clone, Copy)]
struct Block {
    indent: usize,
    content: Content,
    /// Still in the option lines (`:linenos:`) right after the directive.
    options: bool,
    /// The indentation of the first content line, which code is dedented by.
    content_indent: Option<usize>,
}

#[derive(Default)]
struct Walker {
    out: Collected,
    /// Adornment styles (character, overlined) in order of first appearance: index + 1 is the
    /// level.
    styles: Vec<(char, bool)>,
    /// The paragraph being read: its lines, read as one text at its end (inline markup may
    /// span lines).
    paragraph: Option<Paragraph>,
    /// Whether anything but metadata was seen (metadata fields come first).
    started: bool,
}

impl Walker {
    fn walk(&mut self, lines: &[&str]) {
        let mut block: Option<Block> = None;
        let mut index = 0;
        while index < lines.len() {
            let line = lines[index];
            let number = line_number(index);
            let indent = indentation(line);
            let blank = line.trim().is_empty();

            if let Some(open) = block.as_mut() {
                let inside = blank || indent > open.indent;
                if inside && open.content == Content::Text {
                    // A text directive's options are skipped; its content is read as the lines
                    // come.
                    if !blank && open.options && line.trim().starts_with(':') {
                        index += 1;
                        continue;
                    }
                    block = None;
                } else if inside {
                    if blank {
                        open.options = false;
                        if open.content == Content::Code
                            && !self.out.code.is_empty()
                            && !self.out.code.ends_with("\n\n")
                        {
                            self.out.code.push('\n');
                        }
                    } else {
                        let content = line.trim();
                        let option = open.options && content.starts_with(':');
                        open.options &= option;
                        if !option {
                            let base = *open.content_indent.get_or_insert(indent);
                            let dedented = &line[indent.min(base)..];
                            self.block_line(open.content, content, dedented, number);
                        }
                    }
                    index += 1;
                    continue;
                } else {
                    block = None;
                }
            }

            if blank {
                self.end_paragraph();
                index += 1;
                continue;
            }

            // A title: over- and underlined, or underlined.
            if indent == 0
                && let Some((title_at, consumed, style)) = title_at(lines, index)
                && self.paragraph.is_none()
            {
                self.heading(lines[title_at], line_number(title_at), style);
                index += consumed;
                continue;
            }
            if indent == 0 && is_adornment(line) && self.paragraph.is_none() {
                // A transition.
                index += 1;
                continue;
            }

            let content = line.trim();
            if let Some(rest) = content.strip_prefix("..")
                && (rest.is_empty() || rest.starts_with([' ', '\t']))
            {
                self.end_paragraph();
                block = self.explicit(rest.trim(), indent, number);
                index += 1;
                continue;
            }

            if !self.started
                && indent == 0
                && let Some((key, value)) = field(content)
            {
                let front_matter = self
                    .out
                    .front_matter
                    .get_or_insert_with(FrontMatter::default);
                let value = if value.is_empty() {
                    serde_json::Value::Bool(true)
                } else {
                    serde_json::Value::String(value.to_owned())
                };
                front_matter.extra.insert(key.to_ascii_lowercase(), value);
                index += 1;
                continue;
            }
            self.started = true;

            // A paragraph line. One ending in `::` opens a literal block.
            let literal = content.ends_with("::");
            let shown = if literal {
                let without = content.trim_end_matches(':');
                if without.is_empty() || without.ends_with(char::is_whitespace) {
                    without.trim_end()
                } else {
                    &content[..content.len() - 1]
                }
            } else {
                content
            };
            self.paragraph_line(shown, number, indent == 0);
            if literal {
                self.end_paragraph();
                block = Some(Block {
                    indent,
                    content: Content::Code,
                    options: false,
                    content_indent: None,
                });
            }
            index += 1;
        }
        self.end_paragraph();
    }

    /// One line of an open block's content.
    fn block_line(&mut self, content: Content, trimmed: &str, dedented: &str, number: u32) {
        match content {
            Content::Code => {
                self.out.code.push_str(dedented.trim_end());
                self.out.code.push('\n');
            }
            Content::Skipped | Content::Text => {}
            Content::Toctree => {
                let (_, target) = explicit_title(trimmed);
                if target.contains(['*', '?', '[']) {
                    self.glob_link(target, number);
                } else if target != "self" {
                    self.link(target, number, false, true);
                }
            }
            Content::Objects => {
                if !trimmed.starts_with(':') {
                    self.mention(trimmed, number);
                }
            }
        }
    }

    /// An explicit markup line (`.. something`), with what its indented content is.
    fn explicit(&mut self, rest: &str, indent: usize, number: u32) -> Option<Block> {
        let comment = Some(Block {
            indent,
            content: Content::Skipped,
            options: false,
            content_indent: None,
        });
        // `.. _label:` or `.. _name: target`; `.. __: target` anonymous.
        if let Some(target) = rest.strip_prefix('_') {
            let (name, uri) = split_target(target);
            let uri = uri.trim();
            if uri.is_empty() {
                if name != "_" {
                    self.out.label(name, number);
                }
            } else if !uri.ends_with('_') {
                // `.. _a: b_` points to another target, not to a URI.
                self.link(uri, number, false, false);
            }
            return None;
        }
        // `.. |name| directive:: argument` (substitution definitions).
        let (rest, substitution) = match rest.strip_prefix('|') {
            Some(after) => match after.split_once('|') {
                Some((_, directive)) => (directive.trim_start(), true),
                None => return comment,
            },
            None => (rest, false),
        };
        // `.. [1] text` (footnotes and citations): text.
        if rest.starts_with('[') {
            self.started = true;
            if let Some((_, text)) = rest.split_once(']') {
                self.paragraph_line(text.trim(), number, false);
                self.end_paragraph();
            }
            return None;
        }
        let Some((name, argument)) = rest.split_once("::") else {
            return comment;
        };
        let name = name.trim();
        if name.is_empty() || name.contains(char::is_whitespace) {
            return comment;
        }
        // Comments, targets and substitution definitions may come before the file-wide
        // metadata (docutils' pre-bibliographic elements); a directive starts the content.
        if !substitution {
            self.started = true;
        }
        let directive = name.to_ascii_lowercase();
        let argument = argument.trim();
        let content = |content| {
            Some(Block {
                indent,
                content,
                options: true,
                content_indent: None,
            })
        };
        if FILE_DIRECTIVES.contains(&directive.as_str()) {
            // `image:: a.*` lets the builder pick a format: no one file to check.
            if !argument.is_empty() && !argument.contains('*') {
                let is_image = matches!(directive.as_str(), "image" | "figure");
                let before = self.out.links.len();
                self.link(argument, number, is_image, false);
                if directive == "include"
                    && let Some(link) = self.out.links.get_mut(before)
                {
                    link.includes = true;
                }
            }
            return content(if directive == "figure" {
                Content::Text
            } else {
                Content::Skipped
            });
        }
        // Extensions subclass the toctree under names of their own (`naturalsortedtoctree`).
        if directive.ends_with("toctree") {
            return content(Content::Toctree);
        }
        if CODE_DIRECTIVES.contains(&directive.as_str()) {
            return content(Content::Code);
        }
        if SKIPPED_DIRECTIVES.contains(&directive.as_str()) {
            return content(Content::Skipped);
        }
        if names_objects(&directive) {
            if !argument.is_empty() {
                let name = argument.split(['(', ' ']).next().unwrap_or(argument);
                self.mention(name, number);
                self.paragraph_line(name, number, false);
                self.end_paragraph();
            }
            return content(if directive == "autosummary" {
                Content::Objects
            } else {
                Content::Text
            });
        }
        // Admonitions and every other directive: the argument and content are text.
        if !argument.is_empty() {
            self.paragraph_line(argument, number, false);
            self.end_paragraph();
        }
        content(Content::Text)
    }

    fn heading(&mut self, line: &str, number: u32, style: (char, bool)) {
        self.end_paragraph();
        self.started = true;
        let level = match self.styles.iter().position(|s| *s == style) {
            Some(at) => at + 1,
            None => {
                self.styles.push(style);
                self.styles.len()
            }
        };
        let mut text = Collapsed::default();
        let mut inline = Inline::default();
        inline.scan(line.trim(), &[(0, number)]);
        text.push(&inline.text);
        self.take_inline(inline);
        self.out.heading(level, text.into_string(), number);
    }

    fn paragraph_line(&mut self, line: &str, number: u32, top_level: bool) {
        if is_table_rule(line) {
            return;
        }
        let paragraph = self.paragraph.get_or_insert_with(|| Paragraph {
            raw: String::new(),
            starts: Vec::new(),
            top_level,
        });
        paragraph.starts.push((paragraph.raw.len(), number));
        paragraph.raw.push_str(line);
        paragraph.raw.push('\n');
    }

    fn end_paragraph(&mut self) {
        let Some(paragraph) = self.paragraph.take() else {
            return;
        };
        let mut inline = Inline::default();
        inline.scan(&paragraph.raw, &paragraph.starts);
        let mut collapsed = Collapsed::default();
        collapsed.push(&inline.text);
        self.take_inline(inline);
        self.out.paragraph(collapsed, paragraph.top_level);
    }

    fn take_inline(&mut self, inline: Inline) {
        for (target, line, kind) in inline.links {
            match kind {
                // `:ref:` to another project's label (`python:tut-intro`) names nothing here.
                LinkKind::Label if target.contains(':') => {}
                LinkKind::Label => self.out.label_link(&target, line),
                LinkKind::Document if target.contains(':') => {}
                LinkKind::Document => self.link(&target, line, false, true),
                LinkKind::Uri => self.link(&target, line, false, false),
            }
        }
        self.out.mentions.extend(inline.mentions);
    }

    /// A link to `target` as written. A document name (`:doc:`, `toctree`) has no fragment.
    fn link(&mut self, target: &str, line: u32, is_image: bool, document_name: bool) {
        let target = target.trim();
        if target.is_empty() {
            return;
        }
        let external = target.contains("://") || target.starts_with("mailto:");
        // A toctree may list a URL, which is no document name.
        let target = match document_name {
            true => crate::links::document_name(target),
            false => target,
        };
        let destination = if document_name && !external {
            crate::links::Destination {
                path: (!target.starts_with('/')).then(|| target.to_owned()),
                site_path: target.starts_with('/').then(|| target.to_owned()),
                fragment: None,
            }
        } else {
            split_destination(target, external)
        };
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

    /// A `toctree` entry under `:glob:`: a pattern of document names (`/` for the source
    /// directory), matched against the documents when links are resolved.
    fn glob_link(&mut self, pattern: &str, line: u32) {
        let pattern = pattern.trim();
        if pattern.is_empty() || pattern.contains("://") {
            return;
        }
        let site = pattern.starts_with('/');
        self.out.links.push(Link {
            target: pattern.to_owned(),
            path: (!site).then(|| pattern.to_owned()),
            site_path: site.then(|| pattern.to_owned()),
            fragment: None,
            label: None,
            line,
            is_image: false,
            glob: true,
            includes: false,
        });
    }

    fn mention(&mut self, name: &str, line: u32) {
        let name = object_name(name);
        if !name.is_empty() {
            self.out.mentions.push(CodeMention {
                text: name.to_owned(),
                line,
            });
        }
    }
}

/// What a link found inline names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LinkKind {
    /// A Sphinx document name (`:doc:`).
    Document,
    /// A label (`:ref:`).
    Label,
    /// A URI or path.
    Uri,
}

/// A paragraph's lines, with the offset in `raw` where each starts and its line number.
struct Paragraph {
    raw: String,
    starts: Vec<(usize, u32)>,
    top_level: bool,
}

/// The line number of the byte at `offset` of a text whose lines start as `starts` says.
fn line_at(starts: &[(usize, u32)], offset: usize) -> u32 {
    let after = starts.partition_point(|(start, _)| *start <= offset);
    starts
        .get(after.saturating_sub(1))
        .map_or(1, |(_, number)| *number)
}

/// The inline markup of one text: its visible text, links and mentions.
#[derive(Default)]
struct Inline {
    text: String,
    links: Vec<(String, u32, LinkKind)>,
    mentions: Vec<CodeMention>,
}

impl Inline {
    /// Scans `line` (one or more lines, `starts` giving each one's offset and number).
    fn scan(&mut self, line: &str, starts: &[(usize, u32)]) {
        let bytes = line.as_bytes();
        // From this offset on the text has no backtick (a search found none).
        let mut no_backtick_from = usize::MAX;
        let mut at = 0;
        while at < bytes.len() {
            let rest = &line[at..];
            if at < no_backtick_from && rest.starts_with(['`', ':']) {
                match self.markup(rest, line_at(starts, at)) {
                    Markup::Consumed(length) => {
                        at += length;
                        continue;
                    }
                    Markup::NoBacktick => no_backtick_from = at,
                    Markup::Text => {}
                }
            }
            if (rest.starts_with("https://") || rest.starts_with("http://"))
                && (at == 0 || !bytes[at - 1].is_ascii_alphanumeric())
            {
                let end = rest
                    .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '`' | '"'))
                    .unwrap_or(rest.len());
                let url = rest[..end].trim_end_matches(['.', ',', ';', ':', ')', '_']);
                self.links
                    .push((url.to_owned(), line_at(starts, at), LinkKind::Uri));
                self.text.push_str(url);
                at += url.len().max(1);
                continue;
            }
            let Some(c) = rest.chars().next() else {
                break;
            };
            // Emphasis markers (`*a*`, `**a**`) are not text; a lone `*` is.
            if c == '*' {
                let run = rest.bytes().take_while(|b| *b == b'*').count();
                let marker = rest[run..].starts_with(|n: char| !n.is_whitespace())
                    || line[..at].ends_with(|p: char| !p.is_whitespace());
                if !marker {
                    self.text.push_str(&rest[..run]);
                }
                at += run;
                continue;
            }
            self.text.push(c);
            at += c.len_utf8();
        }
    }

    /// Inline markup starting at `rest` (a backtick or a colon): a literal, a role, a
    /// reference or default-role text.
    fn markup(&mut self, rest: &str, number: u32) -> Markup {
        if let Some(inner) = rest.strip_prefix("``") {
            return match inner.find("``") {
                Some(end) if well_formed(&inner[..end]) => {
                    let literal = &inner[..end];
                    self.text.push_str(literal);
                    self.push_mention(literal, number);
                    Markup::Consumed(end + 4)
                }
                Some(_) => Markup::Text,
                None if inner.contains('`') => Markup::Text,
                None => Markup::NoBacktick,
            };
        }
        let (role, quoted) = match role_prefix(rest) {
            Some((role, quoted)) => (Some(role), quoted),
            None if rest.starts_with('`') => (None, rest),
            None => return Markup::Text,
        };
        let Some(end) = quoted[1..].find('`') else {
            return Markup::NoBacktick;
        };
        let content = &quoted[1..1 + end];
        if !well_formed(content) {
            return Markup::Text;
        }
        let mut length = rest.len() - quoted.len() + end + 2;
        match role {
            Some(role) => self.role(role, content, number),
            None => {
                let underscores = quoted[end + 2..].bytes().take_while(|b| *b == b'_').count();
                if underscores > 0 {
                    // `` `name`_ `` refers to a target by name; `<name_>` names another target
                    // (an alias), not a URI.
                    let embedded = embedded_target(content);
                    if let Some((_, target)) = embedded.filter(|(_, t)| !t.ends_with('_')) {
                        self.links.push((target.to_owned(), number, LinkKind::Uri));
                    }
                    self.text
                        .push_str(embedded.map_or(content, |(title, _)| title));
                    length += underscores.min(2);
                } else {
                    // Default role: Sphinx projects often make it `py:obj`.
                    self.text.push_str(content);
                    self.push_mention(content, number);
                }
            }
        }
        Markup::Consumed(length)
    }

    fn role(&mut self, role: &str, content: &str, number: u32) {
        let (title, target) = explicit_title(content);
        let bare = role.rsplit(':').next().unwrap_or(role);
        // Intersphinx's `:external:doc:` and `:external+pip:doc:` name another project's pages.
        let foreign = role.starts_with("external");
        match bare {
            "doc" | "ref" | "numref" | "download" if foreign => {}
            "doc" => self
                .links
                .push((target.to_owned(), number, LinkKind::Document)),
            "ref" | "numref" => self
                .links
                .push((target.to_owned(), number, LinkKind::Label)),
            "download" => self.links.push((target.to_owned(), number, LinkKind::Uri)),
            _ if role_mentions(role) => self.push_mention(target, number),
            _ => {}
        }
        let shown = if title == target && role_mentions(role) {
            object_name(title)
        } else {
            title
        };
        self.text.push_str(shown);
    }

    fn push_mention(&mut self, text: &str, number: u32) {
        let name = object_name(text);
        if !name.is_empty() {
            self.mentions.push(CodeMention {
                text: name.to_owned(),
                line: number,
            });
        }
    }
}

/// What inline markup at a position turned out to be.
enum Markup {
    /// Read: this many bytes.
    Consumed(usize),
    /// Not markup: the character is text.
    Text,
    /// Not markup, and no backtick follows anywhere on the line.
    NoBacktick,
}

/// Longest role name read (`:py:staticmethod:` and the like are far shorter).
const MAX_ROLE_BYTES: usize = 40;

/// `:role:` or `:domain:role:` right before a backtick at the start of `text`: the role and the
/// text from the backtick on. Looks at most [`MAX_ROLE_BYTES`] ahead.
fn role_prefix(text: &str) -> Option<(&str, &str)> {
    let inner = text.strip_prefix(':')?;
    let bytes = inner.as_bytes();
    let mut end = None;
    for (at, byte) in bytes.iter().enumerate().take(MAX_ROLE_BYTES + 1) {
        if *byte == b':' && bytes.get(at + 1) == Some(&b'`') {
            end = Some(at);
            break;
        }
        if !(byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'+' | b':')) {
            return None;
        }
    }
    let end = end.filter(|end| *end > 0)?;
    Some((&inner[..end], &inner[end + 1..]))
}

/// Inline markup's content neither starts nor ends with whitespace (docutils' rule), and is
/// not empty.
fn well_formed(content: &str) -> bool {
    !content.is_empty()
        && !content.starts_with(char::is_whitespace)
        && !content.ends_with(char::is_whitespace)
}

/// `Title <target>` → (`Title`, `target`); anything else is its own title and target.
fn explicit_title(content: &str) -> (&str, &str) {
    let content = content.trim();
    embedded_target(content).unwrap_or((content, content))
}

/// The title and the target of `Title <target>` or `<target>`; `None` without one. An escaped
/// bracket (`\<search\>`) is text, as docutils reads it, not a target's delimiter.
fn embedded_target(content: &str) -> Option<(&str, &str)> {
    let content = content.trim();
    let inner = content.strip_suffix('>').filter(|c| !c.ends_with('\\'))?;
    let open = inner.rfind('<')?;
    if open > 0 && inner[..open].ends_with('\\') {
        return None;
    }
    let target = inner[open + 1..].trim();
    if open == 0 {
        return Some((target, target));
    }
    (!target.is_empty()).then(|| (inner[..open].trim(), target))
}

/// An object name as a Sphinx role or directive writes it, without its markers: `~a.B` → `a.B`,
/// `!x` → `x`, `.meth` → `meth`, `f()` → `f`.
fn object_name(text: &str) -> &str {
    text.trim()
        .trim_start_matches(['~', '!', '.'])
        .trim_end_matches("()")
}

/// `name: target` of a hyperlink target (after the leading `_`), the name possibly in
/// backquotes (`` `a: b`: target ``).
fn split_target(text: &str) -> (&str, &str) {
    if let Some(quoted) = text.strip_prefix('`')
        && let Some(end) = quoted.find("`:")
    {
        return (&quoted[..end], &quoted[end + 2..]);
    }
    match text
        .find(": ")
        .or_else(|| text.strip_suffix(':').map(|t| t.len()))
    {
        Some(at) => (&text[..at], text.get(at + 1..).unwrap_or("")),
        None => (text, ""),
    }
}

/// `:key: value` (a field list item): the key and the value, trimmed.
fn field(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix(':')?;
    let end = inner.find(':')?;
    let key = &inner[..end];
    let value = &inner[end + 1..];
    let valid = !key.is_empty()
        && !key.starts_with(' ')
        && (value.is_empty() || value.starts_with(' '))
        && !value.starts_with('`');
    valid.then(|| (key.trim(), value.trim()))
}

/// The title starting at `index`: the line of its text, the lines it spans, and its style.
fn title_at(lines: &[&str], index: usize) -> Option<(usize, usize, (char, bool))> {
    let line = lines[index];
    let next = lines.get(index + 1).copied();
    if is_adornment(line) {
        // Overline, title, underline of the same character and length.
        let title = next?;
        let under = lines.get(index + 2).copied()?;
        let c = line.trim_end().chars().next()?;
        let under_c = under.trim_end().chars().next();
        if is_adornment(under)
            && under_c == Some(c)
            && !title.trim().is_empty()
            && !is_adornment(title)
            && under.trim_end().len() == line.trim_end().len()
        {
            return Some((index + 1, 3, (c, true)));
        }
        return None;
    }
    let under = next?;
    if !is_adornment(under) || line.trim().is_empty() || indentation(line) > 0 {
        return None;
    }
    let under_len = under.trim_end().chars().count();
    let title_len = line.trim_end().chars().count();
    if under_len < 3 && under_len < title_len {
        return None;
    }
    let c = under.trim_end().chars().next()?;
    Some((index, 2, (c, false)))
}

/// A line made of one punctuation character repeated (at least twice), as section
/// adornments and transitions are.
fn is_adornment(line: &str) -> bool {
    let line = line.trim_end();
    let mut chars = line.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    first.is_ascii_punctuation() && line.len() >= 2 && chars.all(|c| c == first)
}

/// A grid or simple table's border (`+----+----+`, `==== ====`): no text.
fn is_table_rule(line: &str) -> bool {
    line.contains(['-', '='])
        && line
            .chars()
            .all(|c| matches!(c, '+' | '-' | '=' | '|' | ' ' | '\t'))
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

fn line_number(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::{Label, TitleSource};

    /// A link's fields as the tests compare them.
    type LinkRow<'a> = (
        &'a str,
        Option<&'a str>,
        Option<&'a str>,
        Option<&'a str>,
        u32,
    );

    const SAMPLE: &str = "\
:orphan:

.. _intro-label:

=========
 Welcome
=========

Flask is a **lightweight** WSGI framework. See :doc:`quickstart` and
:ref:`the tutorial <tutorial>`.

Installation
============

Use :func:`flask.Flask.register_blueprint` or :class:`~flask.Flask`::

    app = Flask(__name__)
    app.run()

.. note::

   Mind the ``app.run()`` call.

.. code-block:: python
   :linenos:

   import flask

Details
-------

.. toctree::
   :maxdepth: 2

   install
   Tutorial <tutorial/index>
   /api

.. autoclass:: flask.Blueprint
   :members:

.. image:: _static/logo.png

.. _Werkzeug: https://werkzeug.palletsprojects.com/

.. a comment
   that spans lines

Visit https://flask.palletsprojects.com/ or `the docs <https://docs.example.org>`_.
";

    #[test]
    fn metadata_may_follow_comments_targets_and_substitutions_but_not_content() {
        let after_comments = ".. Generate the API pages but hide them.\n.. A second comment.\n\n\
                              .. _hidden:\n.. |br| raw:: html\n\n   <br/>\n\n:orphan:\n\nText.\n";
        let facts = analyze(after_comments, "api-hidden");
        assert_eq!(
            facts.front_matter.map(|f| f.extra.get("orphan").cloned()),
            Some(Some(serde_json::Value::Bool(true)))
        );
        for late in [
            "Text first.\n\n:orphan:\n",
            ".. note:: A directive.\n\n:orphan:\n",
            ".. [1] A footnote.\n\n:orphan:\n",
        ] {
            let facts = analyze(late, "late");
            assert!(
                facts
                    .front_matter
                    .is_none_or(|f| !f.extra.contains_key("orphan")),
                "{late}"
            );
        }
    }

    #[test]
    fn escaped_angle_brackets_are_text_not_a_target() {
        let text = "Adopt the new `\\<search\\>`_ element; see `the guide <guide.html>`_ and `<api.html>`_.\n";
        let facts = analyze(text, "index");
        let targets: Vec<&str> = facts.links.iter().map(|l| l.target.as_str()).collect();
        assert_eq!(targets, ["guide.html", "api.html"]);
        assert!(facts.body.contains("search"), "{}", facts.body);
    }

    #[test]
    fn an_include_reads_the_file_into_the_document() {
        let text = ".. include:: ../../CONTRIBUTING.rst\n\n.. include::\n\n.. literalinclude:: ../x.py\n\n.. image:: a.png\n";
        let facts = analyze(text, "contribute");
        let links: Vec<(&str, bool)> = facts
            .links
            .iter()
            .map(|l| (l.target.as_str(), l.includes))
            .collect();
        assert_eq!(
            links,
            [
                ("../../CONTRIBUTING.rst", true),
                ("../x.py", false),
                ("a.png", false)
            ]
        );
    }

    #[test]
    fn a_toctree_an_extension_names_lists_documents() {
        let text = ".. naturalsortedtoctree::\n    :maxdepth: 1\n    :glob:\n    :reversed:\n\n    release_[0-9]*\n    intro\n\n.. toctreex::\n\n   not-a-page\n";
        let facts = analyze(text, "index");
        let links: Vec<(&str, bool)> = facts
            .links
            .iter()
            .map(|l| (l.target.as_str(), l.glob))
            .collect();
        assert_eq!(links, [("release_[0-9]*", true), ("intro", false)]);
    }

    #[test]
    fn toctree_globs_are_patterns_and_urls_are_not_documents() {
        let text = ".. toctree::\n   :glob:\n\n   intro\n   MEP*\n   /api/*\n   Tutorials <https://learn.example.org/>\n";
        let facts = analyze(text, "index");
        let links: Vec<(&str, Option<&str>, Option<&str>, bool)> = facts
            .links
            .iter()
            .map(|l| {
                (
                    l.target.as_str(),
                    l.path.as_deref(),
                    l.site_path.as_deref(),
                    l.glob,
                )
            })
            .collect();
        assert_eq!(
            links,
            vec![
                ("intro", Some("intro"), None, false),
                ("MEP*", Some("MEP*"), None, true),
                ("/api/*", None, Some("/api/*"), true),
                ("https://learn.example.org/", None, None, false),
            ]
        );
    }

    #[test]
    fn reads_titles_links_mentions_and_code() {
        let facts = analyze(SAMPLE, "index");
        assert_eq!(facts.title, "Welcome");
        assert_eq!(facts.title_source, TitleSource::Heading);
        let headings: Vec<(u8, &str, u32)> = facts
            .headings
            .iter()
            .map(|h| (h.level, h.text.as_str(), h.line))
            .collect();
        assert_eq!(
            headings,
            vec![
                (1, "Welcome", 6),
                (2, "Installation", 12),
                (3, "Details", 29)
            ]
        );
        assert_eq!(
            facts.summary,
            "Flask is a lightweight WSGI framework. See quickstart and the tutorial."
        );
        assert_eq!(
            facts.front_matter.unwrap().extra["orphan"],
            serde_json::Value::Bool(true)
        );
        assert_eq!(
            facts.labels,
            vec![Label {
                name: "intro-label".into(),
                line: 3
            }]
        );

        let links: Vec<LinkRow<'_>> = facts
            .links
            .iter()
            .map(|l| {
                (
                    l.target.as_str(),
                    l.path.as_deref(),
                    l.site_path.as_deref(),
                    l.label.as_deref(),
                    l.line,
                )
            })
            .collect();
        assert_eq!(
            links,
            vec![
                ("quickstart", Some("quickstart"), None, None, 9),
                ("tutorial", None, None, Some("tutorial"), 10),
                ("install", Some("install"), None, None, 35),
                ("tutorial/index", Some("tutorial/index"), None, None, 36),
                ("/api", None, Some("/api"), None, 37),
                ("_static/logo.png", Some("_static/logo.png"), None, None, 42),
                (
                    "https://werkzeug.palletsprojects.com/",
                    None,
                    None,
                    None,
                    44
                ),
                ("https://flask.palletsprojects.com/", None, None, None, 49),
                ("https://docs.example.org", None, None, None, 49),
            ]
        );
        assert!(facts.links[5].is_image);

        let mentions: Vec<(&str, u32)> = facts
            .code_mentions
            .iter()
            .map(|m| (m.text.as_str(), m.line))
            .collect();
        assert_eq!(
            mentions,
            vec![
                ("flask.Flask.register_blueprint", 15),
                ("flask.Flask", 15),
                ("app.run", 22),
                ("flask.Blueprint", 39),
            ]
        );
        assert_eq!(
            facts.code,
            "app = Flask(__name__)\napp.run()\n\nimport flask\n\n"
        );
        assert!(
            facts.body.contains("Mind the app.run() call."),
            "{}",
            facts.body
        );
        assert!(
            facts
                .body
                .contains("Use flask.Flask.register_blueprint or flask.Flask:"),
            "{}",
            facts.body
        );
        assert!(!facts.body.contains("comment"), "{}", facts.body);
        assert!(!facts.body.contains(":func:"), "{}", facts.body);
        assert!(!facts.body.contains("linenos"), "{}", facts.body);
        assert_eq!(facts.line_count, 49);
    }

    #[test]
    fn title_levels_follow_first_appearance_of_each_style() {
        let text = "Top\n###\n\nA\n***\n\nB\n===\n\nC\n***\n\nD\n~~~\n";
        let levels: Vec<(u8, String)> = analyze(text, "x")
            .headings
            .into_iter()
            .map(|h| (h.level, h.text))
            .collect();
        assert_eq!(
            levels,
            vec![
                (1, "Top".into()),
                (2, "A".into()),
                (3, "B".into()),
                (2, "C".into())
            ],
            "D is level 4 and left out"
        );
    }

    #[test]
    fn a_document_without_a_title_is_named_by_its_stem() {
        let facts = analyze("Just text.\n\n----\n\nMore.\n", "notes");
        assert_eq!(facts.title, "notes");
        assert_eq!(facts.title_source, TitleSource::FileStem);
        assert_eq!(facts.summary, "Just text.");
        assert!(facts.headings.is_empty());
    }

    #[test]
    fn other_projects_labels_and_pointing_targets_are_not_links() {
        let facts = analyze(
            ":ref:`python:tut-intro` and :ref:`Local <Local Label>`, :doc:`werkzeug:test`, \
             `alias <other_>`_, :external+pip:doc:`the build <reference/build-system>`, \
             :external:ref:`a-label`.\n\n.. _a: b_\n",
            "x",
        );
        let labels: Vec<Option<&str>> = facts.links.iter().map(|l| l.label.as_deref()).collect();
        assert_eq!(labels, vec![Some("local label")]);
    }

    #[test]
    fn inline_markup_may_span_lines() {
        let facts = analyze(
            "Read the :doc:`generic editing\nviews <generic-editing>` and ``a\nb``.\n",
            "x",
        );
        let links: Vec<(&str, u32)> = facts
            .links
            .iter()
            .map(|l| (l.target.as_str(), l.line))
            .collect();
        assert_eq!(links, vec![("generic-editing", 1)]);
        assert_eq!(facts.code_mentions.len(), 1);
        assert_eq!(facts.body, "Read the generic editing views and a b.\n");
    }

    #[test]
    fn unclosed_backticks_are_text() {
        let facts = analyze(":func:`open and ``never closed\n", "x");
        assert!(facts.code_mentions.is_empty());
        assert!(facts.body.contains("open and"), "{}", facts.body);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(text in "[ \t\n\r:`_.<>|=*~#a-z\\-\u{e9}\u{3000}]{0,300}") {
            let facts = analyze(&text, "stem");
            proptest::prop_assert!(facts.headings.iter().all(|h| (1..=3).contains(&h.level)));
            proptest::prop_assert!(facts.links.iter().all(|l| l.line >= 1 && l.line <= facts.line_count.max(1)));
        }
    }
}
