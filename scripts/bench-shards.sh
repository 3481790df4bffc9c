#!/usr/bin/env bash
# How evenly `run --shard K/N` spreads a port's time: 4 shards balanced
# by recorded times (`--timings`) against 4 balanced by count (issue 21:
# the slowest time-balanced shard at most 1.25 times the fastest).
#
#   scripts/bench-shards.sh [FILES] [CASES_PER_FILE] [MS_PER_KIB] [REPEAT]
#                                                  (defaults: 24, 10, 2, 3)
#
# A generated corpus of FILES case files whose cases grow with the
# file's place in the corpus (file i's about i + 1 KiB, give or take a
# half, seeded), so that the last files hold most of the time, and no
# case takes more than 5% of the whole (checked). The port is a stand-in
# in Python 3 that sleeps MS_PER_KIB ms per KiB of the cases it is sent,
# then answers each case with the case itself (the goldens are the cases:
# every case passes). One whole run records the timings
# (`--record-timings`); then the 4 shards run balanced by them, and the 4
# balanced by count, each shard recording its own oracle times. Each
# shard's time is the sum of its files' recorded times; the script prints
# each shard's, and the slowest over the fastest for both ways, REPEAT
# times (the port's start-up varies with the machine's load), then the
# median of each way's ratios. Uses
# target/release/parity-diff (cargo build --release); --jobs 1, so that
# the oracle times are one run's at a time.
set -euo pipefail
files=${1:-24}
per_file=${2:-10}
ms_per_kib=${3:-2}
repeat=${4:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/target/release/parity-diff
[ -x "$bin" ] || { echo "build it first: cargo build --release" >&2; exit 2; }
. "$root/scripts/bench-common.sh"
# The interpreter itself, not a shim that starts a shell first.
python=$(python3 -c 'import sys; print(sys.executable)')
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

"$python" - "$files" "$per_file" <<'PY'
import os, random, sys
files, per_file = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(21)
os.makedirs("cases")
os.makedirs("golden")
sizes = []
for f in range(files):
    cases = []
    for c in range(per_file):
        kib = (f + 1) * rng.uniform(0.5, 1.5)
        pad = "x" * int(kib * 1024)
        cases.append(f'{{"op":"echo","name":"f{f:02} c{c:02}","pad":"{pad}"}}')
        sizes.append(len(cases[-1]))
    name = f"part-{f:02}.json"
    with open(f"cases/{name}", "w") as out:
        out.write("[" + ",\n".join(cases) + "]\n")
    with open(f"golden/{name}", "w") as out:
        out.write("[\n" + ",\n".join(cases) + "\n]\n")
share = max(sizes) / sum(sizes)
print(f"corpus: {files} files, {len(sizes)} cases, {sum(sizes) / 1024:.0f} KiB; "
      f"the largest case {share:.1%} of the whole")
if share > 0.05:
    sys.exit("a case takes more than 5% of the whole: use more files or cases")
PY

cat > port.py <<PY
import sys, time
data = sys.stdin.buffer.read()
time.sleep(len(data) / 1024 * $ms_per_kib / 1000)
sys.stdout.buffer.write(data)
PY
# -S -E: no site packages or environment to read; a quicker start.
port="$python -S -E port.py"

run() { "$bin" run --no-config --oracle "$port" --jobs 1 --quiet "$@" > /dev/null; }

# The sum of a timings file's microseconds, in seconds.
seconds() {
    "$python" -c 'import json, sys; print(sum(f["microseconds"] for f in json.load(open(sys.argv[1]))["files"]) / 1e6)' "$1"
}

echo "load before: $(load)"
run --record-timings whole.json
echo "whole run: $(seconds whole.json) s of oracle time (the timings every repetition balances by)"
ratios=()
for rep in $(seq "$repeat"); do
    line="repetition $rep:"
    for way in time count; do
        times=()
        for k in 1 2 3 4; do
            if [ "$way" = time ]; then
                run --shard "$k/4" --timings whole.json --record-timings "$way-$k.json"
            else
                run --shard "$k/4" --record-timings "$way-$k.json"
            fi
            times+=("$(seconds "$way-$k.json")")
        done
        ratio=$(printf '%s\n' "${times[@]}" | sort -g | awk 'NR == 1 { min = $1 } { max = $1 } END { printf "%.2f", max / min }')
        ratios+=("$way $ratio")
        line+=$(printf '  %s-balanced %s s: %sx' "$way" "$(printf '%.2f/' "${times[@]}" | sed 's|/$||')" "$ratio")
    done
    echo "$line"
done
for way in time count; do
    printf '%s-balanced shards, slowest/fastest (median of %s): %sx\n' "$way" "$repeat" \
        "$(printf '%s\n' "${ratios[@]}" | awk -v way="$way" '$1 == way { print $2 }' | median)"
done
echo "load after: $(load)"
