//! Kotlin.
//!
//! Exported: top-level declarations that are not `private` or `internal` (Kotlin's default
//! visibility is public): classes (`class`, `data class`, `sealed class`, `annotation class`),
//! interfaces, enum classes, objects, type aliases, functions (extension functions by their own
//! name) and properties (`const val` is a constant).
//!
//! Members: of every top-level class, interface and object, what other code can reach (neither
//! `private` nor `internal`): functions, properties, `val`/`var` parameters of the primary
//! constructor, enum entries, and the functions and properties of a companion object (as
//! associated functions and fields of the enclosing type). Nested types are left out.
//!
//! Imports: `import a.b.C` as `a.b.C`, `import a.b.*` as `a.b.*` (an alias does not change
//! what is imported). The names of `internal` top-level declarations are recorded apart
//! ([`crate::SourceFacts::internal_names`]): other files of the module import them.

use tree_sitter::Node;

use crate::common::{
    Ctx, Found, FoundImport, FoundMember, FoundSymbol, named_child_of_kind, named_children,
};
use crate::{ImportKind, MemberKind, SymbolKind};

pub(crate) fn analyze(ctx: &Ctx<'_>, root: Node<'_>) -> Found {
    let mut found = Found::default();
    for node in named_children(root) {
        match node.kind() {
            "import_list" => {
                for header in named_children(node) {
                    import(ctx, header, &mut found.imports);
                }
            }
            "import_header" => import(ctx, node, &mut found.imports),
            _ => {
                if has_modifier(ctx, node, "internal") {
                    internal_names(ctx, node, &mut found.internal_names);
                }
                declaration(ctx, node, &mut found);
            }
        }
    }
    found
}

/// The names an `internal` top-level declaration gives: not exported, but importable from the
/// other files of its module (`import a.b.helper` of an `internal fun helper`).
fn internal_names(ctx: &Ctx<'_>, node: Node<'_>, out: &mut Vec<String>) {
    let names = match node.kind() {
        "class_declaration" | "object_declaration" | "type_alias" => {
            named_child_of_kind(node, "type_identifier")
                .into_iter()
                .collect()
        }
        "function_declaration" => named_child_of_kind(node, "simple_identifier")
            .into_iter()
            .collect(),
        "property_declaration" => property_names(node),
        _ => Vec::new(),
    };
    out.extend(
        names
            .into_iter()
            .filter_map(|n| ctx.text(n))
            .map(str::to_owned),
    );
}

/// A top-level declaration: its symbol when visible outside the module, and the members of a
/// type.
fn declaration(ctx: &Ctx<'_>, node: Node<'_>, found: &mut Found) {
    let visible = visible(ctx, node);
    match node.kind() {
        "class_declaration" | "object_declaration" => {
            let Some(name_node) = named_child_of_kind(node, "type_identifier") else {
                return;
            };
            let Some(name) = ctx.text(name_node) else {
                return;
            };
            if visible {
                let kind = type_kind(ctx, node);
                found
                    .symbols
                    .push(FoundSymbol::local(ctx, name_node, name, kind));
            }
            members(ctx, node, name, &mut found.members);
        }
        "type_alias" => {
            if let Some(name_node) = named_child_of_kind(node, "type_identifier")
                && let Some(name) = ctx.text(name_node)
                && visible
            {
                found
                    .symbols
                    .push(FoundSymbol::local(ctx, name_node, name, SymbolKind::Type));
            }
        }
        "function_declaration" => {
            if let Some(name_node) = named_child_of_kind(node, "simple_identifier")
                && let Some(name) = ctx.text(name_node)
                && visible
            {
                found.symbols.push(FoundSymbol::local(
                    ctx,
                    name_node,
                    name,
                    SymbolKind::Function,
                ));
            }
        }
        "property_declaration" => {
            if !visible {
                return;
            }
            let kind = if has_modifier(ctx, node, "const") {
                SymbolKind::Const
            } else {
                SymbolKind::Variable
            };
            for name_node in property_names(node) {
                if let Some(name) = ctx.text(name_node) {
                    found
                        .symbols
                        .push(FoundSymbol::local(ctx, name_node, name, kind));
                }
            }
        }
        _ => {}
    }
}

