//! `outputRouting` (contract 4.17): where each chunk of worker output goes.
//!
//! While the runner's TUI owns the terminal, worker output would tear the
//! screen, so it goes to the audit log instead; a capture buffer (for the
//! message of a worker that dies before ready) takes a copy when active.
//! The sinks are injected through [`OutputSinks`], so the handler is the
//! same under the scripted harness and in a real runner.

use super::worker_output::bounded_output_str;
use js_exact::{js_object, throw};
use js_exact::{JsResult, JsString, Object, Value};

/// Where one chunk goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    /// Written to the terminal.
    pub terminal: bool,
    /// Written to the audit log.
    pub audit: bool,
    /// Appended to the capture buffer.
    pub capture: bool,
}

impl Route {
    /// `{terminal, audit, capture}`, in that order.
    pub fn to_value(self) -> Value {
        js_object! {
            "terminal" => self.terminal,
            "audit" => self.audit,
            "capture" => self.capture,
        }
    }
}

/// `routeThreadWorkerOutputChunk({tuiActive, captureActive})`: the terminal
/// unless the TUI is active, the audit log when it is, and the capture
/// buffer when capturing.
pub fn route_output_chunk(tui_active: bool, capture_active: bool) -> Route {
    Route {
        terminal: !tui_active,
        audit: tui_active,
        capture: capture_active,
    }
}

/// The world a chunk handler writes to, and the two switches it reads on
/// every chunk.
pub trait OutputSinks {
    /// Whether the TUI owns the terminal right now.
    fn tui_active(&self) -> bool;
    /// Whether output is being captured right now.
    fn capture_active(&self) -> bool;
    /// `terminal.write(text)`.
    fn write_terminal(&mut self, text: &JsString);
    /// `writeAuditEvent(event, data)`.
    fn write_audit_event(&mut self, event: &str, data: Value);
    /// `appendCapturedOutput(text)`.
    fn append_captured_output(&mut self, text: &JsString);
}

/// The audit event a chunk becomes.
pub const OUTPUT_AUDIT_EVENT: &str = "thread_worker_output";

/// The chunk handler of one worker stream
/// (`createThreadWorkerOutputChunkHandler`).
#[derive(Debug, Clone, PartialEq)]
pub struct OutputChunkHandler {
    stream_name: JsString,
    pid: Option<f64>,
}

impl OutputChunkHandler {
    /// Checks the stream name (`stdout` or `stderr`) and the pid (unset, or
    /// a positive integer), in that order.
    pub fn create(stream_name: &Value, pid: &Value) -> JsResult<Self> {
        let stream_name = match stream_name.as_js_string() {
            Some(name) if name.eq_str("stdout") || name.eq_str("stderr") => name.clone(),
            _ => throw!("output stream must be stdout or stderr"),
        };
        let pid = if pid.is_unset() {
            None
        } else if pid.is_positive_integer() {
            pid.as_number()
        } else {
            throw!("worker pid must be a positive integer");
        };
        Ok(OutputChunkHandler { stream_name, pid })
    }

    /// Routes one chunk (`str(chunk)` for anything but a string). Blank
    /// text never reaches the audit log; what does is trimmed at the end
    /// and bounded like any worker output.
    pub fn handle(&self, chunk: &Value, sinks: &mut impl OutputSinks) {
        let text = chunk.to_js_string();
        let route = route_output_chunk(sinks.tui_active(), sinks.capture_active());
        if route.terminal {
            sinks.write_terminal(&text);
        }
        if route.audit && !text.is_blank() {
            let data = js_object! {
                "stream" => &self.stream_name,
                "pid" => self.pid,
                "text" => bounded_output_str(text.as_js_str().trim_end()),
            };
            sinks.write_audit_event(OUTPUT_AUDIT_EVENT, data);
        }
        if route.capture {
            sinks.append_captured_output(&text);
        }
    }
}

/// The harness's sinks: the switches the script sets, a trace of terminal
/// writes and audit events, and the captured text.
#[derive(Default)]
struct ScriptedSinks {
    tui: bool,
    capture: bool,
    trace: Vec<Value>,
    captured: JsString,
}

impl OutputSinks for ScriptedSinks {
    fn tui_active(&self) -> bool {
        self.tui
    }

    fn capture_active(&self) -> bool {
        self.capture
    }

    fn write_terminal(&mut self, text: &JsString) {
        self.trace
            .push(js_object! { "t" => "terminal", "chunk" => text });
    }

    fn write_audit_event(&mut self, event: &str, data: Value) {
        self.trace
            .push(js_object! { "t" => "audit", "event" => event, "data" => data });
    }

    fn append_captured_output(&mut self, text: &JsString) {
        // The first chunk is shared, not copied: a single large chunk is
        // then held once, whether the trace shows it or not.
        if self.captured.is_empty() {
            self.captured = text.clone();
        } else {
            self.captured.push_js(text);
        }
    }
}

