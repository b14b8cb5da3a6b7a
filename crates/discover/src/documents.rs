//! Document entities from Markdown facts: title, headings, summary, front matter, the
//! agent-corpus flag and the document's language.

use doc_bridge_markdown::MarkdownFacts;
use doc_bridge_model::snapshot::{Document, Heading, LanguageSource, TitleSource};
use doc_bridge_model::{ContentHash, EntityId, RelPath};

/// Language tags recognised as locale folders. Kept short on purpose: a two-letter directory
/// name is only a locale when it is a documentation language *and* sits where locales live.
const LOCALES: &[&str] = &[
    "ar", "bg", "bn", "ca", "cs", "da", "de", "el", "en", "es", "et", "fa", "fi", "fr", "he", "hi",
    "hr", "hu", "id", "it", "ja", "ko", "lt", "lv", "ms", "nb", "nl", "no", "pl", "pt", "pt-br",
    "pt-pt", "ro", "ru", "sk", "sl", "sr", "sv", "ta", "th", "tr", "uk", "ur", "vi", "zh", "zh-cn",
    "zh-hans", "zh-hant", "zh-tw", "en-us", "en-gb", "es-es", "es-mx", "fr-fr", "de-de",
];

/// Parent folders under which a locale folder may sit (`docs/ja/...`, `i18n/fr/...`).
const LOCALE_PARENTS: &[&str] = &[
    "docs",
    "doc",
    "content",
    "i18n",
    "locales",
    "locale",
    "translations",
    "lang",
    "languages",
    "site",
    "website",
    "pages",
];

/// The language of a document from its path: a locale folder first in the path, or directly
/// under a documentation-like folder.
pub fn language_from_path(path: &RelPath) -> Option<String> {
    let segments: Vec<&str> = path.as_str().split('/').collect();
    locale_folder(path).map(|i| segments[i].to_ascii_lowercase().replace('_', "-"))
}

/// The position of the locale folder in a path's segments (`docs/ja/guide.md` → 1), by the rule
/// [`language_from_path`] reads languages with.
pub fn locale_folder(path: &RelPath) -> Option<usize> {
    let segments: Vec<&str> = path.as_str().split('/').collect();
    let dirs = &segments[..segments.len().saturating_sub(1)];
    dirs.iter().enumerate().position(|(i, segment)| {
        let parent_ok =
            i == 0 || LOCALE_PARENTS.contains(&dirs[i - 1].to_ascii_lowercase().as_str());
        parent_ok && is_locale(segment)
    })
}

/// Whether a folder name is one of the recognised locale tags (`ja`, `pt-br`, `zh_CN`).
pub fn is_locale(segment: &str) -> bool {
    let lower = segment.to_ascii_lowercase().replace('_', "-");
    LOCALES.contains(&lower.as_str())
}

/// Builds a document entity (its text goes apart, see `doc_bridge_model::snapshot::Texts`).
pub fn document_entity(
    path: &RelPath,
    hash: &ContentHash,
    facts: &MarkdownFacts,
    agent_root: Option<&RelPath>,
) -> Document {
    let front = facts.front_matter.as_ref();
    let (language, language_source) = match front.and_then(|f| f.lang.as_deref()) {
        Some(lang) if !lang.trim().is_empty() => (
            Some(lang.trim().to_ascii_lowercase().replace('_', "-")),
            Some(LanguageSource::FrontMatter),
        ),
        _ => match language_from_path(path) {
            Some(lang) => (Some(lang), Some(LanguageSource::Path)),
            None => (None, None),
        },
    };
    Document {
        id: EntityId::document(path),
        path: path.clone(),
        content_hash: hash.clone(),
        title: facts.title.clone(),
        title_source: match facts.title_source {
            doc_bridge_markdown::TitleSource::FrontMatter => TitleSource::FrontMatter,
            doc_bridge_markdown::TitleSource::Heading => TitleSource::Heading,
            doc_bridge_markdown::TitleSource::FileStem => TitleSource::FileStem,
        },
        headings: facts
            .headings
            .iter()
            .map(|h| Heading {
                level: h.level,
                text: h.text.clone(),
                line: h.line,
            })
            .collect(),
        summary: facts.summary.clone(),
        tags: front.map(|f| f.tags.clone()).unwrap_or_default(),
        audience: front.map(|f| f.audience.clone()).unwrap_or_default(),
        owner: front.and_then(|f| f.owner.clone()),
        checks: front.map(|f| f.checks.clone()).unwrap_or_default(),
        covers: front.map(|f| f.covers.clone()).unwrap_or_default(),
        excluded_from_site: false,
        named_by: Vec::new(),
        language,
        language_source,
        agent_doc: agent_root.is_some_and(|root| path.is_within(root)),
        front_matter: front.map(|f| f.extra.clone()).unwrap_or_default(),
        line_count: facts.line_count,
        mentions: code_names(facts),
    }
}

/// At most this many inline-code names are kept per document.
pub const MAX_MENTIONS: usize = 256;

