//! The frames of the worker IPC protocol (contract 4.19), read from and
//! written to [`Value`]s.
//!
//! Both halves read every incoming message with [`Frame::parse`], which
//! answers `None` for anything the contract says to ignore, and each half
//! then ignores the frame types that travel the other way. Printing
//! ([`Frame::to_value`]) leaves out the members whose value is `undefined`,
//! as `JSON.stringify` leaves them out of the reference's frame literals.

use js_exact::js_object;
use js_exact::{JsError, JsResult, JsString, Object, Value};

/// `type` of a request from the parent to the agent.
pub const CODEX_REQUEST: &str = "codex-request";
/// `type` of a notification from the parent to the agent.
pub const CODEX_NOTIFY: &str = "codex-notify";
/// `type` of the parent's answer to an agent's server request.
pub const CODEX_SERVER_RESPONSE: &str = "codex-server-response";
/// `type` of the worker's answer to a `codex-request`.
pub const CODEX_RESPONSE: &str = "codex-response";
/// `type` of a notification the agent emitted.
pub const CODEX_NOTIFICATION: &str = "codex-notification";
/// `type` of a server request the agent emitted.
pub const CODEX_SERVER_REQUEST: &str = "codex-server-request";
/// `type` of the worker's announcement that its agent session ended.
pub const CODEX_SESSION_CLOSED: &str = "codex-session-closed";

/// How a response frame settles its request: `result` or `error`.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// `result: r`; an `undefined` `r` leaves the member out.
    Result(Value),
    /// `error: e`, where `e` is set (neither `null` nor `undefined`): the
    /// receiver rejects. Any set value counts, object or not.
    Error(Value),
}

impl Reply {
    /// The reply that reports a settled promise: its value, or
    /// `{"message": errorMessage(e)}` for its rejection.
    pub fn from_settlement(outcome: JsResult<Value>) -> Reply {
        match outcome {
            Ok(value) => Reply::Result(value),
            Err(error) => Reply::Error(js_object! { "message" => error.message }),
        }
    }

    /// What the receiver settles its request with: the result, or an
    /// `Error` with `error.message` when that is a string and `fallback`
    /// otherwise (`responseError` in the reference).
    pub fn settlement(&self, fallback: &str) -> JsResult<Value> {
        match self {
            Reply::Result(value) => Ok(value.clone()),
            Reply::Error(error) => Err(match error.get("message") {
                Value::String(message) => JsError::new(message.clone()),
                _ => JsError::new(fallback),
            }),
        }
    }

    /// Reads the `{id, result, error}` destructuring of the reference: a set
    /// `error` wins over any `result`.
    fn read(message: &Value) -> Reply {
        let error = message.get("error");
        if error.is_set() {
            Reply::Error(error.clone())
        } else {
            Reply::Result(message.get("result").clone())
        }
    }

    fn write(&self, frame: &mut Object) {
        match self {
            Reply::Result(value) => insert_defined(frame, "result", value),
            Reply::Error(error) => insert_defined(frame, "error", error),
        }
    }
}

/// One frame of the protocol.
///
/// `method` is a [`Value`] because the parent half sends whatever method
/// its caller names; a frame that [`Frame::parse`] accepted always has a
/// string method.
#[derive(Clone, Debug, PartialEq)]
pub enum Frame {
    /// Parent → worker: `{"type":"codex-request","id":n,"method":m,"params":p}`.
    CodexRequest {
        /// The parent's request id, echoed in the response.
        id: f64,
        /// The agent method.
        method: Value,
        /// Its params (`undefined`: left out).
        params: Value,
    },
    /// Parent → worker: `{"type":"codex-notify","method":m,"params":p}`.
    CodexNotify {
        /// The agent method.
        method: Value,
        /// Its params (`undefined`: left out).
        params: Value,
    },
    /// Parent → worker: the answer to a server request.
    CodexServerResponse {
        /// The worker's server request id.
        id: f64,
        /// `result` or `error`.
        reply: Reply,
    },
    /// Worker → parent: the answer to a `codex-request`.
    CodexResponse {
        /// The parent's request id.
        id: f64,
        /// `result` or `error`.
        reply: Reply,
    },
    /// Worker → parent: `{"type":"codex-notification","notification":x}`.
    CodexNotification {
        /// What the agent emitted (`undefined`: left out).
        notification: Value,
    },
    /// Worker → parent: `{"type":"codex-server-request","id":n,"request":x}`.
    CodexServerRequest {
        /// The worker's server request id.
        id: f64,
        /// What the agent asked (`undefined`: left out).
        request: Value,
    },
    /// Worker → parent: `{"type":"codex-session-closed","reason":s}`.
    CodexSessionClosed {
        /// Why; any value is accepted, only a string is shown.
        reason: Value,
    },
}

