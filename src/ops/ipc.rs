//! The `ipcWorker` (contract 4.20) and `ipcParent` (4.21) ops: each half
//! of the protocol ([`crate::ipc`]) driven by a case's script against a
//! recording channel, with the completions of every step run before the
//! next.

use crate::ipc::parent::{
    HandlerAnswer, HandlerId, ParentHalf, ParentHost, RequestTicket, SubscriberId,
};
use crate::ipc::scripted_agent::ScriptedAgent;
use crate::ipc::worker::WorkerHalf;
use crate::ipc::Channel;
use js_exact::js_object;
use js_exact::{JsError, JsResult, Value, UNDEFINED};

/// A channel that records every frame sent while sending works.
#[derive(Clone, Debug)]
pub struct ScriptedChannel {
    sent: Vec<Value>,
    connected: bool,
    throwing: bool,
    throw_message: Value,
}

impl ScriptedChannel {
    /// A connected channel whose sends, once made to throw, throw
    /// `Error(sendThrowMessage ?? "scripted send failure")`.
    pub fn new(send_throw_message: &Value) -> Self {
        ScriptedChannel {
            sent: Vec::new(),
            connected: true,
            throwing: false,
            throw_message: send_throw_message
                .or(&Value::from("scripted send failure"))
                .clone(),
        }
    }

    /// The frames sent so far.
    pub fn sent(&self) -> &[Value] {
        &self.sent
    }

    /// The `sendMode` step: `"throw"` makes every later send throw; any
    /// other mode makes sends work again.
    pub fn set_mode(&mut self, mode: &Value) {
        self.throwing = matches!(mode, Value::String(mode) if mode.eq_str("throw"));
    }

    /// The `disconnectChannel` step.
    pub fn disconnect(&mut self) {
        self.connected = false;
    }

    fn into_sent(self) -> Vec<Value> {
        self.sent
    }
}

impl Channel for ScriptedChannel {
    fn send(&mut self, frame: &Value) -> Result<(), JsError> {
        if self.throwing {
            return Err(JsError::scripted(&self.throw_message));
        }
        self.sent.push(frame.clone());
        Ok(())
    }

    fn connected(&self) -> bool {
        self.connected
    }
}

/// The steps of a case's `script` (absent or `null`: none; the batch has
/// already refused anything else).
fn steps(case: &Value) -> &[Value] {
    case.get("script").as_array().unwrap_or(&[])
}

/// Whether a step's `step` is exactly `name`.
fn is_step(step: &Value, name: &str) -> bool {
    matches!(step.get("step"), Value::String(kind) if kind.eq_str(name))
}

fn result(sent: Vec<Value>, trace: Vec<Value>) -> Value {
    js_object! { "sent" => sent, "trace" => trace }
}

/// The `ipcWorker` op.
pub fn ipc_worker_op(case: &Value) -> Value {
    let agent = ScriptedAgent::new(case.get("codex"));
    let channel = ScriptedChannel::new(case.get("sendThrowMessage"));
    let mut worker = WorkerHalf::bind(agent, channel);
    for step in steps(case) {
        if is_step(step, "parentMessage") {
            worker.on_message(step.get("message"));
        } else if is_step(step, "notification") {
            worker.agent_notification(step.get("notification"));
        } else if is_step(step, "serverRequest") {
            let _ticket = worker.agent_server_request(step.get("request"));
        } else if is_step(step, "disconnectChannel") {
            worker.channel_mut().disconnect();
        } else if is_step(step, "sendMode") {
            worker.channel_mut().set_mode(step.get("mode"));
        } else if is_step(step, "disconnectEvent") {
            worker.on_disconnect();
        }
        worker.run_completions();
    }
    let (agent, channel) = worker.into_parts();
    result(channel.into_sent(), agent.into_trace())
}

/// The host of the `ipcParent` op: a subscriber added at connect, one
/// more per `lateNotificationSubscribe`, the case's `requestHandlers`,
/// and a trace that the harness appends to as well.
struct ScriptedHost {
    trace: Vec<Value>,
    first_subscriber: Option<SubscriberId>,
    /// The `requestHandlers` entries, by the id each was registered under.
    handlers: Vec<(HandlerId, Value)>,
}

impl ParentHost for ScriptedHost {
    fn notification(&mut self, subscriber: SubscriberId, notification: &Value) {
        let t = if Some(subscriber) == self.first_subscriber {
            "notification"
        } else {
            "lateNotification"
        };
        self.trace
            .push(js_object! { "t" => t, "notification" => notification });
    }

    fn server_request(&mut self, handler: HandlerId, request: &Value) -> HandlerAnswer {
        let entry = self
            .handlers
            .iter()
            .find(|(id, _)| *id == handler)
            .map_or(&UNDEFINED, |(_, entry)| entry);
        self.trace.push(js_object! {
            "t" => "serverRequest",
            "handler" => entry.get("name"),
            "request" => request,
        });
        match entry.get("kind") {
            Value::String(kind) if kind.eq_str("answer") => match entry.get("result") {
                Value::Undefined => HandlerAnswer::Pass,
                result => HandlerAnswer::Resolve(result.clone()),
            },
            Value::String(kind) if kind.eq_str("reject") => {
                HandlerAnswer::Reject(JsError::scripted(entry.get("message")))
            }
            _ => HandlerAnswer::Pass,
        }
    }

    fn request_settled(&mut self, _ticket: RequestTicket, outcome: JsResult<Value>) {
        self.trace.push(match outcome {
            Ok(response) => js_object! { "t" => "requestResolved", "response" => response },
            Err(error) => js_object! { "t" => "requestRejected", "message" => error.message },
        });
    }
}

