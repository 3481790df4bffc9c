//! The worker's command line: rendering its argv (4.2), redacting it for
//! logs (4.3), the node command line around it (4.5) and where its script
//! is (4.6).

use super::options::validate_options;
use super::outcome;
use super::worker_args::scan::VALUE_OPTIONS;
use js_exact::throw;
use js_exact::{stringify, JsResult, JsStr, JsString, Value};

/// The first element of every worker argv.
pub const WORKER_COMMAND: &str = "thread-codex-worker";

/// `threadRunnerCliArgs`: the worker argv for valid options.
pub fn cli_args(options: &Value) -> JsResult<Vec<JsString>> {
    validate_options(options)?;
    let text = |field: &str| options.get(field).as_js_string().cloned();
    let mut args: Vec<JsString> = vec![WORKER_COMMAND.into()];
    // The worker's parser reads with the same flag table; its first six
    // entries are the required options, in the order they are rendered.
    for (flag, field) in &VALUE_OPTIONS[..6] {
        args.push((*flag).into());
        args.extend(text(field));
    }
    let flag_with = |flag: &str, field: &str, args: &mut Vec<JsString>| {
        if let Some(value) = text(field) {
            args.push(flag.into());
            args.push(value);
        }
    };
    flag_with("--workspace", "workspaceSlug", &mut args);
    for cwd in options.get("allowedCwds").as_array().unwrap_or_default() {
        args.push("--allowed-cwd".into());
        args.push(cwd.to_js_string());
    }
    for port in options
        .get("allowedForwardPorts")
        .as_array()
        .unwrap_or_default()
    {
        args.push("--allow-forward-port".into());
        args.push(port.to_js_string());
    }
    if options.get("vmExecution").as_bool() == Some(true) {
        args.push("--vm-execution".into());
    }
    flag_with("--execution-mode", "executionMode", &mut args);
    flag_with("--egress-mode", "egressMode", &mut args);
    flag_with("--project", "projectPublicId", &mut args);
    flag_with("--golden-image", "goldenImagePublicId", &mut args);
    if options.get("fast").as_bool() == Some(true) {
        args.push("--fast".into());
    }
    flag_with("--log-file", "logFile", &mut args);
    let runtime_defaults = options.get("runtimeDefaults");
    if runtime_defaults.is_set() {
        args.push("--runtime-defaults".into());
        args.push(stringify(runtime_defaults));
    }
    flag_with("--codex-model-provider", "codexModelProvider", &mut args);
    flag_with(
        "--linzumi-agent-mcp-token",
        "linzumiAgentMcpToken",
        &mut args,
    );
    flag_with("--debug-trace", "debugTrace", &mut args);
    Ok(args)
}

/// The flags whose values are secrets.
pub const SECRET_FLAGS: [&str; 2] = ["--token", "--linzumi-agent-mcp-token"];

/// What a secret becomes in a logged argv.
pub const REDACTED: &str = "<redacted>";

/// `redactedThreadRunnerCliArgs`: the argv with every secret replaced.
pub fn redacted_cli_args(args: &Value) -> JsResult<Vec<JsString>> {
    let Some(args) = string_array(args) else {
        throw!("worker args must be an array of strings");
    };
    let mut redacted = Vec::with_capacity(args.len());
    let mut index = 0;
    while index < args.len() {
        let arg = args[index];
        let is_secret_flag = SECRET_FLAGS.iter().any(|flag| arg.eq_str(flag));
        let inline_flag = SECRET_FLAGS
            .iter()
            .find(|flag| arg.starts_with(flag) && arg.as_wtf8().get(flag.len()) == Some(&b'='));
        if is_secret_flag && index + 1 < args.len() {
            redacted.push(arg.clone());
            redacted.push(REDACTED.into());
            index += 1;
        } else if let Some(flag) = inline_flag {
            redacted.push(js_exact::js_concat!(*flag, "=", REDACTED));
        } else {
            redacted.push(arg.clone());
        }
        index += 1;
    }
    Ok(redacted)
}

/// The strings of an array of strings; `None` for anything else.
pub fn string_array(value: &Value) -> Option<Vec<&JsString>> {
    value
        .as_array()?
        .iter()
        .map(Value::as_js_string)
        .collect::<Option<Vec<_>>>()
}

/// Node flags kept together with the element after them.
pub const KEPT_WITH_VALUE: [&str; 7] = [
    "--import",
    "--loader",
    "--experimental-loader",
    "--require",
    "-r",
    "--conditions",
    "-C",
];
/// Node flags kept on their own.
pub const KEPT_ALONE: [&str; 6] = [
    "--enable-source-maps",
    "--experimental-strip-types",
    "--experimental-transform-types",
    "--no-warnings",
    "--no-deprecation",
    "--preserve-symlinks",
];
/// Node flags kept in their `--flag=value` form.
pub const KEPT_INLINE: [&str; 6] = [
    "--import",
    "--loader",
    "--experimental-loader",
    "--require",
    "--conditions",
    "--max-old-space-size",
];
/// Node flags dropped together with the element after them.
pub const DROPPED_WITH_VALUE: [&str; 9] = [
    "--inspect-port",
    "--debug-port",
    "-e",
    "--eval",
    "-p",
    "--print",
    "--input-type",
    "--title",
    "--watch-path",
];

