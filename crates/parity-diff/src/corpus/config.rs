//! `parity.toml`: a project's suites, one `[suite.NAME]` table each (a
//! cluster's corpus, goldens, ledger, port and reference), found from the
//! current directory upward as `Cargo.toml` is ([`discover`]).
//!
//! Every key is optional; paths are relative to the file's directory.
//! A key this parity-diff does not know, or a value of the wrong type, is
//! an error naming the file, the line and the key: a typo must never be
//! silently ignored. Command-line flags override a suite's keys; that
//! merge is the binary's, since only it knows which flags were given.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use toml_edit::{Document, Item, TableLike, Value};

use crate::base::error::InputError;
use crate::base::size::parse_size;
use crate::judge::numbers::Numbers;
use crate::judge::signature::{is_pointer, ErrorProtocol};

/// The file's name.
pub const FILE_NAME: &str = "parity.toml";

/// A suite's keys, in the order the book's table lists them (docs/guide/parity-toml.md).
pub const SUITE_KEYS: [&str; 19] = [
    "cases",
    "golden",
    "ledger",
    "oracle",
    "reference",
    "generator",
    "timeout",
    "kill-grace",
    "jobs",
    "max-output",
    "repeat",
    "framing",
    "semantic",
    "numbers",
    "error-flag",
    "error-message",
    "ops",
    "fuzz-out",
    "redact",
];

/// The most seconds `timeout` (and `--timeout`) may be: a week. Beyond
/// some 1.8e19 a deadline cannot be computed at all.
pub const MAX_TIMEOUT_SECS: f64 = 7.0 * 24.0 * 3600.0;

/// The most seconds `kill-grace` (and `--kill-grace`) may be: an hour.
pub const MAX_KILL_GRACE_SECS: f64 = 3600.0;

/// The most oracle runs at once (`jobs`, `--jobs`): each is a process
/// and a thread, and more than this only thrashes.
pub const MAX_JOBS: u32 = 256;

/// The most runs of each case file (`repeat`, `--repeat`).
pub const MAX_REPEAT: u32 = 1000;

/// A parsed `parity.toml`.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The file, as found or given.
    pub path: PathBuf,
    /// Its directory: where relative paths start and commands run.
    pub dir: PathBuf,
    /// Its suites, in the file's order.
    pub suites: Vec<Suite>,
    /// `progress`: the progress file (`parity-diff progress`; default
    /// `parity-progress.json` in [`dir`](Self::dir)).
    pub progress: Option<PathBuf>,
    /// The line of `progress`, for errors.
    pub progress_line: Option<usize>,
}

pub use crate::judge::framing::Framing;

/// One `[suite.NAME]` table: every key as written, paths joined to the
/// file's directory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Suite {
    /// The table's name.
    pub name: String,
    /// `cases`: the case files' directory (default `cases`).
    pub cases: Option<PathBuf>,
    /// `golden`: the goldens' directory (default `golden` beside `cases`).
    pub golden: Option<PathBuf>,
    /// `ledger`: the ledger (default `parity-ledger.txt` beside `cases`).
    pub ledger: Option<PathBuf>,
    /// `oracle`: the port's command.
    pub oracle: Option<String>,
    /// `reference`: the reference's command, for `bless` and `fuzz`.
    pub reference: Option<String>,
    /// `generator`: fuzz's case generator command.
    pub generator: Option<String>,
    /// `timeout`, in seconds.
    pub timeout: Option<f64>,
    /// `kill-grace`, in seconds.
    pub kill_grace: Option<f64>,
    /// `jobs`.
    pub jobs: Option<u32>,
    /// `repeat`: how many times each file runs (`--repeat`).
    pub repeat: Option<u32>,
    /// `max-output`, in bytes.
    pub max_output: Option<u64>,
    /// `framing`.
    pub framing: Option<Framing>,
    /// `semantic`: *same value, different bytes* passes (`--semantic`).
    pub semantic: Option<bool>,
    /// `numbers`: what makes two numbers the same value (`--numbers`).
    pub numbers: Option<Numbers>,
    /// `error-flag`: the JSON Pointer of a result's error flag.
    pub error_flag: Option<String>,
    /// `error-message`: the JSON Pointer of a thrown result's message.
    pub error_message: Option<String>,
    /// `ops`: the suite's op names.
    pub ops: Option<Vec<String>>,
    /// `fuzz-out`: where fuzz writes its findings.
    pub fuzz_out: Option<PathBuf>,
    /// `redact`: `false` shows secrets as written (a contract with none).
    pub redact: Option<bool>,
    /// The line (from 1) of each key the table gives, for errors that
    /// name it later (a path outside the project).
    pub lines: BTreeMap<&'static str, usize>,
}

