//! Generators for the stateful and file-system ops: preflight, respawn,
//! output routing, liveness, the remote harness ops and the worker's argv
//! parser (4.13, 4.16–4.18, 4.22–4.26).

use super::runner::long_text;
use super::{case_of, Gen, MAX_PID};
use crate::ops::worker_args::scan::{FLAG_OPTIONS, VALUE_OPTIONS};
use case_tree::tree::Node;
use js_exact::JsString;

const SCRATCH_DIRS: &[&str] = &["a", "a/b", "a/bc", "b", "c/d/e", "ab", "😀", "sp ace"];
const SCRATCH_PATHS: &[&str] = &[
    "$DIR",
    "$DIR/",
    "$DIR/a",
    "$DIR/a/b",
    "$DIR/a/bc",
    "$DIR/ab",
    "$DIR/b",
    "$DIR/c/d",
    "$DIR/c/d/e",
    "$DIR/missing",
    "$DIR/a/../b",
    "$DIR/./a",
    "$DIR//a",
    "$DIR/😀",
    "/",
    "relative",
    "",
    "a/b",
];

fn scratch_path(gen: &mut Gen) -> Node {
    gen.word(SCRATCH_PATHS)
}

fn mkdirs(gen: &mut Gen) -> Node {
    let count = gen.rng.below(4);
    let mut dirs = Vec::with_capacity(count);
    for _ in 0..count {
        let dir = if gen.rng.one_in(15) {
            gen.word(&["..", "/abs", "", "a/../..", "."])
        } else {
            gen.word(SCRATCH_DIRS)
        };
        dirs.push(dir);
    }
    Node::Array(dirs)
}

fn respawn_step(gen: &mut Gen) -> Node {
    let mut step = Vec::new();
    if !gen.rng.one_in(8) {
        step.push((
            "kind",
            gen.word(&["ready", "exited-before-ready", "exited", "crashed"]),
        ));
    }
    if gen.rng.one_in(2) {
        step.push((
            "code",
            gen.number_in(&["0", "1", "137", "-0", "2.5"], 0.0, 255.0),
        ));
    }
    if gen.rng.one_in(3) {
        step.push(("signal", gen.word(&["SIGTERM", "SIGKILL", ""])));
    }
    if gen.rng.one_in(2) {
        let output = match gen.rng.below(4) {
            0 => Node::str("LINZUMI_WORKER_PREFLIGHT_FAILURE: cwd missing\n"),
            1 => long_text(gen),
            _ => gen.text(),
        };
        step.push(("capturedOutput", gen.or_wrong(12, |_| output)));
    }
    Node::object(step)
}

fn routing_step(gen: &mut Gen) -> Node {
    let mut step = vec![("step", gen.word(&["chunk", "chunk", "route", "flush"]))];
    if gen.rng.one_in(6) {
        step.push(("text", gen.wrong()));
    } else if gen.rng.one_in(5) {
        step.push(("text", long_text(gen)));
    } else if !gen.rng.one_in(10) {
        step.push(("text", gen.text()));
    }
    for flag in ["tuiActive", "captureActive"] {
        if !gen.rng.one_in(4) {
            let value = gen.or_wrong(6, |gen| Node::Bool(gen.rng.one_in(2)));
            step.push((flag, value));
        }
    }
    Node::object(step)
}

fn liveness_config(gen: &mut Gen) -> Node {
    let mut config = Vec::new();
    // The defaults are 15000, 10000, 2 and 5000; schedules step by a few
    // units, so small values are where verdicts change.
    for (field, high) in [
        ("pingIntervalMs", 30.0),
        ("pongTimeoutMs", 20.0),
        ("maxMissedPongs", 5.0),
        ("probeTimeoutMs", 10.0),
    ] {
        if !gen.rng.one_in(15) {
            let value = gen.or_wrong(15, |gen| {
                gen.number_in(
                    &["1", "2", "3", "5", "10", "1.5", "100", "0", "-1", "1e400"],
                    1.0,
                    high,
                )
            });
            config.push((field, value));
        }
    }
    Node::object(config)
}