/// The distinct inline code spans of a document that are shaped like a name in code (a
/// symbol, `Owner.member`, `$rune.method`, `bind:this`), in order, at most [`MAX_MENTIONS`].
fn code_names(facts: &MarkdownFacts) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for mention in &facts.code_mentions {
        if names.len() >= MAX_MENTIONS {
            break;
        }
        let text = mention.text.trim().trim_end_matches("()");
        if matches!(mention_shape(text), MentionShape::Symbol(_)) && seen.insert(text) {
            names.push(text.to_owned());
        }
    }
    names
}

/// What an inline code span might name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MentionShape<'a> {
    /// Looks like a path (`src/a.ts`, `packages/auth/`, `./x.md`).
    Path(&'a str),
    /// Looks like an identifier, possibly qualified; the last segment is the symbol.
    Symbol(&'a str),
    /// A package-like name with `@`, `/` or `-` that is not a path (`@fx/auth`).
    Name(&'a str),
    /// Anything else (prose, commands, expressions).
    Other,
}

/// Classifies an inline code span.
pub fn mention_shape(text: &str) -> MentionShape<'_> {
    let trimmed = text
        .trim()
        .trim_end_matches("()")
        .trim_end_matches(['.', ',', ';', ':']);
    if trimmed.is_empty() || trimmed.len() > 200 || trimmed.contains(char::is_whitespace) {
        return MentionShape::Other;
    }
    if trimmed.starts_with('@') && trimmed.matches('/').count() == 1 {
        return MentionShape::Name(trimmed);
    }
    if trimmed.contains('/') {
        let path = trimmed.trim_start_matches("./").trim_end_matches('/');
        return if path.is_empty() || path.contains("://") {
            MentionShape::Other
        } else {
            MentionShape::Path(path)
        };
    }
    // A file name with an extension (`session.ts`), checked before symbol shapes.
    if let Some((stem, ext)) = trimmed.rsplit_once('.')
        && !stem.is_empty()
        && (1..=5).contains(&ext.len())
        && ext.chars().all(|c| c.is_ascii_alphanumeric())
        && ext.chars().any(|c| c.is_ascii_lowercase())
        && !ext.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && looks_like_file_extension(ext)
    {
        return MentionShape::Path(trimmed);
    }
    let last = trimmed.rsplit(['.', ':', '#']).next().unwrap_or(trimmed);
    let is_ident = !last.is_empty()
        && last
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && last
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if is_ident {
        return MentionShape::Symbol(last);
    }
    if trimmed
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '@'))
    {
        return MentionShape::Name(trimmed);
    }
    MentionShape::Other
}

fn looks_like_file_extension(ext: &str) -> bool {
    matches!(
        ext,
        "md" | "mdx"
            | "markdown"
            | "rst"
            | "adoc"
            | "ts"
            | "tsx"
            | "mts"
            | "cts"
            | "js"
            | "jsx"
            | "mjs"
            | "cjs"
            | "rs"
            | "py"
            | "pyi"
            | "go"
            | "json"
            | "toml"
            | "yaml"
            | "yml"
            | "txt"
            | "mod"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> RelPath {
        RelPath::new(s).unwrap()
    }

    #[test]
    fn locale_folders_under_docs_set_the_language() {
        assert_eq!(
            language_from_path(&p("docs/ja/guide/a.md")).as_deref(),
            Some("ja")
        );
        assert_eq!(
            language_from_path(&p("src/content/docs/zh-cn/a.md")).as_deref(),
            Some("zh-cn")
        );
        assert_eq!(
            language_from_path(&p("i18n/fr/guide/config.md")).as_deref(),
            Some("fr")
        );
        assert_eq!(language_from_path(&p("fr/a.md")).as_deref(), Some("fr"));
        // `it` under `src` is a directory name, not Italian.
        assert_eq!(language_from_path(&p("src/it/a.md")), None);
        assert_eq!(language_from_path(&p("docs/guide.md")), None);
    }

    #[test]
    fn mention_shapes() {
        assert_eq!(
            mention_shape("createSession()"),
            MentionShape::Symbol("createSession")
        );
        assert_eq!(
            mention_shape("engine::Parser"),
            MentionShape::Symbol("Parser")
        );
        assert_eq!(
            mention_shape("packages/core/src/index.ts"),
            MentionShape::Path("packages/core/src/index.ts")
        );
        assert_eq!(mention_shape("./docs/"), MentionShape::Path("docs"));
        assert_eq!(
            mention_shape("session.ts"),
            MentionShape::Path("session.ts")
        );
        assert_eq!(mention_shape("Store.get"), MentionShape::Symbol("get"));
        assert_eq!(mention_shape("@fx/auth"), MentionShape::Name("@fx/auth"));
        assert_eq!(mention_shape("npm test"), MentionShape::Other);
        assert_eq!(mention_shape("https://x.y/z"), MentionShape::Other);
    }
}
