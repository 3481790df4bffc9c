//! The `ipcWorker` and `ipcParent` harnesses: not implemented yet.

use crate::js::Value;

/// The `ipcWorker` op.
pub fn ipc_worker_op(_case: &Value) -> Value {
    crate::ops::threw("ipcWorker is not implemented yet")
}

/// The `ipcParent` op.
pub fn ipc_parent_op(_case: &Value) -> Value {
    crate::ops::threw("ipcParent is not implemented yet")
}
