#!/bin/sh
# A batch oracle for parity-diff (written by `parity-diff init`), in
# POSIX sh and awk, for a port that is a command line: call it once per
# case in `answer` below.
#
# The protocol, all of it:
# - parity-diff runs this command once per case file (`sh -c CMD`, in the
#   directory of parity.toml) and writes the file's bytes to its stdin: a
#   JSON array of cases. A case is any JSON value; by convention an object
#   whose `name` tells it apart within its file and whose `op` names what
#   it exercises (reports, rules and `fuzz` group by op).
# - It prints ONE JSON array on stdout: one result per case, in the cases'
#   order. A result is any JSON value. How the array is laid out does not
#   matter unless the suite says `framing = "exact"`.
# - A case whose operation fails is still a result: by default
#   {"threw": true, "message": "..."}. Goldens hold the reference's
#   messages, so the port must throw the same ones.
# - Exit 0. A non-zero exit, a crash or anything but one array on stdout
#   fails the batch; parity-diff then finds the case to blame by running
#   smaller batches. What it writes on stderr is shown with the failure.
# - Be a function of the input: no clock, no random numbers, no host paths
#   in results, or the goldens will not hold.
#
# The same file serves as the reference until parity.toml's `reference`
# names yours.
set -eu

# The result of one case, whose JSON text is $1. This example reads its
# members with sed, which is enough for the example's flat cases (no
# escapes in strings); call your program here instead.
answer() {
  member() { printf '%s' "$1" | sed -n "s/.*\"$2\" *: *\"\{0,1\}\([^\",}]*\).*/\1/p"; }
  op=$(member "$1" op)
  case "$op" in
    add) awk -v a="$(member "$1" a)" -v b="$(member "$1" b)" 'BEGIN { printf "{\"sum\":%.17g}", a + b }' ;;
    upper) printf '"%s"' "$(member "$1" text | tr '[:lower:]' '[:upper:]')" ;;
    *) printf '{"threw":true,"message":"unknown op: %s"}' "$op" ;;
  esac
}

# The array's elements, one per line: awk walks the text once, keeping
# track of strings and nesting, and breaks it at the top level's commas.
elements() {
  awk 'BEGIN { RS = "\001" } {
    depth = 0; quoted = 0; escaped = 0; element = ""
    for (i = 1; i <= length($0); i++) {
      c = substr($0, i, 1)
      if (quoted) {
        element = element c
        if (escaped) escaped = 0; else if (c == "\\") escaped = 1; else if (c == "\"") quoted = 0
      } else if (c == "\"") { quoted = 1; element = element c }
      else if (c == "[" || c == "{") { if (depth++ > 0) element = element c }
      else if (c == "]" || c == "}") { if (--depth > 0) element = element c; else if (element != "") print element }
      else if (c == "," && depth == 1) { print element; element = "" }
      else if (c !~ /[ \t\r\n]/) element = element c
    }
  }'
}

printf '['
separator=''
elements | while IFS= read -r case; do
  printf '%s' "$separator"
  answer "$case"
  separator=','
done
printf ']'
