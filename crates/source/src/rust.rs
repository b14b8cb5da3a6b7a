//! Rust.
//!
//! Exported symbols are plain-`pub` items at the top level of the file and
//! inside inline `pub mod x { … }` blocks (nested all the way down while each
//! module on the way is `pub`), plus `#[macro_export]` macros anywhere in the
//! file's inline modules (the attribute exports them at the crate root
//! whatever the module's visibility). Restricted visibilities (`pub(crate)`,
//! `pub(super)`, `pub(in …)`) do not export. Items in `impl` blocks are
//! never module symbols.
//!
//! Members: the items of `impl Type` and `impl Trait for Type` blocks at the
//! top level and in inline modules (of any visibility), owned by the self
//! type's last path segment without generics or references (`Foo` for
//! `impl<T> Foo<T>`, `S` for `impl Tr for &crate::a::S`): functions with a
//! `self` parameter are methods, those without associated functions, and
//! `const`s constants. Also the fields of structs and unions that have a
//! visibility (`pub`, `pub(crate)`, …). Trait definitions, enum variants and
//! private fields are not members.

use std::collections::HashMap;

use tree_sitter::Node;

use crate::common::{
    Ctx, Found, FoundImport, FoundMember, FoundSymbol, MAX_SPECIFIER_LEN, named_children, walk,
};
use crate::{ImportKind, MemberKind, SymbolKind};

/// `use` groups nested deeper than this are skipped: real code nests a few
/// levels, and a cap keeps the copied path prefixes bounded.
const MAX_USE_DEPTH: usize = 32;

pub(crate) fn analyze(ctx: &Ctx<'_>, root: Node<'_>) -> Found {
    let mut found = Found::default();
    items(ctx, root, &mut found);
    let imports = &mut found.imports;
    // `use` and `extern crate` can appear in any block, not only in modules.
    walk(root, |node| match node.kind() {
        "use_declaration" => {
            use_imports(ctx, node, imports);
            false
        }
        "extern_crate_declaration" => {
            if let Some(name) = ctx.text_of(node.child_by_field_name("name")) {
                imports.push(FoundImport::new(
                    ctx,
                    node,
                    name,
                    ImportKind::Static,
                    Vec::new(),
                ));
            }
            false
        }
        _ => true,
    });
    found
}

/// The symbol kind of an item node, for items that declare one name.
fn item_kind(kind: &str) -> Option<SymbolKind> {
    Some(match kind {
        "function_item" | "function_signature_item" => SymbolKind::Function,
        "struct_item" | "union_item" => SymbolKind::Struct,
        "enum_item" => SymbolKind::Enum,
        "trait_item" => SymbolKind::Trait,
        "type_item" => SymbolKind::Type,
        "const_item" | "static_item" => SymbolKind::Const,
        "mod_item" => SymbolKind::Module,
        _ => return None,
    })
}

/// True for plain `pub`; `pub(crate)` and friends are not exports.
fn is_pub(item: Node<'_>) -> bool {
    item.named_child(0).is_some_and(|vis| {
        vis.kind() == "visibility_modifier"
            && vis.child_count() == 1
            && vis.child(0).is_some_and(|c| c.kind() == "pub")
    })
}

