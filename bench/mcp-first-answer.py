#!/usr/bin/env python3
"""An MCP server's first answer: how long a new `doc-bridge mcp` takes to answer its first
`handoff` and its first `search`, from the query image (`cache/query.bin`, as `index` leaves
it) and, in the same run, with the image removed (the server then parses `index.json` and
`snapshot.json`, as every server did before the image).

    bench/mcp-first-answer.py BINARY TREE [--runs N] [--target ID] [--query WORDS]

TREE is an indexed repository (for bench/README.md: `doc-bridge-corpus synth --files 100000
--seed 1`, then `doc-bridge index`). Each run starts a server, initializes it and times one
call from the request to the answer (the start and the handshake are timed apart). The image is
put back at the end. Standard library only.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time

from mcp_client import call, start


def first_answer(binary, tree, tool, arguments):
    """(seconds from start to the initialize answer, seconds for the first call)."""
    t0 = time.monotonic()
    proc = start(binary, tree, stderr=subprocess.DEVNULL)
    started = time.monotonic() - t0
    t1 = time.monotonic()
    reply = call(proc, 2, "tools/call", {"name": tool, "arguments": arguments})
    answered = time.monotonic() - t1
    if reply.get("result", {}).get("isError"):
        sys.exit(f"{tool} failed: {reply}")
    proc.stdin.close()
    proc.wait()
    return started, answered


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("tree")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--target", default="AGENTS.md")
    ap.add_argument("--query", default="configuration options")
    args = ap.parse_args()
    tree = os.path.abspath(args.tree)
    image = os.path.join(tree, ".doc-bridge", "cache", "query.bin")
    if not os.path.exists(image):
        sys.exit(f"no {image}: index the tree with a doc-bridge that writes the query image")
    kept = image + ".bench"
    calls = [("handoff", {"id": args.target}), ("search", {"query": args.query, "limit": 5})]
    rows = []
    try:
        for tool, arguments in calls:
            with_image, without = [], []
            for _ in range(args.runs):
                with_image.append(first_answer(args.binary, tree, tool, arguments)[1])
                shutil.copyfile(image, kept)
                os.remove(image)
                without.append(first_answer(args.binary, tree, tool, arguments)[1])
                # The server wrote nothing back (it parses, it does not write the image).
                os.replace(kept, image)
            rows.append((tool, statistics.median(with_image), statistics.median(without)))
    finally:
        if os.path.exists(kept):
            os.replace(kept, image)
    print(f"| first call | from the query image s | parsing the artifacts s | ratio |")
    print(f"| --- | ---: | ---: | ---: |")
    for tool, fast, slow in rows:
        print(f"| `{tool}` | {fast:.3f} | {slow:.3f} | {fast / slow:.3f} |")


if __name__ == "__main__":
    main()
