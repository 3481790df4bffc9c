//! `respawn` (contract 4.16): a worker that dies before it is ready is
//! started again, a bounded number of times, unless its own output says
//! the start is doomed.
//!
//! [`spawn_with_bounded_respawn`] is the orchestrator, generic over what an
//! attempt is and how to wait, so the same loop serves the scripted
//! harness ([`respawn_op`]) and a real spawner.

use super::worker_output::{preflight_failure_line, push_exit_before_ready_message};
use js_exact::{js_concat, js_object, throw};
use js_exact::{number, JsError, JsResult, JsString, Object, Value};

/// How many attempts when the policy does not say.
pub const DEFAULT_MAX_ATTEMPTS: u32 = 3;

/// The most attempts any policy gets.
pub const MAX_ATTEMPTS_CAP: u32 = 10;

/// The longest wait between two attempts, in milliseconds.
pub const MAX_BACKOFF_MS: f64 = 30_000.0;

/// What one start attempt came to.
#[derive(Debug, Clone, PartialEq)]
pub enum AttemptOutcome<H> {
    /// The worker sent ready: here is its handle.
    Ready(H),
    /// The worker exited first.
    ExitedBeforeReady(Box<EarlyExit>),
}

/// How a worker that never became ready ended. The fields are JavaScript
/// values because they are only ever printed with `str` (and
/// `capturedOutput` is checked to be a string when it is read).
#[derive(Debug, Clone, PartialEq)]
pub struct EarlyExit {
    /// The exit code, or `null`.
    pub code: Value,
    /// The signal, or `null`.
    pub signal: Value,
    /// What the worker printed.
    pub captured_output: Value,
}

/// `resolveMaxAttempts`: unset is [`DEFAULT_MAX_ATTEMPTS`]; anything but an
/// integer ≥ 1 throws; above [`MAX_ATTEMPTS_CAP`] is the cap.
pub fn resolve_max_attempts(max_attempts: &Value) -> JsResult<u32> {
    if max_attempts.is_unset() {
        return Ok(DEFAULT_MAX_ATTEMPTS);
    }
    match max_attempts.as_number() {
        Some(n) if number::is_integer(n) && n >= 1.0 => {
            // The cap is applied before the conversion, so it cannot overflow.
            Ok(n.min(f64::from(MAX_ATTEMPTS_CAP)) as u32)
        }
        _ => throw!("maxAttempts must be a positive integer"),
    }
}

/// How long to wait before attempt `n + 1`: `backoffMs * 2^(n-1)`, at
/// most [`MAX_BACKOFF_MS`].
pub fn backoff_before_next(backoff_ms: f64, n: u32) -> f64 {
    let doubling = 2f64.powi(i32::try_from(n.saturating_sub(1)).unwrap_or(i32::MAX));
    (backoff_ms * doubling).min(MAX_BACKOFF_MS)
}

/// `spawnThreadRunnerWithBoundedRespawn(attempt, {maxAttempts, backoffMs,
/// sleep, onRespawn})`.
///
/// Calls `attempt(1)`, `attempt(2)`, … until one is ready (its handle is
/// returned) or a stop is due: the worker printed a preflight failure line
/// (never respawned), or the last attempt failed. Between attempts it calls
/// `on_respawn(n + 1)` and then `sleep(ms)`. An error from `attempt`
/// propagates as it is. `max_attempts` is checked before any attempt.
pub fn spawn_with_bounded_respawn<H>(
    max_attempts: &Value,
    backoff_ms: f64,
    mut attempt: impl FnMut(u32) -> JsResult<AttemptOutcome<H>>,
    mut sleep: impl FnMut(f64),
    mut on_respawn: impl FnMut(u32),
) -> JsResult<H> {
    let max = resolve_max_attempts(max_attempts)?;
    let mut n = 1;
    loop {
        let exit = match attempt(n)? {
            AttemptOutcome::Ready(handle) => return Ok(handle),
            AttemptOutcome::ExitedBeforeReady(exit) => exit,
        };
        if let Some(line) = preflight_failure_line(&exit.captured_output)? {
            throw!("Thread worker preflight failed: ", line);
        }
        if n >= max {
            let attempts = if n == 1 { "attempt" } else { "attempts" };
            let mut message = js_concat!(
                "Thread worker failed to start after ",
                n.to_string(),
                " ",
                attempts,
                ": "
            );
            push_exit_before_ready_message(
                &mut message,
                &exit.code,
                &exit.signal,
                &exit.captured_output,
            )?;
            return Err(JsError::new(message));
        }
        on_respawn(n + 1);
        sleep(backoff_before_next(backoff_ms, n));
        n += 1;
    }
}

