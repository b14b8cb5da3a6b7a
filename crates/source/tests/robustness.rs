//! The analyzer must never panic, whatever it is given, and every line it
//! reports must be a line of the source; members and text keep their bounds
//! and their shape.

use std::collections::HashSet;

use doc_bridge_source::{
    Language, MAX_MEMBERS, MAX_REPORTED_SYNTAX_ERRORS, MAX_TEXT_BYTES, PARSE_ABANDONED,
    SourceFacts, analyze,
};
use proptest::prelude::*;

/// Fragments of all six languages, so that random sequences reach deep into
/// the grammars (and their error recovery) rather than failing at once.
const TOKENS: &[&str] = &[
    "export ",
    "import ",
    " from ",
    "default ",
    "function ",
    "class ",
    "interface ",
    "type ",
    "enum ",
    "namespace ",
    "declare ",
    "abstract ",
    "const ",
    "let ",
    "var ",
    "async ",
    "* as ns",
    "{ a, b as c }",
    "require('x')",
    "import('y')",
    "module.exports = ",
    "exports.foo = ",
    "pub ",
    "pub(crate) ",
    "use ",
    "mod ",
    "fn ",
    "struct ",
    "trait ",
    "impl ",
    "macro_rules! m ",
    "#[macro_export]",
    "#[path = \"p.rs\"]",
    "extern crate ",
    "a::b::{C, D as E}",
    "::*",
    "self",
    "def ",
    "class K:",
    "__all__ = ['a']",
    "__all__ += ",
    "from . import x",
    "if TYPE_CHECKING:",
    "try:",
    "except:",
    "@dec",
    "lambda",
    "package p",
    "func ",
    "(t T) ",
    "\"fmt\"",
    "`raw`",
    "var (",
    "const (",
    "iota",
    "A",
    "b",
    "_c",
    "Ä",
    "x",
    "=",
    ":",
    ";",
    ",",
    ".",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "<",
    ">",
    "</",
    "/>",
    "'",
    "\"",
    "`",
    "\\",
    "/*",
    "*/",
    "//",
    "#",
    "\n",
    "\r\n",
    "\r",
    "\t",
    "    ",
    "\0",
    "\u{FEFF}",
    "\u{FFFD}",
    "é",
    "𝔘",
    // Members and text.
    "static ",
    "get ",
    "readonly ",
    "constructor(private a) {}",
    "#x",
    "$x",
    "'a ",
    "self",
    "&self",
    "self.",
    "@staticmethod",
    "@classmethod",
    "\"\"\"doc\"\"\"",
    "'''",
    "f\"{x}\"",
    "impl<T> Foo<T> for ",
    "for &",
    "pub x: u8,",
    "func (r *T[K]) M() {}",
    "type S struct {",
    "sync.Mutex",
    "/** doc */",
    "/// d",
    "//! e",
    "# c",
    "*",
    "`${a}`",
    // Kotlin, Swift, PHP, C and C++.
    "fun ",
    "val ",
    "companion object ",
    "internal ",
    "private ",
    "public ",
    "open ",
    "extension ",
    "protocol ",
    "func ",
    "init(",
    "case ",
    "<?php ",
    "?>",
    "namespace A\\B;",
    "use A\\{B, C};",
    "function ",
    "$this->",
    "define('X', 1);",
    "require __DIR__ . '/a.php';",
    "#include \"a.h\"",
    "#include <b>",
    "#ifndef G\n#define G\n",
    "#endif\n",
    "template <typename T> ",
    "extern \"C\" ",
    "A::b",
    "typedef struct { int a; } ",
    "public:",
    "~",
    "operator==",
];

fn token_soup() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..160).prop_map(|t| t.concat())
}

