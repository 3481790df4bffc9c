#!/usr/bin/env bash
# Measures what a divergence ledger costs `parity-diff run` on the bundled
# corpus: a port that diverges on COUNT cases (default 1000), run without
# a ledger and with a COUNT-entry ledger that accepts every divergence.
# The target is at most 1.2x.
#
# Usage: scripts/bench-ledger.sh [COUNT] [RUNS]   (best of RUNS, default 10)
#        scripts/bench-ledger.sh rules [RUNS]      (median of RUNS, default 10)
#
# `rules` measures a 40-rule ledger instead: a port that throws "not
# implemented" on every case, run without a ledger and with the rules
# `accept --rule` writes for it (one per op, and one per file for the
# cases without an op, the few the rule cannot name left as entries),
# padded to 40 with rules narrowed by `files:` that match no file, so that
# every diverging case is weighed against all 40 (the most specific rule
# wins, so each is looked at). The target is at most 1.2x.
#
# The port is a replay, so that the oracle costs next to nothing and the
# ratio shows parity-diff's own work: the goldens with the first COUNT
# elements (in file order) replaced by {"threw":true,"message":"not
# implemented"}, looked up by a hash of the case file on stdin.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=count
if [ "${1:-}" = rules ]; then
    mode=rules
    shift
    runs=${1:-10}
    # Every case: the cases directory's goldens hold one element a line.
    count=0
    for golden in golden/*.json; do
        count=$(( count + $(grep -vc '^[][]$' "$golden" || true) ))
    done
else
    count=${1:-1000}
    runs=${2:-10}
fi

cargo build --release --quiet --bin parity-diff
diff_bin=$PWD/target/release/parity-diff

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/replay"
left=$count
for golden in golden/*.json; do
    name=${golden#golden/}
    key=$(md5sum < "cases/$name" | cut -c1-32)
    awk -v left="$left" '
        NR == 1 || /^\]$/ { print; next }
        {
            if (taken < left) {
                comma = /,$/ ? "," : ""
                print "{\"threw\":true,\"message\":\"not implemented\"}" comma
                taken++
            } else print
        }
        END { print taken + 0 > "/dev/stderr" }' "$golden" > "$work/replay/$key.json" 2> "$work/taken"
    left=$(( left - $(cat "$work/taken") ))
done
if [ "$left" -ne 0 ]; then
    echo "bench-ledger: the corpus has fewer than $count cases" >&2
    exit 2
fi
port="cat \"$work/replay/\$(md5sum | cut -c1-32).json\""

if [ "$mode" = rules ]; then
    "$diff_bin" accept --oracle "$port" --rule --reason "bench" --ledger "$work/ledger.txt" > /dev/null
    rules=$(grep -c '^rule ' "$work/ledger.txt")
    n=$rules
    while [ "$n" -lt 40 ]; do
        n=$(( n + 1 ))
        printf '\nrule op *\n  files: "nothing-%d/*.json"\n  match: paths /nothing\n  state: accepted\n  reason: bench padding\n' "$n" >> "$work/ledger.txt"
    done
    rules=$(grep -c '^rule ' "$work/ledger.txt")
    entries=$(grep -c '^case ' "$work/ledger.txt" || true)
    # median SECONDS (to the millisecond) over $runs runs of "$@"
    median() {
        local times=() start end
        for _ in $(seq "$runs"); do
            start=$(date +%s%N)
            "$@" > /dev/null 2>&1 || true
            end=$(date +%s%N)
            times+=($(( end - start )))
        done
        printf '%s\n' "${times[@]}" | sort -n | awk '{ t[NR] = $1 } END {
            m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
            printf "%.3f", m / 1e9 }'
    }
    echo "bundled corpus ($count cases); a port throwing on every case; $rules rules and $entries entries; median of $runs runs"
    without=$(median "$diff_bin" run --oracle "$port")
    with=$(median "$diff_bin" run --oracle "$port" --ledger "$work/ledger.txt")
    ratio=$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.2f", a / b }')
    verdict=ok
    status=0
    if awk -v r="$ratio" 'BEGIN { exit !(r > 1.2) }'; then verdict=SLOW; status=1; fi
    printf 'no ledger %ss, 40-rule ledger %ss: %sx  %s\n' "$without" "$with" "$ratio" "$verdict"
    exit $status
fi

# The ledger: every divergence accepted.
"$diff_bin" accept --oracle "$port" --reason "bench" --ledger "$work/ledger.txt" > /dev/null
entries=$(grep -c '^case ' "$work/ledger.txt")
[ "$entries" -eq "$count" ] || { echo "bench-ledger: $entries entries, not $count" >&2; exit 2; }

# best SECONDS (to the millisecond) over $runs runs of "$@"
measure() {
    local best="" start end
    for _ in $(seq "$runs"); do
        start=$(date +%s%N)
        "$@" > /dev/null 2>&1 || true
        end=$(date +%s%N)
        if [ -z "$best" ] || [ $(( end - start )) -lt "$best" ]; then
            best=$(( end - start ))
        fi
    done
    awk -v ns="$best" 'BEGIN { printf "%.3f", ns / 1e9 }'
}

echo "bundled corpus; a port diverging on $count cases; a $entries-entry ledger; best of $runs runs"
printf '%-10s %14s %14s %7s\n' "format" "no ledger (s)" "ledger (s)" "ratio"
status=0
for mode in human json quiet; do
    case $mode in
        human) flags=() ;;
        json) flags=(--format json) ;;
        quiet) flags=(--quiet) ;;
    esac
    without=$(measure "$diff_bin" run --oracle "$port" "${flags[@]}")
    with=$(measure "$diff_bin" run --oracle "$port" --ledger "$work/ledger.txt" "${flags[@]}")
    ratio=$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.2f", a / b }')
    verdict=ok
    if awk -v r="$ratio" 'BEGIN { exit !(r > 1.2) }'; then verdict=SLOW; status=1; fi
    printf '%-10s %14s %14s %7s  %s\n' "$mode" "$without" "$with" "$ratio" "$verdict"
done
exit $status
