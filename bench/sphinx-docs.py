#!/usr/bin/env python3
"""How much of a Sphinx project's documentation doc-bridge reads, for two builds in one run.

    bench/sphinx-docs.py --before OLD_BIN --after NEW_BIN REPO_DIR [REPO_DIR ...]

Each REPO_DIR is a plain checkout (`git --git-dir=MIRROR archive HEAD | tar -x`). For each
repository it prints, per build:

- documents: reStructuredText files (`.rst` anywhere, `.txt` but `requirements*.txt` inside a
  Sphinx source directory: a directory with `conf.py` and `index`/`contents` `.rst`/`.txt`)
  that are document entities;
- links: the distinct (document, document) pairs the sources link, found here independently
  of doc-bridge (regular expressions over the sources for `:doc:` roles, `toctree` entries and
  `:ref:` roles, resolved as Sphinx resolves them: document names relative to the document or,
  with a leading `/`, to its source directory, with `.rst` or `.txt`; labels through the
  `.. _label:` that defines them; another project's names left out), and how many of them a
  `links-to` relation records;
- findings of `doc-bridge check` per code.

`.doc-bridge/` is removed before and after each run, so both builds see the same files.
"""

import argparse
import collections
import json
import posixpath
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROLE = re.compile(r":(doc|ref):`([^`]+)`")
TOCTREE = re.compile(r"^(\s*)\.\. toctree::")


def sphinx_sources(repo: Path) -> list:
    sources = []
    for conf in repo.rglob("conf.py"):
        d = conf.parent
        if any((d / name).is_file() for name in
               ("index.rst", "index.txt", "contents.rst", "contents.txt")):
            sources.append(d)
    return sources


def rst_files(repo: Path) -> list:
    sources = sphinx_sources(repo)
    files = [p for p in repo.rglob("*.rst") if ".doc-bridge" not in p.parts]
    for source in sources:
        # pip's requirements files, which projects list in `exclude_patterns`
        files += [p for p in source.rglob("*.txt") if not p.name.startswith("requirements")]
    return sorted({p.relative_to(repo).as_posix() for p in files if p.is_file()})


LABEL = re.compile(r"^\s*\.\. _(`[^`]+`|[^:`][^:]*):\s*$")


def source_of(rel: str, sources: list) -> str:
    """The innermost Sphinx source directory holding `rel` (repository-relative), else ''."""
    best = ""
    for source in sources:
        if rel.startswith(source + "/") and len(source) > len(best):
            best = source
    return best


def doc_target(rel: str, target: str, sources: list, documents: set):
    """The document a `:doc:` name or toctree entry names, as Sphinx resolves it; None when
    it names none."""
    if target.startswith("/"):
        base, name = source_of(rel, sources), target[1:]
    else:
        base, name = posixpath.dirname(rel), target
    path = posixpath.normpath(posixpath.join(base, name)) if base else posixpath.normpath(name)
    for suffix in (".rst", ".txt"):
        if path + suffix in documents:
            return path + suffix
    return None


def internal_links(repo: Path, files: list) -> tuple:
    """The distinct (document, target document) pairs the sources link, resolved here as Sphinx
    resolves `:doc:`, toctree entries and `:ref:` (through `.. _label:`), self-links left out;
    and how many written links name no document."""
    sources = [p.relative_to(repo).as_posix() for p in sphinx_sources(repo)]
    documents = set(files)
    texts = {}
    for rel in files:
        try:
            texts[rel] = (repo / rel).read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, OSError):
            texts[rel] = []
    labels = {}
    for rel in files:
        for line in texts[rel]:
            match = LABEL.match(line)
            if match:
                name = " ".join(match.group(1).strip("`").split()).lower()
                labels.setdefault(name, rel)
    pairs, unresolved = set(), 0

    def add(rel, target):
        nonlocal unresolved
        if target is None:
            unresolved += 1
        elif target != rel:
            pairs.add((rel, target))

    for rel in files:
        toctree_indent = None
        for line in texts[rel]:
            for role, content in ROLE.findall(line):
                target = content.rsplit("<", 1)[-1].rstrip(">").strip()
                if ":" in target:
                    continue  # another project's (intersphinx)
                if role == "ref":
                    add(rel, labels.get(" ".join(target.split()).lower()))
                else:
                    add(rel, doc_target(rel, target, sources, documents))
            match = TOCTREE.match(line)
            if match:
                toctree_indent = len(match.group(1))
                continue
            if toctree_indent is not None:
                stripped = line.strip()
                if not stripped:
                    continue
                indent = len(line) - len(line.lstrip())
                if indent <= toctree_indent:
                    toctree_indent = None
                elif not stripped.startswith(":") and "*" not in stripped \
                        and stripped != "self" and "://" not in stripped:
                    entry = stripped.rsplit("<", 1)[-1].rstrip(">").strip()
                    add(rel, doc_target(rel, entry, sources, documents))
    return pairs, unresolved


def run(binary: str, repo: Path) -> tuple:
    shutil.rmtree(repo / ".doc-bridge", ignore_errors=True)
    try:
        subprocess.run([binary, "index", "--root", str(repo), "-q"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        snapshot = json.loads((repo / ".doc-bridge" / "snapshot.json").read_text())
        out = subprocess.run([binary, "check", "--root", str(repo), "-q", "--format", "json"],
                             check=False, capture_output=True)
        if out.returncode not in (0, 1):
            sys.exit(f"{binary} check on {repo} exited {out.returncode}: {out.stderr.decode()}")
        return snapshot, json.loads(out.stdout)["diagnostics"]
    finally:
        shutil.rmtree(repo / ".doc-bridge", ignore_errors=True)


def measure(binary: str, repo: Path, files: list, pairs: set) -> dict:
    snapshot, findings = run(binary, repo)
    documents = {e["path"] for e in snapshot["entities"] if e["kind"] == "document"}
    recorded = {
        (r["from"][len("document:"):], r["to"][len("document:"):])
        for r in snapshot["relations"]
        if r["kind"] == "links-to" and r["from"].startswith("document:")
        and r["to"].startswith("document:")
    }
    return {
        "documents": len(documents & set(files)),
        "resolved": len(pairs & recorded),
        "findings": collections.Counter(d["code"] for d in findings),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("repos", nargs="+", type=Path)
    args = parser.parse_args()
    for repo in args.repos:
        files = rst_files(repo)
        pairs, unresolved = internal_links(repo, files)
        total = len(pairs)
        before = measure(args.before, repo, files, pairs)
        after = measure(args.after, repo, files, pairs)
        print(f"## {repo.name}: {len(files)} reStructuredText files; {total} distinct links "
              f"between documents; {unresolved} written links Sphinx would not resolve either")
        print("| | before | after |\n| --- | --- | --- |")
        print(f"| documents indexed | {before['documents']} / {len(files)} | "
              f"{after['documents']} / {len(files)} |")
        print(f"| links between documents recorded | {before['resolved']} / {total} | "
              f"{after['resolved']} / {total} |")
        codes = sorted(set(before["findings"]) | set(after["findings"]))
        for code in codes:
            print(f"| `{code}` | {before['findings'][code]} | {after['findings'][code]} |")
        print()


if __name__ == "__main__":
    main()