fn check(language: Language, source: &[u8]) -> Result<(), TestCaseError> {
    let facts = analyze(language, source);
    let lines = 1..=facts.line_count;
    for symbol in &facts.symbols {
        prop_assert!(
            lines.contains(&symbol.line),
            "{language:?} symbol {symbol:?} {facts:?}"
        );
    }
    for import in &facts.imports {
        prop_assert!(
            lines.contains(&import.line),
            "{language:?} import {import:?} {facts:?}"
        );
    }
    for error in &facts.syntax_errors {
        prop_assert!(
            lines.contains(&error.line),
            "{language:?} error {error:?} {facts:?}"
        );
    }
    check_members(language, &facts)?;
    check_text(language, &facts)?;
    prop_assert!(facts.syntax_errors.len() <= MAX_REPORTED_SYNTAX_ERRORS);
    prop_assert!(facts.syntax_errors.len() as u64 <= u64::from(facts.syntax_error_count));
    // Pure: the same input gives the same facts (the per-thread parser
    // carries nothing over from one call to the next).
    prop_assert_eq!(&facts, &analyze(language, source));
    Ok(())
}

fn check_members(language: Language, facts: &SourceFacts) -> Result<(), TestCaseError> {
    let lines = 1..=facts.line_count;
    let mut seen = HashSet::new();
    let mut last_line = 0;
    prop_assert!(facts.members.len() <= MAX_MEMBERS);
    for member in &facts.members {
        prop_assert!(
            lines.contains(&member.line),
            "{language:?} member {member:?} {facts:?}"
        );
        prop_assert!(
            !member.name.is_empty() && !member.owner.is_empty(),
            "{member:?}"
        );
        prop_assert!(
            seen.insert((&member.owner, &member.name)),
            "{language:?} duplicate member {member:?}"
        );
        // Source order.
        prop_assert!(member.line >= last_line, "{language:?} {:?}", facts.members);
        last_line = member.line;
    }
    Ok(())
}

fn check_text(language: Language, facts: &SourceFacts) -> Result<(), TestCaseError> {
    let text = &facts.text;
    prop_assert!(text.len() <= MAX_TEXT_BYTES);
    // Words separated by exactly one space or newline, each with a letter
    // or digit.
    for word in text.split([' ', '\n']).filter(|_| !text.is_empty()) {
        prop_assert!(
            !word.is_empty() && !word.contains(['\t', '\r']),
            "{language:?} word {word:?} in {text:?}"
        );
        prop_assert!(
            word.chars().any(|c| c.is_alphanumeric() || !c.is_ascii()),
            "{language:?} word {word:?} in {text:?}"
        );
    }
    Ok(())
}

fn check_all(source: &[u8]) -> Result<(), TestCaseError> {
    for language in Language::ALL {
        check(language, source)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_strings_never_panic(source in any::<String>()) {
        check_all(source.as_bytes())?;
    }

    #[test]
    fn arbitrary_bytes_never_panic(source in prop::collection::vec(any::<u8>(), 0..512)) {
        check_all(&source)?;
    }

    #[test]
    fn token_soup_never_panics(source in token_soup()) {
        check_all(source.as_bytes())?;
    }
}

fn deep(open: &str, close: &str, depth: usize) -> String {
    format!("{}{}", open.repeat(depth), close.repeat(depth))
}

#[test]
fn deeply_nested_input_does_not_overflow_the_stack() {
    // A small stack makes any recursion over the nesting fail at this depth,
    // keeping the test quick; analysis must only need constant stack.
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| analyze_deeply_nested(3_000))
        .unwrap()
        .join()
        .unwrap();
}

