//! TypeScript, TSX and JavaScript (JSX included).
//!
//! The three grammars share their node names for everything looked at here,
//! so one module serves them; TypeScript only adds declarations (interfaces,
//! type aliases, enums, namespaces, `declare …`, `import x = require()`).

use std::collections::HashMap;

use tree_sitter::Node;

use crate::common::{
    Ctx, Found, FoundImport, FoundMember, FoundSymbol, has_child_kind, named_children, specifier,
    walk,
};
use crate::{ImportKind, MemberKind, SymbolKind};

/// Which flavour of the language is analyzed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// TypeScript or TSX.
    TypeScript,
    /// JavaScript: CommonJS `module.exports` / `exports.x` count as exports.
    JavaScript,
}

/// Whether a script is a bundle a tool wrote: it opens with browserify's prelude (the module
/// loader `(function(){function r(e,n,t){…` or its older `(function e(t,n,r){…`) or webpack's
/// bootstrap (`/******/`, `webpackBootstrap`). Hugo keeps such a `livereload.js`.
fn is_bundle(src: &[u8]) -> bool {
    let head = &src[..src.len().min(2048)];
    let text = String::from_utf8_lossy(head);
    let start = text.trim_start();
    start.starts_with("(function(){function r(e,n,t){")
        || start.starts_with("(function e(t,n,r){function s(o,u){")
        || start.starts_with("/******/")
        || text.contains("webpackBootstrap")
}

pub(crate) fn analyze(ctx: &Ctx<'_>, root: Node<'_>, dialect: Dialect) -> Found {
    let top = named_children(root);
    let scope = Scope::collect(ctx, &top);
    let mut symbols = Vec::new();
    let mut members = Vec::new();
    for &node in &top {
        match node.kind() {
            "export_statement" => export_statement(ctx, node, &scope, &mut symbols),
            "expression_statement" if dialect == Dialect::JavaScript => {
                commonjs_export(ctx, node, &scope, &mut symbols);
            }
            _ => {}
        }
        if let Some(class) = top_level_class(node) {
            class_members(ctx, class, &mut members);
        }
    }
    // A bundle's `require("./x")` names an entry of its own module table, not a file.
    let imports = if is_bundle(ctx.src) {
        Vec::new()
    } else {
        imports(ctx, root)
    };
    Found {
        symbols,
        imports,
        members,
        namespaces: Vec::new(),
        internal_names: Vec::new(),
    }
}

/// The class a top-level statement declares: `class X {}`, `abstract class
/// X {}`, `declare class X {}`, each possibly exported (`export default
/// class X {}` included; an anonymous default class has no owner name).
fn top_level_class(node: Node<'_>) -> Option<Node<'_>> {
    let mut current = node;
    // export → declare → class at most.
    for _ in 0..3 {
        match current.kind() {
            "class_declaration" | "abstract_class_declaration" => return Some(current),
            "export_statement" => current = current.child_by_field_name("declaration")?,
            "ambient_declaration" => {
                let mut cursor = current.walk();
                current = current
                    .named_children(&mut cursor)
                    .find(|n| n.kind() != "comment")?;
            }
            _ => return None,
        }
    }
    None
}

/// Methods (getters and setters included), static methods and properties
/// of a class declaration; TypeScript constructor parameter properties
/// (`constructor(private x: number)`) are properties too.
fn class_members(ctx: &Ctx<'_>, class: Node<'_>, out: &mut Vec<FoundMember>) {
    let (Some(owner), Some(body)) = (
        ctx.text_of(class.child_by_field_name("name")),
        class.child_by_field_name("body"),
    ) else {
        return;
    };
    for member in named_children(body) {
        let (kind, name_field) = match member.kind() {
            "method_definition" | "method_signature" | "abstract_method_signature" => {
                let kind = if has_child_kind(member, "static") {
                    MemberKind::AssociatedFunction
                } else {
                    MemberKind::Method
                };
                (kind, "name")
            }
            // TypeScript, JavaScript.
            "public_field_definition" => (MemberKind::Field, "name"),
            "field_definition" => (MemberKind::Field, "property"),
            _ => continue,
        };
        let Some(name) = member.child_by_field_name(name_field) else {
            continue;
        };
        let found = match name.kind() {
            "property_identifier" | "private_property_identifier" | "identifier" => {
                FoundMember::new(ctx, name, owner, kind)
            }
            // `'quoted-name'() {}`; computed and numeric names are no names.
            "string" => string_literal(ctx, name)
                .and_then(|value| FoundMember::named(ctx, name, &value, owner, kind)),
            _ => None,
        };
        out.extend(found);
        if kind == MemberKind::Method && ctx.text(name) == Some("constructor") {
            parameter_properties(ctx, member, owner, out);
        }
    }
}

/// `constructor(private readonly x: number, public y?: string)`: each
/// parameter with an accessibility modifier or `readonly` declares a
/// property.
fn parameter_properties(
    ctx: &Ctx<'_>,
    constructor: Node<'_>,
    owner: &str,
    out: &mut Vec<FoundMember>,
) {
    let Some(parameters) = constructor.child_by_field_name("parameters") else {
        return;
    };
    for parameter in named_children(parameters) {
        if !matches!(
            parameter.kind(),
            "required_parameter" | "optional_parameter"
        ) {
            continue;
        }
        let declares = has_child_kind(parameter, "accessibility_modifier")
            || has_child_kind(parameter, "readonly");
        let pattern = parameter
            .child_by_field_name("pattern")
            .filter(|p| p.kind() == "identifier");
        if let (true, Some(pattern)) = (declares, pattern) {
            out.extend(FoundMember::new(ctx, pattern, owner, MemberKind::Field));
        }
    }
}

/// What the top level of the module binds: declared names with their kinds,
/// and imported names with the module they come from. Used to give
/// `export { a, b as c }` kinds, and to tell re-exports of imports apart.
struct Scope<'s> {
    kinds: HashMap<&'s str, SymbolKind>,
    imported: HashMap<&'s str, String>,
}

