//! C#.
//!
//! Exported: types declared `public` at namespace level (in a block or file-scoped namespace,
//! or outside any): classes, structs, interfaces, enums, records and delegates. A type without
//! an access modifier is `internal` to its assembly and is not a module symbol.
//!
//! Members: of every namespace-level type, what other code can reach: `public` and `protected`
//! methods, constructors, properties, events and fields (a `const` is a constant), every member
//! of an interface, every enum member. Nested types and `private`/`internal` members are left
//! out.
//!
//! Imports: `using A.B;`, `using static A.B.C;`, `using Alias = A.B;` and `global using`, each
//! as the namespace or type it names. The namespaces the module declares are recorded, fully
//! qualified (`namespace A { namespace B` declares `A` and `A.B`), for resolving usings.

use tree_sitter::Node;

use crate::common::{
    Ctx, Found, FoundImport, FoundMember, children_through_conditionals, declared_type,
    named_children,
};
use crate::{ImportKind, MemberKind, SymbolKind};

/// The usings and types of the compilation unit and of every namespace in it, however deep
/// (an explicit stack: nesting must not use the call stack). The order found does not matter:
/// facts are sorted by position afterwards.
pub(crate) fn analyze(ctx: &Ctx<'_>, root: Node<'_>) -> Found {
    let mut found = Found::default();
    let mut pending = vec![(root, String::new())];
    while let Some((node, namespace)) = pending.pop() {
        declarations(ctx, node, &namespace, &mut found, &mut pending);
    }
    found
}

/// The usings and types directly inside `node` (a compilation unit or a namespace's body,
/// inside `namespace`, `""` at the top); namespaces inside it are recorded, fully qualified,
/// and go to `pending`.
fn declarations<'t>(
    ctx: &Ctx<'_>,
    node: Node<'t>,
    namespace: &str,
    found: &mut Found,
    pending: &mut Vec<(Node<'t>, String)>,
) {
    for child in children_through_conditionals(node) {
        match child.kind() {
            "using_directive" => using(ctx, child, &mut found.imports),
            "namespace_declaration" => {
                let inner = qualified_namespace(ctx, child, namespace);
                if let Some(body) = child.child_by_field_name("body") {
                    pending.push((body, inner.clone().unwrap_or_else(|| namespace.to_owned())));
                }
                found.namespaces.extend(inner);
            }
            // Its types follow it as siblings; what it holds itself is read the same way.
            "file_scoped_namespace_declaration" => {
                let inner = qualified_namespace(ctx, child, namespace);
                pending.push((child, inner.clone().unwrap_or_else(|| namespace.to_owned())));
                found.namespaces.extend(inner);
            }
            kind => {
                let Some(symbol_kind) = type_kind(kind) else {
                    continue;
                };
                let public = modifiers(ctx, child).public;
                if let Some(name) =
                    declared_type(ctx, child, symbol_kind, public, &mut found.symbols)
                {
                    members(ctx, child, name, &mut found.members);
                }
            }
        }
    }
}

/// The full name of the namespace `node` declares inside `outer` (`A.B` in `A`: `A.B.C`).
fn qualified_namespace(ctx: &Ctx<'_>, node: Node<'_>, outer: &str) -> Option<String> {
    let name: String = ctx
        .text_of(node.child_by_field_name("name"))?
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if name.is_empty() {
        None
    } else if outer.is_empty() {
        Some(name)
    } else {
        Some(format!("{outer}.{name}"))
    }
}

/// The symbol kind of a type declaration's node kind; `None` for other nodes.
fn type_kind(kind: &str) -> Option<SymbolKind> {
    match kind {
        "class_declaration" | "record_declaration" => Some(SymbolKind::Class),
        "struct_declaration" | "record_struct_declaration" => Some(SymbolKind::Struct),
        "interface_declaration" => Some(SymbolKind::Interface),
        "enum_declaration" => Some(SymbolKind::Enum),
        "delegate_declaration" => Some(SymbolKind::Type),
        _ => None,
    }
}