fn analyze_deeply_nested(depth: usize) {
    let sources = [
        deep("(", ")", depth),
        deep("[", "]", depth),
        deep("{", "}", depth),
        deep("(", "", depth),
        format!("export const x = {};", deep("[", "]", depth)),
        format!("export const {} = o;", deep("{a: ", "}", depth)),
        format!("a = {}1;", "b = ".repeat(depth)),
        format!("module.exports = {}1;", "exports.x = ".repeat(depth)),
        deep("pub mod m { ", "}", depth),
        deep("namespace N { ", "}", depth),
        format!("pub use a::{}x{};", "{b::".repeat(depth), "}".repeat(depth)),
        format!("use {};", vec!["a"; depth].join("::")),
        (0..200)
            .map(|i| format!("{}if x:\n", " ".repeat(i)))
            .collect::<String>(),
        format!("__all__ = {}", deep("(", ")", depth)),
        format!("package p\nvar X = {}", deep("(", ")", depth)),
        (0..200)
            .map(|i| {
                format!(
                    "{}class C{i}:\n{}    x = 1\n",
                    " ".repeat(i * 4),
                    " ".repeat(i * 4)
                )
            })
            .collect::<String>(),
        deep("mod m { impl<T> T<T> { fn f(&self) {} } ", "}", depth),
        deep("class A { m() { return class B { ", "} } }", depth),
        format!(
            "package p\ntype S struct {{ {} }}",
            deep("f struct { ", "}", depth)
        ),
        deep("class A { ", "}", depth),
        deep("public struct S { ", "}", depth),
        format!("<?php {}", deep("if (x) { ", "}", depth)),
        format!(
            "<?php require {}'a.php'{};",
            "(".repeat(depth),
            ")".repeat(depth)
        ),
        deep("#if X\n", "#endif\n", depth),
        deep("extern \"C\" ", "", depth) + "int x;",
        // Kotlin's error recovery on this is worse than quadratic; at this depth the parse
        // budget stops it (see `parse_is_abandoned_past_its_budget`).
        deep("template <typename T> ", "", 1_000) + "class C {};",
        deep("struct S { struct T { ", "}; };", depth),
        // Nested block comments (Rust's nest). Shallow: tree-sitter's
        // Python error recovery takes time and memory quadratic in this
        // nesting (about 1 GB at 2,000 levels).
        deep("/* ", " */", 200),
    ];
    for source in &sources {
        for language in Language::ALL {
            let facts: SourceFacts = analyze(language, source.as_bytes());
            assert!(facts.line_count >= 1);
        }
    }
}

#[test]
fn parse_is_abandoned_past_its_budget() {
    // Tree-sitter's Kotlin error recovery takes minutes on 3,000 of these; the budget counts
    // parser operations, so the outcome is the same on every machine and every run.
    let source = "template <typename T> ".repeat(1_000) + "class C {};\nfun f() {}\n";
    let facts = analyze(Language::Kotlin, source.as_bytes());
    assert_eq!(facts.line_count, 2);
    assert_eq!(facts.syntax_error_count, 1);
    assert_eq!(facts.syntax_errors.len(), 1);
    assert_eq!(facts.syntax_errors[0].line, 1);
    assert_eq!(facts.syntax_errors[0].message, PARSE_ABANDONED);
    assert!(facts.symbols.is_empty() && facts.text.is_empty());
    assert_eq!(facts, analyze(Language::Kotlin, source.as_bytes()));
    // The parser left behind serves the next module as if fresh.
    let next = analyze(Language::Kotlin, b"fun g() {}\n");
    assert_eq!(next.symbols.len(), 1);
    assert_eq!(next.syntax_error_count, 0);
}

#[test]
fn members_are_capped_but_counted() {
    let extra = 25;
    let methods: String = (0..MAX_MEMBERS + extra)
        .map(|i| format!("    def m{i}(self): pass\n"))
        .collect();
    // Duplicates are not members, nor counted as left out.
    let source = format!("class Big:\n{methods}    def m0(self): pass\n");
    let facts = analyze(Language::Python, source.as_bytes());
    assert_eq!(facts.members.len(), MAX_MEMBERS);
    assert_eq!(facts.members_truncated, extra as u32);
    assert_eq!(facts.members[0].name, "m0");
    assert_eq!(
        facts.members.last().map(|m| m.name.clone()),
        Some(format!("m{}", MAX_MEMBERS - 1))
    );
}

