#!/bin/sh
# One test run of scripts/mutation.sh. Stryker's command runner starts it
# in its sandbox, the mutant named by __STRYKER_ACTIVE_MUTANT__ (none on
# the first run, which must pass). The whole corpus (joined into one case
# file by combine.mjs, so one Node start per mutant) goes through the
# mutant, and `parity-diff compare` judges its results against the
# goldens: the verdict is read from parity-diff's JSON report, never from
# an exit status alone. It is written to $MUTATION_VERDICTS/<mutant>,
# which mutation.sh counts from: Stryker itself tells only a pass from a
# failure, and would count a mutant that cannot even load as killed.
set -u
mutant=${__STRYKER_ACTIVE_MUTANT__:-none}
verdict="$MUTATION_VERDICTS/$mutant"
corpus="$MUTATION_CORPUS"
results="$verdict.results"
report="$verdict.report"
trap 'rm -f "$results" "$report"' EXIT
timeout "$MUTATION_TIMEOUT" node worker-spawn-oracle.mjs < "$corpus/cases/corpus.json" > "$results" 2>/dev/null
status=$?
if [ "$status" -eq 124 ]; then
  echo "timeout" > "$verdict"
  exit 1
fi
if [ "$status" -ne 0 ]; then
  # Crashed on load (it cannot answer the empty batch either), or a case
  # made it fail, which is a kill.
  if [ "$(printf '[]' | node worker-spawn-oracle.mjs 2>/dev/null)" != "[]" ]; then
    echo "error: the mutant does not load (it cannot answer [])" > "$verdict"
    exit 3
  fi
  echo "killed: the mutant exited with status $status on the corpus" > "$verdict"
  exit 1
fi
"$PARITY_DIFF" compare "$results" "$corpus/golden/corpus.json" \
  --cases "$corpus/cases/corpus.json" --format json > "$report" 2>/dev/null
# The report's last member: "summary":{"passed":N,"failed":N,…,"errors":N,…}.
summary=$(tr -d '\n' < "$report" | sed -n 's/.*"summary":{\([^}]*\)}.*/\1/p')
failed=$(printf '%s' "$summary" | sed -n 's/.*"failed":\([0-9]*\).*/\1/p')
errors=$(printf '%s' "$summary" | sed -n 's/.*"errors":\([0-9]*\).*/\1/p')
if [ -z "$failed" ] || [ -z "$errors" ]; then
  echo "error: parity-diff wrote no report" > "$verdict"
  exit 3
fi
if [ "$failed" -eq 0 ] && [ "$errors" -eq 0 ]; then
  echo "survived" > "$verdict"
  exit 0
fi
signature=$(tr -d '\n' < "$report" | sed -n 's/.*"groups":\[{"signature":"\(\([^"\\]\|\\.\)*\)".*/\1/p')
echo "killed: $failed cases failed, the first group: $signature" > "$verdict"
exit 1
