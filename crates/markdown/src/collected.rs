//! What the line-based analyzers (reStructuredText, AsciiDoc) collect while they read, and the
//! facts it makes: one assembly for both, so that their title, summary, heading and label-link
//! rules cannot drift apart.

use crate::text::{Collapsed, summary_buffer, truncate_summary};
use crate::{
    CodeMention, FrontMatter, Heading, Label, Link, MarkdownFacts, TitleSource, normalize_label,
};

/// The facts found so far.
#[derive(Default)]
pub(crate) struct Collected {
    pub(crate) front_matter: Option<FrontMatter>,
    pub(crate) headings: Vec<Heading>,
    pub(crate) body: String,
    pub(crate) code: String,
    pub(crate) links: Vec<Link>,
    pub(crate) mentions: Vec<CodeMention>,
    pub(crate) labels: Vec<Label>,
    /// The first paragraph that may be the summary, bounded.
    first_paragraph: Option<String>,
}

impl Collected {
    /// A section title at `level`, already read as plain text: a heading and a line of the
    /// body.
    pub(crate) fn heading(&mut self, level: usize, text: String, line: u32) {
        self.body.push_str(&text);
        self.body.push('\n');
        self.headings.push(Heading {
            level: u8::try_from(level).unwrap_or(u8::MAX),
            text,
            line,
        });
    }

    /// A paragraph's text: a line of the body, and the summary when it is the first that
    /// `may_summarize`.
    pub(crate) fn paragraph(&mut self, paragraph: Collapsed, may_summarize: bool) {
        if paragraph.is_empty() {
            return;
        }
        let text = paragraph.into_string();
        if may_summarize && self.first_paragraph.is_none() {
            let mut summary = summary_buffer();
            summary.push(&text);
            self.first_paragraph = Some(summary.into_string());
        }
        self.body.push_str(&text);
        self.body.push('\n');
    }

    /// A label the document defines (normalized; an empty one is none).
    pub(crate) fn label(&mut self, name: &str, line: u32) {
        let name = normalize_label(name);
        if !name.is_empty() {
            self.labels.push(Label { name, line });
        }
    }

    /// A link to a label, resolved against every document's labels later (an empty one is
    /// none).
    pub(crate) fn label_link(&mut self, label: &str, line: u32) {
        if normalize_label(label).is_empty() {
            return;
        }
        self.links.push(Link {
            target: label.to_owned(),
            path: None,
            site_path: None,
            fragment: None,
            label: Some(normalize_label(label)),
            line,
            is_image: false,
            glob: false,
            includes: false,
        });
    }

    /// The facts: the title is the first level-1 heading, else `file_stem`; the summary is
    /// `description`, else the first paragraph; headings deeper than 3 are left out.
    pub(crate) fn into_facts(
        self,
        file_stem: &str,
        line_count: usize,
        description: Option<&str>,
    ) -> MarkdownFacts {
        let (title, title_source) = match self.headings.iter().find(|h| h.level == 1) {
            Some(heading) if !heading.text.is_empty() => {
                (heading.text.clone(), TitleSource::Heading)
            }
            _ => (file_stem.to_owned(), TitleSource::FileStem),
        };
        let description = description
            .map(|description| {
                let mut buffer = summary_buffer();
                buffer.push(description);
                buffer.into_string()
            })
            .filter(|d| !d.is_empty());
        MarkdownFacts {
            front_matter: self.front_matter,
            front_matter_error: None,
            title,
            title_source,
            headings: self.headings.into_iter().filter(|h| h.level <= 3).collect(),
            summary: description
                .or(self.first_paragraph)
                .map(truncate_summary)
                .unwrap_or_default(),
            body: self.body,
            code: self.code,
            links: self.links,
            code_mentions: self.mentions,
            labels: self.labels,
            line_count: u32::try_from(line_count).unwrap_or(u32::MAX),
        }
    }
}
