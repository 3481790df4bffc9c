#!/usr/bin/env bash
# What issue 20's seams cost (phase A1: every oracle a command, cases from
# a generator command), measured before and after in one session, run by
# run in pairs, and exits 1 when a target is missed:
#   - the main job, `parity-diff run -q` on the bundled corpus: after (our
#     oracle binary, run as a command) within 1.2x of before (our oracle
#     in parity-diff's own process);
#   - fuzz against the reference with `--jobs 1`, a fixed seed and count:
#     after (`--generator 'worker-spawn-oracle generate'`, our binary as
#     the right side) at least 0.9x the cases per second of before (the
#     generators and our oracle in process).
# Each pair runs before and after back to back (the order alternating),
# so that a change in the machine's load falls on both; the figures are
# medians, of each side and of the pairs' ratios. The load average is
# printed before and after.
#
# Usage: scripts/bench-seams.sh [BEFORE_COMMIT]
#   BEFORE_COMMIT   the commit before the change (default: the merge of
#                   issue 18, 46362b3), built once, in release, into
#                   $TMPDIR/bench-seams-<commit> (a git worktree and its
#                   own target directory)
#   BEFORE_BIN=DIR  use the before commit's binaries in DIR instead
#   RUNS=N          pairs per measurement (default: 11 for run, 5 for fuzz)
#   FUZZ_COUNT=N    fuzz cases per session (default 20000)
#   REFERENCE_ORACLE='node …/worker-spawn-oracle.mjs'  (default: the
#                   shared reference beside this repository's checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
before_commit=${1:-46362b3}
count=${FUZZ_COUNT:-20000}
reference=${REFERENCE_ORACLE:-node $(cd .. && pwd)/shared/reference/worker-spawn-oracle.mjs}

cargo build --release --quiet --bins
after=$PWD/target/release

before_tree=${TMPDIR:-/tmp}/bench-seams-$before_commit
before=${BEFORE_BIN:-$before_tree/target/release}
if ! [ -x "$before/parity-diff" ] || ! [ -x "$before/worker-spawn-oracle" ]; then
    [ -d "$before_tree" ] || git worktree add --detach "$before_tree" "$before_commit" >/dev/null
    (cd "$before_tree" && cargo build --release --quiet --bins --target-dir "$before_tree/target")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. scripts/bench-common.sh

# seconds BIN_DIR: one main-job run's wall time; it must pass.
seconds() {
    local start end
    start=$(now)
    "$1/parity-diff" run -q > "$work/run.out" || { cat "$work/run.out" >&2; exit 2; }
    end=$(now)
    awk -v a="$start" -v b="$end" 'BEGIN { print b - a }'
}

# rate BIN_DIR: one fuzz session's cases per second (its JSON report's
# cases over its seconds); it must find nothing.
rate() {
    local source=()
    [ "$1" = "$after" ] && source=(--generator "'$after/worker-spawn-oracle' generate")
    rm -rf "$work/out"
    "$1/parity-diff" fuzz --left "$reference" "${source[@]}" --jobs 1 --seed 1 \
        --count "$count" --out "$work/out" --format json > "$work/fuzz.json" 2> "$work/fuzz.err" ||
        { cat "$work/fuzz.json" "$work/fuzz.err" >&2; exit 2; }
    node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        if (r.divergences.length) { console.error("fuzz found divergences"); process.exit(2); }
        console.log(r.cases / r.seconds);' "$work/fuzz.json"
}

# pairs N FUNCTION: N pairs of FUNCTION before and after, alternating
# which goes first; prints "before after" per pair.
pairs() {
    local i b a
    for i in $(seq "$1"); do
        if [ $((i % 2)) -eq 1 ]; then
            b=$("$2" "$before"); a=$("$2" "$after")
        else
            a=$("$2" "$after"); b=$("$2" "$before")
        fi
        echo "$b $a"
    done
}

# report NAME UNIT FILE: medians of the pairs in FILE, and of their ratios.
report() {
    local b a r
    b=$(cut -d' ' -f1 "$3" | median)
    a=$(cut -d' ' -f2 "$3" | median)
    r=$(awk '{ print $2 / $1 }' "$3" | median)
    printf '%s: before %.3f %s, after %.3f %s, after/before %.3f (median of %d pairs)\n' \
        "$1" "$b" "$2" "$a" "$2" "$r" "$(wc -l < "$3")" >&2
    echo "$r"
}

echo "bench-seams: $(nproc) cores, load average $(load) before; before = $before_commit"
"$after/parity-diff" run -q | sed 's/^/bench-seams: the bundled corpus: /'
pairs "${RUNS:-11}" seconds > "$work/run.pairs"
run_ratio=$(report "main job (parity-diff run -q)" s "$work/run.pairs")
pairs "${RUNS:-5}" rate > "$work/fuzz.pairs"
fuzz_ratio=$(report "fuzz --jobs 1 --seed 1 --count $count against the reference" cases/s "$work/fuzz.pairs")
echo "bench-seams: load average $(load) after"

code=0
if awk -v r="$run_ratio" 'BEGIN { exit !(r <= 1.2) }'; then
    echo "main job: after/before $run_ratio, within 1.2x: ok"
else
    echo "main job: after/before $run_ratio, more than 1.2x: MISSED"; code=1
fi
if awk -v r="$fuzz_ratio" 'BEGIN { exit !(r >= 0.9) }'; then
    echo "fuzz: after/before $fuzz_ratio, at least 0.9x: ok"
else
    echo "fuzz: after/before $fuzz_ratio, below 0.9x: MISSED"; code=1
fi
exit "$code"
