//! PHP.
//!
//! PHP has no exports: what a file declares at top level or in a namespace is what it offers.
//! Symbols: classes, interfaces, traits, enums, functions and constants (`const X = 1;` and
//! `define('X', …)` with a literal name), in any namespace block and inside the top-level
//! `if` blocks that guard definitions (`if (!function_exists('f')) { function f() {} }`).
//!
//! Members: of every class, interface, trait and enum, those other code can reach (not
//! `private`; PHP's default is public): methods (`static` ones as associated functions),
//! properties, constructor-promoted properties, class constants and enum cases.
//!
//! Imports: `use A\B\C;`, grouped `use A\B\{C, D as E};`, `use function`/`use const`, each as
//! the fully qualified name (`A\B\C`); `require`/`include` (and `_once`) of a string literal
//! as the path written, of `__DIR__ . '/x.php'` as `__DIR__/x.php`.
//!
//! Namespaces: those the file declares (`namespace App\Http;`), fully qualified, so a `use`
//! can be told from a class of another vendor that merely shares a path's tail.

use tree_sitter::Node;

use crate::common::{
    Ctx, Found, FoundImport, FoundMember, FoundSymbol, has_child_kind, named_children,
};
use crate::{ImportKind, MemberKind, SymbolKind};

/// Reads the program, namespace bodies and guarding `if` blocks with an explicit stack:
/// nesting must not use the call stack. Facts are sorted by position afterwards.
pub(crate) fn analyze(ctx: &Ctx<'_>, root: Node<'_>) -> Found {
    let mut found = Found::default();
    let mut pending = vec![root];
    while let Some(block) = pending.pop() {
        for node in named_children(block) {
            statement(ctx, node, &mut found, &mut pending);
        }
    }
    found
}

fn statement<'t>(ctx: &Ctx<'_>, node: Node<'t>, found: &mut Found, pending: &mut Vec<Node<'t>>) {
    match node.kind() {
        "namespace_definition" => {
            // `namespace A\B;` (what follows is in it) or `namespace A\B { … }`.
            if let Some(name) = ctx.text_of(node.child_by_field_name("name")) {
                found
                    .namespaces
                    .push(name.trim_start_matches('\\').to_owned());
            }
            pending.extend(node.child_by_field_name("body"))
        }
        // A block's statements are read like the program's.
        "if_statement" | "else_clause" | "else_if_clause" | "compound_statement"
        | "colon_block" => pending.push(node),
        "namespace_use_declaration" => uses(ctx, node, &mut found.imports),
        "expression_statement" => expression(ctx, node, found),
        "class_declaration" => type_declaration(ctx, node, SymbolKind::Class, found),
        "interface_declaration" => type_declaration(ctx, node, SymbolKind::Interface, found),
        "trait_declaration" => type_declaration(ctx, node, SymbolKind::Trait, found),
        "enum_declaration" => type_declaration(ctx, node, SymbolKind::Enum, found),
        "function_definition" => {
            if let Some(name) = node.child_by_field_name("name")
                && let Some(text) = ctx.text(name)
            {
                found
                    .symbols
                    .push(FoundSymbol::local(ctx, name, text, SymbolKind::Function));
            }
        }
        "const_declaration" => {
            for name in const_names(node) {
                if let Some(text) = ctx.text(name) {
                    found
                        .symbols
                        .push(FoundSymbol::local(ctx, name, text, SymbolKind::Const));
                }
            }
        }
        _ => {}
    }
}

