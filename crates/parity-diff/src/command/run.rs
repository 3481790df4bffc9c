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
//! the cases its report names ([`rerun`](crate::corpus::rerun)), and
//! looks again for the orphaned goldens it names; orphaned ledger entries
//! and rules are a full run's to check. `--record-timings` writes each
//! file's oracle time ([`timings`]) once the run
//! is reported: never in the report, which is the same for every
//! `--jobs`.

use std::cell::RefCell;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::command::arrays;
use crate::corpus::cases::CaseFile;
use crate::corpus::identity::{path_text, CaseId};
use crate::corpus::op_runs::OpRuns;
use crate::corpus::plan::{self, Part, Plan, Planning, Selection};
use crate::corpus::rerun::RerunFiles;
use crate::corpus::timings::{self, FileTime, Timings};
use crate::corpus::wanted::{FileWanted, Wanted};
use crate::corpus::{Corpus, Entry as FileEntry};
use crate::error::InputError;
use crate::exec::file_run::{self, FileRun};
use crate::exec::oracle::{leak_warnings, Leak, LeakLog, Oracle, OracleOptions, Streamed};
use crate::exec::pool;
use crate::exec::stream;
use crate::exec::stream::live::{self, Judged, Live};
use crate::exec::stream::run::{report_large, run_large, Large};
use crate::judge::framing::Framing;
pub use crate::judge::LedgerUse;
use crate::ledger::rules::RuleFinding;
use crate::ledger::Entry;
use crate::record::{CaseRecord, CaseState};
use crate::report::{
    Consumer, FileInfo, Format, KnownOps, Problem, ReportOptions, RunInfo, Sink, Totals,
};
pub use started::Started;

mod started;

/// The `run` command's inputs.
#[derive(Debug, Clone)]
pub struct RunArgs {
    /// Who produces the results.
    pub oracle: Oracle,
    /// The corpus.
    pub corpus: Corpus,
    /// `--op`: only these ops' cases (empty: every case).
    pub ops: Vec<String>,
    /// `--ledger`: the ledger's path (default: beside the cases, when
    /// that file exists).
    pub ledger: Option<PathBuf>,
    /// Where the ledger is looked for without `--ledger` (none: beside
    /// the cases); a file that does not exist there means no ledger.
    pub ledger_default: Option<PathBuf>,
    /// How long one oracle run may take, and how much it may print.
    pub limits: OracleOptions,
    /// `--jobs`: how many oracle runs at once.
    pub jobs: usize,
    /// How to report.
    pub report: ReportOptions,
    /// `--framing`: whether the bytes around the results must be exactly
    /// what `JSON.stringify` prints.
    pub framing: Framing,
    /// `--repeat N`: each file runs N times, and a case whose result
    /// differs between runs is `nondeterministic` (1: once).
    pub repeat: usize,
    /// The suite of `parity.toml` this corpus is, which the report names
    /// on each of its files.
    pub suite: Option<String>,
    /// The suite's `ops`: a case of any other op counts on the `(unknown
    /// op)` row (without: a case whose golden threw `unknown op …`).
    pub known_ops: Option<KnownOps>,
    /// `--rerun-failed`: what its report takes again of this suite.
    pub rerun: Option<RerunFiles>,
    /// `--timings`: the times `--shard` is balanced by.
    pub timings: Option<Timings>,
    /// `--record-timings`: where each file's oracle time is written.
    pub record_timings: Option<PathBuf>,
}

impl RunArgs {
    /// What the run wants of its corpus's cases.
    pub fn wanted(&self) -> Wanted<'_> {
        Wanted {
            ops: &self.ops,
            rerun: self.rerun.as_ref(),
        }
    }

    /// The ledger's path: `--ledger`, else the default.
    pub fn ledger_path(&self) -> PathBuf {
        match (&self.ledger, &self.ledger_default) {
            (Some(path), _) | (None, Some(path)) => path.clone(),
            (None, None) => crate::ledger::default_path(&self.corpus.cases),
        }
    }
}

