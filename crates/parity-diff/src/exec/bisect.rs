//! When an oracle fails on a batch, which cases cause it.
//!
//! An oracle that crashes, hangs or prints something other than one
//! result per case gives no result for any case of the batch. Bisection
//! turns that into a verdict per case: the batch is halved, each half run
//! on its own, and every half that fails is halved again, down to single
//! cases. A case that fails alone gets the failure it causes alone; every
//! other case gets its result from the smallest batch that passed.
//!
//! Cost: each halving runs both halves (both results are needed), so one
//! bad case among `n` costs `2 ⌈log2 n⌉` runs after the batch's own: 20
//! for 1 000 cases. `k` bad cases cost at most about `2k ⌈log2 (n/k)⌉ +
//! 2k` runs, and never more than `2n - 2`. A run that times out costs the
//! timeout, so a hanging case costs `⌈log2 n⌉` timeouts.
//!
//! A run whose output has one element per case, some of which are not
//! JSON, is no failure of the batch: each such element is its own case's
//! failure, and bisection settles the others' with their results
//! ([`outcomes_of`]). Only a run that crashes, times out, or prints an
//! array whose elements cannot be told apart, or whose count is wrong,
//! is bisected.
//!
//! Cases that fail only together: when a batch fails but both its halves
//! pass (a port that leaks state from one case into a later one, fails
//! on batches above some size, or fails at random), no single case is to
//! blame. Those cases keep the results their halves gave, and the range
//! is listed in [`Bisection::together`] with the failure of the whole:
//! callers must report it, since those results were never produced in
//! one run with the rest. Bisection does not search further inside such
//! a range (that would cost a run per subset tried).

use std::ops::Range;

use crate::exec::oracle::results::{read_results, Element};
use crate::exec::oracle::{FailureKind, OracleFailure};

/// Cases that fail together although each half of them passes alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Together {
    /// Their positions in the batch.
    pub cases: Range<usize>,
    /// How the oracle failed on all of them at once.
    pub failure: OracleFailure,
}

/// The outcome of every case of a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bisection<T> {
    /// Per case, in order: its result, or the failure it causes alone.
    pub outcomes: Vec<Result<T, OracleFailure>>,
    /// Ranges that fail only together (see the module's documentation).
    pub together: Vec<Together>,
    /// How many times the oracle ran (the whole batch's run included
    /// only when [`run_bisected`] made it).
    pub runs: usize,
}

impl<T> Bisection<T> {
    /// How many cases fail alone.
    pub fn failed(&self) -> usize {
        self.outcomes.iter().filter(|o| o.is_err()).count()
    }
}

/// The batch of some cases: a JSON array of their bytes, in order.
pub fn batch_of<C: AsRef<[u8]>>(cases: &[C]) -> Vec<u8> {
    let length = cases.iter().map(|c| c.as_ref().len() + 1).sum::<usize>();
    let mut batch = Vec::with_capacity(length + 2);
    batch.push(b'[');
    for (at, case) in cases.iter().enumerate() {
        if at > 0 {
            batch.push(b',');
        }
        batch.extend_from_slice(case.as_ref());
    }
    batch.push(b']');
    batch
}

/// One case's outcome: its result's bytes, or how the oracle failed on it.
pub type Outcome = Result<Vec<u8>, OracleFailure>;

/// An oracle's stdout as one outcome per element (see
/// [`read_results`]): an element that is not JSON fails alone, and
/// only an output whose elements cannot be told apart fails whole.
pub fn outcomes_of(output: &[u8]) -> Result<Vec<Outcome>, OracleFailure> {
    Ok(outcomes_in(output, read_results(output)?))
}

/// The outcomes of an output's elements, read by [`read_results`].
pub fn outcomes_in(output: &[u8], elements: Vec<Element>) -> Vec<Outcome> {
    elements
        .into_iter()
        .map(|element| element.map(|span| output[span].to_vec()))
        .collect()
}

/// The outcome of each case of a bisection whose runs gave outcomes per
/// element ([`outcomes_of`]): the failure a case causes alone, or its
/// own element's.
pub fn settled(outcomes: Vec<Result<Outcome, OracleFailure>>) -> Vec<Outcome> {
    outcomes.into_iter().map(|outcome| outcome?).collect()
}

