#!/usr/bin/env bash
# Peak memory and time of `parity-diff merge` and `parity-diff delta` on
# reports of many cases (issue 13: at most 128 MiB on a million).
#
#   scripts/bench-merge.sh [CASES] [FILES]      (defaults: 1000000, 10)
#
# A synthetic corpus of CASES cases in FILES case files, `cat` as the
# oracle (each case file is its own result array): every 10th case's
# golden differs, so a tenth of the records are failures with every
# detail (input, both elements, paths). It is run in two shards and
# merged (BASE). HEAD is another corpus: every 13th case removed, every
# 11th renamed (removed and added), every 7th golden changed (newly
# failing), every 20th failing with other bytes. merge (JSON and human)
# and delta (human and Markdown) are measured with /usr/bin/time. Uses
# target/release/parity-diff (cargo build --release).
set -euo pipefail
cases=${1:-1000000}
files=${2:-10}
bin=$(cd "$(dirname "$0")/.." && pwd)/target/release/parity-diff
[ -x "$bin" ] || { echo "build it first: cargo build --release" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

python3 - "$cases" "$files" <<'PY'
import os, sys
cases, files = int(sys.argv[1]), int(sys.argv[2])
for d in ("cases", "golden", "head/cases", "head/golden"):
    os.makedirs(d)
per = -(-cases // files)

def case(n):
    return f'{{"op":"op{n % 20}","name":"case {n}","argv":["--x","{n}"],"v":{n}}}'

def golden(n, head):
    if n % 10 == 0:  # fails in both; every 20th with other bytes in HEAD
        return case(n).replace(f'"v":{n}}}', '"v":-2}' if head and n % 20 == 0 else '"v":-1}')
    if head and n % 7 == 0:  # newly failing
        return case(n).replace(f'"v":{n}}}', '"v":-1}')
    return case(n)

def write(path, rows, golden_format):
    with open(path, "w") as out:
        if golden_format:
            out.write("[\n" + ",\n".join(rows) + "\n]\n")
        else:
            out.write("[" + ",\n".join(rows) + "]\n")

def renamed(n, text):
    return text.replace(f'"case {n}"', f'"case {n} again"') if n % 11 == 0 else text

for f in range(files):
    numbers = range(f * per, min(cases, (f + 1) * per))
    name = f"part-{f:03}.json"
    write(f"cases/{name}", [case(n) for n in numbers], False)
    write(f"golden/{name}", [golden(n, False) for n in numbers], True)
    kept = [n for n in numbers if n % 13]
    write(f"head/cases/{name}", [renamed(n, case(n)) for n in kept], False)
    write(f"head/golden/{name}", [renamed(n, golden(n, True)) for n in kept], True)
PY

measure() { # label, output file, command...
    local label=$1 out=$2 status=0
    shift 2
    /usr/bin/time -f "%M %e" -o time.txt "$@" > "$out" || status=$?
    # time(1) writes "Command exited with non-zero status N" first.
    read -r kib secs < <(tail -n 1 time.txt)
    printf '%-26s peak %6.1f MiB  %6.2f s  exit %s  (%s bytes out)\n' \
        "$label" "$(echo "$kib / 1024" | bc -l)" "$secs" "$status" "$(stat -c %s "$out")"
}

for k in 1 2; do
    "$bin" run --oracle cat --format json --shard "$k/2" > "shard-$k.json" || true
done
"$bin" run --oracle cat --format json --cases head/cases --golden head/golden > head.json || true
ls -l shard-*.json head.json | awk '{print $5, $9}'
measure "merge --format json" merged.json "$bin" merge --format json shard-1.json shard-2.json
measure "merge (human)" merged.txt "$bin" merge shard-1.json shard-2.json
measure "merge --format junit" merged.xml "$bin" merge --format junit shard-1.json shard-2.json
measure "delta (human)" delta.txt "$bin" delta merged.json head.json
measure "delta --format markdown" delta.md "$bin" delta --format markdown merged.json head.json
tail -n 1 merged.txt
tail -n 1 delta.txt
