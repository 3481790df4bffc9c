//! `parity-diff run`: every wanted case file through an oracle, each
//! result array against its golden, case by case, then the orphaned
//! goldens and (on a full run) the orphaned ledger entries. Never stops at
//! a failing file. `accept` runs the same way and watches the records.
//!
//! With `--op`, only the cases of those ops are sent to the oracle (the
//! file as the array of their raw bytes, in order) and compared with the
//! golden's elements at the same positions; files without such cases are
//! left out. `--shard K/N` takes one of N balanced ranges of the selected
//! cases ([`plan`](mod@crate::corpus::plan)), sent the same way; orphaned goldens,
//! ledger entries and rules are then left to `merge` (the shard's report
//! lists the rules its cases did not decide, `shardRules`). `--rerun-failed` sends only
//! the cases its report names ([`rerun`](crate::command::rerun)), and
//! looks again for the orphaned goldens it names; orphaned ledger entries
//! and rules are a full run's to check. `--record-timings` writes each
//! file's oracle time ([`timings`]) once the run
//! is reported: never in the report, which is the same for every
//! `--jobs`.

use std::cell::RefCell;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crate::base::error::InputError;
use crate::corpus::identity::path_text;
use crate::corpus::plan::{Part, Plan, Planning};
use crate::corpus::timings::{self, FileTime};
use crate::corpus::Entry as FileEntry;
use crate::exec::file_run::{self, FileRun};
use crate::exec::known_crash::KnownCrashes;
use crate::exec::oracle::{Leak, LeakLog};
use crate::exec::pool;
use crate::exec::stream;
use crate::exec::stream::live::{self, Judged, Live};
use crate::exec::stream::run::{report_large, Large};
pub use crate::exec::verdicts::LedgerUse;
use crate::judge::compare::Judging;
use crate::judge::framing::Framing;
use crate::ledger::Ledger;
use crate::report::{Consumer, FileInfo, Format, Problem, Reports, RunInfo, Totals};
pub use args::RunArgs;
pub use started::Started;

use prepare::{cases_sent, error, prepare, run_again, run_prepared, runs_live, Prepared, Ran};
use watched::{warn_of_leaks, Watched};

mod args;
mod known_batch;
mod prepare;
mod started;
mod watched;

/// The case files a run lists and its plan. A rerun says on stderr what
/// it selected.
pub fn plan(args: &RunArgs) -> Result<(Vec<FileEntry>, Plan), InputError> {
    let files = list(args)?;
    let plan = plan_listed(args, &files)?;
    Ok((files, plan))
}

/// The case files a run lists (its goldens' directory checked).
fn list(args: &RunArgs) -> Result<Vec<FileEntry>, InputError> {
    let corpus = &args.corpus;
    let files = corpus.case_files()?;
    crate::corpus::require_dir("golden", &corpus.golden)?;
    Ok(files)
}

/// The plan of a run of the listed `files`. A rerun says on stderr what
/// it selected.
fn plan_listed(args: &RunArgs, files: &[FileEntry]) -> Result<Plan, InputError> {
    // Only the JSON report records the corpus's fingerprint.
    let fingerprint = args.report.format == Format::Json
        || args.extra.iter().any(|extra| extra.format == Format::Json);
    let planning = Planning {
        timings: args.timings.as_ref(),
        fingerprint,
        // A large file run live counts its identical cases by the plan's
        // ops, not reading its case file again.
        op_runs: runs_live(args).then_some(stream::run::streams as fn(&FileEntry) -> bool),
    };
    let plan = Plan::planned(&args.corpus, files, args.wanted(), planning)?;
    if let (Some(count), Some(rerun)) = (&plan.rerun, &args.rerun) {
        let kinds = rerun.kinds_text();
        let note = count.note(&rerun.source, args.suite.as_deref(), kinds.as_deref());
        let _ = writeln!(io::stderr(), "parity-diff: {note}");
    }
    Ok(plan)
}

