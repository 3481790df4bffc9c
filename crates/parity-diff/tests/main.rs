//! parity-diff's integration tests: one test crate, one module per
//! subject. They need nothing of the worker-spawn contract; the tests that
//! run our oracle binary, the bundled corpus or the example port are the
//! root package's (`tests/main.rs` at the workspace's root).

mod delta_budget;
mod errors;
mod fuzz_any;
mod fuzz_long_op;
mod glob_bounds;
mod hostile_config;
mod memory;
mod merge_forged;
mod numbers;
mod rules;
mod secrets_in_structure;
mod standalone;
mod your_contract;
