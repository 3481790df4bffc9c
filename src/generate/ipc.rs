//! Generators for the IPC harness ops, `ipcWorker` and `ipcParent`
//! (4.19–4.21): scripts of frames, good and malformed, with the channel
//! failing and closing at any point.

use super::{case_of, Gen};
use case_tree::tree::Node;

const METHODS: &[&str] = &[
    "thread/read",
    "turn/start",
    "boom",
    "toString",
    "__proto__",
    "",
    "😀/\u{2028}",
];
const IDS: &[&str] = &[
    "1", "2", "3", "1", "2", "1.0", "0", "-0", "1.5", "1e400", "99",
];

fn id(gen: &mut Gen) -> Node {
    gen.or_wrong(12, |gen| gen.number_from(IDS))
}

fn method(gen: &mut Gen) -> Node {
    gen.or_wrong(12, |gen| gen.word(METHODS))
}

fn params(gen: &mut Gen) -> Option<Node> {
    match gen.rng.below(4) {
        0 => None,
        1 => Some(Node::Null),
        _ => Some(gen.any(2)),
    }
}

fn error_member(gen: &mut Gen) -> Node {
    match gen.rng.below(5) {
        0 => Node::object([("message", gen.text())]),
        1 => Node::object([("message", gen.wrong())]),
        2 => Node::object(Vec::<(&str, Node)>::new()),
        3 => Node::Null,
        _ => gen.wrong(),
    }
}