/// Runs the corpus, handing every record to `consumer`; orphaned goldens
/// and (on a full run) orphaned ledger entries last.
pub fn run_corpus<C: Consumer>(
    args: &RunArgs,
    ledger: Option<&mut LedgerUse>,
    consumer: &mut C,
) -> Result<Vec<FileTime>, InputError> {
    let (files, plan) = plan(args)?;
    let planned = (&files[..], &plan, Started::none());
    run_planned(args, planned, ledger, consumer)
}

/// What a file's oracle runs made (on any thread): their results, the
/// processes they left holding their output, and how long they took.
type Outcome = (Option<Ran>, Vec<Leak>, Duration);

/// Runs a planned corpus (the live runs `started` before it was planned
/// among its jobs); returns each file's oracle time, in corpus order.
pub fn run_planned<C: Consumer>(
    args: &RunArgs,
    (files, plan, started): (&[FileEntry], &Plan, Started),
    ledger: Option<&mut LedgerUse>,
    consumer: &mut C,
) -> Result<Vec<FileTime>, InputError> {
    crate::base::redact::show_secrets(args.report.show_secrets);
    let consumer = &mut Watched {
        inner: consumer,
        known_ops: args.known_ops.as_ref(),
        seen: Vec::new(),
        rules: Vec::new(),
    };
    let orphans = orphaned_goldens(args)?;
    let mut times = Vec::new();
    // Files are read and prepared here, in order; their oracle runs go to
    // the pool; their records are made here again, in order. Preparing
    // marks the ledger's entries as seen and making records consults it,
    // both on this thread but from two closures: hence the RefCell.
    // What the ledger knows of crashes, for the pool's threads.
    let mut crashes = KnownCrashes::known(
        ledger.as_ref().map(|use_| &use_.ledger),
        args.rerun.iter().flat_map(|rerun| &rerun.crashed),
    );
    if let Some(known) = crashes.as_mut().filter(|_| args.known_failure_batches) {
        known_batch::run_known_batches(args, (files, plan), known);
    }
    let ledger = RefCell::new(ledger);
    let ready = files.iter().enumerate().filter_map(|(position, entry)| {
        let part = plan.part(position);
        if part == Part::Skip {
            return None;
        }
        let large = stream::run::streams(entry);
        let wanted = plan.wanted_of(position, &entry.name, args.wanted());
        let planned = plan
            .counted(position)
            .map(|(is_array, cases)| (is_array, cases, plan.op_runs(position)));
        let prepared = prepare(
            entry,
            (part, large, planned),
            large && runs_live(args),
            wanted,
            ledger.borrow_mut().as_deref_mut(),
        );
        (!matches!(prepared, Prepared::Skip)).then_some((position, entry, prepared))
    });
    let run_one = |(position, entry, prepared): &(usize, &FileEntry, Prepared)| {
        let leaks = LeakLog::default();
        let began = Instant::now();
        let run = (args, started.take(*position), crashes.as_ref());
        let ran = run_prepared(entry, prepared, run, &leaks);
        (ran, leaks.into_leaks(), began.elapsed())
    };
    let report_one = |(_, entry, prepared): (usize, &FileEntry, Prepared),
                      (ran, leaks, elapsed): Outcome| {
        let mut spent = Spent {
            sent: cases_sent(&prepared).filter(|_| ran.is_some()),
            leaks,
            elapsed,
        };
        let run = (args, crashes.as_ref());
        let reported = report_file(consumer, run, &ledger, (entry, prepared), ran, &mut spent);
        if let Some(cases) = spent.sent {
            times.push(FileTime {
                file: entry.name.clone(),
                cases,
                elapsed: spent.elapsed,
            });
        }
        match reported {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => ControlFlow::Break(error),
        }
    };
    if let Some(error) = pool::ordered(args.jobs, ready, run_one, report_one) {
        return Err(error.into());
    }
    let ledger = ledger.into_inner();
    report_orphans(consumer, args, &orphans)?;
    if let Some(ledger) = ledger {
        report_ledger(consumer, args, ledger);
    }
    Ok(times)
}