fn error(message: impl Into<String>, skipped: usize) -> Problem {
    Problem::Error {
        message: message.into(),
        stderr: None,
        skipped,
        port: false,
    }
}

/// A file ready to compare, or why it cannot be.
enum Prepared {
    /// No wanted case: left out of the report.
    Skip,
    /// Cannot be compared.
    Problem(Problem),
    /// The cases, the selection, the golden's bytes and the oracle's input.
    Ready(CaseFile, Option<Selection>, Vec<u8>),
    /// A large file, read through, to be streamed.
    Large(Large),
}

/// What the oracle made of a prepared file.
enum Ran {
    /// A file in memory.
    Memory(FileRun),
    /// A large file's output, on disk.
    Streamed(Streamed),
    /// A large file the oracle failed on, run again in memory.
    Again(Box<(CaseFile, Option<Selection>, Vec<u8>, FileRun)>),
    /// A large file whose oracle runs on a thread of its own ([`live`]).
    Live(Live),
}

/// Whether a golden exists, or the problem of a file whose golden does
/// not.
fn golden_problem(entry: &FileEntry) -> Option<Problem> {
    if entry.golden_path.exists() {
        return None;
    }
    Some(match entry.golden_path.symlink_metadata() {
        Ok(_) => error(
            format!(
                "golden {} is a symbolic link to nothing, or one that loops",
                entry.golden_path.display()
            ),
            0,
        ),
        Err(_) => Problem::MissingGolden {
            golden: path_text(&entry.golden_path),
        },
    })
}

/// Runs a prepared file through the oracle (on any thread), noting the
/// processes its runs leave holding their output in `leaks`.
fn run_prepared(
    entry: &FileEntry,
    prepared: &Prepared,
    (args, started): (&RunArgs, Option<Live>),
    leaks: &LeakLog,
) -> Option<Ran> {
    let oracle = |batch: &[u8]| args.oracle.run_noting(batch, args.limits, leaks);
    match prepared {
        Prepared::Ready(cases, selection, golden) => {
            let ready = (cases, selection.as_ref(), golden.as_slice());
            Some(Ran::Memory(file_run::run_ready(
                entry,
                ready,
                oracle,
                args.repeat,
            )))
        }
        Prepared::Large(large) => {
            if runs_live(args) {
                let live = started.or_else(|| {
                    live::start(entry, large.selection.as_ref(), &args.oracle, args.limits)
                });
                return Some(match live {
                    Some(live) => Ran::Live(live),
                    None => Ran::Memory(FileRun::BadGolden(
                        "cannot start a thread for the oracle's run".into(),
                    )),
                });
            }
            if let Some(mut output) = run_large(entry, large, &args.oracle, args.limits, leaks) {
                if same_on_every_run(entry, large, args, leaks, &mut output) {
                    return Some(Ran::Streamed(output));
                }
            }
            Some(run_again(entry, large, args, leaks))
        }
        Prepared::Skip | Prepared::Problem(_) => None,
    }
}

/// Whether a large file's oracle runs on a thread of its own while the
/// reporting thread reads its cases and golden ([`live`]): when it runs
/// once.
fn runs_live(args: &RunArgs) -> bool {
    args.repeat == 1
}

/// A large file the oracle failed on (or that printed something else on
/// another run), run again in memory, where the cases to blame are found
/// (and those whose results differ).
fn run_again(entry: &FileEntry, large: &Large, args: &RunArgs, leaks: &LeakLog) -> Ran {
    let oracle = |batch: &[u8]| args.oracle.run_noting(batch, args.limits, leaks);
    let cases = match arrays::read_file("case file", &entry.case_path) {
        Ok(bytes) => CaseFile::read(&entry.name, bytes),
        Err(failure) => return Ran::Memory(FileRun::BadGolden(failure.message)),
    };
    let golden = match arrays::read_file("golden", &entry.golden_path) {
        Ok(bytes) => bytes,
        Err(failure) => return Ran::Memory(FileRun::BadGolden(failure.message)),
    };
    let selection = large.selection.clone();
    let ready = (&cases, selection.as_ref(), golden.as_slice());
    let ran = file_run::run_ready(entry, ready, oracle, args.repeat);
    Ran::Again(Box::new((cases, selection, golden, ran)))
}

