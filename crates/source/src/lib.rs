//! Source analyzer: the exported symbols, imports, members and searchable
//! text of one module.
//!
//! [`analyze`] is a pure function from a module's bytes to [`SourceFacts`]: it
//! reads no files, looks at no clock and never panics, whatever the input
//! (binary junk, syntax errors, deep nesting, very large files). Syntax errors
//! do not stop the analysis: tree-sitter recovers, the facts found in the
//! well-formed parts are reported, and the errors are listed as diagnostics.
//!
//! Supported languages are TypeScript (and TSX), JavaScript (with JSX), Rust,
//! Python, Go, Java, Kotlin, C#, C, C++, Ruby, PHP and Swift; see [`Language`].

#![warn(missing_docs)]

mod c_family;
mod c_macros;
mod common;
mod csharp;
mod ecmascript;
mod go;
mod java;
mod kotlin;
pub mod literals;
pub mod paths;
mod php;
mod python;
mod ruby;
mod rust;
mod swift;
#[cfg(test)]
mod test_support;
mod text;

use std::cell::RefCell;
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};
use tree_sitter::{Parser, Tree};

/// Version of the analysis rules.
///
/// Bumped whenever the output for the same input could change (grammar
/// upgrades included), so that cached facts can be invalidated.
pub const ANALYZER_VERSION: u32 = 12;

/// A source language the analyzer understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
// Serialized as `name()` ("typescript", not kebab-case "type-script").
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// TypeScript without JSX (`.ts`, `.mts`, `.cts`, `.d.ts`).
    TypeScript,
    /// TypeScript with JSX (`.tsx`).
    Tsx,
    /// JavaScript, JSX included (`.js`, `.jsx`, `.mjs`, `.cjs`).
    JavaScript,
    /// Rust (`.rs`).
    Rust,
    /// Python (`.py`, `.pyi`).
    Python,
    /// Go (`.go`).
    Go,
    /// Java (`.java`).
    Java,
    /// C# (`.cs`).
    CSharp,
    /// Ruby (`.rb`, `.rake`, `Rakefile`).
    Ruby,
    /// Kotlin (`.kt`, `.kts`).
    Kotlin,
    /// C sources (`.c`); C headers are read as C++, see [`Language::Cpp`].
    C,
    /// C++ sources and every C or C++ header (`.cc`, `.cpp`, `.cxx`, `.c++`, `.h`, `.hh`,
    /// `.hpp`, `.hxx`, `.h++`, `.inl`, `.ipp`, `.tpp`).
    Cpp,
    /// PHP (`.php`).
    Php,
    /// Swift (`.swift`).
    Swift,
}

impl Language {
    /// Every supported language, in declaration order.
    pub const ALL: [Language; 14] = [
        Language::TypeScript,
        Language::Tsx,
        Language::JavaScript,
        Language::Rust,
        Language::Python,
        Language::Go,
        Language::Java,
        Language::CSharp,
        Language::Ruby,
        Language::Kotlin,
        Language::C,
        Language::Cpp,
        Language::Php,
        Language::Swift,
    ];

