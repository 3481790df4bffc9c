//! `run`'s large case files as streams. Before the oracle runs, the case
//! file is read through once (whether it is an array, how many cases it
//! has, which are selected, whether two share an identity) and so is the
//! golden (checked to be one JSON array). The oracle is given the case
//! file itself, or the array of the selected cases in a temporary file,
//! and its stdout goes to another ([`Oracle::run_streamed`]). Then the
//! case file, the golden and the output are read in step, case by case.
//! Memory holds a few elements, and the selected positions when there is
//! a selection: never a file.
//!
//! Only a run that succeeds is streamed: when the oracle fails on the
//! file (or prints another number of results than it was sent cases),
//! the file is run again the ordinary way, in memory, so that the cases
//! to blame are found by bisection exactly as for a small file.

use std::fs::File;
use std::io::{self, BufWriter, Seek, Write};

use super::cases::CaseReader;
use crate::diff::arrays;
use crate::diff::cases::Duplicates;
use crate::diff::corpus::Entry as FileEntry;
use crate::diff::error::InputError;
use crate::diff::judge::LedgerUse;
use crate::diff::judge::{compare_case, Pair};
use crate::diff::ledger::Ledger;
use crate::diff::oracle::{Oracle, OracleOptions};
use crate::diff::plan::{self, Part, Selection};
use crate::diff::report::Consumer;
use crate::diff::scan::{ElementReader, Mode, ReadError};

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
    /// How many elements the golden has.
    pub golden: usize,
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
}

