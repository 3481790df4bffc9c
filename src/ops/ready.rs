//! The worker's ready handshake: its ready message (4.7), the
//! session-closed guard (4.8), the ready timeout (4.9) and its error (4.10).

use super::outcome;
use js_exact::{js_concat, throw};
use js_exact::{JsResult, Object, Str, Value};

/// The `type` of a ready message.
pub const READY_MESSAGE_TYPE: &str = "thread-codex-worker-ready";

/// The worker protocol version this runner speaks.
pub const WORKER_PROTOCOL_VERSION: f64 = 1.0;

/// `threadRunnerReadyMessage`: the ready message's facts, `undefined`
/// (here `None`) when the message is not a ready message at all.
pub fn ready_message(message: &Value, expected_thread_id: &Value) -> JsResult<Option<Object>> {
    let Some(expected) = expected_thread_id.as_non_empty_string() else {
        throw!("expected kandanThreadId must be a non-empty string");
    };
    if !message.is_object()
        || !message
            .get("type")
            .as_js_string()
            .is_some_and(|t| t.eq_str(READY_MESSAGE_TYPE))
    {
        return Ok(None);
    }
    let Some(thread_id) = message.get("kandanThreadId").as_js_string() else {
        throw!("malformed worker ready message: kandanThreadId must be a string");
    };
    if thread_id != expected {
        throw!(
            "worker ready message for thread ",
            thread_id,
            " does not match expected thread ",
            expected
        );
    }
    let pid = message.get("pid");
    if pid.is_set() && !pid.is_positive_integer() {
        throw!("malformed worker ready message: pid must be a positive integer");
    }
    if message.has_own("protocolVersion") {
        let version = message.get("protocolVersion");
        if version.as_number() != Some(WORKER_PROTOCOL_VERSION) {
            throw!("unsupported worker protocol version ", Str(version));
        }
    }
    let mut ready = Object::with_capacity(3);
    ready.insert("kandanThreadId", Value::String(thread_id.clone()));
    ready.insert(
        "pid",
        if pid.is_set() {
            pid.clone()
        } else {
            Value::Null
        },
    );
    ready.insert("protocolVersion", Value::Number(WORKER_PROTOCOL_VERSION));
    Ok(Some(ready))
}

/// `isThreadCodexWorkerSessionClosedMessage`.
pub fn is_session_closed_message(message: &Value) -> bool {
    message.is_object()
        && message
            .get("type")
            .as_js_string()
            .is_some_and(|t| t.eq_str("codex-session-closed"))
        && matches!(message.get("reason"), Value::Undefined | Value::String(_))
}

/// The ready timeout when none is configured.
pub const DEFAULT_READY_TIMEOUT_MS: f64 = 30_000.0;

/// `threadRunnerReadyTimeoutMs`: the configured timeout, floored and
/// clamped to 1 s – 10 min.
pub fn ready_timeout_ms(configured: &Value) -> JsResult<f64> {
    if configured.is_unset() {
        return Ok(DEFAULT_READY_TIMEOUT_MS);
    }
    let Some(configured) = configured.as_number() else {
        throw!("threadRunnerReadyTimeoutMs must be a number");
    };
    // JSON has no NaN, but `!(x > 0)` is what the reference tests.
    if configured.is_nan() || configured <= 0.0 {
        throw!("threadRunnerReadyTimeoutMs must be positive");
    }
    Ok(configured.floor().clamp(1_000.0, 600_000.0))
}

/// The message of `threadRunnerReadyTimeoutError`.
pub fn ready_timeout_error(thread_id: &Value, timeout_ms: &Value) -> js_exact::JsString {
    js_concat!(
        "Thread worker for ",
        Str(thread_id),
        " did not send ready within ",
        Str(timeout_ms),
        "ms"
    )
}

/// The `readyMessage` op.
pub fn ready_message_op(case: &Value) -> Value {
    outcome(
        ready_message(case.get("message"), case.get("expectedKandanThreadId"))
            .map(|ready| ready.map_or(Value::Undefined, Value::Object)),
    )
}

/// The `sessionClosedGuard` op.
pub fn session_closed_guard_op(case: &Value) -> Value {
    outcome(Ok(Value::Bool(is_session_closed_message(
        case.get("message"),
    ))))
}