impl Frame {
    /// The frame a message is, or `None` when the contract says to ignore
    /// it: not a JSON object, an unknown `type`, or an `id` that is not a
    /// number or a `method` that is not a string where the type needs one.
    /// Members the type does not use are not looked at.
    pub fn parse(message: &Value) -> Option<Frame> {
        if !message.is_object() {
            return None;
        }
        let Value::String(kind) = message.get("type") else {
            return None;
        };
        let id = message.get("id").as_number();
        let method = message.get("method");
        let has_string_method = method.is_string();
        let frame = if kind.eq_str(CODEX_REQUEST) && has_string_method {
            Frame::CodexRequest {
                id: id?,
                method: method.clone(),
                params: message.get("params").clone(),
            }
        } else if kind.eq_str(CODEX_NOTIFY) && has_string_method {
            Frame::CodexNotify {
                method: method.clone(),
                params: message.get("params").clone(),
            }
        } else if kind.eq_str(CODEX_SERVER_RESPONSE) {
            Frame::CodexServerResponse {
                id: id?,
                reply: Reply::read(message),
            }
        } else if kind.eq_str(CODEX_RESPONSE) {
            Frame::CodexResponse {
                id: id?,
                reply: Reply::read(message),
            }
        } else if kind.eq_str(CODEX_NOTIFICATION) {
            Frame::CodexNotification {
                notification: message.get("notification").clone(),
            }
        } else if kind.eq_str(CODEX_SERVER_REQUEST) {
            Frame::CodexServerRequest {
                id: id?,
                request: message.get("request").clone(),
            }
        } else if kind.eq_str(CODEX_SESSION_CLOSED) {
            Frame::CodexSessionClosed {
                reason: message.get("reason").clone(),
            }
        } else {
            return None;
        };
        Some(frame)
    }

    /// The frame's `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Frame::CodexRequest { .. } => CODEX_REQUEST,
            Frame::CodexNotify { .. } => CODEX_NOTIFY,
            Frame::CodexServerResponse { .. } => CODEX_SERVER_RESPONSE,
            Frame::CodexResponse { .. } => CODEX_RESPONSE,
            Frame::CodexNotification { .. } => CODEX_NOTIFICATION,
            Frame::CodexServerRequest { .. } => CODEX_SERVER_REQUEST,
            Frame::CodexSessionClosed { .. } => CODEX_SESSION_CLOSED,
        }
    }

    /// The frame as the object literal the reference sends: members in the
    /// reference's order, `undefined` ones left out.
    pub fn to_value(&self) -> Value {
        let mut frame = Object::with_capacity(4);
        frame.insert("type", Value::from(self.type_name()));
        match self {
            Frame::CodexRequest { id, method, params } => {
                frame.insert("id", Value::Number(*id));
                insert_defined(&mut frame, "method", method);
                insert_defined(&mut frame, "params", params);
            }
            Frame::CodexNotify { method, params } => {
                insert_defined(&mut frame, "method", method);
                insert_defined(&mut frame, "params", params);
            }
            Frame::CodexServerResponse { id, reply } | Frame::CodexResponse { id, reply } => {
                frame.insert("id", Value::Number(*id));
                reply.write(&mut frame);
            }
            Frame::CodexNotification { notification } => {
                insert_defined(&mut frame, "notification", notification);
            }
            Frame::CodexServerRequest { id, request } => {
                frame.insert("id", Value::Number(*id));
                insert_defined(&mut frame, "request", request);
            }
            Frame::CodexSessionClosed { reason } => {
                insert_defined(&mut frame, "reason", reason);
            }
        }
        Value::Object(frame)
    }
}

/// The text a session-closed frame's `reason` shows: itself when it is a
/// string, `unknown` otherwise.
pub fn session_closed_reason(reason: &Value) -> JsString {
    match reason {
        Value::String(reason) => reason.clone(),
        _ => JsString::from("unknown"),
    }
}

