//! Snapshots of the facts for one rich sample per language. Review the
//! `.snap` files by eye when they change.

use doc_bridge_source::{Language, SourceFacts, analyze};

fn facts(language: Language, source: &[u8]) -> SourceFacts {
    let facts = analyze(language, source);
    assert_eq!(
        facts.syntax_error_count, 0,
        "the samples are valid: {facts:?}"
    );
    facts
}

#[test]
fn typescript_sample() {
    let facts = facts(Language::TypeScript, include_bytes!("fixtures/sample.ts"));
    insta::assert_json_snapshot!(facts);
}

#[test]
fn tsx_sample() {
    let facts = facts(Language::Tsx, include_bytes!("fixtures/sample.tsx"));
    insta::assert_json_snapshot!(facts);
}

#[test]
fn javascript_sample() {
    let facts = facts(Language::JavaScript, include_bytes!("fixtures/sample.js"));
    insta::assert_json_snapshot!(facts);
}

#[test]
fn rust_sample() {
    let facts = facts(Language::Rust, include_bytes!("fixtures/sample.rs"));
    insta::assert_json_snapshot!(facts);
}

#[test]
fn python_sample() {
    let facts = facts(Language::Python, include_bytes!("fixtures/sample.py"));
    insta::assert_json_snapshot!(facts);
}

#[test]
fn go_sample() {
    let facts = facts(Language::Go, include_bytes!("fixtures/sample.go"));
    insta::assert_json_snapshot!(facts);
}

#[test]
fn broken_typescript_sample() {
    let source = b"export function ok() {}\nexport const = ;\nexport class Fine {\n  method( {\n}\nimport x from 'y'\n";
    insta::assert_json_snapshot!(analyze(Language::TypeScript, source));
}

/// The members (one per line: line, owner, name, kind) and the text of a
/// module, for a snapshot that reads as plainly as the fixture.
fn members_and_text(language: Language, source: &[u8]) -> String {
    let facts = facts(language, source);
    let mut out = String::from("members:\n");
    for member in &facts.members {
        let kind = serde_json::to_value(member.kind).expect("a kind serializes");
        out.push_str(&format!(
            "  {:>3} {}.{} {}\n",
            member.line,
            member.owner,
            member.name,
            kind.as_str().expect("as a string")
        ));
    }
    out.push_str(&format!(
        "membersTruncated: {}\ntextTruncated: {}\ntext:\n",
        facts.members_truncated, facts.text_truncated
    ));
    for line in facts.text.lines() {
        out.push_str("  ");
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[test]
fn typescript_members_and_text() {
    let source = include_bytes!("fixtures/members.ts");
    insta::assert_snapshot!(members_and_text(Language::TypeScript, source));
}

#[test]
fn javascript_members_and_text() {
    let source = include_bytes!("fixtures/members.js");
    insta::assert_snapshot!(members_and_text(Language::JavaScript, source));
}

#[test]
fn python_members_and_text() {
    let source = include_bytes!("fixtures/members.py");
    insta::assert_snapshot!(members_and_text(Language::Python, source));
}

#[test]
fn go_members_and_text() {
    let source = include_bytes!("fixtures/members.go");
    insta::assert_snapshot!(members_and_text(Language::Go, source));
}

#[test]
fn rust_members_and_text() {
    let source = include_bytes!("fixtures/members.rs");
    insta::assert_snapshot!(members_and_text(Language::Rust, source));
}
