//! Behaviour of `analyze`, one fact at a time.

use std::time::{Duration, Instant};

use doc_bridge_markdown::{CodeMention, Heading, Link, SUMMARY_MAX_CHARS, TitleSource, analyze};
use serde_json::json;

fn link(target: &str, path: Option<&str>, fragment: Option<&str>, line: u32) -> Link {
    Link {
        target: target.into(),
        path: path.map(Into::into),
        site_path: None,
        fragment: fragment.map(Into::into),
        label: None,
        line,
        is_image: false,
        glob: false,
        includes: false,
    }
}

#[test]
fn title_falls_back_to_first_h1_then_file_stem() {
    let with_front_matter = analyze("---\ntitle: ' From YAML '\n---\n# Heading\n", "stem");
    assert_eq!(with_front_matter.title, "From YAML");
    assert_eq!(with_front_matter.title_source, TitleSource::FrontMatter);

    let with_h1 = analyze("## Second\n\n# First *H1*\n\n# Other H1\n", "stem");
    assert_eq!(with_h1.title, "First H1");
    assert_eq!(with_h1.title_source, TitleSource::Heading);

    let bare = analyze("## Only level two\n\ntext\n", "my-page");
    assert_eq!(bare.title, "my-page");
    assert_eq!(bare.title_source, TitleSource::FileStem);
}

#[test]
fn empty_front_matter_title_falls_back_to_heading() {
    let facts = analyze("---\ntitle: '  '\n---\n# Real\n", "stem");
    assert_eq!(facts.title, "Real");
    assert_eq!(facts.title_source, TitleSource::Heading);
}

#[test]
fn title_source_serializes_as_kebab_case() {
    assert_eq!(
        serde_json::to_value(TitleSource::FrontMatter).unwrap(),
        json!("front-matter")
    );
    assert_eq!(
        serde_json::to_value(TitleSource::FileStem).unwrap(),
        json!("file-stem")
    );
}

#[test]
fn numeric_front_matter_title_becomes_text() {
    let facts = analyze("---\ntitle: 2024\n---\n", "stem");
    assert_eq!(facts.title, "2024");
    assert_eq!(facts.title_source, TitleSource::FrontMatter);
}

#[test]
fn broken_front_matter_is_reported_and_body_still_read() {
    let text =
        "---\ntitle: ok\ntags: [a, b\nowner: me\n---\n# Still Here\n\nSee [guide](guide.md).\n";
    let facts = analyze(text, "stem");
    assert_eq!(facts.front_matter, None);
    let error = facts.front_matter_error.expect("error reported");
    assert!((2..=5).contains(&error.line), "line {}", error.line);
    assert!(!error.message.is_empty());
    assert!(!error.message.contains("title: ok"), "{}", error.message);
    assert_eq!(facts.title, "Still Here");
    assert_eq!(facts.headings[0].line, 6);
    assert_eq!(facts.body, "Still Here\nSee guide.");
    assert_eq!(facts.links, [link("guide.md", Some("guide.md"), None, 8)]);
}

#[test]
fn yaml_error_line_points_into_the_file() {
    let facts = analyze("---\na: 1\nb: 2\n  c: 3\n---\n", "stem");
    assert_eq!(facts.front_matter_error.unwrap().line, 4);
}

#[test]
fn non_mapping_front_matter_is_an_error() {
    for yaml in ["- a\n- b\n", "word\n", "42\n"] {
        let facts = analyze(&format!("---\n\n{yaml}---\nBody text\n"), "stem");
        assert_eq!(facts.front_matter, None, "{yaml}");
        let error = facts.front_matter_error.expect("error reported");
        assert_eq!(error.line, 3, "{yaml}");
        assert!(error.message.contains("mapping"), "{}", error.message);
        assert_eq!(facts.body, "Body text");
    }
}

/// A sentence between two `---` lines is prose between thematic breaks (a legacy GitHub issue
/// template), not front matter: Markdown from the first line, no error.
#[test]
fn prose_between_rules_is_markdown_not_front_matter() {
    let text = "---\nBefore filing an issue, search the open ones.\n---\n\nSteps to reproduce.\n";
    let facts = analyze(text, "ISSUE_TEMPLATE");
    assert_eq!(facts.front_matter, None);
    assert_eq!(facts.front_matter_error, None);
    assert!(
        facts.body.contains("Before filing an issue") && facts.body.contains("Steps to reproduce"),
        "{}",
        facts.body
    );
}

#[test]
fn empty_front_matter_is_present_and_empty() {
    let facts = analyze("---\n---\nText\n", "stem");
    assert_eq!(facts.front_matter, Some(Default::default()));
    assert_eq!(facts.front_matter_error, None);
    assert_eq!(facts.body, "Text");
}

