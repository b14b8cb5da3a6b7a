//! Annotation macros in C and C++ sources, blanked before parsing.
//!
//! Libraries wrap declarations in macros the parser cannot expand: `FMT_BEGIN_NAMESPACE`
//! alone on a line (it opens `namespace fmt {`), `FMT_API void f();`, `int CJSON_CDECL
//! main(void)`, `CJSON_PUBLIC(cJSON *) cJSON_Parse(…)`. Tree-sitter reads such a macro as a
//! type or a declarator, and the declaration after it (often a whole namespace) turns into
//! an ERROR node. Universal Ctags faces the same problem and ignores identifiers the user
//! lists; lacking a list, these shapes are recognized, always for an upper-case identifier
//! with an underscore (`A_B`; never `FILE` or `T`) that the file does not declare as a type
//! (`typedef … A_B;`, `} A_B;`):
//!
//! - followed on its line by another word that the declaration goes on past: `FMT_API void
//!   f`, `FMT_NORETURN FMT_API void`, `int FMT_CDECL main(`, `> FMT_CONSTEXPR void`,
//!   `FMT_CONSTEXPR typed_node(` (but `UNITY_COUNTER_TYPE count;` declares `count` with a
//!   macro type, and stays);
//! - the only word of a line, when the next word in the file is an identifier (so the last
//!   enumerator of an enum, followed by `}`, stays);
//! - a call alone on a line, without `;` (`FMT_PRAGMA_GCC(push_options)`,
//!   `Q_DECLARE_METATYPE(T)`): all of it;
//! - a call wrapping a declaration's type at the start of a line (`CJSON_PUBLIC(cJSON *)
//!   name(`): the macro's name and parentheses, keeping the type.
//!
//! A blanked macro becomes spaces, so byte offsets and line numbers stay those of the file.
//! Preprocessor lines are left alone. A function whose return type is an upper-case macro
//! (`UNITY_COUNTER_TYPE count(void);`) is lost: the price of the rule.

use std::borrow::Cow;

/// `source` with its annotation macros blanked (see the module docs); borrowed when there
/// are none.
pub(crate) fn blank_annotation_macros(source: &[u8]) -> Cow<'_, [u8]> {
    let lines = lines(source);
    let types = declared_types(source, &lines);
    let mut spans = Vec::new();
    for &(start, end) in &lines {
        line_spans(source, start, end, &types, &mut spans);
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

/// The byte ranges of the lines of `source`, without their newlines.
fn lines(source: &[u8]) -> Vec<(usize, usize)> {
    let mut lines = Vec::new();
    let mut start = 0;
    while start < source.len() {
        let end = source[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(source.len(), |at| start + at);
        lines.push((start, end));
        start = end + 1;
    }
    lines
}

/// The upper-case names the file declares as types: the last word before `;` on a line that
/// starts a typedef or closes one (`typedef unsigned int UINT_T;`, `} STORAGE_T;`).
fn declared_types<'s>(source: &'s [u8], lines: &[(usize, usize)]) -> Vec<&'s [u8]> {
    let mut types = Vec::new();
    for &(start, end) in lines {
        let line = &source[start..end];
        let trimmed = line.trim_ascii_start();
        if !(trimmed.starts_with(b"typedef") || trimmed.starts_with(b"}")) {
            continue;
        }
        let Some(semicolon) = line.iter().rposition(|&b| b == b';') else {
            continue;
        };
        if let Some(&(a, b)) = words(&line[..semicolon]).last()
            && is_macro(&line[a..b])
        {
            types.push(&line[a..b]);
        }
    }
    types
}

