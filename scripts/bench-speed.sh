#!/usr/bin/env bash
# What parity-diff costs around the oracle (issue 23), as medians of
# paired runs: each round runs every contestant once, in turn (each
# round starting one further on), so that machine noise hits them alike,
# and each ratio is the median of the rounds' own ratios.
#
#   scripts/bench-speed.sh [CASES] [RUNS]     # default 200000 light cases, 5 rounds
#
# On one case file of CASES light cases (examples/bench_batch/, the
# light batch of scripts/bench.sh), its golden blessed with our own
# oracle (target/release/worker-spawn-oracle):
#   oracle      worker-spawn-oracle < l.json > /dev/null
#   piped       worker-spawn-oracle < l.json | cat > /dev/null (what any
#               reader of its output pays: the pipe; not a target)
#   run -j1     parity-diff run --jobs 1 --oracle worker-spawn-oracle (a corpus of l.json alone)
#   run -j2     the same with --jobs 2
#   compare     parity-diff compare RESULTS GOLDEN
#   compare -c  parity-diff compare RESULTS GOLDEN --cases l.json
# and on the bundled corpus (the root parity.toml's suite):
#   loop        for f in cases/*.json; do worker-spawn-oracle < $f > /dev/null; done
#   corpus      parity-diff run --jobs 1
# The issue's targets: run -j1 ≤ 1.3× oracle, run -j2 ≤ 1.1× oracle,
# compare -c ≤ 2× compare, corpus ≤ 1.2× loop. The script prints them and
# does not fail on them (a shared machine's figures are for reading).
#
# Reports, byte for byte: REPORTS_SAVE=DIR writes the JSON (and human)
# reports of the bundled corpus, of the bench file and of the bench file
# against results with divergences into DIR; REPORTS_CHECK=DIR writes
# them again and diffs them with DIR's, exiting 1 when one differs. Run
# it with REPORTS_SAVE before a change and REPORTS_CHECK after.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-common.sh

cases=${1:-200000}
runs=${2:-5}

echo "building (release)..." >&2
cargo build --release --quiet --bins --examples
bin=$PWD/target/release
oracle=$bin/worker-spawn-oracle
diff=$bin/parity-diff

work=$(mktemp -d "${TMPDIR:-/tmp}/wso-bench-speed.XXXXXX")
trap 'rm -rf "$work"' EXIT
light=$work/light
mkdir -p "$light/cases"
"$bin/examples/bench_batch" light "$cases" > "$light/cases/l.json"
(cd "$light" && "$diff" bless --no-config --reference "$oracle" --cases cases --golden golden -q > /dev/null)
"$oracle" < "$light/cases/l.json" > "$work/results.json"
# Results with divergences: stillborn attempts change (different), the
# ready timeout's message changes (different, a string) and the protocol
# version is written 1.0 (the same value in other bytes).
edits='s/"attempts":4}/"attempts":5}/g; s/within 30000ms/within 3e4ms/g; s/"protocolVersion":1}/"protocolVersion":1.0}/g'
sed -e "$edits" "$work/results.json" > "$work/diverging.json"
printf '#!/bin/sh\nexec sed -e %s\n' "'$edits'" > "$work/port.sh"
chmod +x "$work/port.sh"
diverging_port="'$oracle' | '$work/port.sh'"

