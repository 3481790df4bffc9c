//! `run`'s large case files as streams. Before the oracle runs, the case
//! file is read through once (whether it is an array, how many cases it
//! has, which are selected, whether two share an identity; unless the
//! plan's count already says all that is needed) and so is the golden
//! (checked to be one JSON array; a file run once has it checked while
//! its oracle runs, [`live`](super::live)). The oracle is given the case
//! file itself, or the array of the selected cases in a temporary file,
//! and its stdout goes to another ([`Oracle::run_streamed`]). Then the
//! case file, the golden and the output are read in step, case by case.
//! Memory holds a few elements, and the selected positions when there is
//! a selection: never a file.
//!
//! Only a run that succeeds is streamed: when the oracle fails on the
//! file (or prints another number of results than it was sent cases),
//! the file is run again the ordinary way, in memory, so that the cases
//! to blame are found by bisection exactly as for a small file. A run
//! whose output has one element per case, some of them not JSON, is no
//! failure: each such element fails its own case, as in memory.

use std::fs::File;
use std::io::{self, BufWriter, Seek, Write};
use std::sync::Arc;

use super::cases::CaseReader;
use crate::base::error::InputError;
use crate::corpus::cases::Duplicates;
use crate::corpus::op_runs::OpRuns;
use crate::corpus::plan::{self, Part, Selection};
use crate::corpus::wanted::FileWanted;
use crate::corpus::Entry as FileEntry;
use crate::exec::file_run::{self, judge_slot};
use crate::exec::oracle::{LeakLog, Oracle, OracleOptions, Streamed, Watch};
use crate::exec::pairing::{
    pair, write_selected, HeldCases, Slot, Streamed as StreamedElements, StreamedCases,
    StreamedResults,
};
use crate::exec::verdicts::LedgerUse;
use crate::judge::compare::Judging;
use crate::judge::framing::Framing;
use crate::judge::input;
use crate::judge::scan::{Element, ElementReader, Lines, Mode, ReadError};
use crate::ledger::Ledger;
use crate::report::Consumer;

/// Files at least this large (case file or golden) are streamed, unless
/// `PARITY_DIFF_STREAM_ABOVE` says another number of bytes (tests set it
/// to 0, to stream every file).
pub const STREAM_ABOVE: u64 = 8 << 20;

/// Whether `run` streams this file (through any oracle, our own
/// included).
pub fn streams(entry: &FileEntry) -> bool {
    let above = std::env::var("PARITY_DIFF_STREAM_ABOVE")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(STREAM_ABOVE);
    let size = |path: &std::path::Path| std::fs::metadata(path).map_or(0, |meta| meta.len());
    size(&entry.case_path).max(size(&entry.golden_path)) >= above
}

/// A large file, read through and ready to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Large {
    /// Whether the case file is an array (the oracle is given it anyway).
    pub is_array: bool,
    /// How many cases it has.
    pub cases: usize,
    /// The cases sent (`None`: the file as it stands).
    pub selection: Option<Selection>,
    /// Each case's op, when the plan learned them.
    pub op_runs: Option<Arc<OpRuns>>,
}

impl Large {
    /// How many cases the oracle is sent (its results must be as many),
    /// when the file is an array of cases.
    pub fn sent(&self) -> Option<usize> {
        self.is_array.then(|| {
            self.selection
                .as_ref()
                .map_or(self.cases, |selection| selection.positions.len())
        })
    }
}

/// What reading a case file through learned.
#[derive(Debug, Default)]
pub struct Survey {
    /// Whether it is an array.
    pub is_array: bool,
    /// How many cases it has.
    pub cases: usize,
    /// The cases this part takes (`None`: every case, as the file stands).
    pub selection: Option<Selection>,
    /// Two cases with one identity, as a message (with a ledger).
    pub duplicate: Option<String>,
    /// Each case's op, when the plan learned them.
    pub op_runs: Option<Arc<OpRuns>>,
}