/// With `--repeat N`, whether a large file's other N - 1 runs print
/// the very bytes of its first (`output`, left at its start): only then
/// is it streamed; otherwise it is run in memory, case by case.
fn same_on_every_run(
    entry: &FileEntry,
    large: &Large,
    args: &RunArgs,
    leaks: &LeakLog,
    output: &mut Streamed,
) -> bool {
    (2..=args.repeat).all(|_| {
        run_large(entry, large, &args.oracle, args.limits, leaks).is_some_and(|mut again| {
            crate::exec::repeat::same_files(&mut output.output, &mut again.output).unwrap_or(false)
        })
    })
}

/// A case file as a run reads it: held in memory, or (a large one) read
/// through once and never held.
enum Read {
    Memory(CaseFile),
    Large(stream::run::Survey),
}

/// What the plan learned of a file, when it counted it: whether it is an
/// array, its cases, and (every case wanted) each case's op.
type Planned<'p> = Option<(bool, usize, Option<&'p Arc<OpRuns>>)>;

/// Reads a file's cases and golden, and decides what its run compares:
/// the same steps for a file held in memory and a large one read through
/// (its cases surveyed, its golden checked and counted).
fn prepare(
    entry: &FileEntry,
    (part, large, planned): (Part, bool, Planned<'_>),
    live: bool,
    wanted: FileWanted<'_>,
    mut ledger: Option<&mut LedgerUse>,
) -> Prepared {
    let read = match &entry.broken {
        Some(broken) => Err(broken.clone()),
        // What the plan counted is all a survey would learn of a file
        // whose cases are all wanted, with no ledger to mark.
        None if large && wanted.every() && ledger.is_none() && planned.is_some() => {
            let (is_array, cases, op_runs) = planned.unwrap_or_default();
            Ok(Read::Large(stream::run::Survey {
                is_array,
                cases,
                selection: plan::select_among(part, true, || (0..cases).collect()),
                duplicate: None,
                op_runs: op_runs.cloned(),
            }))
        }
        // The survey marks the ledger's entries as it meets their cases.
        None if large => stream::run::survey(entry, part, wanted, ledger.as_deref_mut())
            .map(Read::Large)
            .map_err(|failure| failure.message),
        None => arrays::read_file("case file", &entry.case_path)
            .map(|bytes| Read::Memory(CaseFile::read(&entry.name, bytes)))
            .map_err(|failure| failure.message),
    };
    let mut read = match read {
        Ok(read) => read,
        Err(message) => {
            if let Some(ledger) = ledger {
                ledger.unreadable(&entry.name);
            }
            return Prepared::Problem(error(message, 0));
        }
    };
    let (selection, cases) = match &mut read {
        Read::Memory(file) => (plan::select(part, file, wanted), file.items.len()),
        Read::Large(survey) => (survey.selection.take(), survey.cases),
    };
    if selection
        .as_ref()
        .is_some_and(|selection| selection.positions.is_empty())
    {
        return Prepared::Skip;
    }
    if let Some(ledger) = ledger {
        let duplicate = match &mut read {
            Read::Memory(file) => {
                ledger.saw_file(file);
                file.duplicate_identity()
            }
            Read::Large(survey) => {
                if !survey.is_array {
                    ledger.unreadable(&entry.name);
                }
                survey.duplicate.take()
            }
        };
        if let Some(message) = duplicate {
            let wanted = selection
                .as_ref()
                .map_or(cases, |selection| selection.positions.len());
            return Prepared::Problem(error(message, wanted));
        }
    }
    if let Some(problem) = golden_problem(entry) {
        return Prepared::Problem(problem);
    }
    match read {
        Read::Memory(file) => match arrays::read_file("golden", &entry.golden_path) {
            Ok(golden) => Prepared::Ready(file, selection, golden),
            Err(failure) => Prepared::Problem(error(failure.message, 0)),
        },
        Read::Large(survey) => {
            // A live run checks its golden while the oracle runs.
            let checked = match live {
                true => Ok(0),
                false => stream::run::golden_elements(entry, |_| {}),
            };
            match checked {
                Ok(_) => Prepared::Large(Large {
                    is_array: survey.is_array,
                    cases,
                    selection,
                    op_runs: survey.op_runs,
                }),
                Err(failure) => Prepared::Problem(error(failure.message, 0)),
            }
        }
    }
}

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
    let fingerprint = args.report.format == Format::Json;
    let planning = Planning {
        timings: args.timings.as_ref(),
        fingerprint,
        // A large file run live counts its identical cases by the plan's
        // ops, not reading its case file again.
        op_runs: runs_live(args).then_some(stream::run::streams as fn(&FileEntry) -> bool),
    };
    let plan = Plan::planned(&args.corpus, files, args.wanted(), planning)?;
    if let (Some(count), Some(rerun)) = (&plan.rerun, &args.rerun) {
        let note = count.note(&rerun.source, args.suite.as_deref());
        let _ = writeln!(io::stderr(), "parity-diff: {note}");
    }
    Ok(plan)
}

