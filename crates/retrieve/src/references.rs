//! Explicit references in a pasted report: traceback frames, paths, dotted and `Class.method`
//! names, backticked identifiers, error class names. A bug report names the code it is about
//! far more precisely than its words do; read as a bag of words, `sklearn/compose/
//! _column_transformer.py` weighs what "the" weighs. This module finds the references
//! ([`extract`]); ranking resolves each one to the entries it names and gives them explained
//! evidence (`rank.rs`, the `reference` part).

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

/// What a reference looks like, strongest first.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reference {
    /// A file path (`sklearn/compose/_column_transformer.py`, a traceback's
    /// `File "/…/site-packages/matplotlib/offsetbox.py"`), `/`-separated.
    Path(String),
    /// A dotted name (`matplotlib.get_backend`, `sklearn.linear_model.RidgeClassifierCV`,
    /// `Gcf.destroy_fig`), dots as written.
    Dotted(String),
    /// One identifier that code would use (`store_cv_values`, `RidgeClassifierCV`,
    /// `_hstack`, `AttributeError`), from backticks, a traceback's `in name`, or its shape.
    Identifier(String),
}

impl Reference {
    /// The reference as written (normalized: `/` separators).
    pub fn text(&self) -> &str {
        match self {
            Reference::Path(t) | Reference::Dotted(t) | Reference::Identifier(t) => t,
        }
    }
}

/// At most this many references are read from one query (a report can quote thousands of
/// lines; the first references are the ones its author wrote).
pub const MAX_REFERENCES: usize = 64;

static PATH: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        (?:[A-Za-z]:)?                       # a drive letter
        [A-Za-z0-9_.$@~\\/-]*[\\/]?          # directories
        [A-Za-z0-9_$@-][A-Za-z0-9_.$@-]*     # the file name
        \.(?:py|pyi|pyx|js|jsx|mjs|cjs|ts|tsx|mts|cts|go|rs|java|kt|rb|c|h|cc|cpp|hpp|cs|php|swift|scala|vue|svelte|md|rst)
        \b",
    )
    .ok()
});
static TRACEBACK_FUNCTION: LazyLock<Option<Regex>> = LazyLock::new(|| {
    // Python: `File "x.py", line 12, in name`; JS/Rust frames: `at name (file:1:2)`.
    Regex::new(r#"(?:line \d+, in |\bat (?:new )?)([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)"#).ok()
});
static DOTTED: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+\b").ok());
static BACKTICKED: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"`+([^`\n]{1,120})`+").ok());
static IDENTIFIER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\b[A-Za-z_][A-Za-z0-9_]*\b").ok());

/// Words a dotted name is made of that do not name code (`e.g`, `i.e`, `etc.`), and file
/// extensions mistaken for a last segment.
const NOT_DOTTED: &[&str] = &["e.g", "i.e", "vs", "etc", "a.k.a"];