/// Reads a case file through: its cases are parsed only for `--op` or a
/// ledger (whose entries are marked as seen).
pub fn survey(
    entry: &FileEntry,
    part: Part,
    wanted: FileWanted<'_>,
    mut ledger: Option<&mut LedgerUse>,
) -> Result<Survey, InputError> {
    let source = input::open_file("case file", &entry.case_path)?;
    let mut cases = CaseReader::new(&entry.name, source);
    let mut duplicates = ledger.as_ref().map(|_| Duplicates::default());
    let mut by_op = Vec::new();
    // The positions of the cases a rerun names, in order.
    let mut named = Vec::new();
    let read: Result<(), ReadError> = (|| {
        if wanted.every() && ledger.is_none() {
            while cases.next_raw()?.is_some() {}
            return Ok(());
        }
        let mut index = 0;
        let scoping = ledger.as_deref().map(|ledger| ledger.scoping(&entry.name));
        while let Some(case) = cases.next_case()? {
            // Made once, for whichever of the three below needs it.
            let id = (ledger.is_some() || wanted.keys.is_some()).then(|| case.id(&entry.name));
            if let (Some(ledger), Some(id)) = (ledger.as_deref_mut(), &id) {
                let scoping = scoping.as_deref().unwrap_or_default();
                ledger.saw_case(id, case.item.op.as_deref(), scoping);
            }
            if let (Some(duplicates), Some(id)) = (&mut duplicates, &id) {
                duplicates.see(index, case.item.line, id);
            }
            if !wanted.ops.is_empty() && wanted.by_op(case.item.op.as_deref()) {
                by_op.push(index);
            }
            if wanted.keys.is_some() && id.as_ref().is_some_and(|id| wanted.by_key(id)) {
                named.push(index);
            }
            index += 1;
        }
        Ok(())
    })();
    let is_array = match read {
        Ok(()) => true,
        Err(ReadError::NotAnArray(_)) => false,
        Err(ReadError::Io(error)) => {
            return Err(InputError::new(format!(
                "cannot read case file {}: {error}",
                entry.case_path.display()
            )))
        }
    };
    let count = if is_array { cases.cases_read() } else { 0 };
    if !is_array {
        by_op.clear();
        named.clear();
    }
    let selection = plan::select_among(part, wanted.every(), || {
        if wanted.ops.is_empty() {
            (0..count).collect()
        } else {
            by_op
        }
    });
    let selection = plan::keep_named(selection, wanted, |at| named.binary_search(&at).is_ok());
    Ok(Survey {
        is_array,
        cases: count,
        selection,
        duplicate: duplicates.and_then(|found| found.message().map(str::to_owned)),
        op_runs: None,
    })
}

