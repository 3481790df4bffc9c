//! What a case's ledger entry says, as records and reports carry it.

/// A ledger entry's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryState {
    /// A deliberate difference.
    Accepted,
    /// A known bug, to be fixed; with a link to where it is tracked.
    Triaged {
        /// An issue, say.
        link: Option<String>,
    },
}

/// What a case's ledger entry says, as reports show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryRef {
    /// Accepted or triaged.
    pub state: EntryState,
    /// Why.
    pub reason: String,
}
