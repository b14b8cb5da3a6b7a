#!/usr/bin/env bash
# Index-speed benchmark for doc-bridge.
#
# For each corpus it measures, with the OS page cache warm for every step:
#   cat       find DIR -type f -print0 | xargs -0 cat > /dev/null         (reading every byte)
#   sha256    find DIR -type f -print0 | xargs -0 sha256sum > /dev/null   (reading + hashing)
#   cold      doc-bridge index --root DIR --quiet, after deleting DIR/.doc-bridge
#   warm      the same command again with --force, the .doc-bridge cache of the cold run in place
#             (a full run: observing, building, comparing with the files there)
#   no-op     the same command without --force: nothing changed, so it checks and stops
# Each is run $RUNS times (default 3); the table shows medians, the index/cat and index/sha256
# ratios, and the peak RSS of doc-bridge index. "Cold" means no doc-bridge cache, not a cold OS
# page cache: dropping the page cache needs root and a quiet machine, and the ratios are about
# doc-bridge's own work.
#
# Usage: bench/index-speed.sh [scifact] [synth]      (default: both)
# Environment:
#   SCIFACT_DIR   folder with corpus.jsonl        (default: <repo>/../shared/bench/scifact)
#   SYNTH_FILES   files in the synthetic repo     (default: 100000)
#   SYNTH_SEED    seed of the synthetic repo      (default: 1)
#   RUNS          runs per measurement            (default: 3)
#   BENCH_DIR     where corpora are written       (default: <repo>/target/bench-corpora)
#   NO_BUILD=1    skip `cargo build --release`    (use the binaries already in target/release)
#   DOC_BRIDGE, DOC_BRIDGE_CORPUS   binaries to use (default: target/release/doc-bridge{,-corpus})
set -euo pipefail
# Failures inside $(...) must stop the script too.
shopt -s inherit_errexit

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCIFACT_DIR=${SCIFACT_DIR:-$REPO/../shared/bench/scifact}
SYNTH_FILES=${SYNTH_FILES:-100000}
SYNTH_SEED=${SYNTH_SEED:-1}
RUNS=${RUNS:-3}
BENCH_DIR=${BENCH_DIR:-$REPO/target/bench-corpora}
DOC_BRIDGE=${DOC_BRIDGE:-$REPO/target/release/doc-bridge}
CORPUS=${DOC_BRIDGE_CORPUS:-$REPO/target/release/doc-bridge-corpus}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# Prints a message on stderr and exits.
die() {
    echo "index-speed: $*" >&2
    exit 1
}

# Progress goes to stderr so stdout holds only the results.
note() {
    echo "index-speed: $*" >&2
}

# Whether GNU time is there: it gives the peak RSS. Without it, wall time still works.
GNU_TIME=0
if [[ -x /usr/bin/time ]] && /usr/bin/time -f '%M' -o /dev/null true 2>/dev/null; then
    GNU_TIME=1
fi

# Runs a command; prints "<wall seconds> <peak RSS in KiB or ->". Wall time comes from bash's
# microsecond clock (GNU time's %e has only two decimals); the RSS from GNU time's %M. Exits the
# script if the command fails, showing its stderr.
measure() {
    local start end rss=-
    start=$EPOCHREALTIME
    if ((GNU_TIME)); then
        /usr/bin/time -f '%M' -o "$TMP/rss" "$@" >/dev/null 2>"$TMP/stderr" ||
            die "failed: $* ($(tail -n 5 "$TMP/stderr"))"
        rss=$(tail -n 1 "$TMP/rss")
    else
        "$@" >/dev/null 2>"$TMP/stderr" || die "failed: $* ($(tail -n 5 "$TMP/stderr"))"
    fi
    end=$EPOCHREALTIME
    echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }') $rss"
}

