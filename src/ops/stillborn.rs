//! `stillborn` (contract 4.15): the vocabulary of workers that never
//! became ready, read back from an error message.

use super::outcome;
use js_exact::{number, JsError, JsStr, Object, Value};

const EXHAUSTED_PREFIX: &str = "Thread worker failed to start after ";
const PREFLIGHT_FAILED_PREFIX: &str = "Thread worker preflight failed:";
const EXITED_PREFIX: &str = "Thread worker exited before ready";
const TIMEOUT_PREFIX: &str = "Thread worker for ";
const TIMEOUT_INFIX: &str = " did not send ready within ";

/// The failure reason of a stillborn worker and the terminal failure the
/// runner reports for it, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct StillbornClass {
    /// `stillbornWorkerFailedReason`: `None` when the error is not one.
    pub failed_reason: Option<&'static str>,
    /// `threadStartTerminalFailure`.
    pub terminal: Option<Value>,
}

/// The attempt count of `Thread worker failed to start after <n> attempt…`:
/// `Number(n)`, the nearest double (Infinity when too large).
fn exhausted_attempts(message: JsStr<'_>) -> Option<f64> {
    let rest = message.strip_prefix(EXHAUSTED_PREFIX)?;
    let bytes = rest.as_wtf8();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || !bytes[digits..].starts_with(b" attempt") {
        return None;
    }
    number::from_ascii_digits(JsStr::from_wtf8_unchecked(&bytes[..digits]))
}

/// Classifies an error message (contract 4.15's table, in order). Only
/// the preflight detail is copied out of it.
pub fn classify(message: JsStr<'_>) -> StillbornClass {
    if let Some(attempts) = exhausted_attempts(message) {
        let reason = "worker_respawn_exhausted";
        return StillbornClass {
            failed_reason: Some(reason),
            terminal: Some(js_exact::js_object! { "reason" => reason, "attempts" => attempts }),
        };
    }
    if let Some(rest) = message.strip_prefix(PREFLIGHT_FAILED_PREFIX) {
        let reason = "worker_preflight_failed";
        let detail = rest.first_line().trim().to_js_string();
        return StillbornClass {
            failed_reason: Some(reason),
            terminal: Some(js_exact::js_object! { "reason" => reason, "detail" => detail }),
        };
    }
    let failed_reason = if message.starts_with(EXITED_PREFIX) {
        Some("worker_exited_before_ready")
    } else if message.starts_with(TIMEOUT_PREFIX) && message.first_line().contains(TIMEOUT_INFIX) {
        Some("worker_ready_timeout")
    } else {
        None
    };
    StillbornClass {
        failed_reason,
        terminal: None,
    }
}

/// The `stillborn` op.
pub fn stillborn_op(case: &Value) -> Value {
    let message = JsError::scripted(case.get("message")).message;
    let class = classify(message.as_js_str());
    let mut result = Object::with_capacity(3);
    result.insert("isStillborn", Value::Bool(class.failed_reason.is_some()));
    result.insert("failedReason", class.failed_reason.into());
    result.insert("terminal", class.terminal.into());
    outcome(Ok(Value::Object(result)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::to_json;

    fn json(message: &str) -> String {
        let class = classify(JsStr::from(message));
        let value = js_exact::js_object! {
            "failedReason" => class.failed_reason,
            "terminal" => class.terminal,
        };
        String::from_utf8(to_json(&value)).unwrap()
    }

    #[test]
    fn every_class() {
        assert_eq!(
            json("Thread worker failed to start after 007 attempts: x"),
            r#"{"failedReason":"worker_respawn_exhausted","terminal":{"reason":"worker_respawn_exhausted","attempts":7}}"#
        );
        assert_eq!(json("Thread worker failed to start after  1 attempt"), "{}");
        assert_eq!(json("Thread worker failed to start after 1attempt"), "{}");
        assert_eq!(
            json("Thread worker preflight failed:  no dir \nmore"),
            r#"{"failedReason":"worker_preflight_failed","terminal":{"reason":"worker_preflight_failed","detail":"no dir"}}"#
        );
        assert_eq!(
            json("Thread worker exited before ready!"),
            r#"{"failedReason":"worker_exited_before_ready"}"#
        );
        assert_eq!(
            json("Thread worker for t did not send ready within 5ms"),
            r#"{"failedReason":"worker_ready_timeout"}"#
        );
        assert_eq!(
            json("Thread worker for t\n did not send ready within 5ms"),
            "{}"
        );
        assert_eq!(json(""), "{}");
    }

    #[test]
    fn huge_attempt_counts_are_doubles() {
        let digits = "9".repeat(400);
        let message = format!("{EXHAUSTED_PREFIX}{digits} attempts");
        let class = classify(JsStr::from(message.as_str()));
        let terminal = String::from_utf8(to_json(&class.terminal.unwrap())).unwrap();
        assert_eq!(
            terminal,
            r#"{"reason":"worker_respawn_exhausted","attempts":null}"#
        );
    }
}
