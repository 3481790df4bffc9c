#!/usr/bin/env python3
"""Batch oracle: run a jq-like binary over a JSON array of cases.

usage: oracle.py BIN  < cases.json  > results.json

Each case {"program": P, "input": I} runs `BIN -c P` with I on stdin
(timeout 5 s). A program that starts with '-' gets one leading space so
that it is not read as an option (the same program to jq's parser).
Result per case, in order:
  exit 0        -> "[" + ",".join(non-empty output lines) + "]" as written
                   (kept raw, numbers keep their spelling), or
                   {"raw": stdout} when that text is not valid JSON
  nonzero/timeout -> {"threw": true, "message": stderr stripped[:300]}
                   ({"threw": true, "message": "timeout"} on timeout)
"""
import json
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

TIMEOUT = 5


def run_one(binary, case):
    program = case.get("program", "")
    if program.startswith("-"):
        program = " " + program
    try:
        p = subprocess.run([binary, "-c", program],
                           input=case.get("input", "null").encode("utf-8"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return json.dumps({"threw": True, "message": "timeout"})
    out = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        msg = p.stderr.decode("utf-8", "replace").strip()[:300]
        return json.dumps({"threw": True, "message": msg}, ensure_ascii=False)
    text = "[" + ",".join(l for l in out.split("\n") if l.strip()) + "]"
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return json.dumps({"raw": out}, ensure_ascii=False)
    return text


def main():
    sys.setrecursionlimit(100000)  # deep but valid outputs stay values
    threading.stack_size(256 * 1024 * 1024)
    binary = sys.argv[1]
    cases = json.load(sys.stdin)
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda c: run_one(binary, c), cases))
    sys.stdout.write("[" + ",\n".join(results) + "]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
