#!/usr/bin/env bash
# What a broken port costs `fuzz`, against issue 18's target, and exits 1
# when it is missed. The port (tests/fixtures/infinity_port.sh) prints our
# oracle's results, but the bare token `Infinity` for every readyTimeoutMs
# case whose `configured` is at least 600000 (about 9% of them); with
# --no-bug it does the same work and prints the results unchanged.
#
#   parity-diff fuzz --op readyTimeoutMs --jobs 1 --seed 1 --count 5000 --generator 'worker-spawn-oracle generate'
#                    --left LEFT --right 'sh tests/fixtures/infinity_port.sh [--no-bug]'
#
# Target: with the bug, at least 1 000 cases/s, and at least a quarter of
# the same port's cases/s without it. Printed: both figures, the ratio,
# and how many oracle runs bisection and minimization took. Each figure
# is the best of RUNS runs (on a shared machine the best run is the one
# least disturbed); the load average is printed before and after.
#
# Usage: scripts/bench-broken-port.sh
#   RUNS=N        runs per figure (default 3)
#   COUNT=N       cases per session (default 5000)
#   LEFT='CMD'    the other side (default: our release oracle as a
#                 command; the reference works too:
#                 LEFT='node ../shared/reference/worker-spawn-oracle.mjs')
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
count=${COUNT:-5000}

cargo build --release --quiet --bins
diff_bin=$PWD/target/release/parity-diff
left=${LEFT:-$PWD/target/release/worker-spawn-oracle}
port="sh $PWD/tests/fixtures/infinity_port.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

load() { cut -d' ' -f1-3 /proc/loadavg; }
# field NAME: a number from the JSON report in $work/report.json.
field() { grep -o "\"$1\":[0-9.e+-]*" "$work/report.json" | head -n 1 | cut -d: -f2; }

# best ARGS…: the best cases/s over $runs sessions against `$port ARGS…`;
# leaves the best session's report in $work/best.json.
best() {
    local best=""
    for _ in $(seq "$runs"); do
        rm -rf "$work/out"
        "$diff_bin" fuzz --op readyTimeoutMs --jobs 1 --seed 1 --count "$count" \
            --left "$left" --right "$port $*" --out "$work/out" --format json \
            --generator "'${diff_bin%/*}/worker-spawn-oracle' generate" \
            > "$work/report.json" 2> /dev/null || true
        local cases seconds rate
        cases=$(field cases)
        seconds=$(field seconds)
        if [ "$cases" != "$count" ]; then
            echo "bench-broken-port: a session checked ${cases:-no} cases, not $count" >&2
            exit 2
        fi
        rate=$(awk -v c="$cases" -v s="$seconds" 'BEGIN { printf "%.0f", c / s }')
        if [ -z "$best" ] || [ "$rate" -gt "$best" ]; then
            best=$rate
            cp "$work/report.json" "$work/best.json"
        fi
    done
    echo "$best"
}

echo "bench-broken-port: $(nproc) cores, load average $(load) before"
healthy=$(best --no-bug)
broken=$(best)
cp "$work/best.json" "$work/report.json"
failed=$(field failedBatches)
bisected=$(field bisectedBatches)
bisect_runs=$(field bisectRuns)
minimize_runs=$(field minimizeRuns)
echo "bench-broken-port: load average $(load) after"
echo "fuzz --op readyTimeoutMs --jobs 1 --seed 1 --count $count, best of $runs:"
echo "  the port without the bug: $healthy cases/s"
echo "  the port with the bug:    $broken cases/s ($failed failed batch runs, $bisected bisected in $bisect_runs oracle runs; $minimize_runs runs minimizing)"
status=0
awk -v b="$broken" -v h="$healthy" 'BEGIN { printf "  ratio: %.2f (target at least 0.25); target at least 1000 cases/s\n", b / h }'
[ "$broken" -ge 1000 ] || { echo "bench-broken-port: MISSED: $broken cases/s with the bug (target 1000)"; status=1; }
[ $(( broken * 4 )) -ge "$healthy" ] || { echo "bench-broken-port: MISSED: less than a quarter of the port's cases/s without the bug"; status=1; }
exit $status
