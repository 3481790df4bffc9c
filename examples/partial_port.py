#!/usr/bin/env python3
"""A port in progress: three ops of the worker-spawn contract in Python.

readyTimeoutMs, scriptPath and envOverlay are implemented (readyTimeoutMs
with a bug: Python's round(), half to even, where the contract floors);
every other op throws "not implemented". Batch protocol: a JSON array of
cases on stdin, the array of results on stdout.

    parity-diff run --oracle 'python3 examples/partial_port.py'
"""
import json, math, sys

REQUIRED = ["kandanUrl", "token", "runnerId", "kandanThreadId", "cwd", "codexBin"]
OPTIONAL = ["workspaceSlug", "projectPublicId", "goldenImagePublicId", "logFile",
            "codexModelProvider", "linzumiAgentMcpToken", "debugTrace"]
CHOICES = {"executionMode": ["local", "vm", "remote"], "egressMode": ["open", "restricted", "offline"]}


class Thrown(Exception):
    pass


def is_num(x): return isinstance(x, float)
def is_int(x): return is_num(x) and math.isfinite(x) and x == int(x)
def non_empty(x): return isinstance(x, str) and x != ""
def unset(case, key): return case.get(key) is None


def js_number(x):  # Number.prototype.toString, from Python's shortest repr
    if not math.isfinite(x): return "null"
    if x == 0: return "0"
    mantissa, _, exp = repr(abs(x)).partition("e")
    whole, _, frac = mantissa.partition(".")
    frac = "" if frac == "0" else frac
    digits = (whole + frac).lstrip("0")
    point = len(whole) + int(exp or 0) - (len(whole + frac) - len(digits))
    digits = digits.rstrip("0")
    k, sign = len(digits), "-" if x < 0 else ""
    if k <= point <= 21: return sign + digits + "0" * (point - k)
    if 0 < point <= 21: return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0: return sign + "0." + "0" * -point + digits
    e = point - 1
    return sign + digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))


def js_string(s):
    out = []
    for c in s:
        o = ord(c)
        if c in '"\\': out.append("\\" + c)
        elif c in "\b\f\n\r\t": out.append(json.dumps(c)[1:-1])
        elif o < 0x20 or 0xD800 <= o <= 0xDFFF: out.append("\\u%04x" % o)
        else: out.append(c)
    return '"' + "".join(out) + '"'


def stringify(v):
    if v is None: return "null"
    if v is True: return "true"
    if v is False: return "false"
    if is_num(v): return js_number(v)
    if isinstance(v, str): return js_string(v)
    if isinstance(v, list): return "[" + ",".join(stringify(x) for x in v) + "]"
    return "{" + ",".join(js_string(k) + ":" + stringify(x) for k, x in v.items()) + "}"


def validate_options(o):
    if not isinstance(o, dict): raise Thrown("thread runner options must be an object")
    for f in REQUIRED:
        if not non_empty(o.get(f)): raise Thrown(f"thread runner option {f} must be a non-empty string")
    for f in OPTIONAL:
        if not unset(o, f) and not non_empty(o[f]):
            raise Thrown(f"thread runner option {f} must be a non-empty string when set")
    for f, allowed in CHOICES.items():
        if not unset(o, f) and o[f] not in allowed:
            raise Thrown(f"thread runner option {f} must be one of {', '.join(allowed)}")
    cwds, ports = o.get("allowedCwds"), o.get("allowedForwardPorts")
    if cwds is not None and not (isinstance(cwds, list) and all(map(non_empty, cwds))):
        raise Thrown("thread runner option allowedCwds must be an array of non-empty strings")
    if ports is not None and not (isinstance(ports, list) and all(is_int(p) and 1 <= p <= 65535 for p in ports)):
        raise Thrown("thread runner option allowedForwardPorts must be an array of port numbers (1-65535)")
    for f in ["vmExecution", "fast"]:
        if not unset(o, f) and not isinstance(o[f], bool): raise Thrown(f"thread runner option {f} must be a boolean")
    if not unset(o, "runtimeDefaults") and not isinstance(o["runtimeDefaults"], dict):
        raise Thrown("thread runner option runtimeDefaults must be an object")


def ready_timeout_ms(case):
    if "configured" not in case or case["configured"] is None: return 30000.0
    c = case["configured"]
    if not is_num(c): raise Thrown("threadRunnerReadyTimeoutMs must be a number")
    if not c > 0: raise Thrown("threadRunnerReadyTimeoutMs must be positive")
    return float(min(max(round(c) if math.isfinite(c) else c, 1000), 600000))  # the bug: round, not floor


def script_path(case):
    cwd, script = case.get("cwd"), case.get("scriptPath")
    if not (isinstance(cwd, str) and cwd.startswith("/")): raise Thrown("worker cwd must be an absolute path")
    if script is None: script = "dist/index.js"
    elif not non_empty(script): raise Thrown("worker script path must be a non-empty string")
    parts = []
    for seg in (script if script.startswith("/") else cwd + "/" + script).split("/"):
        if seg == "..": parts = parts[:-1]
        elif seg not in ("", "."): parts.append(seg)
    return "/" + "/".join(parts)


def env_overlay(case):
    o = case.get("options")
    validate_options(o)
    pid, key = case.get("devServicesParentPid"), case.get("forwardableOpenAiApiKey")
    if pid is not None and not (is_int(pid) and pid > 0): raise Thrown("devServicesParentPid must be a positive integer")
    if key is not None and not isinstance(key, str): raise Thrown("forwardableOpenAiApiKey must be a string")
    env = {"LINZUMI_THREAD_WORKER": "1", "LINZUMI_RUNNER_ID": o["runnerId"], "LINZUMI_KANDAN_THREAD_ID": o["kandanThreadId"]}
    if pid is not None: env["LINZUMI_DEV_SERVICES_PARENT_PID"] = js_number(pid)
    if key: env["OPENAI_API_KEY"] = key
    for name, f in [("LINZUMI_CODEX_MODEL_PROVIDER", "codexModelProvider"), ("LINZUMI_DEBUG_TRACE", "debugTrace"),
                    ("LINZUMI_WORKER_LOG_FILE", "logFile")]:
        if not unset(o, f): env[name] = o[f]
    env["FORCE_COLOR"] = "0"
    return env


OPS = {"readyTimeoutMs": ready_timeout_ms, "scriptPath": script_path, "envOverlay": env_overlay}


def run(case):
    try:
        op = OPS.get(case.get("op")) if isinstance(case, dict) and isinstance(case.get("op"), str) else None
        if op is None: raise Thrown("not implemented")
        return {"defined": True, "value": op(case)}
    except Thrown as error:
        return {"threw": True, "message": str(error)}


sys.setrecursionlimit(20000)  # the contract nests 1000 levels deep
text = sys.stdin.buffer.read().decode("utf-8", "replace")
try:
    cases = json.loads(text, parse_int=float, parse_constant=lambda name: sys.exit(2))
except ValueError:
    sys.exit(2)
if not isinstance(cases, list): sys.exit(2)
sys.stdout.buffer.write(stringify([run(case) for case in cases]).encode())
