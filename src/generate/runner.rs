//! Generators for the runner-side ops: argv, environment, ready
//! handshake, worker output and the stillborn vocabulary (4.2–4.12,
//! 4.14, 4.15).

use super::{case_of, Gen, MAX_PID, NUMBERS};
use crate::ops::argv::{DROPPED_WITH_VALUE, KEPT_ALONE, KEPT_INLINE, KEPT_WITH_VALUE};
use crate::ops::options::{OPTIONAL_STRING_OPTIONS, REQUIRED_STRING_OPTIONS};
use case_tree::tree::Node;
use js_exact::JsString;

const WORKER_FLAGS: &[&str] = &[
    "thread-codex-worker",
    "--token",
    "--token=",
    "--token=s",
    "--linzumi-agent-mcp-token",
    "--linzumi-agent-mcp-token=m",
    "--tokens",
    "--cwd",
    "/w",
    "secret",
    "--kandan-url",
    "https://k",
    "-token",
    "--Token",
    "",
];
/// Node flags the worker's execArgv filter does not name, and near misses.
const OTHER_NODE_FLAGS: &[&str] = &[
    "--inspect",
    "--inspect-brk=9229",
    "--watch",
    "--test",
    "--max-old-space-size",
    "-r=x",
    "-C=y",
    "tsx",
    "code",
    "plain",
    "",
];

/// A node flag: one of each kind the execArgv filter knows, an inline
/// form, or something it does not know.
fn node_flag(gen: &mut Gen) -> Node {
    match gen.rng.below(6) {
        0 => gen.word(&KEPT_WITH_VALUE),
        1 => gen.word(&KEPT_ALONE),
        2 => {
            let flag = gen.rng.pick_str(&KEPT_INLINE);
            let value = gen.rng.pick_str(&["tsx", "4096", "", "=x"]);
            gen.string(JsString::from(format!("{flag}={value}").as_str()))
        }
        3 => gen.word(&DROPPED_WITH_VALUE),
        _ => gen.word(OTHER_NODE_FLAGS),
    }
}
const PATH_SEGMENTS: &[&str] = &[
    "a", "b", "dist", "index.js", ".", "..", "", "...", "😀", " x ", "$DIR", "a\\b",
];
const OUTPUT_LINES: &[&str] = &[
    "starting",
    "",
    "  ",
    "LINZUMI_WORKER_PREFLIGHT_FAILURE: cwd missing",
    "LINZUMI_WORKER_PREFLIGHT_FAILURE:",
    "  LINZUMI_WORKER_PREFLIGHT_FAILURE:   spaced  ",
    "x LINZUMI_WORKER_PREFLIGHT_FAILURE: late",
    "error: boom\r",
    "\u{feff}LINZUMI_WORKER_PREFLIGHT_FAILURE: bom",
    "\u{2028}",
    "linzumi_worker_preflight_failure: lower",
];
const STILLBORN: &[&str] = &[
    "Thread worker failed to start after ",
    "Thread worker preflight failed:",
    "Thread worker exited before ready",
    "Thread worker for ",
    " did not send ready within ",
    " attempt",
    " attempts",
    "3",
    "007",
    "",
    "\n",
    " ",
    "ms",
    "x",
    "1.5",
];

/// A string that is usually a valid option value.
fn option_text(gen: &mut Gen, field: &str) -> Node {
    match field {
        "cwd" | "logFile" => {
            gen.word(&["/home/dev/project", "/", "/tmp/w.log", "relative", "/é/😀"])
        }
        "kandanUrl" => gen.word(&["https://kandan.test", "http://k", "x"]),
        _ => {
            let text = if gen.rng.one_in(3) {
                gen.js_text()
            } else {
                JsString::from(field)
            };
            gen.string(text)
        }
    }
}

