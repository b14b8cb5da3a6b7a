//! Finds the YAML front matter block and turns it into [`FrontMatter`].

use std::collections::BTreeMap;

use serde_json::Value;

use crate::{FrontMatter, FrontMatterError};

const BOM: &str = "\u{FEFF}";

/// Where the front matter and the Markdown body are in the text.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Split<'a> {
    /// The front matter block, when the text has one.
    pub(crate) block: Option<Block<'a>>,
    /// Byte offset where the Markdown body starts (after the BOM and the
    /// front matter, if any).
    pub(crate) body_start: usize,
}

/// A delimited front matter block.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Block<'a> {
    /// The YAML between the delimiter lines.
    pub(crate) yaml: &'a str,
    /// 1-based line of the file where `yaml` starts.
    pub(crate) yaml_first_line: u32,
    /// 1-based line of the closing delimiter.
    pub(crate) closing_line: u32,
}

/// Detects a front matter block: the first line (after an optional BOM) is
/// `---` and a later line is `---` or `...`; trailing blanks on a delimiter
/// line are tolerated. Without a closing line there is no front matter.
pub(crate) fn split(text: &str) -> Split<'_> {
    let start = if text.starts_with(BOM) { BOM.len() } else { 0 };
    let mut lines = Lines { text, pos: start };
    let no_front_matter = Split {
        block: None,
        body_start: start,
    };
    match lines.next() {
        Some(line) if is_delimiter(line.content, "---") => {}
        _ => return no_front_matter,
    }
    let yaml_start = lines.pos;
    let mut line_number: u32 = 1;
    for line in lines.by_ref() {
        line_number = line_number.saturating_add(1);
        if is_delimiter(line.content, "---") || is_delimiter(line.content, "...") {
            return Split {
                block: Some(Block {
                    yaml: text.get(yaml_start..line.start).unwrap_or_default(),
                    yaml_first_line: 2,
                    closing_line: line_number,
                }),
                body_start: line.next,
            };
        }
    }
    no_front_matter
}

/// `split` without its block when the block is prose between two thematic breaks, not front
/// matter: YAML reads it as one string of several words (a legacy issue template's
/// `---\nBefore filing an issue, ...\n---`). Such a file is Markdown from its first line.
pub(crate) fn unless_prose<'a>(split: Split<'a>, text: &str) -> Split<'a> {
    let prose = split.block.as_ref().is_some_and(|block| {
        matches!(
            serde_saphyr::from_str_with_options::<Value>(block.yaml, yaml_options()),
            Ok(Value::String(text)) if text.trim().contains(char::is_whitespace)
        )
    });
    if !prose {
        return split;
    }
    Split {
        block: None,
        body_start: if text.starts_with(BOM) { BOM.len() } else { 0 },
    }
}

fn is_delimiter(line: &str, delimiter: &str) -> bool {
    line.trim_end_matches([' ', '\t']) == delimiter
}

struct Line<'a> {
    content: &'a str,
    start: usize,
    next: usize,
}

/// Lines with CommonMark line endings (`\n`, `\r\n`, lone `\r`), matching
/// [`crate::lines::LineIndex`].
struct Lines<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let rest = self.text.get(self.pos..).filter(|rest| !rest.is_empty())?;
        let start = self.pos;
        let (content_len, ending_len) = match memchr::memchr2(b'\n', b'\r', rest.as_bytes()) {
            Some(end) if rest[end..].starts_with("\r\n") => (end, 2),
            Some(end) => (end, 1),
            None => (rest.len(), 0),
        };
        self.pos = start + content_len + ending_len;
        Some(Line {
            content: &rest[..content_len],
            start,
            next: self.pos,
        })
    }
}

/// Parses a block into [`FrontMatter`]. An empty block (or one holding only
/// comments) is an empty front matter; anything but a mapping is an error. A
/// block that is not YAML but holds only `key: value` lines is read line by
/// line ([`flat_mapping`]).
pub(crate) fn parse(block: &Block<'_>) -> Result<FrontMatter, FrontMatterError> {
    let value: Value = match serde_saphyr::from_str_with_options(block.yaml, yaml_options()) {
        Ok(value) => value,
        Err(error) => match flat_mapping(block.yaml) {
            Some(map) => return Ok(from_mapping(map)),
            None => return Err(yaml_error(&error, block)),
        },
    };
    match value {
        Value::Object(map) => Ok(from_mapping(map.into_iter().collect())),
        Value::Null => Ok(FrontMatter::default()),
        other => Err(FrontMatterError {
            line: first_content_line(block),
            message: format!(
                "front matter must be a YAML mapping, found {}",
                kind_of(&other)
            ),
        }),
    }
}

