//! The JSON report: its types, its one writer ([`write`](mod@write)) and its one
//! reader ([`read`](mod@read)). `run`, `compare`, `accept` and `merge` write it;
//! `merge`, `delta` and the tests read it, one case at a time. Format
//! version 2, one object, members in this order (docs/REPORT.md
//! describes each):
//!
//! ```text
//! {"version":2,"command":"run","shard":null | {"index","count","from","to"[,"timings"]},
//!  "corpus":null | {"fingerprint","caseFiles","goldenFiles","cases","caseDir",
//!                   "goldenDir","filter","ops"[,"rerun"]},
//!  "ledger":null | {"path","fingerprint",
//!                   "entries":[{"file","name"|"hash","op","entry","fingerprint"},…]},
//!  "suites":["main",…], ["suiteLedgers":["main",…],] ["unredacted":["main",…],]
//!  "files":[{"name","path",["suite",]"passed","failed","accepted",
//!            ["problem","golden"|"message","stderr","skipped",] ["warnings",] "cases":[…]}],
//!  "orphanedEntries":[{"id","op","entry","fingerprint"}],
//!  "groups":[{"signature","op","kind","count","cases":[ids of the first 8]}],
//!  "byOp":{"sum":{"passed","failed","accepted"},…},
//!  "bySuite":{"main":{"passed","failed","accepted"},…},
//!  ["ledgerChanges":{"path","written","added","changed","removed","notAccepted"},]
//!  "summary":{"passed","failed","accepted","triaged","new","changed","stale",
//!             "orphaned","skipped","errors","exitCode"}}
//! ```
//!
//! - [`head`]: what a report says before its files (the command, the
//!   shard, the corpus, the ledger), which `merge` checks shards by.
//! - [`case`]: the case object (a [`CaseRecord`](crate::report::record::CaseRecord)),
//!   and the identities, ledger entries and signatures other members
//!   share.
//! - [`tail`]: what a report says after its files (orphaned entries,
//!   groups, per-op counts, `accept`'s ledger changes, the summary).
//! - [`write`](mod@write): the format, as a [`Render`](super::Render).
//! - [`read`](mod@read): a report read back piece by piece, never whole.
//!
//! # Versions
//!
//! `version` comes first, and the reader refuses a version it does not
//! know. The writer writes [`Version::CURRENT`]; the reader reads every
//! version of [`Version::ALL`]. A new version (issue 19's `suite`
//! members, say) is a variant here, made `CURRENT`; the writer writes its
//! members, and the reader reads them where they stand, as absent from a
//! report of an older version (a member it does not know is read past,
//! in any version). A member's meaning never changes within a version.

pub mod case;
pub mod head;
pub mod read;
pub mod tail;
pub mod write;

use js_exact::Value;

pub use head::{CorpusInfo, LedgerInfo, ReportHead, RunInfo, ShardInfo};
pub use read::{FileHead, Item, ReportReader};
pub use tail::{GroupInfo, LedgerChanges, Summary};
pub use write::Json;

/// A format version of the JSON report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// The first: files, cases, groups, per-op counts and the summary.
    V1,
    /// Suites: `suite` on each file and case of a suite, and `bySuite`.
    V2,
}

impl Version {
    /// The version this parity-diff writes.
    pub const CURRENT: Version = Version::V2;

    /// Every version this parity-diff reads.
    pub const ALL: [Version; 2] = [Version::V1, Version::V2];

    /// Its number, as the `version` member says it.
    pub fn number(self) -> u32 {
        match self {
            Version::V1 => 1,
            Version::V2 => 2,
        }
    }

    /// The version a `version` member names, when this parity-diff reads
    /// it.
    pub fn of_number(number: f64) -> Option<Version> {
        Version::ALL
            .into_iter()
            .find(|version| f64::from(version.number()) == number)
    }

    /// `version 1` (or `versions 1 and 2`): what this parity-diff reads,
    /// for messages.
    pub fn readable() -> String {
        let numbers: Vec<String> = Version::ALL
            .iter()
            .map(|version| version.number().to_string())
            .collect();
        match numbers.split_last() {
            Some((last, [])) => format!("version {last}"),
            Some((last, rest)) => format!("versions {} and {last}", rest.join(", ")),
            None => "no version".to_owned(),
        }
    }
}

/// A string member.
fn string(value: &Value) -> Option<String> {
    value
        .as_js_string()
        .map(|text| text.to_utf8_lossy().into_owned())
}

/// A count member: a whole number, not negative, and one a `usize`
/// holds exactly.
fn size(value: &Value) -> Option<usize> {
    value
        .as_number()
        .filter(|n| *n >= 0.0 && n.fract() == 0.0 && *n < 9.0e15)
        .map(|n| n as usize)
}

/// A list of strings.
fn strings(value: &Value) -> Option<Vec<String>> {
    value.as_array()?.iter().map(string).collect()
}

#[cfg(test)]
mod case_tests;
#[cfg(test)]
mod read_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_by_number() {
        assert_eq!(Version::of_number(1.0), Some(Version::V1));
        assert_eq!(Version::of_number(2.0), Some(Version::V2));
        assert_eq!(Version::of_number(3.0), None);
        assert_eq!(Version::of_number(1.5), None);
        assert_eq!(Version::CURRENT.number(), 2);
        assert_eq!(Version::readable(), "versions 1 and 2");
    }
}