#[test]
fn yaml_no_stays_a_string() {
    let facts = analyze("---\ncountry: NO\nanswer: yes\nflag: true\n---\n", "stem");
    let extra = facts.front_matter.unwrap().extra;
    assert_eq!(extra["country"], json!("NO"));
    assert_eq!(extra["answer"], json!("yes"));
    assert_eq!(extra["flag"], json!(true));
}

#[test]
fn extra_keeps_other_keys_as_json() {
    let text = "---\nweight: 3\nratio: 0.5\ndraft: false\nzip: 0755\nnothing: ~\nwhen: 2024-01-31\nlist: [1, two]\nnested:\n  k: v\nnan: .nan\n---\n";
    let front_matter = analyze(text, "stem").front_matter.unwrap();
    assert_eq!(
        serde_json::to_value(&front_matter.extra).unwrap(),
        json!({
            "weight": 3,
            "ratio": 0.5,
            "draft": false,
            "zip": "0755",
            "nothing": null,
            "when": "2024-01-31",
            "list": [1, "two"],
            "nested": {"k": "v"},
            "nan": ".nan",
        })
    );
}

#[test]
fn wrong_typed_fields_are_ignored_not_fatal() {
    let text =
        "---\ntitle: [1, 2]\ndescription: {a: b}\nowner: Team A\ntags: {x: y}\n---\n# Heading\n";
    let facts = analyze(text, "stem");
    assert_eq!(facts.front_matter_error, None);
    let front_matter = facts.front_matter.unwrap();
    assert_eq!(front_matter.title, None);
    assert_eq!(front_matter.description, None);
    assert!(front_matter.tags.is_empty());
    assert_eq!(front_matter.owner.as_deref(), Some("Team A"));
    assert!(
        front_matter.extra.is_empty(),
        "typed keys never reach extra"
    );
    assert_eq!(facts.title, "Heading");
}

#[test]
fn tags_accept_a_list_or_a_comma_separated_string() {
    let text = "---\ntags: [rust, ' cli ', 7]\naudience: ops, dev , \ncovers: crates/cli\nchecks:\n  - lint\n  - test\nlanguage: en\n---\n";
    let front_matter = analyze(text, "stem").front_matter.unwrap();
    assert_eq!(front_matter.tags, ["rust", "cli", "7"]);
    assert_eq!(front_matter.audience, ["ops", "dev"]);
    assert_eq!(front_matter.covers, ["crates/cli"]);
    assert_eq!(front_matter.checks, ["lint", "test"]);
    assert_eq!(front_matter.lang.as_deref(), Some("en"));
}

#[test]
fn duplicate_front_matter_keys_keep_the_last_value() {
    let front_matter = analyze("---\nowner: a\nowner: b\n---\n", "stem")
        .front_matter
        .unwrap();
    assert_eq!(front_matter.owner.as_deref(), Some("b"));
}

#[test]
fn alias_bomb_is_refused_quickly() {
    let mut yaml = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..10 {
        let previous = format!("*a{}", level - 1);
        let items = [previous.as_str(); 10].join(", ");
        yaml.push_str(&format!("a{level}: &a{level} [{items}]\n"));
    }
    let started = Instant::now();
    let facts = analyze(&format!("---\n{yaml}---\n# After\n"), "stem");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(facts.front_matter, None);
    assert!(facts.front_matter_error.is_some());
    assert_eq!(facts.title, "After");
}

#[test]
fn bom_before_front_matter_is_accepted() {
    let facts = analyze("\u{FEFF}---\ntitle: Bom\n---\nText\n", "stem");
    assert_eq!(facts.title, "Bom");
    assert_eq!(facts.body, "Text");
}

#[test]
fn unclosed_front_matter_is_plain_markdown() {
    let facts = analyze("---\ntitle: x\n", "stem");
    assert_eq!(facts.front_matter, None);
    assert_eq!(facts.front_matter_error, None);
    assert_eq!(facts.body, "title: x");
}

#[test]
fn links_keep_line_numbers_after_front_matter() {
    let text =
        "---\ntitle: t\n---\n\nIntro [one](a.md)\nand ![pic](img/p.png)\n\n## [Two](b.md#part)\n";
    let facts = analyze(text, "stem");
    assert_eq!(
        facts.links,
        [
            link("a.md", Some("a.md"), None, 5),
            Link {
                is_image: true,
                ..link("img/p.png", Some("img/p.png"), None, 6)
            },
            link("b.md#part", Some("b.md"), Some("part"), 8),
        ]
    );
    assert_eq!(facts.headings[0].line, 8);
}

