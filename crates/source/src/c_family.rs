//! C and C++.
//!
//! Exported: what has file or namespace scope and is not `static` or inside an anonymous
//! namespace (which give internal linkage): functions (definitions and prototypes) and
//! variables; in C++ (headers included, see [`crate::Language::Cpp`]) also classes, structs,
//! unions, enums, typedefs and `using` aliases, and macros (`#define`, but not a header's
//! include guard). A `.c` file's types and macros are its own (nothing includes a `.c`), so
//! they are not symbols; their members are still recorded. Namespaces, `extern "C"` blocks,
//! templates, conditional compilation (`#if` branches, every one) and the ERROR nodes that
//! macro-heavy code leaves behind are looked into; annotation macros are blanked before
//! parsing ([`crate::c_macros`]). C++ sources and headers share one rule: a module's facts
//! depend on its bytes only.
//!
//! Members: of every class, struct and union, the `public` and `protected` ones (a `class`
//! starts private, a `struct` or `union` public): methods (`static` ones as associated
//! functions), constructors, destructors, operators and fields; the enumerators of an enum;
//! and methods defined outside their class (`void Server::start() {}` is a member of `Server`).
//! A `typedef struct { … } Name;` gives its fields to `Name`. Nested types are left out.
//!
//! Imports: `#include "a/b.h"` as `a/b.h`, `#include <vector>` as `<vector>` (the angle
//! brackets kept: the search path differs).

use tree_sitter::Node;

use crate::common::{
    Ctx, Found, FoundImport, FoundMember, FoundSymbol, children_through_conditionals,
    named_children,
};
use crate::{ImportKind, MemberKind, SymbolKind};

/// Which grammar parsed the module: a C source (`.c`) or C++ (sources and every header).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    C,
    Cpp,
}

/// A block of declarations to read, and the include guard (`#ifndef X_H`) around it.
struct Block<'t, 's> {
    node: Node<'t>,
    guard: Option<&'s str>,
}

/// Reads the translation unit and every namespace, linkage block, conditional and ERROR
/// node in it with an explicit stack: nesting must not use the call stack. Facts are sorted
/// by position afterwards. C and C++ share the rules: C's grammar just has fewer constructs.
pub(crate) fn analyze(ctx: &Ctx<'_>, root: Node<'_>, dialect: Dialect) -> Found {
    let mut found = Found::default();
    let mut pending = vec![Block {
        node: root,
        guard: None,
    }];
    while let Some(block) = pending.pop() {
        for node in named_children(block.node) {
            declaration(ctx, node, block.guard, dialect, &mut found, &mut pending);
        }
    }
    if dialect == Dialect::C {
        found
            .symbols
            .retain(|s| matches!(s.symbol.kind, SymbolKind::Function | SymbolKind::Variable));
    }
    found.symbols.retain(|s| !is_keyword(&s.symbol.name));
    found.members.retain(|m| !is_keyword(&m.member.name));
    found
}

/// C and C++ keywords that a macro the parser cannot expand leaves where a name should be
/// (`FMT_BEGIN_NAMESPACE namespace detail {` reads as a variable `namespace`).
fn is_keyword(name: &str) -> bool {
    matches!(
        name,
        "auto"
            | "bool"
            | "break"
            | "case"
            | "char"
            | "class"
            | "const"
            | "constexpr"
            | "continue"
            | "default"
            | "delete"
            | "do"
            | "double"
            | "else"
            | "enum"
            | "explicit"
            | "extern"
            | "float"
            | "for"
            | "friend"
            | "goto"
            | "if"
            | "inline"
            | "int"
            | "long"
            | "namespace"
            | "new"
            | "operator"
            | "private"
            | "protected"
            | "public"
            | "register"
            | "return"
            | "short"
            | "signed"
            | "sizeof"
            | "static"
            | "struct"
            | "switch"
            | "template"
            | "this"
            | "typedef"
            | "typename"
            | "union"
            | "unsigned"
            | "using"
            | "virtual"
            | "void"
            | "volatile"
            | "while"
    )
}

