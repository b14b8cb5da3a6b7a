//! mdBook's file directives: `{{#include file.md}}`, `{{#rustdoc_include file.rs:anchor}}` and
//! `{{#playground file.rs editable}}` put another file's text into the page when the book is
//! built, in prose and inside code blocks alike, so each is a link to that file.
//!
//! Read line by line over the whole body, code included (as mdBook reads it), except where the
//! opening is escaped (`\{{#include file.rs}}`, the syntax shown); linear in the text and never
//! panics.
//! The `{{#` opening is mdBook's own, so plain Markdown gains nothing and loses nothing.

use crate::Link;

/// The directives whose argument is a file.
const FILE_DIRECTIVES: &[&str] = &["include", "rustdoc_include", "playground"];

/// The file directives of a document whose body starts at byte `body_start`, as links.
pub fn scan(text: &str, body_start: usize) -> Vec<Link> {
    let mut links = Vec::new();
    let before = text.get(..body_start).unwrap_or_default();
    let first = before.matches('\n').count() as u32 + 1;
    for (number, line) in (first..).zip(text.get(body_start..).unwrap_or_default().lines()) {
        let mut rest = line;
        while let Some(at) = rest.find("{{#") {
            // `\{{#include x}}` is the syntax shown, not used.
            let escaped = rest[..at].ends_with('\\');
            let after = &rest[at + 3..];
            let Some(end) = after.find("}}") else {
                break;
            };
            if let Some(path) = file_argument(&after[..end]).filter(|_| !escaped) {
                links.push(Link {
                    target: path.to_owned(),
                    path: Some(path.to_owned()),
                    site_path: None,
                    fragment: None,
                    label: None,
                    line: number,
                    is_image: false,
                    glob: false,
                    includes: after[..end].trim_start().starts_with("include "),
                });
            }
            rest = &after[end + 2..];
        }
    }
    links
}

/// The file a directive's inside (`include file.rs:2:10`) names: its first argument without a
/// line range or anchor; `None` for other directives and for a URL or absolute path.
fn file_argument(inside: &str) -> Option<&str> {
    let mut words = inside.split_whitespace();
    let directive = words.next()?;
    if !FILE_DIRECTIVES.contains(&directive) {
        return None;
    }
    let argument = words.next()?;
    let path = argument.split(':').next()?;
    (!path.is_empty() && !path.starts_with('/') && !argument.contains("://")).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_directives_are_links_in_prose_and_code() {
        let text = "# Watch\n\n{{#include arg-watcher.md}}\n\n```rust\n{{#rustdoc_include ../listings/ch01/main.rs:here}}\n```\n\n{{#playground example.rs editable}} and {{#title Other}} {{#include ../x.rs:3:9}}\n";
        let scanned = scan(text, 0);
        let links: Vec<(&str, u32, bool)> = scanned
            .iter()
            .map(|l| (l.target.as_str(), l.line, l.includes))
            .collect();
        // `include` reads the file's text into the page; the others show it as code.
        assert_eq!(
            links,
            [
                ("arg-watcher.md", 3, true),
                ("../listings/ch01/main.rs", 6, false),
                ("example.rs", 9, false),
                ("../x.rs", 9, true),
            ]
        );
    }

    #[test]
    fn unclosed_other_and_absolute_directives_are_no_links() {
        let text = "\\{{#include file.rs}}\n{{#include\n{{#title A}}\n{{#include /etc/passwd}}\n{{#include https://x.org/a.md}}\n{{#include}}\n";
        assert!(scan(text, 0).is_empty());
    }
}