/// The access and storage modifiers a declaration carries.
#[derive(Default)]
struct Modifiers {
    public: bool,
    protected: bool,
    constant: bool,
}

fn modifiers(ctx: &Ctx<'_>, node: Node<'_>) -> Modifiers {
    let mut found = Modifiers::default();
    for modifier in named_children(node)
        .into_iter()
        .filter(|n| n.kind() == "modifier")
    {
        match ctx.text(modifier) {
            Some("public") => found.public = true,
            Some("protected") => found.protected = true,
            Some("const") => found.constant = true,
            _ => {}
        }
    }
    found
}

/// The reachable members of the namespace-level type `node`, named `owner`.
fn members(ctx: &Ctx<'_>, node: Node<'_>, owner: &str, out: &mut Vec<FoundMember>) {
    let Some(body) = node.child_by_field_name("body").or_else(|| {
        named_children(node).into_iter().find(|n| {
            matches!(
                n.kind(),
                "declaration_list" | "enum_member_declaration_list"
            )
        })
    }) else {
        return;
    };
    let interface = node.kind() == "interface_declaration";
    for member in children_through_conditionals(body) {
        let m = modifiers(ctx, member);
        let reachable = interface || m.public || m.protected;
        match member.kind() {
            "enum_member_declaration" => {
                if let Some(name) = name_of(member) {
                    out.extend(FoundMember::new(ctx, name, owner, MemberKind::Constant));
                }
            }
            "method_declaration" | "constructor_declaration" | "operator_declaration" => {
                if reachable && let Some(name) = name_of(member) {
                    out.extend(FoundMember::new(ctx, name, owner, MemberKind::Method));
                }
            }
            "property_declaration" | "event_declaration" => {
                if reachable && let Some(name) = name_of(member) {
                    out.extend(FoundMember::new(ctx, name, owner, MemberKind::Field));
                }
            }
            "field_declaration" | "event_field_declaration" => {
                if !reachable {
                    continue;
                }
                let kind = if m.constant {
                    MemberKind::Constant
                } else {
                    MemberKind::Field
                };
                let declaration = named_children(member)
                    .into_iter()
                    .find(|n| n.kind() == "variable_declaration");
                for declarator in declaration
                    .map(named_children)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|n| n.kind() == "variable_declarator")
                {
                    if let Some(name) = name_of(declarator) {
                        out.extend(FoundMember::new(ctx, name, owner, kind));
                    }
                }
            }
            _ => {}
        }
    }
}

