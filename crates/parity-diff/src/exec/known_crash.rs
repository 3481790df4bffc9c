//! Known crashes cost their cases, not reruns (issue 36).
//!
//! A file the oracle fails on is bisected ([`bisect`]): about `2k ⌈log2
//! (n/k)⌉` runs for `k` bad cases among `n`, on every run, for crashes
//! the ledger knows already. So before a file runs, the cases the ledger
//! knows are run apart from the rest:
//!
//! - a case whose entry was accepted with a `crash`, `timeout` or
//!   `invalid-output` verdict runs alone (one run: it crashes, or it
//!   passes now and its entry goes stale as usual);
//! - the cases in the scope of a rule that matches `crash`, `timeout` or
//!   `invalid-output` run as one batch of their own, bisected when it
//!   fails (the rule knows the op, not which of its cases crash);
//! - the rest of the file runs as one batch. When that batch fails too,
//!   a crash nobody knew of is there, and the file runs as it always did
//!   (the whole file, then bisection), so that nothing is judged from
//!   fewer runs than before.
//!
//! What this cannot see: a case that crashes only together with the
//! known ones (the known ones no longer run with it), and the framing of
//! one whole output (the results of separate runs are put together in
//! `JSON.stringify`'s own framing).
//!
//! Under `--rerun-failed REPORT`, the report is the last recorded run:
//! the cases it saw crash, time out or write invalid output run alone
//! too, whether the ledger knows them or not.

use std::collections::HashSet;

use crate::corpus::cases::CaseFile;
use crate::corpus::identity::CaseId;
use crate::exec::bisect::{self, Outcome};
use crate::exec::execute::{execute, Blamed, Execution};
use crate::exec::oracle::results::read_results;
use crate::exec::oracle::OracleFailure;
use crate::ledger::rules::{Match, Rule};
use crate::ledger::Ledger;

/// How a case is known, before it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// Nothing known: it runs with the rest.
    No,
    /// A rule says cases like it crash: it runs with the others a rule
    /// covers.
    Suspect,
    /// Its entry says it crashes: it runs alone.
    Alone,
}

/// What a ledger knows of crashes, for any thread.
#[derive(Debug, Clone, Default)]
pub struct KnownCrashes {
    alone: HashSet<CaseId>,
    rules: Vec<Rule>,
}

fn is_failure_verdict(verdict: Option<&str>) -> bool {
    matches!(verdict, Some("crash" | "timeout" | "invalid-output"))
}

impl KnownCrashes {
    /// What `ledger` knows, and the cases `crashed` names (those a last
    /// recorded run saw crash); `None` when neither knows of a crash.
    pub fn known<'a>(
        ledger: Option<&Ledger>,
        crashed: impl IntoIterator<Item = &'a CaseId>,
    ) -> Option<KnownCrashes> {
        let mut alone: HashSet<CaseId> = crashed.into_iter().cloned().collect();
        let Some(ledger) = ledger else {
            return (!alone.is_empty()).then(|| KnownCrashes {
                alone,
                rules: Vec::new(),
            });
        };
        alone.extend(
            ledger
                .entries()
                .filter(|entry| is_failure_verdict(entry.verdict.as_deref()))
                .map(|entry| entry.id.clone()),
        );
        let rules: Vec<Rule> = ledger
            .rules()
            .iter()
            .filter(|rule| {
                matches!(
                    rule.matches,
                    Match::Crash | Match::Timeout | Match::InvalidOutput
                )
            })
            .cloned()
            .collect();
        (!alone.is_empty() || !rules.is_empty()).then_some(KnownCrashes { alone, rules })
    }

    /// How each case sent of `cases` (its positions in the file) is
    /// known.
    pub fn of_sent(&self, file: &str, cases: &CaseFile, sent: &[usize]) -> Vec<Known> {
        let rules: Vec<&Rule> = self
            .rules
            .iter()
            .filter(|rule| rule.covers_file(file))
            .collect();
        sent.iter()
            .map(|&at| {
                let Some(item) = cases.items.get(at) else {
                    return Known::No;
                };
                let raw = cases.raw(at).unwrap_or_default();
                if self.alone.contains(item.id(file, raw).as_ref()) {
                    Known::Alone
                } else if rules.iter().any(|rule| rule.covers_op(item.op.as_deref())) {
                    Known::Suspect
                } else {
                    Known::No
                }
            })
            .collect()
    }
}