# The median of the numbers given as arguments ("-" when there are none).
median() {
    printf '%s\n' "$@" | grep -v '^-$' | sort -g | awk '
        { v[NR] = $1 }
        END {
            if (NR == 0) { print "-"; exit }
            if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2
        }'
}

# Reading every file of DIR, .doc-bridge excluded (it is doc-bridge's output, not input).
read_all() {
    find "$1" -path "$1/.doc-bridge" -prune -o -type f -print0 | xargs -0 cat >/dev/null
}

# Reading and hashing every file of DIR, .doc-bridge excluded.
hash_all() {
    find "$1" -path "$1/.doc-bridge" -prune -o -type f -print0 | xargs -0 sha256sum >/dev/null
}
export -f read_all hash_all

build() {
    if [[ ${NO_BUILD:-} == 1 ]]; then
        note "NO_BUILD=1: not building"
    else
        note "building doc-bridge and doc-bridge-corpus (release)"
        (cd "$REPO" && cargo build --release -p doc-bridge -p doc-bridge-corpus) >&2
    fi
    [[ -x $DOC_BRIDGE ]] || die "missing $DOC_BRIDGE"
    [[ -x $CORPUS ]] || die "missing $CORPUS"
    # Measure private copies: in a shared checkout someone may rebuild target/release mid-run, and
    # every run must time the same binary.
    cp "$DOC_BRIDGE" "$TMP/doc-bridge"
    cp "$CORPUS" "$TMP/doc-bridge-corpus"
    note "measuring $DOC_BRIDGE (sha256 $(sha256sum "$TMP/doc-bridge" | cut -c1-12), copied)"
    DOC_BRIDGE_LABEL="$DOC_BRIDGE, sha256 $(sha256sum "$TMP/doc-bridge" | cut -c1-12)"
    DOC_BRIDGE=$TMP/doc-bridge
    CORPUS=$TMP/doc-bridge-corpus
}

# Writes the SciFact corpus as Markdown into $BENCH_DIR/scifact (cheap, so always afresh).
prepare_scifact() {
    local dir=$BENCH_DIR/scifact
    [[ -f $SCIFACT_DIR/corpus.jsonl ]] ||
        die "no $SCIFACT_DIR/corpus.jsonl (set SCIFACT_DIR to the folder holding it)"
    rm -rf "$dir"
    "$CORPUS" scifact --corpus "$SCIFACT_DIR/corpus.jsonl" --out "$dir" >&2
}

# Writes the synthetic repository into $BENCH_DIR/synth-N, unless a tree from the same generator
# binary, size and seed is already there (writing 100,000 files takes a while on a slow disk).
prepare_synth() {
    local dir=$BENCH_DIR/synth-$SYNTH_FILES stamp
    stamp="files=$SYNTH_FILES seed=$SYNTH_SEED generator=$(sha256sum "$CORPUS" | cut -c1-16)"
    if [[ -d $dir && -f $dir.stamp && $(cat "$dir.stamp") == "$stamp" ]]; then
        note "reusing $dir ($stamp)"
        return
    fi
    rm -rf "$dir" "$dir.stamp"
    "$CORPUS" synth --out "$dir" --files "$SYNTH_FILES" --seed "$SYNTH_SEED" >&2
    echo "$stamp" >"$dir.stamp"
}

