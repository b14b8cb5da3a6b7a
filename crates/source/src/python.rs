//! Python.
//!
//! Module-level statements are the module's direct children plus, at any
//! depth, the bodies of `if`/`elif`/`else`, `try`/`except`/`finally` and
//! `with` blocks among them (conditional imports and fallback definitions
//! are module-level names too). Function and class bodies are not. A
//! `if __name__ == "__main__":` block defines no exported names, though its
//! imports are still imports.
//!
//! Exported: module-level `def`, `async def`, `class` (decorated or not),
//! `type X = …` and assignment targets whose names do not start with `_`.
//! A module-level `__all__` list or tuple of string literals (with `+=`,
//! `.extend()`, `.append()`) overrides that and decides exactly which names
//! are exported; imported names it lists are re-exports.
//!
//! Members: the methods (`def`, `async def`, decorated or not; kind
//! associated-function under `@staticmethod` or `@classmethod`) and the
//! class-level assigned or annotated attributes of every module-level class,
//! private names included, also inside `if`/`try`/`with` blocks of the class
//! body; nested classes are owners too, dotted (`Outer.Inner`), down to
//! [`MAX_CLASS_DEPTH`]. Attributes assigned in methods (`self.x = …`) are
//! not members.

use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use tree_sitter::Node;

use crate::common::{
    Ctx, Found, FoundImport, FoundMember, FoundSymbol, named_children, specifier, walk,
};
use crate::{ImportKind, MemberKind, SymbolKind};

/// Classes nested deeper than this in a module-level class are not owners.
const MAX_CLASS_DEPTH: usize = 8;

/// A name defined at module level.
struct Def<'t> {
    name: String,
    kind: SymbolKind,
    node: Node<'t>,
}