    /// The language of a file, by its extension.
    ///
    /// `.ts` `.mts` `.cts` → TypeScript (declaration files such as `.d.ts`
    /// too), `.tsx` → Tsx, `.js` `.jsx` `.mjs` `.cjs` → JavaScript, `.rs` →
    /// Rust, `.py` `.pyi` → Python, `.go` → Go, `.java` → Java, `.cs` → CSharp, `.rb`
    /// `.rake` and `Rakefile` → Ruby, `.kt` `.kts` → Kotlin, `.c` → C, the C++ sources and
    /// every header (`.h` included: a C header parses as C++, and Universal Ctags maps it the
    /// same way) → Cpp, `.php` → Php, `.swift` → Swift. Both `/` and `\` separate
    /// directories; the extension is compared ASCII-case-insensitively. A
    /// dot file without a further extension (`.ts`) has no extension, as
    /// with [`std::path::Path::extension`].
    pub fn from_path(path: &str) -> Option<Language> {
        let file_name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        if file_name == "Rakefile" {
            return Some(Language::Ruby);
        }
        let (stem, extension) = file_name.rsplit_once('.')?;
        if stem.is_empty() {
            return None;
        }
        let extension = extension.to_ascii_lowercase();
        match extension.as_str() {
            "ts" | "mts" | "cts" => Some(Language::TypeScript),
            "tsx" => Some(Language::Tsx),
            "js" | "jsx" | "mjs" | "cjs" => Some(Language::JavaScript),
            "rs" => Some(Language::Rust),
            "py" | "pyi" => Some(Language::Python),
            "go" => Some(Language::Go),
            "java" => Some(Language::Java),
            "cs" => Some(Language::CSharp),
            "rb" | "rake" => Some(Language::Ruby),
            "kt" | "kts" => Some(Language::Kotlin),
            "c" => Some(Language::C),
            "cc" | "cpp" | "cxx" | "c++" | "h" | "hh" | "hpp" | "hxx" | "h++" | "inl" | "ipp"
            | "tpp" => Some(Language::Cpp),
            "php" => Some(Language::Php),
            "swift" => Some(Language::Swift),
            _ => None,
        }
    }

    /// Stable lower-case name: `typescript`, `tsx`, `javascript`, `rust`,
    /// `python`, `go`, `java`, `csharp`, `ruby`, `kotlin`, `c`, `cpp`, `php` or `swift`.
    pub fn name(self) -> &'static str {
        match self {
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::JavaScript => "javascript",
            Language::Rust => "rust",
            Language::Python => "python",
            Language::Go => "go",
            Language::Java => "java",
            Language::CSharp => "csharp",
            Language::Ruby => "ruby",
            Language::Kotlin => "kotlin",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Php => "php",
            Language::Swift => "swift",
        }
    }

    fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::Go => tree_sitter_go::LANGUAGE.into(),
            Language::Java => tree_sitter_java::LANGUAGE.into(),
            Language::CSharp => tree_sitter_c_sharp::LANGUAGE.into(),
            Language::Ruby => tree_sitter_ruby::LANGUAGE.into(),
            Language::Kotlin => tree_sitter_kotlin_sg::LANGUAGE.into(),
            Language::C => tree_sitter_c::LANGUAGE.into(),
            Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Language::Php => tree_sitter_php::LANGUAGE_PHP.into(),
            Language::Swift => tree_sitter_swift::LANGUAGE.into(),
        }
    }
}

/// True when a C or C++ header is Objective-C (a line starting `@interface`, `@protocol`,
/// `@implementation`, `@class` or `#import`): the C++ grammar cannot read it, and
/// Objective-C is not analyzed, so such a header is inventoried as a file rather than reported
/// as a C++ module full of syntax errors.
pub fn is_objective_c(source: &[u8]) -> bool {
    source.split(|&b| b == b'\n').any(|line| {
        let line = line.trim_ascii_start();
        [
            &b"@interface"[..],
            b"@protocol",
            b"@implementation",
            b"@class ",
            b"#import ",
            b"#import<",
            b"#import\"",
        ]
        .iter()
        .any(|marker| line.starts_with(marker))
    })
}

