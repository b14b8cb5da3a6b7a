#!/usr/bin/env python3
"""Retrieval quality of doc-bridge on BEIR SciFact: nDCG@10 and Recall@100.

End to end, through the real binaries:
  1. writes every SciFact abstract as <BENCH_DIR>/scifact-eval/<_id>.md (`doc-bridge-corpus scifact`),
  2. indexes it with `doc-bridge index --root DIR --quiet`,
  3. runs every claim of the split as its own process,
     `doc-bridge search --root DIR --json --limit 100 -- "<claim>"`,
     and maps each result to a SciFact id by the file stem of its `path`,
  4. scores the ranking against the qrels with the trec_eval definitions.

Metric definitions (trec_eval's ndcg_cut.10 and recall.100):
  * gain of a document = its qrels grade (linear, not 2^grade - 1); unjudged documents gain 0;
  * DCG@10 = sum over ranks r = 1..10 of gain / log2(r + 1); the ideal DCG sorts the query's qrels
    grades in decreasing order; nDCG@10 = DCG@10 / ideal DCG@10;
  * Recall@100 = relevant documents (grade > 0) in the top 100 / relevant documents in qrels;
  * queries without any relevant document in the qrels are skipped; a query whose search returns
    nothing scores 0 on both; the reported value is the mean over the evaluated queries.
The ranking is the order the search printed (what a user sees), with repeated documents (several
hits in one file) counted once at their best rank. trec_eval would re-sort by score and break ties
by document id; that differs only where scores tie exactly.

Standard library only. `--self-test` checks the metric code without any binary.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

NDCG_DEPTH = 10
RECALL_DEPTH = 100
SEARCH_TIMEOUT_S = 120


# ----- metrics ----------------------------------------------------------------------------------


def dcg(gains: list[float]) -> float:
    """Discounted cumulative gain of gains in rank order (rank r is discounted by log2(r + 1))."""
    return sum(g / math.log2(rank + 1) for rank, g in enumerate(gains, start=1))


def ndcg_at(ranking: list[str], judged: dict[str, int], depth: int = NDCG_DEPTH) -> float:
    """trec_eval ndcg_cut: DCG of the top `depth` over the ideal DCG built from the qrels grades."""
    ideal = dcg(sorted((g for g in judged.values() if g > 0), reverse=True)[:depth])
    if ideal == 0:
        return 0.0
    return dcg([max(judged.get(doc, 0), 0) for doc in ranking[:depth]]) / ideal


def recall_at(ranking: list[str], judged: dict[str, int], depth: int = RECALL_DEPTH) -> float:
    """trec_eval recall: share of the relevant (grade > 0) documents found in the top `depth`."""
    relevant = {doc for doc, g in judged.items() if g > 0}
    if not relevant:
        return 0.0
    return len(relevant.intersection(ranking[:depth])) / len(relevant)


def dedupe(ranking: list[str]) -> list[str]:
    """Keeps each document at its first (best) rank: several hits in one file count once."""
    seen: set[str] = set()
    out = []
    for doc in ranking:
        if doc not in seen:
            seen.add(doc)
            out.append(doc)
    return out


# ----- data -------------------------------------------------------------------------------------

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def sanitize_id(doc_id: str) -> str:
    """The file stem `doc-bridge-corpus scifact` writes for an id (same rule as the Rust
    `sanitize_id`): unsafe characters and a leading '.' become '_'."""
    stem = _UNSAFE.sub("_", doc_id)
    return "_" + stem[1:] if stem.startswith(".") else stem


def read_queries(path: Path) -> list[tuple[str, str]]:
    """(id, text) of every query of a BEIR queries.jsonl, in file order."""
    out = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.strip():
                q = json.loads(line)
                out.append((str(q["_id"]), q["text"]))
    return out


def parse_qrels(lines) -> dict[str, dict[str, int]]:
    """BEIR qrels TSV (`query-id corpus-id score` header, tab separated) → {query: {doc: grade}}.
    Document ids are mapped to file stems so they compare with search results."""
    qrels: dict[str, dict[str, int]] = {}
    for number, line in enumerate(lines, start=1):
        parts = line.rstrip("\r\n").split("\t")
        if number == 1 and parts[0] == "query-id":
            continue
        if parts == [""]:
            continue
        if len(parts) != 3:
            raise ValueError(f"qrels line {number}: expected 3 tab-separated fields: {line!r}")
        query, doc, grade = parts
        qrels.setdefault(query, {})[sanitize_id(doc)] = int(grade)
    return qrels


def doc_id_of(result: dict) -> str | None:
    """The SciFact id of a search result: the stem of its `<_id>.md` path, or None for anything
    that is not such a file."""
    path = str(result.get("path") or "").split("#", 1)[0]
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name[: -len(".md")] if name.endswith(".md") else None


# ----- running the binaries ---------------------------------------------------------------------


@dataclass
class QueryRun:
    """What one search process returned."""

    query_id: str
    ranking: list[str] = field(default_factory=list)
    scores: list[float] = field(default_factory=list)
    results: int = 0
    seconds: float = 0.0
    error: str | None = None


def run(cmd: list[str], what: str) -> None:
    """Runs a command, exiting with its stderr if it fails."""
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"scifact-eval: {what} failed (exit {proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")


def search(binary: Path, root: Path, query_id: str, text: str, limit: int,
           extra: list[str]) -> QueryRun:
    """Runs one `doc-bridge search` process and parses its JSON."""
    cmd = [str(binary), "search", "--root", str(root), "--json", "--limit", str(limit), *extra,
           "--", text]
    started = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=SEARCH_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return QueryRun(query_id, seconds=time.perf_counter() - started, error="timed out")
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        return QueryRun(query_id, seconds=seconds, error=f"exit {proc.returncode}: {proc.stderr.strip()}")
    try:
        results = json.loads(proc.stdout)["results"]
    except (json.JSONDecodeError, KeyError, TypeError) as err:
        return QueryRun(query_id, seconds=seconds, error=f"bad JSON ({err}): {proc.stdout[:200]!r}")
    out = QueryRun(query_id, results=len(results), seconds=seconds)
    for result in results:
        doc = doc_id_of(result)
        if doc is not None:
            out.ranking.append(doc)
            out.scores.append(float(result.get("score") or 0.0))
    return out


# ----- the evaluation ---------------------------------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    repo = Path(__file__).resolve().parent.parent
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repo", type=Path, default=repo, help="repository root (default: %(default)s)")
    p.add_argument("--scifact-dir", type=Path, default=None,
                   help="folder with corpus.jsonl, queries.*.jsonl, qrels.*.tsv "
                        "(default: $SCIFACT_DIR or <repo>/../shared/bench/scifact)")
    p.add_argument("--split", choices=["test", "train"], default="test",
                   help="report on test; tune on train, never on test")
    p.add_argument("--limit-queries", type=int, default=None, metavar="N",
                   help="evaluate only the first N judged queries (quick runs)")
    p.add_argument("--workers", type=int, default=2, help="parallel search processes (default: 2)")
    p.add_argument("--no-build", action="store_true", help="skip cargo build --release")
    p.add_argument("--no-index", action="store_true",
                   help="reuse the corpus directory and index of a previous run")
    p.add_argument("--doc-bridge", type=Path, default=None,
                   help="doc-bridge binary (default: <repo>/target/release/doc-bridge)")
    p.add_argument("--corpus-bin", type=Path, default=None,
                   help="doc-bridge-corpus binary (default: <repo>/target/release/doc-bridge-corpus)")
    p.add_argument("--search-args", default="", metavar="ARGS",
                   help="extra arguments for every search, e.g. '--floor 0' (shell-split)")
    p.add_argument("--run-out", type=Path, default=None,
                   help="also write the ranking as a TREC run file (qid Q0 doc rank score tag)")
    p.add_argument("--self-test", action="store_true", help="check the metric code and exit")
    return p.parse_args(argv)


def build(repo: Path) -> None:
    """Builds the release binaries; cargo's progress goes to stderr."""
    print("scifact-eval: cargo build --release -p doc-bridge -p doc-bridge-corpus", file=sys.stderr)
    cmd = ["cargo", "build", "--release", "-p", "doc-bridge", "-p", "doc-bridge-corpus"]
    if subprocess.run(cmd, cwd=repo).returncode != 0:
        sys.exit("scifact-eval: cargo build failed")


