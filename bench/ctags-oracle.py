#!/usr/bin/env python3
"""Declarations doc-bridge records against Universal Ctags', on a real repository.

    bench/ctags-oracle.py --doc-bridge BIN --language java|csharp|ruby REPO_DIR [--show N]

REPO_DIR is a plain checkout (`git --git-dir=MIRROR archive HEAD | tar -x`). The script runs
`doc-bridge index` there and `ctags -R` (Debian's `universal-ctags`) over the same files, and
compares, for the declaration kinds both tools define:

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

Each declaration is keyed by (file, owner, name); precision is the share of doc-bridge's keys
ctags also has, recall the share of ctags' keys doc-bridge has, and line agreement the share
of common keys on the same line. `--show N` prints N disagreements of each side.
`.doc-bridge/` is removed before and after.
"""

import argparse
import collections
import json
import shutil
import subprocess
import sys
from pathlib import Path

TYPE_KINDS = {"class", "interface", "enum", "annotation", "struct"}
MEMBER_KINDS = {"method", "field", "enumConstant", "property", "event", "enumerator"}
ENUM_VALUES = {"enumConstant", "enumerator"}
EXTENSIONS = {"java": (".java",), "csharp": (".cs",), "ruby": (".rb", ".rake")}
CTAGS_LANGUAGE = {"java": "Java", "csharp": "C#", "ruby": "Ruby"}
RUBY_TYPES = {"class", "module"}
RUBY_MEMBERS = {"method", "singletonMethod", "constant", "accessor"}
# Symbol kinds ctags has a tag for (C# delegates are `type` symbols and have none).
COMPARED_SYMBOL_KINDS = {"class", "interface", "enum", "struct", "module"}


def doc_bridge_declarations(binary: str, repo: Path, language: str):
    shutil.rmtree(repo / ".doc-bridge", ignore_errors=True)
    try:
        subprocess.run([binary, "index", "--root", str(repo), "-q"], check=True,
                       stdout=subprocess.DEVNULL)
        snapshot = json.loads((repo / ".doc-bridge" / "snapshot.json").read_text())
    finally:
        shutil.rmtree(repo / ".doc-bridge", ignore_errors=True)
    types, members = {}, {}
    for entity in snapshot["entities"]:
        if entity["kind"] != "module" or entity.get("language") != language:
            continue
        path = entity["path"]
        for symbol in entity.get("symbols", []):
            if not symbol.get("reexport") and symbol["kind"] in COMPARED_SYMBOL_KINDS:
                types[(path, None, symbol["name"])] = symbol["line"]
        for member in entity.get("members", []):
            members[(path, member["owner"], member["name"])] = member["line"]
    return types, members


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


def compare(name: str, ours: dict, theirs: dict, show: int) -> None:
    common = ours.keys() & theirs.keys()
    precision = len(common) / len(ours) if ours else 1.0
    recall = len(common) / len(theirs) if theirs else 1.0
    same_line = sum(1 for k in common if ours[k] == theirs[k])
    print(f"| {name} | {len(ours)} | {len(theirs)} | {len(common)} | {precision:.3f} | "
          f"{recall:.3f} | {same_line / len(common) if common else 1.0:.3f} |")
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
    parser.add_argument("repo", type=Path)
    args = parser.parse_args()
    ours_types, ours_members = doc_bridge_declarations(args.doc_bridge, args.repo, args.language)
    theirs_types, theirs_members = ctags_declarations(args.repo, args.language)
    print(f"## {args.repo.name} ({args.language})")
    print("| declarations | doc-bridge | ctags | both | precision | recall | same line |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    compare("exported types", ours_types, theirs_types, args.show)
    compare("members", ours_members, theirs_members, args.show)


if __name__ == "__main__":
    main()
