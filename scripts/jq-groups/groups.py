#!/usr/bin/env python3
"""Failure groups of a `parity-diff run --format json` report, counted two
ways: as the report groups them (each thrown message by its cause), and
as they would group with each thrown message its own (its first 80
characters, as signatures quoted it before messages were masked).

usage: groups.py REPORT.json
"""
import json
import sys


def main():
    report = json.load(open(sys.argv[1]))
    by_cause, by_message, failing = set(), set(), 0
    for file in report["files"]:
        for case in file["cases"]:
            signature = case.get("signature")
            if case.get("passed") or not signature:
                continue
            failing += 1
            key = (signature["op"], signature["kind"], signature["text"])
            by_cause.add(key)
            if signature["kind"] == "threw":
                key = (signature["op"], "threw", case["thrown"][:80])
            by_message.add(key)
    print(failing, len(by_message), len(by_cause))


if __name__ == "__main__":
    main()