#[test]
fn relative_link_path_is_percent_decoded() {
    let facts = analyze("[x](docs/My%20Guide%C3%A9.md?plain=1#Set%20up)\n", "stem");
    assert_eq!(
        facts.links,
        [link(
            "docs/My%20Guide%C3%A9.md?plain=1#Set%20up",
            Some("docs/My Guideé.md"),
            Some("Set up"),
            1
        )]
    );
}

#[test]
fn external_and_anchor_links_have_no_path() {
    let text = "[a](https://x.org/p#top) [b](mailto:me@x.org) [c](//cdn.x.org/a.js)\n[d](/abs/a.md) [e](#local) <https://auto.link> <me@x.org>\nRaw https://raw.example/x and www.example.com.\n![i](data:image/png;base64,AAAA)\n";
    let facts = analyze(text, "stem");
    let summary: Vec<(&str, Option<&str>, Option<&str>, u32)> = facts
        .links
        .iter()
        .map(|l| {
            (
                l.target.as_str(),
                l.path.as_deref(),
                l.fragment.as_deref(),
                l.line,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("https://x.org/p#top", None, Some("top"), 1),
            ("mailto:me@x.org", None, None, 1),
            ("//cdn.x.org/a.js", None, None, 1),
            ("/abs/a.md", None, None, 2),
            ("#local", None, Some("local"), 2),
            ("https://auto.link", None, None, 2),
            ("me@x.org", None, None, 2),
            ("https://raw.example/x", None, None, 3),
            ("http://www.example.com", None, None, 3),
            ("data:image/png;base64,AAAA", None, None, 4),
        ]
    );
}

#[test]
fn site_absolute_links_keep_their_path_apart_from_relative_ones() {
    let facts = analyze(
        "[a](/en/guide%20one?x#top) [b](//cdn.x.org/a) [c](a.md)\n",
        "stem",
    );
    let site: Vec<Option<&str>> = facts.links.iter().map(|l| l.site_path.as_deref()).collect();
    assert_eq!(site, [Some("/en/guide one"), None, None]);
    assert_eq!(facts.links[0].path, None);
    assert_eq!(facts.links[0].fragment.as_deref(), Some("top"));
}

#[test]
fn reference_links_resolve_through_definitions() {
    let text =
        "Read [the guide][g] and [setup].\n\n[g]: ./guide.md#intro\n[setup]: <setup notes.md>\n";
    let facts = analyze(text, "stem");
    assert_eq!(
        facts.links,
        [
            link("./guide.md#intro", Some("./guide.md"), Some("intro"), 1),
            link("setup notes.md", Some("setup notes.md"), None, 1),
        ]
    );
    assert_eq!(facts.body, "Read the guide and setup.");
}

#[test]
fn links_without_destination_are_skipped() {
    assert!(analyze("[empty]()\n", "stem").links.is_empty());
}

#[test]
fn code_fences_are_not_in_body() {
    let text = "Before\n\n```rust\nfn hidden() {}\n```\n\n~~~\nalso hidden\n~~~\n\n    indented hidden\n\nAfter\n";
    let facts = analyze(text, "stem");
    assert_eq!(facts.body, "Before\nAfter");
    assert!(facts.code_mentions.is_empty());
}

#[test]
fn inline_code_is_kept_in_body_and_reported_as_mention() {
    let facts = analyze("Call `run()`\nthen `stop --now`.\n", "stem");
    assert_eq!(facts.body, "Call run() then stop --now.");
    assert_eq!(
        facts.code_mentions,
        [
            CodeMention {
                text: "run()".into(),
                line: 1
            },
            CodeMention {
                text: "stop --now".into(),
                line: 2
            },
        ]
    );
}

#[test]
fn html_and_jsx_are_not_in_body() {
    let text = "import Tabs from '@theme/Tabs';\n\n<Tabs groupId=\"os\">\n  <TabItem value=\"mac\">\n</Tabs>\n\nText with <b>bold</b> inline html.\n\n<!-- a comment -->\n";
    let facts = analyze(text, "stem");
    assert_eq!(
        facts.body,
        "import Tabs from '@theme/Tabs';\nText with bold inline html."
    );
}

#[test]
fn headings_keep_levels_one_to_three_with_plain_text() {
    let text = "# One `code` *em*\n## Two [link](x.md)\n### Three {#custom-id}\n#### Four\n\nSetext\n======\n";
    let facts = analyze(text, "stem");
    assert_eq!(
        facts.headings,
        [
            Heading {
                level: 1,
                text: "One code em".into(),
                line: 1
            },
            Heading {
                level: 2,
                text: "Two link".into(),
                line: 2
            },
            Heading {
                level: 3,
                text: "Three".into(),
                line: 3
            },
            Heading {
                level: 1,
                text: "Setext".into(),
                line: 6
            },
        ]
    );
    assert!(facts.body.contains("Four"));
}

#[test]
fn summary_prefers_description_then_first_paragraph() {
    let with_description = analyze(
        "---\ndescription: |\n  Spread   over\n  lines.\n---\nFirst paragraph.\n",
        "stem",
    );
    assert_eq!(with_description.summary, "Spread over lines.");

    let without = analyze("# T\n\nFirst  *para*\ngraph `x`.\n\nSecond.\n", "stem");
    assert_eq!(without.summary, "First para graph x.");
}

#[test]
fn summary_skips_badge_only_paragraphs() {
    let text = "# Project\n\n[![CI](ci.svg)](ci) ![cov](cov.svg)\n\nDoes useful things.\n";
    assert_eq!(analyze(text, "stem").summary, "Does useful things.");
}

#[test]
fn long_summary_is_cut_at_a_word_with_ellipsis() {
    let paragraph = "lorem ipsum ".repeat(60);
    let facts = analyze(&paragraph, "stem");
    assert!(facts.summary.chars().count() <= SUMMARY_MAX_CHARS);
    assert!(facts.summary.ends_with("…"));
    let without_ellipsis = facts.summary.trim_end_matches('…');
    assert!(without_ellipsis.ends_with("lorem") || without_ellipsis.ends_with("ipsum"));
}

#[test]
fn body_separates_blocks_with_newlines() {
    let text = "# Title\n\nPara one\nwrapped.\n\n- item a\n- item b\n  - nested\n\n| h1 | h2 |\n|----|----|\n| c1 | c2 |\n\n> quote\n\n- [x] task\n\nNote[^n].\n\n[^n]: Footnote text.\n";
    let facts = analyze(text, "stem");
    assert_eq!(
        facts.body,
        "Title\nPara one wrapped.\nitem a\nitem b\nnested\nh1 h2\nc1 c2\nquote\ntask\nNote.\nFootnote text."
    );
}

#[test]
fn line_count_ignores_trailing_newline() {
    assert_eq!(analyze("", "stem").line_count, 0);
    assert_eq!(analyze("a", "stem").line_count, 1);
    assert_eq!(analyze("a\n", "stem").line_count, 1);
    assert_eq!(analyze("a\n\n", "stem").line_count, 2);
    assert_eq!(analyze("---\nt: 1\n---\nx\n", "stem").line_count, 4);
}

#[test]
fn crlf_documents_have_correct_lines() {
    let text = "---\r\ntitle: Win\r\n---\r\n\r\n# Head\r\n\r\n[l](a.md)\r\n";
    let facts = analyze(text, "stem");
    assert_eq!(facts.title, "Win");
    assert_eq!(facts.headings[0].line, 5);
    assert_eq!(facts.links[0].line, 7);
    assert_eq!(facts.line_count, 7);
}

#[test]
fn empty_document_has_empty_facts() {
    let facts = analyze("", "stem");
    assert_eq!(facts.title, "stem");
    assert!(facts.body.is_empty() && facts.summary.is_empty());
    assert!(facts.headings.is_empty() && facts.links.is_empty());
}

#[test]
fn deep_nesting_does_not_panic() {
    let depth = 20_000;
    for text in [
        ">".repeat(depth) + " deep",
        "- ".repeat(depth) + "deep",
        "[".repeat(depth) + "x" + &"](y)".repeat(depth),
        "*".repeat(depth) + "x" + &"*".repeat(depth),
        "---\n".to_string() + &"[".repeat(depth) + "\n---\n",
        "---\n".to_string() + &"- ".repeat(depth) + "x\n---\n",
    ] {
        let facts = analyze(&text, "stem");
        assert!(facts.line_count >= 1);
    }
}

#[test]
fn large_document_is_analysed() {
    let section = "## Section\n\nSome text with `code` and [a link](a.md) and https://x.io.\n\n```\nhidden\n```\n\n";
    let text = section.repeat(20_000);
    let facts = analyze(&text, "stem");
    assert_eq!(facts.headings.len(), 20_000);
    assert_eq!(facts.links.len(), 40_000);
    assert_eq!(facts.code_mentions.len(), 20_000);
    assert_eq!(facts.headings[19_999].line, 19_999 * 8 + 1);
}

#[test]
fn docc_links_name_articles_by_label() {
    let text = "- <doc:GettingStarted>\n- <doc:ArgumentParser/Custom-Help#Usage>\n- [x](doc:Plain)\n<https://doc.example>\n";
    let facts = analyze(text, "stem");
    let labels: Vec<(Option<&str>, Option<&str>)> = facts
        .links
        .iter()
        .map(|l| (l.label.as_deref(), l.path.as_deref()))
        .collect();
    assert_eq!(
        labels,
        [
            (Some("gettingstarted"), None),
            (Some("custom-help"), None),
            (Some("plain"), None),
            (None, None),
        ]
    );
}
