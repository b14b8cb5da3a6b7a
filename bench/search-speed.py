#!/usr/bin/env python3
"""Whole-process `doc-bridge search` latency: the first SciFact test claims, each run as its own
process against an already indexed tree, with one or more binaries interleaved claim by claim (so
machine noise hits them alike). Prints the median and p95 wall time per binary.

Usage: bench/search-speed.py ROOT BINARY [BINARY...] [--claims N]
ROOT must hold a fresh index (`doc-bridge index --root ROOT`); the claims come from
../shared/bench/scifact/queries.test.jsonl (override with SCIFACT_QUERIES).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_QUERIES = os.path.join(HERE, "..", "..", "shared", "bench", "scifact", "queries.test.jsonl")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--claims", type=int, default=60)
    args = parser.parse_args()
    queries = os.environ.get("SCIFACT_QUERIES", DEFAULT_QUERIES)
    with open(queries, encoding="utf-8") as lines:
        claims = [json.loads(line)["text"] for line in lines if line.strip()][: args.claims]
    times = {binary: [] for binary in args.binaries}

    def search(binary: str, query: str) -> float:
        command = [binary, "search", "--root", args.root, "--json", "--limit", "10", "--", query]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True)
        elapsed = (time.perf_counter() - start) * 1000
        if done.returncode != 0:
            sys.exit(f"search-speed: {binary} failed on {query!r}: {done.stderr.decode()}")
        return elapsed

    for binary in args.binaries:
        search(binary, "warm up")  # builds the search cache if it is missing
    for claim in claims:
        for binary in args.binaries:
            times[binary].append(search(binary, claim))
    for binary, samples in times.items():
        samples.sort()
        p95 = samples[max(0, int(len(samples) * 0.95) - 1)]
        print(f"{binary}: {len(samples)} searches, median {statistics.median(samples):.1f} ms, p95 {p95:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
