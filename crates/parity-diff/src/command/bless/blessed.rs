//! What `bless` made of each golden, and its counts.

use crate::exec::oracle::{FailureKind, Leak};

/// What happened to one golden.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Written where there was none.
    Added {
        /// How many cases it holds.
        cases: usize,
    },
    /// Rewritten.
    Changed {
        /// Labels of the cases whose bytes changed, the first ten.
        changed: Vec<String>,
        /// How many cases changed.
        count: usize,
        /// How many cases it holds now.
        cases: usize,
    },
    /// Already what the reference prints.
    Unchanged {
        /// How many cases it holds.
        cases: usize,
    },
    /// A golden whose case file is gone (never deleted by bless).
    Orphaned,
    /// The reference could not be run, or the golden not written.
    Error {
        /// What went wrong.
        message: String,
        /// The reference's stderr.
        stderr: Option<String>,
    },
}

/// The counts of a bless.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BlessTotals {
    /// Goldens added.
    pub added: usize,
    /// Goldens changed.
    pub changed: usize,
    /// Goldens left alone.
    pub unchanged: usize,
    /// Goldens without a case file.
    pub orphaned: usize,
    /// Files that failed.
    pub errors: usize,
    /// Cases the reference failed on (their golden elements unchanged).
    pub failed_cases: usize,
    /// Whether this was `--check`.
    pub check: bool,
}

impl BlessTotals {
    /// 2 on any error (a case the reference failed on included); with
    /// `--check`, 1 when anything would change or is orphaned; else 0.
    pub fn exit_code(&self) -> u8 {
        if self.errors + self.failed_cases > 0 {
            2
        } else if self.check && self.added + self.changed + self.orphaned > 0 {
            1
        } else {
            0
        }
    }

    /// The closing line.
    pub fn summary_line(&self) -> String {
        let mut line = if self.check {
            format!(
                "check: {} to add, {} to change, {} unchanged, {} orphaned",
                self.added, self.changed, self.unchanged, self.orphaned
            )
        } else {
            format!(
                "{} added, {} changed, {} unchanged, {} orphaned",
                self.added, self.changed, self.unchanged, self.orphaned
            )
        };
        if self.errors > 0 {
            line.push_str(&format!(", {} errors", self.errors));
        }
        if self.failed_cases > 0 {
            line.push_str(&format!(
                ", {} the reference failed on",
                crate::report::human::cases(self.failed_cases, "case")
            ));
        }
        line
    }
}

/// A case the reference failed on (found by bisection): its golden
/// element is left as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFailure {
    /// Its position in the case file.
    pub index: usize,
    /// `#index op "name"`.
    pub label: String,
    /// How the reference failed on it alone.
    pub kind: FailureKind,
    /// What happened.
    pub message: String,
    /// The end of the reference's stderr, masked.
    pub stderr: Option<String>,
}

/// What became of one case file: its golden's status, the cases the
/// reference failed on, and the cases it failed on only together (their
/// goldens come from separate runs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blessed {
    /// The golden.
    pub status: Status,
    /// Cases the reference failed on alone.
    pub failed: Vec<CaseFailure>,
    /// Ranges it failed on only together, described.
    pub together: Vec<String>,
    /// Processes the reference left holding its output, stopped.
    pub leaks: Vec<Leak>,
}

impl From<Status> for Blessed {
    fn from(status: Status) -> Self {
        Blessed {
            status,
            failed: Vec::new(),
            together: Vec::new(),
            leaks: Vec::new(),
        }
    }
}
