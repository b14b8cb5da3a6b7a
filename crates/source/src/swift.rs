//! Swift.
//!
//! Exported: top-level declarations marked `public` or `open` (Swift's default, `internal`, is
//! visible inside the module only, and `fileprivate`/`private` less): classes, actors,
//! structs, enums, protocols, type aliases, functions and properties (`let` is a constant).
//!
//! Members: of every top-level type and extension (`extension Foo` adds to `Foo`), those other
//! modules can reach: members marked `public` or `open`, members without an access modifier
//! inside a `public extension`, every requirement of a public protocol and every enum case of a
//! public enum. Functions and initializers (`init`) are methods, `static`/`class` functions
//! associated functions, properties fields. Nested types are left out.
//!
//! Imports: `import Foundation`, `import struct Foo.Bar`, `@testable import MyLib`, as the
//! dotted path.

use tree_sitter::Node;

use crate::common::{Ctx, Found, FoundImport, FoundMember, FoundSymbol, named_children};
use crate::{ImportKind, MemberKind, SymbolKind};

pub(crate) fn analyze(ctx: &Ctx<'_>, root: Node<'_>) -> Found {
    let mut found = Found::default();
    for node in named_children(root) {
        let public = access(ctx, node).is_some_and(Access::is_public);
        match node.kind() {
            "import_declaration" => import(ctx, node, &mut found.imports),
            "class_declaration" | "protocol_declaration" => type_declaration(ctx, node, &mut found),
            "typealias_declaration" if public => {
                let name = node.child_by_field_name("name");
                symbol(ctx, name, SymbolKind::Type, &mut found);
            }
            "function_declaration" if public => {
                let name = node.child_by_field_name("name");
                symbol(ctx, name, SymbolKind::Function, &mut found);
            }
            "property_declaration" if public => {
                let kind = if binding(ctx, node) == Some("let") {
                    SymbolKind::Const
                } else {
                    SymbolKind::Variable
                };
                for name in property_names(node) {
                    symbol(ctx, Some(name), kind, &mut found);
                }
            }
            _ => {}
        }
    }
    found
}

fn symbol(ctx: &Ctx<'_>, name_node: Option<Node<'_>>, kind: SymbolKind, found: &mut Found) {
    if let Some(name_node) = name_node
        && let Some(name) = ctx.text(name_node)
    {
        found
            .symbols
            .push(FoundSymbol::local(ctx, name_node, name, kind));
    }
}

/// A type or extension at top level: its symbol when public, and its reachable members.
fn type_declaration(ctx: &Ctx<'_>, node: Node<'_>, found: &mut Found) {
    let public = access(ctx, node).is_some_and(Access::is_public);
    let keyword = node
        .child_by_field_name("declaration_kind")
        .and_then(|k| ctx.text(k));
    let Some(name_node) = node.child_by_field_name("name") else {
        return;
    };
    if keyword == Some("extension") {
        // `extension Outer.Inner` extends `Inner`.
        let owner = named_children(name_node)
            .into_iter()
            .rfind(|n| n.kind() == "type_identifier")
            .and_then(|n| ctx.text(n));
        if let Some(owner) = owner {
            let members_default = if public { Rule::Public } else { Rule::Marked };
            members(ctx, node, owner, members_default, &mut found.members);
        }
        return;
    }
    let Some(name) = ctx.text(name_node) else {
        return;
    };
    let kind = match keyword {
        Some("struct") => SymbolKind::Struct,
        Some("enum") => SymbolKind::Enum,
        Some("protocol") => SymbolKind::Interface,
        _ => SymbolKind::Class,
    };
    if public {
        found
            .symbols
            .push(FoundSymbol::local(ctx, name_node, name, kind));
    }
    let rule = if public && kind == SymbolKind::Interface {
        Rule::Public
    } else {
        Rule::Marked
    };
    members(ctx, node, name, rule, &mut found.members);
}

/// Which members of a body other modules reach.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Those marked `public` or `open`.
    Marked,
    /// Those without an access modifier too (a public protocol's requirements, the members of
    /// a `public extension`).
    Public,
}

