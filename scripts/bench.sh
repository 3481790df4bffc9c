#!/usr/bin/env bash
# Benchmarks the oracle against the reference and against a floor, side by
# side in one run, and checks the performance targets.
#
#   scripts/bench.sh              # full size: 1 000 000 light, 100 000 mixed
#   BENCH_SCALE=10 scripts/bench.sh   # a tenth of that, for a quick look
#
# The floor (examples/json_floor.rs) streams the same array through
# serde_json element by element and prints it back, doing nothing else:
# the physical limit of a JSON-in/JSON-out tool on this machine. Each
# measurement is the median of BENCH_RUNS runs (default 3), interleaved so
# that machine noise hits every contestant alike. The reference is
# REFERENCE_ORACLE, or node ../shared/reference/worker-spawn-oracle.mjs
# when it exists; without it, its rows are skipped.
#
# Exit status: 0 when every target is met (and our output is the
# reference's); 1 when a target is missed; 2 when our output differs from
# the reference's, whatever the timings.
set -euo pipefail
cd "$(dirname "$0")/.."

scale=${BENCH_SCALE:-1}
runs=${BENCH_RUNS:-3}
light_count=$((1000000 / scale))
mixed_count=$((100000 / scale))
work=$(mktemp -d "${TMPDIR:-/tmp}/wso-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

reference=${REFERENCE_ORACLE:-}
if [ -z "$reference" ] && [ -f ../shared/reference/worker-spawn-oracle.mjs ] && command -v node >/dev/null; then
  reference="node $(cd ../shared/reference && pwd)/worker-spawn-oracle.mjs"
fi

echo "building (release)..." >&2
cargo build --release --quiet --bins --examples
ours=./target/release/worker-spawn-oracle
floor=./target/release/examples/json_floor
./target/release/examples/bench_batch light "$light_count" > "$work/light.json"
./target/release/examples/bench_batch mixed "$mixed_count" > "$work/mixed.json"
./target/release/examples/bench_batch one > "$work/one.json"

# measure COMMAND INPUT: prints "wall_seconds peak_kib" of one run.
measure() {
  local command=$1 input=$2
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%e %M" -o "$work/time" sh -c "$command" < "$input" > "$work/out" 2>/dev/null
    cat "$work/time"
  else
    local start end
    start=$(date +%s%N)
    sh -c "$command" < "$input" > "$work/out" 2>/dev/null
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "%.3f 0\n", ns / 1e9 }'
  fi
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

declare -A wall peak sums
contestants=(floor ours)
[ -n "$reference" ] && contestants+=(reference)
command_of() {
  case $1 in
    floor) echo "$floor" ;;
    ours) echo "$ours" ;;
    reference) echo "$reference" ;;
  esac
}

for batch in light mixed; do
  for name in "${contestants[@]}"; do : > "$work/$batch.$name.walls"; : > "$work/$batch.$name.peaks"; done
  for _ in $(seq "$runs"); do
    for name in "${contestants[@]}"; do
      read -r seconds kib < <(measure "$(command_of "$name")" "$work/$batch.json")
      echo "$seconds" >> "$work/$batch.$name.walls"
      echo "$kib" >> "$work/$batch.$name.peaks"
      [ "$name" = floor ] || sums[$batch.$name]=$(sha256sum < "$work/out" | cut -c1-16)
    done
  done
  for name in "${contestants[@]}"; do
    wall[$batch.$name]=$(median < "$work/$batch.$name.walls")
    peak[$batch.$name]=$(median < "$work/$batch.$name.peaks")
  done
done

# One-case batches: the median of 21 runs, in milliseconds.
one_case_ms() {
  local command=$1 start end
  for _ in $(seq 21); do
    start=$(date +%s%N)
    sh -c "$command" < "$work/one.json" > /dev/null 2>&1
    end=$(date +%s%N)
    echo $(((end - start) / 1000))
  done | median | awk '{ printf "%.2f", $1 / 1000 }'
}

mb() { awk -v bytes="$(wc -c < "$1")" 'BEGIN { printf "%.1f", bytes / 1048576 }'; }
light_mb=$(mb "$work/light.json")
mixed_mb=$(mb "$work/mixed.json")

echo
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
echo "inputs: light $light_count cases ($light_mb MiB), mixed $mixed_count cases ($mixed_mb MiB); median of $runs runs"
echo
printf '| %-6s | %-9s | %8s | %11s | %7s | %9s | %8s |\n' batch oracle "wall s" "cases/s" "MB/s" "peak MiB" "× floor"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' -------- ----------- ---------- ------------- --------- ----------- ----------
for batch in light mixed; do
  count=$light_count; size=$light_mb
  [ "$batch" = mixed ] && { count=$mixed_count; size=$mixed_mb; }
  for name in "${contestants[@]}"; do
    awk -v b="$batch" -v n="$name" -v w="${wall[$batch.$name]}" -v f="${wall[$batch.floor]}" -v c="$count" -v s="$size" -v p="${peak[$batch.$name]}" \
      'BEGIN { w0 = (w > 0 ? w : 0.001); printf "| %-6s | %-9s | %8.2f | %11.0f | %7.1f | %9.1f | %8.2f |\n", b, n, w, c / w0, s / w0, p / 1024, w / (f > 0 ? f : 0.001) }'
  done
done
echo
ours_one=$(one_case_ms "$ours")
echo "one-case batch: ours ${ours_one} ms$( [ -n "$reference" ] && echo ", reference $(one_case_ms "$reference") ms")"

differs=0
if [ -n "$reference" ]; then
  for batch in light mixed; do
    if [ "${sums[$batch.ours]}" = "${sums[$batch.reference]}" ]; then
      echo "$batch: our output is byte-identical to the reference's"
    else
      echo "$batch: OUR OUTPUT DIFFERS FROM THE REFERENCE'S"
      differs=1
    fi
  done
else
  echo "no reference (set REFERENCE_ORACLE): outputs not compared"
fi

echo
status=0
check() {
  local label=$1 ok=$2
  if [ "$ok" = 1 ]; then echo "target met:    $label"; else echo "target missed: $label"; status=1; fi
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 0.001) }'; }
light_ratio=$(ratio "${wall[light.ours]}" "${wall[light.floor]}")
mixed_ratio=$(ratio "${wall[mixed.ours]}" "${wall[mixed.floor]}")
light_peak_mib=$(awk -v p="${peak[light.ours]}" 'BEGIN { printf "%.1f", p / 1024 }')
check "light batch at most 1.5x the floor (${light_ratio}x)" "$(awk -v r="$light_ratio" 'BEGIN { print (r <= 1.5) }')"
check "mixed batch at most 3x the floor (${mixed_ratio}x)" "$(awk -v r="$mixed_ratio" 'BEGIN { print (r <= 3) }')"
check "peak memory on the light batch under 64 MiB (${light_peak_mib} MiB)" "$(awk -v p="$light_peak_mib" 'BEGIN { print (p < 64) }')"
check "one-case batch under 5 ms (${ours_one} ms)" "$(awk -v t="$ours_one" 'BEGIN { print (t < 5) }')"
[ "$scale" = 1 ] || echo "(BENCH_SCALE=$scale: targets are defined at full size)"
if [ "$differs" = 1 ]; then
  echo "bench: our output differs from the reference's (see above)" >&2
  exit 2
fi
exit $status
