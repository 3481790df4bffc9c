//! How an oracle run failed, and the verdict that gives a case.

/// How an oracle failed: the verdict a case gets when it alone causes
/// the failure (see [`bisect`](crate::exec::bisect)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FailureKind {
    /// It exited non-zero, died of a signal, or could not be started.
    Crash,
    /// Its stdout is not one JSON array (no output, a cut array, a token
    /// JSON does not have such as `Infinity`), or holds a different
    /// number of results than the batch has cases; for one case, its
    /// result is not JSON (see [`results`](super::results)).
    InvalidOutput,
    /// It did not finish within the timeout.
    Timeout,
}

impl FailureKind {
    /// The name reports use: `crash`, `invalid-output`, `timeout`.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Crash => "crash",
            FailureKind::InvalidOutput => "invalid-output",
            FailureKind::Timeout => "timeout",
        }
    }
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why an oracle gave no result array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OracleFailure {
    /// What kind of failure it is.
    pub kind: FailureKind,
    /// What happened.
    pub message: String,
    /// The end of what the oracle wrote on stderr.
    pub stderr: Option<String>,
    /// The start of what it printed on stdout, when that is no result
    /// array: its size and its first characters, quoted
    /// ([`results::with_stdout_head`](super::results::with_stdout_head)). Only a file's failure shows it:
    /// a case's message is its signature, the same for every case.
    pub stdout: Option<String>,
}

impl OracleFailure {
    /// A failure without stderr.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        OracleFailure {
            kind,
            message: message.into(),
            stderr: None,
            stdout: None,
        }
    }
}
