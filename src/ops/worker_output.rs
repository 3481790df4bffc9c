//! What a worker printed: the bounded tail kept of it (4.11), the message
//! of a worker that exited before ready (4.12), and the preflight verdict
//! line a worker prints before it exits (4.14).

use super::outcome;
use js_exact::string::{JsConcatPart, UnitCut};
use js_exact::{js_concat, throw};
use js_exact::{JsResult, JsStr, JsString, Str, Value};

/// How many UTF-16 code units of worker output are kept.
pub const WORKER_OUTPUT_LIMIT: usize = 4000;

/// The tail that `boundedWorkerOutput` keeps of a text longer than
/// [`WORKER_OUTPUT_LIMIT`], and how many units it omits; `None` for a text
/// that is kept whole. Only the tail is read as characters, so a gigabyte
/// of output costs one count of its bytes and no copy.
fn bounded_tail(text: JsStr<'_>) -> Option<(usize, JsStr<'_>)> {
    // Every unit takes at least one byte: short text needs no count.
    if text.as_wtf8().len() <= WORKER_OUTPUT_LIMIT || text.len_utf16() <= WORKER_OUTPUT_LIMIT {
        return None;
    }
    match text.cut_from_end(WORKER_OUTPUT_LIMIT) {
        UnitCut::Between(before, _) if before.is_empty() => None,
        UnitCut::Between(before, tail) => Some((before.len_utf16(), tail)),
        // The unit at the cut is the low half of a pair: the tail starts
        // after the pair, and both its halves are omitted.
        UnitCut::InsidePair { before, after, .. } => Some((before.len_utf16() + 2, after)),
    }
}

/// The note that stands for the omitted units.
fn omitted_note(omitted: usize) -> JsString {
    js_concat!("\u{2026}[", omitted.to_string(), " characters omitted]\n")
}

/// `boundedWorkerOutput` of a string: its last [`WORKER_OUTPUT_LIMIT`]
/// code units behind a note of how many were dropped, never starting with
/// the second half of a surrogate pair.
pub fn bounded_output_text(value: &JsString) -> JsString {
    match bounded_tail(value.as_js_str()) {
        None => value.clone(),
        Some((omitted, tail)) => js_concat!(omitted_note(omitted), tail),
    }
}

/// Appends `boundedWorkerOutput` of a borrowed text.
pub fn push_bounded_output(out: &mut JsString, text: JsStr<'_>) {
    match bounded_tail(text) {
        None => out.push_js_str(text),
        Some((omitted, tail)) => {
            out.push_js(&omitted_note(omitted));
            out.push_js_str(tail);
        }
    }
}

/// `boundedWorkerOutput` of a borrowed text, as a string of its own.
pub fn bounded_output_str(text: JsStr<'_>) -> JsString {
    let mut out = JsString::new();
    push_bounded_output(&mut out, text);
    out
}

/// `boundedWorkerOutput`: throws for anything but a string.
pub fn bounded_output(value: &Value) -> JsResult<JsString> {
    let Some(text) = value.as_js_string() else {
        throw!("worker output must be a string");
    };
    Ok(bounded_output_text(text))
}

/// Appends `threadRunnerExitBeforeReadyMessage` of `{code, signal,
/// capturedOutput}` to `message` (the caller has already turned absent
/// code and signal into `null`), so that a caller's prefix and the message
/// are one string, copied once.
pub fn push_exit_before_ready_message(
    message: &mut JsString,
    code: &Value,
    signal: &Value,
    captured_output: &Value,
) -> JsResult<()> {
    // The reference works out `how` first; neither step has effects, so
    // checking the output first throws the same.
    let Some(captured_output) = captured_output.as_js_string() else {
        throw!("worker output must be a string");
    };
    let (how, what) = if code.is_set() {
        ("exit code ", Some(code))
    } else if signal.is_set() {
        ("signal ", Some(signal))
    } else {
        ("unknown exit", None)
    };
    let what = what.map(Str);
    let out = captured_output.as_js_str().trim();
    let opening = "Thread worker exited before ready (";
    // The kept tail is at most 4000 units of at most three bytes each,
    // behind its note.
    let tail = out.as_wtf8().len().min(3 * WORKER_OUTPUT_LIMIT + 64);
    message.reserve(opening.len() + how.len() + what.map_or(0, |w| w.wtf8_len()) + 3 + tail);
    message.push_str(opening);
    message.push_str(how);
    if let Some(what) = what {
        what.append_to(message);
    }
    message.push_str(")");
    if !out.is_empty() {
        message.push_str(":\n");
        push_bounded_output(message, out);
    }
    Ok(())
}

/// `threadRunnerExitBeforeReadyMessage` of `{code, signal, capturedOutput}`
/// (the caller has already turned absent code and signal into `null`).
pub fn exit_before_ready_message(
    code: &Value,
    signal: &Value,
    captured_output: &Value,
) -> JsResult<JsString> {
    let mut message = JsString::new();
    push_exit_before_ready_message(&mut message, code, signal, captured_output)?;
    Ok(message)
}

/// The marker a worker prints before the reason it cannot start.
pub const PREFLIGHT_MARKER: &str = "LINZUMI_WORKER_PREFLIGHT_FAILURE:";

/// `threadWorkerPreflightFailureLine`: the detail of the last non-empty
/// preflight marker line in the output, if any, as a piece of the output
/// (the lines are looked at in place, never copied).
pub fn preflight_failure_line(captured_output: &Value) -> JsResult<Option<JsStr<'_>>> {
    let Some(output) = captured_output.as_js_string() else {
        throw!("worker output must be a string");
    };
    let mut found = None;
    for raw_line in output.as_js_str().split("\n") {
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
    outcome(
        preflight_failure_line(case.get("capturedOutput"))
            .map(|line| Value::from(line.map(JsStr::to_js_string))),
    )
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
    fn output_is_read_in_place_not_copied() {
        // At the limit (4000 two-byte units: shared bytes), the output is
        // the result itself.
        let at_limit = JsString::from("\u{e9}".repeat(WORKER_OUTPUT_LIMIT).as_str());
        let bounded = bounded_output_text(&at_limit);
        assert_eq!(bounded.as_wtf8().as_ptr(), at_limit.as_wtf8().as_ptr());
        // The preflight line is a piece of the output.
        let output = Value::from(format!(
            "{}\n{PREFLIGHT_MARKER} gone \r\n",
            "x".repeat(9000)
        ));
        let line = preflight_failure_line(&output).unwrap().unwrap();
        assert_eq!(line, "gone");
        let whole = output.as_js_string().unwrap().as_wtf8().as_ptr_range();
        assert!(whole.contains(&line.as_wtf8().as_ptr()));
    }

    #[test]
    fn exit_messages_follow_a_prefix_and_keep_the_tail() {
        let mut message = JsString::from("after 1 attempt: ");
        let output = Value::from(format!(
            "  {}\u{1F600}{} \n",
            "a".repeat(10),
            "z".repeat(3999)
        ));
        push_exit_before_ready_message(
            &mut message,
            &Value::from(vec![Value::from("a"), 1u32.into()]),
            &Value::Null,
            &output,
        )
        .unwrap();
        assert_eq!(
            message.to_string(),
            format!("after 1 attempt: Thread worker exited before ready (exit code a,1):\n\u{2026}[12 characters omitted]\n{}", "z".repeat(3999))
        );
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
