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
use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use super::arrays::{self, InputError};
use super::cases::CaseFile;
use super::compare::{compare_elements, Comparison, Verdict};
use super::corpus::{Corpus, Entry as FileEntry};
use super::file_run::{self, FileRun};
use super::identity::{CaseId, CaseKey};
use super::ledger::{self, Entry, Ledger};
use super::oracle::{Oracle, OracleOptions};
use super::plan::{self, Part, Plan, Selection};
use super::pool;
use super::record::build::{self, Compared};
use super::record::{CaseRecord, CaseState};
use super::report::{
    Consumer, FileInfo, LedgerInfo, Problem, ReportOptions, RunInfo, Sink, Totals,
};
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

/// A ledger in use, and what a run learns about its entries.
#[derive(Debug)]
pub struct LedgerUse {
    /// Where it is.
    pub path: PathBuf,
    /// Its entries.
    pub ledger: Ledger,
    /// Entries whose case was found.
    seen: HashSet<CaseId>,
    /// Files whose cases could not be read: their entries are not
    /// orphaned, only unknown.
    unknown: HashSet<String>,
}

impl LedgerUse {
    /// A ledger at `path`.
    pub fn new(path: PathBuf, ledger: Ledger) -> Self {
        LedgerUse {
            path,
            ledger,
            seen: HashSet::new(),
            unknown: HashSet::new(),
        }
    }

    /// Opens the ledger: `explicit` (`--ledger`) must exist unless
    /// `create`; otherwise the default beside `cases` is used when it
    /// exists (or, with `create`, made).
    pub fn open(
        explicit: Option<&Path>,
        cases: &Path,
        create: bool,
    ) -> Result<Option<Self>, InputError> {
        let (path, given) = match explicit {
            Some(path) => (path.to_path_buf(), true),
            None => (ledger::default_path(cases), false),
        };
        if path.exists() {
            return Ok(Some(LedgerUse::new(path.clone(), Ledger::load(&path)?)));
        }
        if create {
            return Ok(Some(LedgerUse::new(path, Ledger::default())));
        }
        if given {
            return Err(InputError::new(format!(
                "the ledger {} does not exist (`parity-diff accept` creates it)",
                path.display()
            )));
        }
        Ok(None)
    }

    /// What reports say about the ledger.
    pub fn info(&self) -> LedgerInfo {
        LedgerInfo {
            path: self.path.display().to_string(),
            fingerprint: self.ledger.fingerprint(),
            entries: self.ledger.entries().cloned().collect(),
        }
    }

    /// Notes the cases of a file that was read.
    pub fn saw_file(&mut self, file: &CaseFile) {
        if !file.is_array {
            self.unknown.insert(file.file.clone());
            return;
        }
        for item in &file.items {
            self.saw_case(&item.id);
        }
    }

    /// Notes a case that was read.
    pub fn saw_case(&mut self, id: &CaseId) {
        if self.ledger.get(id).is_some() {
            self.seen.insert(id.clone());
        }
    }

    /// Notes a file whose cases could not be read.
    pub fn unreadable(&mut self, file: &str) {
        self.unknown.insert(file.to_owned());
    }

    /// The entries whose case was not found (meaningful after a full run).
    pub fn orphans(&self) -> Vec<&Entry> {
        self.ledger
            .entries()
            .filter(|entry| {
                !self.seen.contains(&entry.id) && !self.unknown.contains(&entry.id.file)
            })
            .collect()
    }
}

/// The identity of a case whose case file is unknown: its position.
pub fn position_id(file: &str, index: usize) -> CaseId {
    CaseId {
        file: file.to_owned(),
        key: CaseKey::Hash(index.to_string()),
    }
}

/// One file's cases against their golden, every case given as its
/// position in the case file and its two elements.
pub fn compare_file<'a, C: Consumer>(
    consumer: &mut C,
    file: &str,
    cases: Option<&CaseFile>,
    ledger: Option<&Ledger>,
    semantic: bool,
    pairs: impl Iterator<Item = (usize, Option<&'a [u8]>, Option<&'a [u8]>)>,
) -> io::Result<()> {
    for (index, golden, actual) in pairs {
        let comparison = match (golden, actual) {
            (Some(g), Some(a)) => compare_elements(g, a),
            (None, None) => continue,
            (g, _) => Comparison {
                verdict: if g.is_some() {
                    Verdict::Missing
                } else {
                    Verdict::Extra
                },
                golden: None,
                actual: None,
            },
        };
        let item = cases.and_then(|cases| cases.items.get(index));
        let op = item.and_then(|item| item.op.as_deref());
        if !consumer.wants_passing() {
            // Most cases of a run pass: a report that does not list them
            // only counts them, unless the ledger expects a divergence;
            // and one that explains nothing (--quiet) only counts failures.
            let has_entry = ledger.is_some_and(|ledger| match item {
                Some(item) => ledger.get(&item.id).is_some(),
                None => ledger.get(&position_id(file, index)).is_some(),
            });
            if matches!(comparison.verdict, Verdict::Identical) && !has_entry {
                consumer.counted(op, CaseState::Passed)?;
                continue;
            }
            if ledger.is_none() && !consumer.explains() {
                let passes = comparison.verdict.passes(semantic);
                let state = if passes {
                    CaseState::Passed
                } else {
                    CaseState::Failed
                };
                consumer.counted(op, state)?;
                continue;
            }
        }
        let compared = Compared {
            index,
            line: item.map(|item| item.line),
            id: item.map_or_else(|| position_id(file, index), |item| item.id.clone()),
            op: item.and_then(|item| item.op.clone()),
            raw_case: cases.and_then(|cases| cases.raw(index)),
            golden,
            actual,
            comparison,
        };
        let needs = build::Needs {
            semantic,
            explain: consumer.explains(),
            fingerprint: consumer.fingerprints(),
            passing: consumer.wants_passing(),
        };
        let record = build::record(file, compared, needs, ledger, |record| {
            consumer.wants_detail(record)
        });
        consumer.case(record)?;
    }
    Ok(())
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
        ledger.seen.extend(consumer.seen.drain(..));
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