/// Walks the item lists of the file and of its inline modules (an explicit
/// stack, so deep nesting is safe), collecting exported symbols, members
/// and `mod foo;` declarations.
fn items(ctx: &Ctx<'_>, root: Node<'_>, found: &mut Found) {
    let Found {
        symbols,
        imports,
        members,
        ..
    } = found;
    // (item list, whether `pub` items in it are exported)
    let mut stack = vec![(root, true)];
    while let Some((container, exported)) = stack.pop() {
        // Outer attributes are siblings that precede their item.
        let mut attributes: Vec<Node<'_>> = Vec::new();
        for item in named_children(container) {
            match item.kind() {
                "attribute_item" => {
                    attributes.push(item);
                    continue;
                }
                "line_comment" | "block_comment" => continue,
                _ => {}
            }
            let attributes = std::mem::take(&mut attributes);
            let public = exported && is_pub(item);
            match item.kind() {
                "mod_item" => {
                    if let Some(body) = item.child_by_field_name("body") {
                        stack.push((body, public));
                    } else if let Some(name) = ctx.text_of(item.child_by_field_name("name")) {
                        // `#[path = "…"]` names the file; `#[cfg_attr(pred, path = "…")]`
                        // names one file per configuration, each a module of some build.
                        let mut specifiers: Vec<String> = attributes
                            .iter()
                            .find_map(|a| path_attribute(ctx, *a))
                            .into_iter()
                            .collect();
                        if specifiers.is_empty() {
                            specifiers = attributes
                                .iter()
                                .filter_map(|a| cfg_attr_path(ctx, *a))
                                .collect();
                        }
                        if specifiers.is_empty() {
                            // `mod r#type;` is read from `type.rs`.
                            specifiers.push(raw_free(name));
                        }
                        for specifier in specifiers {
                            imports.push(FoundImport::new(
                                ctx,
                                item,
                                &specifier,
                                ImportKind::ModDecl,
                                Vec::new(),
                            ));
                        }
                    }
                }
                // `extern "C" { pub fn f(); }` declares `f` in this module.
                "foreign_mod_item" => {
                    stack.extend(item.child_by_field_name("body").map(|b| (b, exported)))
                }
                "impl_item" => impl_members(ctx, item, members),
                "struct_item" | "union_item" => struct_fields(ctx, item, members),
                "macro_definition"
                    if attributes
                        .iter()
                        .any(|a| attribute_name(ctx, *a) == Some("macro_export")) =>
                {
                    if let Some(name) = ctx.text_of(item.child_by_field_name("name")) {
                        symbols.push(FoundSymbol::local(ctx, item, name, SymbolKind::Macro));
                    }
                }
                "use_declaration" if public => {
                    for leaf in use_leaves(ctx, item) {
                        if let Some(name) = leaf.exported_name() {
                            symbols.push(FoundSymbol::reexport(
                                ctx,
                                leaf.node,
                                name,
                                SymbolKind::Unknown,
                                &leaf.prefix,
                            ));
                        }
                    }
                }
                "extern_crate_declaration" if public => {
                    let crate_name = ctx.text_of(item.child_by_field_name("name"));
                    let alias = ctx.text_of(item.child_by_field_name("alias"));
                    if let Some(crate_name) = crate_name {
                        symbols.push(FoundSymbol::reexport(
                            ctx,
                            item,
                            alias.unwrap_or(crate_name),
                            SymbolKind::Module,
                            crate_name,
                        ));
                    }
                }
                _ => {}
            }
            if public
                && let Some(kind) = item_kind(item.kind())
                && let Some(name) = ctx.text_of(item.child_by_field_name("name"))
            {
                symbols.push(FoundSymbol::local(ctx, item, name, kind));
            }
        }
    }
}

/// The name a self type is known by: the last path segment, without
/// generics, references or pointers; `None` for tuples, slices, arrays,
/// function pointers, `dyn` types and the like.
fn self_type_name<'s>(ctx: &Ctx<'s>, mut node: Node<'_>) -> Option<&'s str> {
    // Bounded by the input: each step goes one node deeper.
    loop {
        node = match node.kind() {
            "type_identifier" | "primitive_type" => return ctx.text(node),
            "generic_type" | "reference_type" | "pointer_type" => {
                node.child_by_field_name("type")?
            }
            "scoped_type_identifier" => node.child_by_field_name("name")?,
            _ => return None,
        };
    }
}

/// The functions and constants of an `impl` block.
fn impl_members(ctx: &Ctx<'_>, item: Node<'_>, out: &mut Vec<FoundMember>) {
    let owner = item
        .child_by_field_name("type")
        .and_then(|t| self_type_name(ctx, t));
    let (Some(owner), Some(body)) = (owner, item.child_by_field_name("body")) else {
        return;
    };
    for member in named_children(body) {
        let kind = match member.kind() {
            "function_item" | "function_signature_item" => {
                if takes_self(member) {
                    MemberKind::Method
                } else {
                    MemberKind::AssociatedFunction
                }
            }
            "const_item" => MemberKind::Constant,
            _ => continue,
        };
        if let Some(name) = member.child_by_field_name("name") {
            out.extend(FoundMember::new(ctx, name, owner, kind));
        }
    }
}

