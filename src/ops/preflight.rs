//! `preflight` (contract 4.13): not implemented yet.

use crate::js::Value;

/// The `preflight` op.
pub fn preflight_op(_case: &Value) -> Value {
    super::threw("preflight is not implemented yet")
}