/// The results of a batch of `cases` cases, if there is one per case: a
/// different count is `invalid-output`.
pub fn one_per_case<T>(results: Vec<T>, cases: usize) -> Result<Vec<T>, OracleFailure> {
    if results.len() == cases {
        return Ok(results);
    }
    Err(OracleFailure::new(
        FailureKind::InvalidOutput,
        format!(
            "the oracle printed {} result{} for {cases} case{}",
            results.len(),
            if results.len() == 1 { "" } else { "s" },
            if cases == 1 { "" } else { "s" },
        ),
    ))
}

fn run_checked<T, F>(run: &mut F, batch: &[u8], cases: usize) -> Result<Vec<T>, OracleFailure>
where
    F: FnMut(&[u8]) -> Result<Vec<T>, OracleFailure>,
{
    one_per_case(run(batch)?, cases)
}

/// Runs all cases as one batch, and bisects when that fails. `run` turns
/// a batch (a JSON array) into its result elements, or fails.
pub fn run_bisected<C, T, F>(cases: &[C], mut run: F) -> Bisection<T>
where
    C: AsRef<[u8]>,
    F: FnMut(&[u8]) -> Result<Vec<T>, OracleFailure>,
{
    if cases.is_empty() {
        return Bisection {
            outcomes: Vec::new(),
            together: Vec::new(),
            runs: 0,
        };
    }
    match run_checked(&mut run, &batch_of(cases), cases.len()) {
        Ok(results) => Bisection {
            outcomes: results.into_iter().map(Ok).collect(),
            together: Vec::new(),
            runs: 1,
        },
        Err(failure) => {
            let mut bisection = bisect(cases, failure, run);
            bisection.runs += 1;
            bisection
        }
    }
}

/// Bisects a batch already known to fail with `failure` (the caller ran
/// it, perhaps from the case file's own bytes). `runs` counts the runs
/// made here.
pub fn bisect<C, T, F>(cases: &[C], failure: OracleFailure, mut run: F) -> Bisection<T>
where
    C: AsRef<[u8]>,
    F: FnMut(&[u8]) -> Result<Vec<T>, OracleFailure>,
{
    let mut state = State {
        cases,
        outcomes: (0..cases.len()).map(|_| None).collect(),
        together: Vec::new(),
        runs: 0,
    };
    if !cases.is_empty() {
        state.split(0..cases.len(), failure, &mut run);
    }
    Bisection {
        outcomes: state
            .outcomes
            .into_iter()
            .map(|outcome| outcome.expect("bisection settles every case"))
            .collect(),
        together: state.together,
        runs: state.runs,
    }
}

struct State<'a, C, T> {
    cases: &'a [C],
    outcomes: Vec<Option<Result<T, OracleFailure>>>,
    together: Vec<Together>,
    runs: usize,
}

