//! The remote harness's configuration (contract 4.22, 4.23): from one JSON
//! text, or from environment variables, both ending in the same checks
//! ([`config_from_object`]).

use js_exact::{js_object, throw};
use js_exact::{number, parse_js_string, JsResult, JsString, Object, Value};

/// The heartbeat interval when the config gives none, in milliseconds.
pub const DEFAULT_HEARTBEAT_INTERVAL_MS: f64 = 15_000.0;

/// The bounds of a configured heartbeat interval, inclusive.
pub const HEARTBEAT_INTERVAL_BOUNDS_MS: (f64, f64) = (1_000.0, 300_000.0);

/// The variable that carries the whole config as JSON text.
pub const CONFIG_VARIABLE: &str = "LINZUMI_REMOTE_HARNESS_CONFIG";

/// The variables that must be set when [`CONFIG_VARIABLE`] is not, in the
/// order checked.
pub const REQUIRED_VARIABLES: [&str; 4] = [
    "LINZUMI_KANDAN_URL",
    "LINZUMI_RUNNER_TOKEN",
    "LINZUMI_RUNNER_ID",
    "LINZUMI_CWD",
];

/// A kandan URL made canonical: `http://` or `https://`, then something
/// other than slashes; trailing slashes removed. `None` when it is not one.
pub fn normalized_http_url(url: &Value) -> Option<JsString> {
    let whole = url.as_js_string()?;
    let url = whole.as_js_str();
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))?;
    // A `/` byte in WTF-8 is always the character `/`.
    if rest.as_wtf8().iter().all(|&byte| byte == b'/') {
        return None;
    }
    let mut trimmed = url;
    while let Some(shorter) = trimmed.strip_suffix("/") {
        trimmed = shorter;
    }
    Some(whole.to_piece(trimmed))
}

/// `remote harness config <field> must be <requirement>`.
fn config_error<T>(field: &str, requirement: &str) -> JsResult<T> {
    throw!("remote harness config ", field, " must be ", requirement)
}

fn is_heartbeat_interval(value: &Value) -> bool {
    let (low, high) = HEARTBEAT_INTERVAL_BOUNDS_MS;
    value.is_integer() && value.as_number().is_some_and(|n| n >= low && n <= high)
}

fn is_object_of_strings(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|labels| labels.values().all(Value::is_string))
}

/// `configFromObject`: checks each field in the contract's order and
/// returns the config with its defaults, keys in the contract's order.
pub fn config_from_object(value: &Value) -> JsResult<Value> {
    if !value.is_object() {
        throw!("remote harness config must be a JSON object");
    }
    let Some(kandan_url) = normalized_http_url(value.get("kandanUrl")) else {
        return config_error("kandanUrl", "an http(s) URL");
    };
    let field = |name: &str| value.get(name);
    let (token, runner_id, workspace_slug, cwd, codex_bin) = (
        field("token"),
        field("runnerId"),
        field("workspaceSlug"),
        field("cwd"),
        field("codexBin"),
    );
    let (allowed_cwds, heartbeat_interval_ms, labels) = (
        field("allowedCwds"),
        field("heartbeatIntervalMs"),
        field("labels"),
    );
    if !token.is_non_empty_string() {
        return config_error("token", "a non-empty string");
    }
    if !runner_id.is_non_empty_string() {
        return config_error("runnerId", "a non-empty string");
    }
    if workspace_slug.is_set() && !workspace_slug.is_non_empty_string() {
        return config_error("workspaceSlug", "a non-empty string");
    }
    if !cwd.is_absolute_path() {
        return config_error("cwd", "an absolute path");
    }
    if codex_bin.is_set() && !codex_bin.is_non_empty_string() {
        return config_error("codexBin", "a non-empty string");
    }
    let allowed_list = allowed_cwds.as_array().unwrap_or_default();
    if allowed_cwds.is_set()
        && !(allowed_cwds.as_array().is_some() && allowed_list.iter().all(Value::is_absolute_path))
    {
        return config_error("allowedCwds", "an array of absolute paths");
    }
    if heartbeat_interval_ms.is_set() && !is_heartbeat_interval(heartbeat_interval_ms) {
        return config_error("heartbeatIntervalMs", "an integer between 1000 and 300000");
    }
    if labels.is_set() && !is_object_of_strings(labels) {
        return config_error("labels", "an object of strings");
    }
    let allowed_cwds = if allowed_cwds.is_unset() {
        vec![cwd.clone()]
    } else {
        JsString::without_duplicates(allowed_list.iter().filter_map(Value::as_js_string))
            .into_iter()
            .map(Value::String)
            .collect()
    };
    Ok(js_object! {
        "kandanUrl" => kandan_url,
        "token" => token,
        "runnerId" => runner_id,
        "workspaceSlug" => workspace_slug.or(&Value::Null),
        "cwd" => cwd,
        "codexBin" => codex_bin.or(&Value::from("codex")),
        "allowedCwds" => allowed_cwds,
        "heartbeatIntervalMs" => heartbeat_interval_ms.or(&Value::Number(DEFAULT_HEARTBEAT_INTERVAL_MS)),
        "labels" => labels.or(&Value::Object(Object::new())),
    })
}

