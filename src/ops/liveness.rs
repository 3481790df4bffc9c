//! `liveness` (contract 4.18): is an active worker still alive?
//!
//! The runner pings the worker on an interval; a pong that does not come
//! within the timeout is a missed pong; too many in a row make the worker
//! unresponsive. A probe is the last resort: unanswered for long enough,
//! the worker is dead. Times are milliseconds as doubles, as in the
//! reference, and every call checks its inputs in the reference's order:
//! `now`, then the state, then the config.

use js_exact::{js_object, throw};
use js_exact::{number, JsResult, Object, Value};

/// The config used when a case gives none.
pub fn default_config() -> Value {
    js_object! {
        "pingIntervalMs" => 15_000.0,
        "pongTimeoutMs" => 10_000.0,
        "maxMissedPongs" => 2.0,
        "probeTimeoutMs" => 5_000.0,
    }
}

/// A config that passed its checks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LivenessConfig {
    /// How long after the last ping (or creation) the next one is due.
    pub ping_interval_ms: f64,
    /// How long a pong may take before it counts as missed.
    pub pong_timeout_ms: f64,
    /// How many missed pongs make the worker unresponsive (an integer).
    pub max_missed_pongs: f64,
    /// How long a probe may go unanswered before the worker is dead.
    pub probe_timeout_ms: f64,
}

impl LivenessConfig {
    /// Checks a config value: each field, in order, a finite number > 0,
    /// and `maxMissedPongs` an integer. Anything but a JSON object has no
    /// fields, so it fails on `pingIntervalMs`.
    pub fn check(config: &Value) -> JsResult<Self> {
        let field = |name: &str| -> Option<f64> {
            config
                .get(name)
                .as_number()
                .filter(|n| n.is_finite() && *n > 0.0)
        };
        let Some(ping_interval_ms) = field("pingIntervalMs") else {
            throw!("liveness config pingIntervalMs must be a positive number");
        };
        let Some(pong_timeout_ms) = field("pongTimeoutMs") else {
            throw!("liveness config pongTimeoutMs must be a positive number");
        };
        let Some(max_missed_pongs) = field("maxMissedPongs").filter(|n| number::is_integer(*n))
        else {
            throw!("liveness config maxMissedPongs must be a positive integer");
        };
        let Some(probe_timeout_ms) = field("probeTimeoutMs") else {
            throw!("liveness config probeTimeoutMs must be a positive number");
        };
        Ok(LivenessConfig {
            ping_interval_ms,
            pong_timeout_ms,
            max_missed_pongs,
            probe_timeout_ms,
        })
    }
}

/// What the runner concludes about a worker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No missed pong, no probe out.
    Healthy,
    /// Some pongs missed, fewer than the maximum.
    Degraded,
    /// The maximum of missed pongs reached.
    Unresponsive,
    /// A probe is out and has time left.
    Probing,
    /// A probe went unanswered for the probe timeout.
    Dead,
}

impl Verdict {
    /// The verdict's name in results.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Healthy => "healthy",
            Verdict::Degraded => "degraded",
            Verdict::Unresponsive => "unresponsive",
            Verdict::Probing => "probing",
            Verdict::Dead => "dead",
        }
    }
}

/// The state of one worker's liveness, once created.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LivenessState {
    /// When the state was created.
    pub created_at: f64,
    /// When the last ping was sent.
    pub last_ping_at: Option<f64>,
    /// When the oldest unanswered ping was sent.
    pub awaiting_pong_since: Option<f64>,
    /// Pongs missed in a row (a double, as in the reference).
    pub missed_pongs: f64,
    /// When the outstanding probe was sent.
    pub probe_sent_at: Option<f64>,
}

/// `now` checked: a finite number.
fn check_now(now: &Value) -> JsResult<f64> {
    match now.as_number() {
        Some(now) if now.is_finite() => Ok(now),
        _ => throw!("liveness now must be a finite number"),
    }
}

