//! `respawn` (contract 4.16): not implemented yet.

use crate::js::Value;

/// The `respawn` op.
pub fn respawn_op(_case: &Value) -> Value {
    super::threw("respawn is not implemented yet")
}