/// What the module level binds and imports.
#[derive(Default)]
struct Module<'t> {
    defs: Vec<Def<'t>>,
    /// Names bound by imports: the module they come from and the statement.
    imported: HashMap<String, (String, Node<'t>)>,
    /// The literal entries of `__all__`, if it was given any.
    dunder_all: Option<Vec<(String, Node<'t>)>>,
    imports: Vec<FoundImport>,
    members: Vec<FoundMember>,
}

pub(crate) fn analyze(ctx: &Ctx<'_>, root: Node<'_>) -> Found {
    let mut module = Module::default();
    // Byte range of the `if __name__ == "__main__":` block being walked.
    let mut main_guard: Option<Range<usize>> = None;
    walk(root, |node| {
        let in_main_guard = main_guard
            .as_ref()
            .is_some_and(|r| r.contains(&node.start_byte()));
        match node.kind() {
            "module"
            | "block"
            | "elif_clause"
            | "else_clause"
            | "try_statement"
            | "except_clause"
            | "except_group_clause"
            | "finally_clause"
            | "with_statement" => true,
            "if_statement" => {
                if !in_main_guard && is_main_guard(ctx, node) {
                    main_guard = Some(node.byte_range());
                }
                true
            }
            "import_statement" => {
                module.import_statement(ctx, node, !in_main_guard);
                false
            }
            "import_from_statement" | "future_import_statement" => {
                module.import_from_statement(ctx, node, !in_main_guard);
                false
            }
            _ if in_main_guard => false,
            "function_definition" | "class_definition" => {
                module.definition(ctx, node);
                false
            }
            "decorated_definition" => {
                if let Some(definition) = node.child_by_field_name("definition") {
                    module.definition(ctx, definition);
                }
                false
            }
            "type_alias_statement" => {
                let name = node
                    .child_by_field_name("left")
                    .and_then(|t| {
                        t.named_child(0)
                            .filter(|n| n.kind() == "identifier")
                            .or(Some(t))
                    })
                    .filter(|n| n.kind() == "identifier");
                if let Some(name) = ctx.text_of(name) {
                    module.defs.push(Def {
                        name: name.to_owned(),
                        kind: SymbolKind::Type,
                        node,
                    });
                }
                false
            }
            "expression_statement" => {
                for child in named_children(node) {
                    module.expression(ctx, child);
                }
                false
            }
            _ => false,
        }
    });
    Found {
        symbols: module.exports(ctx),
        imports: module.imports,
        members: module.members,
        namespaces: Vec::new(),
        internal_names: Vec::new(),
    }
}

/// The members of a class (see the module documentation), and those of the
/// classes nested in it, with an explicit stack.
fn class_members(ctx: &Ctx<'_>, class: Node<'_>, name: &str, out: &mut Vec<FoundMember>) {
    // (statement or block, owner, nesting depth of the owner)
    let mut stack: Vec<(Node<'_>, Rc<str>, usize)> = Vec::new();
    if let Some(body) = class.child_by_field_name("body") {
        stack.push((body, Rc::from(name), 1));
    }
    while let Some((node, owner, depth)) = stack.pop() {
        match node.kind() {
            // Statement lists and the clauses of compound statements in the
            // class body: what they hold is still class level.
            "block"
            | "if_statement"
            | "elif_clause"
            | "else_clause"
            | "try_statement"
            | "except_clause"
            | "except_group_clause"
            | "finally_clause"
            | "with_statement" => {
                for child in named_children(node) {
                    stack.push((child, owner.clone(), depth));
                }
            }
            "function_definition" => method(ctx, node, &owner, MemberKind::Method, out),
            "decorated_definition" => {
                let Some(definition) = node.child_by_field_name("definition") else {
                    continue;
                };
                if definition.kind() == "class_definition" {
                    stack.push((definition, owner, depth));
                    continue;
                }
                let associated = named_children(node)
                    .into_iter()
                    .filter(|d| d.kind() == "decorator")
                    .any(|d| {
                        matches!(decorator_name(ctx, d), Some("staticmethod" | "classmethod"))
                    });
                let kind = if associated {
                    MemberKind::AssociatedFunction
                } else {
                    MemberKind::Method
                };
                method(ctx, definition, &owner, kind, out);
            }
            "class_definition" if depth < MAX_CLASS_DEPTH => {
                let name = ctx.text_of(node.child_by_field_name("name"));
                if let (Some(name), Some(body)) = (name, node.child_by_field_name("body")) {
                    stack.push((body, Rc::from(format!("{owner}.{name}")), depth + 1));
                }
            }
            "expression_statement" => {
                for child in named_children(node) {
                    // `a = b = value` nests assignments in `right`.
                    let mut current = Some(child);
                    while let Some(assignment) = current.filter(|n| n.kind() == "assignment") {
                        if let Some(left) = assignment.child_by_field_name("left") {
                            for target in target_identifiers(left) {
                                out.extend(FoundMember::new(
                                    ctx,
                                    target,
                                    &owner,
                                    MemberKind::Field,
                                ));
                            }
                        }
                        current = assignment.child_by_field_name("right");
                    }
                }
            }
            _ => {}
        }
    }
}

/// A `def` in a class body.
fn method(
    ctx: &Ctx<'_>,
    definition: Node<'_>,
    owner: &str,
    kind: MemberKind,
    out: &mut Vec<FoundMember>,
) {
    if definition.kind() != "function_definition" {
        return;
    }
    if let Some(name) = definition.child_by_field_name("name") {
        out.extend(FoundMember::new(ctx, name, owner, kind));
    }
}

/// The last name of a decorator: `staticmethod` for `@staticmethod` and for
/// `@abc.staticmethod`; `None` for calls and other expressions.
fn decorator_name<'s>(ctx: &Ctx<'s>, decorator: Node<'_>) -> Option<&'s str> {
    let expression = named_children(decorator)
        .into_iter()
        .find(|n| n.kind() != "comment")?;
    match expression.kind() {
        "identifier" => ctx.text(expression),
        "attribute" => ctx.text_of(expression.child_by_field_name("attribute")),
        _ => None,
    }
}

/// `if __name__ == "__main__":` (either operand order, either quote).
fn is_main_guard(ctx: &Ctx<'_>, node: Node<'_>) -> bool {
    let Some(condition) = node.child_by_field_name("condition") else {
        return false;
    };
    if condition.kind() != "comparison_operator" {
        return false;
    }
    let operands = named_children(condition);
    let [left, right] = operands.as_slice() else {
        return false;
    };
    let is_name = |n: &Node<'_>| n.kind() == "identifier" && ctx.text(*n) == Some("__name__");
    let is_main = |n: &Node<'_>| string_value(ctx, *n).as_deref() == Some("__main__");
    (is_name(left) && is_main(right)) || (is_main(left) && is_name(right))
}

/// The reStructuredText labels a module's docstrings define: every line that is only
/// `.. _name:` (Sphinx's explicit target). Read from the lines of the source, so a label is
/// found however far into the module its docstring sits; such a line outside a docstring is a
/// comment's or a string's, and Python code has none.
pub(crate) fn docstring_labels(source: &[u8]) -> Vec<String> {
    let mut labels = Vec::new();
    for line in source.split(|b| *b == b'\n') {
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let Some(rest) = line.trim().strip_prefix(".. _") else {
            continue;
        };
        let Some(name) = rest.strip_suffix(':') else {
            continue;
        };
        let name = name
            .strip_prefix('`')
            .and_then(|n| n.strip_suffix('`'))
            .unwrap_or(name);
        if !name.is_empty() && !name.contains(['`', ':']) && !labels.iter().any(|l| l == name) {
            labels.push(name.to_owned());
        }
    }
    labels
}

/// The value of a plain string literal; `None` for f-strings, bytes,
/// implicit concatenations and strings with escapes.
fn string_value(ctx: &Ctx<'_>, node: Node<'_>) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let mut value = String::new();
    for child in named_children(node) {
        match child.kind() {
            "string_start" => {
                let prefix = ctx.text(child)?;
                if prefix
                    .chars()
                    .any(|c| matches!(c, 'f' | 'F' | 'b' | 'B' | 't' | 'T'))
                {
                    return None;
                }
            }
            "string_end" => {}
            "string_content" if child.named_child_count() == 0 => value.push_str(ctx.text(child)?),
            _ => return None,
        }
    }
    Some(value)
}

/// `a.b.c` from a `dotted_name` node, segment by segment (whitespace and
/// comments between segments are not part of the name).
fn dotted_name(ctx: &Ctx<'_>, node: Node<'_>) -> Option<String> {
    match node.kind() {
        "dotted_name" => {
            let parts: Option<Vec<&str>> = named_children(node)
                .into_iter()
                .filter(|n| n.kind() == "identifier")
                .map(|n| ctx.text(n))
                .collect();
            Some(parts?.join("."))
        }
        "identifier" => ctx.text(node).map(str::to_owned),
        _ => None,
    }
}

/// The module of `from X import …`: `x.y`, `.x`, `..`, `.`.
fn from_module(ctx: &Ctx<'_>, node: Node<'_>) -> Option<String> {
    match node.kind() {
        "relative_import" => {
            let mut module = String::new();
            for child in named_children(node) {
                match child.kind() {
                    "import_prefix" => {
                        let dots = ctx.text(child)?;
                        module.extend(dots.chars().filter(|&c| c == '.'));
                    }
                    _ => module.push_str(&dotted_name(ctx, child)?),
                }
            }
            Some(module)
        }
        _ => dotted_name(ctx, node),
    }
}

/// The identifiers an assignment target binds, in source order.
fn target_names<'s>(ctx: &Ctx<'s>, target: Node<'_>) -> Vec<&'s str> {
    target_identifiers(target)
        .into_iter()
        .filter_map(|n| ctx.text(n))
        .collect()
}

/// The identifier nodes an assignment target binds, in source order.
fn target_identifiers(target: Node<'_>) -> Vec<Node<'_>> {
    let mut names = Vec::new();
    // Explicit stack: tuple targets can nest arbitrarily deep.
    let mut stack = vec![target];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "identifier" => names.push(node),
            "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "list_splat_pattern"
            | "parenthesized_expression"
            | "tuple"
            | "list"
            | "expression_list" => {
                stack.extend(named_children(node).into_iter().rev());
            }
            _ => {}
        }
    }
    names
}

