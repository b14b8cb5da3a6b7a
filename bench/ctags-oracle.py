#!/usr/bin/env python3
"""Declarations doc-bridge records against Universal Ctags', on a real repository.

    bench/ctags-oracle.py --doc-bridge BIN --language LANGUAGE REPO_DIR [--show N] [--uniform-c]

LANGUAGE is java, csharp, ruby, kotlin, c, cpp or php (doc-bridge's `language` of a module);
swift is refused: Universal Ctags 5.9 has no Swift parser (`ctags --list-languages`), so there
is no oracle for it. REPO_DIR is a plain checkout (`git --git-dir=MIRROR archive HEAD | tar -x`).
The script runs `doc-bridge index` there and `ctags -R` (Debian's `universal-ctags`) over the
same files, and compares, for the declaration kinds both tools define:

- exported types: doc-bridge's module symbols against ctags' top-level (C#: namespace-level)
  class, interface, enum, annotation and struct tags whose declaration line (ctags' `pattern`)
  says `public` (ctags 5.9 gives top-level types no access field); C# delegates, which ctags
  does not tag, are left out of doc-bridge's side;
- members: doc-bridge's members (owner, name) against ctags' method, field, property, event and
  enum-constant tags scoped to a top-level type, `public` or `protected`, or of an interface or
  annotation type (whose members are public), or enum constants.

Ruby has no access to compare: types are every class and module (any depth, by its own name),
members every method, singleton method, constant and `attr_*` accessor ctags scopes to a class
or module, owned by the innermost one (an accessor's reader and writer tags as one); top-level
methods and constants are left out of both.

For kotlin, c, cpp and php every exported symbol doc-bridge records is compared (functions,
variables, macros and aliases as well as types), less the kinds ctags 5.9 has no tag for (named
below), and a declaration's line is its first one when a key occurs twice (overloads, a
declaration and its definition) on either side. ctags runs with `--fields=+naKZ` (line, access,
long kind names, scope), plus `properties` for C and C++ (`static`) and signatures for PHP.

Kotlin (`.kt`, `.kts`; ctags `Kotlin`, kinds class, interface, object, typealias, method,
constant = `val`, variable = `var`). ctags gives Kotlin no access field, so visibility is read
off the tag's line: the modifiers before the `val`/`var`/`fun`/`class`/... that introduces the
name (from the last `(`, `,`, `{` or `;`), and `private` or `internal` hides it. Symbols: those
tags at package level (or with no scope), lambdas (`<lambda>`) left out. Members: `fun`, `val`
and `var` tags scoped to a top-level class, interface or object (of any visibility, as for
Java), primary-constructor `val`/`var` parameters included (ctags tags them in the class), and
those of its companion object, owned by the enclosing type (a `private` or `internal` companion
hides its members). Known mismatches:
  - ctags 5.9 loses a type's scope after a primary constructor whose parameters span lines
    (`class P(` with `val x: Int,` on the next line): the body's members come out at package
    level, and the members of its companion in the companion's lost scope. Such tags
    are recognisable (a package-level tag on an indented line); they are left out of both sides
    (doc-bridge's declarations with the same file, line and name), and counted;
  - ctags 5.9 reads past its buffers on a backticked name (`fun `parses input`()`, common in
    tests): the tags of such a file (names, then scopes) change from run to run. Files with a
    backticked declaration name are left out of both sides, and counted;
  - ctags has no tag for enum entries: doc-bridge's are left out (a member of an enum class
    whose line declares no `val`, `var` or `fun`), and counted; ctags tags members inside an
    entry's body (`GREEN { override fun f() }`) as members of the enum;
  - ctags does not tag `value class` declarations (nor their members);
  - a visibility modifier on a line before the name's is not seen;
  - ctags tags annotation classes as classes (doc-bridge: whatever it records for them).

C (`.c` only; headers are C++ for both tools; ctags `C`, kinds function = definitions,
variable = definitions, struct, union, enum, typedef, member, enumerator). Symbols: top-level
function and variable tags whose `properties` do not say `static` (`extern` declarations are
ctags' disabled `externvar` kind, prototypes its disabled `prototype` kind: neither counts).
Members: `member` tags of a top-level struct or union and `enumerator` tags of a top-level enum,
owned by its tag, or for an anonymous one by the typedef naming it (`typedef struct {...} X`);
members of types declared inside functions or nested in other types, and enumerators of an
unnamed, untypedef'd enum, are left out. Known mismatches: ctags skips `#if 0` blocks and reads
macros its own way (see C++); a struct both tagged and typedef'd is owned by its tag (doc-bridge
may use either name).

C++ (`.cc .cpp .cxx .c++` sources; `.h .hh .hpp .hxx .h++ .inl .ipp .tpp` headers, `.ipp` and
`.tpp` mapped to ctags' `C++` with `--map-C++`; prototypes enabled with `--kinds-C++=+p`). In
headers, symbols are class, struct, union, enum, typedef (ctags' kind for `typedef` and `using`
aliases), function and prototype tags at namespace level (no scope, or a namespace's, by the
declared name) that are not `static` nor in an anonymous namespace, and every macro but an
include guard (`#define X_H` with no value under an `#ifndef X_H`, which doc-bridge leaves out);
in sources, function tags (definitions) at namespace level, on the same conditions. Members, in
both: function, prototype and member (field) tags whose access is `public` or `protected` scoped
to a namespace-level class, struct or union, enumerators of a namespace-level enum (anonymous
ones through their typedef as in C), and out-of-line definitions (a function tag scoped to a
class, with no access, whose line has `::name`), owned by the last component of the qualifier.
Names and owners are compared without template arguments, and operator names without spaces
(ctags writes `operator ==`). Known mismatches: out-of-line static data member definitions
(`int Foo::x = 0;`) and explicit instantiations (`template void buffer<char>::append(...);`),
which ctags tags as members or prototypes without access, are left out; an out-of-line
definition of a nested class's member (`Outer::Inner::f`) is owned by `Inner`; specializations
(`template <> struct formatter<X>`) collapse to one key per file; macros are where the tools
part most: ctags names a function by the identifier before its parameters even behind an export
macro (`CJSON_PUBLIC(char *) cJSON_Print(...)` is `cJSON_Print`) but takes a calling-convention
macro for a function-pointer field's name (`void *(CJSON_CDECL *malloc_fn)(size_t)` is the
member `CJSON_CDECL`), skips `#if 0` blocks, and tags each `#define` of a macro defined in
several `#if` branches (one key, its first line); vendored test frameworks (gtest, Unity) count
like the rest.

`--uniform-c` (c and cpp) applies one rule to every file, headers and sources alike, as
`crates/source/src/c_family.rs` describes its exports: the header rule above plus namespace-level
variables that are not `static` (prototypes enabled for C too, `--kinds-C=+p`); `extern`
declarations stay out (ctags' disabled `externvar` kind).

PHP (`.php`; ctags `PHP`, kinds class, interface, trait, function, define = constants,
variable = properties). Symbols: class, interface and trait tags at namespace level (or top
level), functions there (inside `if (!function_exists(...))` too), `const` constants there and
`define('X', ...)` calls (ctags tags them as constants wherever they are). Members: function
tags of a namespace-level class, interface or trait that are `public`, `protected` or
unmodified (no access field), variable tags that are `public` or `protected` (ctags gives
locals it misplaces into a class no access: left out), class constants whose line says no
`private`, and promoted constructor properties read from the `__construct` signature (`public
readonly string $channel`; no line, so not in line agreement). Known mismatches: ctags 5.9 has
no `enum`: it tags no enum and no case, and an enum's methods and constants come out at
namespace level (recognisable: a namespace-level function with an access field, a
namespace-level `const` on an indented line); those tags are left out of both sides by file,
line and name, and doc-bridge's enums and their members are left out; a `private` on an earlier
line than a constant's name is not seen.

Swift (`.swift`): no ctags parser in 5.9, no oracle.

Each declaration is keyed by (file, owner, name); precision is the share of doc-bridge's keys
ctags also has, recall the share of ctags' keys doc-bridge has, and line agreement the share
of common keys on the same line. `--show N` prints N disagreements of each side.
`.doc-bridge/` is removed before and after.
"""