/// A worker's liveness: no state until [`WorkerLiveness::create`], after
/// which every call updates or reads it. Calls before `create` throw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorkerLiveness {
    state: Option<LivenessState>,
}

impl WorkerLiveness {
    /// No state yet.
    pub fn new() -> Self {
        WorkerLiveness::default()
    }

    /// The state, once created.
    pub fn state(&self) -> Option<&LivenessState> {
        self.state.as_ref()
    }

    /// Checks `now`, then that the state exists; a copy of the state to
    /// work on.
    fn checked(&self, now: &Value) -> JsResult<(LivenessState, f64)> {
        let now = check_now(now)?;
        match self.state {
            Some(state) => Ok((state, now)),
            None => throw!("liveness state has not been created"),
        }
    }

    /// Checks `now`, the state, then the config.
    fn checked_with_config(
        &self,
        config: &Value,
        now: &Value,
    ) -> JsResult<(LivenessState, LivenessConfig, f64)> {
        let (state, now) = self.checked(now)?;
        let config = LivenessConfig::check(config)?;
        Ok((state, config, now))
    }

    /// `createWorkerLivenessState(now)`: a fresh state (replacing any).
    pub fn create(&mut self, now: &Value) -> JsResult<()> {
        let now = check_now(now)?;
        self.state = Some(LivenessState {
            created_at: now,
            last_ping_at: None,
            awaiting_pong_since: None,
            missed_pongs: 0.0,
            probe_sent_at: None,
        });
        Ok(())
    }

    /// Checks `now` and the state, then changes the state.
    fn update(
        &mut self,
        now: &Value,
        change: impl FnOnce(&mut LivenessState, f64),
    ) -> JsResult<()> {
        let (mut state, now) = self.checked(now)?;
        change(&mut state, now);
        self.state = Some(state);
        Ok(())
    }

    /// `recordPingSent`: the ping time; the wait for a pong starts unless
    /// one is already running.
    pub fn ping_sent(&mut self, now: &Value) -> JsResult<()> {
        self.update(now, |state, now| {
            state.last_ping_at = Some(now);
            state.awaiting_pong_since.get_or_insert(now);
        })
    }

    /// `recordPong`: nothing awaited, nothing missed.
    pub fn pong(&mut self, now: &Value) -> JsResult<()> {
        self.update(now, |state, _| {
            state.awaiting_pong_since = None;
            state.missed_pongs = 0.0;
        })
    }

    /// `recordProbeSent`: the first probe's time is kept.
    pub fn probe_sent(&mut self, now: &Value) -> JsResult<()> {
        self.update(now, |state, now| {
            state.probe_sent_at.get_or_insert(now);
        })
    }

    /// `recordProbeReply`: the worker answered; everything is forgiven.
    pub fn probe_reply(&mut self, now: &Value) -> JsResult<()> {
        self.update(now, |state, _| {
            state.probe_sent_at = None;
            state.awaiting_pong_since = None;
            state.missed_pongs = 0.0;
        })
    }

    /// `tickPongDeadline`: a pong awaited for the timeout or longer is
    /// missed, and the wait ends.
    pub fn tick(&mut self, config: &Value, now: &Value) -> JsResult<()> {
        let (mut state, config, now) = self.checked_with_config(config, now)?;
        if let Some(since) = state.awaiting_pong_since {
            if now - since >= config.pong_timeout_ms {
                state.missed_pongs += 1.0;
                state.awaiting_pong_since = None;
            }
        }
        self.state = Some(state);
        Ok(())
    }

    /// `shouldSendPing`: no pong awaited, no probe out, and the interval
    /// has passed since the last ping (or creation).
    pub fn should_send_ping(&self, config: &Value, now: &Value) -> JsResult<bool> {
        let (state, config, now) = self.checked_with_config(config, now)?;
        let since = state.last_ping_at.unwrap_or(state.created_at);
        Ok(state.awaiting_pong_since.is_none()
            && state.probe_sent_at.is_none()
            && now - since >= config.ping_interval_ms)
    }

