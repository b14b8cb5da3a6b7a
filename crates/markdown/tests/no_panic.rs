//! `analyze` never panics and its facts stay consistent, whatever the input.

use doc_bridge_markdown::{MarkdownFacts, SUMMARY_MAX_CHARS, analyze};
use proptest::prelude::*;

/// Pieces of Markdown syntax, so generated documents reach far more parser
/// states than uniformly random text does.
const MARKDOWN_TOKENS: &[&str] = &[
    "# ",
    "## ",
    "### ",
    "#### ",
    "\n",
    "\n\n",
    "\r",
    "\r\n",
    "---\n",
    "===\n",
    "```\n",
    "~~~",
    "    ",
    "\t",
    "`",
    "``",
    "[",
    "]",
    "](",
    ")",
    "![",
    "[^1]",
    "[^1]: ",
    "[ref]: ",
    "<",
    ">",
    "> ",
    "*",
    "**",
    "_",
    "~~",
    "- ",
    "1. ",
    "- [x] ",
    "|",
    "|---|",
    "http://",
    "https://",
    "www.",
    "mailto:",
    "#",
    "%20",
    "%",
    "?",
    "&amp;",
    "&#",
    ";",
    "\\",
    "<div>",
    "</div>",
    "<!--",
    "-->",
    "import X from 'y'",
    "<Tabs />",
    "{#id}",
    "{",
    "}",
    "\u{FEFF}",
    "é",
    "日本",
    "a",
    "word ",
    "x.md",
    "../",
    "/",
    ":",
    "(",
    " ",
    "\u{0}",
];

/// Pieces of YAML, including anchors, aliases, tags and merge keys.
const YAML_TOKENS: &[&str] = &[
    "title: ",
    "description: ",
    "tags: ",
    "lang: ",
    "locale: ",
    "a: ",
    "- ",
    "  ",
    "\n",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&x ",
    "*x",
    "&y ",
    "*y",
    "<<: ",
    "!!binary ",
    "!!str ",
    "!tag ",
    "? ",
    ": ",
    "'",
    "\"",
    "|",
    ">",
    "#",
    "NO",
    "yes",
    "1",
    "0755",
    "1e999",
    ".nan",
    "~",
    "null",
    "true",
    "%YAML 1.2",
    "---",
    "...",
    "\t",
    "é",
    "\u{FEFF}",
    "\r\n",
];

fn tokens(alphabet: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(alphabet), 0..max).prop_map(|parts| parts.concat())
}

fn check_invariants(text: &str, facts: &MarkdownFacts) {
    let lines = 1..=facts.line_count;
    for heading in &facts.headings {
        assert!((1..=3).contains(&heading.level), "{heading:?}");
        assert!(lines.contains(&heading.line), "{heading:?}");
    }
    for link in &facts.links {
        assert!(lines.contains(&link.line), "{link:?}");
        assert!(!link.target.is_empty(), "{link:?}");
    }
    for mention in &facts.code_mentions {
        assert!(lines.contains(&mention.line), "{mention:?}");
    }
    if let Some(error) = &facts.front_matter_error {
        assert!(lines.contains(&error.line), "{error:?}");
        assert!(facts.front_matter.is_none());
    }
    assert!(facts.summary.chars().count() <= SUMMARY_MAX_CHARS);
    assert!(!facts.title.is_empty());
    assert!(facts.body.len() <= 3 * text.len());
    assert!(facts.line_count as usize <= text.len());
    assert_eq!(&analyze(text, "stem"), facts, "analysis is deterministic");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        let facts = analyze(&text, "stem");
        check_invariants(&text, &facts);
    }

    #[test]
    fn markdown_shaped_text_never_panics(text in tokens(MARKDOWN_TOKENS, 200)) {
        let facts = analyze(&text, "stem");
        check_invariants(&text, &facts);
    }

    #[test]
    fn front_matter_shaped_text_never_panics(
        yaml in prop_oneof![tokens(YAML_TOKENS, 80), any::<String>()],
        body in prop_oneof![tokens(MARKDOWN_TOKENS, 80), any::<String>()],
        closing in prop::sample::select(&["---", "...", "--- "][..]),
    ) {
        let text = format!("---\n{yaml}\n{closing}\n{body}");
        let facts = analyze(&text, "stem");
        check_invariants(&text, &facts);
        // The YAML block always closes at the first delimiter line, so the
        // document has a front matter verdict one way or the other, unless the
        // generated YAML itself contains the closing delimiter early.
        let yaml_has_delimiter = yaml.lines().any(|line| {
            matches!(line.trim_end_matches([' ', '\t']), "---" | "...")
        }) || yaml.contains('\r');
        if !yaml_has_delimiter {
            prop_assert!(facts.front_matter.is_some() != facts.front_matter_error.is_some());
        }
    }
}