/// A frame of one of `types`, or a malformed message.
fn frame(gen: &mut Gen, types: &[&'static str]) -> Node {
    if gen.rng.one_in(12) {
        return gen.wrong();
    }
    let kind = gen.rng.pick_str(types);
    let mut members = vec![("type", gen.word(&[kind]))];
    match kind {
        "codex-request" => {
            members.push(("id", id(gen)));
            members.push(("method", method(gen)));
            if let Some(params) = params(gen) {
                members.push(("params", params));
            }
        }
        "codex-notify" => {
            members.push(("method", method(gen)));
            if let Some(params) = params(gen) {
                members.push(("params", params));
            }
        }
        "codex-server-response" | "codex-response" => {
            members.push(("id", id(gen)));
            match gen.rng.below(4) {
                0 => members.push(("error", error_member(gen))),
                1 => {}
                _ => members.push(("result", gen.any(2))),
            }
        }
        "codex-notification" => {
            if !gen.rng.one_in(5) {
                members.push(("notification", gen.any(2)));
            }
        }
        "codex-server-request" => {
            members.push(("id", id(gen)));
            if !gen.rng.one_in(5) {
                let request = if gen.rng.one_in(3) {
                    gen.any(1)
                } else {
                    Node::object([("method", method(gen)), ("params", gen.any(1))])
                };
                members.push(("request", request));
            }
        }
        _ => {
            if gen.rng.one_in(2) {
                members.push(("reason", gen.or_wrong(4, |gen| gen.text())));
            }
        }
    }
    Node::object(members)
}

fn worker_step(gen: &mut Gen) -> Node {
    match gen.rng.below(12) {
        0..=4 => Node::object([
            ("step", Node::str("parentMessage")),
            (
                "message",
                frame(
                    gen,
                    &[
                        "codex-request",
                        "codex-notify",
                        "codex-server-response",
                        "codex-response",
                    ],
                ),
            ),
        ]),
        5 | 6 => Node::object([
            ("step", Node::str("notification")),
            ("notification", gen.any(2)),
        ]),
        7 | 8 => Node::object([
            ("step", Node::str("serverRequest")),
            (
                "request",
                Node::object([("method", method(gen)), ("params", gen.any(1))]),
            ),
        ]),
        9 => Node::object([("step", gen.word(&["disconnectChannel", "disconnectEvent"]))]),
        10 => Node::object([
            ("step", Node::str("sendMode")),
            ("mode", gen.word(&["throw", "ok"])),
        ]),
        _ => Node::object([("step", gen.word(&["unknownStep"]))]),
    }
}

fn parent_step(gen: &mut Gen) -> Node {
    match gen.rng.below(14) {
        0..=2 => {
            let mut step = vec![("step", Node::str("request")), ("method", method(gen))];
            if let Some(params) = params(gen) {
                step.push(("params", params));
            }
            Node::object(step)
        }
        3 => {
            let mut step = vec![("step", Node::str("notify")), ("method", method(gen))];
            if let Some(params) = params(gen) {
                step.push(("params", params));
            }
            Node::object(step)
        }
        4..=7 => Node::object([
            ("step", Node::str("childMessage")),
            (
                "message",
                frame(
                    gen,
                    &[
                        "codex-response",
                        "codex-notification",
                        "codex-server-request",
                        "codex-session-closed",
                        "codex-request",
                    ],
                ),
            ),
        ]),
        8 => Node::object([("step", Node::str("lateNotificationSubscribe"))]),
        9 => Node::object([(
            "step",
            gen.word(&["exitEvent", "disconnectEvent", "disconnectChannel"]),
        )]),
        10 => Node::object([
            ("step", Node::str("sendMode")),
            ("mode", gen.word(&["throw", "ok"])),
        ]),
        11 => Node::object([("step", Node::str("isClosed"))]),
        12 => Node::object([("step", Node::str("close"))]),
        _ => Node::object([("step", gen.word(&["unknownStep"]))]),
    }
}

fn codex_spec(gen: &mut Gen) -> Node {
    let mut responses = Vec::new();
    for _ in 0..gen.rng.below(4) {
        let entry = match gen.rng.below(5) {
            0 => Node::object([("reject", gen.or_wrong(4, |gen| gen.text()))]),
            1 => Node::object(Vec::<(&str, Node)>::new()),
            2 => gen.wrong(),
            _ => Node::object([("response", gen.any(2))]),
        };
        let name = gen.word(METHODS);
        let case_tree::tree::Node::String(name, _) = name else {
            continue;
        };
        responses.push((name, entry));
    }
    let mut spec = vec![("responses", gen.or_wrong(10, |_| Node::Object(responses)))];
    if gen.rng.one_in(4) {
        spec.push((
            "withoutOnRequest",
            gen.or_wrong(4, |gen| Node::Bool(gen.rng.one_in(2))),
        ));
    }
    gen.or_wrong(12, |_| Node::object(spec))
}

fn handlers(gen: &mut Gen) -> Node {
    let handlers = (0..gen.rng.below(4))
        .map(|_| {
            let mut handler = vec![
                ("name", gen.word(&["h1", "h2", "h3"])),
                ("kind", gen.word(&["answer", "reject", "pass"])),
            ];
            if gen.rng.one_in(2) {
                handler.push(("result", gen.any(1)));
            }
            if gen.rng.one_in(2) {
                handler.push(("message", gen.or_wrong(4, |gen| gen.text())));
            }
            Node::object(handler)
        })
        .collect();
    Node::Array(handlers)
}

/// A case for `ipcWorker`.
pub fn ipc_worker(gen: &mut Gen) -> Node {
    let steps = gen.rng.between(1, 10);
    let fields = vec![
        ("codex", codex_spec(gen)),
        (
            "script",
            Node::Array((0..steps).map(|_| worker_step(gen)).collect()),
        ),
    ];
    ipc_case(gen, "ipcWorker", fields)
}

/// A case for `ipcParent`.
pub fn ipc_parent(gen: &mut Gen) -> Node {
    let steps = gen.rng.between(1, 10);
    let fields = vec![
        ("requestHandlers", handlers(gen)),
        (
            "script",
            Node::Array((0..steps).map(|_| parent_step(gen)).collect()),
        ),
    ];
    ipc_case(gen, "ipcParent", fields)
}

/// The case, now and then with a `sendThrowMessage`.
fn ipc_case(gen: &mut Gen, op: &str, mut fields: Vec<(&str, Node)>) -> Node {
    if gen.rng.one_in(3) {
        fields.push(("sendThrowMessage", gen.or_wrong(3, |gen| gen.text())));
    }
    case_of(op, fields)
}