fn is_any(arg: &JsString, names: &[&str]) -> bool {
    names.iter().any(|name| arg.eq_str(name))
}

/// The part of execArgv that a worker inherits.
fn kept_exec_argv(exec_argv: &[&JsString]) -> Vec<JsString> {
    let mut kept = Vec::new();
    let mut index = 0;
    while index < exec_argv.len() {
        let arg = exec_argv[index];
        let inline_name = arg
            .as_wtf8()
            .iter()
            .position(|&b| b == b'=')
            .map(|equals| &arg.as_wtf8()[..equals]);
        if is_any(arg, &KEPT_WITH_VALUE) {
            if let Some(value) = exec_argv.get(index + 1) {
                kept.push(arg.clone());
                kept.push((*value).clone());
            }
            index += 1;
        } else if is_any(arg, &KEPT_ALONE)
            || inline_name.is_some_and(|name| KEPT_INLINE.iter().any(|k| k.as_bytes() == name))
        {
            kept.push(arg.clone());
        } else if is_any(arg, &DROPPED_WITH_VALUE) {
            index += 1;
        }
        index += 1;
    }
    kept
}

/// `threadRunnerNodeArgs`: the node argv that runs the worker script.
pub fn node_args(script_path: &Value, args: &Value, exec_argv: &Value) -> JsResult<Vec<JsString>> {
    let Some(script_path) = script_path.as_non_empty_string() else {
        throw!("worker script path must be a non-empty string");
    };
    let Some(args) = string_array(args) else {
        throw!("worker args must be an array of strings");
    };
    let exec_argv = if exec_argv.is_set() {
        let Some(exec_argv) = string_array(exec_argv) else {
            throw!("execArgv must be an array of strings");
        };
        exec_argv
    } else {
        Vec::new()
    };
    let mut node_args = kept_exec_argv(&exec_argv);
    node_args.push(script_path.clone());
    node_args.extend(args.into_iter().cloned());
    Ok(node_args)
}

/// The worker script when none is given.
pub const DEFAULT_SCRIPT_PATH: &str = "dist/index.js";

/// POSIX `path.resolve(cwd, path)` for an absolute `cwd`. The segments
/// are pieces of the two strings, so the result is the only copy made.
pub fn resolve_posix_path(cwd: &JsString, path: &JsString) -> JsString {
    let path = path.as_js_str();
    // `cwd + "/" + path` splits into the segments of each.
    let cwd = (!path.starts_with("/")).then(|| cwd.as_js_str());
    let mut segments: Vec<JsStr<'_>> = Vec::new();
    for segment in cwd
        .into_iter()
        .chain([path])
        .flat_map(|part| part.split("/"))
    {
        if segment.is_empty() || segment.eq_str(".") {
            continue;
        }
        if segment.eq_str("..") {
            segments.pop();
        } else {
            segments.push(segment);
        }
    }
    if segments.is_empty() {
        return JsString::from("/");
    }
    let length = segments.iter().map(|s| 1 + s.as_wtf8().len()).sum();
    let mut resolved = JsString::with_capacity(length);
    for segment in segments {
        resolved.push_str("/");
        resolved.push_js_str(segment);
    }
    resolved
}

/// `threadRunnerScriptPath`: the absolute path of the worker script.
pub fn script_path(script_path: &Value, cwd: &Value) -> JsResult<JsString> {
    let Some(cwd) = cwd.as_js_string().filter(|cwd| cwd.starts_with("/")) else {
        throw!("worker cwd must be an absolute path");
    };
    let path = if script_path.is_set() {
        let Some(path) = script_path.as_non_empty_string() else {
            throw!("worker script path must be a non-empty string");
        };
        path.clone()
    } else {
        JsString::from(DEFAULT_SCRIPT_PATH)
    };
    Ok(resolve_posix_path(cwd, &path))
}

fn strings(result: JsResult<Vec<JsString>>) -> JsResult<Value> {
    result.map(|items| Value::Array(items.into_iter().map(Value::String).collect()))
}

/// The `cliArgs` op.
pub fn cli_args_op(case: &Value) -> Value {
    outcome(strings(cli_args(case.get("options"))))
}

/// The `redactedCliArgs` op.
pub fn redacted_cli_args_op(case: &Value) -> Value {
    outcome(strings(redacted_cli_args(case.get("args"))))
}

/// The `nodeArgs` op.
pub fn node_args_op(case: &Value) -> Value {
    outcome(strings(node_args(
        case.get("scriptPath"),
        case.get("args"),
        case.get("execArgv"),
    )))
}