fn insert_defined(frame: &mut Object, key: &str, value: &Value) {
    if !value.is_undefined() {
        frame.insert(key, value.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::value;
    use js_exact::to_json;

    fn printed(frame: &Frame) -> String {
        String::from_utf8(to_json(&frame.to_value())).unwrap()
    }

    fn round_trip(json: &str) -> Option<String> {
        Frame::parse(&value(json)).map(|frame| printed(&frame))
    }

    #[test]
    fn every_frame_type_round_trips() {
        for json in [
            r#"{"type":"codex-request","id":1,"method":"m","params":{"a":1}}"#,
            r#"{"type":"codex-notify","method":"m","params":[1]}"#,
            r#"{"type":"codex-server-response","id":2,"result":null}"#,
            r#"{"type":"codex-server-response","id":2,"error":{"message":"no"}}"#,
            r#"{"type":"codex-response","id":3,"result":{"x":"y"}}"#,
            r#"{"type":"codex-response","id":3,"error":7}"#,
            r#"{"type":"codex-notification","notification":{"method":"n"}}"#,
            r#"{"type":"codex-server-request","id":4,"request":"r"}"#,
            r#"{"type":"codex-session-closed","reason":"done"}"#,
        ] {
            assert_eq!(round_trip(json).as_deref(), Some(json));
        }
    }

    #[test]
    fn undefined_members_are_left_out() {
        for (json, expected) in [
            (
                r#"{"type":"codex-request","id":1,"method":"m"}"#,
                r#"{"type":"codex-request","id":1,"method":"m"}"#,
            ),
            (
                r#"{"type":"codex-response","id":1}"#,
                r#"{"type":"codex-response","id":1}"#,
            ),
            (
                r#"{"type":"codex-notification"}"#,
                r#"{"type":"codex-notification"}"#,
            ),
            (
                r#"{"type":"codex-server-request","id":1}"#,
                r#"{"type":"codex-server-request","id":1}"#,
            ),
            (
                r#"{"type":"codex-session-closed"}"#,
                r#"{"type":"codex-session-closed"}"#,
            ),
        ] {
            assert_eq!(round_trip(json).as_deref(), Some(expected));
        }
    }

    #[test]
    fn unused_members_are_dropped_and_a_set_error_wins() {
        assert_eq!(
            round_trip(r#"{"extra":1,"type":"codex-notify","method":"m","id":"x"}"#).as_deref(),
            Some(r#"{"type":"codex-notify","method":"m"}"#)
        );
        assert_eq!(
            round_trip(r#"{"type":"codex-response","id":1,"result":5,"error":false}"#).as_deref(),
            Some(r#"{"type":"codex-response","id":1,"error":false}"#)
        );
        assert_eq!(
            round_trip(r#"{"type":"codex-response","id":1,"result":5,"error":null}"#).as_deref(),
            Some(r#"{"type":"codex-response","id":1,"result":5}"#)
        );
    }

    #[test]
    fn ignored_messages() {
        for json in [
            "null",
            "7",
            r#""codex-request""#,
            r#"[{"type":"codex-notification"}]"#,
            r#"{}"#,
            r#"{"type":"codex-other"}"#,
            r#"{"type":["codex-notification"]}"#,
            r#"{"type":"codex-request","id":"1","method":"m"}"#,
            r#"{"type":"codex-request","id":1,"method":7}"#,
            r#"{"type":"codex-request","method":"m"}"#,
            r#"{"type":"codex-notify","method":null}"#,
            r#"{"type":"codex-server-response","id":null}"#,
            r#"{"type":"codex-response","id":[1]}"#,
            r#"{"type":"codex-server-request","id":true}"#,
        ] {
            assert_eq!(round_trip(json), None, "{json}");
        }
    }

    #[test]
    fn odd_numeric_ids_are_frames() {
        assert_eq!(
            round_trip(r#"{"type":"codex-response","id":1.5}"#).as_deref(),
            Some(r#"{"type":"codex-response","id":1.5}"#)
        );
        assert_eq!(
            round_trip(r#"{"type":"codex-response","id":-0}"#).as_deref(),
            Some(r#"{"type":"codex-response","id":0}"#)
        );
        assert_eq!(
            round_trip(r#"{"type":"codex-response","id":1e400}"#).as_deref(),
            Some(r#"{"type":"codex-response","id":null}"#)
        );
    }

    #[test]
    fn reply_settlements_and_their_fallbacks() {
        let ok = Reply::read(&value(r#"{"result":[1]}"#));
        assert_eq!(ok.settlement("f"), Ok(value("[1]")));
        let absent = Reply::read(&value(r#"{}"#));
        assert_eq!(absent.settlement("f"), Ok(Value::Undefined));
        for (json, expected) in [
            (r#"{"error":{"message":"m"}}"#, "m"),
            (r#"{"error":{"message":7}}"#, "f"),
            (r#"{"error":{}}"#, "f"),
            (r#"{"error":"text"}"#, "f"),
            (r#"{"error":[{"message":"m"}]}"#, "f"),
            (r#"{"error":0}"#, "f"),
        ] {
            let reply = Reply::read(&value(json));
            assert_eq!(reply.settlement("f"), Err(JsError::new(expected)), "{json}");
        }
    }

    #[test]
    fn a_rejection_becomes_an_error_message_object() {
        let reply = Reply::from_settlement(Err(JsError::new("boom")));
        let frame = Frame::CodexResponse { id: 9.0, reply };
        assert_eq!(
            printed(&frame),
            r#"{"type":"codex-response","id":9,"error":{"message":"boom"}}"#
        );
    }

    #[test]
    fn session_closed_reasons() {
        assert_eq!(
            session_closed_reason(&Value::from("x")),
            JsString::from("x")
        );
        assert_eq!(
            session_closed_reason(&Value::Null),
            JsString::from("unknown")
        );
        assert_eq!(
            session_closed_reason(&Value::Number(1.0)),
            JsString::from("unknown")
        );
    }
}
