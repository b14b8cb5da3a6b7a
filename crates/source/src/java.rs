//! Java.
//!
//! Exported: top-level types declared `public` (classes, interfaces, enums, records,
//! annotation types); a package-private type is visible to its package only and is not a
//! module symbol.
//!
//! Members: of every top-level type, what other code can reach: `public` and `protected`
//! methods, constructors and fields (a `static final` field is a constant), every member of an
//! interface or annotation type (implicitly public), every enum constant. Nested types and
//! private or package-private members are left out.
//!
//! Imports: `import a.b.C;` as `a.b.C`, `import a.b.*;` as `a.b.*`, `import static a.b.C.m;`
//! as `a.b.C` naming `m`.

use tree_sitter::Node;

use crate::common::{Ctx, Found, FoundImport, FoundMember, declared_type, named_children};
use crate::{ImportKind, MemberKind, SymbolKind};

pub(crate) fn analyze(ctx: &Ctx<'_>, root: Node<'_>) -> Found {
    let mut found = Found::default();
    for node in named_children(root) {
        match node.kind() {
            "import_declaration" => import(ctx, node, &mut found.imports),
            kind => {
                let Some(symbol_kind) = type_kind(kind) else {
                    continue;
                };
                let public = modifiers(ctx, node).public;
                if let Some(name) =
                    declared_type(ctx, node, symbol_kind, public, &mut found.symbols)
                {
                    members(ctx, node, name, &mut found.members);
                }
            }
        }
    }
    found
}

/// The symbol kind of a type declaration's node kind; `None` for other nodes.
fn type_kind(kind: &str) -> Option<SymbolKind> {
    match kind {
        "class_declaration" | "record_declaration" => Some(SymbolKind::Class),
        "interface_declaration" | "annotation_type_declaration" => Some(SymbolKind::Interface),
        "enum_declaration" => Some(SymbolKind::Enum),
        _ => None,
    }
}

/// The access and storage modifiers a declaration carries.
#[derive(Default)]
struct Modifiers {
    public: bool,
    protected: bool,
    static_final: bool,
}

fn modifiers(ctx: &Ctx<'_>, node: Node<'_>) -> Modifiers {
    let Some(list) = named_children(node)
        .into_iter()
        .find(|n| n.kind() == "modifiers")
    else {
        return Modifiers::default();
    };
    let mut cursor = list.walk();
    let words: Vec<&str> = list
        .children(&mut cursor)
        .filter_map(|n| ctx.text(n))
        .collect();
    Modifiers {
        public: words.contains(&"public"),
        protected: words.contains(&"protected"),
        static_final: words.contains(&"static") && words.contains(&"final"),
    }
}

/// The reachable members of the top-level type `node`, named `owner`.
fn members(ctx: &Ctx<'_>, node: Node<'_>, owner: &str, out: &mut Vec<FoundMember>) {
    let Some(body) = node.child_by_field_name("body") else {
        return;
    };
    // Members of interfaces and annotation types are public whatever they say.
    let implicitly_public = matches!(
        node.kind(),
        "interface_declaration" | "annotation_type_declaration"
    );
    let mut declarations = named_children(body);
    // An enum's methods and fields follow its constants in a body of their own.
    if let Some(rest) = declarations
        .iter()
        .find(|n| n.kind() == "enum_body_declarations")
    {
        declarations.extend(named_children(*rest));
    }
    for member in declarations {
        let reachable = || {
            let m = modifiers(ctx, member);
            implicitly_public || m.public || m.protected
        };
        match member.kind() {
            "enum_constant" => {
                if let Some(name) = member.child_by_field_name("name") {
                    out.extend(FoundMember::new(ctx, name, owner, MemberKind::Constant));
                }
            }
            "method_declaration"
            | "constructor_declaration"
            | "annotation_type_element_declaration" => {
                if reachable()
                    && let Some(name) = member.child_by_field_name("name")
                {
                    out.extend(FoundMember::new(ctx, name, owner, MemberKind::Method));
                }
            }
            "field_declaration" | "constant_declaration" => {
                if !reachable() {
                    continue;
                }
                let constant =
                    member.kind() == "constant_declaration" || modifiers(ctx, member).static_final;
                let kind = if constant {
                    MemberKind::Constant
                } else {
                    MemberKind::Field
                };
                let mut cursor = member.walk();
                let declarators: Vec<Node<'_>> = member
                    .children_by_field_name("declarator", &mut cursor)
                    .collect();
                for declarator in declarators {
                    if let Some(name) = declarator.child_by_field_name("name") {
                        out.extend(FoundMember::new(ctx, name, owner, kind));
                    }
                }
            }
            _ => {}
        }
    }
}

