#!/usr/bin/env python3
"""How much of a Sphinx project's documentation doc-bridge reads, for two builds in one run.

    bench/sphinx-docs.py --before OLD_BIN --after NEW_BIN REPO_DIR [REPO_DIR ...]

Each REPO_DIR is a plain checkout (`git --git-dir=MIRROR archive HEAD | tar -x`). For each
repository it prints, per build:

- documents: reStructuredText files (`.rst` anywhere, `.txt` inside a Sphinx source directory:
  a directory with `conf.py` and `index`/`contents` `.rst`/`.txt`) that are document entities;
- links: the project's internal links counted here, independently of doc-bridge, with regular
  expressions over the sources (`:doc:` roles, `:ref:` roles to local labels, `toctree`
  entries), and how many of them a `links-to` relation records (matched by file and line;
  several links on one line count at most as many relations as that line has);
- findings of `doc-bridge check` per code.

`.doc-bridge/` is removed before and after each run, so both builds see the same files.
"""

import argparse
import collections
import json
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
        files += list(source.rglob("*.txt"))
    return sorted({p.relative_to(repo).as_posix() for p in files if p.is_file()})


def internal_links(repo: Path, files: list) -> collections.Counter:
    """(path, line) → number of internal links written there."""
    links = collections.Counter()
    for rel in files:
        try:
            lines = (repo / rel).read_text(encoding="utf-8").splitlines()
        except (UnicodeDecodeError, OSError):
            continue
        toctree_indent = None
        for number, line in enumerate(lines, 1):
            for role, content in ROLE.findall(line):
                target = content.rsplit("<", 1)[-1].rstrip(">").strip()
                if role == "ref" and ":" in target:
                    continue  # another project's label (intersphinx)
                links[(rel, number)] += 1
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
                    links[(rel, number)] += 1
    return links


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


def measure(binary: str, repo: Path, files: list, links: collections.Counter) -> dict:
    snapshot, findings = run(binary, repo)
    documents = {e["path"] for e in snapshot["entities"] if e["kind"] == "document"}
    relations = collections.Counter()
    for r in snapshot["relations"]:
        if r["kind"] == "links-to" and r["from"].startswith("document:"):
            lines = r["evidence"].get("lines") or [0]
            relations[(r["evidence"]["path"], lines[0])] += 1
    resolved = sum(min(n, relations[key]) for key, n in links.items())
    return {
        "documents": len(documents & set(files)),
        "resolved": resolved,
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
        links = internal_links(repo, files)
        total = sum(links.values())
        before = measure(args.before, repo, files, links)
        after = measure(args.after, repo, files, links)
        print(f"## {repo.name}: {len(files)} reStructuredText files, {total} internal links")
        print("| | before | after |\n| --- | --- | --- |")
        print(f"| documents indexed | {before['documents']} / {len(files)} | "
              f"{after['documents']} / {len(files)} |")
        print(f"| internal links resolved | {before['resolved']} / {total} | "
              f"{after['resolved']} / {total} |")
        codes = sorted(set(before["findings"]) | set(after["findings"]))
        for code in codes:
            print(f"| `{code}` | {before['findings'][code]} | {after['findings'][code]} |")
        print()


if __name__ == "__main__":
    main()
