//! Helpers shared by the language modules: line numbers, panic-free node
//! text, string literals, tree walking, syntax errors and the final ordering
//! of facts.

use std::collections::HashSet;

use tree_sitter::Node;

use crate::{
    Import, MAX_MEMBERS, MAX_REPORTED_SYNTAX_ERRORS, Member, MemberKind, Symbol, SymbolKind,
    SyntaxError,
};

/// Module specifiers (and re-export sources) longer than this are ignored.
/// No real module path comes close, and every symbol re-exported from a
/// module carries a copy of its specifier, so the cap keeps the output
/// linear in the input even for adversarial files.
pub(crate) const MAX_SPECIFIER_LEN: usize = 1024;

/// `Some(specifier)` unless it is empty or longer than [`MAX_SPECIFIER_LEN`].
pub(crate) fn specifier(specifier: String) -> Option<String> {
    (!specifier.is_empty() && specifier.len() <= MAX_SPECIFIER_LEN).then_some(specifier)
}

/// Lines of `source`: the number of `\n`, plus one when the last line has no
/// trailing newline. tree-sitter counts rows by `\n` too, so the two agree.
pub(crate) fn line_count(source: &[u8]) -> u32 {
    let newlines = source.iter().filter(|&&b| b == b'\n').count();
    let unterminated = usize::from(source.last().is_some_and(|&b| b != b'\n'));
    u32::try_from(newlines.saturating_add(unterminated)).unwrap_or(u32::MAX)
}

/// The source being analyzed and what is needed to report positions.
pub(crate) struct Ctx<'s> {
    pub(crate) src: &'s [u8],
    line_count: u32,
}

impl<'s> Ctx<'s> {
    pub(crate) fn new(src: &'s [u8], line_count: u32) -> Self {
        Ctx { src, line_count }
    }

    /// 1-based start line of `node`, clamped into `1..=line_count`: a node
    /// at the very end of a file that ends with a newline (typically a
    /// MISSING token) starts on a row that is not a line of its own.
    pub(crate) fn line(&self, node: Node<'_>) -> u32 {
        let row = u32::try_from(node.start_position().row).unwrap_or(u32::MAX);
        row.saturating_add(1).min(self.line_count.max(1))
    }

    /// The text of `node`, or `None` when it is not valid UTF-8. Slicing with
    /// `get` cannot panic even if a range were out of bounds.
    pub(crate) fn text(&self, node: Node<'_>) -> Option<&'s str> {
        self.src
            .get(node.byte_range())
            .and_then(|bytes| std::str::from_utf8(bytes).ok())
    }

    /// The source between two byte offsets, when it is text.
    pub(crate) fn src_str(&self, range: std::ops::Range<usize>) -> Option<&'s str> {
        std::str::from_utf8(self.src.get(range)?).ok()
    }

    /// Like [`Ctx::text`], for an optional node.
    pub(crate) fn text_of(&self, node: Option<Node<'_>>) -> Option<&'s str> {
        node.and_then(|n| self.text(n))
    }

    /// The value of a string literal node: the concatenation of its children
    /// of `content_kinds`, with `escape_sequence` children decoded. `None` if
    /// it has anything else that is named (interpolations, templates) or an
    /// escape that cannot be decoded, since its value is then not static.
    pub(crate) fn string_value(&self, node: Node<'_>, content_kinds: &[&str]) -> Option<String> {
        let mut value = String::new();
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            let kind = child.kind();
            if content_kinds.contains(&kind) {
                value.push_str(self.text(child)?);
            } else if kind == "escape_sequence" {
                value.push(unescape(self.text(child)?)?);
            } else if child.is_named() || child.is_error() || child.is_missing() {
                return None;
            }
        }
        Some(value)
    }
}

/// Decodes one escape sequence (`\n`, `\'`, `\x41`, `\u{1F600}`, `\u0041`).
pub(crate) fn unescape(escape: &str) -> Option<char> {
    let body = escape.strip_prefix('\\')?;
    let mut chars = body.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    let simple = match first {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        '0' => '\0',
        '\\' | '\'' | '"' | '/' | '`' | '$' | '?' => first,
        'x' | 'u' | 'U' => {
            let hex = rest.trim_start_matches('{').trim_end_matches('}');
            if hex.is_empty() || hex.len() > 8 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            return u32::from_str_radix(hex, 16).ok().and_then(char::from_u32);
        }
        _ => return None,
    };
    rest.is_empty().then_some(simple)
}