/// The `scriptPath` op.
pub fn script_path_op(case: &Value) -> Value {
    outcome(script_path(case.get("scriptPath"), case.get("cwd")).map(Value::String))
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::value;

    fn texts(items: Vec<JsString>) -> Vec<String> {
        items.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn cli_args_render_every_option_in_order() {
        let options = value(
            r#"{"kandanUrl":"u","token":"t","runnerId":"r","kandanThreadId":"th","cwd":"/c","codexBin":"b",
            "workspaceSlug":"w","allowedCwds":["/a","/b"],"allowedForwardPorts":[80,1e3],"vmExecution":true,
            "executionMode":"vm","egressMode":"offline","projectPublicId":"p","goldenImagePublicId":"g","fast":true,
            "logFile":"/l","runtimeDefaults":{"b":1,"1":[-0,1e21]},"codexModelProvider":"m",
            "linzumiAgentMcpToken":"x","debugTrace":"d"}"#,
        );
        let expected = "thread-codex-worker --kandan-url u --token t --runner-id r --thread-id th --cwd /c --codex-bin b \
            --workspace w --allowed-cwd /a --allowed-cwd /b --allow-forward-port 80 --allow-forward-port 1000 \
            --vm-execution --execution-mode vm --egress-mode offline --project p --golden-image g --fast \
            --log-file /l --runtime-defaults {\"1\":[0,1e+21],\"b\":1} --codex-model-provider m \
            --linzumi-agent-mcp-token x --debug-trace d";
        assert_eq!(texts(cli_args(&options).unwrap()).join(" "), expected);
    }

    #[test]
    fn false_flags_and_null_options_are_left_out() {
        let options = value(
            r#"{"kandanUrl":"u","token":"t","runnerId":"r","kandanThreadId":"th","cwd":"/c","codexBin":"b",
            "vmExecution":false,"fast":null,"allowedCwds":null,"runtimeDefaults":null}"#,
        );
        assert_eq!(cli_args(&options).unwrap().len(), 13);
    }

    #[test]
    fn redaction_walks_left_to_right() {
        let args = value(
            r#"["--token","--token","--token=a","--linzumi-agent-mcp-token=","--tokens=x","--token"]"#,
        );
        assert_eq!(
            texts(redacted_cli_args(&args).unwrap()),
            [
                "--token",
                "<redacted>",
                "--token=<redacted>",
                "--linzumi-agent-mcp-token=<redacted>",
                "--tokens=x",
                "--token"
            ]
        );
        assert_eq!(
            redacted_cli_args(&value(r#"["a",1]"#))
                .unwrap_err()
                .message
                .to_string(),
            "worker args must be an array of strings"
        );
    }

    #[test]
    fn exec_argv_keeps_only_what_a_worker_needs() {
        let exec_argv = value(
            r#"["--import","tsx","--inspect","--loader=x","-r=y","--max-old-space-size=4096","--eval","code",
            "--no-warnings","--inspect-port=9229","-C","dev","--title","t","--watch","--require"]"#,
        );
        let args = node_args(&value("\"/s.js\""), &value(r#"["a"]"#), &exec_argv).unwrap();
        assert_eq!(
            texts(args),
            [
                "--import",
                "tsx",
                "--loader=x",
                "--max-old-space-size=4096",
                "--no-warnings",
                "-C",
                "dev",
                "/s.js",
                "a"
            ]
        );
    }

    #[test]
    fn node_args_validation_order() {
        let message = |s: &str, a: &str, e: &str| {
            node_args(&value(s), &value(a), &value(e))
                .unwrap_err()
                .message
                .to_string()
        };
        assert_eq!(
            message("\"\"", "1", "1"),
            "worker script path must be a non-empty string"
        );
        assert_eq!(
            message("\"s\"", "null", "1"),
            "worker args must be an array of strings"
        );
        assert_eq!(
            message("\"s\"", "[]", "[1]"),
            "execArgv must be an array of strings"
        );
        assert!(node_args(&value("\"s\""), &value("[]"), &value("null")).is_ok());
    }

    #[test]
    fn script_path_resolves_like_posix_path_resolve() {
        let resolve =
            |path: &str, cwd: &str| script_path(&value(path), &value(cwd)).map(|p| p.to_string());
        assert_eq!(resolve("null", "\"/w\"").unwrap(), "/w/dist/index.js");
        assert_eq!(resolve("\"../../../x/./y//\"", "\"/a/b\"").unwrap(), "/x/y");
        assert_eq!(resolve("\"/abs/../p\"", "\"/w\"").unwrap(), "/p");
        assert_eq!(resolve("\"..\"", "\"/\"").unwrap(), "/");
        assert_eq!(resolve("\".\"", "\"//\"").unwrap(), "/");
        assert_eq!(
            resolve("\"x\"", "\"w\"").unwrap_err().message.to_string(),
            "worker cwd must be an absolute path"
        );
        assert_eq!(
            resolve("\"\"", "\"/w\"").unwrap_err().message.to_string(),
            "worker script path must be a non-empty string"
        );
    }
}
