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
//!
//! `run` goes one step further ([`KnownCrashes::run_batches`]): before
//! any file runs, the cases of every file whose entries say they crash
//! run as one batch, those that time out as another, those that write
//! invalid output as a third. A batch that fails as its entries say
//! settles each of its cases with that failure; one that gives a result
//! per case settles each with its own; one that fails otherwise settles
//! none, and its cases run alone in their files. Six known crashes in six
//! files then cost one run, not six. What this cannot see: a known crash
//! that no longer crashes, while another of its batch still does (it is
//! reported as crashing until it runs alone: in `accept`, in `review`,
//! or once the others are fixed).

use std::collections::{HashMap, HashSet};

use crate::corpus::cases::CaseFile;
use crate::corpus::identity::CaseId;
use crate::exec::bisect::{self, Outcome};
use crate::exec::execute::{execute, Blamed, Execution};
use crate::exec::oracle::results::read_results;
use crate::exec::oracle::{FailureKind, OracleFailure};
use crate::ledger::rules::{Match, Rule};
use crate::ledger::Ledger;

/// How a case is known, before it runs.
#[derive(Debug, Clone, Copy)]
pub enum Known<'a> {
    /// Nothing known: it runs with the rest.
    No,
    /// A rule says cases like it crash: it runs with the others a rule
    /// covers.
    Suspect,
    /// Its entry says it crashes: it runs alone.
    Alone,
    /// It ran already, in the batch of every file's known failures of its
    /// kind ([`KnownCrashes::run_batches`]): what that batch made of it.
    Ran(&'a Outcome),
}

impl Known<'_> {
    fn is_no(&self) -> bool {
        matches!(self, Known::No)
    }

    /// Whether it runs with the others of `group` (`No` or `Suspect`).
    fn runs_with(&self, group: Known<'_>) -> bool {
        matches!(
            (self, group),
            (Known::No, Known::No) | (Known::Suspect, Known::Suspect)
        )
    }
}

/// What a ledger knows of crashes, for any thread.
#[derive(Debug, Clone, Default)]
pub struct KnownCrashes {
    alone: HashSet<CaseId>,
    rules: Vec<Rule>,
    /// The cases whose entries name a failure (and that no report saw
    /// fail), which may run in one batch per failure.
    batchable: HashMap<CaseId, FailureKind>,
    /// What those batches made of each case, once run.
    ran: HashMap<CaseId, Outcome>,
}

fn failure_of_verdict(verdict: Option<&str>) -> Option<FailureKind> {
    match verdict? {
        "crash" => Some(FailureKind::Crash),
        "timeout" => Some(FailureKind::Timeout),
        "invalid-output" => Some(FailureKind::InvalidOutput),
        _ => None,
    }
}

