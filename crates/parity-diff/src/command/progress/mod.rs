//! `parity-diff progress`: how far a port is, per suite and per op, kept
//! in a small committed file (`parity-progress.json`) whose diff in a
//! pull request reads as the progress it made, and read back over the
//! file's history in git (docs/PROGRESS.md).
//!
//! [`tally`]: the counts, from a run's records or a JSON report;
//! [`file`](mod@file): the file, written with stable keys and lines, and read;
//! [`git`]: the commit a file is made at, and the file's versions;
//! [`history`]: those versions as series, a table for people or Markdown;
//! [`chart`]: an HTML page with an inline SVG chart.

pub mod chart;
pub mod file;
pub mod git;
pub mod history;
pub mod tally;

use std::collections::BTreeMap;

/// The file's default name (beside `parity.toml` when there is one).
pub const FILE_NAME: &str = "parity-progress.json";

/// The suite key of a run without suites (no `parity.toml`).
pub const NO_SUITE: &str = "(no suite)";

/// One op's (or suite's) cases, by where they stand.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Every case counted.
    pub cases: u64,
    /// Passed: identical to the golden.
    pub passing: u64,
    /// Accepted by a ledger entry of their own.
    pub accepted_entries: u64,
    /// Accepted by a ledger rule.
    pub accepted_rules: u64,
    /// Neither: failed, new, changed, stale, or the oracle failed on them.
    pub failing: u64,
}

impl Counts {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Counts) {
        self.cases += other.cases;
        self.passing += other.passing;
        self.accepted_entries += other.accepted_entries;
        self.accepted_rules += other.accepted_rules;
        self.failing += other.failing;
    }

    /// The counts as `(name, value)`, in the file's order.
    pub fn fields(&self) -> [(&'static str, u64); 5] {
        [
            ("cases", self.cases),
            ("passing", self.passing),
            ("acceptedEntries", self.accepted_entries),
            ("acceptedRules", self.accepted_rules),
            ("failing", self.failing),
        ]
    }
}

/// Every suite's ops' counts, and the commit they were made at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Progress {
    /// `git rev-parse HEAD` where the file was written, when git knew it.
    pub commit: Option<String>,
    /// Suite name to op key (as reports key ops: `(no op)`, `(unknown
    /// op)`) to counts.
    pub suites: BTreeMap<String, BTreeMap<String, Counts>>,
}

impl Progress {
    /// A suite's counts summed over its ops.
    pub fn suite_total(&self, suite: &str) -> Counts {
        let mut total = Counts::default();
        for counts in self
            .suites
            .get(suite)
            .into_iter()
            .flat_map(|ops| ops.values())
        {
            total.add(counts);
        }
        total
    }

    /// Whether the counts are the same (the commit aside).
    pub fn same_counts(&self, other: &Progress) -> bool {
        self.suites == other.suites
    }
}

/// One op whose counts moved between two files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// Its suite.
    pub suite: String,
    /// Its op key.
    pub op: String,
    /// Before (`None`: the op was not there).
    pub before: Option<Counts>,
    /// After (`None`: the op is gone).
    pub after: Option<Counts>,
}

impl Moved {
    /// One line for people: `suite op: passing 2 -> 4, failing 2 -> 0`,
    /// names neutral.
    pub fn describe(&self) -> String {
        let name = format!(
            "{} {}",
            crate::base::outside::text(&self.suite),
            crate::base::outside::text(&self.op)
        );
        match (&self.before, &self.after) {
            (None, Some(after)) => format!("{name}: new ({})", summary(after)),
            (Some(before), None) => format!("{name}: gone (was {})", summary(before)),
            (Some(before), Some(after)) => {
                let changes: Vec<String> = before
                    .fields()
                    .iter()
                    .zip(after.fields())
                    .filter(|((_, a), (_, b))| a != b)
                    .map(|((field, a), (_, b))| format!("{field} {a} -> {b}"))
                    .collect();
                format!("{name}: {}", changes.join(", "))
            }
            (None, None) => name,
        }
    }
}

fn summary(counts: &Counts) -> String {
    let fields: Vec<String> = counts
        .fields()
        .iter()
        .map(|(field, value)| format!("{field} {value}"))
        .collect();
    fields.join(", ")
}

/// The ops whose counts differ between `before` and `after`, sorted by
/// suite and op.
pub fn moved(before: &Progress, after: &Progress) -> Vec<Moved> {
    let mut keys: Vec<(&String, &String)> = Vec::new();
    for progress in [before, after] {
        for (suite, ops) in &progress.suites {
            keys.extend(ops.keys().map(|op| (suite, op)));
        }
    }
    keys.sort();
    keys.dedup();
    let get = |progress: &Progress, suite: &str, op: &str| {
        progress
            .suites
            .get(suite)
            .and_then(|ops| ops.get(op))
            .copied()
    };
    keys.into_iter()
        .filter_map(|(suite, op)| {
            let (b, a) = (get(before, suite, op), get(after, suite, op));
            (b != a).then(|| Moved {
                suite: suite.clone(),
                op: op.clone(),
                before: b,
                after: a,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests;