import argparse
import collections
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

TYPE_KINDS = {"class", "interface", "enum", "annotation", "struct"}
MEMBER_KINDS = {"method", "field", "enumConstant", "property", "event", "enumerator"}
ENUM_VALUES = {"enumConstant", "enumerator"}
EXTENSIONS = {
    "java": (".java",), "csharp": (".cs",), "ruby": (".rb", ".rake"),
    "kotlin": (".kt", ".kts"), "c": (".c",),
    "cpp": (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".h", ".ipp", ".inl",
            ".tpp"),
    "php": (".php",), "swift": (".swift",),
}
CPP_HEADERS = (".h", ".hh", ".hpp", ".hxx", ".h++", ".inl", ".ipp", ".tpp")
# None: ctags 5.9 has no parser for the language.
CTAGS_LANGUAGE = {"java": "Java", "csharp": "C#", "ruby": "Ruby", "kotlin": "Kotlin", "c": "C",
                  "cpp": "C++", "php": "PHP", "swift": None}
CTAGS_OPTIONS = {
    "c": ["--kinds-C=+p", "--fields-C=+{properties}"],
    "cpp": ["--kinds-C++=+p", "--fields-C++=+{properties}", "--map-C++=+.ipp",
            "--map-C++=+.tpp"],
    "php": ["--fields=+S"],
}
NEW_LANGUAGES = {"kotlin", "c", "cpp", "php"}
RUBY_TYPES = {"class", "module"}
RUBY_MEMBERS = {"method", "singletonMethod", "constant", "accessor"}
# Symbol kinds ctags has a tag for (C# delegates are `type` symbols and have none).
COMPARED_SYMBOL_KINDS = {"class", "interface", "enum", "struct", "module"}