fn members(ctx: &Ctx<'_>, node: Node<'_>, owner: &str, rule: Rule, out: &mut Vec<FoundMember>) {
    let Some(body) = node.child_by_field_name("body") else {
        return;
    };
    let type_public = access(ctx, node).is_some_and(Access::is_public);
    for member in named_children(body) {
        let reachable = match access(ctx, member) {
            Some(access) => access.is_public(),
            None => rule == Rule::Public,
        };
        match member.kind() {
            // An enum's cases are as visible as the enum.
            "enum_entry" if type_public => {
                let mut cursor = member.walk();
                let names: Vec<Node<'_>> =
                    member.children_by_field_name("name", &mut cursor).collect();
                for name in names {
                    out.extend(FoundMember::new(ctx, name, owner, MemberKind::Constant));
                }
            }
            "function_declaration" | "protocol_function_declaration" if reachable => {
                let kind = if has_modifier(ctx, member, &["static", "class"]) {
                    MemberKind::AssociatedFunction
                } else {
                    MemberKind::Method
                };
                if let Some(name) = member.child_by_field_name("name") {
                    out.extend(FoundMember::new(ctx, name, owner, kind));
                }
            }
            "init_declaration" if reachable => {
                if let Some(name) = member.child_by_field_name("name") {
                    out.extend(FoundMember::new(ctx, name, owner, MemberKind::Method));
                }
            }
            "property_declaration" | "protocol_property_declaration" if reachable => {
                for name in property_names(member) {
                    out.extend(FoundMember::new(ctx, name, owner, MemberKind::Field));
                }
            }
            _ => {}
        }
    }
}

/// The access level written on a declaration.
#[derive(Clone, Copy)]
enum Access {
    Public,
    Restricted,
}

impl Access {
    fn is_public(self) -> bool {
        matches!(self, Access::Public)
    }
}

/// `Some(Public)` for `public`/`open`, `Some(Restricted)` for `internal`, `fileprivate` and
/// `private` (a setter-only restriction such as `private(set)` leaves the getter's level),
/// `None` when no access is written.
fn access(ctx: &Ctx<'_>, node: Node<'_>) -> Option<Access> {
    let modifiers = named_children(node)
        .into_iter()
        .find(|n| n.kind() == "modifiers")?;
    let mut level = None;
    for modifier in named_children(modifiers) {
        if modifier.kind() != "visibility_modifier" {
            continue;
        }
        let text = ctx.text(modifier).unwrap_or_default();
        if text.contains('(') {
            continue;
        }
        level = Some(match text {
            "public" | "open" => Access::Public,
            _ => Access::Restricted,
        });
    }
    level
}

fn has_modifier(ctx: &Ctx<'_>, node: Node<'_>, words: &[&str]) -> bool {
    named_children(node)
        .into_iter()
        .filter(|n| n.kind() == "modifiers")
        .flat_map(named_children)
        .any(|m| ctx.text(m).is_some_and(|t| words.contains(&t)))
}

/// `let` or `var` of a property declaration.
fn binding<'s>(ctx: &Ctx<'s>, node: Node<'_>) -> Option<&'s str> {
    let pattern = named_children(node)
        .into_iter()
        .find(|n| n.kind() == "value_binding_pattern")?;
    ctx.text_of(pattern.child_by_field_name("mutability"))
}

/// The names a property declaration binds (`let a = 1, b = 2` binds two).
fn property_names(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    let patterns: Vec<Node<'_>> = node.children_by_field_name("name", &mut cursor).collect();
    patterns
        .into_iter()
        .filter_map(|p| p.child_by_field_name("bound_identifier"))
        .collect()
}