impl<'s> Scope<'s> {
    fn collect(ctx: &Ctx<'s>, top: &[Node<'_>]) -> Self {
        let mut scope = Scope {
            kinds: HashMap::new(),
            imported: HashMap::new(),
        };
        for &node in top {
            let declaration = match node.kind() {
                "export_statement" => node.child_by_field_name("declaration"),
                "import_statement" => {
                    scope.collect_import(ctx, node);
                    None
                }
                _ => Some(node),
            };
            if let Some(declaration) = declaration {
                for decl in declarations(ctx, declaration) {
                    scope.kinds.entry(decl.name).or_insert(decl.kind);
                }
            }
        }
        scope
    }

    fn collect_import(&mut self, ctx: &Ctx<'s>, node: Node<'_>) {
        let Some(specifier) = import_source(ctx, node) else {
            return;
        };
        let mut locals = Vec::new();
        for child in named_children(node) {
            match child.kind() {
                "import_clause" => {
                    for part in named_children(child) {
                        match part.kind() {
                            "identifier" => locals.extend(ctx.text(part)),
                            "namespace_import" => {
                                locals.extend(
                                    named_children(part)
                                        .into_iter()
                                        .filter(|n| n.kind() == "identifier")
                                        .filter_map(|n| ctx.text(n)),
                                );
                            }
                            "named_imports" => {
                                for spec in named_children(part) {
                                    let local = spec
                                        .child_by_field_name("alias")
                                        .or_else(|| spec.child_by_field_name("name"));
                                    if local.is_some_and(|l| l.kind() == "identifier") {
                                        locals.extend(ctx.text_of(local));
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
                "import_require_clause" => {
                    locals.extend(
                        named_children(child)
                            .into_iter()
                            .find(|n| n.kind() == "identifier")
                            .and_then(|n| ctx.text(n)),
                    );
                }
                _ => {}
            }
        }
        for local in locals {
            self.imported
                .entry(local)
                .or_insert_with(|| specifier.clone());
        }
    }
}

/// A name declared by a declaration node.
struct Decl<'s, 't> {
    name: &'s str,
    kind: SymbolKind,
    node: Node<'t>,
}

/// The names a declaration statement binds (several for `const a = 1, b = 2`
/// and destructuring patterns).
fn declarations<'s, 't>(ctx: &Ctx<'s>, node: Node<'t>) -> Vec<Decl<'s, 't>> {
    let mut out = Vec::new();
    let named = |kind: SymbolKind| -> Vec<Decl<'s, 't>> {
        ctx.text_of(node.child_by_field_name("name"))
            .map(|name| Decl { name, kind, node })
            .into_iter()
            .collect()
    };
    match node.kind() {
        "function_declaration" | "generator_function_declaration" | "function_signature" => {
            return named(SymbolKind::Function);
        }
        "class_declaration" | "abstract_class_declaration" => return named(SymbolKind::Class),
        "interface_declaration" => return named(SymbolKind::Interface),
        "type_alias_declaration" => return named(SymbolKind::Type),
        "enum_declaration" => return named(SymbolKind::Enum),
        "lexical_declaration" | "variable_declaration" => {
            let kind = match node.child_by_field_name("kind").map(|k| k.kind()) {
                Some("const") => SymbolKind::Const,
                _ => SymbolKind::Variable,
            };
            for declarator in named_children(node) {
                if declarator.kind() != "variable_declarator" {
                    continue;
                }
                if let Some(pattern) = declarator.child_by_field_name("name") {
                    for name in pattern_names(ctx, pattern) {
                        out.push(Decl {
                            name,
                            kind,
                            node: declarator,
                        });
                    }
                }
            }
        }
        "internal_module" | "module" => {
            // `namespace A.B.C {}` binds `A`; `module "x" {}` binds nothing.
            let mut name = node.child_by_field_name("name");
            while let Some(n) = name.filter(|n| n.kind() == "nested_identifier") {
                name = n.child_by_field_name("object").or_else(|| n.named_child(0));
            }
            if let Some(name) = name.filter(|n| n.kind() == "identifier") {
                out.extend(ctx.text(name).map(|name| Decl {
                    name,
                    kind: SymbolKind::Namespace,
                    node,
                }));
            }
        }
        "ambient_declaration" => {
            for child in named_children(node) {
                if child.kind() != "ambient_declaration" {
                    out.extend(declarations(ctx, child));
                }
            }
        }
        "import_alias" => {
            let name = named_children(node)
                .into_iter()
                .find(|n| n.kind() == "identifier");
            out.extend(ctx.text_of(name).map(|name| Decl {
                name,
                kind: SymbolKind::Unknown,
                node,
            }));
        }
        _ => {}
    }
    out
}

/// The identifiers a binding pattern binds, in source order.
fn pattern_names<'s>(ctx: &Ctx<'s>, pattern: Node<'_>) -> Vec<&'s str> {
    let mut names = Vec::new();
    // Explicit stack: patterns can nest arbitrarily deep.
    let mut stack = vec![pattern];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => names.extend(ctx.text(node)),
            "object_pattern" | "array_pattern" | "rest_pattern" => {
                stack.extend(named_children(node).into_iter().rev());
            }
            "pair_pattern" => stack.extend(node.child_by_field_name("value")),
            "object_assignment_pattern" | "assignment_pattern" => {
                stack.extend(node.child_by_field_name("left"));
            }
            _ => {}
        }
    }
    names
}

/// The value of a JS/TS string literal node.
fn string_literal(ctx: &Ctx<'_>, node: Node<'_>) -> Option<String> {
    (node.kind() == "string")
        .then(|| ctx.string_value(node, &["string_fragment"]))
        .flatten()
}

/// A module specifier given as a string literal (`from './y'`).
fn module_specifier(ctx: &Ctx<'_>, node: Node<'_>) -> Option<String> {
    string_literal(ctx, node).and_then(specifier)
}

/// An exported or imported name: an identifier, or a string literal
/// (`export { a as "a b" }`).
fn module_export_name(ctx: &Ctx<'_>, node: Node<'_>) -> Option<String> {
    match node.kind() {
        "string" => string_literal(ctx, node),
        _ => ctx.text(node).map(str::to_owned),
    }
}

/// `default` is always of kind Default, whichever way it is exported.
fn kind_for(name: &str, kind: SymbolKind) -> SymbolKind {
    if name == "default" {
        SymbolKind::Default
    } else {
        kind
    }
}

fn export_statement(ctx: &Ctx<'_>, node: Node<'_>, scope: &Scope<'_>, out: &mut Vec<FoundSymbol>) {
    let source = node
        .child_by_field_name("source")
        .and_then(|s| module_specifier(ctx, s));
    if has_child_kind(node, "default") {
        // `export default function f() {}` exports `default`, not `f`.
        out.push(FoundSymbol::local(
            ctx,
            node,
            "default",
            SymbolKind::Default,
        ));
        return;
    }
    if let Some(declaration) = node.child_by_field_name("declaration") {
        for decl in declarations(ctx, declaration) {
            out.push(FoundSymbol::local(ctx, decl.node, decl.name, decl.kind));
        }
        return;
    }
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            // TypeScript `export = value`: the CommonJS-style whole-module export.
            "=" => out.push(FoundSymbol::local(
                ctx,
                node,
                "default",
                SymbolKind::Default,
            )),
            "*" => {
                if let Some(from) = &source {
                    out.push(FoundSymbol::reexport(
                        ctx,
                        node,
                        "*",
                        SymbolKind::Unknown,
                        from,
                    ));
                }
            }
            "namespace_export" => {
                let name = named_children(child)
                    .into_iter()
                    .last()
                    .and_then(|n| module_export_name(ctx, n));
                if let (Some(name), Some(from)) = (name, &source) {
                    out.push(FoundSymbol::reexport(
                        ctx,
                        node,
                        &name,
                        kind_for(&name, SymbolKind::Namespace),
                        from,
                    ));
                }
            }
            "export_clause" => {
                for spec in named_children(child) {
                    if spec.kind() == "export_specifier" {
                        export_specifier(ctx, spec, source.as_deref(), scope, out);
                    }
                }
            }
            _ => {}
        }
    }
}

fn export_specifier(
    ctx: &Ctx<'_>,
    spec: Node<'_>,
    source: Option<&str>,
    scope: &Scope<'_>,
    out: &mut Vec<FoundSymbol>,
) {
    let local = spec
        .child_by_field_name("name")
        .and_then(|n| module_export_name(ctx, n));
    let exported = spec
        .child_by_field_name("alias")
        .and_then(|n| module_export_name(ctx, n))
        .or_else(|| local.clone());
    let (Some(local), Some(exported)) = (local, exported) else {
        return;
    };
    if let Some(from) = source {
        out.push(FoundSymbol::reexport(
            ctx,
            spec,
            &exported,
            kind_for(&exported, SymbolKind::Unknown),
            from,
        ));
    } else if let Some(from) = scope.imported.get(local.as_str()) {
        // `import { a } from './x'; export { a }` re-exports, although
        // without `from` on the export itself.
        out.push(FoundSymbol::reexport(
            ctx,
            spec,
            &exported,
            kind_for(&exported, SymbolKind::Unknown),
            from,
        ));
    } else {
        let kind = scope
            .kinds
            .get(local.as_str())
            .copied()
            .unwrap_or(SymbolKind::Unknown);
        out.push(FoundSymbol::local(
            ctx,
            spec,
            &exported,
            kind_for(&exported, kind),
        ));
    }
}

/// Where a CommonJS assignment puts its value.
enum CommonJsTarget {
    /// `module.exports = …`
    Module,
    /// `exports.name = …`, `module.exports.name = …`, `exports["name"] = …`
    Named(String),
}

fn commonjs_target(ctx: &Ctx<'_>, left: Node<'_>) -> Option<CommonJsTarget> {
    let is_ident = |node: Option<Node<'_>>, name: &str| {
        node.is_some_and(|n| n.kind() == "identifier" && ctx.text(n) == Some(name))
    };
    let is_module_exports = |node: Option<Node<'_>>| {
        node.is_some_and(|n| {
            n.kind() == "member_expression"
                && is_ident(n.child_by_field_name("object"), "module")
                && n.child_by_field_name("property")
                    .is_some_and(|p| ctx.text(p) == Some("exports"))
        })
    };
    let object = left.child_by_field_name("object");
    let exports_object = is_ident(object, "exports") || is_module_exports(object);
    match left.kind() {
        "member_expression" if is_module_exports(Some(left)) => Some(CommonJsTarget::Module),
        "member_expression" if exports_object => ctx
            .text_of(left.child_by_field_name("property"))
            .map(|p| CommonJsTarget::Named(p.to_owned())),
        "subscript_expression" if exports_object => left
            .child_by_field_name("index")
            .and_then(|i| string_literal(ctx, i))
            .map(CommonJsTarget::Named),
        _ => None,
    }
}

