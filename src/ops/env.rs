//! `envOverlay` (contract 4.4): the environment a worker gets on top of
//! its parent's.

use super::options::validate_options;
use super::outcome;
use js_exact::throw;
use js_exact::{JsResult, Object, Value};

/// `threadRunnerWorkerEnvOverlay`.
pub fn env_overlay(
    options: &Value,
    dev_services_parent_pid: &Value,
    forwardable_open_ai_api_key: &Value,
) -> JsResult<Object> {
    validate_options(options)?;
    if dev_services_parent_pid.is_set() && !dev_services_parent_pid.is_positive_integer() {
        throw!("devServicesParentPid must be a positive integer");
    }
    if forwardable_open_ai_api_key.is_set() && !forwardable_open_ai_api_key.is_string() {
        throw!("forwardableOpenAiApiKey must be a string");
    }
    let mut env = Object::with_capacity(9);
    env.insert("LINZUMI_THREAD_WORKER", "1".into());
    env.insert("LINZUMI_RUNNER_ID", options.get("runnerId").clone());
    env.insert(
        "LINZUMI_KANDAN_THREAD_ID",
        options.get("kandanThreadId").clone(),
    );
    if dev_services_parent_pid.is_set() {
        env.insert(
            "LINZUMI_DEV_SERVICES_PARENT_PID",
            dev_services_parent_pid.to_js_string().into(),
        );
    }
    if let Some(key) = forwardable_open_ai_api_key.as_non_empty_string() {
        env.insert("OPENAI_API_KEY", key.into());
    }
    for (variable, field) in [
        ("LINZUMI_CODEX_MODEL_PROVIDER", "codexModelProvider"),
        ("LINZUMI_DEBUG_TRACE", "debugTrace"),
        ("LINZUMI_WORKER_LOG_FILE", "logFile"),
    ] {
        let value = options.get(field);
        if value.is_set() {
            env.insert(variable, value.clone());
        }
    }
    env.insert("FORCE_COLOR", "0".into());
    Ok(env)
}

/// The `envOverlay` op.
pub fn env_overlay_op(case: &Value) -> Value {
    outcome(
        env_overlay(
            case.get("options"),
            case.get("devServicesParentPid"),
            case.get("forwardableOpenAiApiKey"),
        )
        .map(Value::Object),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::options::tests::valid_options;
    use js_exact::testing::value;
    use js_exact::to_json;

    #[test]
    fn overlay_keys_in_contract_order() {
        let mut options = valid_options();
        if let Value::Object(object) = &mut options {
            object.insert("logFile", value("\"/l\""));
            object.insert("debugTrace", value("\"d\""));
        }
        let env = env_overlay(&options, &value("7"), &value("\"k\"")).unwrap();
        assert_eq!(
            String::from_utf8(to_json(&Value::Object(env))).unwrap(),
            r#"{"LINZUMI_THREAD_WORKER":"1","LINZUMI_RUNNER_ID":"r","LINZUMI_KANDAN_THREAD_ID":"th","LINZUMI_DEV_SERVICES_PARENT_PID":"7","OPENAI_API_KEY":"k","LINZUMI_DEBUG_TRACE":"d","LINZUMI_WORKER_LOG_FILE":"/l","FORCE_COLOR":"0"}"#
        );
    }

    #[test]
    fn extras_are_checked_after_the_options() {
        let options = valid_options();
        let message = |pid: &str, key: &str| {
            env_overlay(&options, &value(pid), &value(key))
                .unwrap_err()
                .message
                .to_string()
        };
        assert_eq!(
            message("0", "1"),
            "devServicesParentPid must be a positive integer"
        );
        assert_eq!(
            message("1.5", "1"),
            "devServicesParentPid must be a positive integer"
        );
        assert_eq!(
            message("null", "1"),
            "forwardableOpenAiApiKey must be a string"
        );
        let empty_key = env_overlay(&options, &Value::Undefined, &value("\"\"")).unwrap();
        assert!(!empty_key.contains_key("OPENAI_API_KEY"));
        assert_eq!(
            env_overlay(&Value::Null, &value("0"), &value("1"))
                .unwrap_err()
                .message
                .to_string(),
            "thread runner options must be an object"
        );
    }
}