def prepare(args: argparse.Namespace, scifact: Path, doc_bridge: Path, corpus_bin: Path,
            root: Path) -> None:
    """Writes the corpus as Markdown and indexes it (unless --no-index)."""
    if args.no_index:
        if not root.is_dir():
            sys.exit(f"scifact-eval: --no-index but {root} does not exist")
        return
    shutil.rmtree(root, ignore_errors=True)
    run([str(corpus_bin), "scifact", "--corpus", str(scifact / "corpus.jsonl"), "--out", str(root)],
        "writing the corpus")
    started = time.perf_counter()
    run([str(doc_bridge), "index", "--root", str(root), "--quiet"], "doc-bridge index")
    print(f"scifact-eval: indexed {root} in {time.perf_counter() - started:.2f} s", file=sys.stderr)


def write_run_file(path: Path, runs: list[QueryRun]) -> None:
    """The ranking in TREC run format, for cross-checking with trec_eval or pytrec_eval."""
    with path.open("w", encoding="utf-8") as f:
        for r in runs:
            seen: set[str] = set()
            rank = 0
            for doc, score in zip(r.ranking, r.scores):
                if doc in seen:
                    continue
                seen.add(doc)
                rank += 1
                f.write(f"{r.query_id} Q0 {doc} {rank} {score} doc-bridge\n")


