//! `outputRouting` (contract 4.17): not implemented yet.

use crate::js::Value;

/// The `outputRouting` op.
pub fn output_routing_op(_case: &Value) -> Value {
    super::threw("outputRouting is not implemented yet")
}