/// Reads a case file through: its cases are parsed only for `--op` or a
/// ledger (whose entries are marked as seen).
pub fn survey(
    entry: &FileEntry,
    part: Part,
    ops: &[String],
    mut ledger: Option<&mut LedgerUse>,
) -> Result<Survey, InputError> {
    let source = arrays::open_file("case file", &entry.case_path)?;
    let mut cases = CaseReader::new(&entry.name, source);
    let mut duplicates = ledger.as_ref().map(|_| Duplicates::default());
    let mut by_op = Vec::new();
    let read: Result<(), ReadError> = (|| {
        if ops.is_empty() && ledger.is_none() {
            while cases.next_raw()?.is_some() {}
            return Ok(());
        }
        let mut index = 0;
        while let Some(case) = cases.next_case()? {
            if let Some(ledger) = ledger.as_deref_mut() {
                ledger.saw_case(&case.item.id);
            }
            if let Some(duplicates) = &mut duplicates {
                duplicates.see(index, case.item);
            }
            if case.item.op.as_ref().is_some_and(|op| ops.contains(op)) {
                by_op.push(index);
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
    }
    let selection = plan::select_among(part, ops.is_empty(), || {
        if ops.is_empty() {
            (0..count).collect()
        } else {
            by_op
        }
    });
    Ok(Survey {
        is_array,
        cases: count,
        selection,
        duplicate: duplicates.and_then(|found| found.message().map(str::to_owned)),
    })
}

/// How many elements a golden has, read through and checked, or why it
/// cannot be compared.
pub fn golden_elements(entry: &FileEntry) -> Result<usize, InputError> {
    let golden = arrays::open_file("golden", &entry.golden_path)?;
    ElementReader::new(golden, Mode::Strict { validate: true })
        .count()
        .map_err(|error| {
            arrays::stream_error("golden", &entry.golden_path.display().to_string(), error)
        })
}

/// What the oracle is given: the case file itself, or the array of the
/// selected cases' raw bytes, in order, in a temporary file (as
/// [`CaseFile::array_of`](crate::diff::cases::CaseFile::array_of) makes
/// it).
fn oracle_input(entry: &FileEntry, selection: Option<&Selection>) -> io::Result<File> {
    let open = || File::open(&entry.case_path);
    let Some(selection) = selection else {
        return open();
    };
    let mut cases = CaseReader::new(&entry.name, open()?);
    let mut array = tempfile::tempfile()?;
    let mut out = BufWriter::new(&mut array);
    out.write_all(b"[")?;
    let mut index = 0;
    for (n, &at) in selection.positions.iter().enumerate() {
        if n > 0 {
            out.write_all(b",")?;
        }
        let mut raw = None;
        while index <= at {
            raw = cases
                .next_raw()
                .map_err(io::Error::other)?
                .map(<[u8]>::to_vec);
            index += 1;
            if raw.is_none() {
                break;
            }
        }
        out.write_all(raw.as_deref().unwrap_or(b"null"))?;
    }
    out.write_all(b"]")?;
    out.flush()?;
    drop(out);
    array.rewind()?;
    Ok(array)
}

/// Runs a large file through a command oracle, its output to disk.
/// `None` when the run failed (or printed another number of results than
/// it was sent cases): the file is then run the ordinary way.
pub fn run_large(
    entry: &FileEntry,
    large: &Large,
    oracle: &Oracle,
    options: OracleOptions,
) -> Option<File> {
    let input = oracle_input(entry, large.selection.as_ref()).ok()?;
    let streamed = oracle.run_streamed(input, options).ok()?;
    if large.sent().is_some_and(|sent| sent != streamed.elements) {
        return None;
    }
    Some(streamed.output)
}

/// Compares a large file's three streams case by case, as
/// [`report_ready`](crate::diff::file_run::report_ready) compares a file
/// in memory: with a selection, the output holds the selected cases'
/// results in order, compared with the golden's elements at their
/// positions; results past them are extra, and meet the golden's elements
/// past the cases when the selection ends the file.
pub fn report_large<C: Consumer>(
    consumer: &mut C,
    entry: &FileEntry,
    large: &Large,
    output: File,
    semantic: bool,
    ledger: Option<&Ledger>,
) -> io::Result<()> {
    let file = &entry.name;
    let again =
        |error: ReadError| io::Error::other(format!("{file} could not be read again: {error}"));
    let opened = |failure: InputError| io::Error::other(failure.message);
    let checked = Mode::Strict { validate: false };
    let mut golden = ElementReader::new(
        arrays::open_file("golden", &entry.golden_path).map_err(opened)?,
        checked,
    );
    let mut actual = ElementReader::new(output, checked);
    let mut cases = match large.is_array {
        true => Some(CaseReader::new(
            file,
            arrays::open_file("case file", &entry.case_path).map_err(opened)?,
        )),
        false => None,
    };
    let Some(selection) = &large.selection else {
        let mut index = 0;
        loop {
            let case = match &mut cases {
                Some(reader) => reader.next_case().map_err(again)?,
                None => None,
            };
            let golden = golden.next_element().map_err(again)?;
            let actual = actual.next_element().map_err(again)?;
            if golden.is_none() && actual.is_none() {
                return Ok(());
            }
            let pair = Pair {
                index,
                case,
                golden: golden.map(|element| element.bytes),
                actual: actual.map(|element| element.bytes),
            };
            compare_case(consumer, file, pair, ledger, semantic)?;
            index += 1;
        }
    };
    // A selection is made only of the cases of an array.
    let Some(reader) = &mut cases else {
        return Ok(());
    };
    let mut wanted = selection.positions.iter().copied().peekable();
    let mut index = 0;
    while let Some(case) = reader.next_case().map_err(again)? {
        let element = golden.next_element().map_err(again)?;
        if wanted.peek() == Some(&index) {
            wanted.next();
            let result = actual.next_element().map_err(again)?;
            let pair = Pair {
                index,
                case: Some(case),
                golden: element.map(|element| element.bytes),
                actual: result.map(|element| element.bytes),
            };
            compare_case(consumer, file, pair, ledger, semantic)?;
        }
        index += 1;
    }
    // The golden now stands at the first element past the cases.
    let past = large.cases;
    let mut k = 0;
    loop {
        let element = match selection.tail {
            true => golden.next_element().map_err(again)?,
            false => None,
        };
        let result = actual.next_element().map_err(again)?;
        if element.is_none() && result.is_none() {
            return Ok(());
        }
        let pair = Pair {
            index: past + k,
            case: None,
            golden: element.map(|element| element.bytes),
            actual: result.map(|element| element.bytes),
        };
        compare_case(consumer, file, pair, ledger, semantic)?;
        k += 1;
    }
}