def evaluate(args: argparse.Namespace) -> int:
    scifact = args.scifact_dir or Path(os.environ.get("SCIFACT_DIR") or args.repo / ".." / "shared" / "bench" / "scifact")
    doc_bridge = args.doc_bridge or args.repo / "target" / "release" / "doc-bridge"
    corpus_bin = args.corpus_bin or args.repo / "target" / "release" / "doc-bridge-corpus"
    root = args.repo / "target" / "bench-corpora" / "scifact-eval"
    queries_path = scifact / f"queries.{args.split}.jsonl"
    qrels_path = scifact / f"qrels.{args.split}.tsv"
    for needed in (scifact / "corpus.jsonl", queries_path, qrels_path):
        if not needed.is_file():
            sys.exit(f"scifact-eval: missing {needed} (set --scifact-dir or SCIFACT_DIR)")

    with qrels_path.open(encoding="utf-8") as f:
        qrels = parse_qrels(f)
    # Only queries with at least one relevant document are evaluated (trec_eval skips the rest).
    queries = [(qid, text) for qid, text in read_queries(queries_path)
               if any(g > 0 for g in qrels.get(qid, {}).values())]
    if args.limit_queries is not None:
        queries = queries[: args.limit_queries]
    if not queries:
        sys.exit("scifact-eval: no judged queries to evaluate")

    if not args.no_build:
        build(args.repo)
    for binary in (doc_bridge, corpus_bin):
        if not binary.is_file():
            sys.exit(f"scifact-eval: missing binary {binary}")
    with tempfile.TemporaryDirectory(prefix="scifact-eval-") as tmp:
        # Index and search with a private copy: in a shared checkout someone may rebuild
        # target/release mid-run, and every step must use the same binary.
        private = Path(tmp) / "doc-bridge"
        shutil.copy2(doc_bridge, private)
        prepare(args, scifact, private, corpus_bin, root)
        return run_queries(args, private, root, queries, qrels)


def run_queries(args: argparse.Namespace, doc_bridge: Path, root: Path,
                queries: list[tuple[str, str]], qrels: dict[str, dict[str, int]]) -> int:
    """Runs the searches, prints the metrics; returns the exit code."""
    print(f"scifact-eval: running {len(queries)} {args.split} queries with {args.workers} workers",
          file=sys.stderr)
    extra = shlex.split(args.search_args)
    # One search alone first: a search that finds no .doc-bridge/cache builds it (seconds), and in
    # parallel several would build it at once. Its time is reported apart, so the per-query figures
    # describe steady state.
    warmup = search(doc_bridge, root, queries[0][0], queries[0][1], RECALL_DEPTH, extra)
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
        runs = list(pool.map(lambda q: search(doc_bridge, root, q[0], q[1], RECALL_DEPTH, extra),
                             queries))
    wall = time.perf_counter() - started

    failed = [r for r in [warmup, *runs] if r.error]
    if failed:
        print(f"scifact-eval: {len(failed)} of {len(runs) + 1} searches failed; first: "
              f"query {failed[0].query_id}: {failed[0].error}", file=sys.stderr)
        return 2
    if args.run_out:
        write_run_file(args.run_out, runs)

    ndcgs, recalls = [], []
    for r in runs:
        ranking = dedupe(r.ranking)
        ndcgs.append(ndcg_at(ranking, qrels[r.query_id]))
        recalls.append(recall_at(ranking, qrels[r.query_id]))
    zero = sum(1 for r in runs if not r.ranking)
    times = sorted(r.seconds for r in runs)
    extra_note = f", search args: {args.search_args}" if args.search_args else ""
    print(f"SciFact {args.split} ({len(runs)} queries{extra_note})")
    print(f"  nDCG@10            {statistics.fmean(ndcgs):.4f}")
    print(f"  Recall@100         {statistics.fmean(recalls):.4f}")
    print(f"  queries            {len(runs)}")
    print(f"  zero-result rate   {zero / len(runs):.4f} ({zero} queries)")
    print(f"  per-query wall     mean {1000 * statistics.fmean(times):.1f} ms, "
          f"p50 {1000 * times[len(times) // 2]:.1f} ms, "
          f"p95 {1000 * times[min(len(times) - 1, int(0.95 * len(times)))]:.1f} ms "
          f"(process start included; {args.workers} in parallel)")
    print(f"  first search       {1000 * warmup.seconds:.1f} ms (run alone before the others, "
          f"not in the figures above)")
    print(f"  total wall         {wall:.2f} s")
    return 0


