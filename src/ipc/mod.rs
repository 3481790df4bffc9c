//! The worker IPC protocol (contract 4.19) and the process modes that run
//! it over a real channel (contract 5): a protocol library, which knows
//! nothing of cases or the batch. The `ipcWorker` and `ipcParent` ops
//! (4.20, 4.21) that drive it from a case's script are in `ops::ipc`.
//!
//! - [`frame`]: the frames, read from and written to values.
//! - [`worker`]: the worker half (`bindThreadCodexWorkerIpc`) as a state
//!   machine driven by method calls.
//! - [`parent`]: the parent half (`connectThreadCodexWorkerIpc`), likewise.
//! - [`scripted_agent`]: the scripted `codex` object of the `ipcWorker` op
//!   and of the `ipc-child` process mode.
//! - [`channel`]: Node's IPC channel (`NODE_CHANNEL_FD`, json lines).
//! - [`process`]: the `ipc-child` and `ipc-parent` process modes
//!   (contract 5), the halves over a real channel, and killing a child's
//!   process group (which `parity-diff` does to its oracle commands too).
//!
//! # Timing
//!
//! The reference is asynchronous JavaScript; these halves are not, and
//! need no runtime. A caller drives a half in **steps**: one event (a
//! message, a disconnect, an agent emission, a client call) is one method
//! call, which does everything the reference does synchronously. The
//! promise completions that the event causes (a response sent once the
//! agent answered, a request's settlement, the rejections of a close) are
//! queued, in the order the reference's promises settle, and run by
//! `run_completions`, which the caller calls after each step. In the
//! reference every completion runs exactly one microtask tick after its
//! cause and none causes another, so the queue is FIFO and one pass
//! empties it; a completion that queued another would still be run, after
//! those already waiting, as the microtask queue would.
//!
//! Both halves talk to a [`Channel`]: the `ipcWorker` and `ipcParent` ops
//! (`ops::ipc`) record what is sent, and the process modes write it to
//! Node's IPC channel.

pub mod channel;
pub mod frame;
pub mod parent;
pub mod process;
pub mod scripted_agent;
pub mod worker;

#[cfg(test)]
mod testing;

use js_exact::js_concat;
use js_exact::{JsError, JsString, Value};

/// The IPC channel a half sends on: Node's `process` in a worker, the
/// `ChildProcess` in the parent.
pub trait Channel {
    /// `send(message)`: `Err` when it throws. The frame is already a value
    /// whose `undefined` members are left out.
    fn send(&mut self, frame: &Value) -> Result<(), JsError>;
    /// `connected`: whether the channel is still open.
    fn connected(&self) -> bool;
}

/// Why a frame cannot go out on a channel that is not connected.
pub const NOT_CONNECTED: &str = "thread worker IPC is not connected";
/// The worker's rejection after a disconnect, and the parent's close reason.
pub const DISCONNECTED: &str = "thread worker IPC disconnected";
/// The parent's close reason when the worker exits.
pub const EXITED: &str = "thread worker exited";
/// The parent's close reason after `close()`.
pub const CLOSED: &str = "thread worker IPC is closed";

/// `thread worker IPC send failed: <errorMessage>`.
pub fn send_failure(error: &JsError) -> JsString {
    js_concat!("thread worker IPC send failed: ", &error.message)
}
