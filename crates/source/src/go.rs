//! Go.
//!
//! Exported: top-level functions, types, constants and variables whose name
//! starts with an upper-case letter. Methods are never module symbols, even
//! with an exported name: they belong to their receiver type.
//!
//! Members: methods, owned by their receiver's type name (pointer and type
//! arguments stripped), and the fields of top-level struct types, exported
//! or not; an embedded field is named by its type (`Mutex` for
//! `sync.Mutex`).

use tree_sitter::Node;

use crate::common::{Ctx, Found, FoundImport, FoundMember, FoundSymbol, named_children, specifier};
use crate::{ImportKind, MemberKind, SymbolKind};

pub(crate) fn analyze(ctx: &Ctx<'_>, root: Node<'_>) -> Found {
    let mut symbols = Vec::new();
    let mut imports = Vec::new();
    let mut members = Vec::new();
    for node in named_children(root) {
        match node.kind() {
            "method_declaration" => method(ctx, node, &mut members),
            "function_declaration" => {
                push_exported(
                    ctx,
                    node,
                    node.child_by_field_name("name"),
                    SymbolKind::Function,
                    &mut symbols,
                );
            }
            "type_declaration" => {
                for spec in named_children(node) {
                    let kind = match spec.kind() {
                        "type_alias" => SymbolKind::Type,
                        "type_spec" => match spec.child_by_field_name("type").map(|t| t.kind()) {
                            Some("struct_type") => SymbolKind::Struct,
                            Some("interface_type") => SymbolKind::Interface,
                            _ => SymbolKind::Type,
                        },
                        _ => continue,
                    };
                    push_exported(
                        ctx,
                        spec,
                        spec.child_by_field_name("name"),
                        kind,
                        &mut symbols,
                    );
                    if kind == SymbolKind::Struct {
                        struct_fields(ctx, spec, &mut members);
                    }
                }
            }
            "const_declaration" => specs(ctx, node, "const_spec", SymbolKind::Const, &mut symbols),
            "var_declaration" => specs(ctx, node, "var_spec", SymbolKind::Variable, &mut symbols),
            "import_declaration" => import_declaration(ctx, node, &mut imports),
            _ => {}
        }
    }
    Found {
        symbols,
        imports,
        members,
        namespaces: Vec::new(),
        internal_names: Vec::new(),
    }
}

