//! What a contract's case generator and parity-diff's fuzzer share, and
//! nothing else: [`tree`], cases as JSON syntax trees that keep their
//! spelling, with the one-step simplifications a minimizer tries; and
//! [`rng`], the seeded random source, the same on every machine. A
//! crate of its own so that a contract's oracle can generate cases
//! without linking the whole diff tool.

pub mod rng;
pub mod tree;
