//! What MyST (the Markdown Sphinx reads through `myst_parser`) adds to Markdown, as far as
//! links go: targets `(label)=` on a line of their own, which `[text](label)` and `{ref}`
//! reach, and `{toctree}` directives, fenced like code (```` ```{toctree} ```` or
//! `:::{toctree}`), whose entries are document names as in reStructuredText, after the
//! directive's options (`:key: value` lines, or a YAML block between two `---` lines).
//!
//! Read line by line beside the CommonMark walk, outside other fenced code; linear in the text
//! and never panics. Plain Markdown has neither form, so it gains nothing and loses nothing.

use crate::{Label, Link, normalize_label};

/// Labels and `toctree` links of a MyST document whose body starts at byte `body_start`.
pub fn scan(text: &str, body_start: usize) -> (Vec<Label>, Vec<Link>) {
    let mut labels = Vec::new();
    let mut links = Vec::new();
    // The fence open now: its character, its length, and whether it is a toctree.
    let mut fence: Option<(char, usize, bool)> = None;
    // Where a toctree's body is: its options come first, as `:key: value` lines or as a YAML
    // block between two `---` lines.
    let mut options = Options::Start;
    let before = text.get(..body_start).unwrap_or_default();
    let first = before.matches('\n').count() as u32 + 1;
    for (number, line) in (first..).zip(text.get(body_start..).unwrap_or_default().lines()) {
        let trimmed = line.trim();
        if let Some((mark, length, toctree)) = fence {
            if is_fence_end(trimmed, mark, length) {
                fence = None;
                continue;
            }
            options = match (options, trimmed) {
                (Options::Start, "---") => Options::Yaml,
                (Options::Yaml, "---") => Options::Done,
                (Options::Yaml, _) => Options::Yaml,
                (_, "") => options,
                _ => Options::Done,
            };
            if toctree
                && options == Options::Done
                && !matches!(trimmed, "" | "---")
                && !trimmed.starts_with(':')
            {
                links.push(toctree_link(trimmed, number));
            }
            continue;
        }
        if let Some(open) = fence_open(trimmed) {
            fence = Some(open);
            options = Options::Start;
            continue;
        }
        if let Some(name) = trimmed
            .strip_prefix('(')
            .and_then(|rest| rest.strip_suffix(")="))
            .filter(|name| !name.is_empty() && !name.contains(['(', ')']))
        {
            let name = normalize_label(name);
            if !name.is_empty() {
                labels.push(Label { name, line: number });
            }
        }
    }
    (labels, links)
}

/// How far into a directive's options a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Options {
    /// Nothing but blank lines and `:key: value` options yet.
    Start,
    /// Inside a YAML block of options (`---` … `---`).
    Yaml,
    /// Past the options: the content.
    Done,
}

/// A fence opening: ```` ``` ````, `~~~` or `:::` (three or more), with whether its info names
/// the `toctree` directive.
fn fence_open(line: &str) -> Option<(char, usize, bool)> {
    let mark = line
        .chars()
        .next()
        .filter(|c| matches!(c, '`' | '~' | ':'))?;
    let length = line.chars().take_while(|c| *c == mark).count();
    if length < 3 {
        return None;
    }
    let info = line[length..].trim();
    Some((mark, length, info.starts_with("{toctree}")))
}

fn is_fence_end(line: &str, mark: char, length: usize) -> bool {
    line.chars().take_while(|c| *c == mark).count() >= length && line.chars().all(|c| c == mark)
}

/// A `toctree` entry (`name`, `Title <name>`, a `/`-rooted name or a glob) as a link.
fn toctree_link(entry: &str, line: u32) -> Link {
    let target = match (entry.rfind('<'), entry.ends_with('>')) {
        (Some(open), true) if open > 0 => entry[open + 1..entry.len() - 1].trim(),
        _ => entry,
    };
    let target = crate::links::document_name(target);
    let external = target.contains("://");
    let site = !external && target.starts_with('/');
    Link {
        target: target.to_owned(),
        path: (!external && !site).then(|| target.to_owned()),
        site_path: site.then(|| target.to_owned()),
        fragment: None,
        label: None,
        line,
        is_image: false,
        glob: target.contains(['*', '?', '[']),
        includes: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toctree_yaml_options_block_is_no_entry() {
        let text = "(labels/line-length)=\n## Line length\n\n```{toctree}\n---\nmaxdepth: 3\nhidden:\ncaption: User Guide\n---\n\nusage/index\n```\n";
        let (labels, links) = scan(text, 0);
        assert_eq!(
            labels,
            vec![Label {
                name: "labels/line-length".into(),
                line: 1
            }]
        );
        let targets: Vec<(&str, u32)> = links.iter().map(|l| (l.target.as_str(), l.line)).collect();
        assert_eq!(targets, [("usage/index", 11)]);
    }

    #[test]
    fn labels_and_toctree_entries_outside_other_code() {
        let text = "---\ntitle: x\n---\n(custom-functions)=\n# Custom\n\n```python\n(not-a-label)=\n```\n\n```{toctree}\n:maxdepth: 1\n\nintro.rst\nGuide <guide/index>\nreference/*\n```\n\n:::{toctree}\n/api\n:::\n";
        let body = text.find("(custom").unwrap();
        let (labels, links) = scan(text, body);
        assert_eq!(
            labels,
            vec![Label {
                name: "custom-functions".into(),
                line: 4
            }]
        );
        type Shown<'a> = (&'a str, Option<&'a str>, Option<&'a str>, bool, u32);
        let shown: Vec<Shown<'_>> = links
            .iter()
            .map(|l| {
                let path = l.path.as_deref();
                (
                    l.target.as_str(),
                    path,
                    l.site_path.as_deref(),
                    l.glob,
                    l.line,
                )
            })
            .collect();
        assert_eq!(
            shown,
            vec![
                ("intro", Some("intro"), None, false, 14),
                ("guide/index", Some("guide/index"), None, false, 15),
                ("reference/*", Some("reference/*"), None, true, 16),
                ("/api", None, Some("/api"), false, 20),
            ]
        );
    }

    #[test]
    fn hostile_lines_never_panic() {
        for text in [
            "(",
            ")=",
            "()=",
            "```",
            "```{toctree}\n<",
            ":::\n:::",
            "(é)=\n",
        ] {
            let _ = scan(text, 0);
            let _ = scan(text, text.len());
        }
    }
}
