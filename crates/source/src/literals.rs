//! The literal values a Python module assigns at its top level, read without running it: what
//! a configuration written as Python (Sphinx's `conf.py`) says in plain values.
//!
//! Only values written out are read: strings, lists, tuples and dictionaries of them. A value
//! computed at run time (a name, a call, a comprehension, an f-string) is [`Literal::Other`],
//! and so is anything inside it; a reader takes such a setting as unknown.

use tree_sitter::Node;

use crate::common::{Ctx, line_count, named_children};
use crate::{Language, parse};

/// A value as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Literal {
    /// A plain string (no f-string, no bytes; implicit concatenations joined).
    Str(String),
    /// A list or a tuple.
    List(Vec<Literal>),
    /// A dictionary whose keys are plain strings, in source order.
    Dict(Vec<(String, Literal)>),
    /// Anything computed.
    Other,
}

impl Literal {
    /// The strings of a string, or of a list of strings (what `source_suffix` and
    /// `exclude_patterns` hold); `None` when any part is not a plain string.
    pub fn strings(&self) -> Option<Vec<&str>> {
        match self {
            Literal::Str(text) => Some(vec![text.as_str()]),
            Literal::List(items) => items
                .iter()
                .map(|item| match item {
                    Literal::Str(text) => Some(text.as_str()),
                    _ => None,
                })
                .collect(),
            Literal::Dict(_) | Literal::Other => None,
        }
    }
}

/// One top-level assignment: `name = value`, or `name += value` (`augmented`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    /// The name assigned to.
    pub name: String,
    /// The value, as far as it is written out.
    pub value: Literal,
    /// `+=`: the value is added to what the name held.
    pub augmented: bool,
}

/// The top-level assignments of a Python module, in source order (statements inside `if`,
/// `try` or functions are not read: their effect depends on running the module). Empty when
/// the module does not parse within its budget.
pub fn python_assignments(source: &[u8]) -> Vec<Assignment> {
    if source.is_empty() || u32::try_from(source.len()).is_err() {
        return Vec::new();
    }
    let Some(tree) = parse(Language::Python, source) else {
        return Vec::new();
    };
    let ctx = Ctx::new(source, line_count(source));
    let mut out = Vec::new();
    for statement in named_children(tree.root_node()) {
        if statement.kind() != "expression_statement" {
            continue;
        }
        for assignment in named_children(statement) {
            let augmented = match assignment.kind() {
                "assignment" => false,
                "augmented_assignment" => {
                    let operator = assignment.child_by_field_name("operator");
                    if ctx.text_of(operator) != Some("+=") {
                        continue;
                    }
                    true
                }
                _ => continue,
            };
            let left = assignment.child_by_field_name("left");
            let Some(name) = left.filter(|n| n.kind() == "identifier") else {
                continue;
            };
            let (Some(name), Some(right)) =
                (ctx.text(name), assignment.child_by_field_name("right"))
            else {
                continue;
            };
            out.push(Assignment {
                name: name.to_owned(),
                value: literal(&ctx, right),
                augmented,
            });
        }
    }
    out
}

/// The literal `node` writes.
fn literal(ctx: &Ctx<'_>, node: Node<'_>) -> Literal {
    let value = match node.kind() {
        "string" => string(ctx, node).map(Literal::Str),
        "concatenated_string" => named_children(node)
            .into_iter()
            .map(|part| string(ctx, part))
            .collect::<Option<Vec<String>>>()
            .map(|parts| Literal::Str(parts.concat())),
        "list" | "tuple" => Some(Literal::List(
            named_children(node)
                .into_iter()
                .filter(|item| item.kind() != "comment")
                .map(|item| literal(ctx, item))
                .collect(),
        )),
        "dictionary" => named_children(node)
            .into_iter()
            .filter(|item| item.kind() != "comment")
            .map(|pair| {
                let key = pair
                    .child_by_field_name("key")
                    .filter(|_| pair.kind() == "pair")
                    .and_then(|key| string(ctx, key))?;
                let value = pair.child_by_field_name("value")?;
                Some((key, literal(ctx, value)))
            })
            .collect::<Option<Vec<_>>>()
            .map(Literal::Dict),
        "parenthesized_expression" => match named_children(node).as_slice() {
            [inner] => Some(literal(ctx, *inner)),
            _ => None,
        },
        _ => None,
    };
    value.unwrap_or(Literal::Other)
}

