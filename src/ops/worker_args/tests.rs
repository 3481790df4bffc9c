//! The worker argv parser against the contract (4.26), with fake
//! directories.

use super::*;
use js_exact::testing::{json, value};

/// Directories that "exist" for these tests: `/ws` and `/a`.
fn fake_directory(path: JsStr<'_>) -> bool {
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
        parse_args(
            r#"["thread-codex-worker","--kandan-url=","--token=","--runner-id=","--thread-id="]"#
        )
        .unwrap_err(),
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
    let parsed = parse_with(
        r#"["thread-codex-worker","--thread-id","t","--cwd","/ws","--token=","--workspace","ow"]"#,
        env,
    )
    .unwrap();
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