/// A worker options object, usually valid.
pub fn options(gen: &mut Gen) -> Node {
    let mut members: Vec<(JsString, Node)> = Vec::new();
    for field in REQUIRED_STRING_OPTIONS {
        if !gen.rng.one_in(40) {
            let value = gen.or_wrong(30, |gen| option_text(gen, field));
            members.push((field.into(), value));
        }
    }
    for field in OPTIONAL_STRING_OPTIONS {
        if gen.rng.one_in(3) {
            let value = if gen.rng.one_in(12) {
                Node::str("")
            } else {
                option_text(gen, field)
            };
            let value = gen.or_wrong(25, |_| value);
            members.push((field.into(), value));
        }
    }
    if gen.rng.one_in(3) {
        let mode = gen.word(&["local", "vm", "remote"]);
        members.push(("executionMode".into(), gen.or_wrong(20, |_| mode)));
    }
    if gen.rng.one_in(3) {
        let mode = gen.word(&["open", "restricted", "offline"]);
        members.push(("egressMode".into(), gen.or_wrong(20, |_| mode)));
    }
    if gen.rng.one_in(3) {
        let count = gen.rng.below(4);
        let cwds = gen.strings(count, |g| g.word(&["/a", "/b/c", "rel", ""]));
        members.push(("allowedCwds".into(), gen.or_wrong(20, |_| cwds)));
    }
    if gen.rng.one_in(3) {
        let count = gen.rng.below(4);
        let ports = Node::Array(
            (0..count)
                .map(|_| {
                    gen.number_in(
                        &[
                            "1", "80", "80.0", "8e3", "443", "65535", "65536", "0", "-1", "1.5",
                        ],
                        1.0,
                        65535.0,
                    )
                })
                .collect(),
        );
        members.push(("allowedForwardPorts".into(), gen.or_wrong(20, |_| ports)));
    }
    for flag in ["vmExecution", "fast"] {
        if gen.rng.one_in(3) {
            let value = gen.or_wrong(10, |gen| Node::Bool(gen.rng.one_in(2)));
            members.push((flag.into(), value));
        }
    }
    if gen.rng.one_in(3) {
        let defaults = gen.object(2);
        members.push(("runtimeDefaults".into(), gen.or_wrong(15, |_| defaults)));
    }
    if gen.rng.one_in(6) {
        let extra = gen.any(1);
        members.push((gen.key(), extra));
    }
    Node::Object(members)
}

fn output_text(gen: &mut Gen) -> Node {
    let mut text = JsString::new();
    for at in 0..gen.rng.below(5) {
        if at > 0 {
            text.push_str(if gen.rng.one_in(4) { "\r\n" } else { "\n" });
        }
        if gen.rng.one_in(3) {
            text.push_js(&gen.js_text());
        } else {
            text.push_str(gen.rng.pick_str(OUTPUT_LINES));
        }
    }
    gen.string(text)
}

/// Text just under, at or over the 4000-unit output limit, with pairs and
/// lone surrogates near the cut.
pub fn long_text(gen: &mut Gen) -> Node {
    let length = gen.rng.between(3990, 4012);
    let mut units: Vec<u16> = (0..length).map(|at| b"ab \n"[at % 4] as u16).collect();
    for _ in 0..gen.rng.below(4) {
        let at = gen.rng.below(30);
        let inserted: &[u16] = match gen.rng.below(3) {
            0 => &[0xD83D, 0xDE00],
            1 => &[0xDC00],
            _ => &[0xD800],
        };
        units.splice(at..at, inserted.iter().copied());
    }
    if gen.rng.one_in(3) {
        units.extend_from_slice(&[0x20, 0x3000, 0x0A]);
    }
    gen.string(JsString::from_utf16(&units))
}

/// A case for `cliArgs`.
pub fn cli_args(gen: &mut Gen) -> Node {
    case_of("cliArgs", vec![("options", options(gen))])
}

/// A case for `envOverlay`.
pub fn env_overlay(gen: &mut Gen) -> Node {
    let mut fields = vec![("options", options(gen))];
    if gen.rng.one_in(2) {
        fields.push(("devServicesParentPid", gen.number_in(NUMBERS, 1.0, MAX_PID)));
    }
    if gen.rng.one_in(2) {
        let key = gen.word(&["sk-1", ""]);
        fields.push(("forwardableOpenAiApiKey", gen.or_wrong(6, |_| key)));
    }
    case_of("envOverlay", fields)
}

/// A case for `redactedCliArgs`.
pub fn redacted_cli_args(gen: &mut Gen) -> Node {
    let count = gen.rng.below(7);
    let args = gen.strings(count, |g| g.word(WORKER_FLAGS));
    case_of("redactedCliArgs", vec![("args", args)])
}

/// A case for `nodeArgs`.
pub fn node_args(gen: &mut Gen) -> Node {
    let script = gen.word(&["/app/dist/index.js", "s.js", ""]);
    let count = gen.rng.below(3);
    let args = gen.strings(count, |g| g.word(WORKER_FLAGS));
    let count = gen.rng.below(7);
    let exec_argv = gen.strings(count, node_flag);
    let mut fields = vec![("scriptPath", script), ("args", args)];
    if !gen.rng.one_in(5) {
        fields.push(("execArgv", exec_argv));
    }
    case_of("nodeArgs", fields)
}

