//! `parity-diff run`: every wanted case file through an oracle, each
//! result array against its golden, case by case, then the orphaned
//! goldens and (on a full run) the orphaned ledger entries. Never stops at
//! a failing file. `accept` runs the same way and watches the records.
//!
//! With `--op`, only the cases of those ops are sent to the oracle (the
//! file as the array of their raw bytes, in order) and compared with the
//! golden's elements at the same positions; files without such cases are
//! left out. `--shard K/N` takes one of N balanced ranges of the selected
//! cases ([`plan`](mod@super::plan)), sent the same way; orphaned goldens and
//! ledger entries are then left to `merge`.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

use super::arrays;
use super::cases::CaseFile;
use super::corpus::{Corpus, Entry as FileEntry};
use super::error::InputError;
use super::file_run::{self, FileRun};
use super::identity::CaseId;
pub use super::judge::{compare_file, LedgerUse};
use super::ledger::Entry;
use super::oracle::{Oracle, OracleOptions};
use super::plan::{self, Part, Plan, Selection};
use super::pool;
use super::record::{CaseRecord, CaseState};
use super::report::{Consumer, FileInfo, Problem, ReportOptions, RunInfo, Sink, Totals};
use super::stream;
use super::stream::run::{report_large, run_large, Large};

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
    /// How long one oracle run may take, and how much it may print.
    pub limits: OracleOptions,
    /// `--jobs`: how many oracle runs at once.
    pub jobs: usize,
    /// How to report.
    pub report: ReportOptions,
}

fn error(message: impl Into<String>, skipped: usize) -> Problem {
    Problem::Error {
        message: message.into(),
        stderr: None,
        skipped,
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
    Streamed(File),
    /// A large file the oracle failed on, run again in memory.
    Again(Box<(CaseFile, Option<Selection>, Vec<u8>, FileRun)>),
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
            golden: entry.golden_path.clone(),
        },
    })
}

/// [`prepare`] for a large file: read through, never held.
fn prepare_large(
    entry: &FileEntry,
    part: Part,
    ops: &[String],
    mut ledger: Option<&mut LedgerUse>,
) -> Prepared {
    let survey = match stream::run::survey(entry, part, ops, ledger.as_deref_mut()) {
        Ok(survey) => survey,
        Err(failure) => {
            if let Some(ledger) = ledger {
                ledger.unreadable(&entry.name);
            }
            return Prepared::Problem(error(failure.message, 0));
        }
    };
    if survey
        .selection
        .as_ref()
        .is_some_and(|selection| selection.positions.is_empty())
    {
        return Prepared::Skip;
    }
    if let Some(ledger) = ledger {
        if !survey.is_array {
            ledger.unreadable(&entry.name);
        }
        if let Some(message) = survey.duplicate {
            let wanted = survey
                .selection
                .as_ref()
                .map_or(survey.cases, |selection| selection.positions.len());
            return Prepared::Problem(error(message, wanted));
        }
    }
    if let Some(problem) = golden_problem(entry) {
        return Prepared::Problem(problem);
    }
    match stream::run::golden_elements(entry) {
        Ok(golden) => Prepared::Large(Large {
            is_array: survey.is_array,
            cases: survey.cases,
            selection: survey.selection,
            golden,
        }),
        Err(failure) => Prepared::Problem(error(failure.message, 0)),
    }
}

