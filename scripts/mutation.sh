#!/usr/bin/env bash
# The corpus's mutation score: how many small changes to the reference
# the bundled cases notice. Stryker (@stryker-mutator/core, pinned with
# every dependency in scripts/mutation/package-lock.json) mutates a copy
# of the reference (../shared is read-only) with its command test runner;
# for each mutant, scripts/mutation/test-mutant.sh runs the whole corpus
# through it and judges the results with `parity-diff compare`'s JSON
# report against the goldens. A mutant that cannot load, or that was not
# judged, is an error, never a kill. Not part of CI: it takes about half
# an hour on 2 cores.
#
#   scripts/mutation.sh                   # every mutant of the reference
#   scripts/mutation.sh --mutate 600-630,700-710  # only those lines' mutants
#   scripts/mutation.sh --keep DIR        # work in DIR, and keep it
#
# Needs node (20 or newer), npm and the npm registry, and cargo. Prints
# killed, survived, timed-out and error counts, the score, and every
# survivor with its line and change, telling apart those in spans that no
# case runs (`parity-diff coverage`, coverage-allowlist.txt).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
reference=${MUTATION_REFERENCE:-$repo/../shared/reference/worker-spawn-oracle.mjs}
mutate=""
work=""
while [ $# -gt 0 ]; do
  case "$1" in
    --mutate) mutate=$(printf '%s' "$2" | sed 's/[^,]*/worker-spawn-oracle.mjs:&/g'); shift 2 ;;
    --keep) work="$2"; shift 2 ;;
    *) echo "usage: scripts/mutation.sh [--mutate FROM-TO[,FROM-TO…]] [--keep DIR]" >&2; exit 2 ;;
  esac
done
[ -f "$reference" ] || { echo "mutation: no reference at $reference" >&2; exit 2; }
command -v npm >/dev/null || { echo "mutation: npm is missing (it installs Stryker)" >&2; exit 2; }
if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/parity-mutation-XXXXXX")
  trap 'rm -rf "$work"' EXIT
else
  mkdir -p "$work"
fi

echo "mutation: building parity-diff" >&2
cargo build --release --locked --quiet --bin parity-diff --manifest-path "$repo/Cargo.toml"
parity_diff="$repo/target/release/parity-diff"

echo "mutation: installing Stryker in $work" >&2
for file in package.json package-lock.json stryker.config.json test-mutant.sh combine.mjs summarize.mjs; do
  cp "$repo/scripts/mutation/$file" "$work/"
done
cp "$reference" "$work/worker-spawn-oracle.mjs"
chmod u+w "$work/worker-spawn-oracle.mjs"
(cd "$work" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)

node "$work/combine.mjs" "$repo/cases" "$repo/golden" "$work/corpus" >&2
echo "mutation: which spans no case runs (parity-diff coverage)" >&2
"$parity_diff" coverage --reference "node $reference" --cases "$repo/cases" --format json \
  > "$work/coverage.json" || true

rm -rf "$work/verdicts" "$work/reports"
mkdir -p "$work/verdicts"
echo "mutation: running Stryker (log: $work/stryker.log)" >&2
started=$SECONDS
(
  cd "$work"
  export MUTATION_VERDICTS="$work/verdicts" MUTATION_CORPUS="$work/corpus"
  export MUTATION_TIMEOUT=10 PARITY_DIFF="$parity_diff"
  if [ -n "$mutate" ]; then
    npx stryker run --mutate "$mutate"
  else
    npx stryker run
  fi
) > "$work/stryker.log" 2>&1 || { tail -20 "$work/stryker.log" >&2; exit 2; }
echo "mutation: Stryker took $((SECONDS - started)) s" >&2
node "$work/summarize.mjs" "$work/reports/mutation.json" "$work/verdicts" \
  "$work/coverage.json" "$work/worker-spawn-oracle.mjs"
