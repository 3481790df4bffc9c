//! JSON text that an op parses, nested far deeper than any batch may be:
//! the reference reads it at any depth (contract 2.2), and so does ours,
//! through the real binary, without a stack overflow anywhere (parsing,
//! the op's use of the value, dropping it). The expected bytes are the
//! reference's; one test checks them against the reference itself.

use crate::support;

/// The config fields that make a valid remote harness config.
const BASE: &str = r#""kandanUrl":"https://k.test/","token":"t","runnerId":"r","cwd":"/w""#;

/// What `remoteConfig` answers for [`BASE`] alone.
const CONFIG: &str = r#"{"defined":true,"value":{"kandanUrl":"https://k.test","token":"t","runnerId":"r","workspaceSlug":null,"cwd":"/w","codexBin":"codex","allowedCwds":["/w"],"heartbeatIntervalMs":15000,"labels":{}}}"#;

/// `levels` arrays, one inside the other, around `inner`.
fn arrays(levels: usize, inner: &str) -> String {
    format!("{}{inner}{}", "[".repeat(levels), "]".repeat(levels))
}

/// `levels` objects `{"a":…}`, one inside the other, around `inner`.
fn objects(levels: usize, inner: &str) -> String {
    format!("{}{inner}{}", "{\"a\":".repeat(levels), "}".repeat(levels))
}

/// A case whose `field` holds `text` as a JSON string.
fn case(op: &str, field: &str, text: &str) -> String {
    let text = serde_json::to_string(text).unwrap();
    format!(r#"{{"op":"{op}","{field}":{text}}}"#)
}

/// Each case with the result the reference gives it. Depths count the
/// whole text, its outermost container included.
fn cases() -> Vec<(&'static str, String, String)> {
    let runtime_defaults = format!("{{\"d\":{}}}", arrays(150_000, ""));
    let worker_args = serde_json::json!({
        "op": "parseWorkerArgs",
        "mkdirs": ["w"],
        "args": ["thread-codex-worker", "--kandan-url", "u", "--token", "t",
                 "--runner-id", "r", "--thread-id", "i", "--cwd", "$DIR/w",
                 "--runtime-defaults", runtime_defaults],
    });
    let env = serde_json::json!({
        "op": "remoteConfigEnv",
        "env": {"LINZUMI_REMOTE_HARNESS_CONFIG":
            format!("{{{BASE},\"x\":{}}}", objects(150_000, "1"))},
    });
    vec![
        (
            "an ignored member: 150 001 levels of arrays",
            case("remoteConfig", "json", &format!("{{{BASE},\"x\":{}}}", arrays(150_000, ""))),
            CONFIG.into(),
        ),
        (
            "an ignored member: 1 000 000 levels of arrays",
            case("remoteConfig", "json", &format!("{{{BASE},\"x\":{}}}", arrays(999_999, "0"))),
            CONFIG.into(),
        ),
        (
            "an ignored member: 1 000 000 levels of objects",
            case("remoteConfig", "json", &format!("{{{BASE},\"x\":{}}}", objects(999_999, "null"))),
            CONFIG.into(),
        ),
        (
            "labels 150 001 levels deep are not strings",
            case("remoteConfig", "json", &format!("{{{BASE},\"labels\":{}}}", objects(150_000, "\"v\""))),
            r#"{"threw":true,"message":"remote harness config labels must be an object of strings"}"#.into(),
        ),
        (
            "a top-level array 1 000 000 levels deep",
            case("remoteConfig", "json", &arrays(1_000_000, "")),
            r#"{"threw":true,"message":"remote harness config must be a JSON object"}"#.into(),
        ),
        (
            "1 000 000 levels, then a syntax error",
            case("remoteConfig", "json", &format!("{{{BASE},\"x\":{}", arrays(999_999, "1,]"))),
            r#"{"threw":true,"message":"remote harness config is not valid JSON"}"#.into(),
        ),
        (
            "1 000 000 levels that never close",
            case("remoteConfig", "json", &"[".repeat(1_000_000)),
            r#"{"threw":true,"message":"remote harness config is not valid JSON"}"#.into(),
        ),
        (
            "the config variable: 150 001 levels of objects",
            env.to_string(),
            CONFIG.into(),
        ),
        (
            "runtime defaults 150 001 levels deep overflow the reference's stack",
            worker_args.to_string(),
            r#"{"threw":"Maximum call stack size exceeded"}"#.into(),
        ),
    ]
}

fn batch(cases: &[(&str, String, String)]) -> Vec<u8> {
    let texts: Vec<&str> = cases.iter().map(|(_, case, _)| case.as_str()).collect();
    format!("[{}]", texts.join(",")).into_bytes()
}

/// The names of the cases whose result in `output` is not the expected one.
fn differences(cases: &[(&str, String, String)], output: &[u8]) -> Vec<String> {
    let results = support::elements(output);
    assert_eq!(results.len(), cases.len());
    cases
        .iter()
        .zip(results)
        .filter(|((_, _, expected), result)| result != expected.as_bytes())
        .map(|((name, _, expected), result)| {
            format!(
                "{name}:\n  got:      {}\n  expected: {expected}",
                String::from_utf8_lossy(&result)
            )
        })
        .collect()
}

#[test]
fn json_an_op_parses_is_read_at_any_depth() {
    let cases = cases();
    let output = support::run_oracle(&batch(&cases));
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let wrong = differences(&cases, &output.stdout);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
#[ignore = "needs REFERENCE_ORACLE"]
fn the_reference_gives_the_same_results_at_any_depth() {
    let reference = support::require_reference();
    let cases = cases();
    let output = support::run_reference(&reference, &batch(&cases));
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let wrong = differences(&cases, &output.stdout);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