def doc_bridge_modules(binary: str, repo: Path, language: str):
    shutil.rmtree(repo / ".doc-bridge", ignore_errors=True)
    try:
        subprocess.run([binary, "index", "--root", str(repo), "-q"], check=True,
                       stdout=subprocess.DEVNULL)
        snapshot = json.loads((repo / ".doc-bridge" / "snapshot.json").read_text())
    finally:
        shutil.rmtree(repo / ".doc-bridge", ignore_errors=True)
    return [entity for entity in snapshot["entities"]
            if entity["kind"] == "module" and entity.get("language") == language]


def doc_bridge_declarations(modules):
    types, members = {}, {}
    for entity in modules:
        path = entity["path"]
        for symbol in entity.get("symbols", []):
            if not symbol.get("reexport") and symbol["kind"] in COMPARED_SYMBOL_KINDS:
                types[(path, None, symbol["name"])] = symbol["line"]
        for member in entity.get("members", []):
            members[(path, member["owner"], member["name"])] = member["line"]
    return types, members


def put(table: dict, key, line) -> None:
    """Records a declaration, keeping its first line when the key occurs again."""
    if key not in table or (line is not None and (table[key] is None or line < table[key])):
        table[key] = line


def strip_template_arguments(text: str) -> str:
    out, depth = [], 0
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out).strip()


def cpp_name(name: str) -> str:
    if name.startswith("operator"):
        return re.sub(r"\s+", "", name)
    return strip_template_arguments(name)


def cpp_owner(scope: str) -> str:
    return strip_template_arguments(scope).split("::")[-1].strip()


