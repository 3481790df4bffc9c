//! Differential fuzzing: generated cases, run through two oracles side by
//! side, every divergence minimized and kept.
//!
//! - [`generate`]: seeded case generators for every op, valid cases and
//!   near misses;
//! - [`tree`]: cases as JSON syntax trees that keep their spelling, and
//!   the one-step simplifications the minimizer tries;
//! - [`divergence`]: where two results first differ, and the signature
//!   that groups divergences;
//! - [`runner`]: the loop, the minimizer, and the regression files;
//! - [`command`]: `parity-diff fuzz`.

pub mod command;
pub mod divergence;
pub mod generate;
pub mod rng;
pub mod runner;
pub mod tree;

pub use runner::{fuzz, in_process, BatchOracle, DivergenceGroup, FuzzConfig, FuzzReport};