/// The kind of a value assigned to an export.
fn value_kind(ctx: &Ctx<'_>, value: Option<Node<'_>>, scope: &Scope<'_>) -> SymbolKind {
    let Some(value) = value else {
        return SymbolKind::Variable;
    };
    match value.kind() {
        "function_expression"
        | "function"
        | "arrow_function"
        | "generator_function"
        | "method_definition" => SymbolKind::Function,
        "class" => SymbolKind::Class,
        // A local name exported under another one keeps its declaration's kind.
        "identifier" | "shorthand_property_identifier" => ctx
            .text(value)
            .and_then(|name| scope.kinds.get(name).copied())
            .unwrap_or(SymbolKind::Variable),
        _ => SymbolKind::Variable,
    }
}

/// Best effort CommonJS exports: `module.exports = …` (exports `default`,
/// plus the keys when it is an object literal) and `exports.x = …`.
fn commonjs_export(
    ctx: &Ctx<'_>,
    statement: Node<'_>,
    scope: &Scope<'_>,
    out: &mut Vec<FoundSymbol>,
) {
    let Some(mut expression) = statement.named_child(0) else {
        return;
    };
    // `module.exports = exports = value`: every target gets the value.
    let mut targets = Vec::new();
    let mut value = None;
    while expression.kind() == "assignment_expression" {
        targets.extend(expression.child_by_field_name("left"));
        match expression.child_by_field_name("right") {
            Some(right) => {
                expression = right;
                value = Some(right);
            }
            None => {
                value = None;
                break;
            }
        }
    }
    for target in targets {
        match commonjs_target(ctx, target) {
            Some(CommonJsTarget::Module) => {
                out.push(FoundSymbol::local(
                    ctx,
                    statement,
                    "default",
                    SymbolKind::Default,
                ));
                if let Some(object) = value.filter(|v| v.kind() == "object") {
                    object_keys(ctx, object, scope, out);
                }
            }
            Some(CommonJsTarget::Named(name)) => {
                let kind = kind_for(&name, value_kind(ctx, value, scope));
                out.push(FoundSymbol::local(ctx, statement, &name, kind));
            }
            None => {}
        }
    }
}

