//! `tests/parity_diff_faults.rs` as a test crate of its own: it measures children's
//! peak memory with wait4, and Linux counts in a child's `ru_maxrss` the
//! peak of the process that spawned it (the memory the child shared until
//! its exec), so the spawning test process must stay small. In the one
//! test crate the other modules' inputs and outputs would be counted too.

#[path = "../parity_diff_support/mod.rs"]
mod parity_diff_support;
#[path = "../support/mod.rs"]
mod support;

#[path = "../parity_diff_faults.rs"]
mod parity_diff_faults;
