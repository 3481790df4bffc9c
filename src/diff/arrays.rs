//! `parity-diff compare`: one result array against one golden, case by
//! case, and the input checks every command shares.

use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::cases::CaseFile;
use super::golden::split_elements;
use super::report::{FileInfo, ReportOptions, RunInfo, Sink, Totals};
use super::run::{compare_file, LedgerUse};

/// A usage or input error: the command cannot do its job (exit status 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// One line saying what is wrong.
    pub message: String,
    /// The report's reader went away (`| head`): nothing worth saying.
    pub output_closed: bool,
}

impl InputError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Self {
        InputError {
            message: message.into(),
            output_closed: false,
        }
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InputError {}

impl From<io::Error> for InputError {
    fn from(error: io::Error) -> Self {
        InputError {
            output_closed: error.kind() == io::ErrorKind::BrokenPipe,
            ..InputError::new(format!("cannot write the report: {error}"))
        }
    }
}

/// Reads a file, or standard input for `-`, saying which argument was
/// wrong and how.
pub fn read_input(what: &str, path: &str) -> Result<Vec<u8>, InputError> {
    if path == "-" {
        let mut bytes = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(|error| {
                InputError::new(format!("cannot read {what} from standard input: {error}"))
            })?;
        return Ok(bytes);
    }
    read_file(what, Path::new(path))
}

/// Reads a file, saying which argument was wrong and how.
pub fn read_file(what: &str, path: &Path) -> Result<Vec<u8>, InputError> {
    if path.is_dir() {
        return Err(InputError::new(format!(
            "{what} {} is a directory, not a file",
            path.display()
        )));
    }
    fs::read(path)
        .map_err(|error| InputError::new(format!("cannot read {what} {}: {error}", path.display())))
}

/// The elements of a result array, or an error naming the input.
pub fn elements<'b>(what: &str, name: &str, bytes: &'b [u8]) -> Result<Vec<&'b [u8]>, InputError> {
    split_elements(bytes)
        .map_err(|error| InputError::new(format!("{what} {name} is not a JSON array: {error}")))
}

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
}

/// The name a lone case file goes by in identities: its base name.
fn base_name(path: &str) -> String {
    Path::new(path).file_name().map_or_else(
        || path.to_owned(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// Runs `compare`: reads both arrays (and the cases), reports every case
/// (or every selected one).
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
    let results = read_input("results", &args.results)?;
    let golden = read_input("golden", &args.golden)?;
    let cases = match &args.cases {
        Some(path) => {
            let cases = CaseFile::read(&base_name(path), read_input("case file", path)?);
            if !cases.is_array {
                return Err(InputError::new(format!(
                    "case file {path} is not a JSON array"
                )));
            }
            Some(cases)
        }
        None => None,
    };
    let actual = elements("results", &args.results, &results)?;
    let golden = elements("golden", &args.golden, &golden)?;
    let mut ledger = match (&args.ledger, &cases) {
        (Some(path), Some(cases)) => {
            let mut ledger = LedgerUse::open(Some(path), Path::new("."), false)?
                .ok_or_else(|| InputError::new("no ledger"))?;
            if let Some(message) = cases.duplicate_identity() {
                return Err(InputError::new(message));
            }
            ledger.saw_file(cases);
            Some(ledger)
        }
        _ => None,
    };
    let positions: Vec<usize> = match &cases {
        Some(cases) if !args.ops.is_empty() => {
            let positions = cases.select(&args.ops);
            for op in &args.ops {
                if !positions
                    .iter()
                    .any(|&at| cases.items[at].op.as_deref() == Some(op))
                {
                    return Err(InputError::new(format!(
                        "--op {op} matches no case in {}",
                        cases.file
                    )));
                }
            }
            positions
        }
        _ => (0..golden.len().max(actual.len())).collect(),
    };
    let file = match &cases {
        Some(cases) => cases.file.clone(),
        None => base_name(&args.golden),
    };
    let run = RunInfo {
        command: "compare",
        ledger: ledger.as_ref().map(LedgerUse::info),
        ..RunInfo::default()
    };
    let mut sink = Sink::new(out, args.report, run);
    sink.begin_file(FileInfo {
        name: None,
        path: args.cases.clone(),
    })?;
    let pairs = positions
        .iter()
        .map(|&at| (at, golden.get(at).copied(), actual.get(at).copied()));
    compare_file(
        &mut sink,
        &file,
        cases.as_ref(),
        ledger.as_ref().map(|use_| &use_.ledger),
        args.report.semantic,
        pairs,
    )?;
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