/// `module.exports = { a, b: f, c() {} }` also exports `a`, `b` and `c`.
fn object_keys(ctx: &Ctx<'_>, object: Node<'_>, scope: &Scope<'_>, out: &mut Vec<FoundSymbol>) {
    for property in named_children(object) {
        let (name, value) = match property.kind() {
            "shorthand_property_identifier" => {
                (ctx.text(property).map(str::to_owned), Some(property))
            }
            "pair" => (
                property
                    .child_by_field_name("key")
                    .and_then(|k| match k.kind() {
                        "property_identifier" => ctx.text(k).map(str::to_owned),
                        "string" => string_literal(ctx, k),
                        _ => None,
                    }),
                property.child_by_field_name("value"),
            ),
            "method_definition" => (
                ctx.text_of(property.child_by_field_name("name"))
                    .map(str::to_owned),
                Some(property),
            ),
            _ => (None, None),
        };
        if let Some(name) = name {
            let kind = kind_for(&name, value_kind(ctx, value, scope));
            out.push(FoundSymbol::local(ctx, property, &name, kind));
        }
    }
}

/// The module an `import` statement imports from (`import x = require('y')`
/// keeps it inside its clause).
fn import_source(ctx: &Ctx<'_>, node: Node<'_>) -> Option<String> {
    let source = node.child_by_field_name("source").or_else(|| {
        named_children(node)
            .into_iter()
            .find(|c| c.kind() == "import_require_clause")
            .and_then(|c| c.child_by_field_name("source"))
    })?;
    module_specifier(ctx, source)
}