/// `step.params ?? undefined`: `null` params count as absent.
fn params(step: &Value) -> Value {
    match step.get("params") {
        Value::Null => Value::Undefined,
        params => params.clone(),
    }
}

/// The `ipcParent` op.
pub fn ipc_parent_op(case: &Value) -> Value {
    let host = ScriptedHost {
        trace: Vec::new(),
        first_subscriber: None,
        handlers: Vec::new(),
    };
    let channel = ScriptedChannel::new(case.get("sendThrowMessage"));
    let mut client = ParentHalf::connect(channel, host);
    let first = client.on_notification();
    client.host_mut().first_subscriber = Some(first);
    for entry in case.get("requestHandlers").as_array().unwrap_or(&[]) {
        let id = client.on_request();
        client.host_mut().handlers.push((id, entry.clone()));
    }
    for step in steps(case) {
        if is_step(step, "request") {
            let _ticket = client.request(step.get("method").clone(), params(step));
        } else if is_step(step, "notify") {
            let record = match client.notify(step.get("method").clone(), params(step)) {
                Ok(()) => js_object! { "t" => "notifyOk" },
                Err(error) => js_object! { "t" => "notifyThrew", "message" => error.message },
            };
            client.host_mut().trace.push(record);
        } else if is_step(step, "childMessage") {
            client.on_message(step.get("message"));
        } else if is_step(step, "lateNotificationSubscribe") {
            let _late = client.on_notification();
        } else if is_step(step, "exitEvent") {
            client.on_exit();
        } else if is_step(step, "disconnectEvent") {
            client.on_disconnect();
        } else if is_step(step, "disconnectChannel") {
            client.channel_mut().disconnect();
        } else if is_step(step, "sendMode") {
            client.channel_mut().set_mode(step.get("mode"));
        } else if is_step(step, "isClosed") {
            let value = client.is_closed();
            client
                .host_mut()
                .trace
                .push(js_object! { "t" => "isClosed", "value" => value });
        } else if is_step(step, "close") {
            client.close();
            client.host_mut().trace.push(js_object! { "t" => "closed" });
        }
        client.run_completions();
    }
    let (host, channel) = client.into_parts();
    result(channel.into_sent(), host.trace)
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::value;
    use js_exact::to_json;

    fn run(op: fn(&Value) -> Value, case: &str) -> String {
        String::from_utf8(to_json(&op(&value(case)))).unwrap()
    }

    fn failure(channel: &mut ScriptedChannel) -> String {
        channel.set_mode(&Value::from("throw"));
        let message = channel.send(&Value::Null).unwrap_err().message;
        message.to_string()
    }

    #[test]
    fn the_channel_throws_only_in_throw_mode() {
        let mut channel = ScriptedChannel::new(&Value::Undefined);
        assert!(channel.connected());
        assert_eq!(channel.send(&Value::from(1.0)), Ok(()));
        assert_eq!(failure(&mut channel), "scripted send failure");
        channel.set_mode(&Value::from("THROW"));
        assert_eq!(channel.send(&Value::from(2.0)), Ok(()));
        assert_eq!(channel.sent(), [Value::from(1.0), Value::from(2.0)]);
        channel.disconnect();
        assert!(!channel.connected());
    }

    #[test]
    fn send_throw_messages() {
        for (message, expected) in [
            (Value::Null, "scripted send failure"),
            (Value::from(""), ""),
            (Value::from(0.0), "0"),
            (value(r#"[1,null,"a"]"#), "1,,a"),
            (value("{}"), "[object Object]"),
        ] {
            assert_eq!(failure(&mut ScriptedChannel::new(&message)), expected);
        }
    }

    #[test]
    fn the_worker_op_runs_each_steps_completions_before_the_next() {
        let case = r#"{"script":[
            {"step":"parentMessage","message":{"type":"codex-request","id":1,"method":"m"}},
            {"step":"disconnectChannel"},
            {"step":"parentMessage","message":{"type":"codex-request","id":2,"method":"n"}}]}"#;
        assert_eq!(
            run(ipc_worker_op, case),
            concat!(
                r#"{"sent":[{"type":"codex-response","id":1,"result":{"id":0,"result":{"echoed":"m"}}}],"#,
                r#""trace":[{"t":"codexRequest","method":"m","params":null},"#,
                r#"{"t":"codexRequest","method":"n","params":null}]}"#
            )
        );
    }

    #[test]
    fn the_parent_op_traces_closed_before_the_rejections() {
        let case = r#"{"script":[{"step":"request","method":"a","params":null},{"step":"close"}]}"#;
        assert_eq!(
            run(ipc_parent_op, case),
            concat!(
                r#"{"sent":[{"type":"codex-request","id":1,"method":"a"}],"#,
                r#""trace":[{"t":"closed"},{"t":"requestRejected","message":"thread worker IPC is closed"}]}"#
            )
        );
    }

    #[test]
    fn parent_handlers_and_subscribers_trace_by_kind() {
        let case = r#"{"requestHandlers":[{"name":"p","kind":"answer"},{"kind":"reject"}],
            "script":[{"step":"lateNotificationSubscribe"},
            {"step":"childMessage","message":{"type":"codex-notification","notification":1}},
            {"step":"childMessage","message":{"type":"codex-server-request","id":3}}]}"#;
        assert_eq!(
            run(ipc_parent_op, case),
            concat!(
                r#"{"sent":[{"type":"codex-server-response","id":3,"error":{"message":""}}],"#,
                r#""trace":[{"t":"notification","notification":1},"#,
                r#"{"t":"lateNotification","notification":1},"#,
                r#"{"t":"serverRequest","handler":"p"},{"t":"serverRequest"}]}"#
            )
        );
    }
}
