//! Annotation macros in C and C++ sources, blanked before parsing.
//!
//! Libraries wrap declarations in macros the parser cannot expand: `FMT_BEGIN_NAMESPACE`
//! alone on a line (it opens `namespace fmt {`), `FMT_API void f();`, `int CJSON_CDECL
//! main(void)`. Tree-sitter reads such a macro as a type or a declarator, and the declaration
//! after it (often a whole namespace) turns into an ERROR node. Universal Ctags faces the
//! same problem and ignores identifiers the user lists; lacking a list, these shapes are
//! recognized instead, always for an upper-case identifier with an underscore (`A_B`, never
//! `FILE` or `T`):
//!
//! - the only word of a line, when the next word is an identifier (not `,`, `}` or `=`, so
//!   the last enumerator of an enum stays);
//! - the first word of a line followed by a keyword that starts a declaration (`FMT_API
//!   void`, `FMT_CONSTEXPR auto`, `Q_DECL_EXPORT class`);
//! - between a word and a function's name (`int CJSON_CDECL main(`).
//!
//! A blanked macro becomes spaces, so byte offsets and line numbers stay those of the file.
//! Preprocessor lines are left alone.

use std::borrow::Cow;

/// Keywords that start (or continue the specifiers of) a declaration.
const DECLARATION_KEYWORDS: &[&str] = &[
    "auto",
    "bool",
    "char",
    "class",
    "const",
    "consteval",
    "constexpr",
    "constinit",
    "double",
    "enum",
    "explicit",
    "extern",
    "float",
    "friend",
    "inline",
    "int",
    "long",
    "namespace",
    "short",
    "signed",
    "static",
    "struct",
    "template",
    "typedef",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
];

/// `source` with its annotation macros blanked (see the module docs); borrowed when there
/// are none.
pub(crate) fn blank_annotation_macros(source: &[u8]) -> Cow<'_, [u8]> {
    let mut spans = Vec::new();
    let mut line_start = 0;
    while line_start < source.len() {
        let line_end = source[line_start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(source.len(), |at| line_start + at);
        line_spans(source, line_start, line_end, &mut spans);
        line_start = line_end + 1;
    }
    if spans.is_empty() {
        return Cow::Borrowed(source);
    }
    let mut masked = source.to_vec();
    for (start, end) in spans {
        if let Some(bytes) = masked.get_mut(start..end) {
            bytes.fill(b' ');
        }
    }
    Cow::Owned(masked)
}

/// The macros to blank on the line `source[start..end]`.
fn line_spans(source: &[u8], start: usize, end: usize, spans: &mut Vec<(usize, usize)>) {
    let line = &source[start..end];
    let words = words(line);
    let first_byte = line.iter().position(|b| !b.is_ascii_whitespace());
    if first_byte.is_some_and(|at| line[at] == b'#') {
        return;
    }
    let Some(&(first_start, first_end)) = words.first() else {
        return;
    };
    let word = |(a, b): (usize, usize)| &line[a..b];
    let starts_line = first_byte == Some(first_start);
    let rest_of_line = line.get(first_end..).unwrap_or_default();
    if starts_line && is_macro(word(words[0])) {
        let alone = rest_of_line.iter().all(u8::is_ascii_whitespace);
        if alone {
            if next_is_identifier(source, end) {
                spans.push((start + first_start, start + first_end));
            }
            return;
        }
        let followed_by_keyword = words.get(1).is_some_and(|&(a, b)| {
            line[first_end..a].iter().all(u8::is_ascii_whitespace)
                && DECLARATION_KEYWORDS.contains(&std::str::from_utf8(&line[a..b]).unwrap_or(""))
        });
        if followed_by_keyword {
            spans.push((start + first_start, start + first_end));
            return;
        }
    }
    // `word MACRO_X name(`: between a word and a function's name.
    for window in words.windows(3) {
        let [before, macro_word, name] = [window[0], window[1], window[2]];
        let gap = |a: usize, b: usize| line[a..b].iter().all(u8::is_ascii_whitespace);
        let call = line
            .get(name.1..)
            .and_then(|rest| rest.iter().find(|b| !b.is_ascii_whitespace()))
            == Some(&b'(');
        if is_macro(word(macro_word))
            && !is_macro(word(name))
            && gap(before.1, macro_word.0)
            && gap(macro_word.1, name.0)
            && call
        {
            spans.push((start + macro_word.0, start + macro_word.1));
        }
    }
}

/// The identifier-like words of a line, as byte ranges.
fn words(line: &[u8]) -> Vec<(usize, usize)> {
    let mut words = Vec::new();
    let mut at = 0;
    while at < line.len() {
        if is_word_start(line[at]) {
            let start = at;
            while at < line.len() && is_word_byte(line[at]) {
                at += 1;
            }
            words.push((start, at));
        } else if line[at].is_ascii_digit() {
            while at < line.len() && is_word_byte(line[at]) {
                at += 1;
            }
        } else {
            at += 1;
        }
    }
    words
}

fn is_word_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// An upper-case identifier with an underscore inside it: `FMT_API`, `Q_OBJECT`, not `FILE`,
/// `T` or `_M`.
fn is_macro(word: &[u8]) -> bool {
    word.len() >= 3
        && word.first().is_some_and(u8::is_ascii_uppercase)
        && word.contains(&b'_')
        && word
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// True when the first non-blank byte after `from` starts an identifier.
fn next_is_identifier(source: &[u8], from: usize) -> bool {
    source
        .get(from..)
        .unwrap_or_default()
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| is_word_start(b))
}

#[cfg(test)]
mod tests {
    use super::blank_annotation_macros;

    fn blank(source: &str) -> String {
        String::from_utf8(blank_annotation_macros(source.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn annotation_macros_become_spaces() {
        assert_eq!(
            blank("FMT_BEGIN_NAMESPACE\nnamespace detail {}\nFMT_END_NAMESPACE\n"),
            "                   \nnamespace detail {}\nFMT_END_NAMESPACE\n"
        );
        assert_eq!(blank("FMT_API void f();"), "        void f();");
        assert_eq!(blank("int CJSON_CDECL main(void)"), "int             main(void)");
        assert_eq!(blank("  Q_OBJECT\npublic:"), "          \npublic:");
    }

    #[test]
    fn types_enumerators_and_preprocessor_lines_stay() {
        for kept in [
            "UNITY_STORAGE_T storage;",
            "FILE *f;",
            "enum { A,\n  LAST_VALUE\n};",
            "#define FMT_API void\n",
            "x = MAX_SIZE - 1;",
            "CJSON_PUBLIC(cJSON *) cJSON_Parse(const char *value);",
            "MY_TYPE MY_OTHER(x);",
        ] {
            assert_eq!(blank(kept), kept);
        }
        assert!(matches!(
            blank_annotation_macros(b"int x;"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
