//! `respawn` (contract 4.16): a worker that dies before it is ready is
//! started again, a bounded number of times, unless its own output says
//! the start is doomed.
//!
//! [`spawn_with_bounded_respawn`] is the orchestrator, generic over what an
//! attempt is and how to wait, so the same loop serves the scripted
//! harness ([`respawn_op`]) and a real spawner.

use super::worker_output::{exit_before_ready_message, preflight_failure_line};
use crate::js::{number, JsError, JsResult, JsString, Object, Value};
use crate::{js_concat, js_object, throw};

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
            let exit = exit_before_ready_message(&exit.code, &exit.signal, &exit.captured_output)?;
            throw!(
                "Thread worker failed to start after ",
                n.to_string(),
                " ",
                attempts,
                ": ",
                exit
            );
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
