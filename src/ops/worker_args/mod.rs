//! `parseWorkerArgs` (contract 4.26): the worker's own argv parser, the
//! inverse of `cliArgs` (4.2).
//!
//! The parser sees an environment given to it, never the host's: the
//! `parseWorkerArgs` op builds one from the case's `env` alone, so a
//! variable set on the machine running the oracle cannot change a result.
//! Directories are looked up on the real file system (the op runs in a
//! scratch directory, contract 3).

pub mod scan;

use std::collections::HashSet;

use super::argv::{string_array, WORKER_COMMAND};
use super::options::{EGRESS_MODES, EXECUTION_MODES};
use super::preflight::{path_kind, PathKind};
use super::threw;
use crate::js::{parse_js_string, JsResult, JsString, Object, Value};
use crate::scratch::in_scratch;
use crate::{js_object, throw};

use scan::scan_options;
pub use scan::{ACCUMULATING_OPTIONS, FLAG_OPTIONS, VALUE_OPTIONS};

/// The options a worker parsed from its argv, with its defaults applied.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkerArgs {
    /// `--kandan-url`, or `LINZUMI_KANDAN_URL`.
    pub kandan_url: JsString,
    /// `--token`, or `LINZUMI_RUNNER_TOKEN`.
    pub token: JsString,
    /// `--runner-id`, or `LINZUMI_RUNNER_ID`.
    pub runner_id: JsString,
    /// `--workspace`, or `LINZUMI_WORKSPACE`.
    pub workspace_slug: Option<JsString>,
    /// `--cwd`: an existing directory.
    pub cwd: JsString,
    /// `--codex-bin`, or `LINZUMI_CODEX_BIN`, or `codex`.
    pub codex_bin: JsString,
    /// `--vm-execution` given.
    pub vm_execution: bool,
    /// `--execution-mode`.
    pub execution_mode: Option<JsString>,
    /// `--egress-mode`.
    pub egress_mode: Option<JsString>,
    /// `--project`.
    pub project_public_id: Option<JsString>,
    /// `--golden-image`.
    pub golden_image_public_id: Option<JsString>,
    /// `--fast` given.
    pub fast: bool,
    /// `--log-file`.
    pub log_file: Option<JsString>,
    /// The `--allowed-cwd` directories that exist (`[cwd]` when none given).
    pub allowed_cwds: Vec<JsString>,
    /// The `--allowed-cwd` values that are not existing directories.
    pub missing_allowed_cwds: Vec<JsString>,
    /// The `--allow-forward-port` numbers, without duplicates.
    pub allowed_forward_ports: Vec<f64>,
    /// `--runtime-defaults`, parsed.
    pub runtime_defaults: Option<Object>,
    /// `--codex-model-provider`, or `LINZUMI_CODEX_MODEL_PROVIDER`.
    pub codex_model_provider: Option<JsString>,
    /// `--linzumi-agent-mcp-token`, or `LINZUMI_AGENT_MCP_TOKEN`.
    pub linzumi_agent_mcp_token: Option<JsString>,
    /// `--thread-id`.
    pub kandan_thread_id: JsString,
    /// `--debug-trace`, or `LINZUMI_DEBUG_TRACE`.
    pub debug_trace: Option<JsString>,
}

impl WorkerArgs {
    /// The op's `value`: every member, unset ones as `null` (or `[]`), in
    /// the contract's order.
    pub fn to_value(&self) -> Value {
        let text = |value: &Option<JsString>| value.clone().map_or(Value::Null, Value::String);
        let strings = |values: &[JsString]| Value::Array(values.iter().map(Value::from).collect());
        js_object! {
            "kandanUrl" => &self.kandan_url,
            "token" => &self.token,
            "runnerId" => &self.runner_id,
            "workspaceSlug" => text(&self.workspace_slug),
            "cwd" => &self.cwd,
            "codexBin" => &self.codex_bin,
            "vmExecution" => self.vm_execution,
            "executionMode" => text(&self.execution_mode),
            "egressMode" => text(&self.egress_mode),
            "projectPublicId" => text(&self.project_public_id),
            "goldenImagePublicId" => text(&self.golden_image_public_id),
            "fast" => self.fast,
            "logFile" => text(&self.log_file),
            "allowedCwds" => strings(&self.allowed_cwds),
            "missingAllowedCwds" => strings(&self.missing_allowed_cwds),
            "allowedForwardPorts" => Value::Array(self.allowed_forward_ports.iter().map(|&p| Value::Number(p)).collect()),
            "runtimeDefaults" => self.runtime_defaults.clone().map_or(Value::Null, Value::Object),
            "codexModelProvider" => text(&self.codex_model_provider),
            "linzumiAgentMcpToken" => text(&self.linzumi_agent_mcp_token),
            "kandanThreadId" => &self.kandan_thread_id,
            "debugTrace" => text(&self.debug_trace),
        }
    }
}