/// The names an `import` statement takes from the imported module.
fn import_names(ctx: &Ctx<'_>, node: Node<'_>) -> Vec<String> {
    let mut names = Vec::new();
    for child in named_children(node) {
        match child.kind() {
            "import_clause" => {
                for part in named_children(child) {
                    match part.kind() {
                        "identifier" => names.push("default".to_owned()),
                        "namespace_import" => names.push("*".to_owned()),
                        "named_imports" => names.extend(
                            named_children(part)
                                .into_iter()
                                .filter(|s| s.kind() == "import_specifier")
                                .filter_map(|s| s.child_by_field_name("name"))
                                .filter_map(|n| module_export_name(ctx, n)),
                        ),
                        _ => {}
                    }
                }
            }
            // `import x = require('y')` binds the whole module.
            "import_require_clause" => names.push("*".to_owned()),
            _ => {}
        }
    }
    names
}

/// The names an `export … from` statement takes from the other module.
fn reexport_names(ctx: &Ctx<'_>, node: Node<'_>) -> Vec<String> {
    let mut names = Vec::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            "*" | "namespace_export" => names.push("*".to_owned()),
            "export_clause" => names.extend(
                named_children(child)
                    .into_iter()
                    .filter(|s| s.kind() == "export_specifier")
                    .filter_map(|s| s.child_by_field_name("name"))
                    .filter_map(|n| module_export_name(ctx, n)),
            ),
            _ => {}
        }
    }
    names
}

/// The keys a destructuring `const { a, b: c } = require('x')` takes.
fn destructured_keys(ctx: &Ctx<'_>, pattern: Node<'_>) -> Vec<String> {
    named_children(pattern)
        .into_iter()
        .filter_map(|p| match p.kind() {
            "shorthand_property_identifier_pattern" => ctx.text(p).map(str::to_owned),
            "pair_pattern" => p.child_by_field_name("key").and_then(|k| match k.kind() {
                "string" => string_literal(ctx, k),
                _ => ctx.text(k).map(str::to_owned),
            }),
            "object_assignment_pattern" => ctx
                .text_of(p.child_by_field_name("left"))
                .map(str::to_owned),
            _ => None,
        })
        .collect()
}

/// Every import in the module, wherever it is (dynamic imports and
/// `require` calls can be nested anywhere; `declare module` blocks hold
/// static ones).
fn imports(ctx: &Ctx<'_>, root: Node<'_>) -> Vec<FoundImport> {
    let mut out = Vec::new();
    // Keys destructured from a `require` call, by the call's node id: the
    // declarator is visited before the call, and asking the call for its
    // parent would not be linear.
    let mut destructured: HashMap<usize, Vec<String>> = HashMap::new();
    walk(root, |node| {
        match node.kind() {
            "import_statement" => {
                if let Some(specifier) = import_source(ctx, node) {
                    let names = import_names(ctx, node);
                    out.push(FoundImport::new(
                        ctx,
                        node,
                        &specifier,
                        ImportKind::Static,
                        names,
                    ));
                }
                return false;
            }
            "export_statement" => {
                let source = node
                    .child_by_field_name("source")
                    .and_then(|s| module_specifier(ctx, s));
                if let Some(specifier) = source {
                    let names = reexport_names(ctx, node);
                    out.push(FoundImport::new(
                        ctx,
                        node,
                        &specifier,
                        ImportKind::ReExport,
                        names,
                    ));
                }
            }
            "variable_declarator" => {
                let pattern = node
                    .child_by_field_name("name")
                    .filter(|n| n.kind() == "object_pattern");
                let call = node
                    .child_by_field_name("value")
                    .filter(|v| v.kind() == "call_expression");
                if let (Some(pattern), Some(call)) = (pattern, call) {
                    destructured.insert(call.id(), destructured_keys(ctx, pattern));
                }
            }
            "call_expression" => {
                if let Some(specifier) = dynamic_import(ctx, node) {
                    let names = destructured.remove(&node.id()).unwrap_or_default();
                    out.push(FoundImport::new(
                        ctx,
                        node,
                        &specifier,
                        ImportKind::Dynamic,
                        names,
                    ));
                }
            }
            _ => {}
        }
        true
    });
    out
}

