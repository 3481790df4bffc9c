//! The parent half of the protocol: the client that
//! `connectThreadCodexWorkerIpc(child)` returns (contract 4.19), as a
//! state machine.
//!
//! The client's own calls ([`ParentHalf::request`], [`ParentHalf::notify`],
//! [`ParentHalf::close`], …) and the child's events
//! ([`ParentHalf::on_message`], [`ParentHalf::on_exit`],
//! [`ParentHalf::on_disconnect`]) each do the reference's synchronous work
//! and queue the promise completions they cause;
//! [`ParentHalf::run_completions`] runs them (see [`crate::ipc`] on timing).
//! What the reference hands to callbacks (subscribers, request handlers,
//! a request's `.then`) goes to a [`ParentHost`].

use std::collections::{BTreeMap, VecDeque};

use super::frame::{session_closed_reason, Frame, Reply};
use super::worker::pending_key;
use super::{send_failure, Channel, CLOSED, DISCONNECTED, EXITED, NOT_CONNECTED};
use js_exact::js_concat;
use js_exact::{JsError, JsResult, JsString, Value};

/// A notification subscriber, numbered from 0 in subscription order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SubscriberId(pub usize);

/// A server request handler, numbered from 0 in registration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandlerId(pub usize);

/// Names one `request` call, for its settlement. Tickets count from 0;
/// they are not the frame ids (a refused request gets no id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RequestTicket(pub u64);

/// What a server request handler returned.
#[derive(Clone, Debug, PartialEq)]
pub enum HandlerAnswer {
    /// `undefined`: the next handler is asked.
    Pass,
    /// A value, or a promise that resolves with it (`undefined` included:
    /// the response then has no `result`).
    Resolve(Value),
    /// A promise that rejects with this error, or a synchronous throw.
    Reject(JsError),
}

/// The code that uses the client: its subscribers, its request handlers
/// and the continuations of its requests.
pub trait ParentHost {
    /// Subscriber `subscriber` gets a notification.
    fn notification(&mut self, subscriber: SubscriberId, notification: &Value);
    /// Handler `handler` is asked to answer a server request.
    fn server_request(&mut self, handler: HandlerId, request: &Value) -> HandlerAnswer;
    /// The promise of request `ticket` settled; this is its `.then`
    /// reaction.
    fn request_settled(&mut self, ticket: RequestTicket, outcome: JsResult<Value>);
}

/// A promise reaction the client has queued.
#[derive(Clone, Debug, PartialEq)]
enum Completion {
    /// A request settled: tell the host.
    Settled {
        ticket: RequestTicket,
        outcome: JsResult<Value>,
    },
    /// A server request's answer settled: send the response.
    Respond { id: f64, outcome: JsResult<Value> },
}

/// The parent half connected to a child.
#[derive(Debug)]
pub struct ParentHalf<C, H> {
    channel: C,
    host: H,
    close_reason: Option<JsString>,
    hears_messages: bool,
    hears_exit: bool,
    hears_disconnect: bool,
    next_request_id: u64,
    next_ticket: u64,
    /// Pending requests by id; ids only grow, so id order is the
    /// reference's Map insertion order.
    pending: BTreeMap<u64, RequestTicket>,
    subscribers: Vec<SubscriberId>,
    handlers: Vec<HandlerId>,
    completions: VecDeque<Completion>,
}

impl<C: Channel, H: ParentHost> ParentHalf<C, H> {
    /// `connectThreadCodexWorkerIpc(child)`: listens for messages and once
    /// each for exit and disconnect.
    pub fn connect(channel: C, host: H) -> Self {
        ParentHalf {
            channel,
            host,
            close_reason: None,
            hears_messages: true,
            hears_exit: true,
            hears_disconnect: true,
            next_request_id: 1,
            next_ticket: 0,
            pending: BTreeMap::new(),
            subscribers: Vec::new(),
            handlers: Vec::new(),
            completions: VecDeque::new(),
        }
    }

    /// `client.request(method, params)`: its settlement reaches the host
    /// under the returned ticket. Refused at once (closed, not connected)
    /// without using an id; a send that throws uses one.
    pub fn request(&mut self, method: Value, params: Value) -> RequestTicket {
        let ticket = RequestTicket(self.next_ticket);
        self.next_ticket += 1;
        if let Some(refusal) = self.send_refusal() {
            self.settle(ticket, Err(JsError::new(refusal)));
            return ticket;
        }
        let id = self.next_request_id;
        self.next_request_id += 1;
        self.pending.insert(id, ticket);
        let frame = Frame::CodexRequest {
            id: id as f64,
            method,
            params,
        };
        if let Err(failure) = self.try_send(&frame) {
            self.pending.remove(&id);
            self.settle(ticket, Err(JsError::new(failure)));
        }
        ticket
    }

    /// `client.notify(method, params)`: throws (here `Err`) when the
    /// frame cannot be sent.
    pub fn notify(&mut self, method: Value, params: Value) -> JsResult<()> {
        self.try_send(&Frame::CodexNotify { method, params })
            .map_err(JsError::new)
    }

    /// `client.onNotification(cb)`: the new subscriber hears every later
    /// notification.
    pub fn on_notification(&mut self) -> SubscriberId {
        let subscriber = SubscriberId(self.subscribers.len());
        self.subscribers.push(subscriber);
        subscriber
    }

    /// `client.onRequest(handler)`: asked after the handlers before it.
    pub fn on_request(&mut self) -> HandlerId {
        let handler = HandlerId(self.handlers.len());
        self.handlers.push(handler);
        handler
    }

