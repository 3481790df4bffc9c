//! What each side gave for each case of a batch. A side whose output
//! has one element per case, some of them not JSON, fails those cases
//! alone, without another run. A side that fails on the batch otherwise
//! (crash, an array whose elements cannot be told apart, a wrong number
//! of results, timeout) is bisected ([`crate::exec::bisect`]) so that
//! every case still gets its own outcome: its result, or the failure it
//! causes alone.

use crate::exec::bisect::{self, Together};
use crate::exec::oracle::{results, FailureKind, OracleFailure};

use super::batch_oracle::BatchOracle;
use super::divergence::signature;

/// One side's outcome for one case.
pub type Outcome = bisect::Outcome;

/// Which implementation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// `--left`.
    Left,
    /// `--right` (our own oracle by default).
    Right,
}

impl Side {
    /// `left` or `right`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Right => "right",
        }
    }
}

/// Both sides' outcomes for a batch.
#[derive(Debug)]
pub struct BatchOutcomes {
    /// Per case: (left, right).
    pub cases: Vec<(Outcome, Outcome)>,
    /// Ranges of cases on which a side failed only together.
    pub together: Vec<(Side, Together)>,
    /// The sides whose run of the whole batch failed.
    pub failed: Vec<FailedRun>,
    /// Oracle runs spent on bisection (both sides; the `[]` checks
    /// included).
    pub bisect_runs: usize,
}

/// A side's run of a whole batch that failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailedRun {
    /// Which side.
    pub side: Side,
    /// How it failed.
    pub failure: OracleFailure,
    /// Whether it was bisected; if not, its output had one element per
    /// case, and the elements that are not JSON failed their cases.
    pub bisected: bool,
}

/// A side that fails even on the empty batch `[]`: it cannot give any
/// case a result, so bisecting it would only cost runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broken {
    /// Which side.
    pub side: Side,
    /// How it fails on `[]`.
    pub failure: OracleFailure,
}

/// A side's run, split into one outcome per element.
fn elements(oracle: &dyn BatchOracle, batch: &[u8]) -> Result<Vec<Outcome>, OracleFailure> {
    oracle.run(batch).and_then(|out| bisect::outcomes_of(&out))
}

struct SideOutcomes {
    outcomes: Vec<Outcome>,
    together: Vec<Together>,
    /// How the batch's run failed, and whether it was bisected.
    failed: Option<(OracleFailure, bool)>,
    runs: usize,
}

/// One side's run of the whole batch: one outcome per case (a case whose
/// element is not JSON fails alone), or how the run failed as a whole.
fn whole_batch(texts: &[Vec<u8>], oracle: &dyn BatchOracle) -> Result<SideOutcomes, OracleFailure> {
    let outcomes = elements(oracle, &bisect::batch_of(texts))
        .and_then(|results| bisect::one_per_case(results, texts.len()))?;
    let invalid = outcomes.iter().filter(|outcome| outcome.is_err()).count();
    let failed = (invalid > 0).then(|| (results::invalid_elements(invalid, outcomes.len()), false));
    Ok(SideOutcomes {
        outcomes,
        together: Vec::new(),
        failed,
        runs: 0,
    })
}

/// One side over the cases; bisected when the whole batch fails. With
/// `check_broken`, a failing side is first tried on `[]`.
fn one_side(
    texts: &[Vec<u8>],
    oracle: &dyn BatchOracle,
    (check_broken, known): (bool, &dyn Fn(FailureKind) -> bool),
    side: Side,
) -> Result<SideOutcomes, Broken> {
    let failure = match whole_batch(texts, oracle) {
        Ok(outcomes) => return Ok(outcomes),
        Err(failure) => failure,
    };
    if known(failure.kind) {
        // Every case of the batch is of an op whose rule accepts such a
        // failure: whichever crashed, the ledger knows it. Each case gets
        // the batch's failure, and nothing is bisected.
        return Ok(SideOutcomes {
            outcomes: texts.iter().map(|_| Err(failure.clone())).collect(),
            together: Vec::new(),
            failed: Some((failure, false)),
            runs: 0,
        });
    }
    let run = |batch: &[u8]| elements(oracle, batch);
    let mut checks = 0;
    if check_broken {
        if texts.is_empty() {
            return Err(Broken { side, failure });
        }
        checks = 1;
        if let Err(failure) = run(b"[]").and_then(|results| bisect::one_per_case(results, 0)) {
            return Err(Broken { side, failure });
        }
    }
    let bisection = bisect::bisect(texts, failure.clone(), run);
    Ok(SideOutcomes {
        outcomes: bisect::settled(bisection.outcomes),
        together: bisection.together,
        failed: Some((failure, true)),
        runs: bisection.runs + checks,
    })
}

