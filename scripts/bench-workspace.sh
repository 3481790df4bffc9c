#!/usr/bin/env bash
# What issue 20's workspace move costs: the cold test build, the test run
# and the main job, measured in one checkout (run it once on the commit
# before the move, in a clone of its own, and once after).
#   - the cold test build: `cargo clean && cargo test --locked --no-run`;
#   - the test run: `cargo test --locked -- --include-ignored` with
#     REFERENCE_ORACLE set (everything built already);
#   - the main job: `parity-diff run -q` on the bundled corpus, release.
# Prints each run's wall seconds and the median per figure, and the load
# average before and after: the project's machine is shared, so say what
# load the numbers were taken under.
#
# Issue 20's numbers (docs/maintainers/performance.md): run on a clone of the commit
# before the workspace move and on one of the commit after, one after the
# other in one session.
#
# Usage: scripts/bench-workspace.sh [CHECKOUT]
#   CHECKOUT      the tree to measure (default: this one); its target/ is
#                 cleaned
#   BUILDS=N      cold test builds (default 3)
#   TEST_RUNS=N   test runs (default 1)
#   RUNS=N        main-job runs (default 5)
#   REFERENCE_ORACLE='node …/worker-spawn-oracle.mjs'  (default: the
#                 shared reference beside this repository's checkout)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "${1:-$here}"
export REFERENCE_ORACLE=${REFERENCE_ORACLE:-node $(cd "$here/.." && pwd)/shared/reference/worker-spawn-oracle.mjs}
log=$(mktemp)
work=$(mktemp -d)
trap 'rm -rf "$log" "$work"' EXIT
. "$here/scripts/bench-common.sh"

# timed NAME COMMAND...: the command's wall seconds on stdout; it must
# succeed (its output goes to a log, shown if it fails).
timed() {
    local start end
    start=$(now)
    "$@" > "$log" 2>&1 || { tail -n 40 "$log" >&2; echo "bench-workspace: failed: $*" >&2; exit 2; }
    end=$(now)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f\n", b - a }'
}

# figure NAME N COMMAND...: N timed runs, each printed, then the median.
figure() {
    local name=$1 n=$2 i t all=()
    shift 2
    [ "$n" -gt 0 ] || return 0
    for i in $(seq "$n"); do
        t=$(timed "$@")
        all+=("$t")
        echo "bench-workspace: $name run $i: $t s (load average $(load))"
    done
    printf '%s\n' "${all[@]}" | median | xargs printf "bench-workspace: $name: median %s s of $n\n"
}

cold_build() { cargo clean && cargo test --locked --no-run; }

echo "bench-workspace: $(pwd) at $(git rev-parse --short HEAD), $(nproc) cores, load average $(load), $(date -u +%FT%TZ)"
figure "cold test build (cargo clean && cargo test --locked --no-run)" "${BUILDS:-3}" cold_build
# Every test binary runs (--no-fail-fast), and a failing test does not
# stop the measurement: its name is printed, so the figure says what ran.
test_run() {
    cargo test --locked --no-fail-fast -- --include-ignored > "$work/test.log" 2>&1 || true
    grep -E '^test result:' "$work/test.log" |
        awk '{ p += $4; f += $6; i += $8 } END { printf "bench-workspace: tests: %d passed, %d failed, %d ignored\n", p, f, i }' >> "$work/summary"
    sed -n '/^failures:$/,/^test result/p' "$work/test.log" | grep -E '^    [^ ]+$' | sort -u |
        sed 's/^ */bench-workspace: failed: /' >> "$work/summary" || true
}
figure "test run (cargo test --locked --no-fail-fast -- --include-ignored)" "${TEST_RUNS:-1}" test_run
cat "$work/summary" 2>/dev/null || true
cargo build --locked --release --quiet
figure "main job (target/release/parity-diff run -q)" "${RUNS:-5}" target/release/parity-diff run -q
echo "bench-workspace: load average $(load) after, $(date -u +%FT%TZ)"