impl Suite {
    /// How the suite's results say they threw: `error-flag` and
    /// `error-message`, each else the default's.
    pub fn errors(&self) -> ErrorProtocol {
        let default = ErrorProtocol::default();
        ErrorProtocol {
            flag: self.error_flag.clone().map_or(default.flag, Into::into),
            message: self
                .error_message
                .clone()
                .map_or(default.message, Into::into),
        }
    }

    /// The case files' directory: `cases`, else `cases` in `dir`.
    pub fn cases_dir(&self, dir: &Path) -> PathBuf {
        self.cases.clone().unwrap_or_else(|| dir.join("cases"))
    }
}

/// The `parity.toml` in `start` or the nearest directory above it.
pub fn discover(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|dir| dir.join(FILE_NAME))
        .find(|path| path.is_file())
}

/// Reads and parses the file at `path`.
pub fn load(path: &Path) -> Result<Config, InputError> {
    let text = crate::base::files::input::read_text(path, crate::base::files::input::CONFIG)
        .map_err(|error| InputError::new(format!("cannot read {}: {error}", path.display())))?;
    parse(&text, path)
}

/// The line (from 1) of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Where errors point: the file and its text.
struct Source<'a> {
    path: &'a Path,
    text: &'a str,
}

impl Source<'_> {
    fn error(&self, span: Option<std::ops::Range<usize>>, message: String) -> InputError {
        let at = match span {
            Some(span) => format!("{}:{}", self.path.display(), line_of(self.text, span.start)),
            None => self.path.display().to_string(),
        };
        InputError::new(format!("{at}: {message}"))
    }
}

/// Parses `text`, the file at `path`.
pub fn parse(text: &str, path: &Path) -> Result<Config, InputError> {
    let source = Source { path, text };
    let document = Document::parse(text).map_err(|error| {
        let message = error.message().trim_end().replace('\n', "; ");
        source.error(error.span(), format!("not TOML: {message}"))
    })?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut suites = Vec::new();
    let (mut progress, mut progress_line) = (None, None);
    for (key, item) in document.as_table().iter() {
        let span = key_span(document.as_table(), key);
        if key == "progress" {
            let text = item
                .as_value()
                .and_then(Value::as_str)
                .filter(|text| !text.is_empty())
                .ok_or_else(|| {
                    source.error(
                        span.clone(),
                        format!("progress: a path (a string), not {}", describe(item)),
                    )
                })?;
            progress = Some(dir.join(text));
            progress_line = span.map(|span| line_of(source.text, span.start));
            continue;
        }
        if key != "suite" {
            return Err(source.error(
                span,
                format!(
                    "unknown key {key:?} (a parity.toml holds `progress` and [suite.NAME] tables only)"
                ),
            ));
        }
        let Some(tables) = item.as_table_like() else {
            return Err(source.error(
                span,
                format!(
                    "suite: a table of [suite.NAME] tables, not {}",
                    item.type_name()
                ),
            ));
        };
        for (name, table) in tables.iter() {
            let span = key_span(tables, name).or_else(|| table.span());
            suites.push(read_suite(&source, &dir, name, table, span)?);
        }
    }
    Ok(Config {
        path: path.to_path_buf(),
        dir,
        suites,
        progress,
        progress_line,
    })
}

fn key_span(table: &dyn TableLike, key: &str) -> Option<std::ops::Range<usize>> {
    table.get_key_value(key).and_then(|(key, _)| key.span())
}

/// A suite's name is printed in every report: letters, digits, `-`,
/// `_` and `.` keep it one plain word.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