/// A class-like declaration: its symbol and its reachable members.
fn type_declaration(ctx: &Ctx<'_>, node: Node<'_>, kind: SymbolKind, found: &mut Found) {
    let Some(name_node) = node.child_by_field_name("name") else {
        return;
    };
    let Some(name) = ctx.text(name_node) else {
        return;
    };
    found
        .symbols
        .push(FoundSymbol::local(ctx, name_node, name, kind));
    let Some(body) = node.child_by_field_name("body") else {
        return;
    };
    let out = &mut found.members;
    for member in named_children(body) {
        if private(ctx, member) {
            continue;
        }
        match member.kind() {
            "method_declaration" => {
                let kind = if has_child_kind(member, "static_modifier") {
                    MemberKind::AssociatedFunction
                } else {
                    MemberKind::Method
                };
                if let Some(method) = member.child_by_field_name("name") {
                    out.extend(FoundMember::new(ctx, method, name, kind));
                    if ctx.text(method) == Some("__construct") {
                        promoted(ctx, member, name, out);
                    }
                }
            }
            "property_declaration" => {
                for element in named_children(member) {
                    if element.kind() == "property_element"
                        && let Some(variable) = element.child_by_field_name("name")
                    {
                        out.extend(variable_member(ctx, variable, name));
                    }
                }
            }
            "const_declaration" => {
                for constant in const_names(member) {
                    out.extend(FoundMember::new(ctx, constant, name, MemberKind::Constant));
                }
            }
            "enum_case" => {
                if let Some(case) = member.child_by_field_name("name") {
                    out.extend(FoundMember::new(ctx, case, name, MemberKind::Constant));
                }
            }
            _ => {}
        }
    }
}

/// The properties a constructor declares in its parameters (`public function
/// __construct(private Service $service)`), unless private.
fn promoted(ctx: &Ctx<'_>, method: Node<'_>, owner: &str, out: &mut Vec<FoundMember>) {
    let Some(parameters) = method.child_by_field_name("parameters") else {
        return;
    };
    for parameter in named_children(parameters) {
        if parameter.kind() != "property_promotion_parameter" {
            continue;
        }
        let visibility = ctx.text_of(parameter.child_by_field_name("visibility"));
        if visibility == Some("private") {
            continue;
        }
        if let Some(variable) = parameter.child_by_field_name("name") {
            out.extend(variable_member(ctx, variable, owner));
        }
    }
}

/// A property named by a `variable_name` (`$count` is the property `count`).
fn variable_member(ctx: &Ctx<'_>, variable: Node<'_>, owner: &str) -> Option<FoundMember> {
    let name = named_children(variable)
        .into_iter()
        .find(|n| n.kind() == "name")?;
    FoundMember::new(ctx, name, owner, MemberKind::Field)
}

/// True when a member's visibility is `private`.
fn private(ctx: &Ctx<'_>, node: Node<'_>) -> bool {
    named_children(node)
        .into_iter()
        .any(|n| n.kind() == "visibility_modifier" && ctx.text(n) == Some("private"))
}

