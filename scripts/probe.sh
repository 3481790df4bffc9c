#!/usr/bin/env bash
# Probes the release oracle under faults (issue 14) and prints what each
# fault left behind, which must be nothing, and the peak memory of large
# strings against the budget of 2x the string + 64 MiB.
#
#   scripts/probe.sh           # full: 100 MB and 1 GiB strings, 30 signal tries, 10 kills
#   scripts/probe.sh --short   # cheap enough for CI: 32 MiB strings, 5 tries, 3 kills
#   scripts/probe.sh --memory  # only the memory probe (either size), e.g. of
#                              # another build: PROBE_ORACLE=path/to/oracle
#
# Every probe runs in a private TMPDIR (on /dev/shm when it exists); the
# exit status is 1 when anything was left behind or a budget was missed.
set -euo pipefail
cd "$(dirname "$0")/.."

short=0 memory_only=0
for arg in "$@"; do
  case $arg in
    --short) short=1 ;;
    --memory) memory_only=1 ;;
    *) echo "usage: scripts/probe.sh [--short] [--memory]" >&2; exit 2 ;;
  esac
done
# Lengths below count bytes.
export LC_ALL=C

if [ -n "${PROBE_ORACLE:-}" ]; then
  oracle=$(cd "$(dirname "$PROBE_ORACLE")" && pwd)/$(basename "$PROBE_ORACLE")
else
  cargo build --release --quiet --bin worker-spawn-oracle
  oracle=$(pwd)/target/release/worker-spawn-oracle
fi
root=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/wso-probe.XXXXXX")
# Large inputs stay on disk, not in the memory of /dev/shm.
inputs=$(mktemp -d "$(pwd)/target/probe-inputs.XXXXXX")
trap 'rm -rf "$root" "$inputs"' EXIT
prefix=linzumi-worker-spawn-oracle-

status=0
fail() { echo "FAILED: $*"; status=1; }
left_in() { find "$1" -maxdepth 1 -name "$prefix*" | wc -l; }
fresh() { local dir="$root/$1"; rm -rf "$dir"; mkdir -p "$dir"; echo "$dir"; }

# A batch of N scratch cases whose layouts cycle through more than a
# pool holds.
heavy_batch() {
  awk -v n="$1" 'BEGIN {
    printf "[";
    for (i = 0; i < n; i++) {
      l = i % 11;
      printf "%s{\"op\":\"preflight\",\"mkdirs\":[\"a/b\",\"l%d/x/y\",\"c%d\"],\"cwd\":\"$DIR/l%d/x/y\"}", (i ? "," : ""), l, i % 3, l;
    }
    printf "]";
  }'
}

# peak_kib COMMAND... < input: the peak resident memory of one run, in KiB.
# $root/time says how it ended when that was not exit status 0.
peak_kib() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$root/time" "$@" > /dev/null 2>&1 || true
    tail -n 1 "$root/time"
  else
    echo 0
  fi
}

# The shapes: one case around one large string, for every op that takes
# a string (tests/support/large_strings.tsv says how each is made).
shapes=tests/support/large_strings.tsv

