//! `liveness` (contract 4.18): not implemented yet.

use crate::js::Value;

/// The `liveness` op.
pub fn liveness_op(_case: &Value) -> Value {
    super::threw("liveness is not implemented yet")
}
