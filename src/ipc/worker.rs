//! The worker half of the protocol: `bindThreadCodexWorkerIpc(codex, ipc)`
//! (contract 4.19), as a state machine.
//!
//! The driver feeds it events: [`WorkerHalf::on_message`] and
//! [`WorkerHalf::on_disconnect`] from the channel,
//! [`WorkerHalf::agent_notification`] and
//! [`WorkerHalf::agent_server_request`] from the agent. Each does the
//! reference's synchronous work and queues the promise completions it
//! causes; [`WorkerHalf::run_completions`] runs them (see the module
//! documentation of [`crate::ipc`] for the timing rule).

use std::collections::{BTreeMap, VecDeque};

use super::frame::{Frame, Reply};
use super::{send_failure, Channel, DISCONNECTED, NOT_CONNECTED};
use js_exact::{JsError, JsResult, JsString, Value};

/// The `codex` object the worker bridges to the parent.
pub trait Agent {
    /// `codex.request(method, params)`. The worker treats the answer as a
    /// promise that has already settled: `Ok` resolved, `Err` rejected or
    /// thrown (the reference handles both alike).
    fn request(&mut self, method: &JsString, params: &Value) -> JsResult<Value>;
    /// `codex.notify(method, params)`.
    fn notify(&mut self, method: &JsString, params: &Value);
    /// Whether the agent has `onRequest`: without it, the worker never
    /// subscribes to server requests and the agent can emit none to it.
    fn has_on_request(&self) -> bool;
    /// The promise that the worker's `onRequest` callback returned for the
    /// server request `ticket` has settled, and this is the agent's
    /// `.then` reaction to it.
    fn server_request_settled(&mut self, ticket: ServerRequestTicket, outcome: JsResult<Value>);
}

/// Names one server request the agent emitted, for its settlement.
/// Tickets count from 0 per bind; they are not the frame ids (a request
/// refused after a disconnect gets a ticket but no id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ServerRequestTicket(pub u64);

/// A promise reaction the worker has queued.
#[derive(Clone, Debug, PartialEq)]
enum Completion {
    /// The agent answered a `codex-request`: send the `codex-response`.
    Respond { id: f64, outcome: JsResult<Value> },
    /// A server request settled: tell the agent.
    Settled {
        ticket: ServerRequestTicket,
        outcome: JsResult<Value>,
    },
}

/// The worker half bound to an agent and a channel.
#[derive(Debug)]
pub struct WorkerHalf<C, A> {
    channel: C,
    agent: A,
    disconnected: bool,
    /// The `once("disconnect")` listener is still registered.
    hears_disconnect: bool,
    /// The worker subscribed to the agent's server requests.
    forwards_server_requests: bool,
    next_server_request_id: u64,
    next_ticket: u64,
    /// Pending server requests by id; ids only grow, so id order is the
    /// reference's Map insertion order.
    pending: BTreeMap<u64, ServerRequestTicket>,
    completions: VecDeque<Completion>,
}

impl<C: Channel, A: Agent> WorkerHalf<C, A> {
    /// `bindThreadCodexWorkerIpc(agent, channel)`: listens for messages and
    /// one disconnect, forwards notifications, and forwards server requests
    /// when the agent has `onRequest`.
    pub fn bind(agent: A, channel: C) -> Self {
        let forwards_server_requests = agent.has_on_request();
        WorkerHalf {
            channel,
            agent,
            disconnected: false,
            hears_disconnect: true,
            forwards_server_requests,
            next_server_request_id: 1,
            next_ticket: 0,
            pending: BTreeMap::new(),
            completions: VecDeque::new(),
        }
    }

    /// A `message` event: dispatches the frames meant for the worker and
    /// ignores everything else.
    pub fn on_message(&mut self, message: &Value) {
        match Frame::parse(message) {
            Some(Frame::CodexRequest {
                id,
                method: Value::String(ref method),
                params,
            }) => {
                let outcome = self.agent.request(method, &params);
                self.completions
                    .push_back(Completion::Respond { id, outcome });
            }
            Some(Frame::CodexNotify {
                method: Value::String(ref method),
                ref params,
            }) => self.agent.notify(method, params),
            Some(Frame::CodexServerResponse { id, reply }) => {
                self.settle_server_request(id, &reply)
            }
            _ => {}
        }
    }

    /// The `disconnect` event (heard once): every pending server request
    /// is rejected, in id order, and nothing is sent afterwards.
    pub fn on_disconnect(&mut self) {
        if !self.hears_disconnect {
            return;
        }
        self.hears_disconnect = false;
        self.disconnected = true;
        for ticket in std::mem::take(&mut self.pending).into_values() {
            self.settle(ticket, Err(JsError::new(DISCONNECTED)));
        }
    }

    /// The agent emitted a notification: forward it (lost when it cannot
    /// be sent).
    pub fn agent_notification(&mut self, notification: &Value) {
        let frame = Frame::CodexNotification {
            notification: notification.clone(),
        };
        let _lost = self.try_send(&frame);
    }