/// `import A.B`, with any attribute or kind keyword before the path.
fn import(ctx: &Ctx<'_>, node: Node<'_>, out: &mut Vec<FoundImport>) {
    let Some(path) = named_children(node)
        .into_iter()
        .find(|n| n.kind() == "identifier")
    else {
        return;
    };
    let parts: Option<Vec<&str>> = named_children(path)
        .into_iter()
        .map(|n| ctx.text(n))
        .collect();
    let Some(parts) = parts.filter(|p| !p.is_empty()) else {
        return;
    };
    out.push(FoundImport::new(
        ctx,
        node,
        &parts.join("."),
        ImportKind::Static,
        Vec::new(),
    ));
}

#[cfg(test)]
mod tests {
    use crate::test_support::{imports, member_rows, symbol_lines};
    use crate::{ImportKind, Language, MemberKind, SymbolKind, analyze};

    const SOURCE: &str = r#"import Foundation
@testable import MyLib

/// A server.
public class Server: Base {
    public let port: Int
    open var name: String = ""
    public private(set) var count = 0
    var internalOnly = 1
    private func hidden() {}
    public init(port: Int) { self.port = port }
    public func start() {}
    public static func make() -> Server { Server(port: 1) }
    public class Nested {}
}
public struct Point { public var x: Int; let y: Int }
public enum Color {
    case red, green
    case blue(Int)
}
public protocol Handler {
    func handle(_ s: String)
    var name: String { get }
}
public func topLevel() {}
func internalFn() {}
public let answer = 42
public typealias Names = [String]
extension Server {
    public func extra() {}
    func notPublic() {}
}
public extension Point {
    func moved() -> Point { self }
    private func secret() {}
}
open class Base {}
struct Internal { public func reachableOnlyInside() {} }
"#;

    #[test]
    fn public_declarations_are_exported_and_reachable_members_recorded() {
        assert_eq!(
            symbol_lines(Language::Swift, SOURCE),
            vec![
                ("Server".to_owned(), SymbolKind::Class, 5),
                ("Point".to_owned(), SymbolKind::Struct, 16),
                ("Color".to_owned(), SymbolKind::Enum, 17),
                ("Handler".to_owned(), SymbolKind::Interface, 21),
                ("topLevel".to_owned(), SymbolKind::Function, 25),
                ("answer".to_owned(), SymbolKind::Const, 27),
                ("Names".to_owned(), SymbolKind::Type, 28),
                ("Base".to_owned(), SymbolKind::Class, 37),
            ]
        );
        assert_eq!(
            member_rows(Language::Swift, SOURCE),
            vec![
                ("Server".into(), "port".into(), MemberKind::Field, 6),
                ("Server".into(), "name".into(), MemberKind::Field, 7),
                ("Server".into(), "count".into(), MemberKind::Field, 8),
                ("Server".into(), "init".into(), MemberKind::Method, 11),
                ("Server".into(), "start".into(), MemberKind::Method, 12),
                (
                    "Server".into(),
                    "make".into(),
                    MemberKind::AssociatedFunction,
                    13
                ),
                ("Point".into(), "x".into(), MemberKind::Field, 16),
                ("Color".into(), "red".into(), MemberKind::Constant, 18),
                ("Color".into(), "green".into(), MemberKind::Constant, 18),
                ("Color".into(), "blue".into(), MemberKind::Constant, 19),
                ("Handler".into(), "handle".into(), MemberKind::Method, 22),
                ("Handler".into(), "name".into(), MemberKind::Field, 23),
                ("Server".into(), "extra".into(), MemberKind::Method, 30),
                ("Point".into(), "moved".into(), MemberKind::Method, 34),
                (
                    "Internal".into(),
                    "reachableOnlyInside".into(),
                    MemberKind::Method,
                    38
                ),
            ]
        );
        assert_eq!(
            imports(Language::Swift, SOURCE),
            vec![
                ("Foundation".to_owned(), ImportKind::Static, vec![], 1),
                ("MyLib".to_owned(), ImportKind::Static, vec![], 2),
            ]
        );
        let facts = analyze(Language::Swift, SOURCE.as_bytes());
        assert_eq!(facts.syntax_error_count, 0, "{:?}", facts.syntax_errors);
        assert!(facts.text.contains("A server."), "{}", facts.text);
    }
}
