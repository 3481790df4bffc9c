//! `parity-diff run`: every wanted case file through an oracle, each
//! result array against its golden, case by case, then the orphaned
//! goldens and (on a full run) the orphaned ledger entries. Never stops at
//! a failing file. `accept` runs the same way and watches the records.
//!
//! With `--op`, only the cases of those ops are sent to the oracle (the
//! file as the array of their raw bytes, in order) and compared with the
//! golden's elements at the same positions; files without such cases are
//! left out.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashSet};
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::arrays::{self, InputError};
use super::cases::CaseFile;
use super::compare::{compare_elements, Comparison, Verdict};
use super::corpus::{Corpus, Entry as FileEntry};
use super::file_run::{self, FileRun};
use super::identity::{CaseId, CaseKey};
use super::ledger::{self, Entry, Ledger};
use super::oracle::Oracle;
use super::pool;
use super::record::build::{self, Compared};
use super::record::CaseState;
use super::report::{
    Consumer, FileInfo, LedgerInfo, Problem, ReportOptions, RunInfo, Sink, Totals,
};

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
    /// How long one oracle run may take.
    pub timeout: Duration,
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
            entries: self.ledger.entries().map(|e| e.id.clone()).collect(),
        }
    }

    /// Notes the cases of a file that was read.
    pub fn saw_file(&mut self, file: &CaseFile) {
        if !file.is_array {
            self.unknown.insert(file.file.clone());
            return;
        }
        for item in &file.items {
            if self.ledger.get(&item.id).is_some() {
                self.seen.insert(item.id.clone());
            }
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

/// Each wanted op's case count over some case files, so that a typo in
/// `--op` is an error, not an empty pass.
fn check_ops(files: &[FileEntry], ops: &[String]) -> Result<(), InputError> {
    if ops.is_empty() {
        return Ok(());
    }
    let mut counts: BTreeMap<&str, usize> = ops.iter().map(|op| (op.as_str(), 0)).collect();
    for entry in files.iter().filter(|entry| entry.broken.is_none()) {
        let Ok(bytes) = std::fs::read(&entry.case_path) else {
            continue;
        };
        for item in CaseFile::read(&entry.name, bytes).items {
            if let Some(count) = item.op.as_deref().and_then(|op| counts.get_mut(op)) {
                *count += 1;
            }
        }
    }
    match counts.iter().find(|(_, &count)| count == 0) {
        Some((op, _)) => Err(InputError::new(format!(
            "--op {op} matches no case in the selected case files"
        ))),
        None => Ok(()),
    }
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
    Ready(CaseFile, Option<Vec<usize>>, Vec<u8>),
}

fn prepare(entry: &FileEntry, ops: &[String], ledger: Option<&mut LedgerUse>) -> Prepared {
    if let Some(broken) = &entry.broken {
        if let Some(ledger) = ledger {
            ledger.unreadable(&entry.name);
        }
        return Prepared::Problem(error(broken.clone(), 0));
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
    let selection = (!ops.is_empty()).then(|| cases.select(ops));
    if selection.as_ref().is_some_and(Vec::is_empty) {
        return Prepared::Skip;
    }
    if let Some(ledger) = ledger {
        ledger.saw_file(&cases);
        if let Some(message) = cases.duplicate_identity() {
            return Prepared::Problem(error(message, cases.items.len()));
        }
    }
    if !entry.golden_path.exists() {
        let problem = match entry.golden_path.symlink_metadata() {
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
        };
        return Prepared::Problem(problem);
    }
    let golden = match arrays::read_file("golden", &entry.golden_path) {
        Ok(bytes) => bytes,
        Err(failure) => return Prepared::Problem(error(failure.message, 0)),
    };
    Prepared::Ready(cases, selection, golden)
}

/// Runs the corpus, handing every record to `consumer`; orphaned goldens
/// and (on a full run) orphaned ledger entries last.
pub fn run_corpus<C: Consumer>(
    args: &RunArgs,
    ledger: Option<&mut LedgerUse>,
    consumer: &mut C,
) -> Result<(), InputError> {
    let corpus = &args.corpus;
    let files = corpus.case_files()?;
    super::corpus::require_dir("golden", &corpus.golden)?;
    check_ops(&files, &args.ops)?;
    // Which ops a golden without a case file held cannot be known.
    let orphans = if args.ops.is_empty() {
        corpus.orphans()?
    } else {
        Vec::new()
    };
    // Files are read and prepared here, in order; their oracle runs go to
    // the pool; their records are made here again, in order. Preparing
    // marks the ledger's entries as seen and making records consults it,
    // both on this thread but from two closures: hence the RefCell.
    let ledger = RefCell::new(ledger);
    let ready = files.iter().filter_map(|entry| {
        let prepared = prepare(entry, &args.ops, ledger.borrow_mut().as_deref_mut());
        (!matches!(prepared, Prepared::Skip)).then_some((entry, prepared))
    });
    let run_one = |(entry, prepared): &(&FileEntry, Prepared)| match prepared {
        Prepared::Ready(cases, selection, golden) => {
            let ready = (cases, selection.as_deref(), golden.as_slice());
            Some(file_run::run_ready(entry, ready, |batch| {
                args.oracle.run(batch, args.timeout)
            }))
        }
        _ => None,
    };
    let report_one = |(entry, prepared): (&FileEntry, Prepared), ran: Option<FileRun>| {
        let reported = (|| {
            consumer.begin_file(FileInfo {
                name: Some(entry.name.clone()),
                path: Some(entry.case_path.display().to_string()),
            })?;
            match (prepared, ran) {
                (Prepared::Problem(problem), _) => consumer.problem(problem)?,
                (Prepared::Ready(cases, selection, golden), Some(ran)) => {
                    let held = ledger.borrow();
                    let known = held.as_deref().map(|use_| &use_.ledger);
                    let ready = (&cases, selection.as_deref(), golden.as_slice());
                    let semantic = args.report.semantic;
                    file_run::report_ready(consumer, entry, ready, ran, semantic, known)?;
                }
                _ => {}
            }
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
    let run = RunInfo {
        command: "run",
        shard: args.corpus.shard,
        ledger: ledger.as_ref().map(LedgerUse::info),
    };
    let mut sink = Sink::new(out, args.report, run);
    run_corpus(args, ledger.as_mut(), &mut sink)?;
    Ok(sink.finish()?)
}
