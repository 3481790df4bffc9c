//! `liveness` (contract 4.18): is an active worker still alive?
//!
//! The runner pings the worker on an interval; a pong that does not come
//! within the timeout is a missed pong; too many in a row make the worker
//! unresponsive. A probe is the last resort: unanswered for long enough,
//! the worker is dead. Times are milliseconds as doubles, as in the
//! reference, and every call checks its inputs in the reference's order:
//! `now`, then the state, then the config.

use crate::js::{number, JsResult, Object, Value};
use crate::{js_object, throw};

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
