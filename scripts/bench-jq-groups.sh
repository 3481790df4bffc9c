#!/usr/bin/env bash
# Groups by cause on a contract we never wrote for (issue 39): jq's own
# test suite (tests/jq.test of jqlang/jq, 550 cases) with jq as the
# reference and jaq as the port, each behind scripts/jq-groups/oracle.py.
# Prints the failing cases and the failure groups two ways: with each
# thrown message its own group (as before messages were masked), and as
# the report groups them (by cause). Target: the second at most half the
# first; exits 1 when missed.
#
# Needs python3, jq (Debian: apt-get install jq; the figures in
# docs/PERFORMANCE.md are jq 1.6), jaq (JAQ=path, else `cargo install
# --locked jaq --version 2.3.0` into a cache), and jq.test (JQ_TEST=path,
# else downloaded from GitHub at the commit below).
#
# Usage: scripts/bench-jq-groups.sh   (JQ=path JAQ=path JQ_TEST=path)
set -euo pipefail
cd "$(dirname "$0")/.."
commit=579e6f76cffd7643ba4002a2c3618a5ea710589a
jq=${JQ:-$(command -v jq)}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/parity-diff-bench
if [ -z "${JAQ:-}" ]; then
    JAQ=$cache/jaq-2.3.0/bin/jaq
    [ -x "$JAQ" ] || cargo install --locked --quiet jaq --version 2.3.0 --root "$cache/jaq-2.3.0"
fi
if [ -z "${JQ_TEST:-}" ]; then
    JQ_TEST=$cache/jq-$commit.test
    [ -f "$JQ_TEST" ] || curl -fsSL -o "$JQ_TEST" \
        "https://raw.githubusercontent.com/jqlang/jq/$commit/tests/jq.test"
fi
cargo build --release --quiet -p parity-diff
bin=$PWD/target/release/parity-diff
here=$PWD/scripts/jq-groups
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/cases"
python3 "$here/convert.py" "$JQ_TEST" "$work/cases/jq-suite.json" --per-file 50
cat > "$work/parity.toml" <<TOML
[suite.jq]
cases = "cases"
reference = "python3 '$here/oracle.py' '$jq'"
oracle = "python3 '$here/oracle.py' '$JAQ'"
TOML
cd "$work"
"$bin" bless > /dev/null
"$bin" run --format json > report.json || true
read -r failing by_message by_cause < <(python3 "$here/groups.py" report.json)
echo "bench-jq-groups: $("$jq" --version) against jaq $("$JAQ" --version | cut -d' ' -f2), $(ls cases | wc -l) files"
echo "  failing cases:                    $failing"
echo "  groups, each message its own:     $by_message"
echo "  groups by cause (the report's):   $by_cause ($(awk -v a="$by_cause" -v b="$by_message" 'BEGIN { printf "%.2f", a / b }') of the first; target at most 0.50)"
awk -v a="$by_cause" -v b="$by_message" 'BEGIN { exit !(a <= b / 2) }' ||
    { echo "bench-jq-groups: MISSED: groups fall by less than half"; exit 1; }