fn liveness_schedule(gen: &mut Gen) -> Node {
    const OPS: &[&str] = &[
        "create",
        "pingSent",
        "pong",
        "probeSent",
        "probeReply",
        "tick",
        "verdict",
        "shouldSendPing",
        "other",
    ];
    let mut now: f64 = 0.0;
    let mut steps = Vec::new();
    if !gen.rng.one_in(6) {
        steps.push(Node::object([
            ("op", Node::str("create")),
            ("now", Node::int(0)),
        ]));
    }
    for _ in 0..gen.rng.below(14) {
        now += if gen.rng.one_in(4) {
            // A step with a random fraction: times like 7.3 + 2.6.
            (gen.rng.unit() * 60.0).round() / 10.0
        } else {
            [0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0][gen.rng.below(7)]
        };
        let now_text = if now.fract() == 0.0 && gen.rng.one_in(2) {
            format!("{now:.1}")
        } else {
            format!("{now}")
        };
        let op = gen.word(OPS);
        let time = if gen.rng.one_in(25) {
            gen.wrong()
        } else {
            Node::Number(now_text)
        };
        steps.push(Node::object([("op", op), ("now", time)]));
    }
    Node::Array(steps)
}

fn remote_config_members(gen: &mut Gen) -> Vec<(JsString, Node)> {
    let mut members: Vec<(JsString, Node)> = Vec::new();
    let mut add = |gen: &mut Gen, key: &str, chance: usize, make: &dyn Fn(&mut Gen) -> Node| {
        if !gen.rng.one_in(chance) {
            let value = gen.or_wrong(14, |gen| make(gen));
            members.push((key.into(), value));
        }
    };
    add(gen, "kandanUrl", 12, &|g| {
        g.word(&[
            "https://kandan.test",
            "https://k.test///",
            "http://x/",
            "https://",
            "https:///",
            "ftp://x",
            "https:// ",
        ])
    });
    add(gen, "token", 12, &|g| g.word(&["tok", ""]));
    add(gen, "runnerId", 12, &|g| g.word(&["r1", ""]));
    add(gen, "workspaceSlug", 2, &|g| g.word(&["ws", ""]));
    add(gen, "cwd", 12, &|g| g.word(&["/w", "/", "rel", ""]));
    add(gen, "codexBin", 2, &|g| {
        g.word(&["codex", "/usr/bin/codex", ""])
    });
    add(gen, "allowedCwds", 2, &|g| {
        let count = g.rng.below(4);
        g.strings(count, |g| g.word(&["/w", "/a", "/w", "rel"]))
    });
    add(gen, "heartbeatIntervalMs", 2, &|g| {
        g.number_in(
            &[
                "1000", "999", "300000", "300001", "15000", "1500.5", "1e3", "-0",
            ],
            1000.0,
            300000.0,
        )
    });
    add(gen, "labels", 2, &|g| {
        let members = (0..g.rng.below(3))
            .map(|_| (g.key(), g.or_wrong(8, |g| g.text())))
            .collect();
        Node::Object(members)
    });
    members
}

fn env_value(gen: &mut Gen, name: &str) -> Node {
    match name {
        "LINZUMI_KANDAN_URL" => gen.word(&["https://k.test", "https://k.test/", "ftp://x", ""]),
        "LINZUMI_CWD" => gen.word(&["/w", "rel", ""]),
        "LINZUMI_ALLOWED_CWDS" => gen.word(&["/a:/b", "/a::/a", ":", "/a:rel", ""]),
        "LINZUMI_HEARTBEAT_INTERVAL_MS" if gen.rng.one_in(2) => {
            // Number(text) of a random double's spelling.
            match gen.number_around(1000.0, 300000.0) {
                Node::Number(text) => Node::str(&text),
                other => other,
            }
        }
        "LINZUMI_HEARTBEAT_INTERVAL_MS" => {
            gen.word(&["15000", "0999", "1e3", "300001", "15000 ", "", "1000"])
        }
        "LINZUMI_REMOTE_HARNESS_CONFIG" => {
            let text = Node::Object(remote_config_members(gen)).to_text();
            let text = if gen.rng.one_in(6) {
                b"{not json".to_vec()
            } else {
                text
            };
            gen.string(JsString::from(String::from_utf8_lossy(&text).as_ref()))
        }
        _ => gen.word(&["value", ""]),
    }
}

