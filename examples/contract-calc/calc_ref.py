#!/usr/bin/env python3
"""The reference of the calc contract (docs/YOUR_CONTRACT.md).

Reads a JSON array of cases on stdin and prints a JSON array of results,
one per case, in order, with no white space and no trailing newline.
A case is {"name", "op", "args"}; a result is {"value": V}, or
{"error": MESSAGE} when the op fails.
"""
import json
import sys


def run(case):
    op, args = case.get("op"), case.get("args", [])
    if op == "add":
        # Python's integers are exact: 10**23 + 1 stays 100000000000000000000001.
        return {"value": sum(args)}
    if op == "div":
        if args[1] == 0:
            return {"error": "division by zero"}
        return {"value": args[0] / args[1]}
    if op == "nth":
        items, index = args
        if not 0 <= index < len(items):
            return {"error": f"index {index} out of bounds"}
        return {"value": items[index]}
    if op == "neg":
        return {"value": -args[0]}
    return {"error": f"unknown op {json.dumps(op)}"}


cases = json.load(sys.stdin)
sys.stdout.write(json.dumps([run(case) for case in cases], separators=(",", ":")))