/// Whether a function's first parameter is `self` (`self`, `&self`, `&mut
/// self`, `mut self`, `self: Box<Self>`).
fn takes_self(function: Node<'_>) -> bool {
    let Some(parameters) = function.child_by_field_name("parameters") else {
        return false;
    };
    let mut cursor = parameters.walk();
    let first = parameters.named_children(&mut cursor).find(|p| {
        !matches!(
            p.kind(),
            "attribute_item" | "line_comment" | "block_comment"
        )
    });
    first.is_some_and(|p| match p.kind() {
        "self_parameter" => true,
        "parameter" => {
            p.child_by_field_name("pattern")
                .is_some_and(|pattern| match pattern.kind() {
                    "self" => true,
                    // `mut self: Box<Self>`
                    "mut_pattern" => named_children(pattern).iter().any(|n| n.kind() == "self"),
                    _ => false,
                })
        }
        _ => false,
    })
}

/// The fields with a visibility of a struct or union with named fields.
fn struct_fields(ctx: &Ctx<'_>, item: Node<'_>, out: &mut Vec<FoundMember>) {
    let owner = ctx.text_of(item.child_by_field_name("name"));
    let body = item
        .child_by_field_name("body")
        .filter(|b| b.kind() == "field_declaration_list");
    let (Some(owner), Some(body)) = (owner, body) else {
        return;
    };
    for field in named_children(body) {
        let visible = field
            .named_child(0)
            .is_some_and(|v| v.kind() == "visibility_modifier");
        if field.kind() == "field_declaration"
            && visible
            && let Some(name) = field.child_by_field_name("name")
        {
            out.extend(FoundMember::new(ctx, name, owner, MemberKind::Field));
        }
    }
}

/// The attribute node inside an `attribute_item` (`#[…]`).
fn attribute(item: Node<'_>) -> Option<Node<'_>> {
    named_children(item)
        .into_iter()
        .find(|n| n.kind() == "attribute")
}

/// The name of a simple attribute (`macro_export` for `#[macro_export]`).
fn attribute_name<'s>(ctx: &Ctx<'s>, item: Node<'_>) -> Option<&'s str> {
    let attribute = attribute(item)?;
    let name = attribute
        .named_child(0)
        .filter(|n| n.kind() == "identifier")?;
    ctx.text(name)
}

/// The literal of `#[path = "…"]`.
fn path_attribute(ctx: &Ctx<'_>, item: Node<'_>) -> Option<String> {
    if attribute_name(ctx, item) != Some("path") {
        return None;
    }
    let value = attribute(item)?.child_by_field_name("value")?;
    match value.kind() {
        "string_literal" | "raw_string_literal" => ctx.string_value(value, &["string_content"]),
        _ => None,
    }
}

/// A path with its raw identifiers written plainly (`crate::r#type` → `crate::type`): the
/// module's name, as its file is named. `#` occurs in no other identifier.
fn raw_free(path: &str) -> String {
    path.replace("r#", "")
}

/// The literal of `path = "…"` in `#[cfg_attr(predicate, path = "…")]`: the file a `mod` is
/// read from when the predicate holds.
fn cfg_attr_path(ctx: &Ctx<'_>, item: Node<'_>) -> Option<String> {
    if attribute_name(ctx, item) != Some("cfg_attr") {
        return None;
    }
    let arguments = attribute(item)?.child_by_field_name("arguments")?;
    // The attributes after the predicate, at the top level of the token tree:
    // `path`, `=`, a string literal.
    let mut cursor = arguments.walk();
    let tokens: Vec<Node<'_>> = arguments.children(&mut cursor).collect();
    tokens.windows(3).find_map(|three| {
        let [name, equals, value] = three else {
            return None;
        };
        (ctx.text(*name) == Some("path") && ctx.text(*equals) == Some("=")).then_some(())?;
        match value.kind() {
            "string_literal" | "raw_string_literal" => {
                ctx.string_value(*value, &["string_content"])
            }
            _ => None,
        }
    })
}

/// One imported name of a `use` tree.
struct UseLeaf<'t> {
    /// The path before the imported name (`a::b` for `a::b::C`); for a
    /// single-segment path, that segment (`serde` for `use serde;`).
    prefix: String,
    /// The imported name as the other module calls it; `*` for globs; none
    /// when a whole module/crate is imported by a one-segment path.
    imported: Option<String>,
    /// The `as` alias, if any.
    alias: Option<String>,
    node: Node<'t>,
}

