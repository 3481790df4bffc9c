#!/usr/bin/env python3
"""A port of the calc contract, with the differences a port has: its
numbers are doubles, it lacks an op, and it returns where the reference
fails (docs/YOUR_CONTRACT.md walks through each)."""
import json
import sys


def run(case):
    op, args = case.get("op"), case.get("args", [])
    if op == "add":
        # Doubles: 10**23 + 1 is written 1e+23, and 1 + 2 is 3.0.
        return {"value": float(sum(args))}
    if op == "div":
        if args[1] == 0:
            return {"value": None}
        return {"value": args[0] / args[1]}
    if op == "nth":
        items, index = args
        if not 0 <= index < len(items):
            return {"error": f"index {index} out of bounds"}
        return {"value": items[index]}
    if op == "neg":
        return {"error": "not implemented: neg"}
    return {"error": f"unknown op {json.dumps(op)}"}


cases = json.load(sys.stdin)
sys.stdout.write(json.dumps([run(case) for case in cases], separators=(",", ":")))