/// A declaration's name: its `name` field, else its first identifier.
fn name_of(node: Node<'_>) -> Option<Node<'_>> {
    node.child_by_field_name("name").or_else(|| {
        named_children(node)
            .into_iter()
            .find(|n| n.kind() == "identifier")
    })
}

/// `[global] using [static] [Alias =] A.B;`: the name after any alias.
fn using(ctx: &Ctx<'_>, node: Node<'_>, out: &mut Vec<FoundImport>) {
    let names: Vec<Node<'_>> = named_children(node)
        .into_iter()
        .filter(|n| matches!(n.kind(), "qualified_name" | "identifier"))
        .collect();
    let Some(target) = names.last().and_then(|n| ctx.text(*n)) else {
        return;
    };
    let target: String = target.chars().filter(|c| !c.is_whitespace()).collect();
    out.push(FoundImport::new(
        ctx,
        node,
        &target,
        ImportKind::Static,
        Vec::new(),
    ));
}

#[cfg(test)]
mod tests {
    use crate::test_support::{member_rows, symbol_lines};
    use crate::{Language, MemberKind, SymbolKind, analyze};

    const SOURCE: &str = r#"using System;
using static System.Math;
using Json = System.Text.Json;
global using System.Linq;

namespace Example.App
{
    /// <summary>Serves.</summary>
    [Serializable]
    public class Server : IDisposable
    {
        public const int Port = 80;
        private readonly string name;
        protected int a, b;
        public string Name { get; set; }
        public event EventHandler Changed;
        public Server(string name) { this.name = name; }
        public void Start() { }
        internal void Hidden() { }
        public class Inner { public void Nested() { } }
    }
    class Helper { public void Help() { } }
    public interface IHandler { void Handle(string s); }
    public enum Color { Red, Green }
    public struct Point { public int X; }
    public record Person(string First);
    public delegate void Callback(int x);
}
"#;

    #[test]
    fn public_types_are_exported_and_reachable_members_recorded() {
        let facts = analyze(Language::CSharp, SOURCE.as_bytes());
        let symbols = symbol_lines(Language::CSharp, SOURCE);
        assert_eq!(
            symbols,
            vec![
                ("Server".to_owned(), SymbolKind::Class, 10),
                ("IHandler".to_owned(), SymbolKind::Interface, 23),
                ("Color".to_owned(), SymbolKind::Enum, 24),
                ("Point".to_owned(), SymbolKind::Struct, 25),
                ("Person".to_owned(), SymbolKind::Class, 26),
                ("Callback".to_owned(), SymbolKind::Type, 27),
            ]
        );
        let members: Vec<(String, String, MemberKind)> = member_rows(Language::CSharp, SOURCE)
            .into_iter()
            .map(|(owner, name, kind, _)| (owner, name, kind))
            .collect();
        assert_eq!(
            members,
            vec![
                ("Server".into(), "Port".into(), MemberKind::Constant),
                ("Server".into(), "a".into(), MemberKind::Field),
                ("Server".into(), "b".into(), MemberKind::Field),
                ("Server".into(), "Name".into(), MemberKind::Field),
                ("Server".into(), "Changed".into(), MemberKind::Field),
                ("Server".into(), "Server".into(), MemberKind::Method),
                ("Server".into(), "Start".into(), MemberKind::Method),
                ("Helper".into(), "Help".into(), MemberKind::Method),
                ("IHandler".into(), "Handle".into(), MemberKind::Method),
                ("Color".into(), "Red".into(), MemberKind::Constant),
                ("Color".into(), "Green".into(), MemberKind::Constant),
                ("Point".into(), "X".into(), MemberKind::Field),
            ]
        );
        let imports: Vec<&str> = facts.imports.iter().map(|i| i.specifier.as_str()).collect();
        assert_eq!(
            imports,
            vec!["System", "System.Math", "System.Text.Json", "System.Linq"]
        );
        assert_eq!(facts.namespaces, ["Example.App"]);
        let nested = analyze(
            Language::CSharp,
            b"namespace A { namespace B.C { class X {} } namespace D { } }\nnamespace A { }\n",
        );
        assert_eq!(nested.namespaces, ["A", "A.B.C", "A.D"]);
        let file_scoped = analyze(Language::CSharp, b"namespace Other.Thing;\nclass Y {}\n");
        assert_eq!(file_scoped.namespaces, ["Other.Thing"]);
    }

    #[test]
    fn declarations_inside_conditional_compilation_count() {
        let facts = analyze(
            Language::CSharp,
            b"#if NET\nusing System.Buffers;\n#endif\nnamespace N;\npublic class A\n{\n#if SPAN\n    public void Read(Span<byte> b) { }\n#else\n    public void Read(byte[] b) { }\n#endif\n    public int Size { get; }\n}\n",
        );
        assert_eq!(facts.imports.len(), 1);
        let members: Vec<(&str, u32)> = facts
            .members
            .iter()
            .map(|m| (m.name.as_str(), m.line))
            .collect();
        assert_eq!(members, vec![("Read", 8), ("Size", 12)]);
    }

    #[test]
    fn a_file_scoped_namespace_holds_the_types_after_it() {
        let facts = analyze(
            Language::CSharp,
            b"namespace Other;\npublic static class Ext { public static void Go(this string s) { } }\n",
        );
        assert_eq!(facts.symbols.len(), 1);
        assert_eq!(facts.members.len(), 1);
    }
}
