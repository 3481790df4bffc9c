//! What runs a batch in the fuzzer: a command, or a test's oracle in
//! memory.

use crate::exec::oracle::{FailureKind, OracleFailure};

/// Something that turns a batch (a JSON array of cases) into its result
/// array: a command, or a test's oracle in memory.
pub trait BatchOracle {
    /// The result array's bytes, or how the oracle failed.
    fn run(&self, batch: &[u8]) -> Result<Vec<u8>, OracleFailure>;
}

/// A function whose failures are plain messages: each is a `crash`.
impl<F: Fn(&[u8]) -> Result<Vec<u8>, String>> BatchOracle for F {
    fn run(&self, batch: &[u8]) -> Result<Vec<u8>, OracleFailure> {
        self(batch).map_err(|message| OracleFailure::new(FailureKind::Crash, message))
    }
}

/// A function whose failures carry their kind.
pub struct Classified<F>(pub F);

impl<F: Fn(&[u8]) -> Result<Vec<u8>, OracleFailure>> BatchOracle for Classified<F> {
    fn run(&self, batch: &[u8]) -> Result<Vec<u8>, OracleFailure> {
        (self.0)(batch)
    }
}
