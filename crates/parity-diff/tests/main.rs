//! parity-diff's integration tests: one test crate, one module per
//! subject. They need nothing of the worker-spawn contract; the tests that
//! run our oracle binary, the bundled corpus or the example port are the
//! root package's (`tests/main.rs` at the workspace's root).

mod fuzz_quiet;
mod hostile_config;
mod junit_skipped;
mod known_crashes;
mod ledger_place;
mod memory;
mod reports;
mod rerun_kinds;
mod standalone;
mod support;
mod words;
