//! What a delta finds: its types, apart from the reading that fills them.

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::report::spool::Spool;

/// The kinds of change, in the order reports list them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Passed (or accepted) in BASE, fails in HEAD.
    NewlyFailing,
    /// Fails in both, with another fingerprint or signature.
    FailingDifferently,
    /// Failed in BASE, passes in HEAD.
    NewlyPassing,
    /// Only in HEAD.
    Added,
    /// Only in BASE.
    Removed,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 5] = [
        Kind::NewlyFailing,
        Kind::FailingDifferently,
        Kind::NewlyPassing,
        Kind::Added,
        Kind::Removed,
    ];

    /// As a heading says it.
    pub fn title(self) -> &'static str {
        match self {
            Kind::NewlyFailing => "Newly failing",
            Kind::FailingDifferently => "Failing differently",
            Kind::NewlyPassing => "Newly passing",
            Kind::Added => "Added",
            Kind::Removed => "Removed",
        }
    }

    /// As a count says it.
    pub fn phrase(self) -> &'static str {
        match self {
            Kind::NewlyFailing => "newly failing",
            Kind::FailingDifferently => "failing differently",
            Kind::NewlyPassing => "newly passing",
            Kind::Added => "added",
            Kind::Removed => "removed",
        }
    }
}

/// One changed case: its identity, and what each report says of it
/// (`passed`, or the state and the failure's signature; empty when the
/// report does not have the case).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// `argv.json "name"`.
    pub id: String,
    /// BASE's word.
    pub before: String,
    /// HEAD's word.
    pub after: String,
}

impl Change {
    fn to_line(&self) -> Vec<u8> {
        let mut line = serde_json::to_vec(&[&self.id, &self.before, &self.after])
            .expect("strings always serialize");
        line.push(b'\n');
        line
    }

    fn from_line(line: &[u8]) -> io::Result<Self> {
        let [id, before, after]: [String; 3] = serde_json::from_slice(line).map_err(|_| {
            io::Error::new(io::ErrorKind::InvalidData, "a spooled change is damaged")
        })?;
        Ok(Change { id, before, after })
    }
}

/// An op's cases, passed and accepted cases in each report. "Passed"
/// means what it means in `run`'s summary: identical (or the same value
/// with `--semantic`), never accepted by the ledger.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpCounts {
    /// BASE's cases.
    pub base_cases: usize,
    /// BASE's passed cases.
    pub base_passed: usize,
    /// BASE's cases the ledger accepts (or triages).
    pub base_accepted: usize,
    /// HEAD's cases.
    pub head_cases: usize,
    /// HEAD's passed cases.
    pub head_passed: usize,
    /// HEAD's cases the ledger accepts (or triages).
    pub head_accepted: usize,
}

/// The changes of one kind: how many, and each (spooled).
#[derive(Debug, Default)]
pub struct Changes {
    /// How many.
    pub count: usize,
    spool: Spool,
}

impl Changes {
    pub(super) fn add(&mut self, change: &Change) -> io::Result<()> {
        self.count += 1;
        self.spool.append(&change.to_line())?;
        Ok(())
    }

    /// Hands each change to `each`, in order, until it says stop.
    pub fn each(&mut self, mut each: impl FnMut(Change) -> bool) -> io::Result<()> {
        let mut lines = LineWriter {
            pending: Vec::new(),
            each: |line: &[u8]| Ok(each(Change::from_line(line)?)),
            stopped: false,
        };
        self.spool.drain_to(&mut lines)
    }
}

/// A writer that hands its input on line by line, so that a spool drains
/// through it without being read into memory whole.
struct LineWriter<F> {
    pending: Vec<u8>,
    each: F,
    stopped: bool,
}

impl<F: FnMut(&[u8]) -> io::Result<bool>> Write for LineWriter<F> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.stopped {
            return Ok(bytes.len());
        }
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.pending.extend_from_slice(&rest[..end]);
            rest = &rest[end + 1..];
            let line = std::mem::take(&mut self.pending);
            if !(self.each)(&line)? {
                self.stopped = true;
                return Ok(bytes.len());
            }
        }
        self.pending.extend_from_slice(rest);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Everything a delta found.
#[derive(Debug, Default)]
pub struct Delta {
    /// The changes, by kind (in [`Kind::ALL`] order).
    pub changes: [Changes; 5],
    /// Of the added cases, how many fail.
    pub added_failing: usize,
    /// Per op (`None` for cases without a string op).
    pub by_op: BTreeMap<Option<String>, OpCounts>,
}

impl Delta {
    /// The changes of a kind.
    pub fn of(&mut self, kind: Kind) -> &mut Changes {
        &mut self.changes[Kind::ALL.iter().position(|k| *k == kind).unwrap_or(0)]
    }

    /// How many changes of a kind.
    pub fn count(&self, kind: Kind) -> usize {
        self.changes[Kind::ALL.iter().position(|k| *k == kind).unwrap_or(0)].count
    }

    /// Whether anything fails that did not: a case newly failing, or an
    /// added case that fails.
    pub fn anything_newly_fails(&self) -> bool {
        self.count(Kind::NewlyFailing) > 0 || self.added_failing > 0
    }

    /// All cases and passes in (BASE, HEAD).
    pub fn totals(&self) -> OpCounts {
        self.by_op
            .values()
            .fold(OpCounts::default(), |sum, op| OpCounts {
                base_cases: sum.base_cases + op.base_cases,
                base_passed: sum.base_passed + op.base_passed,
                base_accepted: sum.base_accepted + op.base_accepted,
                head_cases: sum.head_cases + op.head_cases,
                head_passed: sum.head_passed + op.head_passed,
                head_accepted: sum.head_accepted + op.head_accepted,
            })
    }
}