class SourceLines:
    def __init__(self, repo: Path):
        self.repo, self.files, self.guards = repo, {}, {}

    def __call__(self, path: str, line: int) -> str:
        if path not in self.files:
            try:
                self.files[path] = (self.repo / path).read_text(errors="replace").splitlines()
            except OSError:
                self.files[path] = []
        lines = self.files[path]
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def ifndefs(self, path: str) -> dict:
        """Each name an `#ifndef` tests, with the first line that does."""
        if path not in self.guards:
            self(path, 1)
            found = {}
            for number, text in enumerate(self.files[path], 1):
                match = IFNDEF.fullmatch(text)
                if match:
                    found.setdefault(match.group(1), number)
            self.guards[path] = found
        return self.guards[path]


def new_doc_bridge_declarations(modules, language: str, source: "SourceLines", oracle):
    """doc-bridge's symbols and members for kotlin, c, cpp and php, less the kinds ctags 5.9
    has no tag for; returns them and the count left out."""
    symbols, members, left_out = {}, {}, 0
    name = cpp_name if language == "cpp" else (lambda n: n)
    owner_name = cpp_owner if language == "cpp" else (lambda n: n)
    for entity in modules:
        path = entity["path"]
        if path in oracle.get("files", ()):
            continue  # a file whose ctags tags are not to be trusted
        enums = {s["name"] for s in entity.get("symbols", []) if s["kind"] == "enum"}
        for symbol in entity.get("symbols", []):
            if symbol.get("reexport"):
                continue
            if language == "php" and symbol["kind"] == "enum":
                left_out += 1  # ctags 5.9 has no PHP enum
                continue
            put(symbols, (path, None, name(symbol["name"])), symbol["line"])
        for member in entity.get("members", []):
            owner = member["owner"]
            if language == "php" and owner in enums:
                left_out += 1  # cases, methods and constants of a PHP enum
                continue
            if (language == "kotlin"
                    and (owner in enums or (path, owner) in oracle.get("enums", ()))
                    and not re.search(r"\b(val|var|fun)\b", source(path, member["line"]))):
                left_out += 1  # a Kotlin enum entry
                continue
            put(members, (path, owner_name(owner), name(member["name"])), member["line"])
    return symbols, members, left_out


def ruby_declarations(tags):
    types, members = {}, {}
    for tag in tags:
        path = tag["path"].removeprefix("./")
        if not path.endswith(EXTENSIONS["ruby"]):
            continue
        if tag.get("kind") in RUBY_TYPES:
            types[(path, None, tag["name"])] = tag["line"]
        elif tag.get("kind") in RUBY_MEMBERS and tag.get("scope"):
            owner = tag["scope"].replace("::", ".").split(".")[-1]
            # An accessor is tagged as reader and writer (`port`, `port=`): one attribute.
            name = tag["name"].removesuffix("=") if tag["kind"] == "accessor" else tag["name"]
            members.setdefault((path, owner, name), tag["line"])
    return types, members


def ctags_declarations(repo: Path, language: str):
    out = subprocess.run(
        ["ctags", "-R", f"--languages={CTAGS_LANGUAGE[language]}", "--fields=+naKZ",
         "--extras=-f", "--output-format=json", "-f", "-", "."],
        cwd=repo, check=True, capture_output=True, text=True)
    tags = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    if language == "ruby":
        return ruby_declarations(tags)
    def top_level(tag):
        return "scope" not in tag or tag.get("scopeKind") == "namespace"

    # (path, the scope a member of the type carries) → the type's kind and name.
    top_kind = {}
    for tag in tags:
        if tag.get("kind") in TYPE_KINDS and top_level(tag):
            path = tag["path"].removeprefix("./")
            scope = f"{tag['scope']}.{tag['name']}" if "scope" in tag else tag["name"]
            top_kind[(path, scope)] = (tag["kind"], tag["name"])
    types, members = {}, {}
    for tag in tags:
        path = tag["path"].removeprefix("./")
        if not path.endswith(EXTENSIONS[language]):
            continue
        kind = tag.get("kind")
        if kind in TYPE_KINDS and top_level(tag):
            declaration = tag.get("pattern", "").split("(")[0]
            if " public " in f" {declaration.strip('/^$')} ":
                types[(path, None, tag["name"])] = tag["line"]
        elif kind in MEMBER_KINDS and tag.get("scope"):
            owner = top_kind.get((path, tag["scope"]))
            if owner is None:
                continue  # a member of a nested or local type
            owner_kind, owner_name = owner
            reachable = (tag.get("access") in ("public", "protected")
                         or owner_kind in ("interface", "annotation")
                         or kind in ENUM_VALUES)
            if reachable:
                members[(path, owner_name, tag["name"])] = tag["line"]
    return types, members


