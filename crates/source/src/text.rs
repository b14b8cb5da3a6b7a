//! The searchable text of a module: the words of its comments and
//! docstrings and every identifier as written, in source order, bounded by
//! [`MAX_TEXT_BYTES`].
//!
//! One pre-order walk over the tree (iterative, so deep nesting is safe)
//! that looks each node's kind up in a per-language table of [`Role`]s
//! built once per process; nothing is allocated per node. The walk stops as
//! soon as the text is full, so a minified or generated file costs no more
//! than its first 64 KiB of words.
//!
//! String literal contents are text too (an error message a bug report
//! quotes, a setting's name): their words as written. Not included: JSX text,
//! regular expressions, character literals and numbers. The same walk keeps the
//! literals that name a document's path ([`crate::paths`]).

use std::sync::OnceLock;

use tree_sitter::Node;

use crate::common::Ctx;
use crate::{Language, MAX_TEXT_BYTES};

/// What the walk does with a node of some kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Nothing; its children are visited.
    Descend,
    /// An identifier: its text is one word; not descended into.
    Word,
    /// An identifier with a sigil (`#private`, `$metavariable`): its text
    /// without the sigil.
    Sigil,
    /// A comment: its words without the comment markers; not descended into.
    Comment,
    /// The contents of a string literal (an error message, a setting's name): its words as
    /// written; not descended into.
    Literal,
    /// Neither it nor anything in it is text (string literals, lifetimes).
    Skip,
    /// A whole string literal: read for a document path, then descended into.
    String,
    /// Python `module`: its first statement may be a docstring.
    PyModule,
    /// Python `class_definition` / `function_definition`: the first
    /// statement of its body may be a docstring.
    PyDefinition,
    /// Python `expression_statement`: a docstring when it is the one the
    /// enclosing module, class or function announced.
    PyStatement,
}

/// The node kinds of one language that have a role other than
/// [`Role::Descend`].
struct Rules {
    words: &'static [&'static str],
    sigils: &'static [&'static str],
    comments: &'static [&'static str],
    /// String literal contents.
    literals: &'static [&'static str],
    skip: &'static [&'static str],
    /// Whole string literals, read for document paths ([`crate::paths`]); empty for the
    /// languages whose scripts rarely read documents.
    strings: &'static [&'static str],
    /// The parts of a string literal that are interpolated (`${x}`, `{x}`).
    interpolations: &'static [&'static str],
    python: bool,
}

