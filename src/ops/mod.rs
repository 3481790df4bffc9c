//! The contract's ops, one module per seam, and the table that names them.
//!
//! Every op is a function of its case alone: it reads the case's fields
//! (a [`Value`] object), and returns the result value that the batch
//! prints. Most wrap one pure function in an [`outcome`]; the stateful
//! ones (`respawn`, `outputRouting`, `liveness`, the IPC halves) drive a
//! scripted harness and have shapes of their own.

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

use crate::js::Value;
use crate::js_concat;

/// The handler of one op: the case in, the result out.
pub type Handler = fn(&Value) -> Value;

/// Every op of the contract, by name.
pub const OPS: &[(&str, Handler)] = &[
    ("cliArgs", argv::cli_args_op),
    ("redactedCliArgs", argv::redacted_cli_args_op),
    ("envOverlay", env::env_overlay_op),
    ("nodeArgs", argv::node_args_op),
    ("scriptPath", argv::script_path_op),
    ("readyMessage", ready::ready_message_op),
    ("sessionClosedGuard", ready::session_closed_guard_op),
    ("readyTimeoutMs", ready::ready_timeout_ms_op),
    ("readyTimeoutError", ready::ready_timeout_error_op),
    ("boundedOutput", worker_output::bounded_output_op),
    (
        "exitBeforeReadyMessage",
        worker_output::exit_before_ready_message_op,
    ),
    ("preflight", preflight::preflight_op),
    ("preflightLine", worker_output::preflight_line_op),
    ("stillborn", stillborn::stillborn_op),
    ("respawn", respawn::respawn_op),
    ("outputRouting", output_routing::output_routing_op),
    ("liveness", liveness::liveness_op),
    ("ipcWorker", ipc::ipc_worker_op),
    ("ipcParent", ipc::ipc_parent_op),
    ("remoteConfig", remote::remote_config_op),
    ("remoteConfigEnv", remote::remote_config_env_op),
    ("remoteEntrypoint", remote::remote_entrypoint_op),
    ("remoteJoinPayload", remote::remote_join_payload_op),
    ("parseWorkerArgs", worker_args::parse_worker_args_op),
];

/// The fields an op iterates, which must be arrays of objects when set
/// (contract 1), in the order they are checked.
pub fn iterated_fields(op: &str) -> &'static [&'static str] {
    match op {
        "respawn" | "outputRouting" | "ipcWorker" => &["script"],
        "ipcParent" => &["requestHandlers", "script"],
        "liveness" => &["schedule"],
        _ => &[],
    }
}

/// The handler for an op name.
pub fn handler(op: &Value) -> Option<Handler> {
    let name = op.as_js_string()?;
    OPS.iter()
        .find(|(known, _)| name.eq_str(known))
        .map(|(_, handler)| *handler)
}

/// Runs the op a case names, on a case that is known to be an object.
pub fn run_op(case: &Value) -> Value {
    let op = case.get("op");
    match handler(op) {
        Some(handler) => handler(case),
        None => threw(js_concat!("unknown op ", op.to_js_string())),
    }
}