def run_ctags(repo: Path, language: str):
    out = subprocess.run(
        ["ctags", "-R", f"--languages={CTAGS_LANGUAGE[language]}", "--fields=+naKZ",
         *CTAGS_OPTIONS.get(language, []), "--extras=-f", "--output-format=json", "-f", "-",
         "."],
        cwd=repo, check=True, capture_output=True, text=True)
    tags = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    for tag in tags:
        tag["path"] = tag["path"].removeprefix("./")
    return [tag for tag in tags if tag["path"].lower().endswith(EXTENSIONS[language])]


def tag_line(tag) -> str:
    """The source line ctags' pattern quotes (`/^...$/`, slashes and backslashes escaped)."""
    pattern = tag.get("pattern", "")
    pattern = pattern.removeprefix("/^").removesuffix("/").removesuffix("$")
    return pattern.replace("\\/", "/").replace("\\\\", "\\")


def indented(tag) -> bool:
    return tag_line(tag)[:1] in (" ", "\t")


KOTLIN_DECLARATION = re.compile(r"\b(?:val|var|fun|class|interface|object|typealias)\b")


def kotlin_modifiers(text: str, name: str) -> set:
    """The modifiers before the keyword that declares `name` on this line."""
    if name == "Companion":
        found = re.search(r"\bcompanion\b", text)
        return set(re.split(r"[(,{;]", text[:found.start()])[-1].split()) if found else set()
    for found in re.finditer(rf"(?<![\w$`]){re.escape(name)}(?![\w$`])", text):
        keywords = list(KOTLIN_DECLARATION.finditer(text, 0, found.start()))
        if keywords:
            head = text[:keywords[-1].start()]
            return set(re.split(r"[(,{;]", head)[-1].split())
    return set()


def kotlin_hidden(tag, name: str) -> bool:
    return bool({"private", "internal"} & kotlin_modifiers(tag_line(tag), name))


# A declaration with a backticked name (`fun `two words`()`): ctags 5.9 reads memory it should
# not there, and its tags for the whole file (names, scopes) change from run to run.
KOTLIN_BACKTICKED = re.compile(
    r"\b(?:val|var|fun|class|interface|object|typealias)\s+(?:<[^>]*>\s*)?(?:[\w.<>?]+\.)?`")