/// Reads a golden through, checked, each element handed to `each`;
/// returns how many it has, or why it cannot be compared.
pub fn golden_elements(
    entry: &FileEntry,
    mut each: impl FnMut(Element<'_>),
) -> Result<usize, InputError> {
    let golden = input::open_file("golden", &entry.golden_path)?;
    // No caller needs an element's line; an error's is counted.
    let mut elements =
        ElementReader::new(golden, Mode::Strict { validate: true }).counting(Lines::ForErrors);
    let failed =
        |error| input::stream_error("golden", &entry.golden_path.display().to_string(), error);
    while let Some(element) = elements.next_element().map_err(failed)? {
        each(element);
    }
    Ok(elements.elements_read())
}

/// What the oracle is given: the case file itself, or the array of the
/// selected cases' raw bytes, in order, in a temporary file
/// ([`write_selected`], as a file in memory sends them).
fn oracle_input(entry: &FileEntry, selection: Option<&Selection>) -> io::Result<File> {
    let open = || {
        crate::base::files::input::open(&entry.case_path, crate::base::files::input::CORPUS_FILE)
    };
    let Some(selection) = selection else {
        return open();
    };
    let mut cases = CaseReader::new(&entry.name, open()?);
    let mut array = tempfile::tempfile()?;
    let mut out = BufWriter::new(&mut array);
    let error = |error: ReadError| io::Error::other(error);
    let mut cases = StreamedCases {
        reader: &mut cases,
        error: &error,
    };
    write_selected::<_, io::Error>(&mut cases, &selection.positions, &mut out)?;
    out.flush()?;
    drop(out);
    array.rewind()?;
    Ok(array)
}

/// Runs a large file through a command oracle, its output to disk.
/// `None` when the run failed (or printed another number of results than
/// it was sent cases, or results that are not JSON for a file that is no
/// array of cases): the file is then run the ordinary way.
pub fn run_large(
    entry: &FileEntry,
    large: &Large,
    oracle: &Oracle,
    options: OracleOptions,
    leaks: &LeakLog,
) -> Option<Streamed> {
    let input = oracle_input(entry, large.selection.as_ref()).ok()?;
    let streamed = oracle.run_streamed(input, options, leaks).ok()?;
    accepted(large, streamed)
}

/// [`run_large`] with its output spooled and not read through (but by
/// `watch`, as it comes): `None` when the run failed; else the output,
/// for [`accepted`] after
/// [`check_spooled`](crate::exec::oracle::check_spooled).
pub fn run_large_unchecked(
    entry: &FileEntry,
    selection: Option<&Selection>,
    oracle: &Oracle,
    options: OracleOptions,
    leaks: &LeakLog,
    watch: Watch,
) -> Option<File> {
    let input = oracle_input(entry, selection).ok()?;
    oracle
        .run_unchecked(input, options, leaks, Some(watch))
        .ok()
}

/// A large file's output read through, as [`run_large`] accepts it:
/// `None` when it has another number of results than the oracle was sent
/// cases, or results that are not JSON for a file that is no array of
/// cases (the file is then run the ordinary way).
pub fn accepted(large: &Large, streamed: Streamed) -> Option<Streamed> {
    match large.sent() {
        Some(sent) if sent != streamed.elements => None,
        None if streamed.invalid > 0 => None,
        _ => Some(streamed),
    }
}

/// Compares a large file's three streams case by case (its framing
/// divergence first), as
/// [`report_ready`](crate::exec::file_run::report_ready) compares a file
/// in memory: through the one pairing ([`pair`]), each slot judged
/// alike ([`judge_slot`]).
pub fn report_large<C: Consumer>(
    consumer: &mut C,
    entry: &FileEntry,
    large: &Large,
    output: Streamed,
    (judging, framing): (Judging, Framing),
    ledger: Option<&Ledger>,
) -> io::Result<()> {
    let file = &entry.name;
    if let Some(found) = output.framing.filter(|_| framing == Framing::Exact) {
        consumer.problem(file_run::framing_problem(found, file, ledger))?;
    }
    let again =
        |error: ReadError| io::Error::other(format!("{file} could not be read again: {error}"));
    let opened = |failure: InputError| io::Error::other(failure.message);
    let checked = Mode::Strict { validate: false };
    let mut golden = ElementReader::new(
        input::open_file("golden", &entry.golden_path).map_err(opened)?,
        checked,
    );
    // Results that are not JSON make the array no JSON array: it is read
    // as the oracle's output was delimited, and each result judged.
    let judged = output.invalid > 0;
    let mut actual =
        ElementReader::new(output.output, if judged { Mode::Lenient } else { checked });
    let mut golden = StreamedElements {
        reader: &mut golden,
        error: &again,
    };
    let mut actual = StreamedResults {
        reader: &mut actual,
        judged,
        error: &again,
    };
    let rule = file_run::rule(large.selection.as_ref(), large.cases);
    let judge = |slot: Slot<'_>| judge_slot(consumer, file, slot, (None, None), (ledger, judging));
    if !large.is_array {
        return pair(
            rule,
            (&mut HeldCases(None), &mut golden, &mut actual),
            judge,
        );
    }
    let source = input::open_file("case file", &entry.case_path).map_err(opened)?;
    let mut cases = CaseReader::new(file, source);
    let mut cases = StreamedCases {
        reader: &mut cases,
        error: &again,
    };
    pair(rule, (&mut cases, &mut golden, &mut actual), judge)
}
