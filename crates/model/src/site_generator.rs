//! Documentation site generators, recognised by the files that configure them. The directory
//! such a file sits in (its *site*) is served as one website: `/` in its pages' links stands
//! for a content directory of it, and its pages are reached through the generator's navigation
//! as well as through links. Both `discover` (resolving site-absolute links) and `check`
//! (judging orphans) read sites from here.

use crate::RelPath;

/// Extensions of the JavaScript and TypeScript configuration files the generators read.
const SCRIPT_EXTENSIONS: &[&str] = &["js", "mjs", "cjs", "ts", "mts", "cts"];

/// A documentation site generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SiteGenerator {
    /// A `.vitepress/` directory.
    VitePress,
    /// `docusaurus.config.*`.
    Docusaurus,
    /// `astro.config.*` (Starlight).
    Starlight,
    /// `mkdocs.yml` or `mkdocs.yaml`.
    MkDocs,
}

/// The site a file configures or belongs to by name: the directory holding `.vitepress/` for
/// any file inside it, the directory of `docusaurus.config.*`, `astro.config.*` or
/// `mkdocs.y(a)ml`. `None` for every other file.
pub fn site_of(path: &RelPath) -> Option<(RelPath, SiteGenerator)> {
    let text = path.as_str();
    if text.starts_with(".vitepress/") {
        return Some((RelPath::root(), SiteGenerator::VitePress));
    }
    if let Some(at) = text.find("/.vitepress/") {
        return RelPath::new(&text[..at]).map(|site| (site, SiteGenerator::VitePress));
    }
    let generator = match path.file_name() {
        "mkdocs.yml" | "mkdocs.yaml" => SiteGenerator::MkDocs,
        name if is_script_named(name, "docusaurus.config") => SiteGenerator::Docusaurus,
        name if is_script_named(name, "astro.config") => SiteGenerator::Starlight,
        _ => return None,
    };
    Some((path.parent(), generator))
}

/// ISO 639-1 language codes, sorted (for [`is_locale_segment`]).
const LANGUAGE_CODES: &[&str] = &[
    "aa", "ab", "ae", "af", "ak", "am", "an", "ar", "as", "av", "ay", "az", "ba", "be", "bg", "bh",
    "bi", "bm", "bn", "bo", "br", "bs", "ca", "ce", "ch", "co", "cr", "cs", "cu", "cv", "cy", "da",
    "de", "dv", "dz", "ee", "el", "en", "eo", "es", "et", "eu", "fa", "ff", "fi", "fj", "fo", "fr",
    "fy", "ga", "gd", "gl", "gn", "gu", "gv", "ha", "he", "hi", "ho", "hr", "ht", "hu", "hy", "hz",
    "ia", "id", "ie", "ig", "ii", "ik", "io", "is", "it", "iu", "ja", "jv", "ka", "kg", "ki", "kj",
    "kk", "kl", "km", "kn", "ko", "kr", "ks", "ku", "kv", "kw", "ky", "la", "lb", "lg", "li", "ln",
    "lo", "lt", "lu", "lv", "mg", "mh", "mi", "mk", "ml", "mn", "mr", "ms", "mt", "my", "na", "nb",
    "nd", "ne", "ng", "nl", "nn", "no", "nr", "nv", "ny", "oc", "oj", "om", "or", "os", "pa", "pi",
    "pl", "ps", "pt", "qu", "rm", "rn", "ro", "ru", "rw", "sa", "sc", "sd", "se", "sg", "si", "sk",
    "sl", "sm", "sn", "so", "sq", "sr", "ss", "st", "su", "sv", "sw", "ta", "te", "tg", "th", "ti",
    "tk", "tl", "tn", "to", "tr", "ts", "tt", "tw", "ty", "ug", "uk", "ur", "uz", "ve", "vi", "vo",
    "wa", "wo", "xh", "yi", "yo", "za", "zh", "zu",
];

/// Whether a path segment names a locale, as translated documentation lays pages out
/// (`docs/ja/…`, `src/content/docs/pt-br/…`): an ISO 639-1 language code, optionally followed
/// by `-` or `_` and a region or script subtag of 2 to 4 letters or digits (`pt-br`, `zh-hant`,
/// `zh_CN`), in any case. Three-letter words (`api`, `src`) never count.
pub fn is_locale_segment(segment: &str) -> bool {
    let (language, subtag) = match segment.split_once(['-', '_']) {
        Some((language, subtag)) => (language, Some(subtag)),
        None => (segment, None),
    };
    let language = language.to_ascii_lowercase();
    LANGUAGE_CODES.binary_search(&language.as_str()).is_ok()
        && subtag.is_none_or(|s| {
            (2..=4).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// `<stem>.<js|ts|...>`.
pub fn is_script_named(name: &str, stem: &str) -> bool {
    name.strip_prefix(stem)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|ext| SCRIPT_EXTENSIONS.contains(&ext))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn site(path: &str) -> Option<(String, SiteGenerator)> {
        site_of(&RelPath::new(path).unwrap()).map(|(dir, g)| (dir.as_str().to_owned(), g))
    }

    #[test]
    fn locale_segments() {
        assert!(LANGUAGE_CODES.windows(2).all(|w| w[0] < w[1]), "sorted");
        for yes in ["en", "ja", "pt-br", "zh-hant", "zh_CN", "DE"] {
            assert!(is_locale_segment(yes), "{yes}");
        }
        for no in [
            "api",
            "src",
            "ui",
            "js",
            "go",
            "pt-",
            "en-toolongtag",
            "e",
            "",
        ] {
            assert!(!is_locale_segment(no), "{no}");
        }
    }

    #[test]
    fn sites_by_configuration_file() {
        use SiteGenerator::*;
        assert_eq!(
            site("docs/.vitepress/config.ts"),
            Some(("docs".into(), VitePress))
        );
        assert_eq!(
            site(".vitepress/theme/index.ts"),
            Some((".".into(), VitePress))
        );
        assert_eq!(
            site("website/docusaurus.config.js"),
            Some(("website".into(), Docusaurus))
        );
        assert_eq!(site("astro.config.mjs"), Some((".".into(), Starlight)));
        assert_eq!(site("docs/en/mkdocs.yml"), Some(("docs/en".into(), MkDocs)));
        for other in [
            "docs/vitepress/config.ts",
            "astro.config.json",
            "mkdocs.toml",
            "a/.vitepressrc",
        ] {
            assert_eq!(site(other), None, "{other}");
        }
    }
}