/// Options the worker's parser does not know.
const UNKNOWN_OPTIONS: &[&str] = &["--unknown", "-x", "plain"];

/// An option of any kind the worker's parser knows, or one it does not.
fn worker_option(gen: &mut Gen) -> &'static str {
    match gen.rng.below(8) {
        0 => gen.rng.pick(&FLAG_OPTIONS).0,
        1 => gen.rng.pick_str(UNKNOWN_OPTIONS),
        _ => gen.rng.pick(&VALUE_OPTIONS).0,
    }
}

fn option_value(gen: &mut Gen, option: &str) -> Node {
    match option {
        "--cwd" | "--allowed-cwd" => scratch_path(gen),
        "--allow-forward-port" => {
            gen.word(&["80", "0080", "65535", "65536", "0", "8e3", "-1", "80 "])
        }
        "--execution-mode" => gen.word(&["local", "vm", "remote"]),
        "--egress-mode" => gen.word(&["open", "restricted", "offline"]),
        "--runtime-defaults" => {
            let text = if gen.rng.one_in(4) {
                gen.word(&["[]", "null", "{", "\"x\""])
            } else {
                let object = gen.object(2).to_text();
                gen.string(JsString::from(String::from_utf8_lossy(&object).as_ref()))
            };
            text
        }
        _ => gen.word(&["value", "", "https://k.test"]),
    }
}

fn worker_args(gen: &mut Gen) -> Node {
    let mut args = Vec::new();
    if !gen.rng.one_in(15) {
        args.push(gen.word(&["thread-codex-worker"]));
    }
    let mut required: Vec<&str> = vec![
        "--kandan-url",
        "--token",
        "--runner-id",
        "--thread-id",
        "--cwd",
    ];
    required.retain(|_| !gen.rng.one_in(8));
    let extra = gen.rng.below(5);
    let mut options: Vec<&str> = required;
    for _ in 0..extra {
        options.push(worker_option(gen));
    }
    for option in options {
        let is_flag = FLAG_OPTIONS.iter().any(|(flag, _)| *flag == option);
        let value = option_value(gen, option);
        match gen.rng.below(4) {
            0 if !is_flag => {
                // The `--name=value` form.
                if let Node::String(text, escapes) = value {
                    let mut joined = JsString::from(option);
                    joined.push_str("=");
                    joined.push_js(&text);
                    args.push(Node::String(joined, escapes));
                }
            }
            _ => {
                args.push(Node::str(option));
                if !is_flag || gen.rng.one_in(10) {
                    args.push(value);
                }
            }
        }
    }
    Node::Array(args)
}

/// An environment with each of `usual` set nine times in ten and each of
/// `sometimes` one time in three.
fn worker_env(gen: &mut Gen, usual: &[&str], sometimes: &[&str]) -> Node {
    let mut members = Vec::new();
    let names = usual
        .iter()
        .map(|n| (n, 10))
        .chain(sometimes.iter().map(|n| (n, 3)));
    for (name, odds) in names {
        let set = if odds == 10 {
            !gen.rng.one_in(10)
        } else {
            gen.rng.one_in(3)
        };
        if set {
            let value = gen.or_wrong(10, |gen| env_value(gen, name));
            members.push((JsString::from(*name), value));
        }
    }
    Node::Object(members)
}

/// A case for `preflight`.
pub fn preflight(gen: &mut Gen) -> Node {
    let count = gen.rng.below(4);
    let allowed = gen.strings(count, scratch_path);
    let mut fields = vec![("mkdirs", mkdirs(gen)), ("cwd", scratch_path(gen))];
    if !gen.rng.one_in(4) {
        fields.push(("allowedCwds", allowed));
    }
    case_of("preflight", fields)
}

/// A case for `respawn`.
pub fn respawn(gen: &mut Gen) -> Node {
    let count = gen.rng.below(6);
    let script = Node::Array((0..count).map(|_| respawn_step(gen)).collect());
    let mut fields = vec![("script", script)];
    if gen.rng.one_in(2) {
        fields.push((
            "maxAttempts",
            gen.number_in(
                &["1", "2", "3", "10", "11", "0", "1.5", "-1", "1e400", "4"],
                1.0,
                10.0,
            ),
        ));
    }
    case_of("respawn", fields)
}