def kotlin_ctags(tags, repo: Path):
    symbols, members, unjudged, enums = {}, {}, set(), set()
    unstable = {path for path in {tag["path"] for tag in tags}
                if KOTLIN_BACKTICKED.search((repo / path).read_text(errors="replace"))}
    tags = [tag for tag in tags if tag["path"] not in unstable]
    top = lambda tag: tag.get("scopeKind") in (None, "package")
    scoped = lambda tag: f"{tag['scope']}.{tag['name']}" if "scope" in tag else tag["name"]
    owners, hidden_scopes = {}, set()  # (path, scope of its members) -> owner name
    # A package-level tag on an indented line is a member whose class scope ctags lost. Members
    # of a lost companion are as unjudgeable; what ctags scopes into other lost types (nested
    # types, functions) is compared on neither side anyway.
    lost = {(tag["path"], scoped(tag)): bool(re.search(r"\bcompanion\s+object\b", tag_line(tag)))
            for tag in tags if top(tag) and indented(tag)
            and tag["kind"] in ("class", "interface", "object")}
    def in_lost(tag):
        scope = tag.get("scope")
        return scope is not None and any(
            (tag["path"], scope[:end]) in lost
            for end in [len(scope)] + [i for i, ch in enumerate(scope) if ch == "."])
    for tag in tags:
        name = tag["name"].strip()
        if tag["kind"] == "package" or name.startswith("<"):
            continue
        if (top(tag) and indented(tag)) or lost.get((tag["path"], tag.get("scope"))):
            unjudged.add((tag["path"], tag["line"], name))
            continue
        if in_lost(tag):
            continue
        if top(tag):
            if tag["kind"] in ("class", "interface", "object"):
                owners[(tag["path"], scoped(tag))] = name
                if re.search(r"\benum\s+class\b", tag_line(tag)):
                    enums.add((tag["path"], name))
            if not kotlin_hidden(tag, name):
                put(symbols, (tag["path"], None, name), tag["line"])
    for tag in tags:
        if (tag["kind"] == "object" and (tag["path"], tag.get("scope")) in owners
                and re.search(r"\bcompanion\s+object\b", tag_line(tag))):
            key = (tag["path"], scoped(tag))  # a named companion's name keeps ctags' space
            owners[key] = owners[(tag["path"], tag["scope"])]
            if kotlin_hidden(tag, tag["name"].strip()):
                hidden_scopes.add(key)
    for tag in tags:
        key = (tag["path"], tag.get("scope"))
        name = tag["name"].strip()
        if (tag["kind"] in ("method", "constant", "variable") and key in owners
                and key not in hidden_scopes and not name.startswith("<")
                and not kotlin_hidden(tag, name)):
            put(members, (tag["path"], owners[key], name), tag["line"])
    return symbols, members, unjudged, {"enums": enums, "files": unstable}


IFNDEF = re.compile(r"\s*#\s*ifndef\s+(\w+)\s*(?://.*|/\*.*)?")


def include_guard(tag, source: "SourceLines") -> bool:
    """`#define X_H` with no value under an earlier `#ifndef X_H` (doc-bridge's rule)."""
    name = re.escape(tag["name"])
    if not re.fullmatch(rf"\s*#\s*define\s+{name}\s*(?://.*|/\*.*)?", tag_line(tag)):
        return False
    opened = source.ifndefs(tag["path"]).get(tag["name"])
    return opened is not None and opened < tag["line"]