/// The goldens without a case file the run reports.
fn orphaned_goldens(args: &RunArgs) -> Result<Vec<FileEntry>, InputError> {
    let corpus = &args.corpus;
    // Which ops a golden without a case file held cannot be known; a
    // shard leaves the goldens to `merge`, which sees every shard.
    let mut orphans = if args.ops.is_empty() && corpus.shard.is_none() {
        corpus.orphans()?
    } else {
        Vec::new()
    };
    if let Some(rerun) = &args.rerun {
        orphans.retain(|orphan| rerun.orphans.contains(&orphan.name));
    }
    Ok(orphans)
}

/// What a file's oracle runs spent: the cases sent (`None`: the run does
/// not count for `--record-timings`), the processes left holding their
/// output, and the time.
struct Spent {
    sent: Option<usize>,
    leaks: Vec<Leak>,
    elapsed: Duration,
}

/// Reports one file: its records, from what its oracle made of it, and
/// the processes its runs left.
fn report_file<C: Consumer>(
    consumer: &mut Watched<'_, C>,
    (args, crashes): (&RunArgs, Option<&KnownCrashes>),
    ledger: &RefCell<Option<&mut LedgerUse>>,
    (entry, prepared): (&FileEntry, Prepared),
    ran: Option<Ran>,
    spent: &mut Spent,
) -> io::Result<()> {
    consumer.begin_file(FileInfo {
        name: Some(entry.name.clone()),
        path: Some(crate::corpus::identity::path_text(&entry.case_path)),
        suite: args.suite.clone(),
    })?;
    let held = ledger.borrow();
    let known = held.as_deref().map(|use_| &use_.ledger);
    let judging = (args.report.judging(&args.errors), args.framing);
    let ran = match (&prepared, ran) {
        (Prepared::Large(large), Some(Ran::Live(live))) => judge_live(
            consumer,
            (entry, large),
            live,
            known,
            (args, crashes),
            spent,
        )?,
        (_, ran) => ran,
    };
    report_ran(consumer, (entry, prepared), ran, judging, known)?;
    drop(held);
    warn_of_leaks(consumer, &entry.name, &spent.leaks)?;
    consumer.end_file()
}

/// A large file's live run waited for: its counts reported, or what is
/// left to report of it once it is judged after its run.
fn judge_live<C: Consumer>(
    consumer: &mut Watched<'_, C>,
    (entry, large): (&FileEntry, &Large),
    live: Live,
    known: Option<&Ledger>,
    (args, crashes): (&RunArgs, Option<&KnownCrashes>),
    spent: &mut Spent,
) -> io::Result<Option<Ran>> {
    Ok(
        match live::report_live(consumer, entry, large, live, known)? {
            Judged::Reported {
                leaks: left,
                elapsed: took,
            } => {
                (spent.leaks, spent.elapsed) = (left, took);
                None
            }
            // As when the golden is checked before the run, which then does
            // not count.
            Judged::BadGolden(message) => {
                spent.sent = None;
                consumer.problem(error(message, 0))?;
                None
            }
            // Judged after the run, as a run that is not live.
            Judged::After(finished) => {
                let again = LeakLog::default();
                let started = Instant::now();
                let ran = match finished.output {
                    Some(output) => Ran::Streamed(output),
                    None => run_again(entry, large, (args, crashes), &again),
                };
                spent.leaks = finished.leaks;
                spent.leaks.extend(again.into_leaks());
                spent.elapsed = finished.elapsed + started.elapsed();
                Some(ran)
            }
        },
    )
}

