//! parity-diff's integration tests: one test crate, one module per
//! subject. They need nothing of the worker-spawn contract; the tests that
//! run our oracle binary, the bundled corpus or the example port are the
//! root package's (`tests/main.rs` at the workspace's root).

mod hostile_config;
mod memory;
mod progress;
mod standalone;
