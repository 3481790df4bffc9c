#!/usr/bin/env bash
# Peak memory of parity-diff on a million cases (issue 13: at most 128 MiB
# each): compare (with and without --cases), run, merge and delta, in the
# human and JSON formats (delta: human and Markdown), every tenth case
# failing in a failure group of its own.
#
#   scripts/bench-memory.sh [ELEMENTS]      (default: 1000000)
#
# It runs crates/parity-diff/tests/memory.rs on the release build: the test writes
# the inputs (ELEMENTS unpadded cases, and a fifth as many), measures each
# command's peak resident set with wait4(2) (parity-diff's own and that of
# the oracle it waited for, `cat`), prints a table, and fails when a peak
# passes 128 MiB or grows with the inputs. The exit status is the test's:
# non-zero when a target is missed. Needs no tool beyond cargo; the inputs
# (about 45 MB per file at a million) go to the temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
elements=${1:-1000000}
PARITY_DIFF_MEMORY_ELEMENTS=$elements PARITY_DIFF_MEMORY_PAD=0 \
    cargo test --release --quiet -p parity-diff --test main memory:: -- --nocapture --test-threads 1