/// The references in `query`, deduplicated, in order of kind then first appearance, at most
/// [`MAX_REFERENCES`].
pub fn extract(query: &str) -> Vec<Reference> {
    // Prose has none: skip the patterns (compiling them is most of the cost of a short query).
    if !might_hold_references(query) {
        return Vec::new();
    }
    let mut found: Vec<Reference> = Vec::new();
    let mut seen: BTreeSet<Reference> = BTreeSet::new();
    let mut push = |reference: Reference, found: &mut Vec<Reference>| {
        if seen.insert(reference.clone()) {
            found.push(reference);
        }
    };
    let mut path_spans: Vec<(usize, usize)> = Vec::new();
    if let Some(re) = PATH.as_ref() {
        for m in re.find_iter(query) {
            let text = m.as_str().replace('\\', "/");
            let text = text.trim_start_matches("./").trim_start_matches('/');
            // A dotted module name that happens to end like a file (`a.rs`) is a path only
            // with a separator; a bare file name still counts.
            if text.is_empty() || text.starts_with('.') {
                continue;
            }
            path_spans.push((m.start(), m.end()));
            push(Reference::Path(text.to_owned()), &mut found);
        }
    }
    if let Some(re) = TRACEBACK_FUNCTION.as_ref() {
        for c in re.captures_iter(query) {
            if let Some(name) = c.get(1) {
                let name = name.as_str();
                if name != "module" && !name.starts_with('<') {
                    push(classify_name(name), &mut found);
                }
            }
        }
    }
    if let Some(re) = BACKTICKED.as_ref() {
        for c in re.captures_iter(query) {
            if let Some(inner) = c.get(1) {
                for name in names_in(inner.as_str()) {
                    push(classify_name(&name), &mut found);
                }
            }
        }
    }
    if let Some(re) = DOTTED.as_ref() {
        for m in re.find_iter(query) {
            if path_spans
                .iter()
                .any(|(s, e)| m.start() >= *s && m.end() <= *e)
            {
                continue;
            }
            let text = m.as_str();
            if NOT_DOTTED.contains(&text.to_ascii_lowercase().as_str())
                || text.split('.').any(|part| part.len() == 1 && part != "_")
            {
                continue;
            }
            push(Reference::Dotted(text.to_owned()), &mut found);
        }
    }
    if let Some(re) = IDENTIFIER.as_ref() {
        for m in re.find_iter(query) {
            let word = m.as_str();
            if looks_like_code(word) {
                push(Reference::Identifier(word.to_owned()), &mut found);
            }
        }
    }
    found.sort_by_key(|r| match r {
        Reference::Path(_) => 0,
        Reference::Dotted(_) => 1,
        Reference::Identifier(_) => 2,
    });
    found.truncate(MAX_REFERENCES);
    found
}

/// Whether `query` has anything a reference is made of: a backtick, an underscore, a slash or
/// backslash, a dot between two letters or digits and a letter, or a word in mixed case.
fn might_hold_references(query: &str) -> bool {
    let bytes = query.as_bytes();
    bytes.iter().enumerate().any(|(i, b)| match b {
        b'`' | b'_' | b'/' | b'\\' => true,
        b'.' => {
            i > 0
                && bytes[i - 1].is_ascii_alphanumeric()
                && bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic)
        }
        _ => false,
    }) || query.split_whitespace().any(looks_like_code)
}

/// A dotted or a plain name.
fn classify_name(name: &str) -> Reference {
    if name.contains('.') {
        Reference::Dotted(name.to_owned())
    } else {
        Reference::Identifier(name.to_owned())
    }
}

/// The names inside a backticked span: `foo(x)` is `foo`, `a.b = 1` is `a.b`, `x[0]` is `x`.
fn names_in(span: &str) -> Vec<String> {
    let Some(re) = DOTTED.as_ref() else {
        return Vec::new();
    };
    let mut names: Vec<String> = re.find_iter(span).map(|m| m.as_str().to_owned()).collect();
    if let Some(plain) = IDENTIFIER.as_ref() {
        let trimmed = span.trim();
        if plain.find(trimmed).is_some_and(|m| m.as_str() == trimmed) {
            names.push(trimmed.to_owned());
        }
        // The called name of a call (`fit_predict(X)`).
        if let Some((head, _)) = trimmed.split_once('(')
            && plain
                .find(head.trim())
                .is_some_and(|m| m.as_str() == head.trim())
        {
            names.push(head.trim().to_owned());
        }
    }
    names.retain(|n| n.len() >= 3 && !n.chars().all(|c| c.is_ascii_digit()));
    names
}

