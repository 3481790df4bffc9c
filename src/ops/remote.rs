//! The remote harness ops (contract 4.22–4.25): not implemented yet.

use crate::js::Value;

/// The `remoteConfig` op.
pub fn remote_config_op(_case: &Value) -> Value {
    super::threw("remoteConfig is not implemented yet")
}

/// The `remoteConfigEnv` op.
pub fn remote_config_env_op(_case: &Value) -> Value {
    super::threw("remoteConfigEnv is not implemented yet")
}

/// The `remoteEntrypoint` op.
pub fn remote_entrypoint_op(_case: &Value) -> Value {
    super::threw("remoteEntrypoint is not implemented yet")
}

/// The `remoteJoinPayload` op.
pub fn remote_join_payload_op(_case: &Value) -> Value {
    super::threw("remoteJoinPayload is not implemented yet")
}
