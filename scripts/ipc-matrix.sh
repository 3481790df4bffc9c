#!/usr/bin/env bash
# The cross-implementation matrix of contract section 5: runs ipc-parent x
# ipc-child for every pairing of this oracle (Rust) and the reference
# (JavaScript, under node), prints each output, and diffs them. Exit 0 when
# all four outputs are byte-identical, 1 when they differ or a run fails.
#
# Usage: scripts/ipc-matrix.sh [REFERENCE_SCRIPT]
#   REFERENCE_SCRIPT defaults to the script named by $REFERENCE_ORACLE
#   (e.g. "node /abs/worker-spawn-oracle.mjs"), then to
#   ../shared/reference/worker-spawn-oracle.mjs beside the repository.
# Environment: ORACLE (default: target/debug/worker-spawn-oracle, built if
# missing), LIMIT (seconds allowed per pairing, default 20).
set -euo pipefail
cd "$(dirname "$0")/.."

reference="${1:-}"
if [ -z "$reference" ] && [ -n "${REFERENCE_ORACLE:-}" ]; then
  for word in $REFERENCE_ORACLE; do
    case "$word" in *.mjs | *.js | *.cjs) reference="$word" ;; esac
  done
fi
reference="${reference:-../shared/reference/worker-spawn-oracle.mjs}"
if [ ! -f "$reference" ]; then
  echo "ipc-matrix: no reference script at $reference" >&2
  exit 2
fi
reference="$(cd "$(dirname "$reference")" && pwd)/$(basename "$reference")"
command -v node >/dev/null 2>&1 || { echo "ipc-matrix: node is not installed" >&2; exit 2; }

oracle="${ORACLE:-target/debug/worker-spawn-oracle}"
if [ ! -x "$oracle" ]; then
  cargo build --quiet --bin worker-spawn-oracle
fi
oracle="$(cd "$(dirname "$oracle")" && pwd)/$(basename "$oracle")"
limit="${LIMIT:-20}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

parent_cmd() {
  case "$1" in
    rust) echo "$oracle ipc-parent --timeout 10" ;;
    js) echo "node $reference ipc-parent" ;;
  esac
}
child_cmd() {
  case "$1" in
    rust) echo "$oracle ipc-child t-matrix" ;;
    js) echo "$reference ipc-child t-matrix" ;;
  esac
}

status=0
names=()
for pairing in js:js rust:rust rust:js js:rust; do
  parent="${pairing%%:*}" child="${pairing##*:}"
  name="${parent}-parent_${child}-child"
  names+=("$name")
  # timeout signals its whole process group, so a pairing past the limit
  # dies with what it started (the reference's parent has no timeout of
  # its own; ours kills its child's group when signalled).
  # shellcheck disable=SC2046
  if timeout --kill-after=2 "$limit" $(parent_cmd "$parent") $(child_cmd "$child") \
      >"$work/$name.out" 2>"$work/$name.err"; then
    code=0
  else
    code=$?
  fi
  printf '== %s (exit %s)\n' "$name" "$code"
  cat "$work/$name.out"
  printf '\n'
  if [ -s "$work/$name.err" ]; then
    printf -- '-- stderr:\n'
    cat "$work/$name.err"
  fi
  if [ "$code" -ne 0 ] || [ -s "$work/$name.err" ] || [ ! -s "$work/$name.out" ]; then
    status=1
  fi
done

# One element per line, so that a difference is easy to see.
lines() { sed -e 's/},{/},\n{/g' -e 's/],"/],\n"/g' "$1"; }
golden="${names[0]}"
for name in "${names[@]:1}"; do
  if ! cmp -s "$work/$golden.out" "$work/$name.out"; then
    status=1
    printf '\n== %s differs from %s\n' "$name" "$golden"
    diff -u --label "$golden" --label "$name" <(lines "$work/$golden.out") <(lines "$work/$name.out") || true
  fi
done

if [ "$status" -eq 0 ]; then
  printf '\nall four pairings printed the same %s bytes\n' "$(wc -c <"$work/$golden.out" | tr -d ' ')"
else
  printf '\nthe pairings differ or failed\n'
fi
exit "$status"