/// The type name inside a type: `T` for `T`, `*T`, `T[K]`, `*T[K]`,
/// `pkg.T` and `(*T)`.
fn type_name(mut node: Node<'_>) -> Option<Node<'_>> {
    // Bounded by the input: each step goes one node deeper.
    loop {
        node = match node.kind() {
            "type_identifier" => return Some(node),
            "generic_type" | "qualified_type" => node
                .child_by_field_name("type")
                .or_else(|| node.child_by_field_name("name"))?,
            "pointer_type" | "parenthesized_type" => named_children(node)
                .into_iter()
                .find(|n| n.kind() != "comment")?,
            _ => return None,
        };
    }
}

/// `func (r *T[K]) Name()`: a method of `T`.
fn method(ctx: &Ctx<'_>, node: Node<'_>, out: &mut Vec<FoundMember>) {
    let receiver = node.child_by_field_name("receiver").and_then(|r| {
        named_children(r)
            .into_iter()
            .find(|p| p.kind() == "parameter_declaration")
    });
    let owner = receiver
        .and_then(|r| r.child_by_field_name("type"))
        .and_then(type_name)
        .and_then(|t| ctx.text(t));
    if let (Some(owner), Some(name)) = (owner, node.child_by_field_name("name")) {
        out.extend(FoundMember::new(ctx, name, owner, MemberKind::Method));
    }
}

/// The fields of `type T struct { … }`.
fn struct_fields(ctx: &Ctx<'_>, spec: Node<'_>, out: &mut Vec<FoundMember>) {
    let Some(owner) = ctx.text_of(spec.child_by_field_name("name")) else {
        return;
    };
    let list = spec.child_by_field_name("type").and_then(|t| {
        named_children(t)
            .into_iter()
            .find(|n| n.kind() == "field_declaration_list")
    });
    let Some(list) = list else {
        return;
    };
    for field in named_children(list) {
        if field.kind() != "field_declaration" {
            continue;
        }
        let mut cursor = field.walk();
        let names: Vec<Node<'_>> = field
            .children_by_field_name("name", &mut cursor)
            .filter(|n| n.kind() == "field_identifier")
            .collect();
        if names.is_empty() {
            // An embedded field is named by its type.
            let embedded = field.child_by_field_name("type").and_then(type_name);
            if let Some(name) = embedded {
                out.extend(FoundMember::new(ctx, name, owner, MemberKind::Field));
            }
        }
        for name in names {
            out.extend(FoundMember::new(ctx, name, owner, MemberKind::Field));
        }
    }
}

/// Go exports identifiers that start with a Unicode upper-case letter
/// (category Lu; `char::is_uppercase` agrees on every letter an identifier
/// can start with).
fn is_exported(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

fn push_exported(
    ctx: &Ctx<'_>,
    node: Node<'_>,
    name: Option<Node<'_>>,
    kind: SymbolKind,
    out: &mut Vec<FoundSymbol>,
) {
    if let Some(name) = ctx.text_of(name).filter(|n| is_exported(n)) {
        out.push(FoundSymbol::local(ctx, node, name, kind));
    }
}

/// `const`/`var` specs, grouped (`var ( … )`, which `var` wraps in a
/// `var_spec_list`) or not; each spec may name several identifiers.
fn specs(
    ctx: &Ctx<'_>,
    declaration: Node<'_>,
    spec_kind: &str,
    kind: SymbolKind,
    out: &mut Vec<FoundSymbol>,
) {
    let mut specs = Vec::new();
    for child in named_children(declaration) {
        if child.kind() == spec_kind {
            specs.push(child);
        } else if child.kind().ends_with("_spec_list") {
            specs.extend(
                named_children(child)
                    .into_iter()
                    .filter(|c| c.kind() == spec_kind),
            );
        }
    }
    for spec in specs {
        let mut cursor = spec.walk();
        // The grammar also tags the commas between names as `name`.
        let names: Vec<Node<'_>> = spec
            .children_by_field_name("name", &mut cursor)
            .filter(|n| n.kind() == "identifier")
            .collect();
        for name in names {
            push_exported(ctx, spec, Some(name), kind, out);
        }
    }
}

fn import_declaration(ctx: &Ctx<'_>, declaration: Node<'_>, out: &mut Vec<FoundImport>) {
    let mut specs = Vec::new();
    for child in named_children(declaration) {
        match child.kind() {
            "import_spec" => specs.push(child),
            "import_spec_list" => specs.extend(
                named_children(child)
                    .into_iter()
                    .filter(|c| c.kind() == "import_spec"),
            ),
            _ => {}
        }
    }
    for spec in specs {
        let path = spec
            .child_by_field_name("path")
            .and_then(|p| match p.kind() {
                "interpreted_string_literal" => {
                    ctx.string_value(p, &["interpreted_string_literal_content"])
                }
                "raw_string_literal" => ctx.string_value(p, &["raw_string_literal_content"]),
                _ => None,
            });
        let Some(path) = path.and_then(specifier) else {
            continue;
        };
        // Aliases include `.` (dot import) and `_` (side effects only).
        let names = ctx
            .text_of(spec.child_by_field_name("name"))
            .map(|alias| vec![alias.to_owned()])
            .unwrap_or_default();
        out.push(FoundImport::new(
            ctx,
            spec,
            &path,
            ImportKind::Static,
            names,
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::{ImportKind, Language, MemberKind, SymbolKind, analyze};

    fn symbols(src: &str) -> Vec<(String, SymbolKind, u32)> {
        analyze(Language::Go, src.as_bytes())
            .symbols
            .into_iter()
            .map(|s| (s.name, s.kind, s.line))
            .collect()
    }

    fn s(v: &str) -> String {
        v.to_owned()
    }

    #[test]
    fn go_exported_names_start_with_an_upper_case_letter() {
        let src = "package p\nfunc Exported() {}\nfunc unexported() {}\nfunc Generic[T any]() {}\n\
                   type S struct{}\ntype (\n\tA = int\n\tb int\n\tI interface{}\n)\n\
                   const C, d = 1, 2\nconst (\n\tE1 = iota\n\te2\n)\nvar V int\n\
                   var (\n\tW, x = 1, 2\n)\nvar Ä = 1\nvar ä = 1\nvar _ = 1\n";
        assert_eq!(
            symbols(src),
            [
                (s("Exported"), SymbolKind::Function, 2),
                (s("Generic"), SymbolKind::Function, 4),
                (s("S"), SymbolKind::Struct, 5),
                (s("A"), SymbolKind::Type, 7),
                (s("I"), SymbolKind::Interface, 9),
                (s("C"), SymbolKind::Const, 11),
                (s("E1"), SymbolKind::Const, 13),
                (s("V"), SymbolKind::Variable, 16),
                (s("W"), SymbolKind::Variable, 18),
                (s("Ä"), SymbolKind::Variable, 20),
            ]
        );
    }

    #[test]
    fn go_methods_are_not_module_symbols() {
        let src = "package p\ntype T struct{}\nfunc (t *T) Method() {}\nfunc (T) Other() {}\n";
        assert_eq!(symbols(src), [(s("T"), SymbolKind::Struct, 2)]);
    }

    #[test]
    fn go_imports_record_paths_and_aliases() {
        let src = "package p\nimport \"fmt\"\nimport (\n\tf2 \"fmt\"\n\t. \"strings\"\n\t_ \"embed\"\n\
                   \t\"net/http\"\n\traw `a/b`\n)\n";
        let got: Vec<_> = analyze(Language::Go, src.as_bytes())
            .imports
            .into_iter()
            .map(|i| (i.specifier, i.kind, i.names, i.line))
            .collect();
        assert_eq!(
            got,
            [
                (s("fmt"), ImportKind::Static, vec![], 2),
                (s("fmt"), ImportKind::Static, vec![s("f2")], 4),
                (s("strings"), ImportKind::Static, vec![s(".")], 5),
                (s("embed"), ImportKind::Static, vec![s("_")], 6),
                (s("net/http"), ImportKind::Static, vec![], 7),
                (s("a/b"), ImportKind::Static, vec![s("raw")], 8),
            ]
        );
    }

    #[test]
    fn go_members_are_methods_by_receiver_type_and_struct_fields() {
        let src = "package p\ntype S[K comparable] struct {\n\ta, B int\n\t*Base\n\tsync.Mutex\n}\n\
                   func (s *S[K]) Get() {}\nfunc (S[K]) Len() {}\nfunc (p *plain) reset() {}\n\
                   func Free() {}\ntype I interface{ M() }\n";
        assert_eq!(
            crate::test_support::members(Language::Go, src),
            [
                (s("S.a"), MemberKind::Field, 3),
                (s("S.B"), MemberKind::Field, 3),
                (s("S.Base"), MemberKind::Field, 4),
                (s("S.Mutex"), MemberKind::Field, 5),
                (s("S.Get"), MemberKind::Method, 7),
                (s("S.Len"), MemberKind::Method, 8),
                (s("plain.reset"), MemberKind::Method, 9),
            ]
        );
    }

    #[test]
    fn syntax_errors_yield_partial_symbols_and_a_diagnostic() {
        let facts = analyze(
            Language::Go,
            b"package p\nfunc Ok() {}\nfunc Broken( {\n}\ntype Fine int\n",
        );
        let names: Vec<_> = facts.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Ok", "Broken", "Fine"]);
        assert!(facts.syntax_error_count >= 1, "{facts:?}");
        assert!(!facts.syntax_errors.is_empty());
    }
}
