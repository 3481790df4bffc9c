#!/usr/bin/env bash
# What `parity-diff progress --history` costs on a long history, against
# issue 37's target: a repository whose parity-progress.json changed in
# each of COMMITS commits (default 500), 30 ops in 3 suites (the passing
# counts climbing), read back in each format (human, markdown, html).
# Exits 1 when one takes 2 s or more. The history is built with one `git
# fast-import`, so building it costs little; each figure is the best of
# RUNS runs (on a shared machine the best run is the one least
# disturbed), and the load average is printed before and after.
#
# Usage: scripts/bench-progress.sh
#   RUNS=N      runs per format (default 3)
#   COMMITS=N   versions of the file (default 500)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
commits=${COMMITS:-500}

cargo build --release --quiet -p parity-diff --bin parity-diff
diff_bin=$PWD/target/release/parity-diff

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null

load() { cut -d' ' -f1-3 /proc/loadavg; }

git -C "$work" init -q -b main
# The stream: one commit a day, each a new version of the file (written
# as parity-diff writes it: sorted, one op per line).
python3 - "$commits" >"$work/stream" <<'PY'
import sys
commits = int(sys.argv[1])
suites = {f"suite{s}": [f"op{s}{o:02}" for o in range(10)] for s in range(3)}
def counts(cases, passing):
    return (f'{{"cases": {cases}, "passing": {passing}, "acceptedEntries": 0, '
            f'"acceptedRules": 0, "failing": {cases - passing}}}')
out = sys.stdout
for c in range(commits):
    lines = ["{", '  "version": 1,', '  "commit": null,', '  "suites": {']
    for si, (suite, ops) in enumerate(suites.items()):
        rows, total_c, total_p = [], 0, 0
        for oi, op in enumerate(ops):
            cases = 100 + 10 * oi
            passing = min(cases, (c * (oi + 1)) // 5)
            total_c += cases
            total_p += passing
            rows.append(f'        "{op}": {counts(cases, passing)}')
        lines.append(f'    "{suite}": {{')
        lines.append(f'      "total": {counts(total_c, total_p)},')
        lines.append('      "ops": {')
        lines.append(",\n".join(rows))
        lines.append("      }")
        lines.append("    }" + ("," if si < len(suites) - 1 else ""))
    lines += ["  }", "}", ""]
    data = "\n".join(lines).encode()
    when = 1767225600 + 86400 * c
    message = f"version {c}\n".encode()
    out.write(f"commit refs/heads/main\ncommitter bench <bench@example.test> {when} +0000\n")
    out.write(f"data {len(message)}\n")
    out.flush()
    sys.stdout.buffer.write(message)
    out.write(f"M 100644 inline parity-progress.json\ndata {len(data)}\n")
    out.flush()
    sys.stdout.buffer.write(data)
    out.write("\n")
PY
git -C "$work" fast-import --quiet <"$work/stream"
git -C "$work" checkout -q main
versions=$(git -C "$work" rev-list --count HEAD)
echo "history: $versions versions of parity-progress.json, 30 ops in 3 suites"
echo "load before: $(load)"

failed=0
for format in human markdown html; do
  best=
  for _ in $(seq "$runs"); do
    start=$(date +%s.%N)
    (cd "$work" && "$diff_bin" --no-config progress --history --format "$format" >"$work/out.$format")
    end=$(date +%s.%N)
    took=$(echo "$end - $start" | bc)
    if [ -z "$best" ] || [ "$(echo "$took < $best" | bc)" = 1 ]; then best=$took; fi
  done
  bytes=$(wc -c <"$work/out.$format")
  printf 'progress --history --format %-8s %6.3f s (best of %s), %s bytes\n' "$format" "$best" "$runs" "$bytes"
  if [ "$(echo "$best >= 2" | bc)" = 1 ]; then
    echo "  MISSED: the target is under 2 s"
    failed=1
  fi
done
echo "load after: $(load)"
exit "$failed"
