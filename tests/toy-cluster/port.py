"""The toy cluster's port, in progress: Python 3.

`sum` is done, numbers printed as JavaScript prints them. `length` has a
bug that the corpus does not show: it counts code points, not UTF-16
code units, so text beyond the Basic Multilingual Plane ("😀") is one
short. `keys` is not implemented yet (the ledger accepts that).
"""

import decimal
import json
import math
import sys


def js_number(x):
    """Number.prototype.toString, as JSON.stringify writes a number."""
    if math.isnan(x) or math.isinf(x):
        return "null"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    # repr gives the shortest digits that read back as x, as JavaScript
    # chooses them; only the layout differs.
    parts = decimal.Decimal(repr(abs(x))).normalize().as_tuple()
    digits = "".join(map(str, parts.digits))
    k = len(digits)
    n = parts.exponent + k
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    e = n - 1
    exponent = ("+" if e >= 0 else "-") + str(abs(e))
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return sign + mantissa + "e" + exponent


def value(number):
    return '{"value":' + js_number(number) + "}"


def threw(message):
    return '{"threw":true,"message":' + json.dumps(message) + "}"


def is_number(x):
    # Every JSON number is read as a float (parse_int=float), as a double.
    return isinstance(x, float)


def length(case):
    text = case.get("text")
    if not isinstance(text, str):
        return threw("text must be a string")
    return value(float(len(text)))  # the bug: code points, not code units


def total(case):
    values = case.get("values")
    if not isinstance(values, list) or not all(is_number(v) for v in values):
        return threw("values must be an array of numbers")
    result = 0.0
    for v in values:
        result += v
    return value(result)


OPS = {"length": length, "sum": total}


def answer(case):
    if not isinstance(case, dict):
        return threw("case must be a JSON object")
    op = case.get("op")
    if op == "keys":
        return threw("not implemented")
    if not isinstance(op, str) or op not in OPS:
        return threw("unknown op")
    return OPS[op](case)


def main():
    text = sys.stdin.buffer.read().decode("utf-8", "replace")
    try:
        cases = json.loads(text, parse_int=float)
    except ValueError as error:
        print(f"toy port: standard input is not JSON: {error}", file=sys.stderr)
        return 2
    if not isinstance(cases, list):
        print("toy port: standard input is not a JSON array", file=sys.stderr)
        return 2
    sys.stdout.write("[" + ",".join(answer(case) for case in cases) + "]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