def c_family_ctags(tags, language: str, source: "SourceLines", uniform: bool = False):
    cpp = language == "cpp"
    symbols, members, unjudged = {}, {}, set()
    def at_namespace_level(tag):
        return "scope" not in tag or (cpp and tag.get("scopeKind") == "namespace")

    scoped = lambda tag: f"{tag['scope']}::{tag['name']}" if "scope" in tag else tag["name"]
    # An anonymous struct, union or enum takes the name of the typedef that names it.
    typedef_of = {}
    for tag in tags:
        if tag["kind"] == "typedef" and ":" in tag.get("typeref", ""):
            typedef_of[(tag["path"], tag["typeref"].split(":", 1)[1])] = tag["name"]
    owners = {}  # (path, scope of its members) -> (kind, owner name)
    record_kinds = ("class", "struct", "union") if cpp else ("struct", "union")
    source_symbol_kinds = ("function",) if cpp else ("function", "variable")
    header_symbol_kinds = ("class", "struct", "union", "enum", "typedef", "function", "prototype",
                           *(("variable",) if uniform else ()))
    for tag in tags:
        if tag["kind"] in (*record_kinds, "enum") and at_namespace_level(tag):
            name = tag["name"]
            if name.startswith("__anon"):
                name = typedef_of.get((tag["path"], scoped(tag)))
                if name is None:
                    continue
            owners[(tag["path"], scoped(tag))] = (tag["kind"], name)
    for tag in tags:
        path, kind = tag["path"], tag["kind"]
        name = cpp_name(tag["name"]) if cpp else tag["name"]
        if tag["name"].startswith("__anon"):
            continue
        properties = tag.get("properties", "").split(",")
        header = uniform or (cpp and path.lower().endswith(CPP_HEADERS))
        internal = "static" in properties or "__anon" in tag.get("scope", "")
        if header:
            if kind == "macro":
                if not include_guard(tag, source):
                    put(symbols, (path, None, name), tag["line"])
            elif not internal and at_namespace_level(tag) and kind in header_symbol_kinds:
                put(symbols, (path, None, name), tag["line"])
        elif kind in source_symbol_kinds and at_namespace_level(tag) and not internal:
            put(symbols, (path, None, name), tag["line"])
        owner = owners.get((path, tag.get("scope")))
        if owner is not None:
            owner_kind, owner_name = owner
            if kind == "enumerator" and owner_kind == "enum":
                put(members, (path, owner_name, name), tag["line"])
            elif (kind in ("member", "function", "prototype") and owner_kind != "enum"
                  and tag.get("access", "public") in ("public", "protected")):
                put(members, (path, owner_name, name), tag["line"])
        elif (cpp and kind == "function" and tag.get("scopeKind") in record_kinds
              and "access" not in tag
              and "::" + re.sub(r"\s+", "", tag["name"]) in re.sub(r"\s+", "", tag_line(tag))):
            put(members, (path, cpp_owner(tag["scope"]), name), tag["line"])  # out of line
    return symbols, members, unjudged, {}


PHP_PROMOTED = re.compile(r"(?:^|[(,])\s*((?:(?:public|protected|private|readonly)\s+)+)"
                          r"[^$,()]*\$(\w+)")


def php_ctags(tags):
    symbols, members, unjudged = {}, {}, set()
    at_namespace_level = lambda tag: tag.get("scopeKind") in (None, "namespace")
    scoped = lambda tag: f"{tag['scope']}\\{tag['name']}" if "scope" in tag else tag["name"]
    owners = {(tag["path"], scoped(tag)): (tag["kind"], tag["name"]) for tag in tags
              if tag["kind"] in ("class", "interface", "trait") and at_namespace_level(tag)}
    for tag in tags:
        path, kind, name, line = tag["path"], tag["kind"], tag["name"], tag["line"]
        text = tag_line(tag)
        if at_namespace_level(tag):
            if kind in ("class", "interface", "trait"):
                put(symbols, (path, None, name), line)
            elif kind == "function":
                if "access" in tag:  # a method of an enum, which ctags 5.9 does not scope
                    unjudged.add((path, line, name))
                else:
                    put(symbols, (path, None, name), line)
            elif kind == "define":
                if indented(tag) and not re.search(r"\bdefine\s*\(", text):
                    unjudged.add((path, line, name))  # a constant of an enum (or in a block)
                else:
                    put(symbols, (path, None, name), line)
            continue
        owner = owners.get((path, tag.get("scope")))
        if owner is None:
            continue
        owner_kind, owner_name = owner
        access = tag.get("access")
        if kind == "function":
            if access in (None, "public", "protected") or owner_kind == "interface":
                put(members, (path, owner_name, name), line)
            if name == "__construct":
                for found in PHP_PROMOTED.finditer(tag.get("signature", "")):
                    if "private" not in found.group(1).split():
                        put(members, (path, owner_name, found.group(2)), None)
        elif kind == "variable" and access in ("public", "protected"):
            put(members, (path, owner_name, name), line)
        elif kind == "define":
            head = text.split(name)[0] if name in text else ""
            if owner_kind == "interface" or not re.search(r"\bprivate\b", head):
                put(members, (path, owner_name, name), line)
    return symbols, members, unjudged, {}