fn rules(language: Language) -> Rules {
    match language {
        Language::TypeScript | Language::Tsx | Language::JavaScript => Rules {
            words: &[
                "identifier",
                "property_identifier",
                "shorthand_property_identifier",
                "shorthand_property_identifier_pattern",
                "type_identifier",
                "statement_identifier",
            ],
            sigils: &["private_property_identifier"],
            comments: &["comment", "html_comment"],
            // Strings and template strings are descended into: their fragments are literal
            // text, a template's substitutions hold identifiers.
            literals: &["string_fragment"],
            skip: &["regex", "hash_bang_line", "jsx_text"],
            strings: &["string", "template_string"],
            interpolations: &["template_substitution"],
            python: false,
        },
        Language::Rust => Rules {
            words: &[
                "identifier",
                "field_identifier",
                "type_identifier",
                "shorthand_field_identifier",
            ],
            sigils: &["metavariable"],
            comments: &["line_comment", "block_comment"],
            literals: &["string_content"],
            skip: &["char_literal", "lifetime"],
            strings: &["string_literal", "raw_string_literal"],
            interpolations: &[],
            python: false,
        },
        Language::Python => Rules {
            words: &["identifier"],
            sigils: &[],
            comments: &["comment"],
            // `string` itself is descended into: f-string interpolations
            // hold identifiers. Docstrings are read as such before.
            literals: &["string_content"],
            skip: &[],
            strings: &["string"],
            interpolations: &["interpolation"],
            python: true,
        },
        Language::Go => Rules {
            words: &[
                "identifier",
                "field_identifier",
                "type_identifier",
                "package_identifier",
                "label_name",
            ],
            sigils: &[],
            comments: &["comment"],
            literals: &[
                "interpreted_string_literal_content",
                "raw_string_literal_content",
            ],
            skip: &["rune_literal"],
            strings: &["interpreted_string_literal", "raw_string_literal"],
            interpolations: &[],
            python: false,
        },
        Language::CSharp => Rules {
            words: &["identifier"],
            sigils: &[],
            comments: &["comment"],
            literals: &[
                "string_literal_content",
                "verbatim_string_literal",
                "raw_string_content",
            ],
            skip: &["character_literal"],
            strings: &[],
            interpolations: &[],
            python: false,
        },
        Language::Ruby => Rules {
            words: &["identifier", "constant"],
            sigils: &[
                "instance_variable",
                "class_variable",
                "global_variable",
                "simple_symbol",
            ],
            comments: &["comment"],
            literals: &["string_content"],
            skip: &["character", "regex"],
            strings: &["string"],
            interpolations: &["interpolation"],
            python: false,
        },
        Language::Kotlin => Rules {
            words: &["simple_identifier", "type_identifier"],
            sigils: &[],
            comments: &["line_comment", "multiline_comment"],
            literals: &["string_content"],
            skip: &["character_literal"],
            strings: &[],
            interpolations: &[],
            python: false,
        },
        Language::Swift => Rules {
            words: &["simple_identifier", "type_identifier"],
            sigils: &[],
            comments: &["comment", "multiline_comment"],
            literals: &["line_str_text", "multi_line_str_text"],
            skip: &["regex_literal"],
            strings: &[],
            interpolations: &[],
            python: false,
        },
        Language::Php => Rules {
            words: &["name"],
            sigils: &[],
            comments: &["comment"],
            literals: &["string_content"],
            // The HTML around the PHP.
            skip: &["text"],
            strings: &[],
            interpolations: &[],
            python: false,
        },
        Language::C => Rules {
            words: &[
                "identifier",
                "field_identifier",
                "type_identifier",
                "statement_identifier",
            ],
            sigils: &[],
            comments: &["comment"],
            // A macro's body is not parsed: its words as written.
            literals: &["string_content", "preproc_arg"],
            skip: &["char_literal", "system_lib_string"],
            strings: &[],
            interpolations: &[],
            python: false,
        },
        Language::Cpp => Rules {
            words: &[
                "identifier",
                "field_identifier",
                "type_identifier",
                "statement_identifier",
                "namespace_identifier",
            ],
            sigils: &[],
            comments: &["comment"],
            literals: &["string_content", "raw_string_content", "preproc_arg"],
            skip: &["char_literal", "system_lib_string"],
            strings: &[],
            interpolations: &[],
            python: false,
        },
        Language::Java => Rules {
            words: &["identifier", "type_identifier"],
            sigils: &[],
            comments: &["line_comment", "block_comment"],
            literals: &["string_fragment", "multiline_string_fragment"],
            skip: &["character_literal"],
            strings: &[],
            interpolations: &[],
            python: false,
        },
    }
}

/// The role of every node kind id of `language`. Several ids can share a
/// name (aliases), so the table is built by name over all ids.
fn build_table(language: Language) -> Box<[Role]> {
    let grammar = language.grammar();
    let rules = rules(language);
    let count = grammar.node_kind_count();
    (0..count)
        .map(|id| {
            let Ok(id) = u16::try_from(id) else {
                return Role::Descend;
            };
            if !grammar.node_kind_is_named(id) {
                return Role::Descend;
            }
            let Some(name) = grammar.node_kind_for_id(id) else {
                return Role::Descend;
            };
            if rules.words.contains(&name) {
                Role::Word
            } else if rules.sigils.contains(&name) {
                Role::Sigil
            } else if rules.comments.contains(&name) {
                Role::Comment
            } else if rules.literals.contains(&name) {
                Role::Literal
            } else if rules.skip.contains(&name) {
                Role::Skip
            } else if rules.strings.contains(&name) {
                Role::String
            } else if rules.python {
                match name {
                    "module" => Role::PyModule,
                    "class_definition" | "function_definition" => Role::PyDefinition,
                    "expression_statement" => Role::PyStatement,
                    _ => Role::Descend,
                }
            } else {
                Role::Descend
            }
        })
        .collect()
}