/// A case for `outputRouting`.
pub fn output_routing(gen: &mut Gen) -> Node {
    let count = gen.rng.below(6);
    let script = Node::Array((0..count).map(|_| routing_step(gen)).collect());
    let mut fields = vec![("script", script)];
    if gen.rng.one_in(2) {
        fields.push((
            "pid",
            gen.number_in(&["1", "4242", "0", "-1", "1.5", "1e21"], 1.0, MAX_PID),
        ));
    }
    if gen.rng.one_in(2) {
        fields.push(("streamName", gen.word(&["stdout", "stderr", "stdin"])));
    }
    case_of("outputRouting", fields)
}

/// A case for `liveness`.
pub fn liveness(gen: &mut Gen) -> Node {
    let mut fields = vec![("schedule", liveness_schedule(gen))];
    if gen.rng.one_in(2) {
        fields.push(("config", liveness_config(gen)));
    }
    case_of("liveness", fields)
}

/// A case for `remoteConfig`.
pub fn remote_config(gen: &mut Gen) -> Node {
    let text = if gen.rng.one_in(10) {
        gen.word(&["{", "[]", "null", "\"x\"", "", "{\"kandanUrl\":}"])
    } else {
        let text = Node::Object(remote_config_members(gen)).to_text();
        gen.string(JsString::from(String::from_utf8_lossy(&text).as_ref()))
    };
    case_of("remoteConfig", vec![("json", gen.or_wrong(12, |_| text))])
}

/// A case for `remoteConfigEnv`.
pub fn remote_config_env(gen: &mut Gen) -> Node {
    let env = worker_env(
        gen,
        &[
            "LINZUMI_KANDAN_URL",
            "LINZUMI_RUNNER_TOKEN",
            "LINZUMI_RUNNER_ID",
            "LINZUMI_CWD",
        ],
        &[
            "LINZUMI_REMOTE_HARNESS_CONFIG",
            "LINZUMI_WORKSPACE",
            "LINZUMI_CODEX_BIN",
            "LINZUMI_ALLOWED_CWDS",
            "LINZUMI_HEARTBEAT_INTERVAL_MS",
        ],
    );
    case_of("remoteConfigEnv", vec![("env", env)])
}

/// A case for `remoteEntrypoint`.
pub fn remote_entrypoint(gen: &mut Gen) -> Node {
    let mut text = JsString::new();
    text.push_str(
        gen.rng
            .pick_str(&["", " ", "cli", "/opt/linzumi/cli", "\u{feff}", "\t"]),
    );
    text.push_str(gen.rng.pick_str(&[
        "", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".json", ".JS", " ", ".js ",
    ]));
    let entry = gen.string(text);
    case_of(
        "remoteEntrypoint",
        vec![("entrypoint", gen.or_wrong(8, |_| entry))],
    )
}

/// A case for `remoteJoinPayload`.
pub fn remote_join_payload(gen: &mut Gen) -> Node {
    let config = Node::Object(remote_config_members(gen));
    case_of(
        "remoteJoinPayload",
        vec![("config", gen.or_wrong(12, |_| config))],
    )
}

/// A case for `parseWorkerArgs`.
pub fn parse_worker_args(gen: &mut Gen) -> Node {
    let env = worker_env(
        gen,
        &[],
        &[
            "LINZUMI_KANDAN_URL",
            "LINZUMI_RUNNER_TOKEN",
            "LINZUMI_RUNNER_ID",
            "LINZUMI_WORKSPACE",
            "LINZUMI_CODEX_BIN",
            "LINZUMI_CODEX_MODEL_PROVIDER",
            "LINZUMI_AGENT_MCP_TOKEN",
            "LINZUMI_DEBUG_TRACE",
            "PATH",
        ],
    );
    case_of(
        "parseWorkerArgs",
        vec![
            ("mkdirs", mkdirs(gen)),
            ("args", worker_args(gen)),
            ("env", env),
        ],
    )
}
