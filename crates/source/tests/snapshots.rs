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