fn table(language: Language) -> &'static [Role] {
    static TABLES: [OnceLock<Box<[Role]>>; Language::ALL.len()] =
        [const { OnceLock::new() }; Language::ALL.len()];
    let index = Language::ALL
        .iter()
        .position(|&l| l == language)
        .unwrap_or(0);
    match TABLES.get(index) {
        Some(slot) => slot.get_or_init(|| build_table(language)),
        None => &[],
    }
}

/// What [`collect`] reads of a module.
pub(crate) struct Collected {
    /// The searchable text.
    pub text: String,
    /// Whether the text was cut at [`MAX_TEXT_BYTES`].
    pub truncated: bool,
    /// The document paths its string literals name, in source order ([`crate::paths`]).
    pub paths: Vec<String>,
}

/// The searchable text of the tree under `root`, whether it was cut at [`MAX_TEXT_BYTES`], and
/// the document paths its string literals name (up to where the text was cut).
pub(crate) fn collect(ctx: &Ctx<'_>, root: Node<'_>, language: Language) -> Collected {
    let table = table(language);
    let rules = rules(language);
    let mut paths = Vec::new();
    let mut text = Text::with_capacity((ctx.src.len() / 2).min(MAX_TEXT_BYTES));
    // The id of the expression statement that is the next Python docstring.
    let mut docstring: Option<usize> = None;
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        let role = table
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(Role::Descend);
        let (descend, more) = match role {
            Role::Descend => (true, true),
            Role::Skip => (false, true),
            Role::Word => (false, text.identifier(ctx, node, "")),
            Role::Sigil => (false, text.identifier(ctx, node, "#$")),
            Role::Comment => (false, text.comment(ctx, node)),
            Role::Literal => (false, text.literal(ctx, node)),
            Role::String => {
                if let Some(pattern) = string_pattern(ctx, node, &rules).finish() {
                    crate::paths::push(&mut paths, pattern);
                }
                (true, true)
            }
            Role::PyModule => {
                docstring = docstring_statement(Some(node));
                (true, true)
            }
            Role::PyDefinition => {
                docstring = docstring_statement(node.child_by_field_name("body"));
                (true, true)
            }
            Role::PyStatement if docstring == Some(node.id()) => {
                docstring = None;
                (false, text.docstring(ctx, node))
            }
            Role::PyStatement => (true, true),
        };
        if !more {
            break;
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    Collected {
        text: text.buf,
        truncated: text.truncated,
        paths,
    }
}

/// A string literal's parts put together, an interpolation as `*`.
fn string_pattern(ctx: &Ctx<'_>, string: Node<'_>, rules: &Rules) -> crate::paths::Pattern {
    let mut pattern = crate::paths::Pattern::default();
    let mut cursor = string.walk();
    for part in string.named_children(&mut cursor) {
        let kind = part.kind();
        if rules.literals.contains(&kind) {
            match ctx.text(part) {
                Some(text) => pattern.text(text),
                None => pattern.spoil(),
            }
        } else if rules.interpolations.contains(&kind) {
            pattern.interpolation();
        } else if kind == "escape_sequence" {
            pattern.spoil();
        }
    }
    pattern
}

/// The id of the first statement of a Python body when it is a string
/// literal statement (a docstring).
fn docstring_statement(body: Option<Node<'_>>) -> Option<usize> {
    let body = body?;
    let mut cursor = body.walk();
    let first = body
        .named_children(&mut cursor)
        .find(|n| n.kind() != "comment")?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let mut cursor = first.walk();
    let mut parts = first.named_children(&mut cursor);
    let only = parts.next()?;
    (parts.next().is_none() && matches!(only.kind(), "string" | "concatenated_string"))
        .then(|| first.id())
}

/// How the words of a stretch of prose are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prose {
    /// A comment: the markers (`//`, `/*`, `*/`, a leading `*`, `#`, `!`)
    /// that start its lines are dropped.
    Comment,
    /// A docstring (or any other text) as written.
    Plain,
}

