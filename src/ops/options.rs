//! The worker's options object and `validateOptions` (contract 4.1).

use js_exact::throw;
use js_exact::{JsResult, Object, Value};

/// The options that must be non-empty strings, in the order checked.
pub const REQUIRED_STRING_OPTIONS: [&str; 6] = [
    "kandanUrl",
    "token",
    "runnerId",
    "kandanThreadId",
    "cwd",
    "codexBin",
];

/// The options that must be non-empty strings when set, in the order checked.
pub const OPTIONAL_STRING_OPTIONS: [&str; 7] = [
    "workspaceSlug",
    "projectPublicId",
    "goldenImagePublicId",
    "logFile",
    "codexModelProvider",
    "linzumiAgentMcpToken",
    "debugTrace",
];

/// The values `executionMode` may take.
pub const EXECUTION_MODES: [&str; 3] = ["local", "vm", "remote"];

/// The values `egressMode` may take.
pub const EGRESS_MODES: [&str; 3] = ["open", "restricted", "offline"];

/// Whether a value is one of the allowed strings (`Array.includes`).
pub fn is_one_of(value: &Value, allowed: &[&str]) -> bool {
    value
        .as_js_string()
        .is_some_and(|text| allowed.iter().any(|candidate| text.eq_str(candidate)))
}

fn is_port_number(value: &Value) -> bool {
    value.is_integer()
        && value
            .as_number()
            .is_some_and(|n| (1.0..=65535.0).contains(&n))
}

/// `validateOptions`: checks the options in the contract's order and
/// returns them as an object, or throws the first failure.
pub fn validate_options(options: &Value) -> JsResult<&Object> {
    let Some(object) = options.as_object() else {
        throw!("thread runner options must be an object");
    };
    for field in REQUIRED_STRING_OPTIONS {
        if !options.get(field).is_non_empty_string() {
            throw!(
                "thread runner option ",
                field,
                " must be a non-empty string"
            );
        }
    }
    for field in OPTIONAL_STRING_OPTIONS {
        let value = options.get(field);
        if value.is_set() && !value.is_non_empty_string() {
            throw!(
                "thread runner option ",
                field,
                " must be a non-empty string when set"
            );
        }
    }
    let execution_mode = options.get("executionMode");
    if execution_mode.is_set() && !is_one_of(execution_mode, &EXECUTION_MODES) {
        throw!("thread runner option executionMode must be one of local, vm, remote");
    }
    let egress_mode = options.get("egressMode");
    if egress_mode.is_set() && !is_one_of(egress_mode, &EGRESS_MODES) {
        throw!("thread runner option egressMode must be one of open, restricted, offline");
    }
    let allowed_cwds = options.get("allowedCwds");
    if allowed_cwds.is_set()
        && !allowed_cwds
            .as_array()
            .is_some_and(|items| items.iter().all(Value::is_non_empty_string))
    {
        throw!("thread runner option allowedCwds must be an array of non-empty strings");
    }
    let ports = options.get("allowedForwardPorts");
    if ports.is_set()
        && !ports
            .as_array()
            .is_some_and(|items| items.iter().all(is_port_number))
    {
        throw!(
            "thread runner option allowedForwardPorts must be an array of port numbers (1-65535)"
        );
    }
    for field in ["vmExecution", "fast"] {
        let value = options.get(field);
        if value.is_set() && value.as_bool().is_none() {
            throw!("thread runner option ", field, " must be a boolean");
        }
    }
    let runtime_defaults = options.get("runtimeDefaults");
    if runtime_defaults.is_set() && !runtime_defaults.is_object() {
        throw!("thread runner option runtimeDefaults must be an object");
    }
    Ok(object)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use js_exact::{parse, TextMode};

    /// A valid options object with every required field.
    pub(crate) fn valid_options() -> Value {
        parse(
            br#"{"kandanUrl":"https://k.test","token":"t","runnerId":"r","kandanThreadId":"th","cwd":"/w","codexBin":"codex"}"#,
            TextMode::LossyUtf8,
        )
        .unwrap()
    }

    fn with(field: &str, json: &str) -> Value {
        let mut options = valid_options();
        if let Value::Object(object) = &mut options {
            object.insert(field, parse(json.as_bytes(), TextMode::LossyUtf8).unwrap());
        }
        options
    }

    fn message(options: &Value) -> String {
        validate_options(options).unwrap_err().message.to_string()
    }

    #[test]
    fn every_message_in_order() {
        assert_eq!(
            message(&Value::Array(vec![])),
            "thread runner options must be an object"
        );
        assert_eq!(
            message(&Value::Null),
            "thread runner options must be an object"
        );
        assert_eq!(
            message(&with("token", "\"\"")),
            "thread runner option token must be a non-empty string"
        );
        assert_eq!(
            message(&with("logFile", "3")),
            "thread runner option logFile must be a non-empty string when set"
        );
        assert_eq!(
            message(&with("executionMode", "\"cloud\"")),
            "thread runner option executionMode must be one of local, vm, remote"
        );
        assert_eq!(
            message(&with("egressMode", "[\"open\"]")),
            "thread runner option egressMode must be one of open, restricted, offline"
        );
        assert_eq!(
            message(&with("allowedCwds", "[\"/a\",\"\"]")),
            "thread runner option allowedCwds must be an array of non-empty strings"
        );
        assert_eq!(
            message(&with("allowedForwardPorts", "[80,65536]")),
            "thread runner option allowedForwardPorts must be an array of port numbers (1-65535)"
        );
        assert_eq!(
            message(&with("fast", "\"true\"")),
            "thread runner option fast must be a boolean"
        );
        assert_eq!(
            message(&with("runtimeDefaults", "[]")),
            "thread runner option runtimeDefaults must be an object"
        );
    }

    #[test]
    fn unset_optional_fields_pass() {
        for field in [
            "logFile",
            "executionMode",
            "allowedCwds",
            "fast",
            "runtimeDefaults",
        ] {
            assert!(validate_options(&with(field, "null")).is_ok(), "{field}");
        }
        assert!(validate_options(&with("allowedForwardPorts", "[1,65535,80.0]")).is_ok());
        assert!(validate_options(&with("unknownField", "{}")).is_ok());
    }
}