/// Everything the analyzer found in one module.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceFacts {
    /// Exported symbols, in source order, deduplicated by `(name, reexport)`
    /// (the first occurrence wins).
    pub symbols: Vec<Symbol>,
    /// Imports, in source order.
    pub imports: Vec<Import>,
    /// Members of the module's classes, structs and types (methods, fields,
    /// associated functions and constants), in source order, deduplicated by
    /// `(owner, name)` (the first occurrence wins), at most [`MAX_MEMBERS`].
    #[serde(default)]
    pub members: Vec<Member>,
    /// How many further distinct members were left out past [`MAX_MEMBERS`].
    #[serde(default)]
    pub members_truncated: u32,
    /// The first [`MAX_REPORTED_SYNTAX_ERRORS`] syntax errors, in source order.
    pub syntax_errors: Vec<SyntaxError>,
    /// How many syntax errors there are in all (may exceed `syntax_errors.len()`).
    pub syntax_error_count: u32,
    /// Number of lines; a trailing newline does not start a new line, and an
    /// empty source has 0 lines.
    pub line_count: u32,
    /// The words of the module a person would search with, in source order:
    /// the text of comments and docstrings, and every identifier as written
    /// (no keywords, punctuation, numbers or string literals). Words are
    /// separated by one space, or by one newline where the source moves to a
    /// later line. At most [`MAX_TEXT_BYTES`] bytes, cut between words.
    #[serde(default)]
    pub text: String,
    /// True when [`SourceFacts::text`] was cut at [`MAX_TEXT_BYTES`].
    #[serde(default)]
    pub text_truncated: bool,
    /// The namespaces the module declares, fully qualified, sorted and deduplicated (C#: what
    /// a `using` names; PHP: `namespace App\Http;`). Empty for the other languages. Always written: the analysis cache's
    /// encoding is not self-describing, so a skipped field would not decode.
    #[serde(default)]
    pub namespaces: Vec<String>,
    /// Kotlin: the names of top-level declarations marked `internal`, sorted and deduplicated:
    /// not symbols (nothing outside the module sees them), but what the module's other files
    /// import. Empty for the other languages. Always written, as `namespaces`.
    #[serde(default)]
    pub internal_names: Vec<String>,
    /// Python: the reStructuredText labels its docstrings define (`.. _printer_example:`),
    /// which Sphinx's autodoc makes targets of `:ref:` and MyST links, in source order, as
    /// written. Empty for the other languages. Always written, as `namespaces`.
    #[serde(default)]
    pub labels: Vec<String>,
    /// The document paths the module's string literals name, as glob patterns relative to
    /// wherever the code runs (`general-llm-prompt.md`, `release.*.rst` from an f-string,
    /// `messages/*/*`), in source order, at most [`paths::MAX_PATHS`]: how a script that reads
    /// or writes documents names them. JavaScript, TypeScript, Python, Ruby, Go and Rust; empty
    /// for the other languages. Always written, as `namespaces`.
    #[serde(default)]
    pub paths: Vec<String>,
}

/// At most this many members are listed in [`SourceFacts::members`].
pub const MAX_MEMBERS: usize = 10_000;

/// At most this many bytes of [`SourceFacts::text`] per module, so that
/// generated and minified files cannot dominate a search index.
pub const MAX_TEXT_BYTES: usize = 64 * 1024;

/// At most this many syntax errors are listed in [`SourceFacts::syntax_errors`].
pub const MAX_REPORTED_SYNTAX_ERRORS: usize = 20;

/// A symbol the module exports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Symbol {
    /// The exported name (`default` for default exports, `*` for star re-exports).
    pub name: String,
    /// What kind of declaration it is, as far as the module itself tells.
    pub kind: SymbolKind,
    /// 1-based line where the declaring node starts.
    pub line: u32,
    /// True when the symbol is re-exported from another module.
    pub reexport: bool,
    /// The module it is re-exported from, as written (`./y`, `a::b`, `.x`).
    pub from: Option<String>,
}

/// The kind of an exported symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SymbolKind {
    /// A function (Rust `fn`, Python `def`, Go `func`, JS/TS `function`).
    Function,
    /// A class.
    Class,
    /// A TypeScript or Go interface.
    Interface,
    /// A type alias or other named type.
    Type,
    /// An enum.
    Enum,
    /// A constant (`const`, Rust `static`).
    Const,
    /// A variable (`let`, `var`, Python assignments).
    Variable,
    /// A Rust struct or union, a Go struct type.
    Struct,
    /// A Rust trait.
    Trait,
    /// A Rust module.
    Module,
    /// A Rust `macro_rules!` macro with `#[macro_export]`.
    Macro,
    /// A TypeScript namespace, or a namespace re-export (`export * as ns`).
    Namespace,
    /// A JS/TS default export.
    Default,
    /// Not known from this module alone (re-exports, `__all__` entries).
    Unknown,
}

