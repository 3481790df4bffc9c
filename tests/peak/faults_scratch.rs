//! `tests/faults_scratch.rs` as a test crate of its own: it measures children's
//! peak memory with wait4, and Linux counts in a child's `ru_maxrss` the
//! peak of the process that spawned it (the memory the child shared until
//! its exec), so the spawning test process must stay small. In the one
//! test crate the other modules' inputs and outputs would be counted too.

#[path = "../support/mod.rs"]
mod support;

#[path = "../faults_scratch.rs"]
mod faults_scratch;
