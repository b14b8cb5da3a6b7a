#!/usr/bin/env python3
"""Findings per rule of `doc-bridge check` on real repositories, for two builds in one run.

    bench/check-findings.py --before OLD_BIN --after NEW_BIN REPO_DIR [REPO_DIR ...]

Each REPO_DIR is a plain checkout (for example `git --git-dir=MIRROR archive HEAD | tar -x`).
For each binary and repository: `index`, then `check --format json`, counting findings per code;
`.doc-bridge/` is removed before and after, so the two builds see the same files. Prints one
Markdown table row per repository and rule (before → after) and, with `--sample N`, N random
findings per rule of the after build (fixed seed) to check by hand.
"""

import argparse
import collections
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

RULES = ["broken-link", "unresolved-import", "orphan-document"]


def findings(binary: str, repo: Path) -> list:
    shutil.rmtree(repo / ".doc-bridge", ignore_errors=True)
    try:
        subprocess.run([binary, "index", "--root", str(repo), "-q"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        out = subprocess.run([binary, "check", "--root", str(repo), "-q", "--format", "json"],
                             check=False, capture_output=True)
        if out.returncode not in (0, 1):
            sys.exit(f"{binary} check on {repo} exited {out.returncode}: {out.stderr.decode()}")
        return json.loads(out.stdout)["diagnostics"]
    finally:
        shutil.rmtree(repo / ".doc-bridge", ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("repos", nargs="+", type=Path)
    args = parser.parse_args()

    totals = {rule: [0, 0] for rule in RULES}
    after_all = []
    print("| repository | " + " | ".join(f"{r} before → after" for r in RULES) + " |")
    print("| --- |" + " --- |" * len(RULES))
    for repo in args.repos:
        counts = []
        for binary in (args.before, args.after):
            found = findings(binary, repo)
            counts.append(collections.Counter(d["code"] for d in found))
            if binary == args.after:
                after_all += [(repo.name, d) for d in found]
        cells = []
        for rule in RULES:
            before, after = counts[0][rule], counts[1][rule]
            totals[rule][0] += before
            totals[rule][1] += after
            cells.append(f"{before} → {after}")
        print(f"| {repo.name} | " + " | ".join(cells) + " |")
    cells = []
    for rule in RULES:
        before, after = totals[rule]
        ratio = f" ({after / before:.3f}×)" if before else ""
        cells.append(f"{before} → {after}{ratio}")
    print("| all | " + " | ".join(cells) + " |")

    rng = random.Random(20261203)
    for rule in RULES if args.sample else []:
        pool = [(name, d) for name, d in after_all if d["code"] == rule]
        print(f"\n{rule}: {len(pool)} after; sample of {min(args.sample, len(pool))}")
        for name, d in rng.sample(pool, min(args.sample, len(pool))):
            line = f":{d['line']}" if d.get("line") else ""
            print(f"  {name} {d['path']}{line} {d['message'][:120]}")


if __name__ == "__main__":
    main()