fn declaration<'t, 's>(
    ctx: &Ctx<'s>,
    node: Node<'t>,
    guard: Option<&'s str>,
    dialect: Dialect,
    found: &mut Found,
    pending: &mut Vec<Block<'t, 's>>,
) {
    match node.kind() {
        "preproc_include" => include(ctx, node, &mut found.imports),
        "preproc_def" | "preproc_function_def" => {
            let Some(name) = node.child_by_field_name("name") else {
                return;
            };
            let is_guard = node.child_by_field_name("value").is_none()
                && guard.is_some_and(|g| ctx.text(name) == Some(g));
            if !is_guard {
                symbol(ctx, name, SymbolKind::Macro, found);
            }
        }
        "preproc_ifdef" => {
            // `#ifndef X_H` opens an include guard: `#define X_H` inside it is not a macro
            // anyone uses.
            let ifndef = node.child(0).and_then(|c| ctx.text(c)) == Some("#ifndef");
            let guard = if ifndef {
                ctx.text_of(node.child_by_field_name("name"))
            } else {
                None
            };
            pending.push(Block { node, guard });
        }
        "preproc_if" | "preproc_else" | "preproc_elif" | "preproc_elifdef" | "ERROR" => {
            pending.push(Block { node, guard })
        }
        "namespace_definition" => {
            // An anonymous namespace gives internal linkage: nothing in it is seen outside.
            if node.child_by_field_name("name").is_some()
                && let Some(body) = node.child_by_field_name("body")
            {
                pending.push(Block { node: body, guard });
            }
        }
        // Their declarations are their named children (a `template_parameter_list` or a
        // string literal beside them is no declaration); pushed, not recursed into, as
        // `template<> template<> …` nests without bound.
        "linkage_specification" => match node.child_by_field_name("body") {
            Some(body) if body.kind() == "declaration_list" => {
                pending.push(Block { node: body, guard });
            }
            _ => pending.push(Block { node, guard }),
        },
        "template_declaration" => pending.push(Block { node, guard }),
        "class_specifier" | "struct_specifier" | "union_specifier" | "enum_specifier" => {
            type_specifier(ctx, node, None, found);
        }
        "type_definition" => type_definition(ctx, node, found),
        "alias_declaration" => {
            if let Some(name) = node.child_by_field_name("name") {
                symbol(ctx, name, SymbolKind::Type, found);
            }
        }
        "function_definition" => {
            if is_static(ctx, node) {
                return;
            }
            if let Some(declarator) = node.child_by_field_name("declarator") {
                function(ctx, declarator, Declaring::Own, found);
            }
        }
        "declaration" => {
            if let Some(ty) = node.child_by_field_name("type") {
                type_specifier(ctx, ty, None, found);
            }
            if is_static(ctx, node) {
                return;
            }
            // A `.c` file's prototypes and `extern` declarations name what others define.
            let declaring = match dialect {
                Dialect::C if has_storage(ctx, node, "extern") => return,
                Dialect::C => Declaring::ObjectsOnly,
                Dialect::Cpp => Declaring::Own,
            };
            let mut cursor = node.walk();
            let declarators: Vec<Node<'_>> = node
                .children_by_field_name("declarator", &mut cursor)
                .collect();
            for declarator in declarators {
                function(ctx, declarator, declaring, found);
            }
        }
        _ => {}
    }
}

fn symbol(ctx: &Ctx<'_>, name: Node<'_>, kind: SymbolKind, found: &mut Found) {
    if let Some(text) = ctx.text(name) {
        found
            .symbols
            .push(FoundSymbol::local(ctx, name, text, kind));
    }
}

/// True when the declaration has the storage class `static`.
fn is_static(ctx: &Ctx<'_>, node: Node<'_>) -> bool {
    has_storage(ctx, node, "static")
}

/// True when the declaration has the storage class `class` (`static`, `extern`).
fn has_storage(ctx: &Ctx<'_>, node: Node<'_>, class: &str) -> bool {
    named_children(node)
        .into_iter()
        .any(|n| n.kind() == "storage_class_specifier" && ctx.text(n) == Some(class))
}

/// Which of a declaration's declarators are the module's own symbols.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Declaring {
    /// Functions and objects alike.
    Own,
    /// Objects only: a function declared here is defined elsewhere.
    ObjectsOnly,
}