/// The string literals of a `__all__` value: a list or tuple, or a `+` of
/// such (other operands, like `other.__all__`, cannot be known here).
fn dunder_all_entries<'t>(ctx: &Ctx<'_>, value: Node<'t>) -> Option<Vec<(String, Node<'t>)>> {
    let mut entries = Vec::new();
    let mut literal = false;
    let mut stack = vec![value];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "list" | "tuple" => {
                literal = true;
                for item in named_children(node) {
                    entries.extend(string_value(ctx, item).map(|s| (s, item)));
                }
            }
            "parenthesized_expression" => stack.extend(node.named_child(0)),
            "binary_operator" => {
                let is_plus = node
                    .child_by_field_name("operator")
                    .is_some_and(|o| o.kind() == "+");
                if is_plus {
                    // Right first, so that the left operand is popped first.
                    stack.extend(node.child_by_field_name("right"));
                    stack.extend(node.child_by_field_name("left"));
                }
            }
            _ => {}
        }
    }
    literal.then_some(entries)
}

impl<'t> Module<'t> {
    fn definition(&mut self, ctx: &Ctx<'_>, node: Node<'t>) {
        let kind = match node.kind() {
            "function_definition" => SymbolKind::Function,
            "class_definition" => SymbolKind::Class,
            _ => return,
        };
        if let Some(name) = ctx.text_of(node.child_by_field_name("name")) {
            self.defs.push(Def {
                name: name.to_owned(),
                kind,
                node,
            });
            if kind == SymbolKind::Class {
                class_members(ctx, node, name, &mut self.members);
            }
        }
    }