/// A plain string literal's value: escapes decoded; `None` for f-strings, byte strings and
/// anything interpolated.
fn string(ctx: &Ctx<'_>, node: Node<'_>) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let start = node.child(0).filter(|n| n.kind() == "string_start")?;
    let prefix = ctx.text(start)?;
    if prefix
        .chars()
        .any(|c| matches!(c, 'f' | 'F' | 'b' | 'B' | 't' | 'T'))
    {
        return None;
    }
    let raw = prefix.chars().any(|c| matches!(c, 'r' | 'R'));
    if raw {
        let mut value = String::new();
        for child in named_children(node) {
            match child.kind() {
                "string_start" | "string_end" => {}
                "string_content" | "escape_sequence" => value.push_str(ctx.text(child)?),
                _ => return None,
            }
        }
        return Some(value);
    }
    let mut value = String::new();
    for child in named_children(node) {
        match child.kind() {
            "string_start" | "string_end" => {}
            "string_content" => {
                // Escapes sit inside the content node.
                let mut at = child.start_byte();
                for escape in named_children(child) {
                    if escape.kind() != "escape_sequence" {
                        return None;
                    }
                    value.push_str(ctx.src_str(at..escape.start_byte())?);
                    value.push(crate::common::unescape(ctx.text(escape)?)?);
                    at = escape.end_byte();
                }
                value.push_str(ctx.src_str(at..child.end_byte())?);
            }
            _ => return None,
        }
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn values(source: &str) -> Vec<(String, Literal, bool)> {
        python_assignments(source.as_bytes())
            .into_iter()
            .map(|a| (a.name, a.value, a.augmented))
            .collect()
    }

    fn s(text: &str) -> Literal {
        Literal::Str(text.to_owned())
    }

    #[test]
    fn top_level_literals_are_read_and_computed_values_are_other() {
        let source = r#"
import os
project = 'Lamp'
source_suffix = {".rst": "restructuredtext", '.md': 'markdown'}
exclude_patterns = ['_build', "Thumbs.db",  # a comment
    '**/*.inc.rst']
exclude_patterns += ["changes", 'a' 'b']
templates_path = ('_templates',)
root_doc = os.environ.get("ROOT", "index")
gallery = [f'{d}' for d in ['x']]
version = f"{major}.1"
escaped = 'tab\there\\'
raw = r'\d+\.txt'
if True:
    hidden = 'no'
def f():
    inside = 'no'
"#;
        assert_eq!(
            values(source),
            vec![
                ("project".to_owned(), s("Lamp"), false),
                (
                    "source_suffix".to_owned(),
                    Literal::Dict(vec![
                        (".rst".to_owned(), s("restructuredtext")),
                        (".md".to_owned(), s("markdown")),
                    ]),
                    false
                ),
                (
                    "exclude_patterns".to_owned(),
                    Literal::List(vec![s("_build"), s("Thumbs.db"), s("**/*.inc.rst")]),
                    false
                ),
                (
                    "exclude_patterns".to_owned(),
                    Literal::List(vec![s("changes"), s("ab")]),
                    true
                ),
                (
                    "templates_path".to_owned(),
                    Literal::List(vec![s("_templates")]),
                    false
                ),
                ("root_doc".to_owned(), Literal::Other, false),
                ("gallery".to_owned(), Literal::Other, false),
                ("version".to_owned(), Literal::Other, false),
                ("escaped".to_owned(), s("tab\there\\"), false),
                ("raw".to_owned(), s("\\d+\\.txt"), false),
            ]
        );
        assert_eq!(
            Literal::List(vec![s("a"), Literal::Other]).strings(),
            None,
            "a list with a computed item is not a list of strings"
        );
        assert_eq!(s(".txt").strings(), Some(vec![".txt"]));
    }

    #[test]
    fn anything_that_does_not_parse_reads_as_nothing_or_other() {
        assert!(python_assignments(b"").is_empty());
        assert_eq!(
            values("x = [1, 'a'\ny = 'b'"),
            values("x = [1, 'a'\ny = 'b'"),
            "deterministic on broken input"
        );
        for source in [
            "x = ",
            "= 'a'",
            "x: int = 'a'",
            "x, y = 'a', 'b'",
            "x.y = 'a'",
        ] {
            for (_, value, _) in values(source) {
                assert!(matches!(
                    value,
                    Literal::Other | Literal::Str(_) | Literal::List(_)
                ));
            }
        }
    }
}