/// Runs a prepared file through the oracle (on any thread).
fn run_prepared(entry: &FileEntry, prepared: &Prepared, args: &RunArgs) -> Option<Ran> {
    let oracle = |batch: &[u8]| args.oracle.run(batch, args.limits);
    match prepared {
        Prepared::Ready(cases, selection, golden) => {
            let ready = (cases, selection.as_ref(), golden.as_slice());
            Some(Ran::Memory(file_run::run_ready(entry, ready, oracle)))
        }
        Prepared::Large(large) => {
            if let Some(output) = run_large(entry, large, &args.oracle, args.limits) {
                return Some(Ran::Streamed(output));
            }
            // The oracle failed: the file is run again in memory, where
            // the cases to blame are found.
            let cases = match arrays::read_file("case file", &entry.case_path) {
                Ok(bytes) => CaseFile::read(&entry.name, bytes),
                Err(failure) => return Some(Ran::Memory(FileRun::BadGolden(failure.message))),
            };
            let golden = match arrays::read_file("golden", &entry.golden_path) {
                Ok(bytes) => bytes,
                Err(failure) => return Some(Ran::Memory(FileRun::BadGolden(failure.message))),
            };
            let selection = large.selection.clone();
            let ran = file_run::run_ready(entry, (&cases, selection.as_ref(), &golden), oracle);
            Some(Ran::Again(Box::new((cases, selection, golden, ran))))
        }
        Prepared::Skip | Prepared::Problem(_) => None,
    }
}

fn prepare(
    entry: &FileEntry,
    (part, large): (Part, bool),
    ops: &[String],
    ledger: Option<&mut LedgerUse>,
) -> Prepared {
    if let Some(broken) = &entry.broken {
        if let Some(ledger) = ledger {
            ledger.unreadable(&entry.name);
        }
        return Prepared::Problem(error(broken.clone(), 0));
    }
    if large {
        return prepare_large(entry, part, ops, ledger);
    }
    let cases = match arrays::read_file("case file", &entry.case_path) {
        Ok(bytes) => CaseFile::read(&entry.name, bytes),
        Err(failure) => {
            if let Some(ledger) = ledger {
                ledger.unreadable(&entry.name);
            }
            return Prepared::Problem(error(failure.message, 0));
        }
    };
    let selection = plan::select(part, &cases, ops);
    if selection
        .as_ref()
        .is_some_and(|selection| selection.positions.is_empty())
    {
        return Prepared::Skip;
    }
    if let Some(ledger) = ledger {
        ledger.saw_file(&cases);
        if let Some(message) = cases.duplicate_identity() {
            let wanted = selection
                .as_ref()
                .map_or(cases.items.len(), |selection| selection.positions.len());
            return Prepared::Problem(error(message, wanted));
        }
    }
    if let Some(problem) = golden_problem(entry) {
        return Prepared::Problem(problem);
    }
    let golden = match arrays::read_file("golden", &entry.golden_path) {
        Ok(bytes) => bytes,
        Err(failure) => return Prepared::Problem(error(failure.message, 0)),
    };
    Prepared::Ready(cases, selection, golden)
}

/// The case files a run lists and its plan.
pub fn plan(args: &RunArgs) -> Result<(Vec<FileEntry>, Plan), InputError> {
    let corpus = &args.corpus;
    let files = corpus.case_files()?;
    super::corpus::require_dir("golden", &corpus.golden)?;
    let plan = Plan::new(corpus, &files, &args.ops)?;
    Ok((files, plan))
}

/// Runs the corpus, handing every record to `consumer`; orphaned goldens
/// and (on a full run) orphaned ledger entries last.
pub fn run_corpus<C: Consumer>(
    args: &RunArgs,
    ledger: Option<&mut LedgerUse>,
    consumer: &mut C,
) -> Result<(), InputError> {
    let (files, plan) = plan(args)?;
    run_planned(args, (&files, &plan), ledger, consumer)
}

/// A consumer that notes which ledger entries met their case: every
/// record that carries an entry, those known only by position (golden
/// elements past a file's cases, extra results) included.
struct Watched<'a, C> {
    inner: &'a mut C,
    seen: Vec<CaseId>,
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
    fn counted(&mut self, op: Option<&str>, state: CaseState) -> io::Result<()> {
        self.inner.counted(op, state)
    }
    fn begin_file(&mut self, file: FileInfo) -> io::Result<()> {
        self.inner.begin_file(file)
    }
    fn case(&mut self, record: CaseRecord) -> io::Result<()> {
        if record.entry.is_some() {
            self.seen.push(record.id.clone());
        }
        self.inner.case(record)
    }
    fn problem(&mut self, problem: Problem) -> io::Result<()> {
        self.inner.problem(problem)
    }
    fn end_file(&mut self) -> io::Result<()> {
        self.inner.end_file()
    }
    fn orphaned_entry(&mut self, entry: &Entry) {
        self.inner.orphaned_entry(entry)
    }
}

