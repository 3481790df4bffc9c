#!/usr/bin/env bash
# Probes the release oracle under faults (issue 14) and prints what each
# fault left behind, which must be nothing, and the peak memory of large
# strings against the budget of 2x the string + 64 MiB; then parity-diff's
# ledger under concurrent and killed writers, and parity-diff against ports
# that leave daemons holding their stdout (issue 18).
#
#   scripts/probe.sh           # full: 100 MB and 1 GiB strings, 30 signal tries, 10 kills,
#                              #   12 concurrent accepts, 10 killed ones
#   scripts/probe.sh --short   # cheap enough for CI: 32 MiB strings, 5 tries, 3 kills,
#                              #   3 concurrent accepts, 3 killed ones
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

echo "== concurrent accepts on one ledger, and SIGKILLed ones (issue 18)"
# Each writer accepts its own file's 50 divergences through a slow port:
# without the ledger's lock, the last to write loses the others' entries.
cargo build --release --quiet --bin parity-diff
parity_diff=$(pwd)/target/release/parity-diff
writers=12; [ $short = 1 ] && writers=3
dir=$(fresh ledger)
mkdir -p "$dir/cases" "$dir/golden"
# cases_of N: a case file of N cases of op x, one per line (its golden too).
cases_of() {
  awk -v n="$1" 'BEGIN { printf "[\n"; for (i = 0; i < n; i++) printf "%s{\"op\":\"x\",\"name\":\"c%d\"}", (i ? ",\n" : ""), i; printf "\n]\n" }'
}
for n in $(seq "$writers"); do
  cases_of 50 > "$dir/cases/f$n.json"
  cp "$dir/cases/f$n.json" "$dir/golden/f$n.json"
done
port='sleep 0.3; sed "s/\"x\"/\"y\"/g"'
# The accepts here are a developer's, so they write even where CI is set
# (--force): without it each refuses, with exit status 2. Each writer's
# status is its output's last line: under set -e a bare `cmd; echo $?`
# would end the subshell on the failure, before the echo.
pids=""
for n in $(seq "$writers"); do
  (cd "$dir" && if "$parity_diff" accept --force --reason r --oracle "$port" --filter "f$n.json" > "$root/accept.$n" 2>&1; then echo 0; else echo $?; fi >> "$root/accept.$n") & pids="$pids $!"
done
# shellcheck disable=SC2086
wait $pids
bad=0
for n in $(seq "$writers"); do [ "$(tail -n 1 "$root/accept.$n")" = 0 ] || bad=$((bad + 1)); done
entries=$(grep -c '^case ' "$dir/parity-ledger.txt" || true)
echo "  $writers writers at once: $bad failed, $entries of $(( writers * 50 )) entries in the ledger"
[ "$bad" -eq 0 ] || fail "$bad concurrent accepts failed: $(cat "$root"/accept.*)"
[ "$entries" -eq $(( writers * 50 )) ] || fail "concurrent accepts lost $(( writers * 50 - entries )) entries"