/// Runs the cases through both sides. `check_broken`: whether a side
/// that fails on the batch is first tried on `[]` (the fuzzing loop
/// does; minimization, which runs cases already known to run, does not).
pub fn run_both(
    texts: &[Vec<u8>],
    left: &dyn BatchOracle,
    right: &dyn BatchOracle,
    check_broken: bool,
) -> Result<BatchOutcomes, Broken> {
    run_both_knowing(texts, (left, right), check_broken, &|_| false)
}

/// [`run_both`], where a failure of the right side's whole batch of a
/// kind `right_known` says the ledger accepts for every case of the
/// batch is known without bisection (`fuzz` with a ledger).
pub fn run_both_knowing(
    texts: &[Vec<u8>],
    (left, right): (&dyn BatchOracle, &dyn BatchOracle),
    check_broken: bool,
    right_known: &dyn Fn(FailureKind) -> bool,
) -> Result<BatchOutcomes, Broken> {
    let left_side = one_side(texts, left, (check_broken, &|_| false), Side::Left)?;
    let right_side = one_side(texts, right, (check_broken, right_known), Side::Right)?;
    Ok(both(left_side, right_side))
}

/// Runs the cases through both sides once each, bisecting nothing: how
/// a side's run failed when it fails as a whole (elements that are not
/// JSON fail their own cases, and that is no failure of the run).
pub fn run_both_unbisected(
    texts: &[Vec<u8>],
    left: &dyn BatchOracle,
    right: &dyn BatchOracle,
) -> Result<BatchOutcomes, OracleFailure> {
    let left_side = whole_batch(texts, left)?;
    let right_side = whole_batch(texts, right)?;
    Ok(both(left_side, right_side))
}

fn both(left_side: SideOutcomes, right_side: SideOutcomes) -> BatchOutcomes {
    let mut together = Vec::new();
    let mut failed = Vec::new();
    for (side, outcomes) in [(Side::Left, &left_side), (Side::Right, &right_side)] {
        together.extend(outcomes.together.iter().cloned().map(|t| (side, t)));
        failed.extend(
            outcomes
                .failed
                .clone()
                .map(|(failure, bisected)| FailedRun {
                    side,
                    failure,
                    bisected,
                }),
        );
    }
    BatchOutcomes {
        cases: left_side
            .outcomes
            .into_iter()
            .zip(right_side.outcomes)
            .collect(),
        together,
        failed,
        bisect_runs: left_side.runs + right_side.runs,
    }
}