/// How many cases a prepared file sends to the oracle; `None` when it
/// runs none.
fn cases_sent(prepared: &Prepared) -> Option<usize> {
    let count = |selection: &Option<Selection>, every: usize| {
        selection
            .as_ref()
            .map_or(every, |selection| selection.positions.len())
    };
    match prepared {
        Prepared::Ready(cases, selection, _) => Some(count(selection, cases.items.len())),
        Prepared::Large(large) => Some(count(&large.selection, large.cases)),
        Prepared::Skip | Prepared::Problem(_) => None,
    }
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

/// A consumer that notes which ledger entries met their case: every
/// record that carries an entry, those known only by position (golden
/// elements past a file's cases, extra results) included. It also puts
/// each case on its per-op row by the suite's `ops`, when it has them.
struct Watched<'a, C> {
    inner: &'a mut C,
    known_ops: Option<&'a KnownOps>,
    seen: Vec<CaseId>,
    /// The ledger rules that decided a case.
    rules: Vec<usize>,
}

impl<C: Consumer> Consumer for Watched<'_, C> {
    fn explains(&self) -> bool {
        self.inner.explains()
    }
    fn fingerprints(&self) -> bool {
        self.inner.fingerprints()
    }
    fn wants_detail(&self, record: &CaseRecord) -> bool {
        self.inner.wants_detail(record)
    }
    fn wants_passing(&self) -> bool {
        self.inner.wants_passing()
    }
    fn counted(
        &mut self,
        op: Option<&str>,
        unknown_op: bool,
        state: CaseState,
        cases: u64,
    ) -> io::Result<()> {
        let unknown_op = match self.known_ops {
            Some(known) => known.unknown(op, unknown_op),
            None => unknown_op,
        };
        self.inner.counted(op, unknown_op, state, cases)
    }
    fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        self.inner.begin_file(file)
    }
    fn case(&mut self, mut record: CaseRecord) -> io::Result<()> {
        if let Some(known) = self.known_ops {
            record.unknown_op = known.unknown(record.op.as_deref(), record.unknown_op);
        }
        if let Some(rule) = record.rule {
            self.rules.push(rule);
        } else if record.entry.is_some() {
            self.seen.push(record.id.clone());
        }
        self.inner.case(record)
    }
    fn problem(&mut self, problem: Problem) -> io::Result<()> {
        if let Problem::Framing {
            rule: Some(rule), ..
        } = problem
        {
            self.rules.push(rule);
        }
        self.inner.problem(problem)
    }
    fn warning(&mut self, text: &str) -> io::Result<()> {
        self.inner.warning(text)
    }
    fn end_file(&mut self) -> io::Result<()> {
        self.inner.end_file()
    }
    fn orphaned_entry(&mut self, entry: &Entry) {
        self.inner.orphaned_entry(entry)
    }
    fn rule_finding(&mut self, finding: &RuleFinding) {
        self.inner.rule_finding(finding)
    }
    fn shard_rules(&mut self, findings: Vec<RuleFinding>) {
        self.inner.shard_rules(findings)
    }
}

