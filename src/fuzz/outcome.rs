//! What each side gave for each case of a batch. A side that fails on the
//! batch (crash, invalid output, a wrong number of results, timeout) is
//! bisected ([`crate::diff::bisect`]) so that every case still gets its
//! own outcome: its result, or the failure it causes alone.

use crate::diff::bisect::{self, Together};
use crate::diff::oracle::OracleFailure;

use super::divergence::signature;
use super::runner::BatchOracle;

/// One side's outcome for one case.
pub type Outcome = Result<Vec<u8>, OracleFailure>;

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
    /// The sides whose run of the whole batch failed, with that failure.
    pub failed: Vec<(Side, OracleFailure)>,
    /// Oracle runs spent on bisection (both sides; the `[]` checks
    /// included).
    pub bisect_runs: usize,
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

/// A side's run, split into one result per element.
fn elements(oracle: &dyn BatchOracle, batch: &[u8]) -> Result<Vec<Vec<u8>>, OracleFailure> {
    oracle.run(batch).and_then(|out| bisect::elements_of(&out))
}

struct SideOutcomes {
    outcomes: Vec<Outcome>,
    together: Vec<Together>,
    failed: Option<OracleFailure>,
    runs: usize,
}

/// One side over the cases; bisected when the whole batch fails. With
/// `check_broken`, a failing side is first tried on `[]`.
fn one_side(
    texts: &[Vec<u8>],
    oracle: &dyn BatchOracle,
    check_broken: bool,
    side: Side,
) -> Result<SideOutcomes, Broken> {
    let run = |batch: &[u8]| elements(oracle, batch);
    let whole = run(&bisect::batch_of(texts))
        .and_then(|results| bisect::one_per_case(results, texts.len()));
    let failure = match whole {
        Ok(results) => {
            return Ok(SideOutcomes {
                outcomes: results.into_iter().map(Ok).collect(),
                together: Vec::new(),
                failed: None,
                runs: 0,
            })
        }
        Err(failure) => failure,
    };
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
        outcomes: bisection.outcomes,
        together: bisection.together,
        failed: Some(failure),
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
    let left_side = one_side(texts, left, check_broken, Side::Left)?;
    let right_side = one_side(texts, right, check_broken, Side::Right)?;
    let mut together = Vec::new();
    let mut failed = Vec::new();
    for (side, outcomes) in [(Side::Left, &left_side), (Side::Right, &right_side)] {
        together.extend(outcomes.together.iter().cloned().map(|t| (side, t)));
        failed.extend(outcomes.failed.clone().map(|f| (side, f)));
    }
    Ok(BatchOutcomes {
        cases: left_side
            .outcomes
            .into_iter()
            .zip(right_side.outcomes)
            .collect(),
        together,
        failed,
        bisect_runs: left_side.runs + right_side.runs,
    })
}

/// The signature of a case whose sides part ways, or `None` when both
/// gave the same bytes. A failure's signature names its kind and side:
/// `readyTimeoutMs invalid-output (left)`; both sides failing the same
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
    use crate::diff::oracle::FailureKind;

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
        assert_eq!(outcomes.failed[0].0, Side::Left);
        assert!(outcomes.together.is_empty());
        // The `[]` check, then 8 → 4 + 4 → (2 + 2) twice → (1 + 1) twice.
        assert_eq!(outcomes.bisect_runs, 1 + 2 + 4 + 4);
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