/// What a declarator declares, found by following its `declarator` fields inwards.
enum Declared<'t> {
    /// A function named by this node (an identifier, `A::b`, `~A`, `operator==`).
    Function(Node<'t>),
    /// Anything else (a variable, a field, a function pointer) named by this node.
    Object(Node<'t>),
}

/// Follows a declarator (`*p`, `&r`, `f(int)`, `a[3]`, `x = 1`, `(*fp)(int)`) to the name it
/// declares. Iterative and bounded by the tree's depth.
fn declared(declarator: Node<'_>) -> Option<Declared<'_>> {
    let mut node = declarator;
    let mut function = false;
    loop {
        match node.kind() {
            "function_declarator" => {
                let inner = node.child_by_field_name("declarator")?;
                // `(*fp)(int)` declares a pointer, not a function.
                function = !matches!(inner.kind(), "parenthesized_declarator");
                node = inner;
            }
            "identifier"
            | "field_identifier"
            | "type_identifier"
            | "qualified_identifier"
            | "destructor_name"
            | "operator_name"
            | "template_function" => {
                return Some(if function {
                    Declared::Function(node)
                } else {
                    Declared::Object(node)
                });
            }
            "parenthesized_declarator" => {
                node = named_children(node).into_iter().next()?;
            }
            _ => node = node.child_by_field_name("declarator")?,
        }
    }
}

/// A function or variable declared at file or namespace scope: a symbol, or a member when it
/// is defined outside its class (`Server::start`).
fn function(ctx: &Ctx<'_>, declarator: Node<'_>, declaring: Declaring, found: &mut Found) {
    match declared(declarator) {
        Some(Declared::Function(_)) if declaring == Declaring::ObjectsOnly => {}
        Some(Declared::Function(name)) if name.kind() == "qualified_identifier" => {
            if let Some((owner, member)) = qualified(ctx, name) {
                found.members.extend(FoundMember::named(
                    ctx,
                    name,
                    member,
                    owner,
                    MemberKind::Method,
                ));
            }
        }
        Some(Declared::Function(name)) => symbol(ctx, name, SymbolKind::Function, found),
        Some(Declared::Object(name)) if name.kind() == "identifier" => {
            symbol(ctx, name, SymbolKind::Variable, found);
        }
        _ => {}
    }
}

/// `a::B::c` → (`B`, `c`): the innermost scope and the name; a template scope by its name
/// (`Box<T>::get` → `Box`).
fn qualified<'s>(ctx: &Ctx<'s>, node: Node<'_>) -> Option<(&'s str, &'s str)> {
    let mut node = node;
    let mut owner = None;
    while node.kind() == "qualified_identifier" {
        let scope = node.child_by_field_name("scope")?;
        let scope = match scope.kind() {
            "template_type" => scope.child_by_field_name("name")?,
            _ => scope,
        };
        owner = ctx.text(scope);
        node = node.child_by_field_name("name")?;
    }
    let name = ctx.text(node)?;
    // Error recovery can make a scope of any text; a class is named by an identifier.
    let owner = owner.filter(|o| o.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))?;
    Some((owner, name))
}

/// A class, struct, union or enum with a body: its symbol (when named) and its members, owned
/// by its name or, for an anonymous one, by `typedef_name`.
fn type_specifier(ctx: &Ctx<'_>, node: Node<'_>, typedef_name: Option<&str>, found: &mut Found) {
    let kind = match node.kind() {
        "class_specifier" => SymbolKind::Class,
        "struct_specifier" | "union_specifier" => SymbolKind::Struct,
        "enum_specifier" => SymbolKind::Enum,
        _ => return,
    };
    let Some(body) = node.child_by_field_name("body") else {
        return;
    };
    let name_node = node.child_by_field_name("name");
    let name = ctx.text_of(name_node).filter(|n| !n.contains(['<', ':']));
    if let (Some(name_node), Some(name)) = (name_node, name) {
        found
            .symbols
            .push(FoundSymbol::local(ctx, name_node, name, kind));
    }
    let Some(owner) = name.or(typedef_name) else {
        // An anonymous enum's enumerators are constants of the scope around it.
        if kind == SymbolKind::Enum {
            for enumerator in enumerators(body) {
                symbol(ctx, enumerator, SymbolKind::Const, found);
            }
        }
        return;
    };
    if kind == SymbolKind::Enum {
        for enumerator in enumerators(body) {
            found.members.extend(FoundMember::new(
                ctx,
                enumerator,
                owner,
                MemberKind::Constant,
            ));
        }
    } else {
        let public_by_default = kind == SymbolKind::Struct;
        members(ctx, body, owner, public_by_default, &mut found.members);
    }
}

