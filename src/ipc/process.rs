//! The process modes of contract section 5: the protocol halves over a
//! real Node.js IPC channel.
//!
//! - `ipc-child <threadId>` ([`run_child`]): the worker half bound to this
//!   process's own channel, steered by cue messages.
//! - `ipc-parent [--timeout SECS] <child command…>` ([`parent::run_parent`]):
//!   spawns a child with a channel and runs the choreography against it.
//!
//! Both drive the deterministic halves of [`crate::ipc`] from one thread:
//! the channel's reader thread turns the wire into a queue of events, and
//! each event is one step (the half's synchronous work, then its
//! completions), in the order the reference's listeners would see it.

pub mod parent;
mod spawn;

use std::io::{self, Write};
use std::os::unix::net::UnixStream;
use std::sync::mpsc;

use super::channel::{self, ChannelEvent, NodeChannel};
use super::scripted_agent::ScriptedAgent;
use super::worker::{ServerRequestTicket, WorkerHalf};
use super::Channel;
use js_exact::js_object;
use js_exact::{JsString, Value};

pub use parent::{parse_timeout, run_parent, ParentOptions};

/// Exit status for a refusal: no usable channel, or bad arguments.
pub const EXIT_USAGE: u8 = 2;

/// The child's agent: `thread/read` resolves with a fixed answer,
/// `boom/method` rejects, every other method echoes (contract 5).
pub fn child_agent() -> ScriptedAgent {
    ScriptedAgent::new(&js_object! {
        "responses" => js_object! {
            "thread/read" => js_object! {
                "response" => js_object! {
                    "id" => 7.0,
                    "result" => js_object! {
                        "items" => Value::Array(vec![Value::from("a"), Value::from("b")]),
                    },
                },
            },
            "boom/method" => js_object! { "reject" => "scripted boom" },
        },
    })
}

/// Why [`serve_child`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildEnd {
    /// The parent cued `exit`.
    ExitCue,
    /// The parent closed the channel.
    Disconnected,
}

/// `ipc-child <threadId>`: adopts the channel from the environment and
/// serves it until the parent cues `exit` or goes away; answers the exit
/// status. Without a usable json channel it says why on stderr and
/// answers [`EXIT_USAGE`]. The thread id is required but unused, as in
/// the reference.
pub fn run_child(_thread_id: &str) -> u8 {
    let stream = match channel::adopt_from_env() {
        Ok(stream) => stream,
        Err(error) => {
            let _ = writeln!(io::stderr(), "worker-spawn oracle: ipc-child: {error}");
            return EXIT_USAGE;
        }
    };
    match serve_child(stream) {
        Ok(_) => 0,
        Err(error) => {
            let _ = writeln!(io::stderr(), "worker-spawn oracle: ipc-child: {error}");
            1
        }
    }
}

/// A cue `emit_server_request` whose settlement the parent awaits.
struct AwaitedCue {
    tickets: Vec<ServerRequestTicket>,
}

/// Serves the worker half on a connected stream (the child's side of the
/// channel) until the `exit` cue or the end of input.
pub fn serve_child(stream: UnixStream) -> io::Result<ChildEnd> {
    let (node_channel, reader) = NodeChannel::new(stream, None)?;
    let (sender, events) = mpsc::channel::<ChannelEvent>();
    let _reader = channel::spawn_reader(reader, sender)?;
    let mut worker = WorkerHalf::bind(child_agent(), node_channel);
    let mut awaited: Vec<AwaitedCue> = Vec::new();
    send_cue(&mut worker, js_object! { "cue" => "child_ready" });
    // The reader always ends with Disconnect; a closed queue means the
    // same.
    for event in events.iter() {
        match event {
            ChannelEvent::Message(message) => {
                // The worker's listener was registered before the cues'.
                worker.on_message(&message);
                if cue_step(&mut worker, &mut awaited, &message) {
                    return Ok(ChildEnd::ExitCue);
                }
            }
            ChannelEvent::Disconnect => {
                worker.channel_mut().mark_disconnected();
                worker.on_disconnect();
                worker.run_completions();
                return Ok(ChildEnd::Disconnected);
            }
        }
        worker.run_completions();
        send_settled_cues(&mut worker, &mut awaited);
    }
    Ok(ChildEnd::Disconnected)
}