/// The records of a prepared file, from what its oracle made of it.
fn report_ran<C: Consumer>(
    consumer: &mut Watched<'_, C>,
    (entry, prepared): (&FileEntry, Prepared),
    ran: Option<Ran>,
    judging: (Judging, Framing),
    known: Option<&Ledger>,
) -> io::Result<()> {
    match (prepared, ran) {
        (Prepared::Problem(problem), _) => consumer.problem(problem)?,
        (Prepared::Ready(cases, selection, golden), Some(Ran::Memory(ran))) => {
            let ready = (&cases, selection.as_ref(), golden.as_slice());
            file_run::report_ready(consumer, entry, ready, ran, judging, known)?;
        }
        (Prepared::Large(large), Some(Ran::Streamed(output))) => {
            report_large(consumer, entry, &large, output, judging, known)?;
        }
        (Prepared::Large(_), Some(Ran::Memory(FileRun::BadGolden(message)))) => {
            consumer.problem(error(message, 0))?;
        }
        (Prepared::Large(_), Some(Ran::Again(again))) => {
            let (cases, selection, golden, ran) = *again;
            let ready = (&cases, selection.as_ref(), golden.as_slice());
            file_run::report_ready(consumer, entry, ready, ran, judging, known)?;
        }
        _ => {}
    }
    Ok(())
}

/// A problem for each golden without a case file, each as a file of its
/// own.
fn report_orphans<C: Consumer>(
    consumer: &mut C,
    args: &RunArgs,
    orphans: &[FileEntry],
) -> io::Result<()> {
    for orphan in orphans {
        consumer.begin_file(FileInfo {
            name: Some(orphan.name.clone()),
            path: None,
            suite: args.suite.clone(),
        })?;
        consumer.problem(Problem::OrphanGolden {
            golden: path_text(&orphan.golden_path),
        })?;
        consumer.end_file()?;
    }
    Ok(())
}

/// What the run tells of the ledger: which entries and rules met their
/// cases and, on a full run, the orphaned entries and the rules'
/// findings (a shard's rules, for `merge`).
fn report_ledger<C: Consumer>(
    consumer: &mut Watched<'_, C>,
    args: &RunArgs,
    ledger: &mut LedgerUse,
) {
    let corpus = &args.corpus;
    ledger.saw_entries(consumer.seen.drain(..));
    ledger.used_rules(consumer.rules.drain(..));
    let every = corpus.filter.is_none() && args.ops.is_empty() && args.rerun.is_none();
    if every && corpus.shard.is_none() {
        for entry in ledger.orphans() {
            consumer.orphaned_entry(entry);
        }
        for finding in ledger.rule_findings() {
            consumer.rule_finding(&finding);
        }
    } else if every {
        // The whole run's findings are merge's to make, from every
        // shard's.
        consumer.shard_rules(ledger.rule_findings());
    }
}

/// Writes the file times of `--record-timings`, when it was given.
pub fn record_timings(args: &RunArgs, times: &[FileTime]) -> Result<(), InputError> {
    match &args.record_timings {
        Some(path) => timings::write(path, times),
        None => Ok(()),
    }
}

/// Runs `run`.
pub fn run_command(args: &RunArgs, out: impl Write) -> Result<Totals, InputError> {
    let mut ledger = LedgerUse::open(args.ledger.as_deref(), &args.ledger_path(), false)?;
    let files = list(args)?;
    // Dropped (on an error below too), a run started waits for its oracle.
    let started = Started::start(args, &files, ledger.is_some());
    let plan = plan_listed(args, &files)?;
    let run = RunInfo {
        command: "run",
        shard: plan.shard_info(),
        corpus: Some(plan.info.clone()),
        ledger: ledger.as_ref().map(LedgerUse::info),
        ..RunInfo::default()
    };
    let mut sink = Reports::new(out, args.report, run, &args.extra)?;
    let times = run_planned(args, (&files, &plan, started), ledger.as_mut(), &mut sink)?;
    let totals = sink.finish()?;
    record_timings(args, &times)?;
    Ok(totals)
}
