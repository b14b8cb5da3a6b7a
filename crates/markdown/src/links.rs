//! Splits a link destination into the parts a repository reader needs.

/// The repository-relevant parts of a destination.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Destination {
    /// Percent-decoded relative path, only for relative targets.
    pub(crate) path: Option<String>,
    /// Percent-decoded site-absolute path (`/a/b`), only for targets with one leading `/`.
    pub(crate) site_path: Option<String>,
    /// Percent-decoded text after the first `#`, if any.
    pub(crate) fragment: Option<String>,
}

/// A Sphinx document name as Sphinx reads it: a source suffix dropped (`intro.rst` names the
/// document `intro`, which may be `intro.md`), as `toctree` entries and `:doc:` roles write
/// them in reStructuredText and MyST alike.
pub(crate) fn document_name(target: &str) -> &str {
    [".rst", ".md", ".txt"]
        .iter()
        .find_map(|suffix| target.strip_suffix(suffix))
        .filter(|name| !name.is_empty() && !name.ends_with('/'))
        .unwrap_or(target)
}

/// Classifies `target`. `external` forces the target to be treated as not
/// relative (autolinks, e-mail autolinks and raw URLs, whose destination may
/// lack a scheme, like `user@example.com` or `www.example.com`).
pub(crate) fn split_destination(target: &str, external: bool) -> Destination {
    let (before_fragment, fragment) = match target.split_once('#') {
        Some((before, after)) => (before, Some(percent_decode(after))),
        None => (target, None),
    };
    let relative = !external
        && !target.starts_with('/')
        && !target.starts_with('\\')
        && !target.starts_with('#')
        && !has_scheme(target);
    let site_absolute = !external && target.starts_with('/') && !target.starts_with("//");
    let without_query = || {
        let without_query = before_fragment
            .split_once('?')
            .map_or(before_fragment, |(path, _)| path);
        Some(percent_decode(without_query)).filter(|path| !path.is_empty())
    };
    let path = if relative { without_query() } else { None };
    let site_path = if site_absolute { without_query() } else { None };
    Destination {
        path,
        site_path,
        fragment,
    }
}

/// True for `scheme:` prefixes as defined by RFC 3986
/// (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`).
fn has_scheme(target: &str) -> bool {
    let Some((scheme, _)) = target.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// The repository path a forge's file URL names (`https://github.com/o/r/blob/main/docs/a.md`
/// → `docs/a.md`; GitHub's `blob`, `tree` and `raw`, GitLab's `-/blob` and `-/tree`), decoded,
/// without fragment or query; `None` for any other URL. Which repository it names is not
/// checked here: the caller takes it as this one's only when the path exists in it.
pub fn forge_file_path(target: &str) -> Option<String> {
    let rest = target
        .strip_prefix("https://")
        .or_else(|| target.strip_prefix("http://"))?;
    let rest = rest.split(['#', '?']).next()?;
    let (host, rest) = rest.split_once('/')?;
    let after_kind = match host {
        "github.com" | "www.github.com" => {
            let mut parts = rest.splitn(4, '/');
            let (_owner, _repo, kind, after) =
                (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
            matches!(kind, "blob" | "tree" | "raw").then_some(after)?
        }
        "gitlab.com" => {
            let (_, after) = rest
                .split_once("/-/blob/")
                .or_else(|| rest.split_once("/-/tree/"))?;
            after
        }
        _ => return None,
    };
    let (_reference, path) = after_kind.split_once('/')?;
    let path = percent_decode(path.trim_end_matches('/'));
    (!path.is_empty()).then_some(path)
}

/// Decodes `%XX` escapes. Malformed escapes are kept literally and byte
/// sequences that are not UTF-8 are replaced, so decoding never fails.
pub(crate) fn percent_decode(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match bytes.get(i..i + 3) {
            Some([b'%', high, low]) => hex_value(*high).zip(hex_value(*low)),
            _ => None,
        };
        match escaped {
            Some((high, low)) => {
                decoded.push(high << 4 | low);
                i += 3;
            }
            None => {
                decoded.push(bytes[i]);
                i += 1;
            }
        }
    }
    match String::from_utf8(decoded) {
        Ok(text) => text,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    }
}

fn hex_value(digit: u8) -> Option<u8> {
    match digit {
        b'0'..=b'9' => Some(digit - b'0'),
        b'a'..=b'f' => Some(digit - b'a' + 10),
        b'A'..=b'F' => Some(digit - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(target: &str) -> (Option<String>, Option<String>) {
        let destination = split_destination(target, false);
        (destination.path, destination.fragment)
    }

    #[test]
    fn relative_target_keeps_path_and_fragment() {
        assert_eq!(
            parts("docs/My%20Guide.md?plain=1#Set%20up"),
            (Some("docs/My Guide.md".into()), Some("Set up".into()))
        );
        assert_eq!(parts("../a.md"), (Some("../a.md".into()), None));
    }

    #[test]
    fn non_relative_targets_have_no_path() {
        for target in [
            "https://example.com/a.md",
            "http://x",
            "mailto:someone@example.com",
            "data:image/png;base64,xx",
            "//cdn.example.com/a.js",
            "/absolute/a.md",
            "#anchor",
        ] {
            assert_eq!(split_destination(target, false).path, None, "{target}");
        }
        assert_eq!(split_destination("a.md", true).path, None);
    }

    #[test]
    fn site_absolute_targets_keep_their_path_apart() {
        let site = |target: &str| split_destination(target, false).site_path;
        assert_eq!(
            site("/en/guides/My%20Page?x=1#top"),
            Some("/en/guides/My Page".into())
        );
        assert_eq!(site("/"), Some("/".into()));
        for target in [
            "//cdn.example.com/a.js",
            "https://example.com/a",
            "a.md",
            "#top",
        ] {
            assert_eq!(site(target), None, "{target}");
        }
        assert_eq!(split_destination("/a", true).site_path, None);
        assert_eq!(split_destination("/a", false).path, None);
    }

    #[test]
    fn bare_anchor_and_external_keep_fragment() {
        assert_eq!(parts("#intro"), (None, Some("intro".into())));
        assert_eq!(parts("https://x.org/p#top"), (None, Some("top".into())));
    }

    #[test]
    fn query_only_target_has_no_path() {
        assert_eq!(parts("?tab=readme"), (None, None));
    }

    #[test]
    fn malformed_and_non_utf8_escapes_do_not_fail() {
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("%C3%A9"), "é");
        assert_eq!(percent_decode("%FF"), "\u{FFFD}");
    }
}

#[cfg(test)]
mod forge_tests {
    use super::forge_file_path;

    #[test]
    fn a_forge_file_url_names_a_repository_path() {
        for (url, path) in [
            (
                "https://github.com/Alamofire/Alamofire/blob/master/Documentation/Usage.md#intro",
                Some("Documentation/Usage.md"),
            ),
            (
                "https://github.com/o/r/blob/master/Documentation/Alamofire%205.0%20Migration%20Guide.md",
                Some("Documentation/Alamofire 5.0 Migration Guide.md"),
            ),
            ("https://github.com/o/r/tree/main/docs/", Some("docs")),
            (
                "https://gitlab.com/g/sub/r/-/blob/main/a/b.md?x=1",
                Some("a/b.md"),
            ),
            ("https://github.com/o/r/pull/12", None),
            ("https://github.com/o/r/blob/main", None),
            ("https://example.org/o/r/blob/main/a.md", None),
            ("docs/a.md", None),
        ] {
            assert_eq!(forge_file_path(url).as_deref(), path, "{url}");
        }
    }
}