/// Options for untrusted YAML: YAML 1.2 booleans only (`NO` stays a string),
/// lenient about duplicate keys (last wins) and non-finite numbers (kept as
/// text), no snippets (errors must not quote the document), and budgets far
/// below the defaults because front matter is small: an alias bomb is refused
/// after some ten thousand events.
fn yaml_options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        strict_booleans: true,
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy::LastWins,
        non_finite_float_policy: serde_saphyr::NonFiniteFloatPolicy::AsString,
        // Otherwise `0755` becomes the float 755.0; ids and codes keep their zeros.
        leading_zero_numbers_as_strings: true,
        with_snippet: false,
        budget: serde_saphyr::budget! {
            max_events: 200_000,
            max_aliases: 1_000,
            max_anchors: 1_000,
            max_nodes: 100_000,
            max_depth: 32,
            max_documents: 1,
            max_recorded_anchor_events: 20_000,
            max_merge_keys: 1_000,
        },
        alias_limits: serde_saphyr::alias_limits! {
            max_total_replayed_events: 20_000,
            max_replay_stack_depth: 16,
        },
    }
}

fn yaml_error(error: &serde_saphyr::Error, block: &Block<'_>) -> FrontMatterError {
    let offset = u64::from(block.yaml_first_line.saturating_sub(1));
    let line = error
        .location()
        .map(|location| location.line().saturating_add(offset))
        .and_then(|line| u32::try_from(line).ok())
        .unwrap_or(block.yaml_first_line)
        .clamp(1, block.closing_line);
    // Rendered without snippets and with file line numbers, so the message
    // says where the problem is without copying the document text.
    let message = error.render_with_options(serde_saphyr::render_options! {
        snippets: serde_saphyr::SnippetMode::Off,
        line_offset: offset,
    });
    FrontMatterError {
        line,
        message: shorten(message),
    }
}

/// Caps a parser message: some messages quote the offending token, which
/// could be an arbitrarily long scalar.
fn shorten(message: String) -> String {
    const MAX_MESSAGE_CHARS: usize = 500;
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => format!("{}…", &message[..cut]),
        None => message,
    }
}

