//! `parseWorkerArgs` (contract 4.26): not implemented yet.

use crate::js::Value;

/// The `parseWorkerArgs` op.
pub fn parse_worker_args_op(_case: &Value) -> Value {
    super::threw("parseWorkerArgs is not implemented yet")
}
