//! The counts of a progress file: from a run, as a [`Consumer`] the run
//! hands its records to (the same run `parity-diff run` makes), or from a
//! JSON report read back one case at a time.
//!
//! A case counts on its op's row (as reports key ops: `(no op)`,
//! `(unknown op)`) of its suite: passing when it passed (or passes with
//! a ledger entry that is stale now), accepted by an entry or by a rule,
//! failing otherwise. The cases of a file the run
//! could not compare at all are not counted: the run's report shows that
//! file's problem.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io;
use std::path::Path;

use super::{Counts, Progress, NO_SUITE};
use crate::base::error::InputError;
use crate::corpus::identity::CaseId;
use crate::ledger::rules::RuleFinding;
use crate::ledger::Entry;
use crate::report::json::{Item, ReportReader};
use crate::report::record::{CaseRecord, CaseState};
use crate::report::{key_of, op_key, Consumer, FileInfo, Problem};

/// Where an accepted case stands: by its own entry or by a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acceptance {
    /// A ledger entry of its own.
    Entry,
    /// A ledger rule.
    Rule,
}

/// The counts being made, per suite and op.
#[derive(Debug, Default)]
pub struct Tally {
    suites: BTreeMap<String, BTreeMap<String, Counts>>,
    suite: String,
    /// The case files that could not be compared (whose cases are not
    /// counted): a missing golden, or a file the run could not compare.
    pub uncompared: usize,
}

impl Tally {
    /// No counts yet.
    pub fn new() -> Self {
        Tally {
            suites: BTreeMap::new(),
            suite: NO_SUITE.to_owned(),
            uncompared: 0,
        }
    }

    /// The cases from now on are `suite`'s (none: a run without suites),
    /// which is listed even when it has no case.
    pub fn suite(&mut self, suite: Option<&str>) {
        self.suite = suite.unwrap_or(NO_SUITE).to_owned();
        self.suites.entry(self.suite.clone()).or_default();
    }

    /// Counts `cases` cases of op key `op` that stand as `state` does
    /// (`acceptance` says how, when accepted).
    pub fn count(&mut self, op: &str, state: CaseState, acceptance: Acceptance, cases: u64) {
        let counts = self
            .suites
            .entry(self.suite.clone())
            .or_default()
            .entry(op.to_owned())
            .or_default();
        counts.cases += cases;
        match (state, acceptance) {
            // A stale entry's case is right now: the port's progress,
            // though the ledger must catch up before the run passes.
            (CaseState::Passed | CaseState::Stale, _) => counts.passing += cases,
            (CaseState::Accepted, Acceptance::Entry) => counts.accepted_entries += cases,
            (CaseState::Accepted, Acceptance::Rule) => counts.accepted_rules += cases,
            _ => counts.failing += cases,
        }
    }

    /// Notes a file-level problem: one that leaves cases uncompared.
    pub fn problem(&mut self, problem: &Problem) {
        match problem {
            Problem::MissingGolden { .. } => self.uncompared += 1,
            Problem::Error { skipped, .. } if *skipped > 0 => self.uncompared += 1,
            _ => {}
        }
    }

    /// The counts made (no commit).
    pub fn finish(self) -> Progress {
        Progress {
            commit: None,
            suites: self.suites,
        }
    }
}

/// A run's records, counted. It asks for a record of every case that is
/// not passing (so an accepted one says whether a rule decided it), and
/// for no detail.
impl Consumer for Tally {
    fn explains(&self) -> bool {
        true
    }
    fn fingerprints(&self) -> bool {
        false
    }
    fn wants_detail(&self, _record: &CaseRecord) -> bool {
        false
    }
    fn wants_passing(&self) -> bool {
        false
    }
    fn counted(
        &mut self,
        op: Option<&str>,
        unknown_op: bool,
        state: CaseState,
        cases: u64,
    ) -> io::Result<()> {
        // Only passing cases come counted, since every other is explained.
        self.count(key_of(op, unknown_op), state, Acceptance::Entry, cases);
        Ok(())
    }
    fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        if let Some(suite) = &file.suite {
            self.suite(Some(suite));
        }
        Ok(())
    }
    fn case(&mut self, record: CaseRecord) -> io::Result<()> {
        let acceptance = match record.rule {
            Some(_) => Acceptance::Rule,
            None => Acceptance::Entry,
        };
        self.count(op_key(&record), record.state, acceptance, 1);
        Ok(())
    }
    fn problem(&mut self, problem: Problem) -> io::Result<()> {
        Tally::problem(self, &problem);
        Ok(())
    }
    fn warning(&mut self, _text: &str) -> io::Result<()> {
        Ok(())
    }
    fn end_file(&mut self) -> io::Result<()> {
        Ok(())
    }
    fn orphaned_entry(&mut self, _entry: &Entry) {}
    fn rule_finding(&mut self, _finding: &RuleFinding) {}
}

/// The ledger entries of each suite (by name; [`NO_SUITE`] for a report
/// without suites), for a report that does not list them itself.
pub type SuiteEntries = HashMap<String, HashSet<CaseId>>;

/// What reading a report found besides the counts.
#[derive(Debug, Default)]
pub struct FromReport {
    /// The counts.
    pub progress: Progress,
    /// Suites with accepted cases whose ledger entries neither the report
    /// nor `entries` gave: their accepted cases all count as entries'.
    pub unsplit: Vec<String>,
    /// The case files the report could not compare.
    pub uncompared: usize,
}

/// The counts of the JSON report at `path`. A case the report accepts is
/// an entry's when its ledger has an entry for it (entries decide before
/// rules), else a rule's: the ledger is the one the report's head lists,
/// else the suite's in `entries`.
pub fn from_report(path: &Path, entries: &SuiteEntries) -> Result<FromReport, InputError> {
    let (mut reader, head) = ReportReader::open(path)?;
    let listed: Option<HashSet<CaseId>> = head.ledger.as_ref().map(|ledger| {
        ledger
            .entries
            .iter()
            .map(|entry| entry.id.clone())
            .collect()
    });
    let mut tally = Tally::new();
    for suite in &head.suites {
        tally.suite(Some(suite));
    }
    if head.suites.is_empty() {
        tally.suite(None);
    }
    let mut unsplit = Vec::new();
    while let Some(item) = reader.next_item()? {
        match item {
            Item::File(file) => {
                tally.suite(file.info.suite.as_deref());
                if let Some(problem) = &file.problem {
                    tally.problem(problem);
                }
            }
            Item::Case(record) => {
                let acceptance = if record.state != CaseState::Accepted {
                    Acceptance::Entry
                } else {
                    let known = listed.as_ref().or_else(|| entries.get(&tally.suite));
                    match known {
                        Some(known) if !known.contains(&record.id) => Acceptance::Rule,
                        Some(_) => Acceptance::Entry,
                        None => {
                            if !unsplit.contains(&tally.suite) {
                                unsplit.push(tally.suite.clone());
                            }
                            Acceptance::Entry
                        }
                    }
                };
                tally.count(op_key(&record), record.state, acceptance, 1);
            }
            _ => {}
        }
    }
    Ok(FromReport {
        uncompared: tally.uncompared,
        progress: tally.finish(),
        unsplit,
    })
}