/// The specifier of `require('x')` or `import('x')`, if it is a string literal.
fn dynamic_import(ctx: &Ctx<'_>, call: Node<'_>) -> Option<String> {
    let function = call.child_by_field_name("function")?;
    let is_import = match function.kind() {
        "import" => true,
        "identifier" => ctx.text(function) == Some("require"),
        _ => false,
    };
    if !is_import {
        return None;
    }
    let arguments = call.child_by_field_name("arguments")?;
    let first = named_children(arguments)
        .into_iter()
        .find(|a| a.kind() != "comment")?;
    module_specifier(ctx, first)
}

#[cfg(test)]
mod tests {
    use crate::{ImportKind, Language, MemberKind, SymbolKind, analyze};

    #[test]
    fn a_bundle_names_no_files() {
        let specifiers = |src: &str| -> Vec<String> {
            analyze(Language::JavaScript, src.as_bytes())
                .imports
                .into_iter()
                .map(|i| i.specifier)
                .collect()
        };
        let body = "{1:[function(require,module,exports){\nvar wks = require('./_wks');\n},{}]},{},[1]);\n";
        let browserify = format!(
            "(function(){{function r(e,n,t){{function o(i,f){{}}return o}}return r}})()({body}"
        );
        assert!(specifiers(&browserify).is_empty());
        let webpack = "/******/ (() => { // webpackBootstrap\nrequire('./a');\n})();\n";
        assert!(specifiers(webpack).is_empty());
        assert_eq!(specifiers("var wks = require('./_wks');\n"), ["./_wks"]);
    }

    fn symbols(
        language: Language,
        src: &str,
    ) -> Vec<(String, SymbolKind, u32, bool, Option<String>)> {
        analyze(language, src.as_bytes())
            .symbols
            .into_iter()
            .map(|s| (s.name, s.kind, s.line, s.reexport, s.from))
            .collect()
    }

    fn names(language: Language, src: &str) -> Vec<String> {
        analyze(language, src.as_bytes())
            .symbols
            .into_iter()
            .map(|s| s.name)
            .collect()
    }

    fn imports(language: Language, src: &str) -> Vec<(String, ImportKind, Vec<String>, u32)> {
        analyze(language, src.as_bytes())
            .imports
            .into_iter()
            .map(|i| (i.specifier, i.kind, i.names, i.line))
            .collect()
    }

    fn s(v: &str) -> String {
        v.to_owned()
    }

    #[test]
    fn ts_exported_declarations_get_their_kinds() {
        let src = "export function f() {}\nexport class C {}\nexport abstract class A {}\n\
                   export interface I {}\nexport type T = string;\nexport enum E { A }\n\
                   export const enum CE { A }\nexport namespace N {}\nexport const c = 1;\n\
                   export let l = 1;\nexport var v = 1;\nexport function* g() {}\n";
        let got: Vec<_> = symbols(Language::TypeScript, src)
            .into_iter()
            .map(|(n, k, l, ..)| (n, k, l))
            .collect();
        assert_eq!(
            got,
            vec![
                (s("f"), SymbolKind::Function, 1),
                (s("C"), SymbolKind::Class, 2),
                (s("A"), SymbolKind::Class, 3),
                (s("I"), SymbolKind::Interface, 4),
                (s("T"), SymbolKind::Type, 5),
                (s("E"), SymbolKind::Enum, 6),
                (s("CE"), SymbolKind::Enum, 7),
                (s("N"), SymbolKind::Namespace, 8),
                (s("c"), SymbolKind::Const, 9),
                (s("l"), SymbolKind::Variable, 10),
                (s("v"), SymbolKind::Variable, 11),
                (s("g"), SymbolKind::Function, 12),
            ]
        );
    }

    #[test]
    fn ts_declare_exports_count() {
        let src = "export declare const x: number;\nexport declare function h(): void;\n\
                   export declare namespace NS.Inner {}\nexport declare class K {}\n";
        assert_eq!(names(Language::TypeScript, src), ["x", "h", "NS", "K"]);
    }

    #[test]
    fn ts_unexported_and_nested_declarations_are_not_symbols() {
        let src = "function hidden() {}\nconst y = 1;\nnamespace N { export const inner = 1; }\n\
                   declare module 'm' { export const z: number; }\n";
        assert!(names(Language::TypeScript, src).is_empty());
    }

    #[test]
    fn ts_export_default_records_only_default() {
        for src in [
            "export default function named() {}",
            "export default class Named {}",
            "export default 42;",
            "export default interface DI {}",
            "const x = 1; export { x as default };",
        ] {
            let got = symbols(Language::TypeScript, src);
            assert_eq!(got.len(), 1, "{src}: {got:?}");
            assert_eq!(got[0].0, "default", "{src}");
            assert_eq!(got[0].1, SymbolKind::Default, "{src}");
        }
    }