/// A member of a class, struct or other type declared in the module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Member {
    /// The member's name as written (`__init__`, `#secret`, `new`).
    pub name: String,
    /// The type it belongs to, without generics or pointers (`Foo` for
    /// `impl<T> Foo<T>` and `func (f *Foo[T])`); nested Python classes are
    /// dotted (`Outer.Inner`).
    pub owner: String,
    /// What kind of member it is.
    pub kind: MemberKind,
    /// 1-based line of the member's name.
    pub line: u32,
}

/// The kind of a [`Member`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemberKind {
    /// A method called on an instance (getters and setters included).
    Method,
    /// A function of the type rather than of an instance: a Rust `fn`
    /// without `self`, a Python `@staticmethod` or `@classmethod`, a TS/JS
    /// `static` method.
    AssociatedFunction,
    /// A field or property the type declares.
    Field,
    /// A Rust associated `const`.
    Constant,
}

/// One import of another module.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Import {
    /// The module as written (`./y`, `crate::model`, `.x`, `net/http`).
    pub specifier: String,
    /// How it is imported.
    pub kind: ImportKind,
    /// Imported names as they are called in the imported module (`default`
    /// for default imports, `*` for namespace or glob imports); Go aliases.
    pub names: Vec<String>,
    /// 1-based line where the importing node starts.
    pub line: u32,
}

/// How a module is imported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ImportKind {
    /// `import`, `use`, `from … import`, `extern crate`.
    Static,
    /// `import('x')` or `require('x')` with a string literal.
    Dynamic,
    /// `export … from 'x'`.
    ReExport,
    /// A Rust `mod foo;` declaration without a body.
    ModDecl,
}

/// A syntax error found while parsing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SyntaxError {
    /// 1-based line where the error starts.
    pub line: u32,
    /// `syntax error`, or `missing X` where X is the grammar's name for the
    /// missing token; never any source text.
    pub message: String,
}

/// Analyzes one module.
///
/// Never panics. When the source cannot be parsed (tree-sitter's error recovery
/// ran past its budget on hostile input), only `line_count` and one syntax error,
/// [`PARSE_ABANDONED`] on line 1, are filled in.
pub fn analyze(language: Language, source: &[u8]) -> SourceFacts {
    let line_count = common::line_count(source);
    let mut facts = SourceFacts {
        line_count,
        ..SourceFacts::default()
    };
    // tree-sitter addresses bytes with u32 offsets; anything larger cannot be
    // parsed faithfully. An empty source has nothing to report.
    if source.is_empty() || u32::try_from(source.len()).is_err() {
        return facts;
    }
    // C and C++ annotation macros are blanked (same length), so positions stay the file's.
    let source: &[u8] = &match language {
        Language::C | Language::Cpp => c_macros::blank_annotation_macros(source),
        _ => std::borrow::Cow::Borrowed(source),
    };
    let Some(tree) = parse(language, source) else {
        facts.syntax_errors = vec![SyntaxError {
            line: 1,
            message: PARSE_ABANDONED.to_owned(),
        }];
        facts.syntax_error_count = 1;
        return facts;
    };
    let root = tree.root_node();
    let ctx = common::Ctx::new(source, line_count);
    let (errors, error_count) = common::collect_syntax_errors(&ctx, root);
    facts.syntax_errors = errors;
    facts.syntax_error_count = error_count;
    let found = match language {
        Language::TypeScript | Language::Tsx => {
            ecmascript::analyze(&ctx, root, ecmascript::Dialect::TypeScript)
        }
        Language::JavaScript => ecmascript::analyze(&ctx, root, ecmascript::Dialect::JavaScript),
        Language::Rust => rust::analyze(&ctx, root),
        Language::Python => python::analyze(&ctx, root),
        Language::Go => go::analyze(&ctx, root),
        Language::Java => java::analyze(&ctx, root),
        Language::CSharp => csharp::analyze(&ctx, root),
        Language::Ruby => ruby::analyze(&ctx, root),
        Language::Kotlin => kotlin::analyze(&ctx, root),
        Language::C => c_family::analyze(&ctx, root, c_family::Dialect::C),
        Language::Cpp => c_family::analyze(&ctx, root, c_family::Dialect::Cpp),
        Language::Php => php::analyze(&ctx, root),
        Language::Swift => swift::analyze(&ctx, root),
    };
    facts.symbols = common::finish_symbols(found.symbols);
    facts.imports = common::finish_imports(found.imports);
    (facts.members, facts.members_truncated) = common::finish_members(found.members);
    facts.namespaces = found.namespaces;
    facts.namespaces.sort();
    facts.namespaces.dedup();
    facts.internal_names = found.internal_names;
    facts.internal_names.sort();
    facts.internal_names.dedup();
    let collected = text::collect(&ctx, root, language);
    (facts.text, facts.text_truncated) = (collected.text, collected.truncated);
    facts.paths = collected.paths;
    if language == Language::Python {
        facts.labels = python::docstring_labels(source);
    }
    facts
}