#[test]
fn text_is_capped_in_every_language() {
    // A comment line and an identifier line per step, far past the cap.
    let sources = [
        (
            Language::TypeScript,
            "// comment words\nlet someName = otherName;\n",
        ),
        (
            Language::Tsx,
            "// comment words\nlet someName = otherName;\n",
        ),
        (
            Language::JavaScript,
            "// comment words\nlet someName = otherName;\n",
        ),
        (Language::Rust, "// comment words\nconst SOME: Other = X;\n"),
        (
            Language::Python,
            "# comment words\nsome_name = other_name\n",
        ),
        (Language::Go, "// comment words\nvar someName = otherName\n"),
        (
            Language::Java,
            "// comment words\nclass someName { otherName x; }\n",
        ),
        (
            Language::CSharp,
            "// comment words\nclass someName { otherName x; }\n",
        ),
        (Language::Ruby, "# comment words\nsomeName = otherName\n"),
        (
            Language::Kotlin,
            "// comment words\nval someName = otherName\n",
        ),
        (Language::C, "// comment words\nint someName = otherName;\n"),
        (
            Language::Cpp,
            "// comment words\nint someName = otherName;\n",
        ),
        (Language::Php, "// comment words\n$someName = $otherName;\n"),
        (
            Language::Swift,
            "// comment words\nlet someName = otherName\n",
        ),
    ];
    // Ordinary code this large (about 1 MB) stays well inside the parse budget.
    for (language, step) in sources {
        let prefix = match language {
            Language::Go => "package p\n",
            Language::Php => "<?php\n",
            _ => "",
        };
        let source = format!("{prefix}{}", step.repeat(20_000));
        let facts = analyze(language, source.as_bytes());
        assert!(
            facts
                .syntax_errors
                .iter()
                .all(|e| e.message != PARSE_ABANDONED),
            "{language:?}"
        );
        assert!(facts.text_truncated, "{language:?}");
        assert!(facts.text.len() <= MAX_TEXT_BYTES, "{language:?}");
        assert!(facts.text.len() > MAX_TEXT_BYTES - 32, "{language:?}");
        assert!(facts.text.contains("comment words"), "{language:?}");
        // Cut between words: the last word is a whole one.
        let last = facts.text.rsplit([' ', '\n']).next().unwrap_or("");
        assert!(
            [
                "comment",
                "words",
                "someName",
                "otherName",
                "SOME",
                "Other",
                "X",
                "some_name",
                "other_name"
            ]
            .contains(&last),
            "{language:?} {last:?}"
        );
    }
}

#[test]
fn errors_are_capped_but_counted() {
    let source = "export const = ;\n".repeat(100);
    let facts = analyze(Language::TypeScript, source.as_bytes());
    assert_eq!(facts.syntax_errors.len(), MAX_REPORTED_SYNTAX_ERRORS);
    assert!(
        facts.syntax_error_count >= 100,
        "{}",
        facts.syntax_error_count
    );
    let lines: Vec<u32> = facts.syntax_errors.iter().map(|e| e.line).collect();
    assert!(lines.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
}

#[test]
fn missing_tokens_are_reported_by_kind_on_a_source_line() {
    let facts = analyze(Language::Rust, b"pub struct S {\n");
    assert_eq!(facts.line_count, 1);
    assert_eq!(facts.syntax_error_count, 1, "{facts:?}");
    assert_eq!(facts.syntax_errors[0].line, 1);
    assert_eq!(facts.syntax_errors[0].message, "missing }");
}

#[test]
fn invalid_utf8_names_are_skipped_not_mangled() {
    let facts = analyze(Language::Rust, b"pub fn ok() {}\npub fn bad\xff() {}\n");
    assert_eq!(facts.symbols.first().map(|s| s.name.as_str()), Some("ok"));
    assert!(facts.symbols.iter().all(|s| !s.name.contains('\u{FFFD}')));
}

#[test]
fn analysis_runs_in_parallel_threads() {
    let sources: Vec<(Language, String)> = Language::ALL
        .iter()
        .map(|&l| {
            (
                l,
                format!(
                    "export const A = 1;\npub fn a() {{}}\ndef a(): pass\nfunc A() {{}}\n// {}\n",
                    l.name()
                ),
            )
        })
        .collect();
    let expected: Vec<SourceFacts> = sources
        .iter()
        .map(|(l, s)| analyze(*l, s.as_bytes()))
        .collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    for _ in 0..20 {
                        for ((language, source), want) in sources.iter().zip(&expected) {
                            assert_eq!(&analyze(*language, source.as_bytes()), want);
                        }
                    }
                })
            })
            .collect();
        for handle in handles {
            handle.join().unwrap();
        }
    });
}