    #[test]
    fn ts_export_assignment_is_a_default_export() {
        assert_eq!(
            symbols(Language::TypeScript, "const foo = 1;\nexport = foo;"),
            [(s("default"), SymbolKind::Default, 2, false, None)]
        );
    }

    #[test]
    fn ts_export_clause_uses_exported_names_and_local_kinds() {
        let src = "function a() {}\nclass B {}\nexport { a, B as C, missing };\n";
        assert_eq!(
            symbols(Language::TypeScript, src),
            [
                (s("a"), SymbolKind::Function, 3, false, None),
                (s("C"), SymbolKind::Class, 3, false, None),
                (s("missing"), SymbolKind::Unknown, 3, false, None),
            ]
        );
    }

    #[test]
    fn ts_export_of_an_imported_name_is_a_reexport() {
        let src =
            "import { a } from './a';\nimport * as ns from './ns';\nexport { a, ns as space };\n";
        assert_eq!(
            symbols(Language::TypeScript, src),
            [
                (s("a"), SymbolKind::Unknown, 3, true, Some(s("./a"))),
                (s("space"), SymbolKind::Unknown, 3, true, Some(s("./ns"))),
            ]
        );
    }

    #[test]
    fn ts_export_star_is_a_reexport() {
        let src = "export * from './y';\nexport * as ns from './w';\n";
        assert_eq!(
            symbols(Language::TypeScript, src),
            [
                (s("*"), SymbolKind::Unknown, 1, true, Some(s("./y"))),
                (s("ns"), SymbolKind::Namespace, 2, true, Some(s("./w"))),
            ]
        );
        assert_eq!(
            imports(Language::TypeScript, src),
            [
                (s("./y"), ImportKind::ReExport, vec![s("*")], 1),
                (s("./w"), ImportKind::ReExport, vec![s("*")], 2),
            ]
        );
    }

    #[test]
    fn ts_named_reexports_keep_source_names_in_imports() {
        let src =
            "export { x, y as z, default as D } from './m';\nexport type { T } from \"./t\";\n";
        assert_eq!(
            symbols(Language::TypeScript, src),
            [
                (s("x"), SymbolKind::Unknown, 1, true, Some(s("./m"))),
                (s("z"), SymbolKind::Unknown, 1, true, Some(s("./m"))),
                (s("D"), SymbolKind::Unknown, 1, true, Some(s("./m"))),
                (s("T"), SymbolKind::Unknown, 2, true, Some(s("./t"))),
            ]
        );
        assert_eq!(
            imports(Language::TypeScript, src),
            [
                (
                    s("./m"),
                    ImportKind::ReExport,
                    vec![s("x"), s("y"), s("default")],
                    1
                ),
                (s("./t"), ImportKind::ReExport, vec![s("T")], 2),
            ]
        );
    }

    #[test]
    fn ts_destructured_exports_record_every_binding() {
        let src = "export const { a, b: bb, c = 1, ...rest } = o, [p, , [q], ...r] = arr;";
        assert_eq!(
            names(Language::TypeScript, src),
            ["a", "bb", "c", "rest", "p", "q", "r"]
        );
    }

    #[test]
    fn ts_overloads_are_deduplicated() {
        let src = "export function f(a: string): void;\nexport function f(a: number): void;\n\
                   export function f(a: any) {}\nexport { f };\n";
        assert_eq!(
            symbols(Language::TypeScript, src),
            [(s("f"), SymbolKind::Function, 1, false, None)]
        );
    }

    #[test]
    fn ts_imports_list_names_as_written_in_the_source_module() {
        let src = "import def, { y as yy, z } from 'yy';\nimport * as all from 'all';\n\
                   import 'side';\nimport type { X } from 'x';\nimport fs = require('fs');\n\
                   const lazy = await import('./lazy');\ntype M = typeof import('./types');\n";
        assert_eq!(
            imports(Language::TypeScript, src),
            [
                (
                    s("yy"),
                    ImportKind::Static,
                    vec![s("default"), s("y"), s("z")],
                    1
                ),
                (s("all"), ImportKind::Static, vec![s("*")], 2),
                (s("side"), ImportKind::Static, vec![], 3),
                (s("x"), ImportKind::Static, vec![s("X")], 4),
                (s("fs"), ImportKind::Static, vec![s("*")], 5),
                (s("./lazy"), ImportKind::Dynamic, vec![], 6),
                (s("./types"), ImportKind::Dynamic, vec![], 7),
            ]
        );
    }

