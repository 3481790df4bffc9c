//! One case file through an oracle, as `run`, `accept` and `bless` need
//! it: one result per case, or, when the oracle fails on the file (it
//! crashes, prints something that is not one result per case, or hangs),
//! the cases to blame, found by [bisection](crate::exec::bisect), and the
//! results of all the others. An output with one element per case, some
//! of them not JSON, already says which cases are to blame: those, with
//! no other run.
//!
//! No case is blamed when the file is not an array of cases, has none,
//! or when the oracle fails even on an empty array `[]`: such an oracle
//! is broken for every case, and bisecting it would only cost runs.
//!
//! Hangs are costly (each costs the timeout), so bisecting one file may
//! spend at most [`timeout_budget`] timeouts: enough to find two hanging
//! cases. Past that, the cases not yet settled are blamed without being
//! run, with a message saying so.

use std::ops::Range;

use crate::exec::bisect::{self, Together};
use crate::exec::oracle::results::{self, read_results, Element};
use crate::exec::oracle::{self, FailureKind, OracleFailure};

/// What an oracle made of one case file.
#[derive(Debug)]
pub enum Execution {
    /// The oracle's stdout, with each element's span in it: one result
    /// per case sent (for a file that is not an array of cases, whatever
    /// array the oracle printed).
    Results {
        /// The oracle's stdout.
        output: Vec<u8>,
        /// Where each result stands in it.
        spans: Vec<Range<usize>>,
    },
    /// The oracle failed on the file, and no case is to blame.
    Failed(OracleFailure),
    /// The oracle failed on the file; each case's outcome, from its own
    /// element when the output has one per case, else by bisection.
    Blamed(Blamed),
}

/// A file the oracle failed on, bisected.
#[derive(Debug)]
pub struct Blamed {
    /// How the oracle failed on the whole file.
    pub failure: OracleFailure,
    /// Per case sent, in order: its result, or how the oracle failed on
    /// it alone.
    pub outcomes: Vec<Result<Vec<u8>, OracleFailure>>,
    /// Cases the oracle failed on only together (see
    /// [`bisect`]): their results come from separate runs.
    pub together: Vec<Together>,
    /// Oracle runs spent bisecting (the `[]` check included): none when
    /// each case was judged by its own element.
    pub runs: usize,
}

/// How many timeouts bisecting a file of `cases` cases may cost: two
/// hanging cases need about `2 ⌈log2 n⌉`.
pub fn timeout_budget(cases: usize) -> usize {
    let depth = usize::BITS - cases.saturating_sub(1).leading_zeros();
    2 * depth as usize + 2
}

/// Where each of `elements` (slices of `base`) stands in `base`.
pub fn spans_in(base: &[u8], elements: &[&[u8]]) -> Vec<Range<usize>> {
    let origin = base.as_ptr() as usize;
    elements
        .iter()
        .map(|element| {
            let start = element.as_ptr() as usize - origin;
            start..start + element.len()
        })
        .collect()
}

/// Runs `input` (a case file, or the array of its selected cases)
/// through `oracle` (an [`Oracle`](crate::exec::oracle::Oracle) under its
/// timeout, say). `cases` are the raw bytes of the cases `input` holds,
/// in order, when it is an array of cases (`None`: the results are not
/// counted, and nothing is bisected).
///
/// An output with one element per case, some of which are not JSON,
/// blames those cases without another run ([`read_results`]).
pub fn execute(
    oracle: impl Fn(&[u8]) -> Result<Vec<u8>, OracleFailure>,
    input: &[u8],
    cases: Option<&[&[u8]]>,
) -> Execution {
    let whole = oracle(input).and_then(|output| {
        let elements = read_results(&output)?;
        match cases {
            Some(cases) => bisect::one_per_case(elements, cases.len()),
            None => Ok(elements),
        }
        .map(|elements| (output, elements))
    });
    let failure = match whole {
        Ok((output, elements)) => match judged_alone(output, elements, cases.is_some()) {
            Ok(execution) => return execution,
            Err(failure) => failure,
        },
        Err(failure) => failure,
    };
    // Once parity-diff is stopping on a signal every run fails: no case
    // is to blame, and no more oracles should start.
    let Some(cases) = cases.filter(|cases| !cases.is_empty() && !oracle::stopping()) else {
        return Execution::Failed(failure);
    };
    let run = |batch: &[u8]| oracle(batch).and_then(|output| bisect::outcomes_of(&output));
    if run(b"[]")
        .and_then(|results| bisect::one_per_case(results, 0))
        .is_err()
    {
        return Execution::Failed(OracleFailure {
            message: format!(
                "{}; it fails on an empty array `[]` too, so no case is to blame",
                failure.message
            ),
            ..failure
        });
    }
    let budget = timeout_budget(cases.len());
    let mut spent = usize::from(failure.kind == FailureKind::Timeout);
    let bisection = bisect::bisect(cases, failure.clone(), |batch: &[u8]| {
        if spent >= budget {
            return Err(OracleFailure::new(
                FailureKind::Timeout,
                format!(
                    "not run alone: the oracle hung {spent} times on this file, \
                     and bisection stopped there"
                ),
            ));
        }
        let outcome = run(batch);
        if let Err(failure) = &outcome {
            spent += usize::from(failure.kind == FailureKind::Timeout);
        }
        outcome
    });
    Execution::Blamed(Blamed {
        failure,
        outcomes: bisect::settled(bisection.outcomes),
        together: bisection.together,
        runs: bisection.runs + 1,
    })
}