# Runs every measurement $RUNS times on one corpus and appends its rows of the table to
# $TMP/rows.
bench_corpus() {
    local name=$1 dir=$2 files mib run m
    local -a cat_s=() sha_s=() cold_s=() warm_s=() noop_s=() cold_rss=() warm_rss=() noop_rss=()
    files=$(find "$dir" -path "$dir/.doc-bridge" -prune -o -type f -print | wc -l)
    mib=$(du -sm --exclude=.doc-bridge "$dir" | cut -f1)
    note "$name: $files files, $mib MiB on disk; warming the page cache"
    read_all "$dir"
    for ((run = 1; run <= RUNS; run++)); do
        # shellcheck disable=SC2016 # $1 is for the inner bash, on purpose
        m=$(measure bash -c 'read_all "$1"' _ "$dir")
        cat_s+=("${m% *}")
        # shellcheck disable=SC2016
        m=$(measure bash -c 'hash_all "$1"' _ "$dir")
        sha_s+=("${m% *}")
        rm -rf "$dir/.doc-bridge"
        m=$(measure "$DOC_BRIDGE" index --root "$dir" --quiet)
        cold_s+=("${m% *}")
        cold_rss+=("${m#* }")
        m=$(measure "$DOC_BRIDGE" index --root "$dir" --quiet --force)
        warm_s+=("${m% *}")
        warm_rss+=("${m#* }")
        m=$(measure "$DOC_BRIDGE" index --root "$dir" --quiet)
        noop_s+=("${m% *}")
        noop_rss+=("${m#* }")
        note "$name run $run/$RUNS: cat ${cat_s[-1]} s, sha256sum ${sha_s[-1]} s, index cold ${cold_s[-1]} s, warm ${warm_s[-1]} s, no-op ${noop_s[-1]} s"
    done
    local cat sha
    cat=$(median "${cat_s[@]}")
    sha=$(median "${sha_s[@]}")
    {
        row "$name" "$files" "cat" "$cat" "$cat" "$sha" -
        row "$name" "$files" "sha256sum" "$sha" "$cat" "$sha" -
        row "$name" "$files" "index (cold)" "$(median "${cold_s[@]}")" "$cat" "$sha" "$(median "${cold_rss[@]}")"
        row "$name" "$files" "index (warm)" "$(median "${warm_s[@]}")" "$cat" "$sha" "$(median "${warm_rss[@]}")"
        row "$name" "$files" "index (no-op)" "$(median "${noop_s[@]}")" "$cat" "$sha" "$(median "${noop_rss[@]}")"
    } >>"$TMP/rows"
}

# One table row: corpus, files, measurement, median seconds, ratios to cat and sha256sum, RSS.
row() {
    awk -v c="$1" -v f="$2" -v w="$3" -v s="$4" -v cat="$5" -v sha="$6" -v rss="$7" 'BEGIN {
        mib = (rss == "-") ? "-" : sprintf("%.1f", rss / 1024)
        printf "| %-12s | %7d | %-13s | %9.3f | %7.2f | %9.2f | %9s |\n",
            c, f, w, s, (cat > 0 ? s / cat : 0), (sha > 0 ? s / sha : 0), mib
    }'
}

main() {
    local corpora=("$@")
    ((${#corpora[@]})) || corpora=(scifact synth)
    for c in "${corpora[@]}"; do
        [[ $c == scifact || $c == synth ]] || die "unknown corpus '$c' (scifact or synth)"
    done
    ((GNU_TIME)) || note "GNU time not found: no peak RSS (Debian: apt-get install time)"
    build
    mkdir -p "$BENCH_DIR"
    : >"$TMP/rows"
    for c in "${corpora[@]}"; do
        if [[ $c == scifact ]]; then
            prepare_scifact
            bench_corpus scifact "$BENCH_DIR/scifact"
        else
            prepare_synth
            bench_corpus "synth-$SYNTH_FILES" "$BENCH_DIR/synth-$SYNTH_FILES"
        fi
    done
    echo
    echo "doc-bridge index speed: median of $RUNS runs; $(nproc) CPUs; $(uname -sr)"
    echo "binary: $DOC_BRIDGE_LABEL"
    echo "OS page cache warm for every step; 'cold' = no .doc-bridge cache, 'warm' = a second, forced run;"
    echo "'no-op' = a third run, unforced: nothing changed, so it only checks."
    echo
    echo "| corpus       |   files | measurement   | seconds   | x cat   | x sha256  | peak MiB  |"
    echo "| ------------ | ------- | ------------- | --------- | ------- | --------- | --------- |"
    cat "$TMP/rows"
}

main "$@"
