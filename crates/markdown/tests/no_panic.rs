//! The analyzers never panic and their facts stay consistent, whatever the input.

use doc_bridge_markdown::{MarkdownFacts, SUMMARY_MAX_CHARS, analyze, asciidoc, rst};
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

/// Pieces of reStructuredText and Sphinx markup.
const RST_TOKENS: &[&str] = &[
    "\n",
    "\n\n",
    "\r\n",
    "   ",
    "\t",
    "=====\n",
    "-----\n",
    "~~~\n",
    "####\n",
    ".. ",
    ".. _label:",
    ".. _x: https://a",
    ".. note::",
    ".. code-block:: python",
    ".. toctree::",
    ".. image:: a.png",
    ".. |s| image:: b",
    ".. [1] ",
    ":maxdepth: 2",
    "::",
    ":doc:`",
    ":ref:`",
    ":func:`",
    ":py:class:`",
    "`",
    "``",
    "`_",
    "`__",
    "<",
    ">",
    "_",
    "*",
    "**",
    "|",
    ":",
    "~",
    "!",
    ".",
    "a",
    "word ",
    "intro",
    "/api",
    "é",
    "日本",
    "\u{FEFF}",
    "\u{0}",
    "+---+",
    "| a |",
];

/// Pieces of AsciiDoc markup.
const ADOC_TOKENS: &[&str] = &[
    "\n",
    "\n\n",
    "\r\n",
    "  ",
    "= ",
    "== ",
    "=== ",
    "## ",
    ":description: ",
    ":toc:",
    "----\n",
    "....\n",
    "////\n",
    "++++\n",
    "====\n",
    "|===\n",
    "--\n",
    "// ",
    "[[id]]",
    "[#id]",
    "[source,java]",
    "xref:",
    "a.adoc",
    "#frag",
    "[",
    "]",
    "<<",
    ">>",
    ",",
    "include::",
    "image::",
    "image:",
    "link:",
    "https://",
    "`",
    "+",
    "*",
    "_",
    "#",
    ".",
    "NOTE: ",
    "{attr}",
    "a",
    "word ",
    "é",
    "日本",
    "\u{FEFF}",
    "\u{0}",
];

fn check_invariants(text: &str, facts: &MarkdownFacts) {
    check_facts(text, facts, analyze);
}

fn check_facts(text: &str, facts: &MarkdownFacts, analyzer: fn(&str, &str) -> MarkdownFacts) {
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
    assert_eq!(&analyzer(text, "stem"), facts, "analysis is deterministic");
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
        // generated YAML itself contains the closing delimiter early, or is prose (one string
        // of several words: Markdown between two thematic breaks, no verdict).
        let yaml_has_delimiter = yaml.lines().any(|line| {
            matches!(line.trim_end_matches([' ', '\t']), "---" | "...")
        }) || yaml.contains('\r');
        prop_assert!(facts.front_matter.is_none() || facts.front_matter_error.is_none());
        if !yaml_has_delimiter && facts.front_matter.is_none() && facts.front_matter_error.is_none() {
            prop_assert!(yaml.trim().contains(char::is_whitespace), "no verdict for {:?}", yaml);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn rst_never_panics(text in prop_oneof![tokens(RST_TOKENS, 200), any::<String>()]) {
        let facts = rst::analyze(&text, "stem");
        check_facts(&text, &facts, rst::analyze);
    }

    #[test]
    fn asciidoc_never_panics(text in prop_oneof![tokens(ADOC_TOKENS, 200), any::<String>()]) {
        let facts = asciidoc::analyze(&text, "stem");
        check_facts(&text, &facts, asciidoc::analyze);
    }
}

/// Inputs that would make a careless scan quadratic or deeply recursive: every analyzer reads
/// them in one pass (a quadratic one would not finish here in any reasonable time).
#[test]
fn hostile_documents_are_read_in_one_pass() {
    let open_roles = ":ref:`".repeat(50_000);
    let backticks = "`".repeat(200_000);
    let colons = "a:b:".repeat(100_000);
    let angles = "<<".repeat(100_000);
    let deep: String = (0..20_000)
        .map(|depth| format!("{}.. note::\n\n", " ".repeat(depth % 2_000)))
        .collect();
    let long_title = format!("{}\n{}\n", "t".repeat(100_000), "=".repeat(100_000));
    for text in [
        &open_roles,
        &backticks,
        &colons,
        &angles,
        &deep,
        &long_title,
    ] {
        for analyzer in [analyze, rst::analyze, asciidoc::analyze] {
            let facts = analyzer(text, "stem");
            assert!(facts.line_count as usize <= text.len());
        }
    }
    let facts = rst::analyze(&long_title, "stem");
    assert_eq!(facts.headings.len(), 1);
}
