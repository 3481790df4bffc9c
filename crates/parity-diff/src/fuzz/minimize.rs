//! Shrinking a diverging case while it keeps its signature: the same
//! differing path, or the same failure kind on the same side.

use super::batch_oracle::BatchOracle;
use super::outcome::{case_signature, run_both, run_both_unbisected, BatchOutcomes, Outcome};
use super::tree::Node;
use crate::exec::oracle::{FailureKind, OracleFailure};

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

/// A round's candidates: the one-step simplifications of `case` that keep
/// its op, smallest first (fewest nodes, then fewest bytes), each once.
/// The op must stay: a divergence's signature names it, and a failure
/// (unlike a differing path) could survive a changed op.
pub fn candidates(case: &Node, op: &str) -> Vec<Node> {
    let mut candidates = case.simplifications(&["op"]);
    candidates.retain(|candidate| op_of(candidate) == op);
    candidates.sort_by_key(|c| (c.size(), c.to_text().len()));
    candidates.dedup();
    candidates
}

/// Shrinks `case` round after round, by the same candidates as
/// [`minimize`]: `first_kept` is given each round's [`candidates`] and
/// names the first that still has the property that matters (a
/// coverage-guided fuzzer's: it still reaches a span), or none, which
/// ends the shrinking; so does `max_rounds`. Only candidates strictly
/// smaller than the case so far are offered (fewer nodes, fewer bytes,
/// or the same and before it in byte order), so a number never goes back
/// and forth between `0` and `1` while rounds cost runs.
pub fn shrink(
    case: &Node,
    max_rounds: usize,
    mut first_kept: impl FnMut(&[Node]) -> Option<usize>,
) -> Node {
    let op = op_of(case);
    let order = |case: &Node| {
        let text = case.to_text();
        (case.size(), text.len(), text)
    };
    let mut best = case.clone();
    for _ in 0..max_rounds {
        let now = order(&best);
        let mut candidates = candidates(&best, &op);
        candidates.retain(|candidate| order(candidate) < now);
        if candidates.is_empty() {
            break;
        }
        match first_kept(&candidates) {
            Some(at) if at < candidates.len() => best = candidates[at].clone(),
            _ => break,
        }
    }
    best
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
/// Value divergences run each round's candidates as one batch. So do
/// failures, as long as each side prints one element per candidate (a
/// port that prints `Infinity` for some): no bisection is needed then.
/// Once a side fails on a batch as a whole, failures run candidates one
/// at a time, smallest first, and stop at the first that fails the same
/// way: most candidates of a crashing case crash too, and bisecting a
/// batch of them would cost two runs per candidate.
/// A minimization stops early after [`MAX_TIMEOUTS`] timeouts, and
/// before a round once it has spent `max_runs` oracle runs.
pub fn minimize(
    case: &Node,
    wanted: &str,
    known: (Outcome, Outcome),
    (left, right): (&dyn BatchOracle, &dyn BatchOracle),
    max_rounds: usize,
    max_runs: Option<usize>,
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
    // Whether a failure's candidates may run as one batch: yes while each
    // side prints one element per candidate (a result that is not JSON
    // fails its own candidate), no once a side fails on a batch whole.
    let mut batches_judge = true;
    for _ in 0..max_rounds {
        // A round may overrun by its own runs: two, or one per
        // candidate when failures run alone.
        if max_runs.is_some_and(|max| best.runs >= max) {
            break;
        }
        let candidates = candidates(&best.case, &op);
        let mut judged = None;
        if failing && batches_judge {
            best.runs += 2;
            match first_judged(&candidates, &op, wanted, left, right) {
                Ok(found) => judged = Some(found),
                // A side failed on the batch as a whole: it would have to
                // be bisected, so candidates run alone from now on.
                Err(failure) => {
                    timed_out += usize::from(failure.kind == FailureKind::Timeout);
                    batches_judge = false;
                }
            }
        }
        let runs = (&mut best.runs, &mut timed_out);
        let found = match judged {
            Some(found) => found,
            None if failing => first_alone(&candidates, &op, wanted, left, right, runs),
            None => first_in_batch(&candidates, &op, wanted, left, right, runs),
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

/// How many runs and timeouts a minimization spent so far.
type Spent<'a> = (&'a mut usize, &'a mut usize);

fn first_in_batch(
    candidates: &[Node],
    op: &str,
    wanted: &str,
    left: &dyn BatchOracle,
    right: &dyn BatchOracle,
    (runs, timed_out): Spent,
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
        .filter(|run| run.failure.kind == FailureKind::Timeout)
        .count();
    first_with(outcomes, candidates, op, wanted)
}

/// The first of a round's candidates, run as one batch without
/// bisection, with the wanted signature (`None` when none has it), or
/// how a side failed on the batch as a whole.
fn first_judged(
    candidates: &[Node],
    op: &str,
    wanted: &str,
    left: &dyn BatchOracle,
    right: &dyn BatchOracle,
) -> Result<Found, OracleFailure> {
    if candidates.is_empty() {
        return Ok(None);
    }
    let texts: Vec<Vec<u8>> = candidates.iter().map(Node::to_text).collect();
    let outcomes = run_both_unbisected(&texts, left, right)?;
    Ok(first_with(outcomes, candidates, op, wanted))
}

/// The first candidate whose outcomes have the wanted signature.
fn first_with(outcomes: BatchOutcomes, candidates: &[Node], op: &str, wanted: &str) -> Found {
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
    (runs, timed_out): Spent,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn text(case: &Node) -> String {
        String::from_utf8(case.to_text()).unwrap()
    }

    #[test]
    fn shrink_keeps_the_op_and_the_property_and_ends() {
        let case = Node::parse(br#"{"op":"a","keep":[7,2,3],"drop":"xyz"}"#).unwrap();
        let mut rounds = 0;
        // The property: `keep` is an array holding a number other than 0.
        let shrunk = shrink(&case, 100, |candidates| {
            rounds += 1;
            assert!(candidates.iter().all(|c| op_of(c) == "a"));
            candidates.iter().position(|c| match c.get("keep") {
                Some(Node::Array(items)) => items.iter().any(|i| *i != Node::int(0)),
                _ => false,
            })
        });
        assert_eq!(text(&shrunk), r#"{"op":"a","keep":[1]}"#);
        // Each round took a strictly smaller case, the last found none.
        assert!(rounds < 10, "{rounds} rounds");
        assert_eq!(text(&shrink(&case, 0, |_| Some(0))), text(&case));
    }
}
