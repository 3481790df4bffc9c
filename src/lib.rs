//! The worker-spawn oracle: the parity contract's ops as functions over
//! JavaScript values, the batch protocol around them, and the tools that
//! compare another implementation's output with ours: goldens, reports,
//! differential fuzzing.
//!
//! Layers, each using only the ones before it (`docs/ARCHITECTURE.md`
//! draws the map and follows a case through it):
//!
//! - [`js`]: JavaScript values, strings, `JSON.parse` and `JSON.stringify`,
//!   exact to the byte. Knows nothing about workers.
//! - [`ipc`]: the worker IPC protocol: its frames, its two halves as
//!   deterministic state machines, the scripted agent, Node's IPC channel,
//!   and the `ipc-child` and `ipc-parent` process modes. Uses `js`.
//! - [`scratch`]: scratch directories and `$DIR`, for the ops that touch
//!   the file system. Uses `js` (and, until it has an error type of its
//!   own, `ops::threw`).
//! - [`ops`]: one module per seam of the contract and [`ops::OPS`], the
//!   table that names every op; each op is a function of its case. Uses
//!   `js`, `ipc` (the `ipcWorker` and `ipcParent` ops drive its halves)
//!   and `scratch`.
//! - [`batch`]: the case array in, the result array out, streamed. Uses
//!   `ops`.
//! - [`diff`]: result arrays against goldens: the golden format, verdicts
//!   and their explanations, reports, oracles run as commands, corpus
//!   runs and blessing (`parity-diff run`, `compare`, `bless`). Uses
//!   `batch` (our own oracle, in-process) and `ipc` (to kill an oracle's
//!   process group).
//! - [`fuzz`]: generated cases through two oracles, each divergence
//!   minimized (`parity-diff fuzz`). Uses `ops` (the op list), `batch` and
//!   `diff`.
//!
//! The two binaries (`src/bin/`) parse flags and call `batch`, `ipc`'s
//! process modes, `diff` and `fuzz`.

pub mod batch;
pub mod diff;
pub mod fuzz;
pub mod ipc;
pub mod js;
pub mod ops;
pub mod scratch;
