#!/usr/bin/env bash
# Peak memory and time of `parity-diff merge` and `parity-diff delta` on
# reports of many cases (issue 13: at most 128 MiB on a million).
#
#   scripts/bench-merge.sh [CASES] [FILES]      (defaults: 1000000, 10)
#
# A synthetic corpus of CASES cases in FILES case files, `cat` as the
# oracle (each case file is its own result array): every 10th case's
# golden differs, so a tenth of the records are failures with every
# detail (input, both elements, paths). It is run in two shards (BASE),
# and whole with every 7th case's golden changed too (HEAD); then merge
# (JSON and human) and delta (human and Markdown) are measured with
# /usr/bin/time. Uses target/release/parity-diff (cargo build --release).
set -euo pipefail
cases=${1:-1000000}
files=${2:-10}
bin=$(cd "$(dirname "$0")/.." && pwd)/target/release/parity-diff
[ -x "$bin" ] || { echo "build it first: cargo build --release" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

python3 - "$cases" "$files" <<'EOF'
import os, sys
cases, files = int(sys.argv[1]), int(sys.argv[2])
os.makedirs("cases"); os.makedirs("golden"); os.makedirs("golden-head")
per = -(-cases // files)
for f in range(files):
    lo, hi = f * per, min(cases, (f + 1) * per)
    name = f"part-{f:03}.json"
    rows = [f'{{"op":"op{n % 20}","name":"case {n}","argv":["--x","{n}"],"v":{n}}}' for n in range(lo, hi)]
    with open(f"cases/{name}", "w") as out:
        out.write("[" + ",\n".join(rows) + "]\n")
    for golden, every in (("golden", (10,)), ("golden-head", (10, 7))):
        fixed = [r.replace(f'"v":{n}}}', '"v":-1}') if any(n % e == 0 for e in every) else r
                 for n, r in zip(range(lo, hi), rows)]
        with open(f"{golden}/{name}", "w") as out:
            out.write("[\n" + ",\n".join(fixed) + "\n]\n")
EOF

measure() { # label, output file, command...
    local label=$1 out=$2; shift 2
    /usr/bin/time -f "%M %e" -o time.txt "$@" > "$out" || true
    read -r kib secs < time.txt
    printf '%-28s peak %6.1f MiB  %6.2f s  (%s bytes out)\n' \
        "$label" "$(echo "$kib / 1024" | bc -l)" "$secs" "$(stat -c %s "$out")"
}

for k in 1 2; do
    "$bin" run --oracle cat --format json --shard "$k/2" > "shard-$k.json" || true
done
"$bin" run --oracle cat --format json --golden golden-head > head.json || true
ls -l shard-*.json head.json | awk '{print $5, $9}'
measure "merge --format json" merged.json "$bin" merge --format json shard-1.json shard-2.json
measure "merge (human)" merged.txt "$bin" merge shard-1.json shard-2.json
measure "delta (human)" delta.txt "$bin" delta merged.json head.json
measure "delta --format markdown" delta.md "$bin" delta --format markdown merged.json head.json
tail -n 1 merged.txt
tail -n 1 delta.txt