/// Visits every node under (and including) `root` in pre-order, which is
/// source order; `visit` returns whether to descend into the node. Iterative,
/// so deeply nested input cannot overflow the stack.
pub(crate) fn walk<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>) -> bool) {
    let mut cursor = root.walk();
    loop {
        if visit(cursor.node()) && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// The named children of `node`, collected (tree-sitter's indexed child
/// access is linear per call, so iterating with a cursor keeps loops linear).
pub(crate) fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// The first named child of `node` of this kind.
pub(crate) fn named_child_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    named_children(node).into_iter().find(|n| n.kind() == kind)
}

/// The named children of `node`, with those inside conditional compilation (`#if`,
/// `#ifdef`, `#elif`, `#else` branches, however nested) in their place: every branch's
/// declarations count, as any build configuration may compile them (C, C++, C#). Iterative:
/// nesting must not use the call stack.
pub(crate) fn children_through_conditionals(node: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack: Vec<Node<'_>> = named_children(node).into_iter().rev().collect();
    while let Some(child) = stack.pop() {
        if matches!(
            child.kind(),
            "preproc_if" | "preproc_ifdef" | "preproc_elif" | "preproc_elifdef" | "preproc_else"
        ) {
            stack.extend(named_children(child).into_iter().rev());
        } else {
            out.push(child);
        }
    }
    out
}

/// True if `node` has a direct child (named or not) of this kind.
pub(crate) fn has_child_kind(node: Node<'_>, kind: &str) -> bool {
    let mut cursor = node.walk();
    node.children(&mut cursor).any(|c| c.kind() == kind)
}

/// ERROR and MISSING nodes, in source order: the first
/// [`MAX_REPORTED_SYNTAX_ERRORS`] and the total count. An ERROR node is one
/// error; what it contains is not counted again.
pub(crate) fn collect_syntax_errors(ctx: &Ctx<'_>, root: Node<'_>) -> (Vec<SyntaxError>, u32) {
    let mut errors = Vec::new();
    let mut count: u32 = 0;
    if !root.has_error() {
        return (errors, count);
    }
    walk(root, |node| {
        let message = if node.is_missing() {
            format!("missing {}", node.kind())
        } else if node.is_error() {
            "syntax error".to_owned()
        } else {
            // Subtrees without errors need not be visited at all.
            return node.has_error();
        };
        count = count.saturating_add(1);
        if errors.len() < MAX_REPORTED_SYNTAX_ERRORS {
            errors.push(SyntaxError {
                line: ctx.line(node),
                message,
            });
        }
        false
    });
    (errors, count)
}

/// A symbol with the byte offset it was found at, for ordering.
pub(crate) struct FoundSymbol {
    pub(crate) pos: usize,
    pub(crate) symbol: Symbol,
}

impl FoundSymbol {
    /// A symbol declared by `node` (its position and line).
    pub(crate) fn local(ctx: &Ctx<'_>, node: Node<'_>, name: &str, kind: SymbolKind) -> Self {
        FoundSymbol {
            pos: node.start_byte(),
            symbol: Symbol {
                name: name.to_owned(),
                kind,
                line: ctx.line(node),
                reexport: false,
                from: None,
            },
        }
    }

    /// A symbol re-exported by `node` from module `from`.
    pub(crate) fn reexport(
        ctx: &Ctx<'_>,
        node: Node<'_>,
        name: &str,
        kind: SymbolKind,
        from: &str,
    ) -> Self {
        FoundSymbol {
            pos: node.start_byte(),
            symbol: Symbol {
                name: name.to_owned(),
                kind,
                line: ctx.line(node),
                reexport: true,
                from: Some(from.to_owned()),
            },
        }
    }
}

/// A type declaration `node` of `kind`: its name (the `name` field), recorded in `out` when
/// `exported`, at the line of the name rather than of the annotations and comments before it.
/// `None` when the declaration has no readable name.
pub(crate) fn declared_type<'s>(
    ctx: &Ctx<'s>,
    node: Node<'_>,
    kind: SymbolKind,
    exported: bool,
    out: &mut Vec<FoundSymbol>,
) -> Option<&'s str> {
    let name_node = node.child_by_field_name("name")?;
    let name = ctx.text(name_node)?;
    if exported {
        out.push(FoundSymbol::local(ctx, name_node, name, kind));
    }
    Some(name)
}

/// An import with the byte offset it was found at, for ordering.
pub(crate) struct FoundImport {
    pub(crate) pos: usize,
    pub(crate) import: Import,
}

impl FoundImport {
    pub(crate) fn new(
        ctx: &Ctx<'_>,
        node: Node<'_>,
        specifier: &str,
        kind: crate::ImportKind,
        names: Vec<String>,
    ) -> Self {
        FoundImport {
            pos: node.start_byte(),
            import: Import {
                specifier: specifier.to_owned(),
                kind,
                names,
                line: ctx.line(node),
            },
        }
    }
}