    /// Assignments define names; `__all__` assignments and mutations define
    /// the export list.
    fn expression(&mut self, ctx: &Ctx<'_>, node: Node<'t>) {
        match node.kind() {
            "assignment" => {
                // `a = b = value` nests assignments in `right`.
                let mut current = Some(node);
                while let Some(assignment) = current.filter(|n| n.kind() == "assignment") {
                    let right = assignment.child_by_field_name("right");
                    if let Some(left) = assignment.child_by_field_name("left") {
                        if left.kind() == "identifier" && ctx.text(left) == Some("__all__") {
                            if let Some(entries) = right.and_then(|r| dunder_all_entries(ctx, r)) {
                                self.dunder_all = Some(entries);
                            }
                        } else {
                            for name in target_names(ctx, left) {
                                self.defs.push(Def {
                                    name: name.to_owned(),
                                    kind: SymbolKind::Variable,
                                    node: assignment,
                                });
                            }
                        }
                    }
                    current = right;
                }
            }
            "augmented_assignment" => {
                let is_all = node
                    .child_by_field_name("left")
                    .is_some_and(|l| l.kind() == "identifier" && ctx.text(l) == Some("__all__"));
                let is_plus = node
                    .child_by_field_name("operator")
                    .is_some_and(|o| o.kind() == "+=");
                if is_all
                    && is_plus
                    && let Some(right) = node.child_by_field_name("right")
                {
                    self.extend_all(dunder_all_entries(ctx, right));
                }
            }
            "call" => {
                // `__all__.extend([...])` / `__all__.append("x")`
                let Some(function) = node.child_by_field_name("function") else {
                    return;
                };
                let on_all = function.kind() == "attribute"
                    && function.child_by_field_name("object").is_some_and(|o| {
                        o.kind() == "identifier" && ctx.text(o) == Some("__all__")
                    });
                if !on_all {
                    return;
                }
                let method = ctx.text_of(function.child_by_field_name("attribute"));
                let argument = node
                    .child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0));
                match (method, argument) {
                    (Some("extend"), Some(argument)) => {
                        self.extend_all(dunder_all_entries(ctx, argument));
                    }
                    (Some("append"), Some(argument)) => {
                        self.extend_all(string_value(ctx, argument).map(|s| vec![(s, argument)]));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    fn extend_all(&mut self, entries: Option<Vec<(String, Node<'t>)>>) {
        if let Some(entries) = entries {
            self.dunder_all.get_or_insert_with(Vec::new).extend(entries);
        }
    }

    /// `import a.b`, `import a as b`: one import per module.
    fn import_statement(&mut self, ctx: &Ctx<'_>, node: Node<'t>, binds: bool) {
        let mut cursor = node.walk();
        let names: Vec<Node<'t>> = node.children_by_field_name("name", &mut cursor).collect();
        for name in names {
            let (module, bound) = match name.kind() {
                "aliased_import" => {
                    let module = name
                        .child_by_field_name("name")
                        .and_then(|n| dotted_name(ctx, n));
                    let alias = ctx
                        .text_of(name.child_by_field_name("alias"))
                        .map(str::to_owned);
                    (module.clone(), alias.zip(module))
                }
                _ => {
                    let module = dotted_name(ctx, name);
                    // `import a.b` binds `a`, the top-level package.
                    let bound = module
                        .as_deref()
                        .and_then(|m| m.split('.').next())
                        .map(|first| (first.to_owned(), first.to_owned()));
                    (module, bound)
                }
            };
            let Some(module) = module.and_then(specifier) else {
                continue;
            };
            if let (true, Some((local, from))) = (binds, bound) {
                self.imported.entry(local).or_insert((from, node));
            }
            self.imports.push(FoundImport::new(
                ctx,
                node,
                &module,
                ImportKind::Static,
                Vec::new(),
            ));
        }
    }

    /// `from .x import y, z as w`, `from x import *`, `from __future__ import …`.
    fn import_from_statement(&mut self, ctx: &Ctx<'_>, node: Node<'t>, binds: bool) {
        let module = match node.kind() {
            "future_import_statement" => Some("__future__".to_owned()),
            _ => node
                .child_by_field_name("module_name")
                .and_then(|m| from_module(ctx, m)),
        };
        let Some(module) = module.and_then(specifier) else {
            return;
        };
        let mut names = Vec::new();
        if named_children(node)
            .iter()
            .any(|c| c.kind() == "wildcard_import")
        {
            names.push("*".to_owned());
        }
        let mut cursor = node.walk();
        let imported: Vec<Node<'t>> = node.children_by_field_name("name", &mut cursor).collect();
        for child in imported {
            let (imported, local) = match child.kind() {
                "aliased_import" => (
                    child
                        .child_by_field_name("name")
                        .and_then(|n| dotted_name(ctx, n)),
                    ctx.text_of(child.child_by_field_name("alias"))
                        .map(str::to_owned),
                ),
                _ => (dotted_name(ctx, child), None),
            };
            let Some(imported) = imported else {
                continue;
            };
            if binds {
                let local = local.unwrap_or_else(|| imported.clone());
                self.imported
                    .entry(local)
                    .or_insert_with(|| (module.clone(), node));
            }
            names.push(imported);
        }
        self.imports.push(FoundImport::new(
            ctx,
            node,
            &module,
            ImportKind::Static,
            names,
        ));
    }

    fn exports(&self, ctx: &Ctx<'_>) -> Vec<FoundSymbol> {
        let Some(dunder_all) = &self.dunder_all else {
            return self
                .defs
                .iter()
                .filter(|d| !d.name.starts_with('_'))
                .map(|d| FoundSymbol::local(ctx, d.node, &d.name, d.kind))
                .collect();
        };
        let mut defs: HashMap<&str, &Def<'t>> = HashMap::new();
        for def in &self.defs {
            defs.entry(def.name.as_str()).or_insert(def);
        }
        dunder_all
            .iter()
            .map(|(name, entry)| {
                if let Some(def) = defs.get(name.as_str()) {
                    FoundSymbol::local(ctx, def.node, name, def.kind)
                } else if let Some((from, statement)) = self.imported.get(name) {
                    FoundSymbol::reexport(ctx, *statement, name, SymbolKind::Unknown, from)
                } else {
                    FoundSymbol::local(ctx, *entry, name, SymbolKind::Unknown)
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::{ImportKind, Language, MemberKind, SymbolKind, analyze};

    use crate::test_support::{s, v};

    fn symbols(src: &str) -> Vec<(String, SymbolKind, u32, bool, Option<String>)> {
        crate::test_support::symbols(Language::Python, src)
    }

    fn names(src: &str) -> Vec<String> {
        crate::test_support::names(Language::Python, src)
    }

    fn imports(src: &str) -> Vec<(String, ImportKind, Vec<String>, u32)> {
        crate::test_support::imports(Language::Python, src)
    }

    #[test]
    fn docstring_labels_are_the_explicit_targets_of_its_docstrings() {
        let src = "\"\"\"Printing.\n\n.. _printer_example:\n\nExample\n=======\n\"\"\"\n\
                   class P:\n    \"\"\"\n    .. _`method example`:\n\n    .. _link: https://x.invalid\n\
                       .. _printer_example:\n    \"\"\"\n";
        assert_eq!(
            analyze(Language::Python, src.as_bytes()).labels,
            vec![s("printer_example"), s("method example")],
            "a hyperlink target with a URL is no label; a label is listed once"
        );
        assert!(
            analyze(Language::Rust, b"/// .. _label:\nfn f() {}\n")
                .labels
                .is_empty(),
            "Python only"
        );
    }

    #[test]
    fn python_top_level_definitions_are_exported() {
        let src = "def f(): pass\nasync def g(): pass\nclass C: pass\n@dec\ndef d(): pass\n\
                   X = 1\nY: int = 2\na, (b, c) = 1, (2, 3)\n[l1, *l2] = x\nx = y = 3\n\
                   obj.attr = 4\ntype Alias = int\n";
        let got: Vec<_> = symbols(src)
            .into_iter()
            .map(|(n, k, l, ..)| (n, k, l))
            .collect();
        assert_eq!(
            got,
            vec![
                (s("f"), SymbolKind::Function, 1),
                (s("g"), SymbolKind::Function, 2),
                (s("C"), SymbolKind::Class, 3),
                (s("d"), SymbolKind::Function, 5),
                (s("X"), SymbolKind::Variable, 6),
                (s("Y"), SymbolKind::Variable, 7),
                (s("a"), SymbolKind::Variable, 8),
                (s("b"), SymbolKind::Variable, 8),
                (s("c"), SymbolKind::Variable, 8),
                (s("l1"), SymbolKind::Variable, 9),
                (s("l2"), SymbolKind::Variable, 9),
                (s("x"), SymbolKind::Variable, 10),
                (s("y"), SymbolKind::Variable, 10),
                (s("Alias"), SymbolKind::Type, 12),
            ]
        );
    }

    #[test]
    fn python_private_nested_and_imported_names_are_not_exported() {
        let src = "_private = 1\ndef _helper(): pass\n__version__ = '1'\nimport os\n\
                   from x import y\ndef outer():\n    inner = 1\nclass K:\n    attr = 1\n";
        assert_eq!(names(src), ["outer", "K"]);
    }

    #[test]
    fn python_dunder_all_decides_exports() {
        let src = "from .impl import helper\nimport json\n__all__ = ['Public', \"helper\", 'ghost']\n\
                   __all__ += ('CONST',)\n__all__.extend(['json'])\n__all__.append('_hidden')\n\
                   class Public: pass\nclass NotListed: pass\nCONST = 1\ndef _hidden(): pass\n";
        assert_eq!(
            symbols(src),
            [
                (s("helper"), SymbolKind::Unknown, 1, true, Some(s(".impl"))),
                (s("json"), SymbolKind::Unknown, 2, true, Some(s("json"))),
                (s("ghost"), SymbolKind::Unknown, 3, false, None),
                (s("Public"), SymbolKind::Class, 7, false, None),
                (s("CONST"), SymbolKind::Variable, 9, false, None),
                (s("_hidden"), SymbolKind::Function, 10, false, None),
            ]
        );
    }

    #[test]
    fn python_dynamic_dunder_all_falls_back_to_default_rules() {
        let src = "from . import base\n__all__ = base.__all__\ndef f(): pass\n";
        assert_eq!(names(src), ["f"]);
        let src = "__all__ = base.__all__ + ['g']\ndef f(): pass\ndef g(): pass\n";
        assert_eq!(names(src), ["g"]);
    }

    #[test]
    fn python_conditional_definitions_count_but_main_guard_does_not() {
        let src = "try:\n    from ujson import loads\nexcept ImportError:\n    def loads(s): pass\n\
                   if __name__ == '__main__':\n    import sys\n    main_only = 1\n";
        assert_eq!(names(src), ["loads"]);
        assert_eq!(
            imports(src),
            [
                (s("ujson"), ImportKind::Static, v(&["loads"]), 2),
                (s("sys"), ImportKind::Static, v(&[]), 6),
            ]
        );
    }

    #[test]
    fn python_imports_give_module_and_names() {
        let src = "import a.b\nimport a as b, c\nfrom .x import y, z as zz\nfrom . import y\n\
                   from x import *\nfrom ..p.q import (r,\n   s)\nfrom __future__ import annotations\n\
                   if TYPE_CHECKING:\n    from t import T\ntry:\n    import ujson as json\n\
                   except ImportError:\n    import json\ndef f():\n    import lazy\n";
        assert_eq!(
            imports(src),
            [
                (s("a.b"), ImportKind::Static, v(&[]), 1),
                (s("a"), ImportKind::Static, v(&[]), 2),
                (s("c"), ImportKind::Static, v(&[]), 2),
                (s(".x"), ImportKind::Static, v(&["y", "z"]), 3),
                (s("."), ImportKind::Static, v(&["y"]), 4),
                (s("x"), ImportKind::Static, v(&["*"]), 5),
                (s("..p.q"), ImportKind::Static, v(&["r", "s"]), 6),
                (s("__future__"), ImportKind::Static, v(&["annotations"]), 8),
                (s("t"), ImportKind::Static, v(&["T"]), 10),
                (s("ujson"), ImportKind::Static, v(&[]), 12),
                (s("json"), ImportKind::Static, v(&[]), 14),
            ]
        );
    }

    #[test]
    fn python_class_members_have_kinds_and_nested_owners() {
        let src = "class _C(Base):\n    x: int = 1\n    y = z = 2\n    def __init__(self): self.a = 1\n\
                   \x20   @staticmethod\n    def s(): pass\n    @classmethod\n    def c(cls): pass\n\
                   \x20   @property\n    def p(self): pass\n    async def a(self): pass\n\
                   \x20   try:\n        def t(self): pass\n    except E:\n        pass\n\
                   \x20   class Inner:\n        def i(self): pass\n\
                   def f():\n    class Local:\n        def no(self): pass\n";
        assert_eq!(
            crate::test_support::members(Language::Python, src),
            [
                (s("_C.x"), MemberKind::Field, 2),
                (s("_C.y"), MemberKind::Field, 3),
                (s("_C.z"), MemberKind::Field, 3),
                (s("_C.__init__"), MemberKind::Method, 4),
                (s("_C.s"), MemberKind::AssociatedFunction, 6),
                (s("_C.c"), MemberKind::AssociatedFunction, 8),
                (s("_C.p"), MemberKind::Method, 10),
                (s("_C.a"), MemberKind::Method, 11),
                (s("_C.t"), MemberKind::Method, 13),
                (s("_C.Inner.i"), MemberKind::Method, 17),
            ]
        );
        // Members do not change what is exported.
        assert_eq!(names(src), ["f"]);
    }

    #[test]
    fn syntax_errors_yield_partial_symbols_and_a_diagnostic() {
        let facts = analyze(
            Language::Python,
            b"def ok(): pass\ndef broken(:\n    pass\nclass Fine: pass\n",
        );
        let names: Vec<_> = facts.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["ok", "broken", "Fine"]);
        assert!(facts.syntax_error_count >= 1, "{facts:?}");
        assert!(!facts.syntax_errors.is_empty());
    }
}
