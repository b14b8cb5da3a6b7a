//! Ruby.
//!
//! Ruby has no exports: what a file defines at top level and in class and module bodies is what
//! it offers. Symbols: every class and module, however nested (by its own name:
//! `Lantern::Server` is `Server`), top-level methods and constants. Members: the methods of a
//! class or module (`def self.x` and those inside `class << self` as associated functions), its
//! constants, and its `attr_reader`/`attr_writer`/`attr_accessor` attributes as fields, owned by
//! the innermost class or module. Visibility (`private`) is not read.
//!
//! Statements inside a call's block (`describe ... do`, `included do`) belong where the call
//! is. Imports: `require "a/b"` and `require_relative "c"`, at top level.

use tree_sitter::Node;

use crate::common::{Ctx, Found, FoundImport, FoundMember, FoundSymbol, named_children};
use crate::{ImportKind, MemberKind, SymbolKind};

/// A body to read: its statements belong to `owner` (`None` at top level), as singleton
/// methods when `singleton` (inside `class << self`).
struct Scope<'t> {
    body: Node<'t>,
    owner: Option<String>,
    singleton: bool,
}

/// Reads the program and every class and module body in it, with an explicit stack: nesting
/// must not use the call stack. Facts are sorted by position afterwards.
pub(crate) fn analyze(ctx: &Ctx<'_>, root: Node<'_>) -> Found {
    let mut found = Found::default();
    let mut pending = vec![Scope {
        body: root,
        owner: None,
        singleton: false,
    }];
    while let Some(scope) = pending.pop() {
        for node in named_children(scope.body) {
            statement(ctx, node, &scope, &mut found, &mut pending);
        }
    }
    found
}

fn statement<'t>(
    ctx: &Ctx<'_>,
    node: Node<'t>,
    scope: &Scope<'t>,
    found: &mut Found,
    pending: &mut Vec<Scope<'t>>,
) {
    let owner = scope.owner.as_deref();
    match node.kind() {
        "class" | "module" => {
            let Some(name_node) = node.child_by_field_name("name").and_then(last_constant) else {
                return;
            };
            let Some(name) = ctx.text(name_node) else {
                return;
            };
            let kind = if node.kind() == "class" {
                SymbolKind::Class
            } else {
                SymbolKind::Module
            };
            found
                .symbols
                .push(FoundSymbol::local(ctx, name_node, name, kind));
            if let Some(body) = body_of(node) {
                pending.push(Scope {
                    body,
                    owner: Some(name.to_owned()),
                    singleton: false,
                });
            }
        }
        "singleton_class" => {
            if let (Some(owner), Some(body)) = (owner, body_of(node)) {
                pending.push(Scope {
                    body,
                    owner: Some(owner.to_owned()),
                    singleton: true,
                });
            }
        }
        "method" | "singleton_method" => {
            let Some(name) = node.child_by_field_name("name") else {
                return;
            };
            match owner {
                Some(owner) => {
                    let kind = if scope.singleton || node.kind() == "singleton_method" {
                        MemberKind::AssociatedFunction
                    } else {
                        MemberKind::Method
                    };
                    found
                        .members
                        .extend(FoundMember::new(ctx, name, owner, kind));
                }
                None => {
                    if let Some(text) = ctx.text(name) {
                        found.symbols.push(FoundSymbol::local(
                            ctx,
                            name,
                            text,
                            SymbolKind::Function,
                        ));
                    }
                }
            }
        }
        "assignment" => {
            let Some(left) = node
                .child_by_field_name("left")
                .filter(|l| l.kind() == "constant")
            else {
                return;
            };
            match owner {
                Some(owner) => {
                    found
                        .members
                        .extend(FoundMember::new(ctx, left, owner, MemberKind::Constant));
                }
                None => {
                    if let Some(text) = ctx.text(left) {
                        found
                            .symbols
                            .push(FoundSymbol::local(ctx, left, text, SymbolKind::Const));
                    }
                }
            }
        }
        // `begin ... rescue LoadError` around optional code, `if`/`unless` around
        // version-dependent definitions (`def x ... end if RUBY_VERSION >= "3"` too): their
        // statements belong where they are.
        "begin" | "then" | "else" | "if_modifier" | "unless_modifier" => pending.push(Scope {
            body: node,
            owner: scope.owner.clone(),
            singleton: scope.singleton,
        }),
        "if" | "unless" | "elsif" => {
            for branch in ["consequence", "alternative"] {
                if let Some(body) = node.child_by_field_name(branch) {
                    pending.push(Scope {
                        body,
                        owner: scope.owner.clone(),
                        singleton: scope.singleton,
                    });
                }
            }
        }
        "call" => {
            call(ctx, node, owner, found);
            // A block's statements belong where the call is: test files define their classes
            // inside `describe ... do`, concerns their methods inside `included do`.
            let block_body = node.child_by_field_name("block").and_then(|block| {
                named_children(block)
                    .into_iter()
                    .find(|n| matches!(n.kind(), "body_statement" | "block_body"))
            });
            if let Some(body) = block_body {
                pending.push(Scope {
                    body,
                    owner: scope.owner.clone(),
                    singleton: scope.singleton,
                });
            }
        }
        _ => {}
    }
}

