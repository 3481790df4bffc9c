//! `parity-diff compare`: one result array against one golden, case by
//! case (the input checks every command shares are [`crate::judge::input`]).

use crate::judge::signature::ErrorProtocol;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::exec::file_run::judge_slot;
use crate::exec::pairing::{pair, HeldCases, Rule, Slot, Streamed, StreamedCases, StreamedResults};
use crate::exec::stream::cases::{CaseReader, CaseSource, Watch};
use crate::exec::stream::gate::Gate;
use crate::exec::stream::prefetch::Prefetched;
use crate::exec::verdicts::LedgerUse;
use crate::judge::scan::{ElementReader, Mode, ReadError};
use crate::report::{Consumer, FileInfo, ReportOptions, RunInfo, Sink, Totals};

pub use crate::base::error::InputError;
use crate::judge::input::{open_input, read_failed, stream_error};

/// The `compare` command's inputs.
#[derive(Debug, Clone)]
pub struct CompareArgs {
    /// The results file, or `-`.
    pub results: String,
    /// The golden file, or `-`.
    pub golden: String,
    /// The case file: labels, lines, identities and ops.
    pub cases: Option<String>,
    /// `--op`: only these ops' cases (needs the case file).
    pub ops: Vec<String>,
    /// `--ledger`: the ledger (needs the case file; cases are known by the
    /// case file's base name).
    pub ledger: Option<PathBuf>,
    /// How to report.
    pub report: ReportOptions,
    /// How a result says it threw.
    pub errors: ErrorProtocol,
}