/// The `name` nodes of a `const A = 1, B = 2;` declaration.
fn const_names(node: Node<'_>) -> Vec<Node<'_>> {
    named_children(node)
        .into_iter()
        .filter(|n| n.kind() == "const_element")
        .filter_map(|element| {
            named_children(element)
                .into_iter()
                .find(|n| n.kind() == "name")
        })
        .collect()
}

/// `define('NAME', …)` and `require`/`include` statements.
fn expression(ctx: &Ctx<'_>, node: Node<'_>, found: &mut Found) {
    for expression in named_children(node) {
        match expression.kind() {
            "function_call_expression" => define(ctx, expression, found),
            "require_expression"
            | "require_once_expression"
            | "include_expression"
            | "include_once_expression" => {
                let target = named_children(expression).into_iter().next();
                if let Some(path) = target.and_then(|t| include_path(ctx, t)) {
                    found.imports.push(FoundImport::new(
                        ctx,
                        expression,
                        &path,
                        ImportKind::Dynamic,
                        Vec::new(),
                    ));
                }
            }
            _ => {}
        }
    }
}

/// `define('NAME', value)` with a literal name declares the constant `NAME`.
fn define(ctx: &Ctx<'_>, call: Node<'_>, found: &mut Found) {
    if ctx.text_of(call.child_by_field_name("function")) != Some("define") {
        return;
    }
    let Some(first) = call
        .child_by_field_name("arguments")
        .and_then(|a| named_children(a).into_iter().next())
        .and_then(|a| named_children(a).into_iter().next())
    else {
        return;
    };
    if let Some(name) = string_literal(ctx, first).filter(|n| !n.is_empty()) {
        found
            .symbols
            .push(FoundSymbol::local(ctx, first, &name, SymbolKind::Const));
    }
}

/// The path of an include: a string literal, or `__DIR__ . 'literal'` as `__DIR__literal`,
/// inside any number of parentheses.
fn include_path(ctx: &Ctx<'_>, node: Node<'_>) -> Option<String> {
    let mut node = node;
    while node.kind() == "parenthesized_expression" {
        node = named_children(node).into_iter().next()?;
    }
    match node.kind() {
        "string" | "encapsed_string" => string_literal(ctx, node),
        "binary_expression" => {
            let left = node.child_by_field_name("left")?;
            let right = node.child_by_field_name("right")?;
            let dir = ctx.text(left)? == "__DIR__";
            let rest = string_literal(ctx, right)?;
            dir.then(|| format!("__DIR__{rest}"))
        }
        _ => None,
    }
}

/// The value of a string literal without interpolation.
fn string_literal(ctx: &Ctx<'_>, node: Node<'_>) -> Option<String> {
    if !matches!(node.kind(), "string" | "encapsed_string") {
        return None;
    }
    ctx.string_value(node, &["string_content"])
}

/// `use` declarations: one import per name.
fn uses(ctx: &Ctx<'_>, node: Node<'_>, out: &mut Vec<FoundImport>) {
    // A group `use A\B\{C, D};` has the prefix as a namespace_name beside the group.
    let prefix = named_children(node)
        .into_iter()
        .find(|n| n.kind() == "namespace_name")
        .and_then(|n| qualified(ctx, n));
    let mut clauses = Vec::new();
    for part in named_children(node) {
        match part.kind() {
            "namespace_use_clause" => clauses.push(part),
            "namespace_use_group" => clauses.extend(
                named_children(part)
                    .into_iter()
                    .filter(|c| c.kind() == "namespace_use_clause"),
            ),
            _ => {}
        }
    }
    for clause in clauses {
        let Some(name) = named_children(clause)
            .into_iter()
            .find(|n| matches!(n.kind(), "qualified_name" | "name" | "namespace_name"))
            .and_then(|n| qualified(ctx, n))
        else {
            continue;
        };
        let specifier = match &prefix {
            Some(prefix) => format!("{prefix}\\{name}"),
            None => name,
        };
        out.push(FoundImport::new(
            ctx,
            clause,
            specifier.trim_start_matches('\\'),
            ImportKind::Static,
            Vec::new(),
        ));
    }
}

/// A qualified name without spaces or comments: `A\B\C`.
fn qualified(ctx: &Ctx<'_>, node: Node<'_>) -> Option<String> {
    let text = ctx.text(node)?;
    let name: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use crate::test_support::{imports, member_rows, symbol_lines};
    use crate::{ImportKind, Language, MemberKind, SymbolKind, analyze};

    const SOURCE: &str = r#"<?php
declare(strict_types=1);

namespace App\Http;

use App\Models\User;
use Illuminate\Support\{Arr, Str as S};
use function App\helpers\format;
require_once __DIR__ . '/bootstrap.php';
require 'lib/util.php';

/** A controller. */
final class Controller extends Base implements Contract
{
    public const VERSION = '1';
    private const SECRET = 'x';
    public int $count = 0;
    protected ?string $name;
    private $hidden;
    var $legacy;
    public function __construct(private Service $service, public int $x = 1) {}
    public function index(): array { return []; }
    protected static function make(): self { return new self(); }
    private function secret() {}
    function implicitPublic() {}
}
interface Contract { public function index(): array; const C = 1; }
trait Loggable { public function log() {} }
enum Suit: string { case Hearts = 'H'; public function color() {} }
function helper() {}
const TOP = 1;
define('LEGACY', 2);
if (!function_exists('guarded')) {
    function guarded() {}
}
?>
<html><?php echo 1; ?></html>
"#;

    #[test]
    fn declared_namespaces_are_recorded() {
        let facts = |src: &str| analyze(Language::Php, src.as_bytes()).namespaces;
        assert_eq!(facts(SOURCE), ["App\\Http"]);
        assert_eq!(
            facts("<?php\nnamespace B { class X {} }\nnamespace A\\C { class Y {} }\n"),
            ["A\\C", "B"]
        );
        assert!(facts("<?php\nclass Global {}\n").is_empty());
    }

    #[test]
    fn declarations_and_reachable_members_are_recorded() {
        assert_eq!(
            symbol_lines(Language::Php, SOURCE),
            vec![
                ("Controller".to_owned(), SymbolKind::Class, 13),
                ("Contract".to_owned(), SymbolKind::Interface, 27),
                ("Loggable".to_owned(), SymbolKind::Trait, 28),
                ("Suit".to_owned(), SymbolKind::Enum, 29),
                ("helper".to_owned(), SymbolKind::Function, 30),
                ("TOP".to_owned(), SymbolKind::Const, 31),
                ("LEGACY".to_owned(), SymbolKind::Const, 32),
                ("guarded".to_owned(), SymbolKind::Function, 34),
            ]
        );
        assert_eq!(
            member_rows(Language::Php, SOURCE),
            vec![
                (
                    "Controller".into(),
                    "VERSION".into(),
                    MemberKind::Constant,
                    15
                ),
                ("Controller".into(), "count".into(), MemberKind::Field, 17),
                ("Controller".into(), "name".into(), MemberKind::Field, 18),
                ("Controller".into(), "legacy".into(), MemberKind::Field, 20),
                (
                    "Controller".into(),
                    "__construct".into(),
                    MemberKind::Method,
                    21
                ),
                ("Controller".into(), "x".into(), MemberKind::Field, 21),
                ("Controller".into(), "index".into(), MemberKind::Method, 22),
                (
                    "Controller".into(),
                    "make".into(),
                    MemberKind::AssociatedFunction,
                    23
                ),
                (
                    "Controller".into(),
                    "implicitPublic".into(),
                    MemberKind::Method,
                    25
                ),
                ("Contract".into(), "index".into(), MemberKind::Method, 27),
                ("Contract".into(), "C".into(), MemberKind::Constant, 27),
                ("Loggable".into(), "log".into(), MemberKind::Method, 28),
                ("Suit".into(), "Hearts".into(), MemberKind::Constant, 29),
                ("Suit".into(), "color".into(), MemberKind::Method, 29),
            ]
        );
        assert_eq!(
            imports(Language::Php, SOURCE),
            vec![
                (
                    "App\\Models\\User".to_owned(),
                    ImportKind::Static,
                    vec![],
                    6
                ),
                (
                    "Illuminate\\Support\\Arr".to_owned(),
                    ImportKind::Static,
                    vec![],
                    7
                ),
                (
                    "Illuminate\\Support\\Str".to_owned(),
                    ImportKind::Static,
                    vec![],
                    7
                ),
                (
                    "App\\helpers\\format".to_owned(),
                    ImportKind::Static,
                    vec![],
                    8
                ),
                (
                    "__DIR__/bootstrap.php".to_owned(),
                    ImportKind::Dynamic,
                    vec![],
                    9
                ),
                ("lib/util.php".to_owned(), ImportKind::Dynamic, vec![], 10),
            ]
        );
        let facts = analyze(Language::Php, SOURCE.as_bytes());
        assert_eq!(facts.syntax_error_count, 0, "{:?}", facts.syntax_errors);
        assert!(facts.text.contains("A controller."), "{}", facts.text);
        assert!(facts.text.contains("bootstrap.php"), "{}", facts.text);
        assert!(!facts.text.contains("html"), "{}", facts.text);
    }
}