# string_case SIZE BEFORE UNIT AFTER > file: the case with a string of
# SIZE bytes (after decoding), made of UNIT repeated.
string_case() {
  local size=$1 before=$2 unit=$3 after=$4
  local escapes=${unit//[^\\]/}
  local count=$(( size / (${#unit} - ${#escapes}) ))
  printf '%s' "$before"
  if [ "$unit" = x ]; then
    head -c "$size" /dev/zero | tr '\0' x
  else
    { yes "$unit" | tr -d '\n' | head -c $(( count * ${#unit} )); } || true
  fi
  printf '%s' "$after"
}

echo "== memory: peak resident memory of each op on one large string, against 2x the string + 64 MiB"
[ -x /usr/bin/time ] || echo "(no /usr/bin/time: install the time package to measure)"
# Short: a size at which a third copy cannot hide in the 64 MiB, so each
# run is also held to the copies its shape allows beyond the batch reading
# the case (the first shape, "ignored", which makes none).
if [ $short = 1 ]; then sizes="33554432"; else sizes="100000000 1073741824"; fi
for size in $sizes; do
  budget=$(( (2 * size + 64 * 1048576) / 1024 ))
  baseline=""
  while IFS=$'\t' read -r shape before unit after copies_allowed; do
    case $shape in ''|'#'*) continue ;; esac
    string_case "$size" "$before" "$unit" "$after" > "$inputs/string.json"
    dir=$(fresh "memory")
    kib=$(TMPDIR=$dir peak_kib timeout 300 "$oracle" < "$inputs/string.json")
    if [ "$(wc -l < "$root/time")" -gt 1 ]; then
      fail "$shape with a $size-byte string: $(head -n 1 "$root/time") (124: over 300 s)"
      continue
    fi
    [ -n "$baseline" ] || baseline=$kib
    copies=$(awk -v k="$kib" -v b="$baseline" -v s="$size" 'BEGIN { printf "%.2f", (k - b) * 1024 / s }')
    awk -v s="$size" -v k="$kib" -v b="$budget" -v c="$copies" -v shape="$shape" \
      'BEGIN { printf "  %-32s %10d-byte string: peak %7.1f MiB (%.2fx the string, +%s copies; budget %.1f MiB)\n", shape, s, k / 1024, k * 1024 / s, c, b / 1024 }'
    [ "$kib" -le "$budget" ] || fail "$shape with a $size-byte string peaked at $kib KiB (budget $budget KiB)"
    if [ $short = 1 ] && [ $(( (kib - baseline) * 1024 )) -gt $(( copies_allowed * size + 8 * 1048576 )) ]; then
      fail "$shape with a $size-byte string held $copies copies of it beyond the case (allowed: $copies_allowed)"
    fi
  done < "$shapes"
done
rm -f "$inputs/string.json"

finish() {
  echo
  if [ $status = 0 ]; then echo "probe: nothing left behind, every budget met"; else echo "probe: FAILED"; fi
  exit $status
}
[ $memory_only = 0 ] || finish

echo "== batches start under ulimit -v 256M (the deepest batch included)"
dir=$(fresh ulimit-v)
deep=$(awk 'BEGIN { for (i = 0; i < 4091; i++) printf "["; printf "\"x\""; for (i = 0; i < 4091; i++) printf "]" }')
printf '[{"op":"remoteJoinPayload","config":{"runnerId":"r","cwd":"/w","labels":{"zone":%s}}},{"op":"preflight","mkdirs":["a"],"cwd":"$DIR/a"}]' "$deep" > "$root/deep.json"
if (ulimit -v 262144; TMPDIR=$dir "$oracle" < "$root/deep.json" > "$root/out"); then
  echo "  ok: $(wc -c < "$root/out") bytes of results"
else
  fail "a batch did not run under ulimit -v 256M"
fi

echo "== deep trees under ulimit -n 1024 and 32"
dir=$(fresh ulimit-n)
levels=$(( (4095 - ${#dir} - 1 - ${#prefix} - 6) / 2 ))
for limit in 1024 32; do
  for depth in 1100 "$levels"; do
    chain=$(awk -v n="$depth" 'BEGIN { for (i = 0; i < n; i++) printf "%sd", (i ? "/" : "") }')
    result=$( (ulimit -n "$limit"; printf '[{"op":"preflight","mkdirs":["%s"],"cwd":"$DIR/%s"}]' "$chain" "$chain" | TMPDIR=$dir "$oracle") )
    left=$(left_in "$dir")
    echo "  ulimit -n $limit, $depth levels: $result, left $left"
    [ "$result" = '[{"defined":false}]' ] || fail "$depth levels under ulimit -n $limit"
    [ "$left" -eq 0 ] || fail "$depth levels under ulimit -n $limit left $left directories"
  done
done

echo "== SIGTERM at random 0-90 ms into a scratch-heavy batch"
tries=30; [ $short = 1 ] && tries=5
heavy_batch 200000 > "$inputs/heavy.json"
dir=$(fresh sigterm)
total=0
for _ in $(seq "$tries"); do
  TMPDIR=$dir "$oracle" < "$inputs/heavy.json" > /dev/null 2>&1 & pid=$!
  sleep "0.0$(( RANDOM % 90 ))"
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" || true
  total=$(( total + $(left_in "$dir") ))
done
echo "  $tries tries: left $total directories"
[ "$total" -eq 0 ] || fail "SIGTERM left $total directories"

echo "== SIGKILL, then a run that needs a scratch directory"
kills=10; [ $short = 1 ] && kills=3
dir=$(fresh sigkill)
mkdir "$dir/${prefix}aB3xYz" "$dir/${prefix}_ab3xy"   # the reference's and a port's
for _ in $(seq "$kills"); do
  TMPDIR=$dir "$oracle" < "$inputs/heavy.json" > /dev/null 2>&1 & pid=$!
  sleep 0.2
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
done
after_kills=$(( $(left_in "$dir") - 2 ))
printf '[{"op":"preflight","mkdirs":["a"],"cwd":"$DIR/a"}]' | TMPDIR=$dir "$oracle" > /dev/null
left=$(( $(left_in "$dir") - 2 ))
echo "  $kills kills: $after_kills directories after the kills, $left after the next run"
[ "$left" -eq 0 ] || fail "$left leftovers were not collected"
[ -d "$dir/${prefix}aB3xYz" ] && [ -d "$dir/${prefix}_ab3xy" ] || fail "a directory that is not ours was removed"

echo "== an out-of-memory abort, then a run that needs a scratch directory"
dir=$(fresh oom)
{ printf '[{"op":"preflight","mkdirs":["a/b"],"cwd":"$DIR/a/b"},{"op":"nope","name":"'; head -c 300000000 /dev/zero | tr '\0' x; printf '"}]'; } > "$inputs/oom.json"
(ulimit -v 262144; TMPDIR=$dir "$oracle" < "$inputs/oom.json" > /dev/null 2>&1) && fail "the batch fit in 256M" || true
after_abort=$(left_in "$dir")
printf '[{"op":"preflight","mkdirs":["a"],"cwd":"$DIR/a"}]' | TMPDIR=$dir "$oracle" > /dev/null
echo "  abort left $after_abort, the next run left $(left_in "$dir")"
[ "$(left_in "$dir")" -eq 0 ] || fail "the abort's leftovers were not collected"
rm -f "$inputs/oom.json"

echo "== SIGXFSZ (ulimit -f)"
dir=$(fresh sigxfsz)
code=0
(ulimit -f 100; TMPDIR=$dir "$oracle" < "$inputs/heavy.json" > "$dir/out" 2>/dev/null) || code=$?
echo "  exit $code, left $(left_in "$dir")"
[ "$code" -eq 153 ] || fail "SIGXFSZ ended with $code, not 153"
[ "$(left_in "$dir")" -eq 0 ] || fail "SIGXFSZ left directories"

echo "== SIGTERM while results are written to a slow pipe"
dir=$(fresh slow-pipe)
mkfifo "$root/fifo"
TMPDIR=$dir "$oracle" < "$inputs/heavy.json" > "$root/fifo" 2>/dev/null & pid=$!
exec 3< "$root/fifo"
head -c 1 <&3 > /dev/null   # the results have started
sleep 1                     # nobody reads: the pipe fills, the oracle waits
kill -TERM "$pid"
cat <&3 > "$root/out"
exec 3<&-
code=0
wait "$pid" || code=$?
complete=$(node -e 'try { JSON.parse(require("fs").readFileSync(0)); console.log("yes") } catch { console.log("no") }' < "$root/out" 2>/dev/null || echo unknown)
echo "  exit $code, $(wc -c < "$root/out") bytes read after the signal, a complete array: $complete, left $(left_in "$dir")"
[ "$code" -eq 143 ] || fail "a signal during output ended with $code"
[ "$(left_in "$dir")" -eq 0 ] || fail "the signal during output left directories"

echo "== 32 concurrent processes over planted leftovers"
dir=$(fresh concurrent)
for n in $(seq 10 29); do mkdir -p "$dir/${prefix}-d00$n/x"; done
heavy_batch 2000 > "$root/batch.json"
expected=$(awk 'BEGIN { printf "["; for (i = 0; i < 2000; i++) printf "%s{\"defined\":false}", (i ? "," : ""); printf "]" }' | sha256sum)
for n in $(seq 32); do (TMPDIR=$dir "$oracle" < "$root/batch.json" | sha256sum > "$root/sum.$n") & done
wait
bad=0
for n in $(seq 32); do [ "$(cat "$root/sum.$n")" = "$expected" ] || bad=$((bad + 1)); done
echo "  $bad of 32 outputs differ, left $(left_in "$dir")"
[ "$bad" -eq 0 ] || fail "$bad outputs differ"
[ "$(left_in "$dir")" -eq 0 ] || fail "concurrent runs left directories"

finish