/// Class, interface, enum or object: the grammar tells them apart by their keyword.
fn type_kind(ctx: &Ctx<'_>, node: Node<'_>) -> SymbolKind {
    let mut cursor = node.walk();
    let keywords: Vec<&str> = node
        .children(&mut cursor)
        .filter(|c| !c.is_named())
        .filter_map(|c| ctx.text(c))
        .collect();
    if keywords.contains(&"interface") {
        SymbolKind::Interface
    } else if keywords.contains(&"enum") || has_modifier(ctx, node, "enum") {
        SymbolKind::Enum
    } else {
        SymbolKind::Class
    }
}

/// The members of the top-level type `node`, named `owner`.
fn members(ctx: &Ctx<'_>, node: Node<'_>, owner: &str, out: &mut Vec<FoundMember>) {
    for part in named_children(node) {
        match part.kind() {
            "primary_constructor" => {
                for parameter in named_children(part) {
                    if parameter.kind() == "class_parameter"
                        && named_child_of_kind(parameter, "binding_pattern_kind").is_some()
                        && visible(ctx, parameter)
                        && let Some(name) = named_child_of_kind(parameter, "simple_identifier")
                    {
                        out.extend(FoundMember::new(ctx, name, owner, MemberKind::Field));
                    }
                }
            }
            "class_body" | "enum_class_body" => body_members(ctx, part, owner, false, out),
            _ => {}
        }
    }
}

/// The reachable declarations of a class body; `companion` for a companion object's body,
/// whose functions belong to the type rather than to an instance.
fn body_members(
    ctx: &Ctx<'_>,
    body: Node<'_>,
    owner: &str,
    companion: bool,
    out: &mut Vec<FoundMember>,
) {
    for member in named_children(body) {
        match member.kind() {
            "enum_entry" => {
                if let Some(name) = named_child_of_kind(member, "simple_identifier") {
                    out.extend(FoundMember::new(ctx, name, owner, MemberKind::Constant));
                }
            }
            "function_declaration" if visible(ctx, member) => {
                let kind = if companion {
                    MemberKind::AssociatedFunction
                } else {
                    MemberKind::Method
                };
                if let Some(name) = named_child_of_kind(member, "simple_identifier") {
                    out.extend(FoundMember::new(ctx, name, owner, kind));
                }
            }
            "property_declaration" if visible(ctx, member) => {
                let kind = if has_modifier(ctx, member, "const") {
                    MemberKind::Constant
                } else {
                    MemberKind::Field
                };
                for name in property_names(member) {
                    out.extend(FoundMember::new(ctx, name, owner, kind));
                }
            }
            // Only the companion's own body, never a nested class's: no recursion deeper.
            "companion_object" if !companion && visible(ctx, member) => {
                if let Some(inner) = named_child_of_kind(member, "class_body") {
                    body_members(ctx, inner, owner, true, out);
                }
            }
            _ => {}
        }
    }
}

