//! Shrinking a diverging case while it keeps its signature: the same
//! differing path, or the same failure kind on the same side.

use super::outcome::{case_signature, run_both, Outcome};
use super::runner::BatchOracle;
use super::tree::Node;
use crate::diff::oracle::FailureKind;

/// At most this many oracle timeouts per minimization: each costs the
/// whole `--timeout`, and a hanging case is found by the first.
pub const MAX_TIMEOUTS: usize = 8;

/// A minimized case and what each side gives for it.
#[derive(Debug, Clone)]
pub struct Minimized {
    /// The smallest case found with the wanted signature.
    pub case: Node,
    /// The left side's outcome for it.
    pub left: Outcome,
    /// The right side's.
    pub right: Outcome,
    /// Oracle runs spent (both sides).
    pub runs: usize,
}

/// A case's `op`, or `?`.
pub fn op_of(case: &Node) -> String {
    match case.get("op") {
        Some(Node::String(op, _)) => op.to_string(),
        _ => "?".into(),
    }
}

fn timeouts(left: &Outcome, right: &Outcome) -> usize {
    [left, right]
        .iter()
        .filter(|o| matches!(o, Err(f) if f.kind == FailureKind::Timeout))
        .count()
}

/// Shrinks `case`, whose outcomes `known` have the signature `wanted`:
/// takes the smallest one-step simplification that keeps the signature,
/// round after round, until none does or `max_rounds` is spent.
///
/// Value divergences run each round's candidates as one batch. Failures
/// run candidates one at a time, smallest first, and stop at the first
/// that fails the same way: most candidates of a crashing case crash
/// too, and bisecting a batch of them would cost two runs per candidate.
/// A minimization stops early after [`MAX_TIMEOUTS`] timeouts.
pub fn minimize(
    case: &Node,
    wanted: &str,
    known: (Outcome, Outcome),
    left: &dyn BatchOracle,
    right: &dyn BatchOracle,
    max_rounds: usize,
) -> Minimized {
    let op = op_of(case);
    let failing = known.0.is_err() || known.1.is_err();
    let mut best = Minimized {
        case: case.clone(),
        left: known.0,
        right: known.1,
        runs: 0,
    };
    let mut timed_out = 0;
    for _ in 0..max_rounds {
        // The signature names the op: a candidate must keep it, since a
        // failure (unlike a differing path) could survive a changed op.
        let mut candidates = best.case.simplifications(&["op"]);
        candidates.retain(|candidate| op_of(candidate) == op);
        candidates.sort_by_key(|c| (c.size(), c.to_text().len()));
        candidates.dedup();
        let found = if failing {
            first_alone(
                &candidates,
                &op,
                wanted,
                left,
                right,
                &mut best.runs,
                &mut timed_out,
            )
        } else {
            first_in_batch(
                &candidates,
                &op,
                wanted,
                left,
                right,
                &mut best.runs,
                &mut timed_out,
            )
        };
        match found {
            Some((case, l, r)) => {
                best.case = case;
                best.left = l;
                best.right = r;
            }
            None => break,
        }
        if timed_out >= MAX_TIMEOUTS {
            break;
        }
    }
    best
}

type Found = Option<(Node, Outcome, Outcome)>;

fn first_in_batch(
    candidates: &[Node],
    op: &str,
    wanted: &str,
    left: &dyn BatchOracle,
    right: &dyn BatchOracle,
    runs: &mut usize,
    timed_out: &mut usize,
) -> Found {
    if candidates.is_empty() {
        return None;
    }
    let texts: Vec<Vec<u8>> = candidates.iter().map(Node::to_text).collect();
    let outcomes = run_both(&texts, left, right, false).ok()?;
    *runs += 2 + outcomes.bisect_runs;
    *timed_out += outcomes
        .failed
        .iter()
        .filter(|(_, f)| f.kind == FailureKind::Timeout)
        .count();
    outcomes
        .cases
        .into_iter()
        .zip(candidates)
        .find(|((l, r), _)| case_signature(op, l, r).as_deref() == Some(wanted))
        .map(|((l, r), case)| (case.clone(), l, r))
}

fn first_alone(
    candidates: &[Node],
    op: &str,
    wanted: &str,
    left: &dyn BatchOracle,
    right: &dyn BatchOracle,
    runs: &mut usize,
    timed_out: &mut usize,
) -> Found {
    for candidate in candidates {
        if *timed_out >= MAX_TIMEOUTS {
            return None;
        }
        let outcomes = run_both(&[candidate.to_text()], left, right, false).ok()?;
        *runs += 2;
        let (l, r) = outcomes.cases.into_iter().next()?;
        *timed_out += timeouts(&l, &r);
        if case_signature(op, &l, &r).as_deref() == Some(wanted) {
            return Some((candidate.clone(), l, r));
        }
    }
    None
}
