#!/usr/bin/env bash
# How much `parity-diff fuzz --grow` regains (issue 22's "done when"):
# with cases/liveness.json left out of a copy of the corpus, `fuzz --grow
# --op liveness --seed 1` with our generator, COUNT generated cases; the
# figure is the share of the reference code (UTF-16 code units) that
# liveness.json alone reached which the kept cases reach again.
#
#   scripts/grow-check.sh [COUNT]            (default: 20000)
#
# It is the test tests/grow_regain.rs (whose short version, 200 cases,
# runs in the full test command, docs/maintainers/building.md) with GROW_CHECK_COUNT=COUNT, built
# in release mode; it prints the test's one line and fails when the test
# does (less than 80% regained). REFERENCE_ORACLE defaults to the shared
# reference beside the repository.
set -euo pipefail
count=${1:-20000}
cd "$(dirname "$0")/.."
export REFERENCE_ORACLE=${REFERENCE_ORACLE:-node ../shared/reference/worker-spawn-oracle.mjs}
export GROW_CHECK_COUNT=$count
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The test runs target/release/parity-diff, beside the oracle binary.
cargo build --release --workspace --bins --quiet
if cargo test --release -p worker-spawn-oracle --test main -- --include-ignored --nocapture \
  --exact grow_regain::grow_regains_what_the_liveness_file_reached >"$log" 2>&1; then
  grep '^grow-check:' "$log"
else
  cat "$log" >&2
  exit 1
fi
