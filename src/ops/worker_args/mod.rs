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
use crate::scratch::in_scratch;
use js_exact::{js_object, throw};
use js_exact::{parse_js_string, JsResult, JsStr, JsString, Object, Value};

use scan::{scan_options, Arg};
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
fn port_number(text: JsStr<'_>) -> Option<f64> {
    js_exact::number::from_ascii_digits(text).filter(|port| (1.0..=65535.0).contains(port))
}

/// `parseThreadCodexWorkerArgs(args, env)`. `is_directory` answers whether
/// a path names an existing directory. Values are looked at where they
/// stand in `args` and `env`; only those in the result are copied (and an
/// element given whole is shared, not copied).
pub fn parse_worker_args(
    args: &Value,
    env: &Object,
    is_directory: &dyn Fn(JsStr<'_>) -> bool,
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
            .map(Arg::Element)
    };
    // An option given with an empty value still counts as given.
    let option_or = |field: &str, name: &str| given.value(field).or_else(|| variable(name));
    let option = |field: &str| given.value(field);
    let owned = |arg: Option<Arg<'_>>| arg.map(Arg::to_js_string);

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
    if !cwd.text().starts_with("/") {
        throw!("--cwd must be an absolute path: ", cwd.text());
    }
    if !is_directory(cwd.text()) {
        throw!("worker cwd does not exist: ", cwd.text());
    }
    let allowed_cwd_values = given.list("allowedCwds");
    if let Some(relative) = allowed_cwd_values
        .iter()
        .find(|v| !v.text().starts_with("/"))
    {
        throw!("--allowed-cwd must be an absolute path: ", relative.text());
    }
    let mut allowed_forward_ports = Vec::new();
    let mut seen_ports = HashSet::new();
    for value in given.list("allowedForwardPorts") {
        let Some(port) = port_number(value.text()) else {
            throw!(
                "--allow-forward-port must be a port number (1-65535): ",
                value.text()
            );
        };
        // Ports are integers from 1 to 65535, so their bits identify them.
        if seen_ports.insert(port.to_bits()) {
            allowed_forward_ports.push(port);
        }
    }
    let execution_mode = option("executionMode");
    if let Some(mode) =
        execution_mode.filter(|m| !EXECUTION_MODES.iter().any(|a| m.text().eq_str(a)))
    {
        throw!(
            "--execution-mode must be one of local, vm, remote: ",
            mode.text()
        );
    }
    let egress_mode = option("egressMode");
    if let Some(mode) = egress_mode.filter(|m| !EGRESS_MODES.iter().any(|a| m.text().eq_str(a))) {
        throw!(
            "--egress-mode must be one of open, restricted, offline: ",
            mode.text()
        );
    }
    let runtime_defaults = match option("runtimeDefaults") {
        None => None,
        Some(text) => match parse_js_string(text.text()).map(Value::into_object) {
            Ok(Some(object)) => Some(object),
            _ => throw!("--runtime-defaults must be a JSON object"),
        },
    };
    let cwd = cwd.to_js_string();
    let mut allowed_cwds = Vec::new();
    let mut missing_allowed_cwds = Vec::new();
    let allowed_cwd_strings: Vec<JsString> = allowed_cwd_values
        .iter()
        .map(|v| v.to_js_string())
        .collect();
    for path in JsString::without_duplicates(&allowed_cwd_strings) {
        if is_directory(path.as_js_str()) {
            allowed_cwds.push(path);
        } else {
            missing_allowed_cwds.push(path);
        }
    }
    if allowed_cwd_values.is_empty() {
        allowed_cwds = vec![cwd.clone()];
    }
    Ok(WorkerArgs {
        kandan_url: kandan_url.to_js_string(),
        token: token.to_js_string(),
        runner_id: runner_id.to_js_string(),
        workspace_slug: owned(option_or("workspaceSlug", "LINZUMI_WORKSPACE")),
        codex_bin: owned(option_or("codexBin", "LINZUMI_CODEX_BIN"))
            .unwrap_or_else(|| "codex".into()),
        cwd,
        vm_execution: given.flags.contains("vmExecution"),
        execution_mode: owned(execution_mode),
        egress_mode: owned(egress_mode),
        project_public_id: owned(option("projectPublicId")),
        golden_image_public_id: owned(option("goldenImagePublicId")),
        fast: given.flags.contains("fast"),
        log_file: owned(option("logFile")),
        allowed_cwds,
        missing_allowed_cwds,
        allowed_forward_ports,
        runtime_defaults,
        codex_model_provider: owned(option_or(
            "codexModelProvider",
            "LINZUMI_CODEX_MODEL_PROVIDER",
        )),
        linzumi_agent_mcp_token: owned(option_or(
            "linzumiAgentMcpToken",
            "LINZUMI_AGENT_MCP_TOKEN",
        )),
        kandan_thread_id: kandan_thread_id.to_js_string(),
        debug_trace: owned(option_or("debugTrace", "LINZUMI_DEBUG_TRACE")),
    })
}

/// Whether a path names an existing directory on the real file system
/// (`statSync(path).isDirectory()`, false when stat fails).
pub fn is_existing_directory(path: JsStr<'_>) -> bool {
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
mod tests;