thread_local! {
    // `Parser` is not `Sync`; analysis runs on many rayon threads, so each
    // thread keeps its own parser and reuses its allocations.
    static PARSER: RefCell<Parser> = RefCell::new(Parser::new());
}

/// The parse budget, in tree-sitter's progress checks (one per 100 parser operations): one per
/// four bytes of source, and never less than [`MIN_PARSE_CHECKS`]. Real modules need about one
/// check per 140 bytes, and at most one per 50 (minified jQuery; the repositories measured are
/// named in `bench/README.md`); some grammars' error recovery is quadratic or worse on hostile
/// input (a Kotlin file of 3,000 `template <typename T>` parsed for over four minutes), and the
/// budget stops those. Counting operations rather than time keeps the outcome the same on every
/// machine.
fn parse_budget(source_len: usize) -> u64 {
    u64::try_from(source_len / 4)
        .unwrap_or(u64::MAX)
        .max(MIN_PARSE_CHECKS)
}

/// The smallest parse budget, for short sources.
const MIN_PARSE_CHECKS: u64 = 10_000;

/// The message of the one syntax error reported for a module whose parse ran out of budget.
pub const PARSE_ABANDONED: &str = "not analyzed: parsing exceeded its budget";

/// Parses `source`; `None` when the parser fails or the parse runs out of budget.
fn parse(language: Language, source: &[u8]) -> Option<Tree> {
    let budget = parse_budget(source.len());
    let run = |parser: &mut Parser| -> Option<Tree> {
        parser.set_language(&language.grammar()).ok()?;
        // A previous parse may have been left unfinished; start afresh.
        parser.reset();
        let mut checks: u64 = 0;
        let mut progress = |_: &tree_sitter::ParseState| {
            checks = checks.saturating_add(1);
            if checks > budget {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let options = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
        let mut read = |offset: usize, _| source.get(offset..).unwrap_or_default();
        let tree = parser.parse_with_options(&mut read, None, Some(options));
        if tree.is_none() {
            // An abandoned parse leaves state behind for a resumption that never comes.
            parser.reset();
        }
        tree
    };
    PARSER
        .try_with(|cell| match cell.try_borrow_mut() {
            Ok(mut parser) => run(&mut parser),
            // Only reachable through re-entrancy, which the analyzer never
            // does; a fresh parser keeps it correct anyway.
            Err(_) => run(&mut Parser::new()),
        })
        .unwrap_or_else(|_| run(&mut Parser::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_from_path_maps_extensions() {
        let cases = [
            ("src/a.ts", Some(Language::TypeScript)),
            ("a.mts", Some(Language::TypeScript)),
            ("a.cts", Some(Language::TypeScript)),
            ("types/index.d.ts", Some(Language::TypeScript)),
            ("a.tsx", Some(Language::Tsx)),
            ("a.js", Some(Language::JavaScript)),
            ("a.jsx", Some(Language::JavaScript)),
            ("a.mjs", Some(Language::JavaScript)),
            ("a.cjs", Some(Language::JavaScript)),
            ("src/lib.rs", Some(Language::Rust)),
            ("pkg/__init__.py", Some(Language::Python)),
            ("pkg/stub.pyi", Some(Language::Python)),
            ("cmd/main.go", Some(Language::Go)),
            ("src/main/java/a/B.java", Some(Language::Java)),
            ("src/App/Program.cs", Some(Language::CSharp)),
            ("lib/lantern/server.rb", Some(Language::Ruby)),
            ("Rakefile", Some(Language::Ruby)),
            ("src/main/kotlin/a/B.kt", Some(Language::Kotlin)),
            ("build.gradle.kts", Some(Language::Kotlin)),
            ("src/cJSON.c", Some(Language::C)),
            ("include/fmt/core.h", Some(Language::Cpp)),
            ("src/os.cc", Some(Language::Cpp)),
            ("src/a.CPP", Some(Language::Cpp)),
            ("a.hpp", Some(Language::Cpp)),
            ("a.c++", Some(Language::Cpp)),
            ("src/Monolog/Logger.php", Some(Language::Php)),
            ("Sources/App/main.swift", Some(Language::Swift)),
            ("C:\\src\\Main.GO", Some(Language::Go)),
            ("README.md", None),
            ("Makefile", None),
            (".ts", None),
            ("dir.rs/file", None),
            ("", None),
        ];
        for (path, expected) in cases {
            assert_eq!(Language::from_path(path), expected, "{path}");
        }
    }

    #[test]
    fn language_names_are_stable() {
        let names: Vec<_> = Language::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(
            names,
            [
                "typescript",
                "tsx",
                "javascript",
                "rust",
                "python",
                "go",
                "java",
                "csharp",
                "ruby",
                "kotlin",
                "c",
                "cpp",
                "php",
                "swift"
            ]
        );
        for language in Language::ALL {
            let json = serde_json::to_string(&language).unwrap();
            assert_eq!(json, format!("\"{}\"", language.name()));
        }
    }

    #[test]
    fn objective_c_headers_are_told_from_c_and_cpp() {
        assert!(is_objective_c(b"#import <Foundation/Foundation.h>\n"));
        assert!(is_objective_c(
            b"// x\n  @interface Lamp : NSObject\n@end\n"
        ));
        assert!(is_objective_c(b"@protocol Lit;\n"));
        assert!(!is_objective_c(b"#include <stdio.h>\nint f(void);\n"));
        // An `@` elsewhere (a doc comment's `@param`) is no Objective-C.
        assert!(!is_objective_c(
            b"/**\n * @param x the x\n */\nint f(int x);\n"
        ));
        assert!(!is_objective_c(b"#importance\n"));
    }

    #[test]
    fn every_grammar_loads() {
        for language in Language::ALL {
            assert!(parse(language, b"x").is_some(), "{}", language.name());
        }
    }

    #[test]
    fn empty_source_has_no_lines_and_no_facts() {
        for language in Language::ALL {
            assert_eq!(analyze(language, b""), SourceFacts::default());
        }
    }

    #[test]
    fn facts_serialize_with_camel_case_fields_and_kebab_case_enums() {
        let facts = SourceFacts {
            symbols: vec![Symbol {
                name: "x".into(),
                kind: SymbolKind::Default,
                line: 1,
                reexport: true,
                from: Some("./y".into()),
            }],
            imports: vec![Import {
                specifier: "./y".into(),
                kind: ImportKind::ReExport,
                names: vec!["*".into()],
                line: 1,
            }],
            members: vec![Member {
                name: "m".into(),
                owner: "T".into(),
                kind: MemberKind::AssociatedFunction,
                line: 1,
            }],
            members_truncated: 0,
            syntax_errors: vec![],
            syntax_error_count: 0,
            line_count: 1,
            text: "x".into(),
            text_truncated: false,
            namespaces: Vec::new(),
            internal_names: Vec::new(),
            labels: Vec::new(),
            paths: Vec::new(),
        };
        let json = serde_json::to_string(&facts).unwrap();
        assert!(json.contains("\"membersTruncated\":0"), "{json}");
        assert!(json.contains("\"kind\":\"associated-function\""), "{json}");
        assert!(json.contains("\"textTruncated\":false"), "{json}");
        assert!(json.contains("\"syntaxErrorCount\":0"), "{json}");
        assert!(json.contains("\"lineCount\":1"), "{json}");
        assert!(json.contains("\"kind\":\"re-export\""), "{json}");
        assert!(json.contains("\"kind\":\"default\""), "{json}");
    }
}