impl UseLeaf<'_> {
    /// The name this leaf binds in the importing module, if it binds one.
    fn exported_name(&self) -> Option<&str> {
        let name = self
            .alias
            .as_deref()
            .or(self.imported.as_deref())
            .or_else(|| self.prefix.rsplit("::").next())?;
        // `use Trait as _` binds nothing; an empty name is a broken path.
        (!name.is_empty() && name != "_").then_some(name)
    }
}

/// The segments of a simple path (`a::b::c`, `crate::x`); a leading `::`
/// stays on the first segment (`::std`). `None` for anything else.
fn path_segments(ctx: &Ctx<'_>, node: Node<'_>) -> Option<Vec<String>> {
    let mut segments = Vec::new();
    let mut length = 0usize;
    let mut current = Some(node);
    while let Some(n) = current {
        let segment = match n.kind() {
            "scoped_identifier" => {
                current = n.child_by_field_name("path");
                let name = ctx.text_of(n.child_by_field_name("name"))?;
                if current.is_none() {
                    // `::name`: a crate from the extern prelude.
                    format!("::{name}")
                } else {
                    name.to_owned()
                }
            }
            "identifier" | "crate" | "self" | "super" | "metavariable" => {
                current = None;
                ctx.text(n)?.to_owned()
            }
            _ => return None,
        };
        length = length.saturating_add(segment.len() + 2);
        if length > MAX_SPECIFIER_LEN {
            return None;
        }
        segments.push(segment);
    }
    segments.reverse();
    Some(segments)
}

/// Flattens the tree of a `use` declaration into leaves.
fn use_leaves<'t>(ctx: &Ctx<'_>, declaration: Node<'t>) -> Vec<UseLeaf<'t>> {
    let mut leaves = Vec::new();
    let Some(argument) = declaration.child_by_field_name("argument") else {
        return leaves;
    };
    // (node, path segments leading to it, nesting depth); explicit stack so
    // that nested groups cannot overflow the call stack.
    let mut stack: Vec<(Node<'t>, Vec<String>, usize)> = vec![(argument, Vec::new(), 0)];
    while let Some((node, prefix, depth)) = stack.pop() {
        let join = |path: Option<Node<'_>>| -> Option<Vec<String>> {
            let mut full = prefix.clone();
            if let Some(path) = path {
                full.extend(path_segments(ctx, path)?);
            }
            Some(full)
        };
        match node.kind() {
            "scoped_use_list" => {
                if depth >= MAX_USE_DEPTH {
                    continue;
                }
                let Some(full) = join(node.child_by_field_name("path")) else {
                    continue;
                };
                if let Some(list) = node.child_by_field_name("list") {
                    stack.push((list, full, depth + 1));
                }
            }
            "use_list" => {
                if depth >= MAX_USE_DEPTH {
                    continue;
                }
                // Reversed, so that popping visits them in source order.
                for child in named_children(node).into_iter().rev() {
                    stack.push((child, prefix.clone(), depth + 1));
                }
            }
            "use_wildcard" => {
                // `a::*`: the path is the first named child.
                let path = named_children(node).into_iter().next();
                if let Some(full) = join(path)
                    && !full.is_empty()
                {
                    leaves.extend(leaf(full, Some("*".to_owned()), None, node));
                }
            }
            "use_as_clause" => {
                let alias = ctx
                    .text_of(node.child_by_field_name("alias"))
                    .map(str::to_owned);
                if let Some(full) = join(node.child_by_field_name("path")) {
                    leaves.extend(split_leaf(full, alias, node));
                }
            }
            "scoped_identifier" | "identifier" | "crate" | "self" | "super" | "metavariable" => {
                if let Some(full) = join(Some(node)) {
                    leaves.extend(split_leaf(full, None, node));
                }
            }
            _ => {}
        }
    }
    leaves
}