/// The reference's cue listener, for one message; `true` for `exit`,
/// which ends the process before any completion runs (`process.exit` is
/// synchronous).
fn cue_step(
    worker: &mut WorkerHalf<NodeChannel, ScriptedAgent>,
    awaited: &mut Vec<AwaitedCue>,
    message: &Value,
) -> bool {
    let Value::String(cue) = message.get("cue") else {
        return false;
    };
    if cue.eq_str("emit_notification") {
        worker.agent_notification(message.get("notification"));
        send_cue(worker, js_object! { "cue" => "notification_emitted" });
    } else if cue.eq_str("emit_server_request") {
        let tickets: Vec<ServerRequestTicket> = worker
            .agent_server_request(message.get("request"))
            .into_iter()
            .collect();
        for ticket in &tickets {
            worker.agent_mut().expect_settlement(*ticket);
        }
        awaited.push(AwaitedCue { tickets });
    } else if cue.eq_str("report") {
        let trace = trace_value(worker);
        send_cue(worker, js_object! { "cue" => "trace", "trace" => trace });
    } else if cue.eq_str("exit") {
        return true;
    }
    false
}

/// `Promise.all(settlements).then(send)`: every awaited cue whose server
/// requests have all settled is answered, in the order the cues came (a
/// cue with none settles at once).
fn send_settled_cues(
    worker: &mut WorkerHalf<NodeChannel, ScriptedAgent>,
    awaited: &mut Vec<AwaitedCue>,
) {
    let mut waiting = Vec::new();
    for cue in std::mem::take(awaited) {
        let agent = worker.agent();
        if cue.tickets.iter().all(|ticket| agent.is_settled(*ticket)) {
            let trace = trace_value(worker);
            send_cue(
                worker,
                js_object! { "cue" => "server_request_settled", "trace" => trace },
            );
        } else {
            waiting.push(cue);
        }
    }
    *awaited = waiting;
}

fn trace_value(worker: &WorkerHalf<NodeChannel, ScriptedAgent>) -> Value {
    Value::Array(worker.agent().trace().to_vec())
}

/// `process.send?.(cue)`: a cue that cannot go out is lost, as the worker's
/// own frames are.
fn send_cue(worker: &mut WorkerHalf<NodeChannel, ScriptedAgent>, cue: Value) {
    let channel = worker.channel_mut();
    if channel.connected() {
        let _lost = channel.send(&cue);
    }
}

