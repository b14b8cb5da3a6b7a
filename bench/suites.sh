#!/usr/bin/env bash
# The three retrieval suites, end to end through the real binary, each next to plain BM25 over
# the same files measured in the same run:
#   docqa     120 documentation questions on fastapi, vue-docs and svelte (hit@1, hit@3, MRR@10)
#   swebench  101 SWE-bench Lite issues, file localisation (Acc@1/3/5/10, MRR@10)
#   scifact   BEIR SciFact test claims (nDCG@10, Recall@100; BM25's published figure is 0.665-0.679)
#
#   bench/suites.sh BINARY WORK [docqa|swebench|scifact ...]
#
# WORK is scratch space (corpora, trees, results). Needs: the shared benchmark folder beside the
# repository (../shared/bench), bare git mirrors in $MIRROR (default: the `.mirror` folder beside
# the checkout) for fastapi/fastapi, vuejs/docs, sveltejs/svelte, astropy/astropy, sympy/sympy
# and the forks named in ../shared/bench/swebench/README.md, and a Python with bm25s and
# PyStemmer for the baselines ($PYTHON, default `python3`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
shared="${SHARED:-$repo/../shared/bench}"
mirror="${MIRROR:-$repo/../.mirror}"
python="${PYTHON:-python3}"
binary="$(realpath "$1")"
work="$(realpath -m "$2")"
shift 2
suites=("$@")
[ ${#suites[@]} -eq 0 ] && suites=(docqa swebench scifact)
mkdir -p "$work"

for suite in "${suites[@]}"; do
  case "$suite" in
    docqa)
      if [ ! -d "$work/docqa/svelte" ]; then
        (cd "$shared/docqa" && MIRROR="$mirror" ./make-corpora.sh "$work/docqa")
      fi
      echo "## docqa ($binary)"
      "$python" "$here/docqa-eval.py" "$work/docqa" "$binary" --suites "$shared/docqa" \
        --details "$work/docqa-details.json"
      ;;
    swebench)
      aliases=(--alias django/django=apprent1c3+django
               --alias scikit-learn/scikit-learn=Agent-Benchmarking+scikit-learn
               --alias matplotlib/matplotlib=williamlus+matplotlib)
      echo "## swebench: doc-bridge ($binary)"
      "$python" "$shared/swebench/run.py" --mirrors "$mirror" --work "$work/swe" "${aliases[@]}" \
        --doc-bridge "$binary" --out "$work/swe/ranks-doc-bridge.json" | sed -n '/^| repository/,/^$/p'
      echo "## swebench: plain BM25"
      "$python" "$shared/swebench/run.py" --mirrors "$mirror" --work "$work/swe" "${aliases[@]}" \
        --baseline bm25 --out "$work/swe/ranks-bm25.json" | sed -n '/^| repository/,/^$/p'
      ;;
    scifact)
      echo "## scifact ($binary)"
      # Writes the corpus with the release doc-bridge-corpus binary (built if missing).
      [ -x "$repo/target/release/doc-bridge-corpus" ] ||
        (cd "$repo" && cargo build --release -q -p doc-bridge-corpus)
      "$python" "$here/scifact-eval.py" --no-build --doc-bridge "$binary" \
        --scifact-dir "$shared/scifact"
      ;;
    *) echo "unknown suite: $suite (docqa, swebench, scifact)" >&2; exit 2 ;;
  esac
done