/// Runs a planned corpus.
pub fn run_planned<C: Consumer>(
    args: &RunArgs,
    (files, plan): (&[FileEntry], &Plan),
    ledger: Option<&mut LedgerUse>,
    consumer: &mut C,
) -> Result<(), InputError> {
    let corpus = &args.corpus;
    let consumer = &mut Watched {
        inner: consumer,
        seen: Vec::new(),
    };
    // Which ops a golden without a case file held cannot be known; a
    // shard leaves the goldens to `merge`, which sees every shard.
    let orphans = if args.ops.is_empty() && corpus.shard.is_none() {
        corpus.orphans()?
    } else {
        Vec::new()
    };
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
        let prepared = prepare(
            entry,
            (part, large),
            &args.ops,
            ledger.borrow_mut().as_deref_mut(),
        );
        (!matches!(prepared, Prepared::Skip)).then_some((entry, prepared))
    });
    let run_one = |(entry, prepared): &(&FileEntry, Prepared)| run_prepared(entry, prepared, args);
    let report_one = |(entry, prepared): (&FileEntry, Prepared), ran: Option<Ran>| {
        let reported = (|| {
            consumer.begin_file(FileInfo {
                name: Some(entry.name.clone()),
                path: Some(entry.case_path.display().to_string()),
            })?;
            let held = ledger.borrow();
            let known = held.as_deref().map(|use_| &use_.ledger);
            let semantic = args.report.semantic;
            match (prepared, ran) {
                (Prepared::Problem(problem), _) => consumer.problem(problem)?,
                (Prepared::Ready(cases, selection, golden), Some(Ran::Memory(ran))) => {
                    let ready = (&cases, selection.as_ref(), golden.as_slice());
                    file_run::report_ready(consumer, entry, ready, ran, semantic, known)?;
                }
                (Prepared::Large(large), Some(Ran::Streamed(output))) => {
                    report_large(consumer, entry, &large, output, semantic, known)?;
                }
                (Prepared::Large(_), Some(Ran::Memory(FileRun::BadGolden(message)))) => {
                    consumer.problem(error(message, 0))?;
                }
                (Prepared::Large(_), Some(Ran::Again(again))) => {
                    let (cases, selection, golden, ran) = *again;
                    let ready = (&cases, selection.as_ref(), golden.as_slice());
                    file_run::report_ready(consumer, entry, ready, ran, semantic, known)?;
                }
                _ => {}
            }
            drop(held);
            consumer.end_file()
        })();
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
        })?;
        consumer.problem(Problem::OrphanGolden {
            golden: orphan.golden_path.clone(),
        })?;
        consumer.end_file()?;
    }
    if let Some(ledger) = ledger {
        ledger.saw_entries(consumer.seen.drain(..));
        if corpus.is_whole() && args.ops.is_empty() {
            for entry in ledger.orphans() {
                consumer.orphaned_entry(entry);
            }
        }
    }
    Ok(())
}

/// Runs `run`.
pub fn run_command(args: &RunArgs, out: impl Write) -> Result<Totals, InputError> {
    let mut ledger = LedgerUse::open(args.ledger.as_deref(), &args.corpus.cases, false)?;
    let (files, plan) = plan(args)?;
    let run = RunInfo {
        command: "run",
        shard: plan.shard_info(),
        corpus: Some(plan.info.clone()),
        ledger: ledger.as_ref().map(LedgerUse::info),
    };
    let mut sink = Sink::new(out, args.report, run);
    run_planned(args, (&files, &plan), ledger.as_mut(), &mut sink)?;
    Ok(sink.finish()?)
}
