//! A case file made ready for its oracle run, and run: its cases and
//! golden read (or, a large file, surveyed and checked in one pass each),
//! what it sends chosen ([`Prepared`]), and what the oracle made of it
//! ([`Ran`]), on any thread.

use std::sync::Arc;

use super::RunArgs;
use crate::corpus::cases::CaseFile;
use crate::corpus::identity::path_text;
use crate::corpus::op_runs::OpRuns;
use crate::corpus::plan::{self, Part, Selection};
use crate::corpus::wanted::FileWanted;
use crate::corpus::Entry as FileEntry;
use crate::exec::file_run::{self, FileRun};
use crate::exec::known_crash::KnownCrashes;
use crate::exec::oracle::{LeakLog, Streamed};
use crate::exec::stream;
use crate::exec::stream::live::{self, Live};
use crate::exec::stream::run::{run_large, Large};
use crate::exec::verdicts::LedgerUse;
use crate::judge::input;
use crate::report::Problem;

pub(super) fn error(message: impl Into<String>, skipped: usize) -> Problem {
    Problem::Error {
        message: message.into(),
        stderr: None,
        skipped,
        port: false,
    }
}

/// A file ready to compare, or why it cannot be.
pub(super) enum Prepared {
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
pub(super) enum Ran {
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
pub(super) fn golden_problem(entry: &FileEntry) -> Option<Problem> {
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
pub(super) fn run_prepared(
    entry: &FileEntry,
    prepared: &Prepared,
    (args, started, known): (&RunArgs, Option<Live>, Option<&KnownCrashes>),
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
                (args.repeat, known),
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
            Some(run_again(entry, large, (args, known), leaks))
        }
        Prepared::Skip | Prepared::Problem(_) => None,
    }
}

/// Whether a large file's oracle runs on a thread of its own while the
/// reporting thread reads its cases and golden ([`live`]): when it runs
/// once.
pub(super) fn runs_live(args: &RunArgs) -> bool {
    args.repeat == 1
}

/// A large file the oracle failed on (or that printed something else on
/// another run), run again in memory, where the cases to blame are found
/// (and those whose results differ).
pub(super) fn run_again(
    entry: &FileEntry,
    large: &Large,
    (args, known): (&RunArgs, Option<&KnownCrashes>),
    leaks: &LeakLog,
) -> Ran {
    let oracle = |batch: &[u8]| args.oracle.run_noting(batch, args.limits, leaks);
    let cases = match input::read_file("case file", &entry.case_path) {
        Ok(bytes) => CaseFile::read(&entry.name, bytes),
        Err(failure) => return Ran::Memory(FileRun::BadGolden(failure.message)),
    };
    let golden = match input::read_file("golden", &entry.golden_path) {
        Ok(bytes) => bytes,
        Err(failure) => return Ran::Memory(FileRun::BadGolden(failure.message)),
    };
    let selection = large.selection.clone();
    let ready = (&cases, selection.as_ref(), golden.as_slice());
    let ran = file_run::run_ready(entry, ready, oracle, (args.repeat, known));
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
pub(super) type Planned<'p> = Option<(bool, usize, Option<&'p Arc<OpRuns>>)>;

/// Reads a file's cases and golden, and decides what its run compares:
/// the same steps for a file held in memory and a large one read through
/// (its cases surveyed, its golden checked and counted).
pub(super) fn prepare(
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
        None => input::read_file("case file", &entry.case_path)
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
        Read::Memory(file) => match input::read_file("golden", &entry.golden_path) {
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

/// How many cases a prepared file sends to the oracle; `None` when it
/// runs none.
pub(super) fn cases_sent(prepared: &Prepared) -> Option<usize> {
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