/// The `outputRouting` op: a handler for the case's stream (`stderr` when
/// unset) and pid, driven by `chunk` and `route` steps. Result:
/// `{trace, captured}`; a refused stream or pid throws.
pub fn output_routing_op(case: &Value) -> Value {
    let stderr = Value::from("stderr");
    let handler =
        match OutputChunkHandler::create(case.get("streamName").or(&stderr), case.get("pid")) {
            Ok(handler) => handler,
            Err(error) => return super::threw(error.message),
        };
    let mut sinks = ScriptedSinks::default();
    for step in case.get("script").as_array().unwrap_or_default() {
        let is_step = |name: &str| {
            step.get("step")
                .as_js_string()
                .is_some_and(|s| s.eq_str(name))
        };
        // A switch is on only when it is exactly `true`.
        let flag = |name: &str| step.get(name).as_bool() == Some(true);
        if is_step("chunk") {
            sinks.tui = flag("tuiActive");
            sinks.capture = flag("captureActive");
            handler.handle(step.get("text"), &mut sinks);
        } else if is_step("route") {
            let route = route_output_chunk(flag("tuiActive"), flag("captureActive"));
            sinks
                .trace
                .push(js_object! { "t" => "route", "route" => route.to_value() });
        }
    }
    let mut result = Object::with_capacity(2);
    result.insert("trace", Value::Array(sinks.trace));
    result.insert("captured", Value::String(sinks.captured));
    Value::Object(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::{json, value};

    fn op(case: &str) -> String {
        json(&output_routing_op(&value(case)))
    }

    #[test]
    fn routes_follow_the_tui_and_the_capture() {
        for tui in [false, true] {
            for capture in [false, true] {
                let route = route_output_chunk(tui, capture);
                assert_eq!(route.terminal, !tui);
                assert_eq!(route.audit, tui);
                assert_eq!(route.capture, capture);
            }
        }
        assert_eq!(
            json(&route_output_chunk(true, false).to_value()),
            r#"{"terminal":false,"audit":true,"capture":false}"#
        );
    }

    #[test]
    fn the_factory_checks_the_stream_then_the_pid() {
        let create = |stream: &str, pid: &str| {
            OutputChunkHandler::create(&value(stream), &value(pid))
                .map(|_| ())
                .map_err(|e| e.message.to_string())
        };
        assert_eq!(create(r#""stdout""#, "null"), Ok(()));
        assert_eq!(create(r#""stderr""#, "7"), Ok(()));
        assert_eq!(create(r#""stderr""#, "7.0"), Ok(()));
        for stream in [
            r#""stdin""#,
            r#""STDOUT""#,
            r#""""#,
            "1",
            "null",
            r#"["stdout"]"#,
        ] {
            assert_eq!(
                create(stream, "-1"),
                Err("output stream must be stdout or stderr".into()),
                "{stream}"
            );
        }
        for pid in ["0", "-3", "1.5", r#""9""#, "true", "1e400", "[1]"] {
            assert_eq!(
                create(r#""stdout""#, pid),
                Err("worker pid must be a positive integer".into()),
                "{pid}"
            );
        }
    }

    #[test]
    fn the_op_reports_factory_errors_as_threw() {
        assert_eq!(
            op(r#"{"streamName":"stdin"}"#),
            r#"{"threw":true,"message":"output stream must be stdout or stderr"}"#
        );
        assert_eq!(
            op(r#"{"pid":0}"#),
            r#"{"threw":true,"message":"worker pid must be a positive integer"}"#
        );
        assert_eq!(
            op(r#"{"streamName":null}"#),
            r#"{"trace":[],"captured":""}"#
        );
    }

    #[test]
    fn chunks_go_where_the_flags_say() {
        assert_eq!(
            op(concat!(
                r#"{"pid":5,"streamName":"stdout","script":["#,
                r#"{"step":"chunk","text":"a\n","captureActive":true},"#,
                r#"{"step":"chunk","text":"  b  \n","tuiActive":true,"captureActive":true},"#,
                r#"{"step":"chunk","text":"c","tuiActive":"true","captureActive":1}]}"#
            )),
            concat!(
                r#"{"trace":[{"t":"terminal","chunk":"a\n"},"#,
                r#"{"t":"audit","event":"thread_worker_output","data":{"stream":"stdout","pid":5,"text":"  b"}},"#,
                r#"{"t":"terminal","chunk":"c"}],"captured":"a\n  b  \n"}"#
            )
        );
    }

    #[test]
    fn blank_chunks_are_not_audited_and_pid_is_left_out_when_unset() {
        assert_eq!(
            op(
                r#"{"script":[{"step":"chunk","text":" \u3000\n","tuiActive":true},{"step":"chunk","text":"x","tuiActive":true}]}"#
            ),
            r#"{"trace":[{"t":"audit","event":"thread_worker_output","data":{"stream":"stderr","text":"x"}}],"captured":""}"#
        );
    }

    #[test]
    fn non_string_text_is_stringified() {
        assert_eq!(
            op(
                r#"{"script":[{"step":"chunk","captureActive":true},{"step":"chunk","text":[1,null,{}],"captureActive":true},{"step":"chunk","text":-0,"captureActive":true}]}"#
            ),
            concat!(
                r#"{"trace":[{"t":"terminal","chunk":"undefined"},{"t":"terminal","chunk":"1,,[object Object]"},"#,
                r#"{"t":"terminal","chunk":"0"}],"captured":"undefined1,,[object Object]0"}"#
            )
        );
    }

    #[test]
    fn huge_audited_chunks_are_bounded_but_captured_whole() {
        let text = format!("{}{}\n", "h".repeat(10), "t".repeat(4000));
        let case = format!(
            r#"{{"script":[{{"step":"chunk","text":"{text}","tuiActive":true,"captureActive":true}}]}}"#
        )
        .replace('\n', "\\n");
        let result = output_routing_op(&value(&case));
        let audited = result.get("trace").as_array().unwrap()[0]
            .get("data")
            .get("text")
            .to_js_string()
            .to_string();
        assert_eq!(
            audited,
            format!("\u{2026}[10 characters omitted]\n{}", "t".repeat(4000))
        );
        assert_eq!(result.get("captured").to_js_string().to_string(), text);
    }

    #[test]
    fn route_steps_trace_a_decision_and_other_steps_are_ignored() {
        assert_eq!(
            op(r#"{"script":[{"step":"route","tuiActive":true},{"step":"other","text":"x"},{}]}"#),
            r#"{"trace":[{"t":"route","route":{"terminal":false,"audit":true,"capture":false}}],"captured":""}"#
        );
    }
}