/// `import [static] a.b.C[.*];`
fn import(ctx: &Ctx<'_>, node: Node<'_>, out: &mut Vec<FoundImport>) {
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    let is_static = children.iter().any(|c| c.kind() == "static");
    let wildcard = children.iter().any(|c| c.kind() == "asterisk");
    let Some(path) = children
        .iter()
        .find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"))
        .and_then(|c| ctx.text(*c))
    else {
        return;
    };
    let path: String = path.chars().filter(|c| !c.is_whitespace()).collect();
    let (specifier, names) = match (is_static, wildcard) {
        (false, false) => (path, Vec::new()),
        (false, true) => (format!("{path}.*"), Vec::new()),
        (true, true) => (path, vec!["*".to_owned()]),
        (true, false) => match path.rsplit_once('.') {
            Some((owner, name)) => (owner.to_owned(), vec![name.to_owned()]),
            None => (path, Vec::new()),
        },
    };
    out.push(FoundImport::new(
        ctx,
        node,
        &specifier,
        ImportKind::Static,
        names,
    ));
}

#[cfg(test)]
mod tests {
    use crate::test_support::{member_rows, symbol_lines};
    use crate::{Language, MemberKind, SymbolKind, analyze};

    const SOURCE: &str = r#"package com.example.app;

import java.util.List;
import static org.junit.Assert.assertEquals;
import com.example.util.*;

/** A public class. */
@Deprecated
public class Server<T> extends Base implements Runnable {
    public static final int PORT = 8080;
    private String name;
    protected int a, b;
    int packageOnly;
    public Server(String name) { this.name = name; }
    public void run() {}
    private void hidden() {}
    public static class Inner { public void nested() {} }
}
interface Handler { void handle(String s); int LIMIT = 3; }
enum Color { RED, GREEN; public int code() { return 1; } }
public record Point(int x, int y) {}
public @interface Marker { String value(); }
"#;

    #[test]
    fn public_types_are_exported_and_reachable_members_recorded() {
        let facts = analyze(Language::Java, SOURCE.as_bytes());
        let symbols = symbol_lines(Language::Java, SOURCE);
        assert_eq!(
            symbols,
            vec![
                ("Server".to_owned(), SymbolKind::Class, 9),
                ("Point".to_owned(), SymbolKind::Class, 21),
                ("Marker".to_owned(), SymbolKind::Interface, 22),
            ]
        );
        let members = member_rows(Language::Java, SOURCE);
        assert_eq!(
            members,
            vec![
                ("Server".into(), "PORT".into(), MemberKind::Constant, 10),
                ("Server".into(), "a".into(), MemberKind::Field, 12),
                ("Server".into(), "b".into(), MemberKind::Field, 12),
                ("Server".into(), "Server".into(), MemberKind::Method, 14),
                ("Server".into(), "run".into(), MemberKind::Method, 15),
                ("Handler".into(), "handle".into(), MemberKind::Method, 19),
                ("Handler".into(), "LIMIT".into(), MemberKind::Constant, 19),
                ("Color".into(), "RED".into(), MemberKind::Constant, 20),
                ("Color".into(), "GREEN".into(), MemberKind::Constant, 20),
                ("Color".into(), "code".into(), MemberKind::Method, 20),
                ("Marker".into(), "value".into(), MemberKind::Method, 22),
            ]
        );
        let imports: Vec<(&str, Vec<String>, u32)> = facts
            .imports
            .iter()
            .map(|i| (i.specifier.as_str(), i.names.clone(), i.line))
            .collect();
        assert_eq!(
            imports,
            vec![
                ("java.util.List", vec![], 3),
                ("org.junit.Assert", vec!["assertEquals".to_owned()], 4),
                ("com.example.util.*", vec![], 5),
            ]
        );
        assert!(facts.text.contains("A public class."), "{}", facts.text);
    }
}
