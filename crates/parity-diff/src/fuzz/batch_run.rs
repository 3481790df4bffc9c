//! One batch of a fuzzing session: drawn from the source, run through
//! both sides, on whichever thread the session gives it.

use std::time::{Duration, Instant};

use super::batch_oracle::BatchOracle;
use super::known::accepts_failure;
use super::minimize::op_of;
use super::outcome::{run_both_knowing, BatchOutcomes, Broken};
use super::source::CaseSource;
use super::tree::Node;
use crate::ledger::Ledger;

/// The two sides a session compares.
pub(super) type Sides<'a> = (&'a (dyn BatchOracle + Sync), &'a (dyn BatchOracle + Sync));

/// A batch's cases, both sides' outcomes for them and the time they
/// took, or why the source gave no batch.
pub(super) type Ran = Result<(Vec<Node>, Result<BatchOutcomes, Broken>, Duration), String>;

/// Draws batch `number` (`size` cases from case `first`) from the source
/// and runs it through both sides.
pub(super) fn run_batch(
    source: &dyn CaseSource,
    ledger: Option<&Ledger>,
    (left, right): Sides<'_>,
    (number, first, size): (u64, usize, usize),
) -> Ran {
    let cases = source.batch(number, first, size)?;
    let texts: Vec<Vec<u8>> = cases.iter().map(Node::to_text).collect();
    let ran = Instant::now();
    // A failure every case's op has a rule for is known as it is.
    let ops: Vec<String> = cases.iter().map(op_of).collect();
    let right_known = |kind| {
        ledger.is_some_and(|ledger| {
            !ops.is_empty() && ops.iter().all(|op| accepts_failure(ledger, op, kind))
        })
    };
    let outcomes = run_both_knowing(&texts, (left, right), true, &right_known);
    Ok((cases, outcomes, ran.elapsed()))
}
