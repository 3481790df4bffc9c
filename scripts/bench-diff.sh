#!/usr/bin/env bash
# Measures `parity-diff compare` on two COUNT-element result files (default
# 1,000,000) against the yardstick: reading both files and parsing each into
# serde_json::Value. The target is at most 2x the yardstick's time, with
# memory in proportion to the input.
#
# Usage: scripts/bench-diff.sh [COUNT] [RUNS]   (best of RUNS, default 3)
# Inputs are generated (benches/diff.rs) in a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000000}
runs=${2:-3}

cargo build --release --quiet --bin parity-diff
bench=$(cargo bench -p parity-diff --bench diff --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*\))$/\1/p' | tail -n 1)
[ -x "$bench" ] || { echo "bench-diff: could not build crates/parity-diff/benches/diff.rs" >&2; exit 2; }
diff_bin=target/release/parity-diff

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bench" generate "$work" "$count"
golden_mb=$(( $(stat -c %s "$work/golden.json") / 1048576 ))

# best SECONDS and the peak RSS (MB) of that run, over $runs runs of "$@"
measure() {
    local best="" best_kb="" seconds kb
    for _ in $(seq "$runs"); do
        /usr/bin/time -f '%e %M' -o "$work/time" "$@" > /dev/null 2>&1 || true
        read -r seconds kb < <(tail -n 1 "$work/time")
        if [ -z "$best" ] || awk -v a="$seconds" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$seconds
            best_kb=$kb
        fi
    done
    echo "$best $(( best_kb / 1024 ))"
}

echo "elements per file: $count; golden file: ${golden_mb} MB; best of $runs runs"
read -r base base_mb < <(measure "$bench" baseline "$work/identical.json" "$work/golden.json")
printf '%-44s %8s %7s %9s\n' "what" "seconds" "ratio" "peak MB"
printf '%-44s %8s %7s %9s\n' "baseline: parse both into serde_json::Value" "$base" "1.00" "$base_mb"
status=0
for scenario in identical one-percent-different all-same-value all-different; do
    for mode in quiet human json; do
        case $mode in
            quiet) flags=(--quiet) ;;
            human) flags=() ;;
            json) flags=(--format json) ;;
        esac
        read -r seconds mb < <(measure "$diff_bin" compare "${flags[@]}" "$work/$scenario.json" "$work/golden.json")
        ratio=$(awk -v a="$seconds" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
        verdict=ok
        if awk -v r="$ratio" 'BEGIN { exit !(r > 2) }'; then verdict=SLOW; status=1; fi
        printf '%-44s %8s %7s %9s  %s\n' "compare $scenario ($mode)" "$seconds" "$ratio" "$mb" "$verdict"
    done
done
exit $status