/// The macros to blank on the line `source[start..end]`.
fn line_spans(
    source: &[u8],
    start: usize,
    end: usize,
    types: &[&[u8]],
    spans: &mut Vec<(usize, usize)>,
) {
    let line = &source[start..end];
    let Some(first_byte) = line.iter().position(|b| !b.is_ascii_whitespace()) else {
        return;
    };
    if line[first_byte] == b'#' {
        return;
    }
    let words = words(line);
    let annotation = |w: (usize, usize)| {
        let word = &line[w.0..w.1];
        is_macro(word) && !types.contains(&word)
    };
    let blank =
        |a: usize, b: usize, spans: &mut Vec<(usize, usize)>| spans.push((start + a, start + b));
    let after = |at: usize| {
        line[at..]
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .map(|p| at + p)
    };
    let Some(&first) = words.first() else {
        return;
    };
    // A call at the start of the line: alone (all of it), or wrapping a type.
    if first.0 == first_byte
        && annotation(first)
        && let Some(open) = after(first.1).filter(|&at| line[at] == b'(')
        && let Some(close) = line[open..]
            .iter()
            .position(|&b| b == b')')
            .map(|p| open + p)
        && !line[open + 1..close].contains(&b'(')
    {
        match after(close + 1) {
            None => blank(first.0, close + 1, spans),
            Some(next) if is_word_start(line[next]) => {
                blank(first.0, open + 1, spans);
                blank(close, close + 1, spans);
            }
            Some(_) => {}
        }
        return;
    }
    if words.len() == 1 && first.0 == first_byte && after(first.1).is_none() {
        if annotation(first) && next_is_identifier(source, end) {
            blank(first.0, first.1, spans);
        }
        return;
    }
    // A macro followed by another word that is not the one name a macro type declares
    // (`UNITY_COUNTER_TYPE count;` stays; `FMT_API void f`, `FMT_CONSTEXPR node(` go).
    for pair in words.windows(2) {
        let [word, next] = [pair[0], pair[1]];
        let gap = line[word.1..next.0].iter().all(u8::is_ascii_whitespace);
        let before = &line[..word.0];
        let member_access =
            before.ends_with(b".") || before.ends_with(b"->") || before.ends_with(b"::");
        if gap && !member_access && annotation(word) && declares_more(&line[next.1..]) {
            blank(word.0, word.1, spans);
        }
    }
}

/// True when what follows a word continues a declaration past it: another word (after any
/// `*`, `&`, `::` or a base clause's `:`), a template's `<`, a parameter list's `(` or a
/// class body's `{` (`class FMT_API format_error {`).
fn declares_more(rest: &[u8]) -> bool {
    let mut at = 0;
    while at < rest.len() && matches!(rest[at], b' ' | b'\t' | b'*' | b'&' | b':') {
        at += 1;
    }
    rest.get(at)
        .is_some_and(|&b| is_word_start(b) || matches!(b, b'(' | b'<' | b'{'))
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

/// True when what comes after `from`, past blanks and comments, is an identifier or a
/// preprocessor directive (`FMT_BEGIN_EXPORT`, a comment, then `template <…>`).
fn next_is_identifier(source: &[u8], from: usize) -> bool {
    let mut rest = source.get(from..).unwrap_or_default();
    loop {
        rest = rest.trim_ascii_start();
        if let Some(comment) = rest.strip_prefix(b"//") {
            let end = comment
                .iter()
                .position(|&b| b == b'\n')
                .unwrap_or(comment.len());
            rest = &comment[end..];
        } else if let Some(comment) = rest.strip_prefix(b"/*") {
            let end = comment
                .windows(2)
                .position(|w| w == b"*/")
                .map_or(comment.len(), |at| at + 2);
            rest = &comment[end..];
        } else {
            return rest.first().is_some_and(|&b| is_word_start(b) || b == b'#');
        }
    }
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
        assert_eq!(
            blank("class GTEST_API_ Message {"),
            "class            Message {"
        );
        assert_eq!(
            blank("FMT_NORETURN FMT_API void f();"),
            format!("{}void f();", " ".repeat(21))
        );
        assert_eq!(
            blank("int CJSON_CDECL main(void)"),
            "int             main(void)"
        );
        assert_eq!(blank("  Q_OBJECT\npublic:"), "          \npublic:");
        assert_eq!(
            blank("FMT_BEGIN_EXPORT\n// A buffer.\n/* x */ template <typename T> class B {};"),
            "                \n// A buffer.\n/* x */ template <typename T> class B {};"
        );
        assert_eq!(
            blank("template <typename T> FMT_CONSTEXPR void f();"),
            "template <typename T>               void f();"
        );
        assert_eq!(
            blank("  FMT_CONSTEXPR node(int a);"),
            "                node(int a);"
        );
        assert_eq!(
            blank("FMT_PRAGMA_GCC(push_options)\n"),
            "                            \n"
        );
        assert_eq!(
            blank("CJSON_PUBLIC(cJSON *) cJSON_Parse(const char *value);"),
            "             cJSON *  cJSON_Parse(const char *value);"
        );
    }

    #[test]
    fn types_enumerators_calls_and_preprocessor_lines_stay() {
        for kept in [
            "typedef struct { int a; } UNITY_STORAGE_T;\nUNITY_STORAGE_T storage;",
            "FILE *f;",
            "enum { A,\n  LAST_VALUE\n};",
            "#define FMT_API void\n",
            "x = MAX_SIZE - 1;",
            "EXPECT_EQ(a, b);",
            "TEST_F(Suite, Name) {",
            "MY_CALL(MY_ARG(x)) y;",
            "return a.MY_FIELD b;",
            "    UNITY_COUNTER_TYPE NumberOfTests;",
            "LARGE_INTEGER freq = {0};",
        ] {
            assert_eq!(blank(kept), kept);
        }
        assert!(matches!(
            blank_annotation_macros(b"int x;"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
