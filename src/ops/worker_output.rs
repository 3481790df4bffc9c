//! What a worker printed: the bounded tail kept of it (4.11), the message
//! of a worker that exited before ready (4.12), and the preflight verdict
//! line a worker prints before it exits (4.14).

use super::outcome;
use crate::js::string::{is_high_surrogate, is_low_surrogate};
use crate::js::{JsResult, JsString, Value};
use crate::{js_concat, throw};

/// How many UTF-16 code units of worker output are kept.
pub const WORKER_OUTPUT_LIMIT: usize = 4000;

/// `boundedWorkerOutput` of a string: its last [`WORKER_OUTPUT_LIMIT`]
/// code units behind a note of how many were dropped, never starting with
/// the second half of a surrogate pair.
pub fn bounded_output_text(value: &JsString) -> JsString {
    if value.len_utf16() <= WORKER_OUTPUT_LIMIT {
        return value.clone();
    }
    let units = value.to_utf16();
    let mut start = units.len() - WORKER_OUTPUT_LIMIT;
    if is_low_surrogate(u32::from(units[start])) && is_high_surrogate(u32::from(units[start - 1])) {
        start += 1;
    }
    let mut bounded = js_concat!("\u{2026}[", start.to_string(), " characters omitted]\n");
    bounded.push_js(&JsString::from_utf16(&units[start..]));
    bounded
}

/// `boundedWorkerOutput`: throws for anything but a string.
pub fn bounded_output(value: &Value) -> JsResult<JsString> {
    let Some(text) = value.as_js_string() else {
        throw!("worker output must be a string");
    };
    Ok(bounded_output_text(text))
}

/// `threadRunnerExitBeforeReadyMessage` of `{code, signal, capturedOutput}`
/// (the caller has already turned absent code and signal into `null`).
pub fn exit_before_ready_message(
    code: &Value,
    signal: &Value,
    captured_output: &Value,
) -> JsResult<JsString> {
    let how = if code.is_set() {
        js_concat!("exit code ", code.to_js_string())
    } else if signal.is_set() {
        js_concat!("signal ", signal.to_js_string())
    } else {
        JsString::from("unknown exit")
    };
    let Some(captured_output) = captured_output.as_js_string() else {
        throw!("worker output must be a string");
    };
    let out = captured_output.trim();
    let mut message = js_concat!("Thread worker exited before ready (", how, ")");
    if !out.is_empty() {
        message.push_str(":\n");
        message.push_js(&bounded_output_text(&out));
    }
    Ok(message)
}

/// The marker a worker prints before the reason it cannot start.
pub const PREFLIGHT_MARKER: &str = "LINZUMI_WORKER_PREFLIGHT_FAILURE:";

/// `threadWorkerPreflightFailureLine`: the detail of the last non-empty
/// preflight marker line in the output, if any.
pub fn preflight_failure_line(captured_output: &Value) -> JsResult<Option<JsString>> {
    let Some(output) = captured_output.as_js_string() else {
        throw!("worker output must be a string");
    };
    let mut found = None;
    for raw_line in output.split("\n") {
        let line = raw_line.strip_suffix("\r").unwrap_or(raw_line).trim_start();
        let Some(rest) = line.strip_prefix(PREFLIGHT_MARKER) else {
            continue;
        };
        let detail = rest.trim();
        if !detail.is_empty() {
            found = Some(detail);
        }
    }
    Ok(found)
}

/// The `boundedOutput` op.
pub fn bounded_output_op(case: &Value) -> Value {
    outcome(bounded_output(case.get("value")).map(Value::String))
}

/// The `exitBeforeReadyMessage` op.
pub fn exit_before_ready_message_op(case: &Value) -> Value {
    let empty = Value::String(JsString::new());
    outcome(
        exit_before_ready_message(
            case.get("code").or(&Value::Null),
            case.get("signal").or(&Value::Null),
            case.get("capturedOutput").or(&empty),
        )
        .map(Value::String),
    )
}

/// The `preflightLine` op.
pub fn preflight_line_op(case: &Value) -> Value {
    outcome(preflight_failure_line(case.get("capturedOutput")).map(Value::from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_output_is_kept_whole() {
        let text = JsString::from("x".repeat(WORKER_OUTPUT_LIMIT).as_str());
        assert_eq!(bounded_output_text(&text), text);
    }

    #[test]
    fn long_output_keeps_the_tail() {
        let text = JsString::from(format!("abc{}", "y".repeat(WORKER_OUTPUT_LIMIT)).as_str());
        let bounded = bounded_output_text(&text).to_string();
        assert!(bounded.starts_with("\u{2026}[3 characters omitted]\ny"));
        assert_eq!(
            bounded.len(),
            "\u{2026}[3 characters omitted]\n".len() + WORKER_OUTPUT_LIMIT
        );
    }

    #[test]
    fn the_tail_never_starts_inside_a_pair() {
        // "a" + "😀" + 3999 × "z": the cut falls between the two halves.
        let text = JsString::from(format!("a😀{}", "z".repeat(WORKER_OUTPUT_LIMIT - 1)).as_str());
        let bounded = bounded_output_text(&text).to_string();
        assert!(
            bounded.starts_with("\u{2026}[3 characters omitted]\nz"),
            "{bounded:.40}"
        );
        // A lone low surrogate after a non-surrogate is cut where it falls.
        let mut lone = JsString::from("ab");
        lone.push_code_unit(0xDC00);
        lone.push_str(&"z".repeat(WORKER_OUTPUT_LIMIT - 1));
        let units = bounded_output_text(&lone).to_utf16();
        assert_eq!(units[units.len() - WORKER_OUTPUT_LIMIT], 0xDC00);
    }

    #[test]
    fn exit_messages() {
        let s = |t: &str| Value::from(t);
        let message = |code: Value, signal: Value, out: Value| {
            exit_before_ready_message(&code, &signal, &out).map(|m| m.to_string())
        };
        assert_eq!(
            message(Value::from(1.0), s("SIGTERM"), s("  \n")).unwrap(),
            "Thread worker exited before ready (exit code 1)"
        );
        assert_eq!(
            message(Value::Null, s("SIGKILL"), s(" boom \n")).unwrap(),
            "Thread worker exited before ready (signal SIGKILL):\nboom"
        );
        assert_eq!(
            message(Value::Null, Value::Null, s("")).unwrap(),
            "Thread worker exited before ready (unknown exit)"
        );
        assert_eq!(
            message(Value::Null, Value::Null, Value::from(3.0))
                .unwrap_err()
                .message
                .to_string(),
            "worker output must be a string"
        );
    }

    #[test]
    fn preflight_line_takes_the_last_non_empty_marker() {
        let line = |text: &str| {
            preflight_failure_line(&Value::from(text))
                .unwrap()
                .map(|l| l.to_string())
        };
        assert_eq!(line(""), None);
        assert_eq!(
            line("x\n  LINZUMI_WORKER_PREFLIGHT_FAILURE: first \r\nLINZUMI_WORKER_PREFLIGHT_FAILURE: second\r\nLINZUMI_WORKER_PREFLIGHT_FAILURE:   \r"),
            Some("second".into())
        );
        assert_eq!(line("say LINZUMI_WORKER_PREFLIGHT_FAILURE: no"), None);
        assert!(preflight_failure_line(&Value::Null).is_err());
    }
}