/// Splits a full path into prefix and imported name. A trailing `self`
/// (`a::b::{self}`) imports the module it follows.
fn split_leaf<'t>(
    mut full: Vec<String>,
    alias: Option<String>,
    node: Node<'t>,
) -> Option<UseLeaf<'t>> {
    if full.len() > 1 && full.last().is_some_and(|s| s == "self") {
        full.pop();
    }
    match full.len() {
        0 => None,
        1 => leaf(full, None, alias, node),
        _ => {
            let imported = full.pop();
            leaf(full, imported, alias, node)
        }
    }
}

fn leaf(
    prefix: Vec<String>,
    imported: Option<String>,
    alias: Option<String>,
    node: Node<'_>,
) -> Option<UseLeaf<'_>> {
    let prefix = prefix.join("::");
    (prefix.len() <= MAX_SPECIFIER_LEN).then_some(UseLeaf {
        prefix,
        imported,
        alias,
        node,
    })
}

/// One import per distinct prefix of a `use` declaration, in order of first
/// appearance: `use std::{fmt, io::{Read, Write}}` imports `fmt` from `std`
/// and `Read`, `Write` from `std::io`.
fn use_imports(ctx: &Ctx<'_>, declaration: Node<'_>, imports: &mut Vec<FoundImport>) {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for leaf in use_leaves(ctx, declaration) {
        let slot = *index.entry(leaf.prefix.clone()).or_insert_with(|| {
            groups.push((leaf.prefix, Vec::new()));
            groups.len() - 1
        });
        if let (Some(imported), Some(group)) = (leaf.imported, groups.get_mut(slot)) {
            group.1.push(imported);
        }
    }
    for (specifier, names) in groups {
        imports.push(FoundImport::new(
            ctx,
            declaration,
            &raw_free(&specifier),
            ImportKind::Static,
            names.iter().map(|name| raw_free(name)).collect(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::{ImportKind, Language, MemberKind, SymbolKind, analyze};

    use crate::test_support::{s, v};

    fn symbols(src: &str) -> Vec<(String, SymbolKind, u32, bool, Option<String>)> {
        crate::test_support::symbols(Language::Rust, src)
    }

    fn names(src: &str) -> Vec<String> {
        crate::test_support::names(Language::Rust, src)
    }

    fn imports(src: &str) -> Vec<(String, ImportKind, Vec<String>, u32)> {
        crate::test_support::imports(Language::Rust, src)
    }

    #[test]
    fn rust_pub_items_get_their_kinds() {
        let src = "pub fn f() {}\npub struct S;\npub enum E {}\npub trait T {}\npub type A = u8;\n\
                   pub const C: u8 = 1;\npub static ST: u8 = 1;\npub union U { a: u8 }\npub mod m {}\n\
                   pub async unsafe fn g() {}\n";
        let got: Vec<_> = symbols(src)
            .into_iter()
            .map(|(n, k, l, ..)| (n, k, l))
            .collect();
        assert_eq!(
            got,
            vec![
                (s("f"), SymbolKind::Function, 1),
                (s("S"), SymbolKind::Struct, 2),
                (s("E"), SymbolKind::Enum, 3),
                (s("T"), SymbolKind::Trait, 4),
                (s("A"), SymbolKind::Type, 5),
                (s("C"), SymbolKind::Const, 6),
                (s("ST"), SymbolKind::Const, 7),
                (s("U"), SymbolKind::Struct, 8),
                (s("m"), SymbolKind::Module, 9),
                (s("g"), SymbolKind::Function, 10),
            ]
        );
    }

    #[test]
    fn rust_pub_crate_items_are_not_exported() {
        let src = "pub(crate) fn a() {}\npub(super) struct B;\npub(in crate::x) enum C {}\n\
                   pub(self) const D: u8 = 0;\nfn private() {}\npub fn yes() {}\n";
        assert_eq!(names(src), ["yes"]);
    }

    #[test]
    fn rust_items_in_pub_mod_blocks_are_exported_by_item_name() {
        let src = "pub mod outer {\n    pub fn inner() {}\n    fn hidden() {}\n    pub mod deeper {\n        pub struct Deep;\n    }\n}\n\
                   mod private { pub fn no() {} }\npub(crate) mod restricted { pub fn no2() {} }\n";
        assert_eq!(names(src), ["outer", "inner", "deeper", "Deep"]);
    }

    #[test]
    fn rust_methods_in_impl_blocks_are_not_symbols() {
        let src = "pub struct S;\nimpl S { pub fn method(&self) {} }\npub trait T { fn req(&self); }\n\
                   impl T for S { fn req(&self) {} }\n";
        assert_eq!(names(src), ["S", "T"]);
    }

    #[test]
    fn rust_exported_macros_need_macro_export() {
        let src = "#[macro_export]\nmacro_rules! yes { () => {} }\nmacro_rules! no { () => {} }\n\
                   mod private {\n    /// docs\n    #[macro_export(local_inner_macros)]\n    macro_rules! nested { () => {} }\n}\n";
        assert_eq!(
            symbols(src),
            [
                (s("yes"), SymbolKind::Macro, 2, false, None),
                (s("nested"), SymbolKind::Macro, 7, false, None),
            ]
        );
    }

    #[test]
    fn rust_pub_use_is_a_reexport() {
        let src = "pub use a::b::{C, D as E};\npub use a::*;\npub use serde;\npub use x::y as _;\n\
                   use private::Thing;\npub(crate) use krate::Other;\npub use m::{self as n};\n";
        assert_eq!(
            symbols(src),
            [
                (s("C"), SymbolKind::Unknown, 1, true, Some(s("a::b"))),
                (s("E"), SymbolKind::Unknown, 1, true, Some(s("a::b"))),
                (s("*"), SymbolKind::Unknown, 2, true, Some(s("a"))),
                (s("serde"), SymbolKind::Unknown, 3, true, Some(s("serde"))),
                (s("n"), SymbolKind::Unknown, 7, true, Some(s("m"))),
            ]
        );
    }

    #[test]
    fn rust_use_splits_prefix_and_names() {
        let src = "use crate::model::{Entity, Snapshot};\nuse serde::Serialize;\nuse std::io;\n\
                   use std::{fmt, io::{Read, Write as W}};\nuse super::*;\nuse ::abs::path;\n\
                   use a::b::{self, C};\nuse serde;\n";
        assert_eq!(
            imports(src),
            [
                (
                    s("crate::model"),
                    ImportKind::Static,
                    v(&["Entity", "Snapshot"]),
                    1
                ),
                (s("serde"), ImportKind::Static, v(&["Serialize"]), 2),
                (s("std"), ImportKind::Static, v(&["io"]), 3),
                (s("std"), ImportKind::Static, v(&["fmt"]), 4),
                (s("std::io"), ImportKind::Static, v(&["Read", "Write"]), 4),
                (s("super"), ImportKind::Static, v(&["*"]), 5),
                (s("::abs"), ImportKind::Static, v(&["path"]), 6),
                (s("a"), ImportKind::Static, v(&["b"]), 7),
                (s("a::b"), ImportKind::Static, v(&["C"]), 7),
                (s("serde"), ImportKind::Static, v(&[]), 8),
            ]
        );
    }

    #[test]
    fn rust_mod_declarations_and_extern_crates_are_imports() {
        let src = "pub mod decl;\n#[cfg(test)]\n// comment\n#[path = \"other/file.rs\"]\nmod other;\n\
                   mod inline {}\nextern crate alloc;\nextern crate foo as bar;\n\
                   fn f() { use std::mem; }\n";
        assert_eq!(
            imports(src),
            [
                (s("decl"), ImportKind::ModDecl, v(&[]), 1),
                (s("other/file.rs"), ImportKind::ModDecl, v(&[]), 5),
                (s("alloc"), ImportKind::Static, v(&[]), 7),
                (s("foo"), ImportKind::Static, v(&[]), 8),
                (s("std"), ImportKind::Static, v(&["mem"]), 9),
            ]
        );
        assert_eq!(names(src), ["decl"]);
    }

    #[test]
    fn raw_identifiers_name_their_modules_plainly() {
        let src = "mod r#type;\nuse crate::r#type::r#Struct;\nuse self::r#try;\n";
        assert_eq!(
            imports(src),
            [
                (s("type"), ImportKind::ModDecl, v(&[]), 1),
                (s("crate::type"), ImportKind::Static, v(&["Struct"]), 2),
                (s("self"), ImportKind::Static, v(&["try"]), 3),
            ]
        );
    }

    #[test]
    fn a_cfg_attr_path_names_one_file_per_configuration() {
        let src = "#[cfg_attr(feature = \"git\", path = \"../other/mod.rs\")]\n\
                   #[cfg_attr(not(any(feature = \"git\")), path = \"src/mod.rs\")]\n\
                   mod internals;\n\
                   #[cfg_attr(test, derive(Debug))]\nmod plain;\n";
        assert_eq!(
            imports(src),
            [
                (s("../other/mod.rs"), ImportKind::ModDecl, v(&[]), 3),
                (s("src/mod.rs"), ImportKind::ModDecl, v(&[]), 3),
                (s("plain"), ImportKind::ModDecl, v(&[]), 5),
            ]
        );
    }

    #[test]
    fn rust_extern_block_functions_are_symbols_when_pub() {
        let src =
            "extern \"C\" {\n    pub fn cfun();\n    pub static X: u8;\n    fn hidden();\n}\n";
        assert_eq!(names(src), ["cfun", "X"]);
    }

    #[test]
    fn rust_deeply_nested_use_groups_are_bounded() {
        let depth = 200;
        let src = format!("use a::{}x{};", "{b::".repeat(depth), "}".repeat(depth));
        let facts = analyze(Language::Rust, src.as_bytes());
        assert_eq!(facts.syntax_error_count, 0);
        assert!(facts.imports.is_empty());
    }

    #[test]
    fn rust_members_come_from_impl_blocks_and_visible_fields() {
        let src = "pub struct S<T> { pub a: T, pub(crate) b: u8, c: u8 }\n\
                   impl<T> S<T> {\n    const C: u8 = 1;\n    fn new() -> Self { todo!() }\n    \
                   fn get(&self) -> &T { &self.a }\n    fn boxed(self: Box<Self>) {}\n}\n\
                   impl<T> fmt::Debug for crate::m::S<T> { fn fmt(&self) {} }\n\
                   mod inner { impl super::Tr for &'static Q { fn tr() {} } }\n\
                   impl Tr for (u8, u8) { fn tuple(&self) {} }\ntrait Tr { fn tr(); }\n\
                   fn f() { impl Local { fn no() {} } }\n";
        assert_eq!(
            crate::test_support::members(Language::Rust, src),
            [
                (s("S.a"), MemberKind::Field, 1),
                (s("S.b"), MemberKind::Field, 1),
                (s("S.C"), MemberKind::Constant, 3),
                (s("S.new"), MemberKind::AssociatedFunction, 4),
                (s("S.get"), MemberKind::Method, 5),
                (s("S.boxed"), MemberKind::Method, 6),
                (s("S.fmt"), MemberKind::Method, 8),
                (s("Q.tr"), MemberKind::AssociatedFunction, 9),
            ]
        );
    }

    #[test]
    fn syntax_errors_yield_partial_symbols_and_a_diagnostic() {
        let facts = analyze(
            Language::Rust,
            b"pub fn ok() {}\npub fn broken( {\npub struct Fine;\n",
        );
        let names: Vec<_> = facts.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["ok", "Fine"]);
        assert!(facts.syntax_error_count >= 1, "{facts:?}");
        assert!(!facts.syntax_errors.is_empty());
    }
}