/// The scripted attempt: the next script entry (none left means
/// `{kind: "ready"}`) as an outcome, with the trace entry it leaves.
fn scripted_attempt(entry: Option<&Value>, attempt_number: u32) -> (Value, AttemptOutcome<Value>) {
    let ready = js_object! { "kind" => "ready" };
    let entry = entry.unwrap_or(&ready);
    let kind = entry.get("kind");
    // `kind` is copied whatever it is; an absent one prints as nothing.
    let trace = js_object! {
        "t" => "attempt",
        "attemptNumber" => attempt_number,
        "kind" => kind,
    };
    let outcome = if kind.as_js_string().is_some_and(|k| k.eq_str("ready")) {
        let marker = js_concat!("handle-", attempt_number.to_string());
        AttemptOutcome::Ready(js_object! { "marker" => marker })
    } else {
        AttemptOutcome::ExitedBeforeReady(Box::new(EarlyExit {
            code: entry.get("code").or(&Value::Null).clone(),
            signal: entry.get("signal").or(&Value::Null).clone(),
            captured_output: entry
                .get("capturedOutput")
                .or(&Value::String(JsString::new()))
                .clone(),
        }))
    };
    (trace, outcome)
}

/// The `respawn` op: the orchestrator driven by the case's script, with no
/// backoff and a sleep that returns at once. Result: `{trace, handle}` or
/// `{trace, threw: message}`.
pub fn respawn_op(case: &Value) -> Value {
    let script = case.get("script").as_array().unwrap_or_default();
    let mut entries = script.iter();
    let mut trace: Vec<Value> = Vec::new();
    let result = {
        let trace = std::cell::RefCell::new(&mut trace);
        spawn_with_bounded_respawn(
            case.get("maxAttempts"),
            0.0,
            |n| {
                let (entry, outcome) = scripted_attempt(entries.next(), n);
                trace.borrow_mut().push(entry);
                Ok(outcome)
            },
            |_| {},
            |n| {
                trace
                    .borrow_mut()
                    .push(js_object! { "t" => "respawn", "attemptNumber" => n });
            },
        )
    };
    let mut object = Object::with_capacity(2);
    object.insert("trace", Value::Array(trace));
    match result {
        Ok(handle) => object.insert("handle", handle),
        Err(JsError { message }) => object.insert("threw", Value::String(message)),
    }
    Value::Object(object)
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::{json, value};

    fn exited(code: f64, output: &str) -> AttemptOutcome<&'static str> {
        AttemptOutcome::ExitedBeforeReady(Box::new(EarlyExit {
            code: Value::Number(code),
            signal: Value::Null,
            captured_output: Value::from(output),
        }))
    }

    /// Runs the orchestrator over fixed outcomes (ready after them) and
    /// records every attempt, respawn and sleep.
    fn run(
        max_attempts: &str,
        backoff_ms: f64,
        outcomes: Vec<AttemptOutcome<&'static str>>,
    ) -> (Result<&'static str, String>, Vec<String>) {
        let mut outcomes = outcomes.into_iter();
        let events = std::cell::RefCell::new(Vec::new());
        let result = spawn_with_bounded_respawn(
            &value(max_attempts),
            backoff_ms,
            |n| {
                events.borrow_mut().push(format!("attempt {n}"));
                Ok(outcomes.next().unwrap_or(AttemptOutcome::Ready("ready")))
            },
            |ms| events.borrow_mut().push(format!("sleep {ms}")),
            |n| events.borrow_mut().push(format!("respawn {n}")),
        );
        (
            result.map_err(|error| error.message.to_string()),
            events.into_inner(),
        )
    }

    #[test]
    fn max_attempts_defaults_caps_and_refuses() {
        let max =
            |json: &str| resolve_max_attempts(&value(json)).map_err(|e| e.message.to_string());
        assert_eq!(max("null"), Ok(3));
        assert_eq!(resolve_max_attempts(&Value::Undefined), Ok(3));
        assert_eq!(max("1"), Ok(1));
        assert_eq!(max("2.0"), Ok(2));
        assert_eq!(max("10"), Ok(10));
        assert_eq!(max("11"), Ok(10));
        assert_eq!(max("1e300"), Ok(10));
        for refused in [
            "0", "-0", "-1", "1.5", "1e400", "\"3\"", "true", "[3]", "{}",
        ] {
            assert_eq!(
                max(refused),
                Err("maxAttempts must be a positive integer".into()),
                "{refused}"
            );
        }
    }

    #[test]
    fn a_refused_max_makes_no_attempt() {
        let (result, events) = run("0", 0.0, vec![]);
        assert_eq!(result, Err("maxAttempts must be a positive integer".into()));
        assert!(events.is_empty());
    }

    #[test]
    fn ready_returns_the_handle_after_respawns() {
        let (result, events) = run("null", 0.0, vec![exited(1.0, "x"), exited(2.0, "")]);
        assert_eq!(result, Ok("ready"));
        assert_eq!(
            events,
            [
                "attempt 1",
                "respawn 2",
                "sleep 0",
                "attempt 2",
                "respawn 3",
                "sleep 0",
                "attempt 3"
            ]
        );
    }

    #[test]
    fn the_backoff_doubles_up_to_thirty_seconds() {
        let failures = (0..10).map(|_| exited(1.0, "")).collect();
        let (result, events) = run("10", 5_000.0, failures);
        let sleeps: Vec<&str> = events
            .iter()
            .filter_map(|e| e.strip_prefix("sleep "))
            .collect();
        assert_eq!(
            sleeps,
            ["5000", "10000", "20000", "30000", "30000", "30000", "30000", "30000", "30000"]
        );
        assert!(result
            .unwrap_err()
            .starts_with("Thread worker failed to start after 10 attempts: "));
        assert_eq!(backoff_before_next(0.0, 1), 0.0);
        assert_eq!(backoff_before_next(1.5, 3), 6.0);
    }

    #[test]
    fn exhaustion_names_the_attempts_and_the_last_exit() {
        let (result, events) = run("1", 0.0, vec![exited(9.0, "  boom \n")]);
        assert_eq!(
            result,
            Err(
                "Thread worker failed to start after 1 attempt: Thread worker exited before ready (exit code 9):\nboom"
                    .into()
            )
        );
        assert_eq!(events, ["attempt 1"]);
        let (result, _) = run("2", 0.0, vec![exited(1.0, ""), exited(127.0, "")]);
        assert_eq!(
            result,
            Err("Thread worker failed to start after 2 attempts: Thread worker exited before ready (exit code 127)".into())
        );
    }

    #[test]
    fn a_preflight_line_stops_at_once() {
        let (result, events) = run(
            "5",
            0.0,
            vec![
                exited(1.0, "crash"),
                exited(1.0, "x\r\n LINZUMI_WORKER_PREFLIGHT_FAILURE: no repo \r\n"),
            ],
        );
        assert_eq!(
            result,
            Err("Thread worker preflight failed: no repo".into())
        );
        assert_eq!(events, ["attempt 1", "respawn 2", "sleep 0", "attempt 2"]);
    }

    #[test]
    fn non_string_output_throws_before_anything_else() {
        let mut outcomes = vec![AttemptOutcome::ExitedBeforeReady(Box::new(EarlyExit {
            code: Value::Null,
            signal: Value::Null,
            captured_output: Value::Number(1.0),
        }))]
        .into_iter();
        let result: JsResult<()> = spawn_with_bounded_respawn(
            &Value::Undefined,
            0.0,
            |_| Ok(outcomes.next().unwrap_or(AttemptOutcome::Ready(()))),
            |_| {},
            |_| panic!("no respawn after a throw"),
        );
        assert_eq!(
            result.unwrap_err().message.to_string(),
            "worker output must be a string"
        );
    }

    #[test]
    fn an_attempt_error_propagates() {
        let result: JsResult<()> = spawn_with_bounded_respawn(
            &Value::Undefined,
            0.0,
            |_| Err(JsError::new("spawn failed")),
            |_| {},
            |_| {},
        );
        assert_eq!(result.unwrap_err().message.to_string(), "spawn failed");
    }

    #[test]
    fn the_harness_traces_attempts_and_respawns() {
        let op = |case: &str| json(&respawn_op(&value(case)));
        assert_eq!(
            op(r#"{"script":[{"kind":"exited","code":1},{}]}"#),
            concat!(
                r#"{"trace":[{"t":"attempt","attemptNumber":1,"kind":"exited"},{"t":"respawn","attemptNumber":2},"#,
                r#"{"t":"attempt","attemptNumber":2},{"t":"respawn","attemptNumber":3},"#,
                r#"{"t":"attempt","attemptNumber":3,"kind":"ready"}],"handle":{"marker":"handle-3"}}"#
            )
        );
        assert_eq!(
            op(r#"{"maxAttempts":1.5}"#),
            r#"{"trace":[],"threw":"maxAttempts must be a positive integer"}"#
        );
        assert_eq!(
            op(
                r#"{"maxAttempts":1,"script":[{"kind":null,"signal":"SIGKILL","capturedOutput":null}]}"#
            ),
            concat!(
                r#"{"trace":[{"t":"attempt","attemptNumber":1,"kind":null}],"#,
                r#""threw":"Thread worker failed to start after 1 attempt: Thread worker exited before ready (signal SIGKILL)"}"#
            )
        );
        assert_eq!(
            op(r#"{"script":[{"kind":"exited","capturedOutput":[]}]}"#),
            r#"{"trace":[{"t":"attempt","attemptNumber":1,"kind":"exited"}],"threw":"worker output must be a string"}"#
        );
    }
}