/// A case for `scriptPath`.
pub fn script_path(gen: &mut Gen) -> Node {
    let path = |gen: &mut Gen, absolute: bool| {
        let mut text = JsString::from(if absolute { "/" } else { "" });
        for at in 0..gen.rng.between(1, 4) {
            if at > 0 {
                text.push_str("/");
            }
            text.push_str(gen.rng.pick_str(PATH_SEGMENTS));
        }
        gen.string(text)
    };
    let absolute = !gen.rng.one_in(10);
    let cwd = path(gen, absolute);
    let mut fields = vec![("cwd", cwd)];
    if !gen.rng.one_in(4) {
        let absolute = gen.rng.one_in(4);
        fields.push(("scriptPath", path(gen, absolute)));
    }
    case_of("scriptPath", fields)
}

/// A case for `readyMessage`.
pub fn ready_message(gen: &mut Gen) -> Node {
    let expected = gen.word(&["t1", "t2", ""]);
    let mut message = vec![("type", gen.word(&["thread-codex-worker-ready", "other"]))];
    if !gen.rng.one_in(8) {
        let id = gen.or_wrong(8, |gen| gen.word(&["t1", "t2", "T1"]));
        message.push(("kandanThreadId", id));
    }
    if gen.rng.one_in(2) {
        message.push(("pid", gen.number_in(NUMBERS, 1.0, MAX_PID)));
    }
    if gen.rng.one_in(2) {
        message.push((
            "protocolVersion",
            gen.or_wrong(3, |gen| {
                gen.number_in(&["1", "1.0", "2", "0", "1e0"], 0.0, 2.0)
            }),
        ));
    }
    let message = gen.or_wrong(10, |_| Node::object(message));
    case_of(
        "readyMessage",
        vec![("message", message), ("expectedKandanThreadId", expected)],
    )
}

/// A case for `sessionClosedGuard`.
pub fn session_closed_guard(gen: &mut Gen) -> Node {
    let mut message = vec![(
        "type",
        gen.word(&["codex-session-closed", "codex-session-close"]),
    )];
    if gen.rng.one_in(2) {
        message.push(("reason", gen.or_wrong(3, |gen| gen.text())));
    }
    let message = gen.or_wrong(8, |_| Node::object(message));
    case_of("sessionClosedGuard", vec![("message", message)])
}

/// A case for `readyTimeoutMs`.
pub fn ready_timeout_ms(gen: &mut Gen) -> Node {
    let configured = gen.or_wrong(6, |gen| gen.number_in(NUMBERS, 1000.0, 600000.0));
    case_of("readyTimeoutMs", vec![("configured", configured)])
}

/// A case for `readyTimeoutError`.
pub fn ready_timeout_error(gen: &mut Gen) -> Node {
    let id = gen.or_wrong(4, |gen| gen.text());
    let ms = gen.or_wrong(4, |gen| gen.number_in(NUMBERS, 1000.0, 600000.0));
    case_of(
        "readyTimeoutError",
        vec![("kandanThreadId", id), ("timeoutMs", ms)],
    )
}

/// A case for `boundedOutput`.
pub fn bounded_output(gen: &mut Gen) -> Node {
    let value = if gen.rng.one_in(2) {
        long_text(gen)
    } else {
        gen.text()
    };
    case_of("boundedOutput", vec![("value", value)])
}

/// A case for `exitBeforeReadyMessage`.
pub fn exit_before_ready_message(gen: &mut Gen) -> Node {
    let mut fields = Vec::new();
    if gen.rng.one_in(2) {
        fields.push((
            "code",
            gen.or_wrong(5, |gen| {
                gen.number_in(&["0", "1", "137", "-0", "1e21"], 0.0, 255.0)
            }),
        ));
    }
    if gen.rng.one_in(2) {
        fields.push((
            "signal",
            gen.or_wrong(5, |gen| gen.word(&["SIGTERM", "SIGKILL", ""])),
        ));
    }
    let output = if gen.rng.one_in(3) {
        long_text(gen)
    } else {
        output_text(gen)
    };
    fields.push(("capturedOutput", output));
    case_of("exitBeforeReadyMessage", fields)
}

/// A case for `preflightLine`.
pub fn preflight_line(gen: &mut Gen) -> Node {
    case_of("preflightLine", vec![("capturedOutput", output_text(gen))])
}

/// A case for `stillborn`.
pub fn stillborn(gen: &mut Gen) -> Node {
    let mut message = JsString::new();
    for _ in 0..gen.rng.between(1, 4) {
        message.push_str(gen.rng.pick_str(STILLBORN));
    }
    let message = gen.string(message);
    case_of("stillborn", vec![("message", gen.or_wrong(8, |_| message))])
}
