#!/usr/bin/env python3
"""The MCP server after an edit: how long a `search` call takes when the file it should find was
just changed (the server re-indexes first), next to a call with nothing changed and a cold
`doc-bridge index` of the same tree, measured in the same run.

    bench/mcp-refresh.py BINARY TREE [--edits N] [--calls N] [--pause SECONDS]

TREE is any repository with Markdown documents (for the figures in bench/README.md:
`doc-bridge-corpus synth --files 10000 --seed 1`). The script indexes it, starts
`BINARY mcp --root TREE`, speaks newline-delimited JSON-RPC to it, and for each edit appends a
paragraph with a fresh word to one document and times `search` for that word until the answer
(which must list that document first). Before each edit it waits `--pause` seconds (default
1), as a client reading an answer does: the server writes the artifacts of a refresh right after
answering, and a call that arrives sooner waits for that write (`--pause 0` measures calls back
to back). The edited document is restored at the end.
Standard library only.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from mcp_client import call, start


def search(proc, ident, query):
    reply = call(proc, ident, "tools/call", {"name": "search", "arguments": {"query": query, "limit": 3}})
    text = reply["result"]["content"][0]["text"]
    return json.loads(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("tree")
    ap.add_argument("--edits", type=int, default=5)
    ap.add_argument("--calls", type=int, default=20)
    ap.add_argument("--pause", type=float, default=1.0)
    args = ap.parse_args()
    tree = os.path.abspath(args.tree)

    t0 = time.monotonic()
    subprocess.run([args.binary, "index", "--force", "--quiet", "--root", tree], check=True)
    cold = time.monotonic() - t0

    docs = []
    for dirpath, _, names in os.walk(tree):
        if ".doc-bridge" in dirpath:
            continue
        docs.extend(os.path.join(dirpath, n) for n in names if n.endswith(".md"))
    docs.sort()
    if not docs:
        sys.exit("no Markdown document in the tree")
    target = docs[len(docs) // 2]
    rel = os.path.relpath(target, tree)
    with open(target, encoding="utf-8") as f:
        original = f.read()

    proc = start(args.binary, tree)
    try:
        ident = 2
        search(proc, ident, "warm up")
        quiet = []
        for _ in range(args.calls):
            ident += 1
            t = time.monotonic()
            answer = search(proc, ident, "module documentation")
            quiet.append(time.monotonic() - t)
            assert answer["fresh"] is True, answer
        edited = []
        for n in range(args.edits):
            time.sleep(args.pause)
            word = f"benchword{n}x{os.getpid()}"
            with open(target, "a", encoding="utf-8") as f:
                f.write(f"\n\nThe {word} paragraph.\n")
            ident += 1
            t = time.monotonic()
            answer = search(proc, ident, word)
            edited.append(time.monotonic() - t)
            first = answer["results"][0]["path"] if answer["results"] else None
            if first != rel or answer.get("fresh") is not True:
                sys.exit(f"edit {n}: expected {rel} first and fresh, got {first}: {answer}")
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        with open(target, "w", encoding="utf-8") as f:
            f.write(original)

    ms = lambda s: f"{s * 1000:.0f} ms"
    print(f"tree: {tree} ({len(docs)} Markdown documents)")
    print(f"cold `index --force`:                  {ms(cold)}")
    print(f"search call, nothing changed (median): {ms(statistics.median(quiet))} (max {ms(max(quiet))}, {len(quiet)} calls)")
    print(f"search call after an edit (median):    {ms(statistics.median(edited))} (max {ms(max(edited))}, {len(edited)} edits, {args.pause:g} s apart)")
    print(f"after an edit / cold index:            {statistics.median(edited) / cold:.2f}")


if __name__ == "__main__":
    main()
