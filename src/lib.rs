//! The worker-spawn oracle: the parity contract's ops as functions over
//! JavaScript values, the batch protocol around them, the IPC process
//! modes, and the contract's case generators. The tool that compares
//! another implementation's output with ours is the `parity-diff` crate
//! (`crates/parity-diff`), which knows no contract; this package depends
//! on it, never the other way round.
//!
//! Layers, each using only the ones before it (`docs/ARCHITECTURE.md`
//! draws the workspace's map and follows a case through it):
//!
//! - [`js_exact`] (its own crate, `crates/js-exact`): JavaScript values,
//!   strings, `JSON.parse` and `JSON.stringify`, exact to the byte. Knows
//!   nothing about workers.
//! - [`sys_unix`] (its own crate, `crates/sys-unix`): the few Unix calls
//!   std lacks that both sides need (process groups, directories by
//!   descriptor). Uses nothing.
//! - [`ipc`]: the worker IPC protocol: its frames, its two halves as
//!   deterministic state machines, the scripted agent, Node's IPC channel,
//!   and the `ipc-child` and `ipc-parent` process modes. Uses `js_exact`
//!   and `sys_unix`.
//! - [`scratch`]: scratch directories and `$DIR`, for the ops that touch
//!   the file system; it answers with its own `ScratchError`. Uses
//!   `js_exact` and `sys_unix`.
//! - [`ops`]: one module per seam of the contract and [`ops::OPS`], the
//!   table that names every op; each op is a function of its case. Uses
//!   `js_exact`, `ipc` (the `ipcWorker` and `ipcParent` ops drive its
//!   halves) and `scratch`.
//! - [`batch`]: the case array in, the result array out, streamed. Uses
//!   `ops` and `scratch`.
//! - [`generate`]: a seeded case generator per op, for `parity-diff fuzz
//!   --generator "worker-spawn-oracle generate"`. Uses `ops` and
//!   parity-diff's fuzz trees and seeded source.
//!
//! The binary (`src/bin/worker-spawn-oracle.rs`) parses flags and calls
//! `batch`, `ipc`'s process modes and `generate`.

pub mod batch;
pub mod generate;
pub mod ipc;
pub mod ops;
pub mod scratch;