/// A case gathered for a batch of known failures: its identity, the
/// failure its entry names, and its bytes.
pub type Gathered = (CaseId, FailureKind, Vec<u8>);

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
                ..KnownCrashes::default()
            });
        };
        let mut batchable = HashMap::new();
        for entry in ledger.entries() {
            let Some(kind) = failure_of_verdict(entry.verdict.as_deref()) else {
                continue;
            };
            // A case the last recorded run saw fail is rerun to see it
            // again: alone, never settled by a batch.
            if !alone.contains(&entry.id) {
                batchable.insert(entry.id.clone(), kind);
            }
        }
        alone.extend(batchable.keys().cloned());
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
        (!alone.is_empty() || !rules.is_empty()).then_some(KnownCrashes {
            alone,
            rules,
            batchable,
            ran: HashMap::new(),
        })
    }

    /// The failure the entry of case `id` names, when it may run in a
    /// batch of known failures.
    pub fn batchable(&self, id: &CaseId) -> Option<FailureKind> {
        self.batchable.get(id).copied()
    }

    /// The files holding a case that may run in a batch of known
    /// failures.
    pub fn batchable_files(&self) -> HashSet<&str> {
        self.batchable.keys().map(|id| id.file.as_str()).collect()
    }

    /// Runs the `gathered` cases once, one batch per failure their
    /// entries name (see the module's text), and keeps what each batch
    /// made of its cases. `mask` masks a failure's texts with the
    /// secrets of every file of the batch (its stderr may echo any of
    /// them).
    pub fn run_batches(
        &mut self,
        gathered: Vec<Gathered>,
        oracle: impl Fn(&[u8]) -> Result<Vec<u8>, OracleFailure>,
        mask: impl Fn(OracleFailure) -> OracleFailure,
    ) {
        for kind in [
            FailureKind::Crash,
            FailureKind::Timeout,
            FailureKind::InvalidOutput,
        ] {
            let (ids, cases): (Vec<CaseId>, Vec<Vec<u8>>) = gathered
                .iter()
                .filter(|(_, of, _)| *of == kind)
                .map(|(id, _, raw)| (id.clone(), raw.clone()))
                .unzip();
            if ids.is_empty() {
                continue;
            }
            let ran = oracle(&bisect::batch_of(&cases))
                .and_then(|output| bisect::outcomes_of(&output))
                .and_then(|outcomes| bisect::one_per_case(outcomes, ids.len()));
            match ran {
                Ok(outcomes) => self.ran.extend(ids.into_iter().zip(outcomes)),
                Err(failure) if failure.kind == kind => {
                    // Its stderr may come from any of them, which a last
                    // line says (the message is the cases' signature, and
                    // stays what a run alone gives).
                    let failure = match ids.len() {
                        1 => mask(failure),
                        together => {
                            let note = format!(
                                "[parity-diff: this stderr is of one run of the \
                                 {together} cases whose entries say {kind}]\n"
                            );
                            let stderr = match failure.stderr {
                                Some(text) if text.ends_with('\n') => text + &note,
                                Some(text) => format!("{text}\n{note}"),
                                None => note,
                            };
                            mask(OracleFailure {
                                stderr: Some(stderr),
                                ..failure
                            })
                        }
                    };
                    let each = ids.into_iter().map(|id| (id, Err(failure.clone())));
                    self.ran.extend(each);
                }
                // Not the failure the entries name: each case runs alone
                // in its file, to tell which does what.
                Err(_) => {}
            }
        }
    }

    /// How each case sent of `cases` (its positions in the file) is
    /// known.
    pub fn of_sent(&self, file: &str, cases: &CaseFile, sent: &[usize]) -> Vec<Known<'_>> {
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
                let id = item.id(file, raw);
                if let Some(outcome) = self.ran.get(id.as_ref()) {
                    Known::Ran(outcome)
                } else if self.alone.contains(id.as_ref()) {
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
    known: &[Known<'_>],
) -> Execution {
    if known.len() != cases.len() || known.iter().all(Known::is_no) {
        return execute(&oracle, input, Some(cases));
    }
    let run = |batch: &[u8]| oracle(batch).and_then(|output| bisect::outcomes_of(&output));
    let mut outcomes: Vec<Option<Outcome>> = vec![None; cases.len()];
    let mut runs = 0;
    for kind in [Known::No, Known::Suspect] {
        let positions: Vec<usize> = (0..cases.len())
            .filter(|&at| known[at].runs_with(kind))
            .collect();
        if positions.is_empty() {
            continue;
        }
        let batch: Vec<&[u8]> = positions.iter().map(|&at| cases[at]).collect();
        let settled = if kind.is_no() {
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
        if kind.is_no() {
            runs += 1;
        }
        for (at, outcome) in positions.into_iter().zip(settled) {
            outcomes[at] = Some(outcome);
        }
    }
    for at in 0..cases.len() {
        match known[at] {
            Known::Alone => {
                runs += 1;
                let outcome = run(&bisect::batch_of(&cases[at..=at]))
                    .and_then(|results| bisect::one_per_case(results, 1))
                    .and_then(|mut results| results.pop().ok_or_else(unreachable_failure))
                    .unwrap_or_else(Err);
                outcomes[at] = Some(outcome);
            }
            Known::Ran(outcome) => outcomes[at] = Some(outcome.clone()),
            Known::No | Known::Suspect => {}
        }
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