    /// `workerLivenessVerdict`: a probe decides alone while it is out; then
    /// the missed pongs.
    pub fn verdict(&self, config: &Value, now: &Value) -> JsResult<Verdict> {
        let (state, config, now) = self.checked_with_config(config, now)?;
        Ok(if let Some(probe_sent_at) = state.probe_sent_at {
            if now - probe_sent_at >= config.probe_timeout_ms {
                Verdict::Dead
            } else {
                Verdict::Probing
            }
        } else if state.missed_pongs >= config.max_missed_pongs {
            Verdict::Unresponsive
        } else if state.missed_pongs > 0.0 {
            Verdict::Degraded
        } else {
            Verdict::Healthy
        })
    }

    /// Runs one schedule step (`{op, now}`); a verdict or ping question
    /// returns its trace entry. Unknown ops do nothing.
    pub fn step(&mut self, config: &Value, step: &Value) -> JsResult<Option<Value>> {
        let now = step.get("now");
        let Some(op) = step.get("op").as_js_string().and_then(|op| op.as_str()) else {
            return Ok(None);
        };
        match op {
            "create" => self.create(now)?,
            "pingSent" => self.ping_sent(now)?,
            "pong" => self.pong(now)?,
            "probeSent" => self.probe_sent(now)?,
            "probeReply" => self.probe_reply(now)?,
            "tick" => self.tick(config, now)?,
            "verdict" => {
                let verdict = self.verdict(config, now)?;
                return Ok(Some(
                    js_object! { "t" => "verdict", "now" => now, "value" => verdict.as_str() },
                ));
            }
            "shouldSendPing" => {
                let due = self.should_send_ping(config, now)?;
                return Ok(Some(
                    js_object! { "t" => "shouldSendPing", "now" => now, "value" => due },
                ));
            }
            _ => {}
        }
        Ok(None)
    }
}

/// Runs a whole schedule and returns its trace.
pub fn run_schedule(config: &Value, schedule: &[Value]) -> JsResult<Vec<Value>> {
    let mut liveness = WorkerLiveness::new();
    let mut trace = Vec::new();
    for step in schedule {
        trace.extend(liveness.step(config, step)?);
    }
    Ok(trace)
}