/// [`execute`], the known cases run apart (see the module's text).
pub fn execute_known(
    oracle: impl Fn(&[u8]) -> Result<Vec<u8>, OracleFailure>,
    input: &[u8],
    cases: &[&[u8]],
    known: &[Known],
) -> Execution {
    if known.len() != cases.len() || known.iter().all(|&known| known == Known::No) {
        return execute(&oracle, input, Some(cases));
    }
    let run = |batch: &[u8]| oracle(batch).and_then(|output| bisect::outcomes_of(&output));
    let mut outcomes: Vec<Option<Outcome>> = vec![None; cases.len()];
    let mut runs = 0;
    for kind in [Known::No, Known::Suspect] {
        let positions: Vec<usize> = (0..cases.len()).filter(|&at| known[at] == kind).collect();
        if positions.is_empty() {
            continue;
        }
        let batch: Vec<&[u8]> = positions.iter().map(|&at| cases[at]).collect();
        let settled = if kind == Known::No {
            // The rest fails too: an unknown crash, found as always.
            match run(&bisect::batch_of(&batch))
                .and_then(|results| bisect::one_per_case(results, batch.len()))
            {
                Ok(results) => results,
                Err(_) => return execute(&oracle, input, Some(cases)),
            }
        } else {
            let bisection = bisect::run_bisected(&batch, run);
            if !bisection.together.is_empty() {
                // Cases that fail only together are reported over a
                // range of the file as sent: as the whole file finds them.
                return execute(&oracle, input, Some(cases));
            }
            runs += bisection.runs;
            bisect::settled(bisection.outcomes)
        };
        if kind == Known::No {
            runs += 1;
        }
        for (at, outcome) in positions.into_iter().zip(settled) {
            outcomes[at] = Some(outcome);
        }
    }
    for at in (0..cases.len()).filter(|&at| known[at] == Known::Alone) {
        runs += 1;
        let outcome = run(&bisect::batch_of(&cases[at..=at]))
            .and_then(|results| bisect::one_per_case(results, 1))
            .and_then(|mut results| results.pop().ok_or_else(unreachable_failure))
            .unwrap_or_else(Err);
        outcomes[at] = Some(outcome);
    }
    let outcomes: Vec<Outcome> = outcomes
        .into_iter()
        .map(|outcome| outcome.unwrap_or_else(|| Err(unreachable_failure())))
        .collect();
    let failure = outcomes.iter().find_map(|outcome| outcome.as_ref().err());
    match failure.cloned() {
        Some(failure) => Execution::Blamed(Blamed {
            failure,
            outcomes,
            together: Vec::new(),
            runs,
        }),
        // Every case ran: their results as one output, framed as
        // JSON.stringify frames an array.
        None => {
            let results: Vec<Vec<u8>> = outcomes.into_iter().flatten().collect();
            let output = bisect::batch_of(&results);
            match read_results(&output) {
                Ok(elements)
                    if elements.len() == cases.len() && elements.iter().all(Result::is_ok) =>
                {
                    let spans = elements.into_iter().flatten().collect();
                    Execution::Results { output, spans }
                }
                _ => execute(&oracle, input, Some(cases)),
            }
        }
    }
}

fn unreachable_failure() -> OracleFailure {
    OracleFailure::new(
        crate::exec::oracle::FailureKind::InvalidOutput,
        "internal error: a case known to crash was not run",
    )
}