/// The text being built.
struct Text {
    buf: String,
    /// The source row of the last word, to separate words by a newline where
    /// the source moves to a later line.
    last_row: usize,
    truncated: bool,
}

impl Text {
    fn with_capacity(capacity: usize) -> Self {
        Text {
            buf: String::with_capacity(capacity),
            last_row: 0,
            truncated: false,
        }
    }

    /// Appends a word found on source row `row`, unless it has no letter or
    /// digit (punctuation, `_`). False, and nothing appended, once the word
    /// would not fit: the text is full.
    fn push(&mut self, word: &str, row: usize) -> bool {
        if !word
            .bytes()
            .any(|b| b.is_ascii_alphanumeric() || !b.is_ascii())
        {
            return true;
        }
        let separated = !self.buf.is_empty();
        let needed = word.len().saturating_add(usize::from(separated));
        if self.buf.len().saturating_add(needed) > MAX_TEXT_BYTES {
            self.truncated = true;
            return false;
        }
        if separated {
            self.buf.push(if row > self.last_row { '\n' } else { ' ' });
        }
        self.buf.push_str(word);
        self.last_row = row;
        true
    }

    /// The text of an identifier node, without any of the `sigils` it
    /// starts with; not valid UTF-8 is left out. A quoted identifier (Kotlin's and Swift's
    /// `` `name` ``, which may hold spaces: `` `parses empty input` ``) gives its words.
    fn identifier(&mut self, ctx: &Ctx<'_>, node: Node<'_>, sigils: &str) -> bool {
        let Some(word) = ctx.text(node) else {
            return true;
        };
        let word = word
            .trim_start_matches(|c| sigils.contains(c))
            .trim_matches('`');
        let row = node.start_position().row;
        if word.contains(char::is_whitespace) {
            self.prose(word.as_bytes(), row, Prose::Plain)
        } else {
            self.push(word, row)
        }
    }

    fn comment(&mut self, ctx: &Ctx<'_>, node: Node<'_>) -> bool {
        let bytes = ctx.src.get(node.byte_range()).unwrap_or_default();
        let bytes = match bytes.strip_prefix(b"/*") {
            Some(_) => bytes.strip_suffix(b"*/").unwrap_or(bytes),
            None => bytes,
        };
        self.prose(bytes, node.start_position().row, Prose::Comment)
    }

    /// The words of a string literal's contents.
    fn literal(&mut self, ctx: &Ctx<'_>, node: Node<'_>) -> bool {
        let bytes = ctx.src.get(node.byte_range()).unwrap_or_default();
        self.prose(bytes, node.start_position().row, Prose::Plain)
    }