/// A member with the byte offset it was found at, for ordering.
pub(crate) struct FoundMember {
    pub(crate) pos: usize,
    pub(crate) member: Member,
}

impl FoundMember {
    /// A member of `owner` named by the node `name` (its position and line).
    /// `None` when the name is empty or not valid UTF-8.
    pub(crate) fn new(
        ctx: &Ctx<'_>,
        name: Node<'_>,
        owner: &str,
        kind: MemberKind,
    ) -> Option<Self> {
        let text = ctx.text(name)?;
        Self::named(ctx, name, text, owner, kind)
    }

    /// Like [`FoundMember::new`], with the name given apart (a decoded
    /// string literal, say) and `node` giving the position.
    pub(crate) fn named(
        ctx: &Ctx<'_>,
        node: Node<'_>,
        name: &str,
        owner: &str,
        kind: MemberKind,
    ) -> Option<Self> {
        (!name.is_empty() && !owner.is_empty()).then(|| FoundMember {
            pos: node.start_byte(),
            member: Member {
                name: name.to_owned(),
                owner: owner.to_owned(),
                kind,
                line: ctx.line(node),
            },
        })
    }
}

/// What a language module found: symbols, imports and members, each with
/// its position, in any order.
#[derive(Default)]
pub(crate) struct Found {
    pub(crate) symbols: Vec<FoundSymbol>,
    pub(crate) imports: Vec<FoundImport>,
    pub(crate) members: Vec<FoundMember>,
    /// Namespaces the module declares (C#), in any order.
    pub(crate) namespaces: Vec<String>,
    /// Kotlin `internal` top-level names, in any order.
    pub(crate) internal_names: Vec<String>,
}

/// Orders members by source position (stable), keeps the first of each
/// `(owner, name)` and the first [`MAX_MEMBERS`] of those; also returns how
/// many distinct members were left out past the cap.
pub(crate) fn finish_members(mut found: Vec<FoundMember>) -> (Vec<Member>, u32) {
    found.sort_by_key(|f| f.pos);
    let mut seen: HashSet<(&str, &str)> = HashSet::with_capacity(found.len());
    let keep: Vec<bool> = found
        .iter()
        .map(|f| seen.insert((f.member.owner.as_str(), f.member.name.as_str())))
        .collect();
    drop(seen);
    let mut members = Vec::new();
    let mut left_out: u32 = 0;
    for (found, keep) in found.into_iter().zip(keep) {
        if !keep {
            continue;
        }
        if members.len() < MAX_MEMBERS {
            members.push(found.member);
        } else {
            left_out = left_out.saturating_add(1);
        }
    }
    (members, left_out)
}

/// Orders symbols by source position (stable, so ties keep discovery order)
/// and keeps the first of each `(name, reexport)`.
pub(crate) fn finish_symbols(mut found: Vec<FoundSymbol>) -> Vec<Symbol> {
    found.sort_by_key(|f| f.pos);
    let mut seen = HashSet::new();
    found
        .into_iter()
        .filter(|f| seen.insert((f.symbol.name.clone(), f.symbol.reexport)))
        .map(|f| f.symbol)
        .collect()
}

/// Orders imports by source position (stable).
pub(crate) fn finish_imports(mut found: Vec<FoundImport>) -> Vec<Import> {
    found.sort_by_key(|f| f.pos);
    found.into_iter().map(|f| f.import).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_count_ignores_a_trailing_newline() {
        assert_eq!(line_count(b""), 0);
        assert_eq!(line_count(b"\n"), 1);
        assert_eq!(line_count(b"a"), 1);
        assert_eq!(line_count(b"a\n"), 1);
        assert_eq!(line_count(b"a\nb"), 2);
        assert_eq!(line_count(b"a\r\nb\r\n"), 2);
        assert_eq!(line_count(b"\n\n"), 2);
    }

    #[test]
    fn unescape_decodes_common_escapes_only() {
        assert_eq!(unescape("\\n"), Some('\n'));
        assert_eq!(unescape("\\'"), Some('\''));
        assert_eq!(unescape("\\\\"), Some('\\'));
        assert_eq!(unescape("\\x41"), Some('A'));
        assert_eq!(unescape("\\u0041"), Some('A'));
        assert_eq!(unescape("\\u{1F600}"), Some('😀'));
        assert_eq!(unescape("\\q"), None);
        assert_eq!(unescape("\\u{FFFFFFFFF}"), None);
        assert_eq!(unescape("\\"), None);
        assert_eq!(unescape("n"), None);
    }
}