def new_ctags_declarations(repo: Path, language: str, uniform_c: bool = False):
    tags = run_ctags(repo, language)
    if language == "kotlin":
        return kotlin_ctags(tags, repo)
    if language == "php":
        return php_ctags(tags)
    return c_family_ctags(tags, language, SourceLines(repo), uniform_c)


def drop_unjudged(table: dict, unjudged: set) -> int:
    """Removes doc-bridge's declarations at the file, line and name of a tag ctags misplaced."""
    gone = [key for key, line in table.items() if (key[0], line, key[2]) in unjudged]
    for key in gone:
        del table[key]
    return len(gone)


def compare(name: str, ours: dict, theirs: dict, show: int) -> None:
    common = ours.keys() & theirs.keys()
    precision = len(common) / len(ours) if ours else 1.0
    recall = len(common) / len(theirs) if theirs else 1.0
    with_line = [k for k in common if theirs[k] is not None]
    same_line = sum(1 for k in with_line if ours[k] == theirs[k])
    print(f"| {name} | {len(ours)} | {len(theirs)} | {len(common)} | {precision:.3f} | "
          f"{recall:.3f} | {same_line / len(with_line) if with_line else 1.0:.3f} |")
    if show:
        only_ours = sorted(ours.keys() - theirs.keys())[:show]
        only_theirs = sorted(theirs.keys() - ours.keys())[:show]
        for key in only_ours:
            print(f"    doc-bridge only: {key} line {ours[key]}", file=sys.stderr)
        for key in only_theirs:
            print(f"    ctags only: {key} line {theirs[key]}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--doc-bridge", required=True)
    parser.add_argument("--language", required=True, choices=sorted(EXTENSIONS))
    parser.add_argument("--show", type=int, default=0)
    parser.add_argument("--uniform-c", action="store_true",
                        help="c, cpp: one rule for every file, the header rule plus variables")
    parser.add_argument("repo", type=Path)
    args = parser.parse_args()
    if CTAGS_LANGUAGE[args.language] is None:
        sys.exit(f"Universal Ctags 5.9 has no parser for {args.language} "
                 "(`ctags --list-languages`): there is no oracle to compare with.")
    modules = doc_bridge_modules(args.doc_bridge, args.repo, args.language)
    if not modules:
        print(f"doc-bridge recorded no {args.language} modules (does this build read the "
              "language?)", file=sys.stderr)
    print(f"## {args.repo.name} ({args.language})")
    print("| declarations | doc-bridge | ctags | both | precision | recall | same line |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    if args.language not in NEW_LANGUAGES:
        ours_types, ours_members = doc_bridge_declarations(modules)
        theirs_types, theirs_members = ctags_declarations(args.repo, args.language)
        compare("exported types", ours_types, theirs_types, args.show)
        compare("members", ours_members, theirs_members, args.show)
        return
    theirs_symbols, theirs_members, unjudged, oracle = new_ctags_declarations(
        args.repo, args.language, args.uniform_c)
    ours_symbols, ours_members, left_out = new_doc_bridge_declarations(
        modules, args.language, SourceLines(args.repo), oracle)
    dropped = drop_unjudged(ours_symbols, unjudged) + drop_unjudged(ours_members, unjudged)
    compare("exported symbols", ours_symbols, theirs_symbols, args.show)
    compare("members", ours_members, theirs_members, args.show)
    files = len(oracle.get("files", ()))
    print(f"\nLeft out: {files} files whose ctags tags change from run to run; "
          f"{len(unjudged)} ctags tags whose scope ctags lost, and the {dropped} doc-bridge "
          f"declarations at their file, line and name; {left_out} doc-bridge declarations of "
          "kinds ctags has no tag for.")
    if args.show:
        for path, line, name in sorted(unjudged)[:args.show]:
            print(f"    scope lost by ctags: {path}:{line} {name}", file=sys.stderr)


if __name__ == "__main__":
    main()
