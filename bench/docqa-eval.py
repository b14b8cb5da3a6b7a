#!/usr/bin/env python3
"""Documentation search quality on the docqa suites: doc-bridge next to plain BM25, one run.

    bench/docqa-eval.py CORPORA_DIR BINARY [--suites DIR] [--details OUT.json] [--no-bm25]

CORPORA_DIR holds one folder per corpus (`make-corpora.sh` in the shared docqa folder writes
them). For each corpus, end to end through the real binary:
  1. `BINARY index --quiet --root CORPUS` (an index already there is reused when fresh),
  2. every case as its own process: `BINARY search --root CORPUS --json --limit 10 -- QUERY`,
  3. the ranked result paths (several hits in one file counted once, at the best rank) scored
     by the suite's own `score_case` (hit@1, hit@3, MRR@10).
In the same run, the suite's plain-BM25 baseline (`bm25_baseline.py`, needs bm25s and
PyStemmer in the interpreter running this script) is scored over the same files, so the two
columns are comparable; `--no-bm25` skips it.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib.util
import json
import os
import subprocess
import sys

TOP_K = 10


def load_baseline(suites_dir):
    path = os.path.join(suites_dir, "bm25_baseline.py")
    spec = importlib.util.spec_from_file_location("bm25_baseline", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def doc_bridge_ranking(binary, root, query):
    out = subprocess.run(
        [binary, "search", "--root", root, "--json", "--limit", str(TOP_K), "--", query],
        capture_output=True,
        timeout=120,
    )
    if out.returncode != 0:
        return None, out.stderr.decode(errors="replace").strip()
    results = json.loads(out.stdout).get("results", [])
    ranked = []
    for result in results:
        path = result.get("path")
        if path and path not in ranked:
            ranked.append(path)
    return ranked, None


def bm25_rankings(baseline, root, cases):
    import bm25s
    import numpy as np
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    paths, texts = baseline.load_corpus(root)
    retriever = bm25s.BM25()
    retriever.index(
        bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False),
        show_progress=False,
    )
    rankings = []
    for case in cases:
        q = bm25s.tokenize([case["query"]], stopwords="en", stemmer=stemmer,
                           return_ids=False, show_progress=False)[0]
        ranked = []
        if q:
            scores = retriever.get_scores(q)
            order = np.lexsort((np.arange(len(paths)), -scores))
            ranked = [paths[i] for i in order[:TOP_K] if scores[i] > 0]
        rankings.append(ranked)
    return rankings


def mean(rows, key):
    return sum(r[key] for r in rows) / len(rows) if rows else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpora")
    ap.add_argument("binary")
    ap.add_argument("--suites", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     "..", "..", "shared", "bench", "docqa"))
    ap.add_argument("--details")
    ap.add_argument("--no-bm25", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    baseline = load_baseline(args.suites)
    binary = os.path.abspath(args.binary)
    suites = sorted(f for f in os.listdir(args.suites) if f.endswith(".json"))
    rows = {"doc-bridge": [], "bm25": []}
    details = []
    for fn in suites:
        with open(os.path.join(args.suites, fn), encoding="utf-8") as f:
            suite = json.load(f)
        if not (isinstance(suite, dict) and "cases" in suite):
            continue
        name = suite["corpus"]
        root = os.path.join(args.corpora, name)
        index = subprocess.run([binary, "index", "--quiet", "--root", root],
                               capture_output=True)
        if index.returncode != 0:
            sys.exit(f"{name}: index failed: {index.stderr.decode(errors='replace')}")
        cases = suite["cases"]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            ours = list(pool.map(lambda c: doc_bridge_ranking(binary, root, c["query"]), cases))
        theirs = None if args.no_bm25 else bm25_rankings(baseline, root, cases)
        for i, case in enumerate(cases):
            ranked, error = ours[i]
            score = baseline.score_case(ranked or [], case["expected"])
            rows["doc-bridge"].append({**score, "corpus": name, "kind": case["kind"]})
            detail = {"corpus": name, "kind": case["kind"], "query": case["query"],
                      "expected": case["expected"], "rank": score["rank"],
                      "top": (ranked or [])[:5], "error": error}
            if theirs is not None:
                bscore = baseline.score_case(theirs[i], case["expected"])
                rows["bm25"].append({**bscore, "corpus": name, "kind": case["kind"]})
                detail["bm25_rank"] = bscore["rank"]
                detail["bm25_top"] = theirs[i][:5]
            details.append(detail)
    # Before the table: a reader that stops early (`| head`) must not cost the details.
    if args.details:
        with open(args.details, "w", encoding="utf-8") as f:
            json.dump(details, f, indent=1)

    systems = [s for s in ("doc-bridge", "bm25") if rows[s]]
    print("| slice | cases | " + " | ".join(f"{s} hit@1 | {s} hit@3 | {s} MRR@10" for s in systems) + " |")
    print("| --- | ---: | " + " | ".join("---: | ---: | ---:" for _ in systems) + " |")

    def line(label, pick):
        cells = []
        n = 0
        for s in systems:
            picked = [r for r in rows[s] if pick(r)]
            n = len(picked)
            cells.append(f"{mean(picked, 'hit@1'):.3f} | {mean(picked, 'hit@3'):.3f} | {mean(picked, 'mrr@10'):.3f}")
        print(f"| {label} | {n} | " + " | ".join(cells) + " |")

    corpora = sorted({r["corpus"] for r in rows["doc-bridge"]})
    kinds = ["keyword", "question", "symbol", "problem"]
    for corpus in corpora:
        line(corpus, lambda r, c=corpus: r["corpus"] == c)
    line("**all**", lambda r: True)
    for kind in kinds:
        line(kind, lambda r, k=kind: r["kind"] == k)
    for corpus in corpora:
        for kind in kinds:
            line(f"{corpus} / {kind}", lambda r, c=corpus, k=kind: r["corpus"] == c and r["kind"] == k)


if __name__ == "__main__":
    main()