    /// `client.close()`: stops listening to the child and closes with
    /// `thread worker IPC is closed` (a no-op close if already closed).
    pub fn close(&mut self) {
        self.hears_messages = false;
        self.hears_exit = false;
        self.hears_disconnect = false;
        self.close_with(JsString::from(CLOSED));
    }

    /// `client.isClosed()`.
    pub fn is_closed(&self) -> bool {
        self.close_reason.is_some()
    }

    /// Why the client closed, once it has.
    pub fn close_reason(&self) -> Option<&JsString> {
        self.close_reason.as_ref()
    }

    /// The child's `message` event (nothing once `close()` was called).
    pub fn on_message(&mut self, message: &Value) {
        if !self.hears_messages {
            return;
        }
        match Frame::parse(message) {
            Some(Frame::CodexResponse { id, reply }) => self.settle_request(id, &reply),
            Some(Frame::CodexNotification { notification }) => {
                for subscriber in self.subscribers.clone() {
                    self.host.notification(subscriber, &notification);
                }
            }
            Some(Frame::CodexServerRequest { id, request }) => {
                let outcome = self.first_answer(&request);
                self.completions
                    .push_back(Completion::Respond { id, outcome });
            }
            Some(Frame::CodexSessionClosed { reason }) => {
                let reason = session_closed_reason(&reason);
                self.close_with(js_concat!("thread worker session closed: ", reason));
            }
            _ => {}
        }
    }

    /// The child's `exit` event (heard once, and not after `close()`).
    pub fn on_exit(&mut self) {
        if std::mem::take(&mut self.hears_exit) {
            self.close_with(JsString::from(EXITED));
        }
    }

    /// The child's `disconnect` event (heard once, and not after `close()`).
    pub fn on_disconnect(&mut self) {
        if std::mem::take(&mut self.hears_disconnect) {
            self.close_with(JsString::from(DISCONNECTED));
        }
    }

    /// Runs the queued promise completions, in settlement order, until
    /// none is left.
    pub fn run_completions(&mut self) {
        while let Some(completion) = self.completions.pop_front() {
            match completion {
                Completion::Settled { ticket, outcome } => {
                    self.host.request_settled(ticket, outcome);
                }
                Completion::Respond { id, outcome } => {
                    let frame = Frame::CodexServerResponse {
                        id,
                        reply: Reply::from_settlement(outcome),
                    };
                    let _lost = self.try_send(&frame);
                }
            }
        }
    }

    /// Whether completions are waiting for [`ParentHalf::run_completions`].
    pub fn has_completions(&self) -> bool {
        !self.completions.is_empty()
    }

    /// How many requests wait for the child's answer.
    pub fn pending_requests(&self) -> usize {
        self.pending.len()
    }

    /// The host.
    pub fn host(&self) -> &H {
        &self.host
    }

    /// The host, for the driver's own records.
    pub fn host_mut(&mut self) -> &mut H {
        &mut self.host
    }

    /// The channel.
    pub fn channel(&self) -> &C {
        &self.channel
    }

    /// The channel, to change its state (a driver that scripts it).
    pub fn channel_mut(&mut self) -> &mut C {
        &mut self.channel
    }

    /// The host and the channel back.
    pub fn into_parts(self) -> (H, C) {
        (self.host, self.channel)
    }

    fn send_refusal(&self) -> Option<JsString> {
        if let Some(reason) = &self.close_reason {
            return Some(reason.clone());
        }
        (!self.channel.connected()).then(|| JsString::from(NOT_CONNECTED))
    }

    /// `trySend`: `Err` with the reason when the frame could not go out.
    fn try_send(&mut self, frame: &Frame) -> Result<(), JsString> {
        if let Some(refusal) = self.send_refusal() {
            return Err(refusal);
        }
        self.channel
            .send(&frame.to_value())
            .map_err(|error| send_failure(&error))
    }

    /// `firstAnswer`: the first handler that does not pass answers; with
    /// none, the server request fails.
    fn first_answer(&mut self, request: &Value) -> JsResult<Value> {
        for handler in self.handlers.clone() {
            match self.host.server_request(handler, request) {
                HandlerAnswer::Pass => {}
                HandlerAnswer::Resolve(value) => return Ok(value),
                HandlerAnswer::Reject(error) => return Err(error),
            }
        }
        let method = match request.get("method") {
            Value::String(method) => method.clone(),
            _ => JsString::from("unknown"),
        };
        Err(JsError::new(js_concat!(
            "no handler for server request ",
            method
        )))
    }

    fn settle_request(&mut self, id: f64, reply: &Reply) {
        let Some(ticket) = pending_key(id).and_then(|key| self.pending.remove(&key)) else {
            return;
        };
        self.settle(ticket, reply.settlement("codex request failed"));
    }

    /// `closeWith`: only the first close counts; it rejects every pending
    /// request, in id order.
    fn close_with(&mut self, reason: JsString) {
        if self.close_reason.is_some() {
            return;
        }
        self.close_reason = Some(reason.clone());
        for ticket in std::mem::take(&mut self.pending).into_values() {
            self.settle(ticket, Err(JsError::new(reason.clone())));
        }
    }

    fn settle(&mut self, ticket: RequestTicket, outcome: JsResult<Value>) {
        self.completions
            .push_back(Completion::Settled { ticket, outcome });
    }
}

#[cfg(test)]
#[path = "parent_tests.rs"]
mod tests;