    #[test]
    fn js_require_and_dynamic_import_need_string_literals() {
        let src = "const a = require('a');\nconst { b, c: d } = require(\"b\");\n\
                   require(name);\nimport(`tpl`);\nfunction f() { return import('./nested'); }\n\
                   obj.require('no');\n";
        assert_eq!(
            imports(Language::JavaScript, src),
            [
                (s("a"), ImportKind::Dynamic, vec![], 1),
                (s("b"), ImportKind::Dynamic, vec![s("b"), s("c")], 2),
                (s("./nested"), ImportKind::Dynamic, vec![], 5),
            ]
        );
    }

    #[test]
    fn js_commonjs_exports_are_recorded() {
        let src = "function helper() {}\nmodule.exports = { helper, answer: 42, run() {} };\n\
                   module.exports.extra = function () {};\nexports.Klass = class {};\n\
                   exports['quoted'] = 1;\n";
        assert_eq!(
            symbols(Language::JavaScript, src),
            [
                (s("default"), SymbolKind::Default, 2, false, None),
                (s("helper"), SymbolKind::Function, 2, false, None),
                (s("answer"), SymbolKind::Variable, 2, false, None),
                (s("run"), SymbolKind::Function, 2, false, None),
                (s("extra"), SymbolKind::Function, 3, false, None),
                (s("Klass"), SymbolKind::Class, 4, false, None),
                (s("quoted"), SymbolKind::Variable, 5, false, None),
            ]
        );
    }

    #[test]
    fn ts_commonjs_assignments_are_not_exports() {
        assert!(names(Language::TypeScript, "module.exports = {};\nexports.a = 1;").is_empty());
    }

    #[test]
    fn jsx_and_tsx_parse_without_errors() {
        let jsx = "export default function App() { return <div className=\"a\">{x}</div>; }\n";
        let facts = analyze(Language::JavaScript, jsx.as_bytes());
        assert_eq!(facts.syntax_error_count, 0);
        assert_eq!(facts.symbols.len(), 1);
        let tsx = "export const App = (p: Props) => <div>{p.x as string}</div>;\n";
        let facts = analyze(Language::Tsx, tsx.as_bytes());
        assert_eq!(facts.syntax_error_count, 0, "{facts:?}");
        assert_eq!(facts.symbols[0].name, "App");
    }

    #[test]
    fn ts_string_export_names_are_decoded() {
        let src =
            "const a = 1;\nexport { a as \"a b\" };\nexport { \"x\\u0041\" as y } from './m';\n";
        assert_eq!(names(Language::TypeScript, src), ["a b", "y"]);
        assert_eq!(
            imports(Language::TypeScript, src),
            [(s("./m"), ImportKind::ReExport, vec![s("xA")], 3)]
        );
    }

    #[test]
    fn class_members_of_top_level_classes() {
        let src = "export default class A<T> {\n  static s = 1;\n  p?: T;\n  #q = 2;\n  \
                   constructor(private r: T, t: T) {}\n  static make() {}\n  get g() { return 1; }\n  \
                   m(): void;\n  m() {}\n  'str'() {}\n  [computed]() {}\n}\n\
                   class B { x() {} }\nexport abstract class C { abstract y(): void; }\n\
                   declare class D { z(): void; }\nconst E = class { no() {} };\n\
                   function f() { class G { no() {} } }\n";
        let members = crate::test_support::members(Language::TypeScript, src);
        assert_eq!(
            members,
            [
                (s("A.s"), MemberKind::Field, 2),
                (s("A.p"), MemberKind::Field, 3),
                (s("A.#q"), MemberKind::Field, 4),
                (s("A.constructor"), MemberKind::Method, 5),
                (s("A.r"), MemberKind::Field, 5),
                (s("A.make"), MemberKind::AssociatedFunction, 6),
                (s("A.g"), MemberKind::Method, 7),
                (s("A.m"), MemberKind::Method, 8),
                (s("A.str"), MemberKind::Method, 10),
                (s("B.x"), MemberKind::Method, 13),
                (s("C.y"), MemberKind::Method, 14),
                (s("D.z"), MemberKind::Method, 15),
            ]
        );
        let js = "class K { static n = 0; f = 1; static st() {} me() {} }\nexport default class { a() {} }\n";
        assert_eq!(
            crate::test_support::members(Language::JavaScript, js),
            [
                (s("K.n"), MemberKind::Field, 1),
                (s("K.f"), MemberKind::Field, 1),
                (s("K.st"), MemberKind::AssociatedFunction, 1),
                (s("K.me"), MemberKind::Method, 1),
            ]
        );
    }

    #[test]
    fn syntax_errors_yield_partial_symbols_and_a_diagnostic() {
        let src = "export function ok() {}\nexport const = ;\nexport class Fine {}\n";
        let facts = analyze(Language::TypeScript, src.as_bytes());
        let got: Vec<_> = facts.symbols.iter().map(|s| s.name.as_str()).collect();
        assert!(got.contains(&"ok"), "{got:?}");
        assert!(got.contains(&"Fine"), "{got:?}");
        assert!(facts.syntax_error_count >= 1);
        assert_eq!(facts.syntax_errors[0].line, 2);
    }
}
