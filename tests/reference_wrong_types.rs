//! Every op with every field it reads set to every kind of wrong value,
//! against the reference oracle: the same bytes, field by field. Needs
//! `REFERENCE_ORACLE`.

use crate::support;

/// The fields each op reads (contract section 4), with a valid case to
/// start from so that each wrong value is the only thing wrong.
const OPS: &[(&str, &[&str], &str)] = &[
    (
        "cliArgs",
        &["options"],
        r#"{"options":{"kandanUrl":"u","token":"t","runnerId":"r","kandanThreadId":"i","cwd":"/c","codexBin":"b"}}"#,
    ),
    ("redactedCliArgs", &["args"], r#"{"args":["--token","x"]}"#),
    (
        "envOverlay",
        &["options", "devServicesParentPid", "forwardableOpenAiApiKey"],
        r#"{"options":{"kandanUrl":"u","token":"t","runnerId":"r","kandanThreadId":"i","cwd":"/c","codexBin":"b"},"devServicesParentPid":5,"forwardableOpenAiApiKey":"k"}"#,
    ),
    (
        "nodeArgs",
        &["scriptPath", "args", "execArgv"],
        r#"{"scriptPath":"s.js","args":["a"],"execArgv":["--no-warnings"]}"#,
    ),
    (
        "scriptPath",
        &["scriptPath", "cwd"],
        r#"{"scriptPath":"w.js","cwd":"/a"}"#,
    ),
    (
        "readyMessage",
        &["message", "expectedKandanThreadId"],
        r#"{"message":{"type":"thread-codex-worker-ready","kandanThreadId":"t","pid":5,"protocolVersion":1},"expectedKandanThreadId":"t"}"#,
    ),
    (
        "sessionClosedGuard",
        &["message"],
        r#"{"message":{"type":"codex-session-closed","reason":"r"}}"#,
    ),
    ("readyTimeoutMs", &["configured"], r#"{"configured":5000}"#),
    (
        "readyTimeoutError",
        &["kandanThreadId", "timeoutMs"],
        r#"{"kandanThreadId":"t","timeoutMs":5}"#,
    ),
    ("boundedOutput", &["value"], r#"{"value":"v"}"#),
    (
        "exitBeforeReadyMessage",
        &["code", "signal", "capturedOutput"],
        r#"{"code":1,"signal":"SIGTERM","capturedOutput":"out"}"#,
    ),
    (
        "preflight",
        &["mkdirs", "cwd", "allowedCwds"],
        r#"{"mkdirs":["a"],"cwd":"$DIR/a","allowedCwds":["$DIR"]}"#,
    ),
    (
        "preflightLine",
        &["capturedOutput"],
        r#"{"capturedOutput":"LINZUMI_WORKER_PREFLIGHT_FAILURE: x"}"#,
    ),
    (
        "stillborn",
        &["message"],
        r#"{"message":"Thread worker exited before ready"}"#,
    ),
    (
        "respawn",
        &["maxAttempts", "script"],
        r#"{"maxAttempts":2,"script":[{"kind":"exited","code":1,"capturedOutput":"x"}]}"#,
    ),
    (
        "outputRouting",
        &["pid", "streamName", "script"],
        r#"{"pid":5,"streamName":"stdout","script":[{"step":"chunk","text":"hi","tuiActive":true,"captureActive":true}]}"#,
    ),
    (
        "liveness",
        &["config", "schedule"],
        r#"{"config":{"pingIntervalMs":10,"pongTimeoutMs":5,"maxMissedPongs":1,"probeTimeoutMs":5},"schedule":[{"op":"create","now":0},{"op":"verdict","now":1}]}"#,
    ),
    (
        "ipcWorker",
        &["codex", "script", "sendThrowMessage"],
        r#"{"codex":{"responses":{"m":{"response":1}}},"script":[{"step":"parentMessage","message":{"type":"codex-request","id":1,"method":"m"}}],"sendThrowMessage":"x"}"#,
    ),
    (
        "ipcParent",
        &["requestHandlers", "script", "sendThrowMessage"],
        r#"{"requestHandlers":[{"name":"h","kind":"answer","result":1}],"script":[{"step":"request","method":"m"}],"sendThrowMessage":"x"}"#,
    ),
    (
        "remoteConfig",
        &["json"],
        r#"{"json":"{\"kandanUrl\":\"https://k\",\"token\":\"t\",\"runnerId\":\"r\",\"cwd\":\"/w\"}"}"#,
    ),
    (
        "remoteConfigEnv",
        &["env"],
        r#"{"env":{"LINZUMI_KANDAN_URL":"https://k","LINZUMI_RUNNER_TOKEN":"t","LINZUMI_RUNNER_ID":"r","LINZUMI_CWD":"/w"}}"#,
    ),
    (
        "remoteEntrypoint",
        &["entrypoint"],
        r#"{"entrypoint":"cli.js"}"#,
    ),
    (
        "remoteJoinPayload",
        &["config"],
        r#"{"config":{"runnerId":"r","cwd":"/w"}}"#,
    ),
    (
        "parseWorkerArgs",
        &["mkdirs", "args", "env"],
        r#"{"mkdirs":["w"],"args":["thread-codex-worker","--kandan-url","u","--token","t","--runner-id","r","--thread-id","i","--cwd","$DIR/w"],"env":{}}"#,
    ),
];

/// Values of every JSON kind, and the edges of each.
const WRONG_VALUES: &[&str] = &[
    "null",
    "true",
    "false",
    "0",
    "-0",
    "1",
    "-1",
    "1.5",
    "1e400",
    "\"\"",
    "\" \"",
    "\"x\"",
    "\"/\"",
    "[]",
    "[1]",
    "[\"x\"]",
    "[null]",
    "[{}]",
    "{}",
    "{\"a\":1}",
];

fn case_texts() -> Vec<String> {
    let mut cases = Vec::new();
    for (op, fields, valid) in OPS {
        let valid: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(valid).unwrap();
        let mut base = valid.clone();
        base.insert("op".into(), serde_json::Value::from(*op));
        cases.push(serde_json::to_string(&base).unwrap());
        for field in *fields {
            let mut without = base.clone();
            without.remove(*field);
            cases.push(serde_json::to_string(&without).unwrap());
            for wrong in WRONG_VALUES {
                let mut case = base.clone();
                case.insert((*field).into(), serde_json::Value::Null);
                // Splice the raw value in, so that -0 and 1e400 arrive as written.
                let text = serde_json::to_string(&case).unwrap();
                let placeholder = format!("\"{field}\":null");
                cases.push(text.replacen(&placeholder, &format!("\"{field}\":{wrong}"), 1));
            }
        }
    }
    cases
}

#[test]
#[ignore = "needs REFERENCE_ORACLE"]
fn every_field_of_every_op_with_every_wrong_type_matches_the_reference() {
    let reference = support::require_reference();
    let cases = case_texts();
    let input = format!("[{}]", cases.join(",\n")).into_bytes();
    let expected = support::run_reference(&reference, &input);
    let ours = support::run_oracle(&input);
    assert_eq!(ours.status.code(), Some(0));
    assert_eq!(expected.status.code(), Some(0));
    let ours = support::elements(&ours.stdout);
    let expected = support::elements(&expected.stdout);
    assert_eq!(ours.len(), expected.len());
    let failures: Vec<String> = cases
        .iter()
        .zip(ours.iter().zip(&expected))
        .filter(|(_, (a, b))| a != b)
        .map(|(case, (a, b))| {
            format!(
                "{case}\n  ours:      {}\n  reference: {}",
                String::from_utf8_lossy(a),
                String::from_utf8_lossy(b)
            )
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn every_op_has_one_row_and_no_row_names_another() {
    let names: Vec<&str> = OPS.iter().map(|(op, _, _)| *op).collect();
    for spec in worker_spawn_oracle::ops::OPS {
        let count = names.iter().filter(|name| **name == spec.name).count();
        assert_eq!(count, 1, "{} has {count} rows", spec.name);
    }
    for name in names {
        assert!(
            worker_spawn_oracle::ops::named(name).is_some(),
            "the row {name} is no op"
        );
    }
}