/// The text of a cue member, when it is a string.
pub(crate) fn cue_name(message: &Value) -> Option<&JsString> {
    match message.get("cue") {
        Value::String(cue) => Some(cue),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::{parse, to_json, TextMode};
    use std::io::{BufRead, BufReader};

    struct Parent {
        lines: BufReader<UnixStream>,
        writer: UnixStream,
    }

    impl Parent {
        fn send(&mut self, line: &str) {
            self.writer.write_all(line.as_bytes()).unwrap();
            self.writer.write_all(b"\n").unwrap();
        }
        fn next(&mut self) -> String {
            let mut line = String::new();
            self.lines.read_line(&mut line).unwrap();
            line.trim_end_matches('\n').to_string()
        }
    }

    fn start() -> (Parent, std::thread::JoinHandle<io::Result<ChildEnd>>) {
        let (ours, theirs) = UnixStream::pair().unwrap();
        let child = std::thread::spawn(move || serve_child(theirs));
        let parent = Parent {
            lines: BufReader::new(ours.try_clone().unwrap()),
            writer: ours,
        };
        (parent, child)
    }

    #[test]
    fn the_agent_answers_as_contract_5_says() {
        let json = |v: &Value| String::from_utf8(to_json(v)).unwrap();
        let mut agent = child_agent();
        use crate::ipc::worker::Agent;
        let read = agent.request(&JsString::from("thread/read"), &Value::Undefined);
        assert_eq!(
            json(&read.unwrap()),
            r#"{"id":7,"result":{"items":["a","b"]}}"#
        );
        let boom = agent.request(&JsString::from("boom/method"), &Value::Undefined);
        assert_eq!(boom.unwrap_err().message, JsString::from("scripted boom"));
        let other = agent.request(&JsString::from("x"), &Value::Undefined);
        assert_eq!(json(&other.unwrap()), r#"{"id":0,"result":{"echoed":"x"}}"#);
    }

    #[test]
    fn cues_frames_and_exit() {
        let (mut parent, child) = start();
        assert_eq!(parent.next(), r#"{"cue":"child_ready"}"#);
        parent.send(
            r#"{"type":"codex-request","id":1,"method":"thread/read","params":{"threadId":"t"}}"#,
        );
        assert_eq!(
            parent.next(),
            r#"{"type":"codex-response","id":1,"result":{"id":7,"result":{"items":["a","b"]}}}"#
        );
        parent.send(r#"{"cue":"emit_notification","notification":{"n":1}}"#);
        assert_eq!(
            parent.next(),
            r#"{"type":"codex-notification","notification":{"n":1}}"#
        );
        assert_eq!(parent.next(), r#"{"cue":"notification_emitted"}"#);
        parent.send(r#"{"cue":"emit_server_request","request":{"id":21}}"#);
        assert_eq!(
            parent.next(),
            r#"{"type":"codex-server-request","id":1,"request":{"id":21}}"#
        );
        parent.send(r#"{"type":"codex-server-response","id":1,"result":{"ok":true}}"#);
        assert_eq!(
            parent.next(),
            concat!(
                r#"{"cue":"server_request_settled","trace":["#,
                r#"{"t":"codexRequest","method":"thread/read","params":{"threadId":"t"}},"#,
                r#"{"t":"serverRequestResolved","value":{"ok":true}}]}"#
            )
        );
        parent.send(r#"{"cue":"report"}"#);
        assert!(parent
            .next()
            .starts_with(r#"{"cue":"trace","trace":[{"t":"codexRequest""#));
        parent.send(r#"{"cue":"exit"}"#);
        assert_eq!(child.join().unwrap().unwrap(), ChildEnd::ExitCue);
    }

    #[test]
    fn a_cue_that_is_also_a_frame_reaches_the_worker_first() {
        let (mut parent, child) = start();
        parent.next();
        parent.send(r#"{"cue":"report","type":"codex-notify","method":"m"}"#);
        assert_eq!(
            parent.next(),
            r#"{"cue":"trace","trace":[{"t":"codexNotify","method":"m","params":null}]}"#
        );
        drop(parent);
        assert_eq!(child.join().unwrap().unwrap(), ChildEnd::Disconnected);
    }

    #[test]
    fn a_disconnect_rejects_what_is_pending_and_ends_the_child() {
        let (mut parent, child) = start();
        parent.next();
        parent.send(r#"{"cue":"emit_server_request"}"#);
        assert_eq!(parent.next(), r#"{"type":"codex-server-request","id":1}"#);
        parent.send(r#"{"cue":"bogus"}"#);
        parent.send("[1,2]");
        parent.send(r#"{"cue":"report"}"#);
        assert_eq!(parent.next(), r#"{"cue":"trace","trace":[]}"#);
        drop(parent);
        assert_eq!(child.join().unwrap().unwrap(), ChildEnd::Disconnected);
    }

    #[test]
    fn cue_names_are_strings_only() {
        let value = |text: &str| parse(text.as_bytes(), TextMode::LossyUtf8).unwrap();
        assert_eq!(
            cue_name(&value(r#"{"cue":"a"}"#)),
            Some(&JsString::from("a"))
        );
        assert_eq!(cue_name(&value(r#"{"cue":1}"#)), None);
        assert_eq!(cue_name(&value("[]")), None);
    }
}