impl<C: AsRef<[u8]>, T> State<'_, C, T> {
    /// Settles a range known to fail with `failure`. The depth is
    /// `log2` of the batch's size, so recursion is safe.
    fn split<F>(&mut self, range: Range<usize>, failure: OracleFailure, run: &mut F)
    where
        F: FnMut(&[u8]) -> Result<Vec<T>, OracleFailure>,
    {
        if range.len() == 1 {
            self.outcomes[range.start] = Some(Err(failure));
            return;
        }
        let middle = range.start + range.len() / 2;
        let mut passed = 0;
        for half in [range.start..middle, middle..range.end] {
            let cases = &self.cases[half.clone()];
            self.runs += 1;
            match run_checked(run, &batch_of(cases), cases.len()) {
                Ok(results) => {
                    passed += 1;
                    for (at, result) in half.zip(results) {
                        self.outcomes[at] = Some(Ok(result));
                    }
                }
                Err(failure) => self.split(half, failure, run),
            }
        }
        if passed == 2 {
            self.together.push(Together {
                cases: range,
                failure,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// Cases `0`, `1`, … as JSON numbers.
    fn cases(n: usize) -> Vec<Vec<u8>> {
        (0..n).map(|at| at.to_string().into_bytes()).collect()
    }

    fn numbers(batch: &[u8]) -> Vec<u64> {
        serde_json::from_slice(batch).expect("bisection sends JSON arrays")
    }

    fn crash(message: &str) -> OracleFailure {
        OracleFailure::new(FailureKind::Crash, message)
    }

    /// An oracle that doubles each number, and fails as `bad` says on
    /// any batch holding a case it names.
    fn planted(
        bad: impl Fn(u64) -> Option<OracleFailure>,
    ) -> impl FnMut(&[u8]) -> Result<Vec<u64>, OracleFailure> {
        move |batch| {
            let numbers = numbers(batch);
            if let Some(failure) = numbers.iter().find_map(|&n| bad(n)) {
                return Err(failure);
            }
            Ok(numbers.iter().map(|n| n * 2).collect())
        }
    }

    #[test]
    fn a_passing_batch_runs_once() {
        let bisection = run_bisected(&cases(5), planted(|_| None));
        assert_eq!(bisection.runs, 1);
        assert_eq!(bisection.outcomes, [Ok(0), Ok(2), Ok(4), Ok(6), Ok(8)]);
        assert!(bisection.together.is_empty());
        assert_eq!(bisection.failed(), 0);
        let none: Bisection<u64> = run_bisected(&cases(0), planted(|_| None));
        assert_eq!(none.runs, 0);
        assert!(none.outcomes.is_empty());
    }

    #[test]
    fn one_bad_case_among_1000_costs_at_most_21_runs() {
        let all = cases(1000);
        let mut runs = Vec::new();
        for bad in 0..1000u64 {
            let bisection = run_bisected(&all, planted(|n| (n == bad).then(|| crash("boom"))));
            runs.push(bisection.runs);
            assert_eq!(bisection.failed(), 1);
            for (at, outcome) in bisection.outcomes.iter().enumerate() {
                if at as u64 == bad {
                    assert_eq!(outcome, &Err(crash("boom")));
                } else {
                    assert_eq!(outcome, &Ok(at as u64 * 2));
                }
            }
        }
        // The batch, then two halves per level: 1 + 2 * 9 or 1 + 2 * 10.
        assert_eq!(runs.iter().min(), Some(&19));
        assert_eq!(runs.iter().max(), Some(&21));
    }

    #[test]
    fn ten_bad_cases_among_1000_cost_well_under_one_run_per_case() {
        let bad = |n: u64| (n % 100 == 37).then(|| crash("boom"));
        let bisection = run_bisected(&cases(1000), planted(bad));
        assert_eq!(bisection.failed(), 10);
        // The bound in the module's documentation: 2k⌈log2(n/k)⌉ + 2k + 1.
        assert!(bisection.runs <= 161, "{} runs", bisection.runs);
    }

    #[test]
    fn each_bad_case_gets_its_own_failure() {
        let all = cases(100);
        let bisection = run_bisected(
            &all,
            planted(|n| match n {
                7 => Some(OracleFailure::new(FailureKind::Timeout, "hung")),
                8 => Some(crash("died")),
                93 => Some(OracleFailure::new(FailureKind::InvalidOutput, "Infinity")),
                _ => None,
            }),
        );
        let failures: Vec<(usize, FailureKind, &str)> = bisection
            .outcomes
            .iter()
            .enumerate()
            .filter_map(|(at, o)| o.as_ref().err().map(|f| (at, f.kind, f.message.as_str())))
            .collect();
        assert_eq!(
            failures,
            [
                (7, FailureKind::Timeout, "hung"),
                (8, FailureKind::Crash, "died"),
                (93, FailureKind::InvalidOutput, "Infinity"),
            ]
        );
        assert!(bisection.together.is_empty());
        assert_eq!(bisection.outcomes[50], Ok(100));
        // 3 bad cases among 100: far fewer runs than one per case.
        assert!(bisection.runs <= 30, "{} runs", bisection.runs);
    }

    #[test]
    fn a_wrong_number_of_results_is_invalid_output() {
        // Case 3 gives no result at all; the others one each.
        let mut dropping = |batch: &[u8]| -> Result<Vec<u64>, OracleFailure> {
            Ok(numbers(batch).into_iter().filter(|&n| n != 3).collect())
        };
        let bisection = run_bisected(&cases(6), &mut dropping);
        assert_eq!(
            bisection.outcomes[3],
            Err(OracleFailure::new(
                FailureKind::InvalidOutput,
                "the oracle printed 0 results for 1 case"
            ))
        );
        assert_eq!(bisection.outcomes[5], Ok(5));
        let extra = run_bisected(&cases(2), |batch: &[u8]| {
            let mut out = numbers(batch);
            out.push(0);
            Ok(out)
        });
        assert_eq!(
            extra.outcomes[0].as_ref().unwrap_err().message,
            "the oracle printed 2 results for 1 case"
        );
    }

    #[test]
    fn cases_that_fail_only_together_are_reported_as_a_range() {
        // The port fails whenever cases 2 and 5 share a batch.
        let together = |batch: &[u8]| -> Result<Vec<u64>, OracleFailure> {
            let numbers = numbers(batch);
            if numbers.contains(&2) && numbers.contains(&5) {
                return Err(crash("state leaked"));
            }
            Ok(numbers)
        };
        let bisection = run_bisected(&cases(8), together);
        assert_eq!(bisection.failed(), 0);
        assert_eq!(
            bisection.outcomes,
            (0..8).map(Ok).collect::<Vec<Result<u64, _>>>()
        );
        assert_eq!(
            bisection.together,
            [Together {
                cases: 0..8,
                failure: crash("state leaked")
            }]
        );
        assert_eq!(bisection.runs, 3);
    }

    #[test]
    fn a_batch_too_big_for_the_port_is_found_as_a_range() {
        // The port fails on batches of more than 3 cases.
        let small = |batch: &[u8]| -> Result<Vec<u64>, OracleFailure> {
            let numbers = numbers(batch);
            if numbers.len() > 3 {
                return Err(crash("too many"));
            }
            Ok(numbers)
        };
        let bisection = run_bisected(&cases(12), small);
        assert_eq!(bisection.failed(), 0);
        let ranges: Vec<Range<usize>> =
            bisection.together.iter().map(|t| t.cases.clone()).collect();
        // 0..12 fails and so does each of its halves; each half's halves pass.
        assert_eq!(ranges, [0..6, 6..12]);
    }

    #[test]
    fn bisect_starts_from_a_known_failure_and_counts_its_own_runs() {
        let calls = Cell::new(0);
        let bisection = bisect(&cases(4), crash("whole file"), |batch: &[u8]| {
            calls.set(calls.get() + 1);
            planted(|n| (n == 1).then(|| crash("one")))(batch)
        });
        assert_eq!(bisection.runs, 4);
        assert_eq!(calls.get(), 4);
        assert_eq!(bisection.outcomes, [Ok(0), Err(crash("one")), Ok(4), Ok(6)]);
        // One case known to fail needs no run at all.
        let alone: Bisection<u64> = bisect(&cases(1), crash("x"), planted(|_| None));
        assert_eq!((alone.runs, alone.outcomes), (0, vec![Err(crash("x"))]));
    }

    #[test]
    fn a_port_that_fails_on_everything_costs_2n_minus_2_runs() {
        let bisection: Bisection<u64> =
            bisect(&cases(16), crash("all"), |_: &[u8]| Err(crash("all")));
        assert_eq!(bisection.failed(), 16);
        assert_eq!(bisection.runs, 30);
    }

    #[test]
    fn batches_and_elements() {
        assert_eq!(batch_of(&[&b"1"[..], b"{\"a\":2}"]), b"[1,{\"a\":2}]");
        assert_eq!(batch_of::<&[u8]>(&[]), b"[]");
        assert_eq!(
            outcomes_of(b"[1, 2]").unwrap(),
            [Ok(b"1".to_vec()), Ok(b"2".to_vec())]
        );
        let outcomes = outcomes_of(b"[1,Infinity]").unwrap();
        assert_eq!(outcomes[0], Ok(b"1".to_vec()));
        assert_eq!(
            outcomes[1].as_ref().unwrap_err().kind,
            FailureKind::InvalidOutput
        );
        let failure = outcomes_of(b"[1,Infinity").unwrap_err();
        assert_eq!(failure.kind, FailureKind::InvalidOutput);
        assert!(failure
            .message
            .starts_with("the oracle printed an incomplete or malformed array: "));
        assert_eq!(
            settled(vec![
                Ok(Ok(b"1".to_vec())),
                Ok(Err(crash("alone"))),
                Err(crash("run"))
            ]),
            [Ok(b"1".to_vec()), Err(crash("alone")), Err(crash("run"))]
        );
    }
}
