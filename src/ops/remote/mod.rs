//! The remote harness (contract 4.22–4.25): a runner on another machine
//! that joins kandan and runs thread workers there. Its configuration
//! ([`config`]), the command that starts the linzumi CLI, and the join
//! payload it announces itself with.

pub mod config;

use super::outcome;
use js_exact::{js_object, throw};
use js_exact::{JsResult, Object, Value};

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

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::{json, value};

    #[test]
    fn entrypoints() {
        let entrypoint = |json_text: &str| {
            resolve_cli_entrypoint(&value(json_text))
                .map(|v| json(&v))
                .map_err(|e| e.message.to_string())
        };
        let linzumi = Ok(r#"{"command":"linzumi","args":[]}"#.to_string());
        assert_eq!(entrypoint("null"), linzumi);
        assert_eq!(
            resolve_cli_entrypoint(&Value::Undefined)
                .map(|v| json(&v))
                .ok(),
            linzumi.clone().ok()
        );
        assert_eq!(entrypoint(r#"" \t\u3000""#), linzumi);
        assert_eq!(
            entrypoint(r#""x.mjs""#),
            Ok(r#"{"command":"node","args":["x.mjs"]}"#.into())
        );
        assert_eq!(
            entrypoint(r#"" x.cjs""#),
            Ok(r#"{"command":"node","args":[" x.cjs"]}"#.into())
        );
        assert_eq!(
            entrypoint(r#""x.cts""#),
            Ok(r#"{"command":"node","args":["--experimental-strip-types","x.cts"]}"#.into())
        );
        assert_eq!(
            entrypoint(r#""x.js ""#),
            Ok(r#"{"command":"x.js ","args":[]}"#.into())
        );
        assert_eq!(
            entrypoint(r#""\u0085""#),
            Ok("{\"command\":\"\u{85}\",\"args\":[]}".into())
        );
        assert_eq!(
            entrypoint("0"),
            Err("linzumi CLI entrypoint must be a string".into())
        );
    }

    #[test]
    fn join_payloads_never_carry_the_token() {
        let payload = |config: &str| {
            json(&remote_join_payload_op(&value(&format!(
                r#"{{"config":{config}}}"#
            ))))
        };
        assert_eq!(
            payload(
                r#"{"runnerId":"r","cwd":"/c","token":"secret","workspaceSlug":"","heartbeatIntervalMs":"1","labels":[]}"#
            ),
            concat!(
                r#"{"defined":true,"value":{"type":"runner_join","protocolVersion":1,"runnerId":"r","workspaceSlug":null,"#,
                r#""runnerPid":0,"version":"<version>","capabilities":["codex-harness","thread-worker-ipc","bounded-respawn"],"#,
                r#""cwd":"/c","allowedCwds":["/c"],"heartbeatIntervalMs":15000,"labels":{}}}"#
            )
        );
        let kept = payload(
            r#"{"runnerId":"r","cwd":"/","allowedCwds":[1],"heartbeatIntervalMs":-2.5,"labels":{"n":1},"workspaceSlug":"w"}"#,
        );
        assert!(kept.contains(r#""workspaceSlug":"w""#));
        assert!(kept.contains(r#""allowedCwds":[1],"heartbeatIntervalMs":-2.5,"labels":{"n":1}"#));
        assert!(!payload(r#"{"runnerId":"r","cwd":"/","token":"tok-123"}"#).contains("tok-123"));
    }

    #[test]
    fn join_payload_errors_in_order() {
        let error = |config: &str| {
            join_payload(&value(config), Value::from(0u32), Value::from("v"))
                .unwrap_err()
                .message
                .to_string()
        };
        assert_eq!(error("[]"), "runner join payload config must be an object");
        assert_eq!(
            error(r#"{"cwd":"rel"}"#),
            "runner join payload runnerId must be a non-empty string"
        );
        assert_eq!(
            error(r#"{"runnerId":"r","cwd":"rel"}"#),
            "runner join payload cwd must be an absolute path"
        );
    }

    #[test]
    fn the_ops_read_their_fields() {
        assert_eq!(
            json(&remote_config_op(&value(r#"{"json":5}"#))),
            r#"{"threw":true,"message":"remote harness config must be a JSON string"}"#
        );
        assert_eq!(
            json(&remote_config_env_op(&value("{}"))),
            r#"{"threw":true,"message":"remote harness env LINZUMI_KANDAN_URL is required"}"#
        );
        assert_eq!(
            json(&remote_config_env_op(&value(r#"{"env":1}"#))),
            r#"{"threw":true,"message":"remote harness env must be an object"}"#
        );
        assert_eq!(
            json(&remote_entrypoint_op(&value(r#"{"entrypoint":"a.ts"}"#))),
            r#"{"defined":true,"value":{"command":"node","args":["--experimental-strip-types","a.ts"]}}"#
        );
    }
}