# The contestants: each a function whose stdout and stderr are dropped.
c_oracle() { "$oracle" < "$light/cases/l.json"; }
c_piped() { "$oracle" < "$light/cases/l.json" | cat; }
c_run1() { "$diff" run --no-config -q --jobs 1 --oracle "$oracle" --cases "$light/cases" --golden "$light/golden"; }
c_run2() { "$diff" run --no-config -q --jobs 2 --oracle "$oracle" --cases "$light/cases" --golden "$light/golden"; }
c_compare() { "$diff" compare -q "$work/results.json" "$light/golden/l.json"; }
c_compare_cases() { "$diff" compare -q "$work/results.json" "$light/golden/l.json" --cases "$light/cases/l.json"; }
c_loop() { for f in cases/*.json; do "$oracle" < "$f" > /dev/null; done; }
c_corpus() { "$diff" run -q --jobs 1; }
contestants=(oracle piped run1 run2 compare compare_cases loop corpus)

# Every contestant must succeed before it is timed (a failing run would
# measure nothing).
for name in "${contestants[@]}"; do
  if ! "c_$name" > /dev/null 2> "$work/err"; then
    echo "bench-speed: $name failed:" >&2
    cat "$work/err" >&2
    exit 2
  fi
done

echo "bench-speed: $(nproc) cores, $cases light cases ($(du -m "$light/cases/l.json" | cut -f1) MB), $runs rounds, load average $(load) before"
for name in "${contestants[@]}"; do : > "$work/$name.times"; done
# Each round starts one contestant further on, so that none always runs
# right after the same other one (run --jobs 2 after run --jobs 1 came
# out 0.1 slower that way, and 1.00x in pairs of their own).
count=${#contestants[@]}
for round in $(seq "$runs"); do
  for at in $(seq 0 $((count - 1))); do
    name=${contestants[$(((round + at) % count))]}
    start=$(now)
    "c_$name" > /dev/null 2>&1
    end=$(now)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f\n", e - s }' >> "$work/$name.times"
  done
done
echo "bench-speed: load average $(load) after"

med() { median < "$work/$1.times"; }
# ratio A B: the median over the rounds of A's time over B's.
ratios() { paste "$work/$1.times" "$work/$2.times" | awk '{ printf "%.4f\n", $1 / $2 }'; }
ratio() { ratios "$1" "$2" | median; }
# The middle half of the rounds' ratios: how far one median may be from
# another run's on this machine.
spread() { ratios "$1" "$2" | quartiles; }
row() { printf '%-40s %8.3f s   %5.2f× %-14s target ≤ %s×   (middle half %s)\n' "$1" "$(med "$2")" "$(ratio "$2" "$3")" "$3" "$4" "$(spread "$2" "$3")"; }
printf '%-40s %8.3f s\n' "worker-spawn-oracle < l.json" "$(med oracle)"
printf '%-40s %8.3f s   %5.2f× %-14s (the pipe alone)\n' "worker-spawn-oracle < l.json | cat" "$(med piped)" "$(ratio piped oracle)" oracle
row "run --jobs 1 (l.json alone)" run1 oracle 1.3
row "run --jobs 2 (l.json alone)" run2 oracle 1.1
printf '%-40s %8.3f s\n' "compare results golden" "$(med compare)"
row "compare results golden --cases l.json" compare_cases compare 2
printf '%-40s %8.3f s\n' "bare loop over cases/*.json" "$(med loop)"
row "run --jobs 1 (the bundled corpus)" corpus loop 1.2

# The reports, for REPORTS_SAVE / REPORTS_CHECK.
reports() {
  local out=$1
  mkdir -p "$out"
  for format in json human; do
    "$diff" run --jobs 2 --format "$format" > "$out/corpus.$format" || true
    (cd "$light" && "$diff" run --no-config --jobs 1 --oracle "$oracle" --format "$format" > "$out/light.$format") || true
    (cd "$light" && "$diff" run --no-config --jobs 2 --oracle "$diverging_port" --format "$format" > "$out/light-diverging.$format") || true
    "$diff" compare --format "$format" "$work/diverging.json" "$light/golden/l.json" --cases "$light/cases/l.json" > "$out/compare-diverging.$format" || true
    "$diff" compare --format "$format" "$work/diverging.json" "$light/golden/l.json" > "$out/compare-diverging-bare.$format" || true
  done
  # Paths of the temporary directory vary between runs: they are not the
  # reports' to keep.
  sed -i "s#$work#WORK#g" "$out"/*
}
if [ -n "${REPORTS_SAVE:-}" ]; then
  reports "$REPORTS_SAVE"
  echo "bench-speed: reports saved in $REPORTS_SAVE"
fi
if [ -n "${REPORTS_CHECK:-}" ]; then
  reports "$work/now"
  if diff -r "$REPORTS_CHECK" "$work/now" > "$work/report.diff"; then
    echo "bench-speed: every report is byte-identical to $REPORTS_CHECK's ($(ls "$work/now" | wc -l) reports)"
  else
    echo "bench-speed: reports differ from $REPORTS_CHECK's:" >&2
    head -n 40 "$work/report.diff" >&2
    exit 1
  fi
fi
