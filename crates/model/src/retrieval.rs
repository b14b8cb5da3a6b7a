//! Retrieval fields and their default weights: the one place they are defined.

/// A field the ranker indexes, with its default BM25F weight (DESIGN.md "Ranking").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    /// Title.
    Title,
    /// Headings.
    Headings,
    /// Exported symbols.
    Symbols,
    /// Path segments.
    Path,
    /// Aliases.
    Aliases,
    /// Summary.
    Summary,
    /// Body text.
    Body,
    /// The text of a document's code blocks.
    Code,
}

impl Field {
    /// Every field, in a fixed order.
    pub const ALL: [Field; 8] = [
        Field::Title,
        Field::Headings,
        Field::Symbols,
        Field::Path,
        Field::Aliases,
        Field::Summary,
        Field::Body,
        Field::Code,
    ];

    /// The field's name in artifacts and configuration.
    pub fn name(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Headings => "headings",
            Field::Symbols => "symbols",
            Field::Path => "path",
            Field::Aliases => "aliases",
            Field::Summary => "summary",
            Field::Body => "body",
            Field::Code => "code",
        }
    }

    /// The default BM25F weight.
    pub fn default_weight(self) -> f64 {
        match self {
            Field::Title => 4.0,
            Field::Headings => 3.0,
            Field::Symbols => 3.0,
            Field::Path => 2.0,
            Field::Aliases => 2.0,
            Field::Summary => 2.0,
            Field::Body => 1.0,
            Field::Code => 1.0,
        }
    }
}

/// Field names, for validation messages.
pub const FIELD_NAMES: &[&str] = &[
    "title", "headings", "symbols", "path", "aliases", "summary", "body", "code",
];
/// Default BM25 `k1`.
pub const DEFAULT_K1: f64 = 1.2;
/// Default BM25 `b`.
pub const DEFAULT_B: f64 = 0.75;
/// The tokenizer version (`lexiconVersion`). Any change to tokenizing is a new version.
pub const LEXICON_VERSION: u32 = 2;
