//! Differential fuzzing: cases from a source, run through two oracles
//! side by side, every divergence minimized and kept (`parity-diff fuzz`).
//! Nothing here knows a contract: its ops come from the source.
//!
//! - [`source`]: where cases come from: a contract's generator command
//!   (the protocol `CMD --op OP --seed N --count K`), or
//! - [`mutate`](mod@mutate): the cases of any corpus, mutated;
//! - [`rng`] and [`tree`]: the seeded source and cases as JSON syntax
//!   trees, from the `case-tree` crate (a contract's generator needs
//!   them without the rest of parity-diff);
//! - [`divergence`]: where two results first differ, and the signature
//!   that groups divergences;
//! - [`outcome`]: each side's outcome per case, a failing batch bisected
//!   so that one bad case costs that case alone;
//! - [`minimize`](mod@minimize): shrinking a case while it diverges the same way;
//! - [`regression`]: the case files `--out` gets, named by signature and
//!   hash;
//! - [`runner`]: the loop;
//! - [`command`]: `parity-diff fuzz`; [`render`](mod@render): its report.

pub mod batch_oracle;
mod batch_run;
pub mod command;
pub mod divergence;
pub mod known;
pub mod minimize;
pub mod mutate;
pub mod outcome;
pub mod promote;
pub mod rate;
pub mod regression;
pub mod render;
pub use case_tree::rng;
pub mod runner;
pub mod source;
pub use case_tree::tree;

pub use runner::{
    fuzz, fuzz_knowing, BatchOracle, Classified, DivergenceGroup, FuzzConfig, FuzzReport,
};
pub use source::CaseSource;
