//! Differential fuzzing: generated cases, run through two oracles side by
//! side, every divergence minimized and kept (`parity-diff fuzz`).
//!
//! - [`generate`]: seeded case generators, one per op
//!   ([`generate::GENERATORS`], checked against [`crate::ops::OPS`]):
//!   mostly valid cases, and near misses;
//! - [`rng`]: the seeded source, the same on every machine;
//! - [`tree`]: cases as JSON syntax trees that keep their spelling, and
//!   the one-step simplifications the minimizer tries;
//! - [`divergence`]: where two results first differ, and the signature
//!   that groups divergences;
//! - [`outcome`]: each side's outcome per case, a failing batch bisected
//!   so that one bad case costs that case alone;
//! - [`minimize`](mod@minimize): shrinking a case while it diverges the same way;
//! - [`regression`]: the case files `--out` gets, named by signature and
//!   hash;
//! - [`runner`]: the loop;
//! - [`command`]: `parity-diff fuzz`.

pub mod command;
pub mod divergence;
pub mod generate;
pub mod minimize;
pub mod outcome;
pub mod regression;
pub mod rng;
pub mod runner;
pub mod tree;

pub use runner::{
    fuzz, in_process, BatchOracle, Classified, DivergenceGroup, FuzzConfig, FuzzReport,
};
