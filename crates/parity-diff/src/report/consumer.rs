//! What takes a run's records ([`Consumer`]): a report's [`Sink`], or
//! a command that watches a run (`accept`, `review`), each told of every
//! file, case, problem and finding as the run makes it.

use std::io::{self, Write};

use super::{key_of, CaseState, FileInfo, Problem, RecordPart, Sink};
use crate::ledger::rules::RuleFinding;
use crate::ledger::Entry;
use crate::report::record::CaseRecord;

/// Whatever takes a run's records: a report, or `accept` watching one.
pub trait Consumer {
    /// Whether failing cases need their signature and summary.
    fn explains(&self) -> bool;
    /// Whether cases need their fingerprints even without a ledger.
    fn fingerprints(&self) -> bool;
    /// Whether a failing record should carry its details.
    fn wants_detail(&self, record: &CaseRecord) -> bool;
    /// Whether passing, identical cases need records.
    fn wants_passing(&self) -> bool;
    /// Cases that need no record (passing ones that are not listed, or
    /// any when nothing is explained), counted: `cases` of one op and
    /// state, and whether they stand on the [`UNKNOWN_OP`](super::UNKNOWN_OP) row.
    fn counted(
        &mut self,
        op: Option<&str>,
        unknown_op: bool,
        state: CaseState,
        cases: u64,
    ) -> io::Result<()>;
    /// A file of cases starts.
    fn begin_file(&mut self, file: FileInfo) -> io::Result<()>;
    /// One case's record.
    fn case(&mut self, record: CaseRecord) -> io::Result<()>;
    /// A file-level problem.
    fn problem(&mut self, problem: Problem) -> io::Result<()>;
    /// A file-level warning that changes no verdict.
    fn warning(&mut self, text: &str) -> io::Result<()>;
    /// The current file ends.
    fn end_file(&mut self) -> io::Result<()>;
    /// A ledger entry whose case does not exist.
    fn orphaned_entry(&mut self, entry: &Entry);
    /// A ledger rule that is stale or orphaned.
    fn rule_finding(&mut self, finding: &RuleFinding);
    /// A shard's rules that its cases did not decide (see
    /// [`Aggregates::shard_rules`](super::Aggregates::shard_rules)). Only a report keeps them: they
    /// fail nothing, and mean something only to `merge`.
    fn shard_rules(&mut self, _findings: Vec<RuleFinding>) {}
}

impl<W: Write> Consumer for Sink<W> {
    fn explains(&self) -> bool {
        self.needs.explains
    }
    fn fingerprints(&self) -> bool {
        self.needs.fingerprints
    }
    fn wants_detail(&self, record: &CaseRecord) -> bool {
        Sink::wants_detail(self, record)
    }
    fn wants_passing(&self) -> bool {
        self.needs.passing
    }
    fn counted(
        &mut self,
        op: Option<&str>,
        unknown_op: bool,
        state: CaseState,
        cases: u64,
    ) -> io::Result<()> {
        match state {
            CaseState::Passed => self.aggregates.totals.passed += cases as usize,
            _ => self.aggregates.totals.failed += cases as usize,
        }
        self.tally.count(state, cases as usize);
        self.count_op(key_of(op, unknown_op), (state, cases as usize), None);
        Ok(())
    }
    fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        Sink::begin_file(self, file)
    }
    fn case(&mut self, record: CaseRecord) -> io::Result<()> {
        Sink::case(self, record)
    }
    fn problem(&mut self, problem: Problem) -> io::Result<()> {
        Sink::problem(self, problem)
    }
    fn warning(&mut self, text: &str) -> io::Result<()> {
        let part = RecordPart::Warning(&self.file, text);
        self.render.part(&mut self.out, part)
    }
    fn end_file(&mut self) -> io::Result<()> {
        Sink::end_file(self)
    }
    fn orphaned_entry(&mut self, entry: &Entry) {
        Sink::orphaned_entry(self, entry)
    }
    fn rule_finding(&mut self, finding: &RuleFinding) {
        self.aggregates.totals.rules += 1;
        self.aggregates.rules.push(finding.clone());
    }
    fn shard_rules(&mut self, findings: Vec<RuleFinding>) {
        self.aggregates.shard_rules = Some(findings);
    }
}
