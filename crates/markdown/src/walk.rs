//! Walks the Markdown events once and collects everything except front matter.

use std::ops::Range;

use pulldown_cmark::{Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd};

use crate::autolink::find_raw_urls;
use crate::lines::LineIndex;
use crate::links::split_destination;
use crate::text::{Collapsed, summary_buffer};
use crate::{CodeMention, Heading, Link};

/// What one pass over the Markdown body yields.
#[derive(Debug, Default)]
pub(crate) struct Walked {
    pub(crate) headings: Vec<Heading>,
    pub(crate) links: Vec<Link>,
    pub(crate) code_mentions: Vec<CodeMention>,
    pub(crate) body: String,
    /// The text of code blocks (fenced and indented), one block after another.
    pub(crate) code: String,
    /// Collapsed plain text of the first paragraph that has text of its own
    /// (image-only paragraphs, like a row of badges, are skipped), kept only
    /// up to the length a summary needs.
    pub(crate) first_paragraph: Option<String>,
}

/// The extensions a GitHub reader expects. Smart punctuation is left off so
/// the text stays as written; metadata blocks are detected by
/// [`crate::front_matter`] before the parser runs.
fn parser_options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_HEADING_ATTRIBUTES
        | Options::ENABLE_GFM
}

/// Parses `text[body_start..]`; all reported lines are lines of `text`.
pub(crate) fn walk(text: &str, body_start: usize, lines: &LineIndex) -> Walked {
    let markdown = text.get(body_start..).unwrap_or_default();
    let mut walker = Walker {
        text,
        lines,
        out: Walked {
            body: String::with_capacity(markdown.len()),
            ..Walked::default()
        },
        code_block_depth: 0,
        html_block_depth: 0,
        footnote_depth: 0,
        link_depth: 0,
        image_depth: 0,
        heading: None,
        paragraph: None,
        pending_text: None,
    };
    for (event, range) in Parser::new_ext(markdown, parser_options()).into_offset_iter() {
        let range = (range.start + body_start)..(range.end + body_start);
        walker.event(event, range);
    }
    walker.flush_raw_urls();
    let mut out = walker.out;
    let trimmed = out.body.trim_end().len();
    out.body.truncate(trimmed);
    let trimmed = out.code.trim_end().len();
    out.code.truncate(trimmed);
    out
}

struct HeadingCapture {
    level: u8,
    line: u32,
    text: Collapsed,
}

struct ParagraphCapture {
    text: Collapsed,
    /// Whether some text came from outside an image (alt text alone does not
    /// make a summary).
    has_own_text: bool,
}

struct Walker<'t, 'l> {
    text: &'t str,
    lines: &'l LineIndex,
    out: Walked,
    code_block_depth: usize,
    html_block_depth: usize,
    footnote_depth: usize,
    link_depth: usize,
    image_depth: usize,
    heading: Option<HeadingCapture>,
    paragraph: Option<ParagraphCapture>,
    /// Source range of consecutive plain text events, scanned for raw URLs
    /// as one piece because the parser may split a URL into several events.
    pending_text: Option<Range<usize>>,
}