/// The leaks of a file's oracle runs, as warnings: in the report, and on
/// stderr (in corpus order, since reports are made in it).
fn warn_of_leaks<C: Consumer>(consumer: &mut C, file: &str, leaks: &[Leak]) -> io::Result<()> {
    for text in leak_warnings(leaks) {
        let _ = writeln!(
            io::stderr(),
            "parity-diff: warning: {}: {text}",
            file.escape_debug()
        );
        consumer.warning(&text)?;
    }
    Ok(())
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
    let corpus = &args.corpus;
    let consumer = &mut Watched {
        inner: consumer,
        known_ops: args.known_ops.as_ref(),
        seen: Vec::new(),
        rules: Vec::new(),
    };
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
    let mut times = Vec::new();
    // Files are read and prepared here, in order; their oracle runs go to
    // the pool; their records are made here again, in order. Preparing
    // marks the ledger's entries as seen and making records consults it,
    // both on this thread but from two closures: hence the RefCell.
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
        let ran = run_prepared(entry, prepared, (args, started.take(*position)), &leaks);
        (ran, leaks.into_leaks(), began.elapsed())
    };
    let report_one = |(_, entry, prepared): (usize, &FileEntry, Prepared),
                      (ran, mut leaks, mut elapsed): Outcome| {
        let mut sent = cases_sent(&prepared).filter(|_| ran.is_some());
        let reported = (|| {
            consumer.begin_file(FileInfo {
                name: Some(entry.name.clone()),
                path: Some(crate::corpus::identity::path_text(&entry.case_path)),
                suite: args.suite.clone(),
            })?;
            let held = ledger.borrow();
            let known = held.as_deref().map(|use_| &use_.ledger);
            let judging = (args.report.semantic, args.framing);
            let ran = match (&prepared, ran) {
                (Prepared::Large(large), Some(Ran::Live(live))) => {
                    match live::report_live(consumer, entry, large, live, known)? {
                        Judged::Reported {
                            leaks: left,
                            elapsed: took,
                        } => {
                            (leaks, elapsed) = (left, took);
                            None
                        }
                        // As when the golden is checked before the run,
                        // which then does not count.
                        Judged::BadGolden(message) => {
                            sent = None;
                            consumer.problem(error(message, 0))?;
                            None
                        }
                        // Judged after the run, as a run that is not live.
                        Judged::After(finished) => {
                            let again = LeakLog::default();
                            let started = Instant::now();
                            let ran = match finished.output {
                                Some(output) => Ran::Streamed(output),
                                None => run_again(entry, large, args, &again),
                            };
                            leaks = finished.leaks;
                            leaks.extend(again.into_leaks());
                            elapsed = finished.elapsed + started.elapsed();
                            Some(ran)
                        }
                    }
                }
                (_, ran) => ran,
            };
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
            drop(held);
            warn_of_leaks(consumer, &entry.name, &leaks)?;
            consumer.end_file()
        })();
        if let Some(cases) = sent {
            times.push(FileTime {
                file: entry.name.clone(),
                cases,
                elapsed,
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
    for orphan in &orphans {
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
    if let Some(ledger) = ledger {
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
    Ok(times)
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
        suites: Vec::new(),
    };
    let mut sink = Sink::new(out, args.report, run);
    let times = run_planned(args, (&files, &plan, started), ledger.as_mut(), &mut sink)?;
    let totals = sink.finish()?;
    record_timings(args, &times)?;
    Ok(totals)
}