/// The signature of a case whose sides part ways, or `None` when both
/// gave the same bytes. A failure's signature names its kind and side:
/// `round invalid-output (left)`; both sides failing the same
/// way is `(both)`.
pub fn case_signature(op: &str, left: &Outcome, right: &Outcome) -> Option<String> {
    match (left, right) {
        (Ok(l), Ok(r)) => (l != r).then(|| signature(op, l, r)),
        (Err(l), Ok(_)) => Some(format!("{op} {} (left)", l.kind)),
        (Ok(_), Err(r)) => Some(format!("{op} {} (right)", r.kind)),
        (Err(l), Err(r)) if l.kind == r.kind => Some(format!("{op} {} (both)", l.kind)),
        (Err(l), Err(r)) => Some(format!("{op} {} (left), {} (right)", l.kind, r.kind)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::oracle::FailureKind;

    fn fails(kind: FailureKind) -> Outcome {
        Err(OracleFailure::new(kind, "x"))
    }

    #[test]
    fn signatures_name_the_failure_and_its_side() {
        let ok = |text: &str| -> Outcome { Ok(text.as_bytes().to_vec()) };
        assert_eq!(case_signature("op", &ok("1"), &ok("1")), None);
        assert_eq!(
            case_signature("op", &ok(r#"{"a":1}"#), &ok(r#"{"a":2}"#)).as_deref(),
            Some("op /a")
        );
        assert_eq!(
            case_signature("op", &fails(FailureKind::InvalidOutput), &ok("1")).as_deref(),
            Some("op invalid-output (left)")
        );
        assert_eq!(
            case_signature("op", &ok("1"), &fails(FailureKind::Timeout)).as_deref(),
            Some("op timeout (right)")
        );
        assert_eq!(
            case_signature("op", &fails(FailureKind::Crash), &fails(FailureKind::Crash)).as_deref(),
            Some("op crash (both)")
        );
        assert_eq!(
            case_signature(
                "op",
                &fails(FailureKind::Crash),
                &fails(FailureKind::Timeout)
            )
            .as_deref(),
            Some("op crash (left), timeout (right)")
        );
    }

    /// Doubles numbers; prints `Infinity` for 3 and nothing for 5.
    fn port(batch: &[u8]) -> Result<Vec<u8>, String> {
        let numbers: Vec<u64> = serde_json::from_slice(batch).unwrap();
        if numbers.contains(&5) {
            return Ok(Vec::new());
        }
        let texts: Vec<String> = numbers
            .iter()
            .map(|&n| {
                if n == 3 {
                    "Infinity".into()
                } else {
                    (n * 2).to_string()
                }
            })
            .collect();
        Ok(format!("[{}]", texts.join(",")).into_bytes())
    }

    fn doubling(batch: &[u8]) -> Result<Vec<u8>, String> {
        let numbers: Vec<u64> = serde_json::from_slice(batch).unwrap();
        let texts: Vec<String> = numbers.iter().map(|n| (n * 2).to_string()).collect();
        Ok(format!("[{}]", texts.join(",")).into_bytes())
    }

    #[test]
    fn a_failing_side_is_bisected_and_the_other_is_run_once() {
        let texts: Vec<Vec<u8>> = (0..8).map(|n: u32| n.to_string().into_bytes()).collect();
        let outcomes = run_both(&texts, &port, &doubling, true).unwrap();
        let left: Vec<Option<FailureKind>> = outcomes
            .cases
            .iter()
            .map(|(l, _)| l.as_ref().err().map(|f| f.kind))
            .collect();
        let invalid = Some(FailureKind::InvalidOutput);
        assert_eq!(left, [None, None, None, invalid, None, invalid, None, None]);
        assert!(outcomes.cases.iter().all(|(_, r)| r.is_ok()));
        assert_eq!(outcomes.cases[7].0, Ok(b"14".to_vec()));
        assert_eq!(outcomes.failed.len(), 1);
        assert_eq!(outcomes.failed[0].side, Side::Left);
        assert!(outcomes.failed[0].bisected);
        assert!(outcomes.together.is_empty());
        // The `[]` check, then 8 → 4 + 4: the half holding 3 prints one
        // element per case (`Infinity` for 3) and is settled; the other
        // → 2 + 2 → 1 + 1.
        assert_eq!(outcomes.bisect_runs, 1 + 2 + 2 + 2);
    }

    #[test]
    fn results_that_are_not_json_fail_their_cases_without_a_rerun() {
        let runs = std::cell::Cell::new(0);
        let counted = |batch: &[u8]| {
            runs.set(runs.get() + 1);
            port(batch)
        };
        // 3 gets `Infinity`; no 5, so the array has one element per case.
        let texts: Vec<Vec<u8>> = [0u32, 1, 2, 3, 4, 3]
            .iter()
            .map(|n| n.to_string().into_bytes())
            .collect();
        let outcomes = run_both(&texts, &counted, &doubling, true).unwrap();
        assert_eq!(runs.get(), 1);
        assert_eq!(outcomes.bisect_runs, 0);
        let left: Vec<Result<&[u8], &str>> = outcomes
            .cases
            .iter()
            .map(|(l, _)| l.as_deref().map_err(|f| f.message.as_str()))
            .collect();
        let infinity = Err("the oracle printed `Infinity`, which is not JSON");
        assert_eq!(
            left,
            [
                Ok(&b"0"[..]),
                Ok(b"2"),
                Ok(b"4"),
                infinity,
                Ok(b"8"),
                infinity
            ]
        );
        assert_eq!(
            outcomes.failed,
            [FailedRun {
                side: Side::Left,
                failure: OracleFailure::new(
                    FailureKind::InvalidOutput,
                    "2 of the oracle's 6 results are not JSON"
                ),
                bisected: false,
            }]
        );
        // Unbisected, the same; a run that fails whole is an error.
        let again = run_both_unbisected(&texts, &counted, &doubling).unwrap();
        assert_eq!(again.cases, outcomes.cases);
        assert_eq!(runs.get(), 2);
        let five = vec![b"5".to_vec()];
        let failure = run_both_unbisected(&five, &counted, &doubling).unwrap_err();
        assert_eq!(failure.message, "the oracle printed nothing on stdout");
        assert_eq!(runs.get(), 3);
    }

    #[test]
    fn a_side_that_fails_on_the_empty_batch_is_broken() {
        let texts = vec![b"1".to_vec()];
        let nothing = |_: &[u8]| -> Result<Vec<u8>, String> { Ok(Vec::new()) };
        let broken = run_both(&texts, &doubling, &nothing, true).unwrap_err();
        assert_eq!(broken.side, Side::Right);
        assert_eq!(broken.failure.kind, FailureKind::InvalidOutput);
        // Without the check, the one case just fails.
        let outcomes = run_both(&texts, &doubling, &nothing, false).unwrap();
        assert!(outcomes.cases[0].1.is_err());
    }
}
