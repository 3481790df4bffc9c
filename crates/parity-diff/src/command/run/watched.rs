//! The consumer a run hands its records through: it notes which ledger
//! entries and rules met their cases, and puts each case on its per-op
//! row by the suite's `ops`.

use std::io::{self, Write};

use crate::corpus::identity::CaseId;
use crate::exec::oracle::{leak_warnings, Leak};
use crate::ledger::rules::RuleFinding;
use crate::ledger::Entry;
use crate::report::record::{CaseRecord, CaseState};
use crate::report::{Consumer, FileInfo, KnownOps, Problem};

/// A consumer that notes which ledger entries met their case: every
/// record that carries an entry, those known only by position (golden
/// elements past a file's cases, extra results) included. It also puts
/// each case on its per-op row by the suite's `ops`, when it has them.
pub(super) struct Watched<'a, C> {
    pub(super) inner: &'a mut C,
    pub(super) known_ops: Option<&'a KnownOps>,
    pub(super) seen: Vec<CaseId>,
    /// The ledger rules that decided a case.
    pub(super) rules: Vec<usize>,
}

impl<C: Consumer> Consumer for Watched<'_, C> {
    fn explains(&self) -> bool {
        self.inner.explains()
    }
    fn fingerprints(&self) -> bool {
        self.inner.fingerprints()
    }
    fn wants_detail(&self, record: &CaseRecord) -> bool {
        self.inner.wants_detail(record)
    }
    fn wants_passing(&self) -> bool {
        self.inner.wants_passing()
    }
    fn counted(
        &mut self,
        op: Option<&str>,
        unknown_op: bool,
        state: CaseState,
        cases: u64,
    ) -> io::Result<()> {
        let unknown_op = match self.known_ops {
            Some(known) => known.unknown(op, unknown_op),
            None => unknown_op,
        };
        self.inner.counted(op, unknown_op, state, cases)
    }
    fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        self.inner.begin_file(file)
    }
    fn case(&mut self, mut record: CaseRecord) -> io::Result<()> {
        if let Some(known) = self.known_ops {
            record.unknown_op = known.unknown(record.op.as_deref(), record.unknown_op);
        }
        if let Some(rule) = record.rule {
            self.rules.push(rule);
        } else if record.entry.is_some() {
            self.seen.push(record.id.clone());
        }
        self.inner.case(record)
    }
    fn problem(&mut self, problem: Problem) -> io::Result<()> {
        if let Problem::Framing {
            rule: Some(rule), ..
        } = problem
        {
            self.rules.push(rule);
        }
        self.inner.problem(problem)
    }
    fn warning(&mut self, text: &str) -> io::Result<()> {
        self.inner.warning(text)
    }
    fn end_file(&mut self) -> io::Result<()> {
        self.inner.end_file()
    }
    fn orphaned_entry(&mut self, entry: &Entry) {
        self.inner.orphaned_entry(entry)
    }
    fn rule_finding(&mut self, finding: &RuleFinding) {
        self.inner.rule_finding(finding)
    }
    fn shard_rules(&mut self, findings: Vec<RuleFinding>) {
        self.inner.shard_rules(findings)
    }
}

/// The leaks of a file's oracle runs, as warnings: in the report, and on
/// stderr (in corpus order, since reports are made in it).
pub(super) fn warn_of_leaks<C: Consumer>(
    consumer: &mut C,
    file: &str,
    leaks: &[Leak],
) -> io::Result<()> {
    for text in leak_warnings(leaks) {
        let _ = writeln!(
            io::stderr(),
            "parity-diff: warning: {}: {text}",
            file.escape_debug()
        );
        consumer.warning(&text)?;
    }
    Ok(())
}