/// The name nodes of an enum body's enumerators.
fn enumerators(body: Node<'_>) -> Vec<Node<'_>> {
    children_through_conditionals(body)
        .into_iter()
        .filter(|n| n.kind() == "enumerator")
        .filter_map(|n| n.child_by_field_name("name"))
        .collect()
}

/// `typedef T Name;`: a type symbol per name, and the type's own symbol and members when it
/// is defined here (an anonymous one's members belong to the first name).
fn type_definition(ctx: &Ctx<'_>, node: Node<'_>, found: &mut Found) {
    let mut cursor = node.walk();
    let declarators: Vec<Node<'_>> = node
        .children_by_field_name("declarator", &mut cursor)
        .collect();
    let names: Vec<Node<'_>> = declarators
        .into_iter()
        .filter_map(|d| match declared(d)? {
            Declared::Function(name) | Declared::Object(name) => Some(name),
        })
        .collect();
    for name in &names {
        symbol(ctx, *name, SymbolKind::Type, found);
    }
    if let Some(ty) = node.child_by_field_name("type") {
        let first = names.first().and_then(|n| ctx.text(*n));
        type_specifier(ctx, ty, first, found);
    }
}

/// The `public` and `protected` members of a class, struct or union body.
fn members(
    ctx: &Ctx<'_>,
    body: Node<'_>,
    owner: &str,
    public_by_default: bool,
    out: &mut Vec<FoundMember>,
) {
    let mut reachable = public_by_default;
    for member in children_through_conditionals(body) {
        let member = if member.kind() == "template_declaration" {
            match named_children(member)
                .into_iter()
                .find(|n| n.kind() != "template_parameter_list")
            {
                Some(inner) => inner,
                None => continue,
            }
        } else {
            member
        };
        match member.kind() {
            "access_specifier" => {
                reachable = matches!(ctx.text(member), Some(a) if a.starts_with("public") || a.starts_with("protected"));
            }
            "field_declaration" | "declaration" | "function_definition" if reachable => {
                let associated = is_static(ctx, member);
                let mut cursor = member.walk();
                let declarators: Vec<Node<'_>> = member
                    .children_by_field_name("declarator", &mut cursor)
                    .collect();
                for declarator in declarators {
                    let (name, kind) = match declared(declarator) {
                        Some(Declared::Function(name)) if associated => {
                            (name, MemberKind::AssociatedFunction)
                        }
                        Some(Declared::Function(name)) => (name, MemberKind::Method),
                        Some(Declared::Object(name)) => (name, MemberKind::Field),
                        None => continue,
                    };
                    if name.kind() != "qualified_identifier" {
                        out.extend(FoundMember::new(ctx, name, owner, kind));
                    }
                }
            }
            _ => {}
        }
    }
}

/// `#include "a/b.h"` or `#include <vector>`; a macro include names no file.
fn include(ctx: &Ctx<'_>, node: Node<'_>, out: &mut Vec<FoundImport>) {
    let Some(path) = node.child_by_field_name("path") else {
        return;
    };
    let specifier = match path.kind() {
        "string_literal" => ctx.string_value(path, &["string_content"]),
        "system_lib_string" => ctx.text(path).map(str::to_owned),
        _ => None,
    };
    if let Some(specifier) = specifier.filter(|s| !s.is_empty() && s != "<>") {
        out.push(FoundImport::new(
            ctx,
            node,
            &specifier,
            ImportKind::Static,
            Vec::new(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::{imports, member_rows, symbol_lines};
    use crate::{ImportKind, Language, MemberKind, SymbolKind, analyze};

    const HEADER: &str = r#"#ifndef LANTERN_SERVER_H
#define LANTERN_SERVER_H
#include <stdio.h>
#include "util/b.h"
#define MAX(a, b) ((a) > (b) ? (a) : (b))
namespace lantern {
namespace detail { int helper(); }
namespace { int anon(); }
/// A server.
class Server : public Base {
public:
    Server(int port);
    ~Server();
    void start();
    static Server* make();
    int port;
protected:
    void stop();
private:
    void hidden();
    int secret;
};
struct Point { int x, y; double norm() const; };
enum class Color { Red, Green };
typedef struct Point PointT;
using Names = std::vector<std::string>;
template <typename T> class Box { public: T get() const; };
template <typename T> T identity(T t) { return t; }
int topLevel(int a);
extern int counter;
static int fileLocal(void);
extern "C" { void c_api(void); }
}
#endif
"#;

    #[test]
    fn header_declarations_and_public_members_are_recorded() {
        assert_eq!(
            symbol_lines(Language::Cpp, HEADER),
            vec![
                ("MAX".to_owned(), SymbolKind::Macro, 5),
                ("helper".to_owned(), SymbolKind::Function, 7),
                ("Server".to_owned(), SymbolKind::Class, 10),
                ("Point".to_owned(), SymbolKind::Struct, 23),
                ("Color".to_owned(), SymbolKind::Enum, 24),
                ("PointT".to_owned(), SymbolKind::Type, 25),
                ("Names".to_owned(), SymbolKind::Type, 26),
                ("Box".to_owned(), SymbolKind::Class, 27),
                ("identity".to_owned(), SymbolKind::Function, 28),
                ("topLevel".to_owned(), SymbolKind::Function, 29),
                ("counter".to_owned(), SymbolKind::Variable, 30),
                ("c_api".to_owned(), SymbolKind::Function, 32),
            ]
        );
        assert_eq!(
            member_rows(Language::Cpp, HEADER),
            vec![
                ("Server".into(), "Server".into(), MemberKind::Method, 12),
                ("Server".into(), "~Server".into(), MemberKind::Method, 13),
                ("Server".into(), "start".into(), MemberKind::Method, 14),
                (
                    "Server".into(),
                    "make".into(),
                    MemberKind::AssociatedFunction,
                    15
                ),
                ("Server".into(), "port".into(), MemberKind::Field, 16),
                ("Server".into(), "stop".into(), MemberKind::Method, 18),
                ("Point".into(), "x".into(), MemberKind::Field, 23),
                ("Point".into(), "y".into(), MemberKind::Field, 23),
                ("Point".into(), "norm".into(), MemberKind::Method, 23),
                ("Color".into(), "Red".into(), MemberKind::Constant, 24),
                ("Color".into(), "Green".into(), MemberKind::Constant, 24),
                ("Box".into(), "get".into(), MemberKind::Method, 27),
            ]
        );
        assert_eq!(
            imports(Language::Cpp, HEADER),
            vec![
                ("<stdio.h>".to_owned(), ImportKind::Static, vec![], 3),
                ("util/b.h".to_owned(), ImportKind::Static, vec![], 4),
            ]
        );
        let facts = analyze(Language::Cpp, HEADER.as_bytes());
        assert_eq!(facts.syntax_error_count, 0, "{:?}", facts.syntax_errors);
        assert!(facts.text.contains("A server."), "{}", facts.text);
    }

    #[test]
    fn out_of_line_definitions_are_members_of_their_class() {
        let source = r#"#include "a.h"
namespace lantern {
Server::Server(int port) : port(port) {}
void Server::start() {}
template <typename T> T Box<T>::get() const { return T(); }
static void helperFn() {}
int topLevel(int a) { return a; }
namespace { void anonFn() {} }
}
void lantern::Point::norm2() {}
int global_count = 0;
static int hidden_count;
"#;
        assert_eq!(
            symbol_lines(Language::Cpp, source),
            vec![
                ("topLevel".to_owned(), SymbolKind::Function, 7),
                ("global_count".to_owned(), SymbolKind::Variable, 11),
            ]
        );
        assert_eq!(
            member_rows(Language::Cpp, source),
            vec![
                ("Server".into(), "Server".into(), MemberKind::Method, 3),
                ("Server".into(), "start".into(), MemberKind::Method, 4),
                ("Box".into(), "get".into(), MemberKind::Method, 5),
                ("Point".into(), "norm2".into(), MemberKind::Method, 10),
            ]
        );
    }

    #[test]
    fn c_typedefs_structs_and_linkage() {
        let source = r#"#include <stdlib.h>
typedef struct cJSON { struct cJSON *next; int type; } cJSON;
typedef struct { int a; } Anon;
typedef enum { cJSON_False, cJSON_True } cJSON_Bool;
typedef int (*callback)(int);
struct node { int v; };
enum { LIMIT = 3 };
static int internal_fn(void) { return 0; }
int cJSON_Parse(const char *value) { return 1; }
CJSON_PUBLIC(cJSON *) cJSON_CreateNull(void) { return NULL; }
int global_var = 1;
static int hidden_var;
int (*handler)(int);
#define VERSION 1
int proto(int);
extern int ext_var;
"#;
        // A `.c` file's types and macros are its own; its prototypes and `extern`s name what
        // other files define.
        assert_eq!(
            symbol_lines(Language::C, source),
            vec![
                ("cJSON_Parse".to_owned(), SymbolKind::Function, 9),
                ("cJSON_CreateNull".to_owned(), SymbolKind::Function, 10),
                ("global_var".to_owned(), SymbolKind::Variable, 11),
                ("handler".to_owned(), SymbolKind::Variable, 13),
            ]
        );
        // The same declarations in a header (read as C++) are what it offers its includers.
        assert_eq!(
            symbol_lines(Language::Cpp, source),
            vec![
                ("cJSON".to_owned(), SymbolKind::Struct, 2),
                ("Anon".to_owned(), SymbolKind::Type, 3),
                ("cJSON_Bool".to_owned(), SymbolKind::Type, 4),
                ("callback".to_owned(), SymbolKind::Type, 5),
                ("node".to_owned(), SymbolKind::Struct, 6),
                ("LIMIT".to_owned(), SymbolKind::Const, 7),
                ("cJSON_Parse".to_owned(), SymbolKind::Function, 9),
                ("cJSON_CreateNull".to_owned(), SymbolKind::Function, 10),
                ("global_var".to_owned(), SymbolKind::Variable, 11),
                ("handler".to_owned(), SymbolKind::Variable, 13),
                ("VERSION".to_owned(), SymbolKind::Macro, 14),
                ("proto".to_owned(), SymbolKind::Function, 15),
                ("ext_var".to_owned(), SymbolKind::Variable, 16),
            ]
        );
        assert_eq!(
            member_rows(Language::C, source),
            member_rows(Language::Cpp, source)
        );
        assert_eq!(
            member_rows(Language::C, source),
            vec![
                ("cJSON".into(), "next".into(), MemberKind::Field, 2),
                ("cJSON".into(), "type".into(), MemberKind::Field, 2),
                ("Anon".into(), "a".into(), MemberKind::Field, 3),
                (
                    "cJSON_Bool".into(),
                    "cJSON_False".into(),
                    MemberKind::Constant,
                    4
                ),
                (
                    "cJSON_Bool".into(),
                    "cJSON_True".into(),
                    MemberKind::Constant,
                    4
                ),
                ("node".into(), "v".into(), MemberKind::Field, 6),
            ]
        );
    }

    #[test]
    fn declarations_behind_annotation_macros_are_found() {
        let source = "#include <string>\nFMT_BEGIN_NAMESPACE\nnamespace detail {\ntemplate <typename T> struct node { T value; };\nFMT_API void vprint(int fd);\n}\nint FMT_CDECL run(int argc);\nFMT_END_NAMESPACE\n";
        assert_eq!(
            symbol_lines(Language::Cpp, source),
            vec![
                ("node".to_owned(), SymbolKind::Struct, 4),
                ("vprint".to_owned(), SymbolKind::Function, 5),
                ("run".to_owned(), SymbolKind::Function, 7),
            ]
        );
        assert_eq!(
            member_rows(Language::Cpp, source),
            vec![("node".into(), "value".into(), MemberKind::Field, 4)]
        );
    }

    #[test]
    fn members_inside_conditional_compilation_count() {
        let source = "struct Storage {\n    const char* file;\n#ifndef NO_DETAILS\n    const char* detail;\n#endif\n    COUNTER_TYPE tests;\n};\nenum Style {\n    INT = 1,\n#ifdef WITH_64\n    INT64 = 8,\n#endif\n};\n";
        assert_eq!(
            member_rows(Language::Cpp, source),
            vec![
                ("Storage".into(), "file".into(), MemberKind::Field, 2),
                ("Storage".into(), "detail".into(), MemberKind::Field, 4),
                ("Storage".into(), "tests".into(), MemberKind::Field, 6),
                ("Style".into(), "INT".into(), MemberKind::Constant, 9),
                ("Style".into(), "INT64".into(), MemberKind::Constant, 11),
            ]
        );
    }
}