/// The `readyTimeoutMs` op.
pub fn ready_timeout_ms_op(case: &Value) -> Value {
    outcome(ready_timeout_ms(case.get("configured")).map(Value::Number))
}

/// The `readyTimeoutError` op.
pub fn ready_timeout_error_op(case: &Value) -> Value {
    outcome(Ok(Value::String(ready_timeout_error(
        case.get("kandanThreadId"),
        case.get("timeoutMs"),
    ))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::value;
    use js_exact::to_json;

    fn ready(message: &str, expected: &str) -> String {
        match ready_message(&value(message), &value(expected)) {
            Ok(Some(object)) => String::from_utf8(to_json(&Value::Object(object))).unwrap(),
            Ok(None) => "undefined".into(),
            Err(error) => format!("throws {}", error.message),
        }
    }

    #[test]
    fn ready_message_checks_in_order() {
        assert_eq!(
            ready("{}", "\"\""),
            "throws expected kandanThreadId must be a non-empty string"
        );
        assert_eq!(ready("[]", "\"t\""), "undefined");
        assert_eq!(ready(r#"{"type":"other"}"#, "\"t\""), "undefined");
        let ready_type = r#""type":"thread-codex-worker-ready""#;
        assert_eq!(
            ready(&format!("{{{ready_type}}}"), "\"t\""),
            "throws malformed worker ready message: kandanThreadId must be a string"
        );
        assert_eq!(
            ready(
                &format!(r#"{{{ready_type},"kandanThreadId":"u"}}"#),
                "\"t\""
            ),
            "throws worker ready message for thread u does not match expected thread t"
        );
        assert_eq!(
            ready(
                &format!(r#"{{{ready_type},"kandanThreadId":"t","pid":-1}}"#),
                "\"t\""
            ),
            "throws malformed worker ready message: pid must be a positive integer"
        );
        assert_eq!(
            ready(
                &format!(r#"{{{ready_type},"kandanThreadId":"t","protocolVersion":null}}"#),
                "\"t\""
            ),
            "throws unsupported worker protocol version null"
        );
        assert_eq!(
            ready(
                &format!(r#"{{{ready_type},"kandanThreadId":"t","protocolVersion":"1"}}"#),
                "\"t\""
            ),
            "throws unsupported worker protocol version 1"
        );
        assert_eq!(
            ready(
                &format!(
                    r#"{{{ready_type},"kandanThreadId":"t","protocolVersion":1.0,"pid":null}}"#
                ),
                "\"t\""
            ),
            r#"{"kandanThreadId":"t","pid":null,"protocolVersion":1}"#
        );
        assert_eq!(
            ready(
                &format!(r#"{{{ready_type},"kandanThreadId":"t","pid":42}}"#),
                "\"t\""
            ),
            r#"{"kandanThreadId":"t","pid":42,"protocolVersion":1}"#
        );
    }

    #[test]
    fn session_closed_guard() {
        assert!(is_session_closed_message(&value(
            r#"{"type":"codex-session-closed"}"#
        )));
        assert!(is_session_closed_message(&value(
            r#"{"type":"codex-session-closed","reason":""}"#
        )));
        assert!(!is_session_closed_message(&value(
            r#"{"type":"codex-session-closed","reason":null}"#
        )));
        assert!(!is_session_closed_message(&value(
            r#"["codex-session-closed"]"#
        )));
    }

    #[test]
    fn ready_timeout_is_floored_and_clamped() {
        let timeout =
            |json: &str| ready_timeout_ms(&value(json)).map_err(|e| e.message.to_string());
        assert_eq!(timeout("null"), Ok(30_000.0));
        assert_eq!(timeout("999.9"), Ok(1_000.0));
        assert_eq!(timeout("1500.7"), Ok(1_500.0));
        assert_eq!(timeout("1e400"), Ok(600_000.0));
        assert_eq!(
            timeout("\"5\""),
            Err("threadRunnerReadyTimeoutMs must be a number".into())
        );
        assert_eq!(
            timeout("-0"),
            Err("threadRunnerReadyTimeoutMs must be positive".into())
        );
    }

    #[test]
    fn ready_timeout_error_uses_str() {
        assert_eq!(
            ready_timeout_error(&Value::Undefined, &value("[1,null,2]")).to_string(),
            "Thread worker for undefined did not send ready within 1,,2ms"
        );
    }
}