/// The names a property declares: one, or several for a destructuring declaration.
fn property_names(node: Node<'_>) -> Vec<Node<'_>> {
    let mut names = Vec::new();
    for part in named_children(node) {
        match part.kind() {
            "variable_declaration" => names.extend(named_child_of_kind(part, "simple_identifier")),
            "multi_variable_declaration" => {
                for variable in named_children(part) {
                    names.extend(named_child_of_kind(variable, "simple_identifier"));
                }
            }
            _ => {}
        }
    }
    names
}

/// Neither `private` nor `internal`.
fn visible(ctx: &Ctx<'_>, node: Node<'_>) -> bool {
    !has_modifier(ctx, node, "private") && !has_modifier(ctx, node, "internal")
}

/// True when the declaration's `modifiers` include the keyword `word`.
fn has_modifier(ctx: &Ctx<'_>, node: Node<'_>, word: &str) -> bool {
    let modifiers = named_children(node)
        .into_iter()
        .filter(|n| matches!(n.kind(), "modifiers" | "parameter_modifiers"));
    modifiers
        .flat_map(named_children)
        .any(|modifier| ctx.text(modifier) == Some(word))
}

/// `import a.b.C`, `import a.b.*`, `import a.b.C as D`.
fn import(ctx: &Ctx<'_>, node: Node<'_>, out: &mut Vec<FoundImport>) {
    if node.kind() != "import_header" {
        return;
    }
    let Some(path) = named_child_of_kind(node, "identifier") else {
        return;
    };
    let parts: Option<Vec<&str>> = named_children(path)
        .into_iter()
        .filter(|n| n.kind() == "simple_identifier")
        .map(|n| ctx.text(n))
        .collect();
    let Some(parts) = parts.filter(|p| !p.is_empty()) else {
        return;
    };
    let mut specifier = parts.join(".");
    if named_child_of_kind(node, "wildcard_import").is_some() {
        specifier.push_str(".*");
    }
    out.push(FoundImport::new(
        ctx,
        node,
        &specifier,
        ImportKind::Static,
        Vec::new(),
    ));
}

#[cfg(test)]
mod tests {
    use crate::test_support::{imports, member_rows, symbol_lines};
    use crate::{ImportKind, Language, MemberKind, SymbolKind, analyze};

    const SOURCE: &str = r#"package com.example.app

import kotlinx.coroutines.launch
import com.example.util.*
import com.example.Foo as Bar

/** A server. */
class Server(val port: Int, private val name: String, var x: Int, plain: Int) : Base() {
    val running: Boolean = false
    private var hidden = 1
    internal fun internalFn() {}
    fun start() {}
    protected open fun stop() {}
    companion object {
        const val DEFAULT = 80
        fun create(): Server = Server(1, "", 2, 3)
    }
    class Nested { fun n() {} }
}
interface Handler {
    fun handle(s: String)
}
enum class Color { RED, GREEN }
object Registry {
    fun register() {}
}
data class Point(val x: Int, val y: Int)
typealias Names = List<String>
fun topLevel() {}
private fun secret() {}
val answer = 42
const val LIMIT = 3
internal class Hidden { fun h() {} }
fun String.ext() = 1
"#;

    #[test]
    fn visible_declarations_are_exported_and_members_recorded() {
        assert_eq!(
            symbol_lines(Language::Kotlin, SOURCE),
            vec![
                ("Server".to_owned(), SymbolKind::Class, 8),
                ("Handler".to_owned(), SymbolKind::Interface, 20),
                ("Color".to_owned(), SymbolKind::Enum, 23),
                ("Registry".to_owned(), SymbolKind::Class, 24),
                ("Point".to_owned(), SymbolKind::Class, 27),
                ("Names".to_owned(), SymbolKind::Type, 28),
                ("topLevel".to_owned(), SymbolKind::Function, 29),
                ("answer".to_owned(), SymbolKind::Variable, 31),
                ("LIMIT".to_owned(), SymbolKind::Const, 32),
                ("ext".to_owned(), SymbolKind::Function, 34),
            ]
        );
        assert_eq!(
            member_rows(Language::Kotlin, SOURCE),
            vec![
                ("Server".into(), "port".into(), MemberKind::Field, 8),
                ("Server".into(), "x".into(), MemberKind::Field, 8),
                ("Server".into(), "running".into(), MemberKind::Field, 9),
                ("Server".into(), "start".into(), MemberKind::Method, 12),
                ("Server".into(), "stop".into(), MemberKind::Method, 13),
                ("Server".into(), "DEFAULT".into(), MemberKind::Constant, 15),
                (
                    "Server".into(),
                    "create".into(),
                    MemberKind::AssociatedFunction,
                    16
                ),
                ("Handler".into(), "handle".into(), MemberKind::Method, 21),
                ("Color".into(), "RED".into(), MemberKind::Constant, 23),
                ("Color".into(), "GREEN".into(), MemberKind::Constant, 23),
                ("Registry".into(), "register".into(), MemberKind::Method, 25),
                ("Point".into(), "x".into(), MemberKind::Field, 27),
                ("Point".into(), "y".into(), MemberKind::Field, 27),
                ("Hidden".into(), "h".into(), MemberKind::Method, 33),
            ]
        );
        assert_eq!(
            imports(Language::Kotlin, SOURCE),
            vec![
                (
                    "kotlinx.coroutines.launch".to_owned(),
                    ImportKind::Static,
                    vec![],
                    3
                ),
                (
                    "com.example.util.*".to_owned(),
                    ImportKind::Static,
                    vec![],
                    4
                ),
                ("com.example.Foo".to_owned(), ImportKind::Static, vec![], 5),
            ]
        );
        assert_eq!(
            analyze(Language::Kotlin, SOURCE.as_bytes()).internal_names,
            ["Hidden"]
        );
        let text = analyze(Language::Kotlin, SOURCE.as_bytes()).text;
        assert!(text.contains("A server."), "{text}");
        assert!(text.contains("register"), "{text}");
    }
}