/// `remoteCodexHarnessWorkerConfigFromJson(json)`.
pub fn config_from_json(json: &Value) -> JsResult<Value> {
    let Some(text) = json.as_js_string() else {
        throw!("remote harness config must be a JSON string");
    };
    let Ok(value) = parse_js_string(text) else {
        throw!("remote harness config is not valid JSON");
    };
    config_from_object(&value)
}

/// `remoteCodexHarnessWorkerConfigFromEnv(env)`: the whole config from
/// [`CONFIG_VARIABLE`] when set, else from one variable per field. Only
/// non-empty strings count as set.
pub fn config_from_env(env: &Value) -> JsResult<Value> {
    let Some(env) = env.as_object() else {
        throw!("remote harness env must be an object");
    };
    let variable = |name: &str| -> Option<&JsString> {
        env.get(name)
            .and_then(Value::as_js_string)
            .filter(|text| !text.is_empty())
    };
    if let Some(text) = variable(CONFIG_VARIABLE) {
        return config_from_json(&Value::from(text));
    }
    for name in REQUIRED_VARIABLES {
        if variable(name).is_none() {
            throw!("remote harness env ", name, " is required");
        }
    }
    let heartbeat = variable("LINZUMI_HEARTBEAT_INTERVAL_MS");
    let heartbeat = match heartbeat {
        None => None,
        Some(text) => match number::from_ascii_digits(text) {
            Some(number) => Some(number),
            None => {
                throw!("remote harness env LINZUMI_HEARTBEAT_INTERVAL_MS must be a decimal integer")
            }
        },
    };
    let allowed_cwds = variable("LINZUMI_ALLOWED_CWDS").map(|text| {
        text.as_js_str()
            .split(":")
            .filter(|part| !part.is_empty())
            .map(|part| Value::String(text.to_piece(part)))
            .collect::<Vec<_>>()
    });
    config_from_object(&js_object! {
        "kandanUrl" => variable("LINZUMI_KANDAN_URL"),
        "token" => variable("LINZUMI_RUNNER_TOKEN"),
        "runnerId" => variable("LINZUMI_RUNNER_ID"),
        "workspaceSlug" => variable("LINZUMI_WORKSPACE"),
        "cwd" => variable("LINZUMI_CWD"),
        "codexBin" => variable("LINZUMI_CODEX_BIN"),
        "allowedCwds" => allowed_cwds,
        "heartbeatIntervalMs" => heartbeat,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use js_exact::testing::{json, value};

    fn from_object(json_text: &str) -> Result<String, String> {
        config_from_object(&value(json_text))
            .map(|config| json(&config))
            .map_err(|error| error.message.to_string())
    }

    const BASE: &str = r#""kandanUrl":"https://k/","token":"t","runnerId":"r","cwd":"/c""#;

    fn with(extra: &str) -> Result<String, String> {
        from_object(&format!("{{{BASE}{extra}}}"))
    }

    fn field_error(field: &str, requirement: &str) -> Result<String, String> {
        Err(format!(
            "remote harness config {field} must be {requirement}"
        ))
    }

    #[test]
    fn urls_need_a_scheme_and_a_host_part() {
        let url = |text: &str| normalized_http_url(&Value::from(text)).map(|u| u.to_string());
        assert_eq!(url("https://x"), Some("https://x".into()));
        assert_eq!(url("http://x///"), Some("http://x".into()));
        assert_eq!(url("https:///x/"), Some("https:///x".into()));
        assert_eq!(url("https://a/b//"), Some("https://a/b".into()));
        assert_eq!(url("https://x/\n"), Some("https://x/\n".into()));
        for refused in [
            "https://",
            "https:///",
            "http:////",
            "ftp://x",
            "HTTP://x",
            " https://x",
            "",
        ] {
            assert_eq!(url(refused), None, "{refused:?}");
        }
        assert_eq!(normalized_http_url(&Value::Null), None);
    }

    #[test]
    fn a_config_gets_its_defaults_in_order() {
        assert_eq!(
            with(""),
            Ok(concat!(
                r#"{"kandanUrl":"https://k","token":"t","runnerId":"r","workspaceSlug":null,"cwd":"/c","#,
                r#""codexBin":"codex","allowedCwds":["/c"],"heartbeatIntervalMs":15000,"labels":{}}"#
            )
            .into())
        );
        assert_eq!(
            with(r#","labels":{"b":"x","1":"y"},"allowedCwds":["/b","/a","/b"],"heartbeatIntervalMs":1e3,"workspaceSlug":"w","codexBin":"cx""#),
            Ok(concat!(
                r#"{"kandanUrl":"https://k","token":"t","runnerId":"r","workspaceSlug":"w","cwd":"/c","#,
                r#""codexBin":"cx","allowedCwds":["/b","/a"],"heartbeatIntervalMs":1000,"labels":{"1":"y","b":"x"}}"#
            )
            .into())
        );
    }

    #[test]
    fn every_field_rule() {
        assert_eq!(
            from_object("[]"),
            Err("remote harness config must be a JSON object".into())
        );
        assert_eq!(
            from_object(r#"{"kandanUrl":"x"}"#),
            field_error("kandanUrl", "an http(s) URL")
        );
        assert_eq!(
            with(r#","token":"""#),
            field_error("token", "a non-empty string")
        );
        assert_eq!(
            with(r#","runnerId":7"#),
            field_error("runnerId", "a non-empty string")
        );
        assert_eq!(
            with(r#","workspaceSlug":"""#),
            field_error("workspaceSlug", "a non-empty string")
        );
        assert_eq!(
            with(r#","cwd":"c""#),
            field_error("cwd", "an absolute path")
        );
        assert_eq!(
            with(r#","codexBin":false"#),
            field_error("codexBin", "a non-empty string")
        );
        for allowed in [r#""/a""#, r#"["/a","b"]"#, r#"[""]"#, r#"{}"#] {
            assert_eq!(
                with(&format!(r#","allowedCwds":{allowed}"#)),
                field_error("allowedCwds", "an array of absolute paths"),
                "{allowed}"
            );
        }
        for heartbeat in ["999", "300001", "1000.5", r#""15000""#, "1e400"] {
            assert_eq!(
                with(&format!(r#","heartbeatIntervalMs":{heartbeat}"#)),
                field_error("heartbeatIntervalMs", "an integer between 1000 and 300000"),
                "{heartbeat}"
            );
        }
        for labels in [r#"{"a":1}"#, "[]", r#""x""#, r#"{"a":null}"#] {
            assert_eq!(
                with(&format!(r#","labels":{labels}"#)),
                field_error("labels", "an object of strings"),
                "{labels}"
            );
        }
        assert!(
            with(r#","allowedCwds":[],"labels":{},"workspaceSlug":null"#)
                .unwrap()
                .contains(r#""workspaceSlug":null,"cwd":"/c","codexBin":"codex","allowedCwds":[]"#)
        );
    }

    #[test]
    fn json_text_must_be_a_string_of_valid_json() {
        let from_json = |json_value: &Value| {
            config_from_json(json_value)
                .map(|c| json(&c))
                .map_err(|e| e.message.to_string())
        };
        assert_eq!(
            from_json(&Value::Null),
            Err("remote harness config must be a JSON string".into())
        );
        for text in ["{", "", "\u{feff}{}", "{\"a\":1}x"] {
            assert_eq!(
                from_json(&Value::from(text)),
                Err("remote harness config is not valid JSON".into()),
                "{text:?}"
            );
        }
        let lone = value(
            r#""{\"kandanUrl\":\"https://k\",\"token\":\"\\ud800\",\"runnerId\":\"r\",\"cwd\":\"/\"}""#,
        );
        assert!(from_json(&lone).unwrap().contains(r#""token":"\ud800""#));
    }

    #[test]
    fn the_environment_variant() {
        let from_env = |env: &str| {
            config_from_env(&value(env))
                .map(|c| json(&c))
                .map_err(|e| e.message.to_string())
        };
        let required = r#""LINZUMI_KANDAN_URL":"http://k/","LINZUMI_RUNNER_TOKEN":"t","LINZUMI_RUNNER_ID":"r","LINZUMI_CWD":"/c""#;
        assert_eq!(
            from_env("[]"),
            Err("remote harness env must be an object".into())
        );
        assert_eq!(
            from_env("{}"),
            Err("remote harness env LINZUMI_KANDAN_URL is required".into())
        );
        assert_eq!(
            from_env(r#"{"LINZUMI_KANDAN_URL":"k","LINZUMI_RUNNER_TOKEN":"","LINZUMI_CWD":"/"}"#),
            Err("remote harness env LINZUMI_RUNNER_TOKEN is required".into())
        );
        assert_eq!(
            from_env(&format!(
                r#"{{{required},"LINZUMI_HEARTBEAT_INTERVAL_MS":"1e3"}}"#
            )),
            Err(
                "remote harness env LINZUMI_HEARTBEAT_INTERVAL_MS must be a decimal integer".into()
            )
        );
        assert_eq!(
            from_env(&format!(
                r#"{{{required},"LINZUMI_HEARTBEAT_INTERVAL_MS":"0002000","LINZUMI_ALLOWED_CWDS":"::/a::/b:/a","LINZUMI_WORKSPACE":"","LINZUMI_CODEX_BIN":"cx"}}"#
            )),
            Ok(concat!(
                r#"{"kandanUrl":"http://k","token":"t","runnerId":"r","workspaceSlug":null,"cwd":"/c","#,
                r#""codexBin":"cx","allowedCwds":["/a","/b"],"heartbeatIntervalMs":2000,"labels":{}}"#
            )
            .into())
        );
        assert!(
            from_env(&format!(r#"{{{required},"LINZUMI_ALLOWED_CWDS":":"}}"#))
                .unwrap()
                .contains(r#""allowedCwds":[]"#)
        );
        assert_eq!(
            from_env(r#"{"LINZUMI_REMOTE_HARNESS_CONFIG":"[]","LINZUMI_CWD":""}"#),
            Err("remote harness config must be a JSON object".into())
        );
        assert_eq!(
            from_env(r#"{"LINZUMI_REMOTE_HARNESS_CONFIG":""}"#),
            Err("remote harness env LINZUMI_KANDAN_URL is required".into())
        );
    }

    #[test]
    fn digit_strings_become_the_nearest_double() {
        let number = |text: &str| number::from_ascii_digits(&JsString::from(text));
        assert_eq!(number("0042"), Some(42.0));
        assert_eq!(
            number("12345678901234567890"),
            Some(12_345_678_901_234_567_000.0)
        );
        assert_eq!(number(&"9".repeat(400)), Some(f64::INFINITY));
        assert_eq!(number(""), None);
        assert_eq!(number("-1"), None);
        assert_eq!(number("1.0"), None);
    }
}