impl Walker<'_, '_> {
    fn event(&mut self, event: Event<'_>, range: Range<usize>) {
        if !matches!(event, Event::Text(_)) {
            self.flush_raw_urls();
        }
        match event {
            Event::Start(tag) => self.start(tag, range.start),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => {
                if self.code_block_depth > 0 && self.html_block_depth == 0 {
                    self.out.code.push_str(&text);
                    return;
                }
                if self.code_block_depth > 0 || self.html_block_depth > 0 {
                    return;
                }
                self.emit(&text);
                if self.link_depth == 0 && self.image_depth == 0 {
                    match &mut self.pending_text {
                        Some(pending) if pending.end == range.start => pending.end = range.end,
                        _ => {
                            self.flush_raw_urls();
                            self.pending_text = Some(range);
                        }
                    }
                }
            }
            Event::Code(code) => {
                self.emit(&code);
                self.out.code_mentions.push(CodeMention {
                    text: code.into_string(),
                    line: self.lines.line_of(range.start),
                });
            }
            Event::InlineMath(math) | Event::DisplayMath(math) => self.emit(&math),
            Event::SoftBreak => self.emit(" "),
            Event::HardBreak => self.emit("\n"),
            Event::Rule => self.block_break(),
            // Markup, not text: HTML (and MDX's JSX), footnote labels and
            // task list checkboxes.
            Event::Html(_)
            | Event::InlineHtml(_)
            | Event::FootnoteReference(_)
            | Event::TaskListMarker(_) => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>, offset: usize) {
        match tag {
            Tag::Paragraph => {
                self.block_break();
                if self.out.first_paragraph.is_none() && self.footnote_depth == 0 {
                    self.paragraph = Some(ParagraphCapture {
                        text: summary_buffer(),
                        has_own_text: false,
                    });
                }
            }
            Tag::Heading { level, .. } => {
                self.block_break();
                self.heading = heading_level(level).map(|level| HeadingCapture {
                    level,
                    line: self.lines.line_of(offset),
                    text: Collapsed::default(),
                });
            }
            Tag::CodeBlock(_) => {
                self.code_block_depth += 1;
                self.block_break();
            }
            // Metadata blocks are never enabled; if one appeared, its text
            // would be skipped like HTML.
            Tag::HtmlBlock | Tag::MetadataBlock(_) => {
                self.html_block_depth += 1;
                self.block_break();
            }
            Tag::FootnoteDefinition(_) => {
                self.footnote_depth += 1;
                self.block_break();
            }
            Tag::Link {
                link_type,
                dest_url,
                ..
            } => {
                self.link_depth += 1;
                self.record_link(link_type, &dest_url, offset, false);
            }
            Tag::Image {
                link_type,
                dest_url,
                ..
            } => {
                self.image_depth += 1;
                self.record_link(link_type, &dest_url, offset, true);
            }
            Tag::BlockQuote(_)
            | Tag::List(_)
            | Tag::Item
            | Tag::Table(_)
            | Tag::TableHead
            | Tag::TableRow
            | Tag::DefinitionList
            | Tag::DefinitionListTitle
            | Tag::DefinitionListDefinition => self.block_break(),
            Tag::TableCell
            | Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => {
                if let Some(paragraph) = self.paragraph.take()
                    && paragraph.has_own_text
                {
                    self.out.first_paragraph = Some(paragraph.text.into_string());
                }
                self.block_break();
            }
            TagEnd::Heading(_) => {
                if let Some(heading) = self.heading.take() {
                    self.out.headings.push(Heading {
                        level: heading.level,
                        text: heading.text.into_string(),
                        line: heading.line,
                    });
                }
                self.block_break();
            }
            TagEnd::CodeBlock => {
                self.code_block_depth = self.code_block_depth.saturating_sub(1);
                if !self.out.code.is_empty() && !self.out.code.ends_with('\n') {
                    self.out.code.push('\n');
                }
                self.block_break();
            }
            TagEnd::HtmlBlock | TagEnd::MetadataBlock(_) => {
                self.html_block_depth = self.html_block_depth.saturating_sub(1);
                self.block_break();
            }
            TagEnd::FootnoteDefinition => {
                self.footnote_depth = self.footnote_depth.saturating_sub(1);
                self.block_break();
            }
            TagEnd::Link => self.link_depth = self.link_depth.saturating_sub(1),
            TagEnd::Image => self.image_depth = self.image_depth.saturating_sub(1),
            TagEnd::TableCell => self.cell_break(),
            TagEnd::BlockQuote(_)
            | TagEnd::List(_)
            | TagEnd::Item
            | TagEnd::Table
            | TagEnd::TableHead
            | TagEnd::TableRow
            | TagEnd::DefinitionList
            | TagEnd::DefinitionListTitle
            | TagEnd::DefinitionListDefinition => self.block_break(),
            TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript => {}
        }
    }

    /// Sends a piece of plain text to the body and to the open captures.
    fn emit(&mut self, fragment: &str) {
        self.out.body.push_str(fragment);
        if let Some(heading) = &mut self.heading {
            heading.text.push(fragment);
        }
        if let Some(paragraph) = &mut self.paragraph {
            paragraph.text.push(fragment);
            if self.image_depth == 0 && !fragment.trim().is_empty() {
                paragraph.has_own_text = true;
            }
        }
    }

    /// Ends the current body line, so blocks never run together and the body
    /// has no blank lines.
    fn block_break(&mut self) {
        let trimmed = self.out.body.trim_end_matches([' ', '\t']).len();
        self.out.body.truncate(trimmed);
        if !self.out.body.is_empty() && !self.out.body.ends_with('\n') {
            self.out.body.push('\n');
        }
    }

    /// Keeps the text of neighbouring table cells apart.
    fn cell_break(&mut self) {
        if !self.out.body.is_empty() && !self.out.body.ends_with(char::is_whitespace) {
            self.out.body.push(' ');
        }
    }

    fn record_link(&mut self, link_type: LinkType, target: &str, offset: usize, is_image: bool) {
        if target.is_empty() {
            return;
        }
        // The destination of `<user@example.com>` has no `mailto:`, and must
        // not pass for a relative path.
        let external = matches!(link_type, LinkType::Autolink | LinkType::Email);
        let destination = split_destination(target, external);
        self.out.links.push(Link {
            target: target.to_owned(),
            path: destination.path,
            site_path: destination.site_path,
            fragment: destination.fragment,
            label: docc_label(target),
            line: self.lines.line_of(offset),
            is_image,
            glob: false,
            includes: false,
        });
    }

    fn flush_raw_urls(&mut self) {
        let Some(range) = self.pending_text.take() else {
            return;
        };
        let Some(source) = self.text.get(range.clone()) else {
            return;
        };
        for url in find_raw_urls(source) {
            let destination = split_destination(&url.target, true);
            self.out.links.push(Link {
                line: self.lines.line_of(range.start + url.start),
                target: url.target,
                path: None,
                site_path: None,
                fragment: destination.fragment,
                label: None,
                is_image: false,
                glob: false,
                includes: false,
            });
        }
    }
}

/// A DocC link (`<doc:GettingStarted>`, `<doc:ArgumentParser/Commands#Usage>`) names an
/// article of its documentation catalog by file stem: the label [`crate::normalize_label`] makes of
/// its last path segment, without the fragment.
fn docc_label(target: &str) -> Option<String> {
    let name = target.strip_prefix("doc:")?;
    let name = name.split('#').next().unwrap_or(name);
    let name = name.rsplit('/').next().unwrap_or(name);
    let label = crate::normalize_label(name);
    (!label.is_empty()).then_some(label)
}

/// Levels kept as headings; deeper ones are only body text.
fn heading_level(level: HeadingLevel) -> Option<u8> {
    match level {
        HeadingLevel::H1 => Some(1),
        HeadingLevel::H2 => Some(2),
        HeadingLevel::H3 => Some(3),
        HeadingLevel::H4 | HeadingLevel::H5 | HeadingLevel::H6 => None,
    }
}
