#!/usr/bin/env python3
"""Convert jq's tests/jq.test into a parity-diff corpus (JSON array of cases).

Parsing follows jq's own runner (src/jq_test.c): blank lines and lines
starting with '#' are skipped between tests; a '%%FAIL' line marks the next
program as one that must fail; a normal test is program, input, expected
output lines up to the next blank or '#' line; a failing test is program,
then the expected error line(s).

usage: convert.py jq.test OUT.json [--per-file N]
  (with --per-file N, writes OUT-001.json, OUT-002.json, ... of N cases each)
"""
import json
import sys


def skip(line):
    return line.strip() == "" or line.startswith("#")


def parse(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    cases, i, n = [], 0, len(lines)
    fail = False
    while i < n:
        line = lines[i]
        if skip(line):
            i += 1
            continue
        if line.startswith("%%FAIL"):
            fail = True
            i += 1
            continue
        lineno, program = i + 1, line
        i += 1
        if fail:
            expected = []
            while i < n and not skip(lines[i]):
                expected.append(lines[i])
                i += 1
            cases.append({"line": lineno, "program": program, "input": "null",
                          "fail": True, "expected": expected})
            fail = False
            continue
        if i >= n:
            break
        inp = lines[i]
        i += 1
        expected = []
        while i < n and not skip(lines[i]):
            expected.append(lines[i])
            i += 1
        cases.append({"line": lineno, "program": program, "input": inp,
                      "expected": expected})
    return cases


def to_case(c):
    case = {"name": "L%d: %s" % (c["line"], c["program"][:60]),
            "program": c["program"], "input": c["input"]}
    if c.get("fail"):
        case["fail"] = True
    return case


def main():
    src, out = sys.argv[1], sys.argv[2]
    per = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--per-file" else 0
    cases = [to_case(c) for c in parse(src)]
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "duplicate names"
    if per:
        stem = out[:-5] if out.endswith(".json") else out
        for k in range(0, len(cases), per):
            with open("%s-%03d.json" % (stem, k // per + 1), "w") as f:
                json.dump(cases[k:k + per], f, indent=1, ensure_ascii=False)
                f.write("\n")
    else:
        with open(out, "w") as f:
            json.dump(cases, f, indent=1, ensure_ascii=False)
            f.write("\n")
    nfail = sum(1 for c in cases if c.get("fail"))
    print("%d cases (%d %%FAIL)" % (len(cases), nfail), file=sys.stderr)


if __name__ == "__main__":
    main()
