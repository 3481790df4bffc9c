#!/usr/bin/env bash
# Regenerates docs/report.png, the picture of the HTML report in the README and the book:
# the example partial port (examples/partial_port.py, three ops of the
# contract, one with a rounding bug) run over the bundled corpus, its
# `--format html` page shot by headless Chromium at 1280x1600.
#
#   scripts/html-screenshot.sh            # writes docs/report.png
#   CHROMIUM=/path/to/chrome scripts/html-screenshot.sh
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { printf 'html-screenshot: %s\n' "$*" >&2; exit 1; }

chromium=${CHROMIUM:-chromium}
command -v "$chromium" >/dev/null 2>&1 ||
  fail "$chromium is missing: install it (apt-get install -y chromium) or set CHROMIUM"
command -v python3 >/dev/null 2>&1 || fail "python3 is missing: the example port is a Python script"

cargo build --locked --release --quiet --bin parity-diff
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The port fails most of the corpus: exit status 1 is the expected one.
status=0
./target/release/parity-diff run --oracle 'python3 examples/partial_port.py' --format html \
  >"$work/report.html" || status=$?
[ "$status" -eq 1 ] || fail "parity-diff run exited $status, expected 1 (failures)"

# As root Chromium needs --no-sandbox; the network flags keep it quiet
# offline; a fresh profile keeps the shot independent of any other.
"$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --hide-scrollbars --user-data-dir="$work/profile" \
  --screenshot="$work/report.png" --window-size=1280,1600 \
  "file://$work/report.html" 2>"$work/chromium.log" ||
  { cat "$work/chromium.log" >&2; fail "chromium failed"; }
[ -s "$work/report.png" ] || { cat "$work/chromium.log" >&2; fail "chromium wrote no screenshot"; }
mv "$work/report.png" docs/report.png
echo "wrote docs/report.png ($(wc -c <docs/report.png) bytes)"
