//! One case against its golden, wherever its three parts come from (a
//! case file in memory, or streams read in step): its record, or only
//! its count when the report does not need the record.

use std::io;

use super::cases::Case;
use crate::diff::compare::{compare_elements, Comparison, Verdict};
use crate::diff::identity::{CaseId, CaseKey};
use crate::diff::ledger::Ledger;
use crate::diff::record::build::{self, Compared};
use crate::diff::record::CaseState;
use crate::diff::report::Consumer;

/// One case to compare: its position in the case file, what the case
/// file says of it (when known), and its two elements.
#[derive(Debug, Clone, Copy)]
pub struct Pair<'a> {
    /// Its position in the case file.
    pub index: usize,
    /// The case, when the case file has it.
    pub case: Option<Case<'a>>,
    /// The golden's element.
    pub golden: Option<&'a [u8]>,
    /// The result's element.
    pub actual: Option<&'a [u8]>,
}

/// The identity of a case whose case file is unknown: its position.
pub fn position_id(file: &str, index: usize) -> CaseId {
    CaseId {
        file: file.to_owned(),
        key: CaseKey::Hash(index.to_string()),
    }
}

/// One case against its golden: its record (or its count) to `consumer`.
pub fn compare_case<C: Consumer>(
    consumer: &mut C,
    file: &str,
    pair: Pair<'_>,
    ledger: Option<&Ledger>,
    semantic: bool,
) -> io::Result<()> {
    let Pair {
        index,
        case,
        golden,
        actual,
    } = pair;
    let comparison = match (golden, actual) {
        (Some(g), Some(a)) => compare_elements(g, a),
        (None, None) => return Ok(()),
        (g, _) => Comparison {
            verdict: if g.is_some() {
                Verdict::Missing
            } else {
                Verdict::Extra
            },
            golden: None,
            actual: None,
        },
    };
    let item = case.map(|case| case.item);
    let op = item.and_then(|item| item.op.as_deref());
    if !consumer.wants_passing() {
        // Most cases of a run pass: a report that does not list them
        // only counts them, unless the ledger expects a divergence;
        // and one that explains nothing (--quiet) only counts failures.
        let has_entry = ledger.is_some_and(|ledger| match item {
            Some(item) => ledger.get(&item.id).is_some(),
            None => ledger.get(&position_id(file, index)).is_some(),
        });
        if matches!(comparison.verdict, Verdict::Identical) && !has_entry {
            return consumer.counted(op, CaseState::Passed);
        }
        if ledger.is_none() && !consumer.explains() {
            let passes = comparison.verdict.passes(semantic);
            let state = if passes {
                CaseState::Passed
            } else {
                CaseState::Failed
            };
            return consumer.counted(op, state);
        }
    }
    let compared = Compared {
        index,
        line: item.map(|item| item.line),
        id: item.map_or_else(|| position_id(file, index), |item| item.id.clone()),
        op: item.and_then(|item| item.op.clone()),
        raw_case: case.map(|case| case.raw),
        golden,
        actual,
        comparison,
    };
    let needs = build::Needs {
        semantic,
        explain: consumer.explains(),
        fingerprint: consumer.fingerprints(),
        passing: consumer.wants_passing(),
    };
    let record = build::record(file, compared, needs, ledger, |record| {
        consumer.wants_detail(record)
    });
    consumer.case(record)
}