/// The environment a case gives the parser: its `env` members whose values
/// are strings (an `env` that is not an object gives none).
pub fn case_environment(env: &Value) -> Object {
    env.as_object()
        .map(|env| {
            env.iter()
                .filter(|(_, value)| value.is_string())
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether a port value is only ASCII digits naming 1–65535; its number.
fn port_number(text: &JsString) -> Option<f64> {
    crate::js::number::from_ascii_digits(text).filter(|port| (1.0..=65535.0).contains(port))
}

/// `parseThreadCodexWorkerArgs(args, env)`. `is_directory` answers whether
/// a path names an existing directory.
pub fn parse_worker_args(
    args: &Value,
    env: &Object,
    is_directory: &dyn Fn(&JsString) -> bool,
) -> JsResult<WorkerArgs> {
    let Some(args) = string_array(args) else {
        throw!("worker args must be an array of strings");
    };
    if !args
        .first()
        .is_some_and(|first| first.eq_str(WORKER_COMMAND))
    {
        throw!("expected the ", WORKER_COMMAND, " command");
    }
    let given = scan_options(args.get(1..).unwrap_or_default())?;
    let variable = |name: &str| {
        env.get(name)
            .and_then(Value::as_js_string)
            .filter(|value| !value.is_empty())
            .cloned()
    };
    // An option given with an empty value still counts as given.
    let option_or =
        |field: &str, name: &str| given.value(field).cloned().or_else(|| variable(name));
    let option = |field: &str| given.value(field).cloned();

    let Some(kandan_url) = option_or("kandanUrl", "LINZUMI_KANDAN_URL") else {
        throw!("missing --kandan-url (or LINZUMI_KANDAN_URL)");
    };
    let Some(token) = option_or("token", "LINZUMI_RUNNER_TOKEN") else {
        throw!("missing --token (or LINZUMI_RUNNER_TOKEN)");
    };
    let Some(runner_id) = option_or("runnerId", "LINZUMI_RUNNER_ID") else {
        throw!("missing --runner-id (or LINZUMI_RUNNER_ID)");
    };
    let Some(kandan_thread_id) = option("kandanThreadId") else {
        throw!("missing --thread-id");
    };
    let Some(cwd) = option("cwd") else {
        throw!("missing --cwd");
    };
    if !cwd.starts_with("/") {
        throw!("--cwd must be an absolute path: ", cwd);
    }
    if !is_directory(&cwd) {
        throw!("worker cwd does not exist: ", cwd);
    }
    let allowed_cwd_values = given.list("allowedCwds");
    if let Some(relative) = allowed_cwd_values.iter().find(|v| !v.starts_with("/")) {
        throw!("--allowed-cwd must be an absolute path: ", relative);
    }
    let mut allowed_forward_ports = Vec::new();
    let mut seen_ports = HashSet::new();
    for text in given.list("allowedForwardPorts") {
        let Some(port) = port_number(text) else {
            throw!(
                "--allow-forward-port must be a port number (1-65535): ",
                text
            );
        };
        // Ports are integers from 1 to 65535, so their bits identify them.
        if seen_ports.insert(port.to_bits()) {
            allowed_forward_ports.push(port);
        }
    }
    let execution_mode = option("executionMode");
    if let Some(mode) = execution_mode
        .as_ref()
        .filter(|m| !EXECUTION_MODES.iter().any(|a| m.eq_str(a)))
    {
        throw!("--execution-mode must be one of local, vm, remote: ", mode);
    }
    let egress_mode = option("egressMode");
    if let Some(mode) = egress_mode
        .as_ref()
        .filter(|m| !EGRESS_MODES.iter().any(|a| m.eq_str(a)))
    {
        throw!(
            "--egress-mode must be one of open, restricted, offline: ",
            mode
        );
    }
    let runtime_defaults = match option("runtimeDefaults") {
        None => None,
        Some(text) => match parse_js_string(&text).map(Value::into_object) {
            Ok(Some(object)) => Some(object),
            _ => throw!("--runtime-defaults must be a JSON object"),
        },
    };
    let mut allowed_cwds = Vec::new();
    let mut missing_allowed_cwds = Vec::new();
    for path in JsString::without_duplicates(allowed_cwd_values) {
        if is_directory(&path) {
            allowed_cwds.push(path);
        } else {
            missing_allowed_cwds.push(path);
        }
    }
    if allowed_cwd_values.is_empty() {
        allowed_cwds = vec![cwd.clone()];
    }
    Ok(WorkerArgs {
        kandan_url,
        token,
        runner_id,
        workspace_slug: option_or("workspaceSlug", "LINZUMI_WORKSPACE"),
        codex_bin: option_or("codexBin", "LINZUMI_CODEX_BIN").unwrap_or_else(|| "codex".into()),
        cwd,
        vm_execution: given.flags.contains("vmExecution"),
        execution_mode,
        egress_mode,
        project_public_id: option("projectPublicId"),
        golden_image_public_id: option("goldenImagePublicId"),
        fast: given.flags.contains("fast"),
        log_file: option("logFile"),
        allowed_cwds,
        missing_allowed_cwds,
        allowed_forward_ports,
        runtime_defaults,
        codex_model_provider: option_or("codexModelProvider", "LINZUMI_CODEX_MODEL_PROVIDER"),
        linzumi_agent_mcp_token: option_or("linzumiAgentMcpToken", "LINZUMI_AGENT_MCP_TOKEN"),
        kandan_thread_id,
        debug_trace: option_or("debugTrace", "LINZUMI_DEBUG_TRACE"),
    })
}

/// Whether a path names an existing directory on the real file system
/// (`statSync(path).isDirectory()`, false when stat fails).
pub fn is_existing_directory(path: &JsString) -> bool {
    path_kind(path) == PathKind::Directory
}

/// The deepest `--runtime-defaults` the reference returns. Its op passes
/// every result through a recursive `$DIR` substitution, which overflows
/// Node's stack, and the op's `catch` answers
/// `{"threw":"Maximum call stack size exceeded"}`: on Node 20 beyond
/// about 1956 levels of objects, or 2283 of arrays (both counting the
/// runtime defaults object; the exact level moves by one or two with the
/// process's environment). The lower of the two is the line here, and it
/// also keeps the recursive copying, substitution and printing of the
/// value far inside the batch thread's stack, whatever the depth of the
/// text.
pub const RUNTIME_DEFAULTS_MAX_DEPTH: usize = 1956;

/// The reference's message when its stack overflows.
pub const STACK_OVERFLOW: &str = "Maximum call stack size exceeded";

/// The `parseWorkerArgs` op, in a scratch directory: `{"value":{…}}`, or
/// `{"threw":"<message>"}`.
pub fn parse_worker_args_op(case: &Value) -> Value {
    in_scratch(case, |case, _dir| {
        let env = case_environment(case.get("env"));
        let no_args = Value::Array(Vec::new());
        let args = case.get("args").or(&no_args);
        match parse_worker_args(args, &env, &is_existing_directory) {
            Ok(parsed)
                if parsed.runtime_defaults.as_ref().is_some_and(|defaults| {
                    defaults.nests_deeper_than(RUNTIME_DEFAULTS_MAX_DEPTH)
                }) =>
            {
                js_object! { "threw" => STACK_OVERFLOW }
            }
            Ok(parsed) => js_object! { "value" => parsed.to_value() },
            Err(error) => js_object! { "threw" => error.message },
        }
    })
    .unwrap_or_else(|error| threw(error.message()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::js::testing::{json, value};

    /// Directories that "exist" for these tests: `/ws` and `/a`.
    fn fake_directory(path: &JsString) -> bool {
        path.eq_str("/ws") || path.eq_str("/a")
    }

    fn parse_with(args: &str, env: &str) -> Result<WorkerArgs, String> {
        parse_worker_args(
            &value(args),
            &case_environment(&value(env)),
            &fake_directory,
        )
        .map_err(|error| error.message.to_string())
    }

    fn js(text: &str) -> JsString {
        JsString::from(text)
    }

    fn parse_args(args: &str) -> Result<WorkerArgs, String> {
        parse_with(args, "{}")
    }

    const REQUIRED: &str = r#""thread-codex-worker","--kandan-url","k","--token","t","--runner-id","r","--thread-id","th","--cwd","/ws""#;

    fn with(extra: &str) -> Result<WorkerArgs, String> {
        parse_args(&format!("[{REQUIRED}{extra}]"))
    }

    #[test]
    fn the_required_options_and_the_defaults() {
        let parsed = with("").unwrap();
        assert_eq!(
            json(&parsed.to_value()),
            concat!(
                r#"{"kandanUrl":"k","token":"t","runnerId":"r","workspaceSlug":null,"cwd":"/ws","codexBin":"codex","#,
                r#""vmExecution":false,"executionMode":null,"egressMode":null,"projectPublicId":null,"#,
                r#""goldenImagePublicId":null,"fast":false,"logFile":null,"allowedCwds":["/ws"],"#,
                r#""missingAllowedCwds":[],"allowedForwardPorts":[],"runtimeDefaults":null,"#,
                r#""codexModelProvider":null,"linzumiAgentMcpToken":null,"kandanThreadId":"th","debugTrace":null}"#
            )
        );
    }

    #[test]
    fn scanning_errors() {
        assert_eq!(
            parse_args(r#"["thread-codex-worker",1]"#).unwrap_err(),
            "worker args must be an array of strings"
        );
        assert_eq!(
            parse_args(r#""thread-codex-worker""#).unwrap_err(),
            "worker args must be an array of strings"
        );
        assert_eq!(
            parse_args("[]").unwrap_err(),
            "expected the thread-codex-worker command"
        );
        assert_eq!(
            parse_args(r#"["x"]"#).unwrap_err(),
            "expected the thread-codex-worker command"
        );
        assert_eq!(
            parse_args(r#"["thread-codex-worker","x"]"#).unwrap_err(),
            "unexpected argument x"
        );
        assert_eq!(
            parse_args(r#"["thread-codex-worker","-x"]"#).unwrap_err(),
            "unexpected argument -x"
        );
        assert_eq!(
            parse_args(r#"["thread-codex-worker","--x=1"]"#).unwrap_err(),
            "unknown thread-codex-worker option --x"
        );
        assert_eq!(
            parse_args(r#"["thread-codex-worker","--"]"#).unwrap_err(),
            "unknown thread-codex-worker option --"
        );
        assert_eq!(
            parse_args(r#"["thread-codex-worker","--token"]"#).unwrap_err(),
            "option --token requires a value"
        );
        assert_eq!(
            parse_args(r#"["thread-codex-worker","--fast="]"#).unwrap_err(),
            "option --fast does not take a value"
        );
    }

    #[test]
    fn missing_values_in_order() {
        assert_eq!(
            parse_args(r#"["thread-codex-worker"]"#).unwrap_err(),
            "missing --kandan-url (or LINZUMI_KANDAN_URL)"
        );
        assert_eq!(
            parse_args(r#"["thread-codex-worker","--kandan-url="]"#).unwrap_err(),
            "missing --token (or LINZUMI_RUNNER_TOKEN)"
        );
        assert_eq!(
            parse_args(r#"["thread-codex-worker","--kandan-url=","--token="]"#).unwrap_err(),
            "missing --runner-id (or LINZUMI_RUNNER_ID)"
        );
        assert_eq!(
            parse_args(r#"["thread-codex-worker","--kandan-url=","--token=","--runner-id="]"#)
                .unwrap_err(),
            "missing --thread-id"
        );
        assert_eq!(
            parse_args(r#"["thread-codex-worker","--kandan-url=","--token=","--runner-id=","--thread-id="]"#).unwrap_err(),
            "missing --cwd"
        );
    }

    #[test]
    fn field_checks_in_order() {
        assert_eq!(
            with(r#","--cwd","ws""#).unwrap_err(),
            "--cwd must be an absolute path: ws"
        );
        assert_eq!(
            with(r#","--cwd","/gone""#).unwrap_err(),
            "worker cwd does not exist: /gone"
        );
        assert_eq!(
            with(r#","--allow-forward-port","0","--allowed-cwd","/a","--allowed-cwd","b""#)
                .unwrap_err(),
            "--allowed-cwd must be an absolute path: b"
        );
        for port in ["0", "65536", "+1", "1.0", " 1", ""] {
            assert_eq!(
                with(&format!(
                    r#","--allow-forward-port","{port}","--execution-mode","x""#
                ))
                .unwrap_err(),
                format!("--allow-forward-port must be a port number (1-65535): {port}")
            );
        }
        assert_eq!(
            with(r#","--egress-mode","x","--execution-mode","""#).unwrap_err(),
            "--execution-mode must be one of local, vm, remote: "
        );
        assert_eq!(
            with(r#","--egress-mode","x","--runtime-defaults","[]""#).unwrap_err(),
            "--egress-mode must be one of open, restricted, offline: x"
        );
        for text in ["[]", "null", "1", "{", r#""{}""#] {
            assert_eq!(
                with(&format!(
                    r#","--runtime-defaults",{}"#,
                    json(&Value::from(text))
                ))
                .unwrap_err(),
                "--runtime-defaults must be a JSON object",
                "{text}"
            );
        }
    }

    #[test]
    fn values_accumulate_or_keep_the_last() {
        let parsed = with(concat!(
            r#","--allowed-cwd","/gone","--allowed-cwd=/a","--allowed-cwd","/gone","--allowed-cwd","/ws","#,
            r#""--allow-forward-port","80","--allow-forward-port=0080","--allow-forward-port","22","#,
            r#""--workspace","a","--workspace=b","--fast","--fast","--vm-execution","#,
            r#""--runtime-defaults","{\"b\":1,\"a\":{\"c\":[2.50]}}""#
        ))
        .unwrap();
        assert_eq!(parsed.allowed_cwds, [js("/a"), js("/ws")]);
        assert_eq!(parsed.missing_allowed_cwds, [js("/gone")]);
        assert_eq!(parsed.allowed_forward_ports, [80.0, 22.0]);
        assert_eq!(parsed.workspace_slug, Some(js("b")));
        assert!(parsed.fast && parsed.vm_execution);
        assert_eq!(
            json(&Value::Object(parsed.runtime_defaults.unwrap())),
            r#"{"b":1,"a":{"c":[2.5]}}"#
        );
    }

    #[test]
    fn inline_values_split_at_the_first_equals_sign() {
        let parsed = parse_args(r#"["thread-codex-worker","--kandan-url=a=b","--token==","--runner-id=","--thread-id","=","--cwd=/ws"]"#).unwrap();
        assert_eq!(parsed.kandan_url, js("a=b"));
        assert_eq!(parsed.token, js("="));
        assert_eq!(parsed.runner_id, js(""));
        assert_eq!(parsed.kandan_thread_id, js("="));
    }

    #[test]
    fn environment_fallbacks_apply_only_to_absent_options() {
        let env = concat!(
            r#"{"LINZUMI_KANDAN_URL":"ek","LINZUMI_RUNNER_TOKEN":"et","LINZUMI_RUNNER_ID":"er","#,
            r#""LINZUMI_WORKSPACE":"ew","LINZUMI_CODEX_BIN":"ec","LINZUMI_CODEX_MODEL_PROVIDER":"ep","#,
            r#""LINZUMI_AGENT_MCP_TOKEN":"em","LINZUMI_DEBUG_TRACE":"ed","LINZUMI_CWD":"/ws","#,
            r#""LINZUMI_PROJECT":"x","N":5}"#
        );
        let parsed = parse_with(r#"["thread-codex-worker","--thread-id","t","--cwd","/ws","--token=","--workspace","ow"]"#, env).unwrap();
        assert_eq!(
            (
                parsed.kandan_url.to_string(),
                parsed.token.to_string(),
                parsed.runner_id.to_string()
            ),
            ("ek".into(), "".into(), "er".into())
        );
        assert_eq!(parsed.workspace_slug, Some(js("ow")));
        assert_eq!(parsed.codex_bin, js("ec"));
        assert_eq!(parsed.codex_model_provider, Some(js("ep")));
        assert_eq!(parsed.linzumi_agent_mcp_token, Some(js("em")));
        assert_eq!(parsed.debug_trace, Some(js("ed")));
        assert_eq!(parsed.project_public_id, None);
        assert_eq!(
            parse_with(r#"["thread-codex-worker","--thread-id","t"]"#, env).unwrap_err(),
            "missing --cwd"
        );
        assert_eq!(
            parse_with(r#"["thread-codex-worker"]"#, r#"{"LINZUMI_KANDAN_URL":""}"#).unwrap_err(),
            "missing --kandan-url (or LINZUMI_KANDAN_URL)"
        );
    }

    #[test]
    fn the_case_environment_keeps_only_strings() {
        assert_eq!(
            json(&Value::Object(case_environment(&value(
                r#"{"A":"1","B":2,"C":null,"D":""}"#
            )))),
            r#"{"A":"1","D":""}"#
        );
        assert!(case_environment(&value(r#"["A=1"]"#)).is_empty());
        assert!(case_environment(&Value::Undefined).is_empty());
    }

    #[test]
    fn the_op_runs_in_a_scratch_directory() {
        let op = |case: &str| json(&parse_worker_args_op(&value(case)));
        let result = op(
            r#"{"mkdirs":["ws","a"],"args":["thread-codex-worker","--kandan-url","k","--token","t","--runner-id","r","--thread-id","th","--cwd","$DIR/ws","--allowed-cwd","$DIR/a","--allowed-cwd","$DIR/b"]}"#,
        );
        assert!(
            result.starts_with(r#"{"value":{"kandanUrl":"k""#),
            "{result}"
        );
        assert!(
            result.contains(r#""allowedCwds":["$DIR/a"],"missingAllowedCwds":["$DIR/b"]"#),
            "{result}"
        );
        assert_eq!(
            op("{}"),
            r#"{"threw":"expected the thread-codex-worker command"}"#
        );
        assert_eq!(
            op(
                r#"{"args":["thread-codex-worker","--thread-id","t","--cwd","$DIR/x"],"env":{"LINZUMI_KANDAN_URL":"k","LINZUMI_RUNNER_TOKEN":"t","LINZUMI_RUNNER_ID":"r"}}"#
            ),
            r#"{"threw":"worker cwd does not exist: $DIR/x"}"#
        );
        assert_eq!(
            op(r#"{"mkdirs":"ws"}"#),
            r#"{"threw":true,"message":"mkdirs must be an array"}"#
        );
    }

    #[test]
    fn runtime_defaults_deeper_than_the_references_stack_give_its_overflow() {
        // {"d":[[…]]}: the runtime defaults object, then `levels - 1`
        // arrays. Copying and printing it recurse, so the test runs on
        // a thread with room for the deepest value that is printed.
        let case = |levels: usize| {
            let text = format!(
                "{{\"d\":{}{}}}",
                "[".repeat(levels - 1),
                "]".repeat(levels - 1)
            );
            let mut case = value(
                r#"{"mkdirs":["ws"],"args":["thread-codex-worker","--kandan-url","k","--token","t","--runner-id","r","--thread-id","th","--cwd","$DIR/ws","--runtime-defaults"]}"#,
            );
            if let Value::Object(object) = &mut case {
                if let Some(Value::Array(args)) = object.get_mut("args") {
                    args.push(Value::from(text.as_str()));
                }
            }
            case
        };
        let deepest = std::thread::Builder::new()
            .stack_size(256 * 1024 * 1024)
            .spawn(move || json(&parse_worker_args_op(&case(RUNTIME_DEFAULTS_MAX_DEPTH))))
            .unwrap()
            .join()
            .unwrap();
        let arrays = RUNTIME_DEFAULTS_MAX_DEPTH - 1;
        let printed = format!(
            r#""runtimeDefaults":{{"d":{}{}}},"#,
            "[".repeat(arrays),
            "]".repeat(arrays)
        );
        assert!(deepest.starts_with(r#"{"value":{"kandanUrl":"k""#));
        assert!(deepest.contains(&printed));
        let overflow = r#"{"threw":"Maximum call stack size exceeded"}"#;
        for levels in [RUNTIME_DEFAULTS_MAX_DEPTH + 1, 1_000_000] {
            assert_eq!(json(&parse_worker_args_op(&case(levels))), overflow);
        }
        // An error found while parsing comes first, as in the reference.
        let mut missing_token = case(1_000_000);
        if let Value::Object(object) = &mut missing_token {
            if let Some(Value::Array(args)) = object.get_mut("args") {
                args.drain(3..5);
            }
        }
        assert_eq!(
            json(&parse_worker_args_op(&missing_token)),
            r#"{"threw":"missing --token (or LINZUMI_RUNNER_TOKEN)"}"#
        );
    }
}
