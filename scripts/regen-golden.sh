#!/usr/bin/env bash
# Regenerates the goldens from the reference implementation:
#
#   REFERENCE_ORACLE='node ../shared/reference/worker-spawn-oracle.mjs' scripts/regen-golden.sh
#
# runs `parity-diff bless --reference "$REFERENCE_ORACLE"` in the repository
# root (cases/ -> golden/), so a relative path in the command is relative
# to the root: ../shared is the contract's directory beside the checkout. Extra arguments go to bless (--check, --filter
# 'ipc/*', --cases DIR --golden DIR, --force in CI). PARITY_DIFF names a
# parity-diff binary to use instead of building one.
set -euo pipefail
if [ -z "${REFERENCE_ORACLE:-}" ]; then
    echo "regen-golden: set REFERENCE_ORACLE to the reference oracle's command," >&2
    echo "  e.g. REFERENCE_ORACLE='node ../shared/reference/worker-spawn-oracle.mjs' $0" >&2
    echo "  (a relative path is relative to the repository root, where it runs)" >&2
    exit 2
fi
cd "$(dirname "$0")/.."
if [ -z "${PARITY_DIFF:-}" ]; then
    cargo build --quiet --release --bin parity-diff
    PARITY_DIFF=target/release/parity-diff
fi
exec "$PARITY_DIFF" bless --reference "$REFERENCE_ORACLE" "$@"