/// An identifier shaped like code rather than prose: with an underscore inside or at the
/// start (`store_cv_values`, `_hstack`), or mixed case after the first letter
/// (`RidgeClassifierCV`, `getBackend`), at least four characters long.
pub fn looks_like_code(word: &str) -> bool {
    if word.len() < 4 || word.chars().all(|c| c.is_ascii_digit() || c == '_') {
        return false;
    }
    let inner_underscore = word.trim_matches('_').contains('_') || word.starts_with('_');
    let mut chars = word.chars();
    let first = chars.next();
    let rest: Vec<char> = chars.collect();
    let mixed = rest.iter().any(|c| c.is_ascii_uppercase())
        && rest.iter().any(|c| c.is_ascii_lowercase())
        && first.is_some_and(|c| c.is_ascii_alphabetic());
    inner_underscore || mixed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(query: &str) -> Vec<String> {
        extract(query)
            .iter()
            .map(|r| match r {
                Reference::Path(t) => format!("path:{t}"),
                Reference::Dotted(t) => format!("dotted:{t}"),
                Reference::Identifier(t) => format!("id:{t}"),
            })
            .collect()
    }

    #[test]
    fn python_traceback_frames_give_paths_and_functions() {
        let report = r#"Traceback (most recent call last):
  File "test_gm.py", line 17, in <module>
    assert_array_equal(c1,c2)
  File "/home/u/.local/lib/python3.7/site-packages/sklearn/compose/_column_transformer.py", line 862, in _hstack
    return np.hstack(Xs)"#;
        let found = texts(report);
        assert!(found.contains(&"path:test_gm.py".to_owned()), "{found:?}");
        assert!(
            found.contains(
                &"path:home/u/.local/lib/python3.7/site-packages/sklearn/compose/_column_transformer.py"
                    .to_owned()
            ),
            "{found:?}"
        );
        assert!(found.contains(&"id:_hstack".to_owned()), "{found:?}");
        assert!(found.contains(&"dotted:np.hstack".to_owned()), "{found:?}");
        assert!(!found.iter().any(|f| f.contains("module")), "{found:?}");
    }

    #[test]
    fn windows_paths_and_js_and_rust_frames() {
        let found = texts(
            r#"File "C:\Users\a\miniconda3\lib\site-packages\matplotlib\offsetbox.py", line 1550, in on_release
    at Object.render (packages/svelte/src/internal/client/render.js:10:5)
thread 'main' panicked at src/commands/index.rs:42:9"#,
        );
        assert!(
            found.contains(
                &"path:C:/Users/a/miniconda3/lib/site-packages/matplotlib/offsetbox.py".to_owned()
            ) || found.contains(
                &"path:Users/a/miniconda3/lib/site-packages/matplotlib/offsetbox.py".to_owned()
            ),
            "{found:?}"
        );
        assert!(found.contains(&"id:on_release".to_owned()), "{found:?}");
        assert!(
            found.contains(&"dotted:Object.render".to_owned()),
            "{found:?}"
        );
        assert!(
            found.contains(&"path:packages/svelte/src/internal/client/render.js".to_owned()),
            "{found:?}"
        );
        assert!(
            found.contains(&"path:src/commands/index.rs".to_owned()),
            "{found:?}"
        );
    }

    #[test]
    fn dotted_names_backticks_and_code_shaped_identifiers() {
        let found = texts(
            "linear_model.RidgeClassifierCV's Parameter store_cv_values issue; see `Gcf.destroy_fig` and ``fit_predict(X)``, e.g. it raises AttributeError. Version 1.2.3 broke it.",
        );
        for expected in [
            "dotted:linear_model.RidgeClassifierCV",
            "dotted:Gcf.destroy_fig",
            "id:fit_predict",
            "id:store_cv_values",
            "id:RidgeClassifierCV",
            "id:AttributeError",
        ] {
            assert!(
                found.contains(&expected.to_owned()),
                "{expected}: {found:?}"
            );
        }
        assert!(!found.iter().any(|f| f.contains("e.g")), "{found:?}");
        assert!(!found.iter().any(|f| f.contains("1.2")), "{found:?}");
        assert!(
            !found
                .iter()
                .any(|f| f == "id:Parameter" || f == "id:Version"),
            "{found:?}"
        );
    }

    #[test]
    fn prose_has_no_references_and_the_count_is_bounded() {
        assert!(extract("how do I configure the session timeout for my app").is_empty());
        assert!(!might_hold_references(
            "A claim about 1.5 mg of drug. Another sentence."
        ));
        assert!(might_hold_references("calls np.hstack"));
        assert!(might_hold_references("the RidgeClassifierCV estimator"));
        let flood: String = (0..500).map(|i| format!("name_{i} ")).collect();
        assert_eq!(extract(&flood).len(), MAX_REFERENCES);
    }
}
