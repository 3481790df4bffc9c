//! The input errors of an `accept` run, by what they cost the ledger.

/// How many of the files it could not compare, and of the cases the
/// oracle failed on, `accept` names (each).
pub(super) const NAMED_ERRORS: usize = 20;

/// The input errors of a run, by what they cost the ledger.
#[derive(Debug, Default, Clone)]
pub(super) struct Errors {
    /// Files not compared at all: their entries are left alone.
    pub(super) files: usize,
    /// The first [`NAMED_ERRORS`] of them, with why.
    pub(super) named_files: Vec<String>,
    /// Of the files not compared, those the port failed on (the others
    /// could not be read).
    pub(super) port_files: usize,
    /// Files compared although the oracle failed on some of their cases
    /// only together: their divergences come from separate runs.
    pub(super) split: usize,
}