fn read_suite(
    source: &Source<'_>,
    dir: &Path,
    name: &str,
    item: &Item,
    span: Option<std::ops::Range<usize>>,
) -> Result<Suite, InputError> {
    if !valid_name(name) {
        return Err(source.error(
            span,
            format!(
                "suite {:?}: a suite's name is letters, digits, '-', '_' and '.'",
                name.escape_debug().to_string()
            ),
        ));
    }
    let Some(table) = item.as_table_like() else {
        return Err(source.error(
            span,
            format!("suite.{name}: a table, not {}", item.type_name()),
        ));
    };
    let mut suite = Suite {
        name: name.to_owned(),
        ..Suite::default()
    };
    for (key, value) in table.iter() {
        let span = key_span(table, key).or_else(|| value.span());
        let what = format!("suite.{name}.{key}");
        let wrong = |expected: &str| {
            source.error(
                span.clone(),
                format!("{what}: {expected}, not {}", describe(value)),
            )
        };
        if let (Some(known), Some(span)) = (SUITE_KEYS.iter().find(|k| **k == key), &span) {
            suite.lines.insert(known, line_of(source.text, span.start));
        }
        if !set_key(&mut suite, key, value.as_value(), dir, &wrong)? {
            return Err(source.error(
                span,
                format!(
                    "suite.{name}: unknown key {:?} (the keys: {})",
                    key.escape_debug().to_string(),
                    SUITE_KEYS.join(", ")
                ),
            ));
        }
    }
    Ok(suite)
}

/// What makes the error of a key whose value is not what it takes.
type Wrong<'a> = &'a dyn Fn(&str) -> InputError;

