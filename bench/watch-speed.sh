#!/usr/bin/env bash
# Watch-refresh benchmark for doc-bridge: how long after a one-file edit the artifacts of
# `doc-bridge index --watch` are current again, on a synthetic repository.
#
# It writes (or reuses) a synthetic tree of $SYNTH_FILES files, starts
# `doc-bridge index --watch --json --debounce-ms $DEBOUNCE_MS`, waits for the initial index, then
# $RUNS times appends a line to one Markdown document and waits for the refresh line. For each
# edit it records:
#   refresh ms   the JSON line's own "ms": from the debounced batch to artifacts written
#   wall ms      from just before the edit to the refresh line read by this script: debounce,
#                refresh and output included
# and prints the median and the maximum of both. The tree is restored afterwards (the edited
# document is put back), and the watcher is stopped with SIGINT.
#
# Usage: bench/watch-speed.sh
# Environment:
#   SYNTH_FILES   files in the synthetic repo     (default: 10000)
#   SYNTH_SEED    seed of the synthetic repo      (default: 1)
#   RUNS          edits                           (default: 5)
#   DEBOUNCE_MS   --debounce-ms for the watcher   (default: 200)
#   BENCH_DIR     where corpora are written       (default: <repo>/target/bench-corpora)
#   NO_BUILD=1    skip `cargo build --release`
#   DOC_BRIDGE, DOC_BRIDGE_CORPUS   binaries to use (default: target/release/doc-bridge{,-corpus})
set -euo pipefail
shopt -s inherit_errexit

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SYNTH_FILES=${SYNTH_FILES:-10000}
SYNTH_SEED=${SYNTH_SEED:-1}
RUNS=${RUNS:-5}
DEBOUNCE_MS=${DEBOUNCE_MS:-200}
BENCH_DIR=${BENCH_DIR:-$REPO/target/bench-corpora}
DOC_BRIDGE=${DOC_BRIDGE:-$REPO/target/release/doc-bridge}
CORPUS=${DOC_BRIDGE_CORPUS:-$REPO/target/release/doc-bridge-corpus}

TMP=$(mktemp -d)
WATCH_PID=
EDITED=
cleanup() {
    if [[ -n $WATCH_PID ]]; then
        kill -INT "$WATCH_PID" 2>/dev/null || true
        wait "$WATCH_PID" 2>/dev/null || true
    fi
    if [[ -n $EDITED && -f $TMP/original ]]; then
        cp "$TMP/original" "$EDITED"
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT

die() {
    echo "watch-speed: $*" >&2
    exit 1
}
note() {
    echo "watch-speed: $*" >&2
}

build() {
    if [[ ${NO_BUILD:-} == 1 ]]; then
        note "NO_BUILD=1: not building"
    else
        note "building doc-bridge and doc-bridge-corpus (release)"
        (cd "$REPO" && cargo build --release -p doc-bridge -p doc-bridge-corpus) >&2
    fi
    [[ -x $DOC_BRIDGE ]] || die "missing $DOC_BRIDGE"
    [[ -x $CORPUS ]] || die "missing $CORPUS"
    # A private copy: someone may rebuild target/release while this runs.
    cp "$DOC_BRIDGE" "$TMP/doc-bridge"
    DOC_BRIDGE_LABEL="$DOC_BRIDGE, sha256 $(sha256sum "$TMP/doc-bridge" | cut -c1-12)"
    DOC_BRIDGE=$TMP/doc-bridge
}

# The same tree and stamp as bench/index-speed.sh, so the two scripts share corpora.
prepare_synth() {
    local dir=$BENCH_DIR/synth-$SYNTH_FILES stamp
    stamp="files=$SYNTH_FILES seed=$SYNTH_SEED generator=$(sha256sum "$CORPUS" | cut -c1-16)"
    if [[ -d $dir && -f $dir.stamp && $(cat "$dir.stamp") == "$stamp" ]]; then
        note "reusing $dir ($stamp)"
    else
        rm -rf "$dir" "$dir.stamp"
        mkdir -p "$BENCH_DIR"
        "$CORPUS" synth --out "$dir" --files "$SYNTH_FILES" --seed "$SYNTH_SEED" >&2
        echo "$stamp" >"$dir.stamp"
    fi
    CORPUS_DIR=$dir
}

# Waits until $TMP/out has more than $1 lines; prints the time it noticed, in seconds.
wait_lines() {
    local want=$1 deadline=$((SECONDS + 300))
    while (($(wc -l <"$TMP/out") <= want)); do
        ((SECONDS < deadline)) || die "no refresh after 300 s; stderr: $(tail -n 5 "$TMP/err")"
        kill -0 "$WATCH_PID" 2>/dev/null || die "the watcher exited: $(tail -n 5 "$TMP/err")"
        sleep 0.005
    done
    echo "$EPOCHREALTIME"
}

median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) print v[(NR + 1) / 2]; else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
maximum() {
    printf '%s\n' "$@" | sort -g | tail -n 1
}

main() {
    build
    prepare_synth
    EDITED=$(find "$CORPUS_DIR/docs" -name '*.md' | sort | sed -n 1p)
    [[ -n $EDITED ]] || die "no Markdown document in $CORPUS_DIR/docs"
    cp "$EDITED" "$TMP/original"
    : >"$TMP/out"
    note "starting the watcher on $CORPUS_DIR"
    "$DOC_BRIDGE" index --watch --json --quiet --debounce-ms "$DEBOUNCE_MS" --root "$CORPUS_DIR" \
        >"$TMP/out" 2>"$TMP/err" &
    WATCH_PID=$!
    wait_lines 0 >/dev/null
    local initial
    initial=$(head -n 1 "$TMP/out" | sed -n 's/.*"ms":\([0-9]*\).*/\1/p')
    note "initial index: ${initial} ms"
    local -a refresh=() wall=()
    local run lines start end ms
    for ((run = 1; run <= RUNS; run++)); do
        lines=$(wc -l <"$TMP/out")
        start=$EPOCHREALTIME
        echo "Edit $run of the watch benchmark." >>"$EDITED"
        end=$(wait_lines "$lines")
        ms=$(tail -n 1 "$TMP/out" | sed -n 's/.*"ms":\([0-9]*\).*/\1/p')
        grep -q '"event":"refresh"' <(tail -n 1 "$TMP/out") || die "unexpected line: $(tail -n 1 "$TMP/out")"
        refresh+=("$ms")
        wall+=("$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", (e - s) * 1000 }')")
        note "edit $run/$RUNS: refresh ${ms} ms, wall ${wall[-1]} ms"
        # Let the machine settle between edits, so each refresh starts from a quiet watcher.
        sleep 1
    done
    echo
    echo "doc-bridge index --watch: one-file edit; $RUNS edits; $(nproc) CPUs; $(uname -sr); load average $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "binary: $DOC_BRIDGE_LABEL"
    echo "corpus: synth --files $SYNTH_FILES --seed $SYNTH_SEED ($CORPUS_DIR); debounce ${DEBOUNCE_MS} ms; initial index ${initial} ms"
    echo
    echo "| measurement | median ms | max ms |"
    echo "| --- | --- | --- |"
    echo "| refresh (JSON \"ms\": batch to artifacts written) | $(median "${refresh[@]}") | $(maximum "${refresh[@]}") |"
    echo "| wall (edit to refresh line, debounce included) | $(median "${wall[@]}") | $(maximum "${wall[@]}") |"
}

main "$@"