    /// The contents of the string literal(s) of a docstring statement.
    fn docstring(&mut self, ctx: &Ctx<'_>, statement: Node<'_>) -> bool {
        let mut strings = Vec::new();
        let mut cursor = statement.walk();
        for child in statement.named_children(&mut cursor) {
            match child.kind() {
                "string" => strings.push(child),
                "concatenated_string" => {
                    let mut inner = child.walk();
                    strings.extend(
                        child
                            .named_children(&mut inner)
                            .filter(|n| n.kind() == "string"),
                    );
                }
                _ => {}
            }
        }
        for string in strings {
            let mut cursor = string.walk();
            for part in string.named_children(&mut cursor) {
                if part.kind() == "string_content" {
                    let bytes = ctx.src.get(part.byte_range()).unwrap_or_default();
                    if !self.prose(bytes, part.start_position().row, Prose::Plain) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// The words of `bytes`, which start on source row `first_row`: split at
    /// ASCII whitespace, each line's words on a line of their own. Words
    /// that are not valid UTF-8 are left out.
    fn prose(&mut self, bytes: &[u8], first_row: usize, prose: Prose) -> bool {
        for (offset, line) in bytes.split(|&b| b == b'\n').enumerate() {
            let row = first_row.saturating_add(offset);
            let words = line
                .split(|b| b.is_ascii_whitespace())
                .filter(|w| !w.is_empty());
            let mut first = true;
            for word in words {
                let word = if first && prose == Prose::Comment {
                    strip_markers(word)
                } else {
                    word
                };
                first = false;
                if let Ok(word) = std::str::from_utf8(word)
                    && !self.push(word, row)
                {
                    return false;
                }
            }
        }
        true
    }
}

/// A comment line's first word without the markers it starts with.
fn strip_markers(word: &[u8]) -> &[u8] {
    let start = word
        .iter()
        .position(|b| !matches!(b, b'/' | b'*' | b'!' | b'#'))
        .unwrap_or(word.len());
    word.get(start..).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::{Language, MAX_TEXT_BYTES, analyze};

    fn text(language: Language, src: &str) -> String {
        analyze(language, src.as_bytes()).text
    }

    #[test]
    fn every_role_names_a_kind_of_its_grammar() {
        // A misspelt kind would silently drop words: every listed kind must
        // exist in the grammar it is listed for (for TS, TSX and JavaScript,
        // which share their rules, in one of the three).
        let ecmascript = [Language::TypeScript, Language::Tsx, Language::JavaScript];
        for language in Language::ALL {
            let family: &[Language] = if ecmascript.contains(&language) {
                &ecmascript
            } else {
                &[language]
            };
            let rules = super::rules(language);
            for name in rules
                .words
                .iter()
                .chain(rules.sigils)
                .chain(rules.comments)
                .chain(rules.literals)
                .chain(rules.skip)
                .chain(rules.strings)
                .chain(rules.interpolations)
            {
                let found = family
                    .iter()
                    .any(|l| l.grammar().id_for_node_kind(name, true) != 0);
                assert!(found, "{} has no {name}", language.name());
            }
            let table = super::table(language);
            assert_eq!(table.len(), language.grammar().node_kind_count());
            assert!(table.contains(&super::Role::Word));
            assert!(table.contains(&super::Role::Comment));
        }
    }

    fn paths(language: Language, src: &str) -> Vec<String> {
        analyze(language, src.as_bytes()).paths
    }

    #[test]
    fn string_literals_that_name_documents_are_paths_with_interpolations_as_stars() {
        let js = "const dir = 'messages';\nfor (const c of fs.readdirSync(dir)) {\n  \
                  read(`messages/${c}/${file}`, 'utf-8'); read(\"./docs/a.md\"); import('./x');\n}\n\
                  const skip = ['api/*', 'notes/*.md'];\n";
        assert_eq!(
            paths(Language::JavaScript, js),
            ["messages/*/*", "docs/a.md"]
        );
        let py = "PROMPT = Path(__file__).parent / 'general-llm-prompt.md'\n\
                  name = f'release.{kind}.rst'\nurl = 'https://x.org/a.md'\n\
                  def f():\n    \"\"\"Reads notes.md.\"\"\"\n    return 'notes.md'\n";
        assert_eq!(
            paths(Language::Python, py),
            ["general-llm-prompt.md", "release.*.rst", "notes.md"]
        );
        let rust = "const GUIDE: &str = include_str!(\"../docs/guide.md\");\n\
                    const RAW: &str = r\"notes/today.md\";\nconst NO: &str = \"a\\n.md\";\n";
        assert_eq!(
            paths(Language::Rust, rust),
            ["../docs/guide.md", "notes/today.md"]
        );
        let ruby = "File.read(\"templates/#{name}.md\")\n";
        assert_eq!(paths(Language::Ruby, ruby), ["templates/*.md"]);
        let go = "package x\nvar p = \"docs/intro.md\"\nvar q = `raw/notes.md`\n";
        assert_eq!(paths(Language::Go, go), ["docs/intro.md", "raw/notes.md"]);
    }

    #[test]
    fn typescript_text_has_comments_identifiers_and_string_contents() {
        let src = "/** Parses the `config` file. */\nexport function parseConfig(path: string): Config {\n  \
                   // Fall back to defaults.\n  const raw = readFile(path, 'utf-8');\n  return { ...defaults, raw, size: 42 };\n}\n";
        assert_eq!(
            text(Language::TypeScript, src),
            "Parses the `config` file.\nparseConfig path Config\nFall back to defaults.\n\
             raw readFile path utf-8\ndefaults raw size"
        );
    }

    #[test]
    fn private_names_template_substitutions_and_fragments_are_words() {
        let src = "class A { #count = 0; get n() { return `${this.#count} items`; } }";
        assert_eq!(text(Language::JavaScript, src), "A count n count items");
    }

    #[test]
    fn python_docstrings_comments_and_string_contents_are_text() {
        let src = "\"\"\"Module docs.\n\n  Second line.\"\"\"\n# a comment\nclass Stack:\n    \
                   '''Class docs.'''\n    def _hstack(self, arrays):\n        \"\"\"Stack the arrays.\"\"\"\n        \
                   \"not a docstring\"\n        return f\"{arrays!r} label\"\n";
        assert_eq!(
            text(Language::Python, src),
            "Module docs.\nSecond line.\na comment\nStack\nClass docs.\n_hstack self arrays\n\
             Stack the arrays.\nnot a docstring\narrays label"
        );
    }

    #[test]
    fn rust_doc_comments_drop_their_markers_and_lifetimes_are_not_words() {
        let src = "//! Crate docs.\n/// Item docs.\n/**\n * Block docs.\n */\n\
                   pub struct S<'a> { pub field: &'a str }\nmacro_rules! m { ($x:ident) => { $x } }\n\
                   const E: &str = \"index is stale\"; const C: char = 'q';\n";
        assert_eq!(
            text(Language::Rust, src),
            "Crate docs.\nItem docs.\nBlock docs.\nS field\nm x x\nE index is stale C"
        );
    }

    #[test]
    fn go_text_has_package_field_and_type_names() {
        let src = "// Package p serves.\npackage p\n\nimport \"net/http\"\n\n\
                   type Server struct{ client *http.Client }\n\nfunc (s *Server) Serve() { s.client.Do(nil) }\n";
        assert_eq!(
            text(Language::Go, src),
            "Package p serves.\np\nnet/http\nServer client http Client\ns Server Serve s client Do"
        );
    }

    #[test]
    fn punctuation_only_words_and_invalid_utf8_are_left_out() {
        let facts = analyze(Language::Go, b"// ---- | ==== x\xff y\npackage p\n");
        assert_eq!(facts.text, "y\np");
    }

    #[test]
    fn text_is_capped_at_a_word_boundary() {
        let names: Vec<String> = (0..20_000)
            .map(|i| format!("generated_name_{i:05}"))
            .collect();
        let src: String = names
            .iter()
            .map(|n| format!("export const {n} = 1;\n"))
            .collect();
        assert!(src.len() > 4 * MAX_TEXT_BYTES);
        let facts = analyze(Language::TypeScript, src.as_bytes());
        assert!(facts.text_truncated);
        assert!(facts.text.len() <= MAX_TEXT_BYTES, "{}", facts.text.len());
        // Words are whole and in order: the text is a prefix of the names.
        let words: Vec<&str> = facts.text.split('\n').collect();
        assert!(words.len() > 3000, "{}", words.len());
        assert_eq!(words, names[..words.len()]);
        // And the next word would not have fitted.
        assert!(facts.text.len() + 1 + names[words.len()].len() > MAX_TEXT_BYTES);
    }

    #[test]
    fn a_minified_file_is_bounded_too() {
        let src = "var a=b+c;".repeat(200_000);
        let facts = analyze(Language::JavaScript, src.as_bytes());
        assert!(facts.text_truncated);
        assert!(facts.text.len() <= MAX_TEXT_BYTES);
        assert!(
            facts.text.len() > MAX_TEXT_BYTES - 8,
            "{}",
            facts.text.len()
        );
        assert!(facts.text.starts_with("a b c a b c"));
        assert!(!facts.text.contains('\n'));
    }

    #[test]
    fn a_small_file_is_not_truncated() {
        let facts = analyze(Language::Rust, b"fn main() {}\n");
        assert_eq!(facts.text, "main");
        assert!(!facts.text_truncated);
    }
}