/// The name a lone case file goes by in identities: its base name.
fn base_name(path: &str) -> String {
    Path::new(path).file_name().map_or_else(
        || path.to_owned(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// Runs `compare`: reads both arrays (and the cases) element by element,
/// and reports every case (or every selected one). Nothing is written
/// until every input has been read whole: an input error leaves no report.
pub fn compare_command(args: &CompareArgs, out: impl Write) -> Result<Totals, InputError> {
    let stdin_uses = [Some(&args.results), Some(&args.golden), args.cases.as_ref()]
        .iter()
        .filter(|path| path.is_some_and(|path| path == "-"))
        .count();
    if stdin_uses > 1 {
        return Err(InputError::new("only one input can be standard input (-)"));
    }
    if args.cases.is_none() && !args.ops.is_empty() {
        return Err(InputError::new(
            "--op needs --cases: the ops are in the case file",
        ));
    }
    if args.cases.is_none() && args.ledger.is_some() {
        return Err(InputError::new(
            "--ledger needs --cases: the ledger knows cases by their names",
        ));
    }
    let mut inputs = Inputs {
        actual: ElementReader::new(open_input("results", &args.results)?, VALIDATED),
        golden: ElementReader::new(open_input("golden", &args.golden)?, VALIDATED),
        cases: match &args.cases {
            Some(path) => {
                let reader = CaseReader::new(&base_name(path), open_input("case file", path)?);
                // Read ahead on a thread of its own while this one reads
                // the results and the golden.
                Some(match Prefetched::start(reader) {
                    Ok(ahead) => Box::new(ahead) as Box<dyn CaseSource>,
                    Err(reader) => reader,
                })
            }
            None => None,
        },
    };
    let mut ledger = match &args.ledger {
        Some(path) => Some(
            LedgerUse::open(Some(path), path, false)?
                .ok_or_else(|| InputError::new("no ledger"))?,
        ),
        None => None,
    };
    let file = match &args.cases {
        Some(path) => base_name(path),
        None => base_name(&args.golden),
    };
    let run = RunInfo {
        command: "compare",
        ledger: ledger.as_ref().map(LedgerUse::info),
        ..RunInfo::default()
    };
    let mut sink = Sink::new(Gate::new(out), args.report, run);
    sink.begin_file(FileInfo {
        name: None,
        path: args.cases.clone(),
        suite: None,
    })?;
    let mut watch = Watch::new(&args.ops, ledger.is_some(), false);
    compare_streams(
        &mut sink,
        &file,
        args,
        &mut inputs,
        &mut watch,
        ledger.as_mut(),
    )?;
    if let Some(message) = watch.duplicate() {
        return Err(InputError::new(message));
    }
    if let Some(op) = watch.unmatched_op() {
        return Err(InputError::new(format!(
            "--op {op} matches no case in {file}"
        )));
    }
    // Every input was read whole and is well formed: the report may go.
    sink.out_mut().open()?;
    sink.end_file()?;
    if let Some(ledger) = &mut ledger {
        if args.ops.is_empty() {
            for entry in ledger.orphans() {
                if entry.id.file == file {
                    sink.orphaned_entry(entry);
                }
            }
        }
    }
    Ok(sink.finish()?)
}

/// Result arrays are read as serde_json reads them.
const VALIDATED: Mode = Mode::Strict { validate: true };

/// What `compare` reads, each input a stream.
struct Inputs {
    actual: ElementReader<Box<dyn Read>>,
    golden: ElementReader<Box<dyn Read>>,
    cases: Option<Box<dyn CaseSource>>,
}

/// Compares the inputs case by case, through the one pairing ([`pair`]):
/// by position, until the results and the golden end, or (with `--op`)
/// the selected cases of the case file with the elements at their
/// positions, until the case file ends; then reads what is left of each
/// input, so that each is known whole and well formed.
fn compare_streams<C: Consumer>(
    consumer: &mut C,
    file: &str,
    args: &CompareArgs,
    inputs: &mut Inputs,
    watch: &mut Watch<'_>,
    mut ledger: Option<&mut LedgerUse>,
) -> Result<(), InputError> {
    let case_error = |error| match error {
        ReadError::Io(error) => {
            read_failed("case file", args.cases.as_deref().unwrap_or("-"), &error)
        }
        ReadError::NotAnArray(_) => InputError::new(format!(
            "case file {} is not a JSON array",
            args.cases.as_deref().unwrap_or("-")
        )),
    };
    let golden_error = |error| stream_error("golden", &args.golden, error);
    let actual_error = |error| stream_error("results", &args.results, error);
    let selecting = !args.ops.is_empty();
    let rule = Rule::ByPosition {
        until_cases: selecting,
    };
    let mut golden = Streamed {
        reader: &mut inputs.golden,
        error: &golden_error,
    };
    let mut actual = StreamedResults {
        reader: &mut inputs.actual,
        judged: false,
        error: &actual_error,
    };
    let mut judge = |slot: Slot<'_>| -> Result<(), InputError> {
        let selected = match &slot.case {
            Some(case) => {
                let id = ledger.is_some().then(|| case.id(file));
                if let (Some(ledger), Some(id)) = (ledger.as_deref_mut(), &id) {
                    ledger.saw_case(id, None, &[]);
                }
                watch.see(slot.index, *case, file, id.as_deref())
            }
            None => !selecting,
        };
        if !selected {
            return Ok(());
        }
        let ledger = ledger.as_deref().map(|use_| &use_.ledger);
        judge_slot(
            consumer,
            file,
            slot,
            (None, None),
            (ledger, args.report.judging(&args.errors)),
        )?;
        Ok(())
    };
    match &mut inputs.cases {
        Some(cases) => {
            let mut cursor = StreamedCases {
                reader: cases,
                error: &case_error,
            };
            pair(rule, (&mut cursor, &mut golden, &mut actual), &mut judge)?;
        }
        None => pair(
            rule,
            (&mut HeldCases(None), &mut golden, &mut actual),
            &mut judge,
        )?,
    }
    if let Some(cases) = &mut inputs.cases {
        let mut index = cases.cases_read();
        while let Some(case) = cases.next_case().map_err(case_error)? {
            let id = ledger.is_some().then(|| case.id(file));
            if let (Some(ledger), Some(id)) = (ledger.as_deref_mut(), &id) {
                ledger.saw_case(id, None, &[]);
            }
            watch.see(index, case, file, id.as_deref());
            index += 1;
        }
    }
    while inputs
        .golden
        .next_element()
        .map_err(golden_error)?
        .is_some()
    {}
    while inputs
        .actual
        .next_element()
        .map_err(actual_error)?
        .is_some()
    {}
    Ok(())
}
