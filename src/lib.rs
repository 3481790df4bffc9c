//! The worker-spawn oracle: the parity contract's ops as pure functions over
//! JavaScript values, the batch protocol around them, and the diff tooling
//! that compares their output with another implementation's.
//!
//! Layers, each knowing only the ones below it:
//!
//! - [`js`]: JavaScript values, strings, `JSON.parse` and `JSON.stringify`,
//!   exact to the byte. Knows nothing about workers.
//! - [`ops`]: one module per seam of the contract (argv, env, ready,
//!   respawn, liveness, output routing, remote config, worker argv parse),
//!   each a pure function of its case.
//! - [`ipc`]: the worker IPC protocol's two halves as deterministic state
//!   machines, their scripted harnesses, and the real Node channel.
//! - [`scratch`]: scratch directories and `$DIR` for the ops that touch
//!   the file system.
//! - [`batch`]: the case array in, the result array out.
//! - [`diff`]: result arrays against goldens: the golden format,
//!   verdicts, reports, and the corpus runner behind `parity-diff`.

pub mod batch;
pub mod diff;
pub mod fuzz;
pub mod ipc;
pub mod js;
pub mod ops;
pub mod scratch;