/// Line of the first non-blank, non-comment YAML line: where a reader would
/// look for the offending value of a non-mapping front matter.
fn first_content_line(block: &Block<'_>) -> u32 {
    let lines = Lines {
        text: block.yaml,
        pos: 0,
    };
    lines
        .zip(block.yaml_first_line..)
        .find(|(line, _)| {
            let trimmed = line.content.trim();
            !trimmed.is_empty() && !trimmed.starts_with('#')
        })
        .map_or(block.yaml_first_line, |(_, number)| number)
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// A block that YAML refuses, read as line-based front matter readers read it (svelte.dev's,
/// and the `key: value` convention many site generators accept): every line that is not blank
/// or a `#` comment is `key: value` at the start of the line, the value the rest of the line,
/// as text. `title: {#if ...}` and `title: bind:` are titles there. Anything else (an indented
/// line, a key without a value, a bracket or quote left open, an anchor, alias, tag or block
/// scalar) is not, and stays an error.
fn flat_mapping(yaml: &str) -> Option<BTreeMap<String, Value>> {
    let mut map = BTreeMap::new();
    for line in (Lines { text: yaml, pos: 0 }) {
        let line = line.content.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(':')?;
        let value = value.trim();
        let plain_key = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        // Anchors, aliases, tags and block scalars are YAML, however they failed.
        let yaml_syntax = value.starts_with(['&', '*', '!', '|', '>']);
        if !plain_key || value.is_empty() || yaml_syntax || !closed(value) {
            return None;
        }
        map.insert(key.to_owned(), Value::String(value.to_owned()));
    }
    (!map.is_empty()).then_some(map)
}

/// Whether a value's brackets and quotes close on its line: `[a, b` and `"x` are YAML left
/// unfinished, not text.
fn closed(value: &str) -> bool {
    let mut open: Vec<char> = Vec::new();
    for c in value.chars() {
        match c {
            '[' | '{' | '(' => open.push(c),
            ']' | '}' | ')' => {
                let want = match c {
                    ']' => '[',
                    '}' => '{',
                    _ => '(',
                };
                if open.pop() != Some(want) {
                    return false;
                }
            }
            _ => {}
        }
    }
    let quoted = |q: char| value.starts_with(q) && !(value.len() > 1 && value.ends_with(q));
    open.is_empty() && !quoted('"') && !quoted('\'')
}

/// Moves the typed keys out of `map`; what remains is `extra`.
fn from_mapping(mut map: BTreeMap<String, Value>) -> FrontMatter {
    let mut take = |key: &str| map.remove(key);
    let title = take("title").as_ref().and_then(scalar_text);
    let description = take("description").as_ref().and_then(scalar_text);
    let tags = take("tags").as_ref().map(text_list).unwrap_or_default();
    let audience = take("audience").as_ref().map(text_list).unwrap_or_default();
    let owner = take("owner").as_ref().and_then(scalar_text);
    let covers = take("covers").as_ref().map(text_list).unwrap_or_default();
    let checks = take("checks").as_ref().map(text_list).unwrap_or_default();
    // All three spellings are typed keys, so none of them lands in `extra`.
    let lang_candidates = [take("lang"), take("language"), take("locale")];
    let lang = lang_candidates.iter().flatten().find_map(scalar_text);
    FrontMatter {
        title,
        description,
        tags,
        audience,
        owner,
        covers,
        checks,
        lang,
        extra: map,
    }
}

/// A scalar as trimmed text; numbers and booleans are written as YAML spelt
/// them (as far as JSON can tell), so `title: 2024` is the title "2024".
/// Empty text, null and collections give None.
fn scalar_text(value: &Value) -> Option<String> {
    let text = match value {
        Value::String(text) => text.trim().to_owned(),
        Value::Number(number) => number.to_string(),
        Value::Bool(flag) => flag.to_string(),
        Value::Null | Value::Array(_) | Value::Object(_) => return None,
    };
    Some(text).filter(|text| !text.is_empty())
}

/// A list of scalars, or a single scalar split on commas; each item trimmed,
/// empty items and nested collections dropped.
fn text_list(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().filter_map(scalar_text).collect(),
        single => scalar_text(single)
            .map(|text| {
                text.split(',')
                    .map(str::trim)
                    .filter(|item| !item.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_finds_block_after_bom_and_body_after_closing_line() {
        let text = "\u{FEFF}---\ntitle: x\n...\n# Body\n";
        let split = split(text);
        let block = split.block.unwrap();
        assert_eq!(block.yaml, "title: x\n");
        assert_eq!(block.closing_line, 3);
        assert_eq!(&text[split.body_start..], "# Body\n");
    }

    #[test]
    fn unclosed_or_late_delimiter_is_not_front_matter() {
        assert_eq!(split("---\ntitle: x\n").block, None);
        assert_eq!(split("\n---\na: 1\n---\n").block, None);
        assert_eq!(split("--- \r\na: 1\r\n---").block.unwrap().yaml, "a: 1\r\n");
    }

    #[test]
    fn key_value_lines_that_are_not_yaml_are_read_as_text() {
        let parsed = |yaml: &str| parse(&split(&format!("---\n{yaml}---\n")).block.unwrap());
        let title = |yaml: &str| parsed(yaml).map(|f| f.title);
        assert_eq!(
            title("title: {#if ...}\ntags: template-if\n"),
            Ok(Some("{#if ...}".into()))
        );
        assert_eq!(title("title: bind:\n"), Ok(Some("bind:".into())));
        assert_eq!(
            title("title: {@html ...}\n"),
            Ok(Some("{@html ...}".into()))
        );
        // Still errors: brackets or quotes left open, nesting, keys without values.
        for broken in [
            "title: [unclosed\n",
            "title: {#if\n",
            "title: \"open\n",
            "title: {a: b\n  c: d\n",
            "title:\n  - x: [\n",
            "just text\n",
            "a: *undefined\n",
        ] {
            assert!(parsed(broken).is_err(), "{broken:?}");
        }
    }

    #[test]
    fn empty_block_is_an_empty_front_matter() {
        let block = split("---\n# just a comment\n---\n").block.unwrap();
        assert_eq!(parse(&block), Ok(FrontMatter::default()));
    }

    #[test]
    fn lang_comes_from_lang_then_language_then_locale() {
        let block = split("---\nlocale: fr-FR\nlanguage: de\n---\n")
            .block
            .unwrap();
        assert_eq!(parse(&block).unwrap().lang.as_deref(), Some("de"));
    }
}
