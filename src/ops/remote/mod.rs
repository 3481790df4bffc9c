//! The remote harness (contract 4.22–4.25): a runner on another machine
//! that joins kandan and runs thread workers there. Its configuration
//! ([`config`]), the command that starts the linzumi CLI, and the join
//! payload it announces itself with.

pub mod config;

use super::outcome;
use crate::js::{JsResult, Object, Value};
use crate::{js_object, throw};

pub use config::{config_from_env, config_from_json, config_from_object};

/// What the join payload says the remote harness can do.
pub const CAPABILITIES: [&str; 3] = ["codex-harness", "thread-worker-ipc", "bounded-respawn"];

/// The join payload's protocol version.
pub const JOIN_PROTOCOL_VERSION: u32 = 1;

/// Script suffixes that run under `node` as they are.
const JAVASCRIPT_SUFFIXES: [&str; 3] = [".js", ".mjs", ".cjs"];

/// Script suffixes that need node's type stripping.
const TYPESCRIPT_SUFFIXES: [&str; 3] = [".ts", ".mts", ".cts"];

/// `resolveLinzumiCliEntrypoint(entrypoint)`: the command (and its first
/// arguments) that runs the linzumi CLI. Unset or blank is the installed
/// `linzumi`; a script runs under `node`; anything else is the command.
/// The suffix is judged on the entrypoint as given (not trimmed).
pub fn resolve_cli_entrypoint(entrypoint: &Value) -> JsResult<Value> {
    if entrypoint.is_set() && !entrypoint.is_string() {
        throw!("linzumi CLI entrypoint must be a string");
    }
    let command =
        |command: Value, args: Vec<Value>| js_object! { "command" => command, "args" => args };
    let Some(path) = entrypoint.as_js_string().filter(|path| !path.is_blank()) else {
        return Ok(command("linzumi".into(), Vec::new()));
    };
    let ends_with_any = |suffixes: &[&str]| suffixes.iter().any(|suffix| path.ends_with(suffix));
    Ok(if ends_with_any(&JAVASCRIPT_SUFFIXES) {
        command("node".into(), vec![path.into()])
    } else if ends_with_any(&TYPESCRIPT_SUFFIXES) {
        command(
            "node".into(),
            vec!["--experimental-strip-types".into(), path.into()],
        )
    } else {
        command(path.into(), Vec::new())
    })
}

/// `remoteHarnessRunnerJoinPayload(config)`, with the process-dependent
/// members given by the caller (the reference puts its pid and CLI
/// version there). The token is never part of it.
pub fn join_payload(config: &Value, runner_pid: Value, version: Value) -> JsResult<Value> {
    if !config.is_object() {
        throw!("runner join payload config must be an object");
    }
    let runner_id = config.get("runnerId");
    if !runner_id.is_non_empty_string() {
        throw!("runner join payload runnerId must be a non-empty string");
    }
    let cwd = config.get("cwd");
    if !cwd.is_absolute_path() {
        throw!("runner join payload cwd must be an absolute path");
    }
    let workspace_slug = config.get("workspaceSlug");
    let allowed_cwds = config.get("allowedCwds");
    let heartbeat_interval_ms = config.get("heartbeatIntervalMs");
    let labels = config.get("labels");
    let capabilities: Vec<Value> = CAPABILITIES.iter().map(|&c| Value::from(c)).collect();
    Ok(js_object! {
        "type" => "runner_join",
        "protocolVersion" => JOIN_PROTOCOL_VERSION,
        "runnerId" => runner_id,
        "workspaceSlug" => if workspace_slug.is_non_empty_string() { workspace_slug.clone() } else { Value::Null },
        "runnerPid" => runner_pid,
        "version" => version,
        "capabilities" => capabilities,
        "cwd" => cwd,
        "allowedCwds" => if allowed_cwds.as_array().is_some() { allowed_cwds.clone() } else { Value::Array(vec![cwd.clone()]) },
        "heartbeatIntervalMs" => if heartbeat_interval_ms.as_number().is_some() { heartbeat_interval_ms.clone() } else { Value::Number(config::DEFAULT_HEARTBEAT_INTERVAL_MS) },
        "labels" => if labels.is_object() { labels.clone() } else { Value::Object(Object::new()) },
    })
}

/// The `remoteConfig` op.
pub fn remote_config_op(case: &Value) -> Value {
    outcome(config_from_json(case.get("json")))
}

/// The `remoteConfigEnv` op (an unset `env` is `{}`).
pub fn remote_config_env_op(case: &Value) -> Value {
    let empty = Value::Object(Object::new());
    outcome(config_from_env(case.get("env").or(&empty)))
}

/// The `remoteEntrypoint` op.
pub fn remote_entrypoint_op(case: &Value) -> Value {
    outcome(resolve_cli_entrypoint(case.get("entrypoint")))
}

/// The `remoteJoinPayload` op: the pid is `0` and the version `<version>`,
/// so results do not depend on the process.
pub fn remote_join_payload_op(case: &Value) -> Value {
    outcome(join_payload(
        case.get("config"),
        Value::from(0u32),
        Value::from("<version>"),
    ))
}
