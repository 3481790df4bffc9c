//! `parity-diff compare`: one result array against one golden, case by
//! case, and the input checks every command shares.

use std::fs;
use std::io::{self, Read, Write};
use std::path::Path;

use super::compare::{compare_elements, Comparison, Verdict};
use super::golden::split_elements;
use super::report::{ReportOptions, Reporter, Totals};
use super::view::CaseOutcome;
use crate::js::{self, TextMode, Value};

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

/// The cases of a case file, for labels: an array of anything.
pub fn cases(name: &str, bytes: &[u8]) -> Result<Vec<Value>, InputError> {
    match js::parse(bytes, TextMode::LossyUtf8).map(Value::into_array) {
        Ok(Some(cases)) => Ok(cases),
        Ok(None) => Err(InputError::new(format!(
            "case file {name} is not a JSON array"
        ))),
        Err(error) => Err(InputError::new(format!(
            "case file {name} is not a JSON array: {error}"
        ))),
    }
}

/// Compares two arrays element by element and reports every case; a
/// length mismatch gives missing or extra cases at the end.
pub fn compare_arrays<W: Write>(
    reporter: &mut Reporter<W>,
    golden: &[&[u8]],
    actual: &[&[u8]],
    cases: &[Value],
) -> io::Result<()> {
    for index in 0..golden.len().max(actual.len()) {
        let (g, a) = (golden.get(index).copied(), actual.get(index).copied());
        let comparison = match (g, a) {
            (Some(g), Some(a)) => compare_elements(g, a),
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
        reporter.case(CaseOutcome {
            index,
            case: cases.get(index),
            golden: g,
            actual: a,
            comparison,
        })?;
    }
    Ok(())
}

/// The `compare` command's inputs.
#[derive(Debug, Clone)]
pub struct CompareArgs {
    /// The results file, or `-`.
    pub results: String,
    /// The golden file, or `-`.
    pub golden: String,
    /// The case file, for labels.
    pub cases: Option<String>,
    /// How to report.
    pub report: ReportOptions,
}

/// Runs `compare`: reads both arrays (and the cases), reports every case.
pub fn compare_command(args: &CompareArgs, out: impl Write) -> Result<Totals, InputError> {
    let stdin_uses = [Some(&args.results), Some(&args.golden), args.cases.as_ref()]
        .iter()
        .filter(|path| path.is_some_and(|path| path == "-"))
        .count();
    if stdin_uses > 1 {
        return Err(InputError::new("only one input can be standard input (-)"));
    }
    let results = read_input("results", &args.results)?;
    let golden = read_input("golden", &args.golden)?;
    let cases = match &args.cases {
        Some(path) => self::cases(path, &read_input("case file", path)?)?,
        None => Vec::new(),
    };
    let actual = elements("results", &args.results, &results)?;
    let golden = elements("golden", &args.golden, &golden)?;
    let mut reporter = Reporter::new(out, args.report);
    reporter.begin_file(None)?;
    compare_arrays(&mut reporter, &golden, &actual, &cases)?;
    reporter.end_file()?;
    Ok(reporter.finish()?)
}
