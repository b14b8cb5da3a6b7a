//! Fixed word lists for names and pseudo-English prose.
//!
//! Every entry of [`NOUNS`], [`AREAS`] and [`SUBDIRS`] is a valid identifier in Rust, Python, Go and
//! TypeScript and is no keyword in any of them, because they become module and directory names.
//! [`SUBDIRS`] shares no word with [`NOUNS`], so a nested directory never collides with a sibling
//! file's stem.

/// Nouns: leaf module stems, symbol and package name parts, prose.
pub const NOUNS: &[&str] = &[
    "ledger", "cache", "record", "widget", "bucket", "cursor", "token", "schema", "buffer",
    "channel", "packet", "router", "sensor", "vector", "matrix", "report", "invoice", "account",
    "session", "profile", "journal", "archive", "segment", "layer", "shard", "replica", "snapshot",
    "payload", "batch", "queue", "stream", "signal", "anchor", "beacon", "canvas", "cluster",
    "digest", "engine", "fabric", "gadget", "harbor", "kernel", "lattice", "meadow", "needle",
    "orbit", "pixel", "quorum", "ribbon", "socket", "tensor", "vertex", "window", "atlas",
    "border", "candle", "dialect", "ember", "forest", "garden", "hammer", "island", "jigsaw",
    "lantern", "mirror", "nectar", "prism", "quartz", "river", "saddle", "timber", "valley",
    "walnut", "bridge", "planner", "ticket", "folder", "label", "metric", "parcel", "quota",
    "badge", "cipher", "tariff",
];

/// Verbs (base form): function names and prose.
pub const VERBS: &[&str] = &[
    "load",
    "parse",
    "build",
    "render",
    "merge",
    "split",
    "index",
    "fetch",
    "store",
    "flush",
    "resolve",
    "encode",
    "decode",
    "scan",
    "sort",
    "group",
    "track",
    "sync",
    "score",
    "rank",
    "compact",
    "spawn",
    "route",
    "trace",
    "guard",
    "hash",
    "emit",
    "collect",
    "refresh",
    "validate",
    "normalize",
    "publish",
    "restore",
    "compress",
    "expand",
    "select",
    "shape",
    "tune",
    "probe",
    "measure",
];

/// Adjectives: package names, titles and prose.
pub const ADJECTIVES: &[&str] = &[
    "swift",
    "stable",
    "lazy",
    "incremental",
    "shared",
    "local",
    "remote",
    "cold",
    "warm",
    "nested",
    "partial",
    "strict",
    "loose",
    "optional",
    "quiet",
    "bright",
    "calm",
    "eager",
    "hidden",
    "linear",
    "modular",
    "narrow",
    "open",
    "plain",
    "rapid",
    "silent",
    "sparse",
    "steady",
    "tidy",
    "vivid",
    "amber",
    "brisk",
    "cobalt",
    "dusty",
    "gentle",
    "humble",
];

/// Function words that glue prose together.
pub const FILLERS: &[&str] = &[
    "the", "a", "of", "to", "and", "with", "for", "in", "on", "by", "when", "each", "every",
    "from", "into", "before", "after", "while", "so", "that", "this", "its", "only", "also",
    "then", "not",
];

/// Top-level source areas inside a package (suffixed with the area number).
pub const AREAS: &[&str] = &[
    "core", "io", "net", "model", "api", "cli", "query", "parse", "render", "auth", "sched",
    "codecs", "metrics", "plugins",
];

/// Nested source directories inside an area.
pub const SUBDIRS: &[&str] = &["detail", "helpers", "support", "codec", "common", "extra"];

/// Documentation sections directly under `docs/`.
pub const SECTIONS: &[&str] = &[
    "guides",
    "reference",
    "architecture",
    "howto",
    "operations",
    "design",
    "tutorials",
    "api",
    "runbooks",
    "concepts",
    "decisions",
    "releases",
];

/// Third-level documentation directories.
pub const SUBTOPICS: &[&str] = &[
    "advanced",
    "internals",
    "examples",
    "faq",
    "migration",
    "appendix",
];

/// Type name suffixes.
pub const TYPE_SUFFIXES: &[&str] = &[
    "Cache", "Index", "Builder", "Config", "Handle", "Store", "Record", "Plan", "State", "Spec",
];

/// Constant name suffixes (upper case).
pub const CONST_SUFFIXES: &[&str] = &["LIMIT", "SIZE", "TIMEOUT", "VERSION", "PREFIX", "RETRIES"];

/// Interface / trait / protocol name suffixes.
pub const CONTRACT_SUFFIXES: &[&str] = &["Source", "Sink", "Options", "Visitor", "Provider"];

/// `word` with its first letter in upper case.
pub fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The third-person singular of a verb from [`VERBS`] ("fetch" → "fetches").
pub fn third_person(verb: &str) -> String {
    if ["s", "sh", "ch", "x", "z"]
        .iter()
        .any(|end| verb.ends_with(end))
    {
        format!("{verb}es")
    } else {
        format!("{verb}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEYWORDS: &[&str] = &[
        "as",
        "async",
        "await",
        "break",
        "case",
        "chan",
        "class",
        "const",
        "continue",
        "crate",
        "def",
        "default",
        "defer",
        "del",
        "else",
        "enum",
        "except",
        "extern",
        "false",
        "final",
        "finally",
        "fn",
        "for",
        "from",
        "func",
        "global",
        "go",
        "goto",
        "if",
        "impl",
        "import",
        "in",
        "interface",
        "is",
        "lambda",
        "let",
        "loop",
        "map",
        "match",
        "mod",
        "move",
        "mut",
        "new",
        "nonlocal",
        "not",
        "or",
        "package",
        "pass",
        "pub",
        "raise",
        "range",
        "ref",
        "return",
        "select",
        "self",
        "static",
        "struct",
        "super",
        "switch",
        "trait",
        "true",
        "try",
        "type",
        "unsafe",
        "use",
        "var",
        "where",
        "while",
        "with",
        "yield",
        "internal",
        "lib",
        "main",
        "index",
        "init",
        "test",
        "tests",
    ];

    #[test]
    fn identifier_words_are_safe() {
        for word in NOUNS.iter().chain(AREAS).chain(SUBDIRS) {
            assert!(word.chars().all(|c| c.is_ascii_lowercase()), "{word}");
            assert!(!KEYWORDS.contains(word), "{word} is a keyword");
        }
        for sub in SUBDIRS {
            assert!(!NOUNS.contains(sub), "{sub} is also a noun");
        }
    }

    #[test]
    fn grammar_helpers() {
        assert_eq!(capitalize("ledger"), "Ledger");
        assert_eq!(third_person("fetch"), "fetches");
        assert_eq!(third_person("hash"), "hashes");
        assert_eq!(third_person("load"), "loads");
    }
}