kills=10; [ $short = 1 ] && kills=3
rm -f "$dir"/cases/* "$dir"/golden/* "$dir/parity-ledger.txt"
cases_of 20000 > "$dir/cases/big.json"
cp "$dir/cases/big.json" "$dir/golden/big.json"
temporaries() { find "$dir" -maxdepth 1 -name '.parity-ledger.txt.parity-diff-*.tmp' | wc -l; }
# port_of K: a port whose divergences differ from every other K's, so
# that each accept rewrites every entry.
port_of() { echo "sed 's/\"x\"/\"y$1\"/g'"; }
(cd "$dir" && "$parity_diff" accept --force --quiet --reason r --oracle "$(port_of 0)" > /dev/null) || fail "the first accept of the large file failed (exit status $?)"
# Half the writers are SIGKILLed at random, which may leave a temporary
# ledger behind for the next accept to remove; half run into the file size
# limit half way through writing the ledger (ulimit -f is below its size):
# parity-diff ignores SIGXFSZ, so each must stop on the write's EFBIG with
# exit status 2 and a clear error, and remove its own temporary ledger.
start=$(date +%s%N)
(cd "$dir" && "$parity_diff" accept --force --quiet --reason r --oracle "$(port_of 1)" > /dev/null 2>&1) || fail "an accept that times the writers failed (exit status $?)"
span=$(( ($(date +%s%N) - start) / 1000000 ))
leftovers=0 broken=0 limited=0 limited_left=0
for k in $(seq "$kills"); do
  if [ $(( k % 2 )) = 0 ]; then
    code=0
    { (cd "$dir" && ulimit -f 1000 && exec "$parity_diff" accept --force --reason r --oracle "$(port_of "$((k + 1))")" > /dev/null 2> "$root/limited"); } 2> /dev/null || code=$?
    if [ "$code" -eq 2 ] && grep -q '^parity-diff: cannot write the ledger parity-ledger.txt: File too large' "$root/limited"; then
      limited=$((limited + 1))
    else
      fail "a writer over the file size limit exited $code: $(cat "$root/limited")"
    fi
    limited_left=$(( limited_left + $(temporaries) ))
  else
    (cd "$dir" && exec "$parity_diff" accept --force --reason r --oracle "$(port_of "$((k + 1))")" > /dev/null 2>&1) & pid=$!
    sleep "$(awk -v ms="$(( RANDOM % (span + 1) ))" 'BEGIN { printf "%.3f", ms / 1000 }')"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  leftovers=$(( leftovers + $(temporaries) ))
  # The ledger is always the old one or the new one, whole.
  (cd "$dir" && "$parity_diff" run --quiet --oracle "$(port_of 1)" > /dev/null 2>&1) || [ $? -eq 1 ] || broken=$((broken + 1))
done
(cd "$dir" && "$parity_diff" accept --force --quiet --reason r --oracle "$(port_of 1)" > /dev/null 2>&1) || fail "the accept after the killed writers failed (exit status $?)"
entries=$(grep -c '^case ' "$dir/parity-ledger.txt" || true)
echo "  $kills stopped writers (SIGKILL within ${span} ms; $limited over the file size limit while writing, exit 2): temporary ledgers left after them: $leftovers ($limited_left by the limited ones), unreadable ledgers: $broken; after the next accept: $(temporaries) temporaries, $entries entries"
[ "$broken" -eq 0 ] || fail "a stopped accept left a ledger that does not read"
[ "$limited" -eq $(( kills / 2 )) ] || fail "$limited of $(( kills / 2 )) writers ran into the file size limit: the probe tested nothing"
[ "$limited_left" -eq 0 ] || fail "a writer over the file size limit left its temporary ledger"
[ "$(temporaries)" -eq 0 ] || fail "the next accept did not remove what killed ones left"
[ "$entries" -eq 20000 ] || fail "the ledger holds $entries entries, not 20000"
[ ! -e "$dir/.parity-ledger.txt.lock" ] || fail "the lock file was left behind"

echo "== parity-diff: ports that leave daemons holding their stdout"
# Each port run double-forks two daemons out of its process group (one
# ignores SIGTERM), then prints our oracle's results and exits. Every
# file must be judged on its output, warned of with the daemons' pids,
# never called a timeout, and no daemon may outlive the run.
cargo build --release --quiet --bin parity-diff
diff_bin=$(pwd)/target/release/parity-diff
files=12 fuzz_count=2000; [ $short = 1 ] && files=4 fuzz_count=400
dir=$(fresh daemons)
mkdir -p "$dir/cases" "$dir/golden"
for n in $(seq "$files"); do
  printf '[{"op":"readyTimeoutMs","configured":%d}]' "$n" > "$dir/cases/f$n.json"
  printf '[\n{"defined":true,"value":1000}\n]\n' > "$dir/golden/f$n.json"
done
port="( setsid sleep 3137 & ); ( setsid sh -c \"trap '' TERM; sleep 3137\" & ); exec '$oracle'"
daemons() { grep -las '[s]leep.3137' /proc/[0-9]*/cmdline | wc -l; }
start=$(date +%s%N)
code=0
(cd "$dir" && "$diff_bin" run --oracle "$port" --timeout 2 --kill-grace 1 --jobs 2 > "$root/out" 2> "$root/err") || code=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
warned=$(grep -c '^WARNING f[0-9]*\.json: the oracle exited, but 3 processes it started kept its output open (pids ' "$root/out" || true)
echo "  run: $files files in $took ms, exit $code, $warned warned of, $(daemons) daemons left"
[ "$code" -eq 0 ] || fail "run with daemons exited $code: $(tail -n 3 "$root/out")"
[ "$warned" -eq "$files" ] || fail "run warned of $warned of $files files: $(head -n 3 "$root/out")"
! grep -q 'did not finish' "$root/out" "$root/err" || fail "a daemon was called a timeout"
# Each file: 1 s of grace after the exit, 1 s after SIGTERM; two at once.
[ "$took" -lt $(( files * 2000 / 2 + 5000 )) ] || fail "run with daemons took $took ms"
[ "$(daemons)" -eq 0 ] || fail "$(daemons) daemons outlived the run"
code=0
(cd "$dir" && "$diff_bin" fuzz --left "$port" --right "'$oracle'" --generator "'${diff_bin%/*}/worker-spawn-oracle' generate" --op readyTimeoutMs --seed 1 --count "$fuzz_count" --batch-size 200 \
  --timeout 2 --kill-grace 1 --jobs 2 --out "$dir/out" > "$root/out" 2> "$root/err") || code=$?
warned=$(grep -c '^parity-diff: warning: the oracle exited, but ' "$root/err" || true)
echo "  fuzz: $fuzz_count cases, exit $code, $warned batch runs warned of, $(daemons) daemons left"
[ "$code" -eq 0 ] || fail "fuzz with daemons exited $code: $(tail -n 1 "$root/out")"
[ "$warned" -ge $(( fuzz_count / 200 )) ] || fail "fuzz warned of $warned batch runs"
[ "$(daemons)" -eq 0 ] || fail "$(daemons) daemons outlived fuzz"

finish
