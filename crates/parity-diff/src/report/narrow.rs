//! A record made for the widest report, cut down to what one format
//! would have been given had it been the run's only report.
//!
//! A run makes each record as its consumer asks ([`Consumer`]'s needs):
//! a human report is not handed passing cases, nor the details of a
//! failure whose group is full. When one run writes several reports
//! (`--report FORMAT=PATH`), or a saved JSON report is rendered again
//! (`parity-diff report`), the records come as the widest of them needs
//! (the JSON report's: everything), and each other format is handed
//! them as [`record::build`](crate::report::record::build) would have made them
//! for it alone, so that its output is byte for byte the one a run in
//! that format alone writes.

use std::io::{self, Write};

use super::{Consumer, Sink};
use crate::report::record::{CaseRecord, CaseState, VerdictKind};

impl<W: Write> Sink<W> {
    /// Takes a record made for a report that needs as much as this one
    /// or more (`ledger`: whether the run weighed it against a ledger),
    /// as this sink alone would have been given it: counted only, or a
    /// record with no more than it asks for.
    pub fn take_wide(&mut self, mut record: CaseRecord, ledger: bool) -> io::Result<()> {
        // An oracle failure's record is made whole whatever the report
        // (its input and stderr are all it has to show).
        if record.verdict.is_oracle_failure() {
            return self.case(record);
        }
        let (op, unknown_op) = (record.op.clone(), record.unknown_op);
        if !self.wants_passing() {
            // As judge::report_pair: an identical case without an entry
            // is only counted, and without a ledger nor explanations
            // every case is.
            if record.verdict == VerdictKind::Identical && record.state == CaseState::Passed {
                return self.counted(op.as_deref(), unknown_op, CaseState::Passed, 1);
            }
            if !ledger && !self.explains() {
                let state = if record.passes() {
                    CaseState::Passed
                } else {
                    CaseState::Failed
                };
                return self.counted(op.as_deref(), unknown_op, state, 1);
            }
        }
        if !self.fingerprints() && !ledger {
            record.fingerprint = None;
        }
        let unexplained = !self.explains() || (record.passes() && !self.wants_passing());
        if (record.verdict == VerdictKind::Identical && record.state == CaseState::Passed)
            || unexplained
        {
            record.signature = None;
            record.summary = record.verdict.name().to_owned();
            record.thrown = None;
            return self.case(without_explanation(without_texts(record)));
        }
        if !record.passes() && !self.wants_detail(&record) {
            record = without_explanation(without_texts(record));
        } else if record.passes() {
            record = without_texts(record);
        }
        self.case(record)
    }
}

/// The record without the masked input and elements a detail adds.
fn without_texts(mut record: CaseRecord) -> CaseRecord {
    record.input = None;
    record.golden = None;
    record.actual = None;
    record.stderr = None;
    record
}

/// The record without the paths and reasons an explanation adds.
fn without_explanation(mut record: CaseRecord) -> CaseRecord {
    record.paths = Vec::new();
    record.total_paths = 0;
    record.reasons = Vec::new();
    record.total_reasons = 0;
    record.note = None;
    record
}