# ----- self-test --------------------------------------------------------------------------------


def self_test() -> int:
    """Checks the metrics on hand-made examples; prints a 'N passed, N failed' line."""
    checks: list[tuple[str, bool]] = []

    def check(name: str, ok: bool) -> None:
        checks.append((name, ok))
        if not ok:
            print(f"FAILED: {name}", file=sys.stderr)

    def close(a: float, b: float) -> bool:
        return abs(a - b) < 1e-4

    # The brief's example: relevant {a:1, b:1}, ranking [a, x, b].
    judged = {"a": 1, "b": 1}
    check("dcg of [1, 0, 1]", close(dcg([1, 0, 1]), 1.5))
    check("ideal dcg of [1, 1]", close(dcg([1, 1]), 1 + 1 / math.log2(3)))
    check("ndcg of [a, x, b]", close(ndcg_at(["a", "x", "b"], judged), 1.5 / (1 + 1 / math.log2(3))))
    check("ndcg of [a, x, b] is 0.91972", close(ndcg_at(["a", "x", "b"], judged), 0.91972))
    check("perfect ranking scores 1", close(ndcg_at(["b", "a", "x"], judged), 1.0))
    check("empty ranking scores 0", ndcg_at([], judged) == 0.0 and recall_at([], judged) == 0.0)
    check("recall of [a, x] is 0.5", close(recall_at(["a", "x"], judged), 0.5))
    # Cut-offs: a relevant document at rank 11 gains nothing for nDCG@10, counts for R@100.
    ranking = [f"x{i}" for i in range(10)] + ["a"]
    check("rank 11 is outside nDCG@10", ndcg_at(ranking, judged) == 0.0)
    check("rank 11 is inside R@100", close(recall_at(ranking, judged), 0.5))
    check("rank 101 is outside R@100", recall_at([f"x{i}" for i in range(100)] + ["a"], judged) == 0.0)
    # Graded gains are linear and the ideal DCG comes from the qrels, not from the ranking.
    graded = {"a": 2, "b": 1, "c": 0}
    check("graded ndcg", close(ndcg_at(["b", "a"], graded), (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))))
    check("grade 0 is not relevant", close(recall_at(["a", "b"], graded), 1.0))
    # Only judged-relevant documents count for the ideal; unjudged retrieved documents gain 0.
    check("ideal ignores the ranking length", close(ndcg_at(["a"], {"a": 1}), 1.0))
    check("duplicates keep the best rank", dedupe(["a", "x", "a", "b"]) == ["a", "x", "b"])
    qrels = parse_qrels(["query-id\tcorpus-id\tscore\n", "1\t31715818\t1\n", "3\t14717500\t1\n",
                         "3\t./x\t2\n"])
    check("qrels parse", qrels == {"1": {"31715818": 1}, "3": {"14717500": 1, "__x": 2}})
    check("doc id from path", doc_id_of({"path": "4983.md"}) == "4983"
          and doc_id_of({"path": "sub/dir/12.md#intro"}) == "12"
          and doc_id_of({"path": "src/x.ts"}) is None)
    check("sanitize matches the Rust rule", sanitize_id("a/b c") == "a_b_c" and sanitize_id("..") == "_."
          and sanitize_id("4983") == "4983")

    passed = sum(ok for _, ok in checks)
    print(f"self-test: {passed} passed, {len(checks) - passed} failed")
    return 0 if passed == len(checks) else 1


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.self_test:
        return self_test()
    return evaluate(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