    /// The agent emitted a server request to its `onRequest` callbacks.
    /// `None` when the worker is not one of them (the agent has no
    /// `onRequest`); otherwise the ticket its settlement will carry.
    pub fn agent_server_request(&mut self, request: &Value) -> Option<ServerRequestTicket> {
        if !self.forwards_server_requests {
            return None;
        }
        let ticket = ServerRequestTicket(self.next_ticket);
        self.next_ticket += 1;
        if self.disconnected {
            self.settle(ticket, Err(JsError::new(DISCONNECTED)));
            return Some(ticket);
        }
        let id = self.next_server_request_id;
        self.next_server_request_id += 1;
        self.pending.insert(id, ticket);
        let frame = Frame::CodexServerRequest {
            id: id as f64,
            request: request.clone(),
        };
        if let Err(failure) = self.try_send(&frame) {
            self.pending.remove(&id);
            self.settle(ticket, Err(JsError::new(failure)));
        }
        Some(ticket)
    }

    /// Runs the queued promise completions, in settlement order, until
    /// none is left.
    pub fn run_completions(&mut self) {
        while let Some(completion) = self.completions.pop_front() {
            match completion {
                Completion::Respond { id, outcome } => {
                    let frame = Frame::CodexResponse {
                        id,
                        reply: Reply::from_settlement(outcome),
                    };
                    let _lost = self.try_send(&frame);
                }
                Completion::Settled { ticket, outcome } => {
                    self.agent.server_request_settled(ticket, outcome);
                }
            }
        }
    }

    /// Whether completions are waiting for [`WorkerHalf::run_completions`].
    pub fn has_completions(&self) -> bool {
        !self.completions.is_empty()
    }

    /// How many server requests wait for the parent's answer.
    pub fn pending_server_requests(&self) -> usize {
        self.pending.len()
    }

    /// The agent.
    pub fn agent(&self) -> &A {
        &self.agent
    }

    /// The agent, to emit through or to inspect.
    pub fn agent_mut(&mut self) -> &mut A {
        &mut self.agent
    }

    /// The channel.
    pub fn channel(&self) -> &C {
        &self.channel
    }

    /// The channel, to change its state (a driver that scripts it).
    pub fn channel_mut(&mut self) -> &mut C {
        &mut self.channel
    }

    /// The agent and the channel back.
    pub fn into_parts(self) -> (A, C) {
        (self.agent, self.channel)
    }

    /// `trySend`: `Err` with the reason when the frame could not go out.
    fn try_send(&mut self, frame: &Frame) -> Result<(), JsString> {
        if self.disconnected || !self.channel.connected() {
            return Err(JsString::from(NOT_CONNECTED));
        }
        self.channel
            .send(&frame.to_value())
            .map_err(|error| send_failure(&error))
    }

    fn settle_server_request(&mut self, id: f64, reply: &Reply) {
        let Some(ticket) = pending_key(id).and_then(|key| self.pending.remove(&key)) else {
            return;
        };
        self.settle(ticket, reply.settlement("server request failed"));
    }

    fn settle(&mut self, ticket: ServerRequestTicket, outcome: JsResult<Value>) {
        self.completions
            .push_back(Completion::Settled { ticket, outcome });
    }
}