/// Sets a suite's key from its value; returns whether the key is one.
fn set_key(
    suite: &mut Suite,
    key: &str,
    value: Option<&Value>,
    dir: &Path,
    wrong: Wrong<'_>,
) -> Result<bool, InputError> {
    match key {
        "cases" | "golden" | "ledger" | "fuzz-out" => {
            let text = value
                .and_then(Value::as_str)
                .filter(|text| !text.is_empty())
                .ok_or_else(|| wrong("a path (a string)"))?;
            let path = Some(dir.join(text));
            match key {
                "cases" => suite.cases = path,
                "golden" => suite.golden = path,
                "ledger" => suite.ledger = path,
                _ => suite.fuzz_out = path,
            }
        }
        "oracle" | "reference" | "generator" => {
            let text = value
                .and_then(Value::as_str)
                .filter(|text| !text.trim().is_empty())
                .ok_or_else(|| wrong("a command (a string)"))?;
            let command = Some(text.to_owned());
            match key {
                "oracle" => suite.oracle = command,
                "reference" => suite.reference = command,
                _ => suite.generator = command,
            }
        }
        "timeout" | "kill-grace" | "jobs" | "repeat" | "max-output" => {
            set_limit(suite, key, value, wrong)?
        }
        "framing" | "semantic" | "numbers" | "error-flag" | "error-message" | "ops" | "redact" => {
            set_judging(suite, key, value, wrong)?
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Sets one of the keys that bound an oracle's runs.
fn set_limit(
    suite: &mut Suite,
    key: &str,
    value: Option<&Value>,
    wrong: Wrong<'_>,
) -> Result<(), InputError> {
    match key {
        "timeout" => {
            let secs = seconds(value).filter(|secs| *secs > 0.0 && *secs <= MAX_TIMEOUT_SECS);
            suite.timeout = Some(secs.ok_or_else(|| {
                wrong(&format!(
                    "a positive number of seconds, at most {MAX_TIMEOUT_SECS} (a week)"
                ))
            })?);
        }
        "kill-grace" => {
            let secs = seconds(value).filter(|secs| *secs >= 0.0 && *secs <= MAX_KILL_GRACE_SECS);
            suite.kill_grace = Some(secs.ok_or_else(|| {
                wrong(&format!(
                    "a number of seconds, 0 to {MAX_KILL_GRACE_SECS} (an hour)"
                ))
            })?);
        }
        "jobs" => {
            let jobs = value
                .and_then(Value::as_integer)
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| (1..=MAX_JOBS).contains(n));
            suite.jobs =
                Some(jobs.ok_or_else(|| wrong(&format!("a whole number, 1 to {MAX_JOBS}")))?);
        }
        "repeat" => {
            let repeat = value
                .and_then(Value::as_integer)
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| (1..=MAX_REPEAT).contains(n));
            suite.repeat =
                Some(repeat.ok_or_else(|| wrong(&format!("a whole number, 1 to {MAX_REPEAT}")))?);
        }
        _ => {
            let size = match value {
                Some(Value::Integer(n)) => u64::try_from(*n.value()).ok().filter(|n| *n > 0),
                Some(Value::String(text)) => parse_size(text.value()).ok(),
                _ => None,
            };
            suite.max_output =
                Some(size.ok_or_else(|| wrong("a size (64M, 1G, or a number of bytes)"))?);
        }
    }
    Ok(())
}

/// Sets one of the keys that say how results are judged.
fn set_judging(
    suite: &mut Suite,
    key: &str,
    value: Option<&Value>,
    wrong: Wrong<'_>,
) -> Result<(), InputError> {
    match key {
        "framing" => {
            suite.framing = Some(match value.and_then(Value::as_str) {
                Some("exact") => Framing::Exact,
                Some("json") => Framing::Json,
                _ => return Err(wrong("\"exact\" or \"json\"")),
            });
        }
        "semantic" | "redact" => {
            let on = Some(
                value
                    .and_then(Value::as_bool)
                    .ok_or_else(|| wrong("true or false"))?,
            );
            match key {
                "semantic" => suite.semantic = on,
                _ => suite.redact = on,
            }
        }
        "numbers" => {
            let mode = value.and_then(Value::as_str).and_then(Numbers::from_name);
            suite.numbers = Some(mode.ok_or_else(|| wrong("\"double\" or \"exact\""))?);
        }
        "error-flag" | "error-message" => {
            let pointer = value
                .and_then(Value::as_str)
                .filter(|text| is_pointer(text))
                .ok_or_else(|| wrong("a JSON Pointer (\"\" or \"/key/0\")"))?;
            let pointer = Some(pointer.to_owned());
            match key {
                "error-flag" => suite.error_flag = pointer,
                _ => suite.error_message = pointer,
            }
        }
        _ => {
            let ops = value.and_then(Value::as_array).and_then(|array| {
                array
                    .iter()
                    .map(|op| op.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()
            });
            suite.ops = Some(ops.ok_or_else(|| wrong("an array of op names (strings)"))?);
        }
    }
    Ok(())
}

/// A number of seconds: an integer or a float.
fn seconds(value: Option<&Value>) -> Option<f64> {
    match value? {
        Value::Integer(n) => Some(*n.value() as f64),
        Value::Float(x) => Some(*x.value()).filter(|x| x.is_finite()),
        _ => None,
    }
}

/// What a value is, for an error: its type, and the value when short.
fn describe(item: &Item) -> String {
    match item.as_value() {
        Some(Value::String(text)) => format!("the string {:?}", text.value()),
        Some(Value::Integer(n)) => format!("the integer {}", n.value()),
        // 1e308 in full is 309 digits.
        Some(Value::Float(x)) if x.value().abs() >= 1e15 => format!("the number {:e}", x.value()),
        Some(Value::Float(x)) => format!("the number {}", x.value()),
        Some(Value::Boolean(b)) => format!("the boolean {}", b.value()),
        _ => format!("a{} {}", article(item.type_name()), item.type_name()),
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "n"
    } else {
        ""
    }
}

impl Config {
    /// The suites `names` selects (every suite when it is empty), in the
    /// file's order; a name the file does not have is an error.
    pub fn select(&self, names: &[String]) -> Result<Vec<&Suite>, InputError> {
        if let Some(unknown) = names
            .iter()
            .find(|name| !self.suites.iter().any(|suite| &suite.name == *name))
        {
            let known: Vec<&str> = self.suites.iter().map(|s| s.name.as_str()).collect();
            return Err(InputError::new(format!(
                "{}: no suite {:?} (its suites: {})",
                self.path.display(),
                unknown,
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            )));
        }
        Ok(self
            .suites
            .iter()
            .filter(|suite| names.is_empty() || names.contains(&suite.name))
            .collect())
    }
}

#[cfg(test)]
mod tests;