/// `attr_*` in a class body; `require` and `require_relative` at top level.
fn call(ctx: &Ctx<'_>, node: Node<'_>, owner: Option<&str>, found: &mut Found) {
    if node.child_by_field_name("receiver").is_some() {
        return;
    }
    let Some(method) = ctx.text_of(node.child_by_field_name("method")) else {
        return;
    };
    let arguments = node
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default();
    match (method, owner) {
        ("attr_reader" | "attr_writer" | "attr_accessor", Some(owner)) => {
            for argument in arguments {
                if argument.kind() != "simple_symbol" {
                    continue;
                }
                if let Some(text) = ctx.text(argument) {
                    let name = text.trim_start_matches(':');
                    found.members.extend(FoundMember::named(
                        ctx,
                        argument,
                        name,
                        owner,
                        MemberKind::Field,
                    ));
                }
            }
        }
        ("require" | "require_relative", None) => {
            let Some(string) = arguments.first().filter(|a| a.kind() == "string") else {
                return;
            };
            let Some(path) = ctx.string_value(*string, &["string_content"]) else {
                return;
            };
            // `require_relative` paths are kept as written, marked with `./` when they do not
            // start with a dot already, so the resolver can tell the two apart.
            let specifier = if method == "require_relative" && !path.starts_with('.') {
                format!("./{path}")
            } else {
                path
            };
            found.imports.push(FoundImport::new(
                ctx,
                node,
                &specifier,
                ImportKind::Static,
                Vec::new(),
            ));
        }
        _ => {}
    }
}

/// `Name` for `Name`, `Outer::Name` and `::Name`.
fn last_constant(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "constant" => Some(node),
        "scope_resolution" => node
            .child_by_field_name("name")
            .filter(|n| n.kind() == "constant"),
        _ => None,
    }
}

/// The statements of a class, module or `class << self`.
fn body_of(node: Node<'_>) -> Option<Node<'_>> {
    node.child_by_field_name("body").or_else(|| {
        named_children(node)
            .into_iter()
            .find(|n| n.kind() == "body_statement")
    })
}

#[cfg(test)]
mod tests {
    use crate::test_support::{member_rows, symbol_lines};
    use crate::{Language, MemberKind, SymbolKind, analyze};

    const SOURCE: &str = r#"require "json"
require_relative "lantern/version"

VERSION = "1.0"

module Lantern
  class Server < Base
    PORT = 80
    attr_reader :name, :port
    def initialize(name)
      @name = name
    end
    def self.build; end
    private
    def hidden; end
  end
  class << self
    def configure; end
  end
end

class Lantern::Client
  def get(path) = path
end

def helper; end

describe "a server" do
  class FakeSocket
    def close; end
  end
end

begin
  require "zlib"
  class Compressor
    if defined?(Zlib)
      def deflate; end
    else
      def deflate_slowly; end
    end
    def inflate; end if defined?(Zlib)
  end
rescue LoadError
end
"#;

    #[test]
    fn classes_modules_methods_and_requires() {
        let facts = analyze(Language::Ruby, SOURCE.as_bytes());
        let symbols = symbol_lines(Language::Ruby, SOURCE);
        assert_eq!(
            symbols,
            vec![
                ("VERSION".to_owned(), SymbolKind::Const, 4),
                ("Lantern".to_owned(), SymbolKind::Module, 6),
                ("Server".to_owned(), SymbolKind::Class, 7),
                ("Client".to_owned(), SymbolKind::Class, 22),
                ("helper".to_owned(), SymbolKind::Function, 26),
                ("FakeSocket".to_owned(), SymbolKind::Class, 29),
                ("Compressor".to_owned(), SymbolKind::Class, 36),
            ]
        );
        let members = member_rows(Language::Ruby, SOURCE);
        assert_eq!(
            members,
            vec![
                ("Server".into(), "PORT".into(), MemberKind::Constant, 8),
                ("Server".into(), "name".into(), MemberKind::Field, 9),
                ("Server".into(), "port".into(), MemberKind::Field, 9),
                ("Server".into(), "initialize".into(), MemberKind::Method, 10),
                (
                    "Server".into(),
                    "build".into(),
                    MemberKind::AssociatedFunction,
                    13
                ),
                ("Server".into(), "hidden".into(), MemberKind::Method, 15),
                (
                    "Lantern".into(),
                    "configure".into(),
                    MemberKind::AssociatedFunction,
                    18
                ),
                ("Client".into(), "get".into(), MemberKind::Method, 23),
                ("FakeSocket".into(), "close".into(), MemberKind::Method, 30),
                (
                    "Compressor".into(),
                    "deflate".into(),
                    MemberKind::Method,
                    38
                ),
                (
                    "Compressor".into(),
                    "deflate_slowly".into(),
                    MemberKind::Method,
                    40
                ),
                (
                    "Compressor".into(),
                    "inflate".into(),
                    MemberKind::Method,
                    42
                ),
            ]
        );
        let imports: Vec<&str> = facts.imports.iter().map(|i| i.specifier.as_str()).collect();
        // A `require` inside a top-level `begin` is the file's too.
        assert_eq!(imports, vec!["json", "./lantern/version", "zlib"]);
    }
}
