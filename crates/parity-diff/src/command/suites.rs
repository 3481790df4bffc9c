//! `run` over the suites of a `parity.toml`: each suite's corpus through
//! its own oracle, against its own goldens and ledger, into one report
//! that names each file's suite.
//!
//! Every suite's ledger and plan are read before anything runs, so that
//! an unreadable corpus or ledger in the last suite stops the run before
//! any report is written, as it does for one corpus.

use std::io::Write;

use crate::base::error::InputError;
use crate::command::run::{self, RunArgs};
use crate::exec::verdicts::LedgerUse;
use crate::report::{ReportOptions, Reports, RunInfo, Totals};

/// One suite of a run: its name and what `run` does with it (whose
/// `suite` names it, so that each of its files is marked).
#[derive(Debug, Clone)]
pub struct SuiteRun {
    /// The suite's name (`[suite.NAME]`).
    pub name: String,
    /// Its corpus, oracle, ledger and limits.
    pub args: RunArgs,
}

/// The suites whose `redact = false` shows secrets as written.
fn unredacted(suites: &[SuiteRun]) -> Vec<String> {
    suites
        .iter()
        .flat_map(|suite| suite.args.unredacted())
        .collect()
}

/// An input error of one suite, named.
fn in_suite(name: &str) -> impl Fn(InputError) -> InputError + '_ {
    move |error| InputError {
        message: format!("suite {name}: {}", error.message),
        ..error
    }
}

/// Runs `run` over `suites`, in order, into one report. With one suite
/// the report's head names its corpus and ledger as a plain run's does;
/// with several, each file names its suite and the head names none.
pub fn run_suites(
    suites: &[SuiteRun],
    report: ReportOptions,
    out: impl Write,
) -> Result<Totals, InputError> {
    let mut prepared = Vec::with_capacity(suites.len());
    for suite in suites {
        let args = &suite.args;
        let ledger = LedgerUse::open(args.ledger.as_deref(), &args.ledger_path(), false)
            .map_err(in_suite(&suite.name))?;
        let planned = run::plan(args).map_err(in_suite(&suite.name))?;
        prepared.push((ledger, planned));
    }
    let run = match &prepared[..] {
        [(ledger, (_, plan))] => RunInfo {
            command: "run",
            shard: plan.shard_info(),
            corpus: Some(plan.info.clone()),
            ledger: ledger.as_ref().map(LedgerUse::info),
            suites: suites.iter().map(|suite| suite.name.clone()).collect(),
            suite_ledgers: Vec::new(),
            unredacted: unredacted(suites),
        },
        _ => RunInfo {
            command: "run",
            suites: suites.iter().map(|suite| suite.name.clone()).collect(),
            suite_ledgers: suites
                .iter()
                .zip(&prepared)
                .filter(|(_, (ledger, _))| ledger.is_some())
                .map(|(suite, _)| suite.name.clone())
                .collect(),
            unredacted: unredacted(suites),
            ..RunInfo::default()
        },
    };
    // Every suite's arguments carry the same `--report`s (the flags are
    // the run's).
    let extra = suites
        .first()
        .map_or(&[][..], |suite| &suite.args.extra[..]);
    let mut sink = Reports::new(out, report, run, extra)?;
    let mut times = Vec::with_capacity(suites.len());
    for (suite, (mut ledger, (files, plan))) in suites.iter().zip(prepared) {
        let timed = run::run_planned(
            &suite.args,
            (&files, &plan, run::Started::none()),
            ledger.as_mut(),
            &mut sink,
        )
        .map_err(in_suite(&suite.name))?;
        times.push(timed);
    }
    let totals = sink.finish()?;
    // --record-timings names one suite's file (the flags say so).
    for (suite, timed) in suites.iter().zip(&times) {
        run::record_timings(&suite.args, timed).map_err(in_suite(&suite.name))?;
    }
    Ok(totals)
}
