//! The contract's ops (section 4), one module per seam, and [`OPS`], the
//! table that names them.
//!
//! An op reads its case (a [`Value`] object whose iterated fields the
//! batch has already checked) and returns the result the batch prints.
//! Most wrap one function of the contract in an [`outcome`]
//! (`{"defined":…,"value":…}` or `{"threw":true,"message":…}`); the
//! scripted ones have result shapes of their own.
//!
//! - [`argv`], [`options`], [`env`](mod@env): the worker's command line, its
//!   options object and its environment (4.1–4.6).
//! - [`ready`], [`worker_output`], [`stillborn`]: the ready handshake,
//!   what a worker printed, and why it never became ready (4.7–4.12,
//!   4.14, 4.15).
//! - [`preflight`] (4.13) and [`worker_args`] (`parseWorkerArgs`, 4.26):
//!   the ops that look at the file system, inside a scratch directory
//!   ([`crate::scratch`]).
//! - [`respawn`], [`output_routing`], [`liveness`] (4.16–4.18): the
//!   stateful seams, each driven by a case's script or schedule.
//! - [`ipc`] (4.20, 4.21): the protocol halves of [`crate::ipc`] driven by
//!   a script against a recording channel.
//! - [`remote`] (4.22–4.25): the remote harness's config, entrypoint and
//!   join payload.
//! - [`envelope`]: the result shapes.

pub mod argv;
pub mod env;
pub mod envelope;
pub mod ipc;
pub mod liveness;
pub mod options;
pub mod output_routing;
pub mod preflight;
pub mod ready;
pub mod remote;
pub mod respawn;
pub mod stillborn;
pub mod worker_args;
pub mod worker_output;

pub use envelope::{outcome, threw};

use js_exact::js_concat;
use js_exact::{Str, Value};

/// The handler of one op: the case in, the result out.
pub type Handler = fn(&Value) -> Value;

/// What the batch, and the tests that must cover every op, know about one
/// op. [`OPS`] lists them all; the fuzz generators, the wrong-types
/// differential test and the planted-bug test each have a table of their
/// own, and a test of each checks that it names exactly these ops.
#[derive(Clone, Copy, Debug)]
pub struct OpSpec {
    /// The name a case gives in `op`.
    pub name: &'static str,
    /// Runs a case of this op.
    pub handler: Handler,
    /// The fields that must be arrays of objects when set (contract 1),
    /// in the order they are checked: the batch refuses any other value
    /// before the handler runs.
    pub iterated: &'static [&'static str],
    /// Whether some case makes the handler answer a `threw` result. An op
    /// that cannot throw records what went wrong inside its result.
    pub can_throw: bool,
}

impl OpSpec {
    /// An op that iterates no field and can throw.
    const fn new(name: &'static str, handler: Handler) -> Self {
        OpSpec {
            name,
            handler,
            iterated: &[],
            can_throw: true,
        }
    }

    /// The same op, iterating `fields`.
    const fn iterating(self, fields: &'static [&'static str]) -> Self {
        OpSpec {
            iterated: fields,
            ..self
        }
    }

    /// The same op, answering every case without throwing.
    const fn never_throws(self) -> Self {
        OpSpec {
            can_throw: false,
            ..self
        }
    }
}

/// Every op of the contract (section 4), in the contract's order.
pub const OPS: &[OpSpec] = &[
    OpSpec::new("cliArgs", argv::cli_args_op),
    OpSpec::new("redactedCliArgs", argv::redacted_cli_args_op),
    OpSpec::new("envOverlay", env::env_overlay_op),
    OpSpec::new("nodeArgs", argv::node_args_op),
    OpSpec::new("scriptPath", argv::script_path_op),
    OpSpec::new("readyMessage", ready::ready_message_op),
    OpSpec::new("sessionClosedGuard", ready::session_closed_guard_op).never_throws(),
    OpSpec::new("readyTimeoutMs", ready::ready_timeout_ms_op),
    OpSpec::new("readyTimeoutError", ready::ready_timeout_error_op).never_throws(),
    OpSpec::new("boundedOutput", worker_output::bounded_output_op),
    OpSpec::new(
        "exitBeforeReadyMessage",
        worker_output::exit_before_ready_message_op,
    ),
    OpSpec::new("preflight", preflight::preflight_op),
    OpSpec::new("preflightLine", worker_output::preflight_line_op),
    OpSpec::new("stillborn", stillborn::stillborn_op).never_throws(),
    OpSpec::new("respawn", respawn::respawn_op).iterating(&["script"]),
    OpSpec::new("outputRouting", output_routing::output_routing_op).iterating(&["script"]),
    OpSpec::new("liveness", liveness::liveness_op).iterating(&["schedule"]),
    OpSpec::new("ipcWorker", ipc::ipc_worker_op)
        .iterating(&["script"])
        .never_throws(),
    OpSpec::new("ipcParent", ipc::ipc_parent_op)
        .iterating(&["requestHandlers", "script"])
        .never_throws(),
    OpSpec::new("remoteConfig", remote::remote_config_op),
    OpSpec::new("remoteConfigEnv", remote::remote_config_env_op),
    OpSpec::new("remoteEntrypoint", remote::remote_entrypoint_op),
    OpSpec::new("remoteJoinPayload", remote::remote_join_payload_op),
    OpSpec::new("parseWorkerArgs", worker_args::parse_worker_args_op),
];

/// The op a case's `op` names, if any.
pub fn find(op: &Value) -> Option<&'static OpSpec> {
    let name = op.as_js_string()?;
    OPS.iter().find(|spec| name.eq_str(spec.name))
}

/// The op of this name, if any.
pub fn named(name: &str) -> Option<&'static OpSpec> {
    OPS.iter().find(|spec| spec.name == name)
}

/// Runs the op a case names, on a case that is known to be an object.
pub fn run_op(case: &Value) -> Value {
    let op = case.get("op");
    match find(op) {
        Some(spec) => (spec.handler)(case),
        None => threw(js_concat!("unknown op ", Str(op))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::{json, value};

    #[test]
    fn names_are_unique_and_found_by_value_and_by_text() {
        for (at, spec) in OPS.iter().enumerate() {
            assert!(
                OPS[..at].iter().all(|earlier| earlier.name != spec.name),
                "{} is listed twice",
                spec.name
            );
            assert_eq!(named(spec.name).map(|found| found.name), Some(spec.name));
            let by_value = find(&Value::from(spec.name)).map(|found| found.name);
            assert_eq!(by_value, Some(spec.name));
        }
        assert!(named("CLIARGS").is_none() && named(" cliArgs").is_none());
        assert!(find(&Value::from(7.0)).is_none());
    }

    #[test]
    fn unknown_ops_are_named_in_the_refusal() {
        for (case, message) in [
            (r#"{"op":"nope"}"#, "unknown op nope"),
            (r#"{"op":["a",1]}"#, "unknown op a,1"),
            ("{}", "unknown op undefined"),
        ] {
            let expected = format!(r#"{{"threw":true,"message":"{message}"}}"#);
            assert_eq!(json(&run_op(&value(case))), expected);
        }
    }
}