/// The pending-map key a frame id finds: Map lookups compare numbers by
/// value (`1.0` is `1`), and pending ids are whole numbers from 1.
pub(crate) fn pending_key(id: f64) -> Option<u64> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    (id.fract() == 0.0 && (1.0..=MAX_SAFE).contains(&id)).then_some(id as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc::testing::Recorder;
    use js_exact::js_object;
    use js_exact::to_json;

    #[derive(Default)]
    struct Echo {
        without_on_request: bool,
        log: Vec<String>,
    }

    impl Agent for Echo {
        fn request(&mut self, method: &JsString, _params: &Value) -> JsResult<Value> {
            self.log.push(format!("request {method}"));
            if method.eq_str("fail") {
                Err(JsError::new("agent failed"))
            } else {
                Ok(Value::from(method))
            }
        }
        fn notify(&mut self, method: &JsString, _params: &Value) {
            self.log.push(format!("notify {method}"));
        }
        fn has_on_request(&self) -> bool {
            !self.without_on_request
        }
        fn server_request_settled(
            &mut self,
            ticket: ServerRequestTicket,
            outcome: JsResult<Value>,
        ) {
            let text = match outcome {
                Ok(value) => String::from_utf8(to_json(&value)).unwrap(),
                Err(error) => format!("error {}", error.message),
            };
            self.log.push(format!("settled {} {text}", ticket.0));
        }
    }

    fn worker() -> WorkerHalf<Recorder, Echo> {
        WorkerHalf::bind(Echo::default(), Recorder::default())
    }

    fn sent(worker: &WorkerHalf<Recorder, Echo>) -> Vec<String> {
        let frames = &worker.channel().sent;
        frames
            .iter()
            .map(|frame| String::from_utf8(to_json(frame)).unwrap())
            .collect()
    }

    #[test]
    fn a_request_is_answered_only_when_completions_run() {
        let mut worker = worker();
        worker.on_message(&js_object! { "type" => "codex-request", "id" => 3.0, "method" => "m" });
        assert_eq!(worker.agent().log, ["request m"]);
        assert!(sent(&worker).is_empty());
        assert!(worker.has_completions());
        worker.run_completions();
        assert_eq!(
            sent(&worker),
            [r#"{"type":"codex-response","id":3,"result":"m"}"#]
        );
        worker
            .on_message(&js_object! { "type" => "codex-request", "id" => 4.0, "method" => "fail" });
        worker.run_completions();
        assert_eq!(
            sent(&worker)[1],
            r#"{"type":"codex-response","id":4,"error":{"message":"agent failed"}}"#
        );
    }

    #[test]
    fn a_response_is_lost_when_the_channel_closed_before_it_went_out() {
        let mut worker = worker();
        worker.on_message(&js_object! { "type" => "codex-request", "id" => 1.0, "method" => "m" });
        worker.channel_mut().disconnected = true;
        worker.run_completions();
        assert!(sent(&worker).is_empty());
    }

    #[test]
    fn notify_goes_to_the_agent_and_notifications_to_the_parent() {
        let mut worker = worker();
        worker.on_message(&js_object! { "type" => "codex-notify", "method" => "n" });
        worker.agent_notification(&js_object! { "k" => 1.0 });
        worker.agent_notification(&Value::Undefined);
        assert_eq!(worker.agent().log, ["notify n"]);
        assert_eq!(
            sent(&worker),
            [
                r#"{"type":"codex-notification","notification":{"k":1}}"#,
                r#"{"type":"codex-notification"}"#
            ]
        );
    }

    #[test]
    fn server_requests_settle_by_id_and_ignore_strangers() {
        let mut worker = worker();
        assert_eq!(
            worker.agent_server_request(&Value::from("a")),
            Some(ServerRequestTicket(0))
        );
        assert_eq!(
            worker.agent_server_request(&Value::from("b")),
            Some(ServerRequestTicket(1))
        );
        assert_eq!(worker.pending_server_requests(), 2);
        for id in [0.0, 1.5, 3.0, f64::INFINITY] {
            worker.on_message(&js_object! { "type" => "codex-server-response", "id" => id });
        }
        worker.run_completions();
        assert!(worker.agent().log.is_empty());
        worker.on_message(&js_object! {
            "type" => "codex-server-response", "id" => 2.0, "error" => js_object! {}
        });
        worker.on_message(&js_object! { "type" => "codex-server-response", "id" => 1.0 });
        worker.run_completions();
        assert_eq!(
            worker.agent().log,
            ["settled 1 error server request failed", "settled 0 null"]
        );
        assert_eq!(worker.pending_server_requests(), 0);
    }

    #[test]
    fn disconnect_rejects_pending_in_id_order_once() {
        let mut worker = worker();
        worker.agent_server_request(&Value::from("a"));
        worker.agent_server_request(&Value::from("b"));
        worker.on_disconnect();
        worker.on_disconnect();
        assert!(worker.agent().log.is_empty());
        worker.run_completions();
        assert_eq!(
            worker.agent().log,
            [
                "settled 0 error thread worker IPC disconnected",
                "settled 1 error thread worker IPC disconnected"
            ]
        );
        assert_eq!(
            worker.agent_server_request(&Value::from("c")),
            Some(ServerRequestTicket(2))
        );
        worker.run_completions();
        assert_eq!(
            worker.agent().log[2],
            "settled 2 error thread worker IPC disconnected"
        );
        assert_eq!(sent(&worker).len(), 2);
    }

    #[test]
    fn refused_server_requests_use_up_their_id() {
        let mut worker = worker();
        worker.channel_mut().disconnected = true;
        worker.agent_server_request(&Value::Null);
        worker.channel_mut().disconnected = false;
        worker.channel_mut().failure = Some("pipe");
        worker.agent_server_request(&Value::Null);
        worker.channel_mut().failure = None;
        worker.agent_server_request(&Value::Null);
        worker.run_completions();
        assert_eq!(
            worker.agent().log,
            [
                "settled 0 error thread worker IPC is not connected",
                "settled 1 error thread worker IPC send failed: pipe"
            ]
        );
        assert_eq!(
            sent(&worker),
            [r#"{"type":"codex-server-request","id":3,"request":null}"#]
        );
    }

    #[test]
    fn an_agent_without_on_request_gets_no_forwarding() {
        let mut worker = WorkerHalf::bind(
            Echo {
                without_on_request: true,
                ..Echo::default()
            },
            Recorder::default(),
        );
        assert_eq!(worker.agent_server_request(&Value::Null), None);
        assert!(!worker.has_completions());
        assert!(sent(&worker).is_empty());
    }

    #[test]
    fn pending_keys_are_whole_positive_numbers() {
        assert_eq!(pending_key(1.0), Some(1));
        assert_eq!(pending_key(-0.0), None);
        assert_eq!(pending_key(0.0), None);
        assert_eq!(pending_key(1.5), None);
        assert_eq!(pending_key(f64::INFINITY), None);
        assert_eq!(pending_key(-1.0), None);
    }
}