/// The `liveness` op: the case's schedule under its config (the default
/// when unset). Result: `{trace}`; a throw anywhere loses the trace.
pub fn liveness_op(case: &Value) -> Value {
    let default = default_config();
    let config = case.get("config").or(&default);
    let schedule = case.get("schedule").as_array().unwrap_or_default();
    match run_schedule(config, schedule) {
        Ok(trace) => {
            let mut result = Object::with_capacity(1);
            result.insert("trace", Value::Array(trace));
            Value::Object(result)
        }
        Err(error) => super::threw(error.message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::{json, value};

    fn now(n: f64) -> Value {
        Value::Number(n)
    }

    fn message<T: std::fmt::Debug>(result: JsResult<T>) -> String {
        result.unwrap_err().message.to_string()
    }

    fn created(at: f64) -> WorkerLiveness {
        let mut liveness = WorkerLiveness::new();
        liveness.create(&now(at)).unwrap();
        liveness
    }

    #[test]
    fn the_default_config_passes_its_own_checks() {
        assert_eq!(
            LivenessConfig::check(&default_config()),
            Ok(LivenessConfig {
                ping_interval_ms: 15_000.0,
                pong_timeout_ms: 10_000.0,
                max_missed_pongs: 2.0,
                probe_timeout_ms: 5_000.0,
            })
        );
    }

    #[test]
    fn each_config_field_is_checked_in_order() {
        let check = |json: &str| message(LivenessConfig::check(&value(json)));
        let number = |field: &str| format!("liveness config {field} must be a positive number");
        assert_eq!(check("{}"), number("pingIntervalMs"));
        assert_eq!(check("[1,1,1,1]"), number("pingIntervalMs"));
        assert_eq!(check("null"), number("pingIntervalMs"));
        assert_eq!(
            check(r#"{"pingIntervalMs":1e400}"#),
            number("pingIntervalMs")
        );
        assert_eq!(check(r#"{"pingIntervalMs":"1"}"#), number("pingIntervalMs"));
        assert_eq!(
            check(r#"{"pingIntervalMs":1,"pongTimeoutMs":0}"#),
            number("pongTimeoutMs")
        );
        assert_eq!(
            check(r#"{"pingIntervalMs":1,"pongTimeoutMs":1,"maxMissedPongs":1.5}"#),
            "liveness config maxMissedPongs must be a positive integer"
        );
        assert_eq!(
            check(r#"{"pingIntervalMs":1,"pongTimeoutMs":1,"maxMissedPongs":-2}"#),
            "liveness config maxMissedPongs must be a positive integer"
        );
        assert_eq!(
            check(
                r#"{"pingIntervalMs":1,"pongTimeoutMs":1,"maxMissedPongs":1,"probeTimeoutMs":-0}"#
            ),
            number("probeTimeoutMs")
        );
    }

    #[test]
    fn now_is_checked_first_then_the_state_then_the_config() {
        let bad_config = value("{}");
        let mut fresh = WorkerLiveness::new();
        assert_eq!(
            message(fresh.create(&value(r#""1""#))),
            "liveness now must be a finite number"
        );
        assert_eq!(
            message(fresh.create(&Value::Undefined)),
            "liveness now must be a finite number"
        );
        assert_eq!(
            message(fresh.create(&value("1e400"))),
            "liveness now must be a finite number"
        );
        assert_eq!(
            message(fresh.verdict(&bad_config, &Value::Null)),
            "liveness now must be a finite number"
        );
        assert_eq!(
            message(fresh.verdict(&bad_config, &now(1.0))),
            "liveness state has not been created"
        );
        for result in [
            fresh.ping_sent(&now(1.0)),
            fresh.pong(&now(1.0)),
            fresh.probe_sent(&now(1.0)),
            fresh.probe_reply(&now(1.0)),
            fresh.tick(&bad_config, &now(1.0)),
        ] {
            assert_eq!(message(result), "liveness state has not been created");
        }
        assert_eq!(
            message(fresh.should_send_ping(&bad_config, &now(1.0))),
            "liveness state has not been created"
        );
        let liveness = created(0.0);
        assert_eq!(
            message(liveness.should_send_ping(&bad_config, &now(1.0))),
            "liveness config pingIntervalMs must be a positive number"
        );
    }

    #[test]
    fn the_state_functions_do_not_read_the_config() {
        let mut liveness = created(0.0);
        liveness.ping_sent(&now(1.0)).unwrap();
        liveness.pong(&now(2.0)).unwrap();
        liveness.probe_sent(&now(3.0)).unwrap();
        liveness.probe_reply(&now(4.0)).unwrap();
        assert_eq!(liveness.state().map(|s| s.last_ping_at), Some(Some(1.0)));
    }

    #[test]
    fn a_missed_pong_needs_a_tick_at_or_after_the_timeout() {
        let config = default_config();
        let mut liveness = created(0.0);
        liveness.ping_sent(&now(15_000.0)).unwrap();
        liveness.ping_sent(&now(20_000.0)).unwrap();
        assert_eq!(
            liveness.state().unwrap().awaiting_pong_since,
            Some(15_000.0)
        );
        liveness.tick(&config, &now(24_999.5)).unwrap();
        assert_eq!(
            liveness.verdict(&config, &now(24_999.5)),
            Ok(Verdict::Healthy)
        );
        liveness.tick(&config, &now(25_000.0)).unwrap();
        assert_eq!(
            liveness.verdict(&config, &now(25_000.0)),
            Ok(Verdict::Degraded)
        );
        assert_eq!(liveness.state().unwrap().awaiting_pong_since, None);
        liveness.ping_sent(&now(30_000.0)).unwrap();
        liveness.tick(&config, &now(40_000.0)).unwrap();
        assert_eq!(
            liveness.verdict(&config, &now(40_000.0)),
            Ok(Verdict::Unresponsive)
        );
        liveness.pong(&now(40_001.0)).unwrap();
        assert_eq!(
            liveness.verdict(&config, &now(40_001.0)),
            Ok(Verdict::Healthy)
        );
    }

    #[test]
    fn a_probe_decides_while_it_is_out() {
        let config = default_config();
        let mut liveness = created(0.0);
        liveness.probe_sent(&now(100.0)).unwrap();
        liveness.probe_sent(&now(3_000.0)).unwrap();
        assert_eq!(
            liveness.verdict(&config, &now(5_099.0)),
            Ok(Verdict::Probing)
        );
        assert_eq!(liveness.verdict(&config, &now(5_100.0)), Ok(Verdict::Dead));
        assert_eq!(
            liveness.should_send_ping(&config, &now(99_999.0)),
            Ok(false)
        );
        liveness.probe_reply(&now(5_200.0)).unwrap();
        assert_eq!(
            liveness.verdict(&config, &now(5_200.0)),
            Ok(Verdict::Healthy)
        );
    }

    #[test]
    fn a_ping_is_due_after_the_interval_with_nothing_outstanding() {
        let config = default_config();
        let mut liveness = created(1_000.0);
        assert_eq!(
            liveness.should_send_ping(&config, &now(15_999.0)),
            Ok(false)
        );
        assert_eq!(liveness.should_send_ping(&config, &now(16_000.0)), Ok(true));
        liveness.ping_sent(&now(16_000.0)).unwrap();
        assert_eq!(
            liveness.should_send_ping(&config, &now(50_000.0)),
            Ok(false)
        );
        liveness.pong(&now(16_001.0)).unwrap();
        assert_eq!(
            liveness.should_send_ping(&config, &now(30_999.0)),
            Ok(false)
        );
        assert_eq!(liveness.should_send_ping(&config, &now(31_000.0)), Ok(true));
    }

    #[test]
    fn verdict_names() {
        let names: Vec<&str> = [
            Verdict::Healthy,
            Verdict::Degraded,
            Verdict::Unresponsive,
            Verdict::Probing,
            Verdict::Dead,
        ]
        .iter()
        .map(|v| v.as_str())
        .collect();
        assert_eq!(
            names,
            ["healthy", "degraded", "unresponsive", "probing", "dead"]
        );
    }

    #[test]
    fn the_op_traces_questions_and_loses_the_trace_on_a_throw() {
        let op = |case: &str| json(&liveness_op(&value(case)));
        assert_eq!(
            op(
                r#"{"schedule":[{"op":"create","now":0.5},{"op":"verdict","now":1.25},{"op":"shouldSendPing","now":-0},{"op":"nope"}]}"#
            ),
            r#"{"trace":[{"t":"verdict","now":1.25,"value":"healthy"},{"t":"shouldSendPing","now":0,"value":false}]}"#
        );
        assert_eq!(
            op(
                r#"{"schedule":[{"op":"create","now":0},{"op":"verdict","now":1},{"op":"tick","now":1e400}]}"#
            ),
            r#"{"threw":true,"message":"liveness now must be a finite number"}"#
        );
        assert_eq!(
            op(r#"{"config":null,"schedule":[{"op":"create","now":0},{"op":"tick","now":1}]}"#),
            r#"{"trace":[]}"#
        );
        assert_eq!(
            op(r#"{"config":false,"schedule":[{"op":"create","now":0},{"op":"tick","now":1}]}"#),
            r#"{"threw":true,"message":"liveness config pingIntervalMs must be a positive number"}"#
        );
        assert_eq!(op("{}"), r#"{"trace":[]}"#);
    }
}
