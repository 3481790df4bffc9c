#!/usr/bin/env bash
# What a known crash costs (issue 36), against its targets; exits 1 when
# one is missed.
#
# 1. run: the port is our release oracle behind a wrapper that exits 3 on
#    any batch holding one of 6 cases of the bundled corpus (the first
#    case of each of 6 files). Timed: the run without the crash (the same
#    wrapper, no case crashes), the run with it and no ledger (bisection
#    finds the 6 cases), and with the ledger `accept` wrote for them (the
#    6 cases run once, together, before the files; the rest of each file
#    in one batch). Target: the known crash at most 1.3x the run without
#    it.
# 2. fuzz --op OP (OP=readyTimeoutMs by default): the right side crashes
#    on every batch holding a case of OP, a ledger rule `rule op OP`,
#    `match: crash` accepts it. Target: at least 1 000 cases/s.
#
# Each figure is the median of RUNS runs (default 5); the load average is
# printed before and after.
#
# Usage: scripts/bench-known-crash.sh   (RUNS=N, COUNT=N fuzz cases, OP=op,
#        UNKNOWN=0 to leave out the run that bisects)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-common.sh
runs=${RUNS:-5}
count=${COUNT:-5000}
op=${OP:-readyTimeoutMs}

cargo build --release --quiet --bins
bin=$PWD/target/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r cases golden "$work/"

# The 6 crashing cases: each file's first case, found by its bytes.
python3 - "$work" <<'PY'
import json, sys, pathlib
work = pathlib.Path(sys.argv[1])
marks = []
for path in sorted((work / "cases").glob("*.json"))[:6]:
    first = json.loads(path.read_text())[0]
    marks.append(json.dumps(first, separators=(",", ":"), ensure_ascii=False))
(work / "marks.json").write_text(json.dumps(marks))
PY
cat > "$work/port.sh" <<SH
#!/bin/sh
# Our oracle; exits 3 on a batch holding a case MARKS lists (the run
# without the crash lists none, and pays for the same check).
input=\$(cat)
if printf '%s' "\$input" | python3 -c '
import json, sys
marks = set(json.load(open(sys.argv[1])))
cases = json.loads(sys.stdin.read())
sys.exit(0 if any(json.dumps(c, separators=(",", ":"), ensure_ascii=False) in marks for c in cases) else 1)' "\$MARKS"
then
    echo "crash" >&2; exit 3
fi
printf '%s' "\$input" | $bin/worker-spawn-oracle
SH
chmod +x "$work/port.sh"

# timed ENV…: the median seconds of `run` over $runs runs.
timed() {
    for _ in $(seq "$runs"); do
        local start end
        start=$(now)
        (cd "$work" && env "$@" "$bin/parity-diff" --no-config run --oracle ./port.sh --quiet --jobs 1 >/dev/null 2>&1 || true)
        end=$(now)
        awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f\n", e - s }'
    done | median
}

echo "bench-known-crash: $(nproc) cores, load average $(load) before"
echo '[]' > "$work/none.json"
clean=$(timed MARKS="$work/none.json")
# UNKNOWN=0 leaves out the run that bisects (the slowest by far).
unknown=skipped
if [ "${UNKNOWN:-1}" != 0 ]; then unknown=$(timed MARKS="$work/marks.json"); fi
(cd "$work" && MARKS="$work/marks.json" "$bin/parity-diff" --no-config accept --oracle ./port.sh --reason "known crash" >/dev/null 2>&1 || true)
entries=$(grep -c '^case ' "$work/parity-ledger.txt" || true)
known=$(timed MARKS="$work/marks.json")
echo "run over the bundled corpus, --jobs 1, median of $runs:"
echo "  without the crash:         ${clean} s"
echo "  6 crashing cases, unknown: ${unknown} s ($(awk -v a="$unknown" -v b="$clean" 'BEGIN { if (a + 0 > 0) printf "%.2f", a / b; else printf "-" }')x)"
echo "  6 crashing cases, known:   ${known} s ($(awk -v a="$known" -v b="$clean" 'BEGIN { printf "%.2f", a / b }')x; the ledger has $entries entries; target at most 1.30x)"

rm -f "$work/parity-ledger.txt"
printf 'rule op %s\n  match: crash\n  state: accepted\n  reason: crashes\n' "$op" > "$work/fuzz-ledger.txt"
cat > "$work/fuzz-port.sh" <<SH
#!/bin/sh
input=\$(cat)
case "\$input" in *'"op":"$op"'*) exit 3;; esac
printf '%s' "\$input" | $bin/worker-spawn-oracle
SH
chmod +x "$work/fuzz-port.sh"
rates=$(for _ in $(seq "$runs"); do
    rm -rf "$work/out"
    "$bin/parity-diff" --no-config fuzz --op "$op" --jobs 1 --seed 1 --count "$count" \
        --left "$bin/worker-spawn-oracle" --right "sh $work/fuzz-port.sh" --out "$work/out" \
        --ledger "$work/fuzz-ledger.txt" --format json \
        --generator "'$bin/worker-spawn-oracle' generate" > "$work/fuzz.json" 2>/dev/null || true
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("%.0f" % (r["cases"] / r["seconds"]))' "$work/fuzz.json"
done | median)
echo "fuzz --op $op --seed 1 --count $count, every batch crashing, a rule accepting it, median of $runs:"
echo "  ${rates} cases/s (target at least 1000)"
echo "bench-known-crash: load average $(load) after"
status=0
awk -v a="$known" -v b="$clean" 'BEGIN { exit !(a / b <= 1.30) }' || { echo "bench-known-crash: MISSED: the known crash costs more than 1.30x"; status=1; }
awk -v r="$rates" 'BEGIN { exit !(r >= 1000) }' || { echo "bench-known-crash: MISSED: fuzz under 1000 cases/s"; status=1; }
exit $status