/// An output with one element per case sent: its results, or, when some
/// elements are not JSON, each case's own outcome (no run needed). Fails
/// when some are not JSON and there are no cases to blame them on.
fn judged_alone(
    output: Vec<u8>,
    elements: Vec<Element>,
    cases: bool,
) -> Result<Execution, OracleFailure> {
    let invalid = elements.iter().filter(|element| element.is_err()).count();
    if invalid == 0 {
        let spans = elements.into_iter().flatten().collect();
        return Ok(Execution::Results { output, spans });
    }
    let failure = results::invalid_elements(invalid, elements.len());
    if !cases {
        return Err(failure);
    }
    Ok(Execution::Blamed(Blamed {
        failure,
        outcomes: bisect::outcomes_in(&output, elements),
        together: Vec::new(),
        runs: 0,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::oracle::{Oracle, OracleOptions, FUZZ_MAX_OUTPUT};
    use std::time::Duration;

    /// A shell command as an oracle, under a timeout.
    fn command(text: &str, timeout: Duration) -> impl Fn(&[u8]) -> Result<Vec<u8>, OracleFailure> {
        let oracle = Oracle::command(text);
        move |input| oracle.run(input, OracleOptions::new(timeout, FUZZ_MAX_OUTPUT))
    }

    const SECOND: Duration = Duration::from_secs(10);

    /// Echoes its input, and crashes (with a message on stderr) on any
    /// batch holding the number 3.
    const CRASHES_ON_3: &str = r#"input=$(cat); case "$input" in *3*) echo "three!" >&2; exit 7;; esac; printf '%s' "$input""#;

    #[test]
    fn a_passing_file_is_its_output_and_spans() {
        let cases: [&[u8]; 2] = [b"1", b"[2]"];
        let Execution::Results { output, spans } =
            execute(command("cat", SECOND), b"[1, [2]]", Some(&cases))
        else {
            panic!("passes");
        };
        assert_eq!(output, b"[1, [2]]");
        assert_eq!(spans, [1..2, 4..7]);
    }

    #[test]
    fn the_case_that_crashes_is_blamed_and_the_rest_have_results() {
        let cases: [&[u8]; 5] = [b"1", b"2", b"3", b"4", b"5"];
        let Execution::Blamed(blamed) =
            execute(command(CRASHES_ON_3, SECOND), b"[1,2,3,4,5]", Some(&cases))
        else {
            panic!("bisected");
        };
        assert_eq!(blamed.failure.message, "the oracle exited with status 7");
        let results: Vec<Result<&[u8], &str>> = blamed
            .outcomes
            .iter()
            .map(|o| o.as_deref().map_err(|f| f.message.as_str()))
            .collect();
        assert_eq!(
            results,
            [
                Ok(&b"1"[..]),
                Ok(b"2"),
                Err("the oracle exited with status 7"),
                Ok(b"4"),
                Ok(b"5")
            ]
        );
        let alone = blamed.outcomes[2].as_ref().unwrap_err();
        assert_eq!(alone.kind, FailureKind::Crash);
        assert_eq!(alone.stderr.as_deref(), Some("three!\n"));
        assert!(blamed.together.is_empty());
        // `[]`, then [1,2] [3,4,5], then [3] [4,5].
        assert_eq!(blamed.runs, 5);
    }

    #[test]
    fn results_that_are_not_json_blame_their_cases_without_a_rerun() {
        let cases: [&[u8]; 3] = [b"1", b"2", b"3"];
        let oracle = command("cat >/dev/null; echo '[1, NaN, 3]'", SECOND);
        let Execution::Blamed(blamed) = execute(&oracle, b"[1,2,3]", Some(&cases)) else {
            panic!("blamed");
        };
        assert_eq!(blamed.runs, 0);
        assert_eq!(
            blamed.failure.message,
            "1 of the oracle's 3 results is not JSON"
        );
        let outcomes: Vec<Result<&[u8], &str>> = blamed
            .outcomes
            .iter()
            .map(|o| o.as_deref().map_err(|f| f.message.as_str()))
            .collect();
        assert_eq!(
            outcomes,
            [
                Ok(&b"1"[..]),
                Err("the oracle printed `NaN`, which is not JSON"),
                Ok(b"3")
            ]
        );
        // With no cases to blame, the file fails whole.
        let Execution::Failed(failure) = execute(&oracle, b"{}", None) else {
            panic!("failed");
        };
        assert_eq!(failure.message, "1 of the oracle's 3 results is not JSON");
    }

    #[test]
    fn a_wrong_number_of_results_is_bisected() {
        // Prints one result too many for any batch holding 2.
        let oracle = command(
            r#"input=$(cat); case "$input" in *2*) printf '%s' "$input" | sed 's/2/2,2/';; *) printf '%s' "$input";; esac"#,
            SECOND,
        );
        let cases: [&[u8]; 3] = [b"1", b"2", b"3"];
        let Execution::Blamed(blamed) = execute(oracle, b"[1,2,3]", Some(&cases)) else {
            panic!("bisected");
        };
        assert_eq!(blamed.failure.kind, FailureKind::InvalidOutput);
        assert_eq!(
            blamed.failure.message,
            "the oracle printed 4 results for 3 cases"
        );
        assert_eq!(
            blamed.outcomes[1].as_ref().unwrap_err().message,
            "the oracle printed 2 results for 1 case"
        );
        assert_eq!(blamed.outcomes[2].as_deref(), Ok(&b"3"[..]));
    }

    #[test]
    fn an_oracle_that_fails_on_an_empty_array_blames_no_case() {
        let cases: [&[u8]; 2] = [b"1", b"2"];
        let Execution::Failed(failure) = execute(command("exit 4", SECOND), b"[1,2]", Some(&cases))
        else {
            panic!("no case is blamed");
        };
        assert_eq!(
            failure.message,
            "the oracle exited with status 4; it fails on an empty array `[]` too, \
             so no case is to blame"
        );
        assert_eq!(failure.kind, FailureKind::Crash);
        // Nor for a file that is not an array of cases, or has none.
        for (input, cases) in [(&b"{}"[..], None), (&b"[]"[..], Some(&[][..]))] {
            let Execution::Failed(failure) = execute(command("exit 4", SECOND), input, cases)
            else {
                panic!("no case is blamed");
            };
            assert_eq!(failure.message, "the oracle exited with status 4");
        }
        // Without cases to count, any array will do.
        let Execution::Results { spans, .. } =
            execute(command("cat >/dev/null; echo [1,2,3]", SECOND), b"{}", None)
        else {
            panic!("passes");
        };
        assert_eq!(spans.len(), 3);
    }

    #[test]
    fn hangs_cost_at_most_the_budget() {
        assert_eq!(timeout_budget(1), 2);
        assert_eq!(timeout_budget(2), 4);
        assert_eq!(timeout_budget(3), 6);
        assert_eq!(timeout_budget(1000), 22);
        // Hangs on every batch but `[]`: 16 cases would take 30 runs;
        // the budget of 10 timeouts stops it.
        let oracle = command(
            r#"input=$(cat); [ "$input" = "[]" ] && echo [] && exit; sleep 5"#,
            Duration::from_millis(200),
        );
        let cases: Vec<Vec<u8>> = (0..16).map(|n| n.to_string().into_bytes()).collect();
        let cases: Vec<&[u8]> = cases.iter().map(Vec::as_slice).collect();
        let started = std::time::Instant::now();
        let Execution::Blamed(blamed) = execute(oracle, &bisect::batch_of(&cases), Some(&cases))
        else {
            panic!("bisected");
        };
        assert!(started.elapsed() < Duration::from_secs(8));
        assert!(blamed.outcomes.iter().all(Result::is_err));
        let messages: Vec<&str> = blamed
            .outcomes
            .iter()
            .map(|o| o.as_ref().unwrap_err().message.as_str())
            .collect();
        assert!(messages[0].contains("did not finish within 0.2 s"));
        assert_eq!(
            messages[15],
            "not run alone: the oracle hung 10 times on this file, and bisection stopped there"
        );
    }
}
