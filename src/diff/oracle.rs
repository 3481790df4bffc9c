//! Running an oracle over one case file: another implementation's command
//! (`sh -c CMD`, the case file on its stdin, its result array on stdout),
//! or our own batch driver in-process (on a thread, under the same
//! timeout).
//!
//! A command runs in a process group of its own, so that stopping it
//! reaches everything it started (`sh -c` leaves grandchildren holding
//! the pipes otherwise). It is stopped when it outlives its timeout or
//! its stdout passes `--max-output`: SIGTERM to the group, so that its own
//! cleanup runs, then SIGKILL after the grace (see `oracle/command.rs`). A
//! command that exits non-zero, dies of a signal, is stopped, or prints
//! anything but one JSON array is a failure for that file, with the end
//! of its stderr kept for the report.
//!
//! Every running command's group is registered process-wide
//! (`oracle/groups.rs`), so that [`install_signal_handlers`] can stop them all
//! when `parity-diff` itself gets SIGINT, SIGTERM or SIGHUP.

mod command;
mod groups;
mod signals;
#[cfg(test)]
mod streamed_tests;

use std::fs::File;
use std::io::{self, Seek};
use std::path::Path;
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use crate::batch;
use crate::scratch::ScratchScope;

pub use crate::batch::allocator::limit_malloc_arenas;
use command::{Captured, Input};
pub use groups::stopping;
pub use signals::{install_signal_handlers, SignalGuard};

/// Which oracle produces the results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Oracle {
    /// Our own batch driver, in this process.
    InProcess,
    /// A shell command.
    Command(String),
}

/// How an oracle failed: the verdict a case gets when it alone causes
/// the failure (see [`bisect`](super::bisect)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FailureKind {
    /// It exited non-zero, died of a signal, could not be started, or
    /// (our own oracle) refused the batch or panicked.
    Crash,
    /// Its stdout is not one JSON array (no output, a cut array, a token
    /// JSON does not have such as `Infinity`), or holds a different
    /// number of results than the batch has cases.
    InvalidOutput,
    /// It did not finish within the timeout.
    Timeout,
}

impl FailureKind {
    /// The name reports use: `crash`, `invalid-output`, `timeout`.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Crash => "crash",
            FailureKind::InvalidOutput => "invalid-output",
            FailureKind::Timeout => "timeout",
        }
    }
}

impl std::fmt::Display for FailureKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why an oracle gave no result array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OracleFailure {
    /// What kind of failure it is.
    pub kind: FailureKind,
    /// What happened.
    pub message: String,
    /// The end of what the oracle wrote on stderr (commands only).
    pub stderr: Option<String>,
}

impl OracleFailure {
    /// A failure without stderr.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        OracleFailure {
            kind,
            message: message.into(),
            stderr: None,
        }
    }
}

/// How an oracle run is bounded and stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OracleOptions {
    /// How long one run may take before it is stopped.
    pub timeout: Duration,
    /// How long a command has between SIGTERM and SIGKILL.
    pub kill_grace: Duration,
    /// How many bytes a command may print on stdout before it is stopped
    /// (our own oracle is not capped: its output is in memory already).
    pub max_output: u64,
}

/// The grace between SIGTERM and SIGKILL unless `--kill-grace` says.
pub const DEFAULT_KILL_GRACE: Duration = Duration::from_secs(2);

/// `fuzz`'s `--max-output` unless set: a batch of 1000 generated cases
/// prints about 250 KB (measured: at most 264 KB over `--seed 1 --count
/// 5000`), so this leaves room for batches a thousand times larger and
/// still bounds what one oracle run can cost.
pub const FUZZ_MAX_OUTPUT: u64 = 256 << 20;

/// The least `--max-output` of `run` and `bless` unless set: a corpus of
/// small files still allows a port that prints far more than the goldens.
pub const MIN_CORPUS_MAX_OUTPUT: u64 = 64 << 20;

/// `run` and `bless` allow this many times the corpus's largest file.
pub const CORPUS_OUTPUT_FACTOR: u64 = 16;

impl OracleOptions {
    /// A timeout with the default grace and the given cap.
    pub fn new(timeout: Duration, max_output: u64) -> Self {
        OracleOptions {
            timeout,
            kill_grace: DEFAULT_KILL_GRACE,
            max_output,
        }
    }
}

/// The default `--max-output` of `run` and `bless`: [`CORPUS_OUTPUT_FACTOR`]
/// times the largest case file or golden under these directories, at
/// least [`MIN_CORPUS_MAX_OUTPUT`]. A result array is about as large as
/// its golden (a new corpus has none yet, hence the case files too), so
/// the cap only ever stops an oracle that floods its output. Entries that
/// cannot be read count as empty: the corpus reports them itself.
pub fn corpus_max_output(dirs: &[&Path]) -> u64 {
    let largest = dirs
        .iter()
        .flat_map(|dir| walkdir::WalkDir::new(dir).into_iter().flatten())
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| entry.metadata().ok())
        .map(|metadata| metadata.len())
        .max()
        .unwrap_or(0);
    largest
        .saturating_mul(CORPUS_OUTPUT_FACTOR)
        .max(MIN_CORPUS_MAX_OUTPUT)
}

const UNITS: [(&str, u32); 5] = [("", 0), ("K", 10), ("M", 20), ("G", 30), ("T", 40)];

/// Reads a size: plain bytes (`1000000`), or a whole number with `K`,
/// `M`, `G` or `T` (powers of 1024, optionally followed by `iB` or `B`):
/// `64M`, `1G`, `512KiB`. Zero is refused: nothing could be printed.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let bad = || format!("not a size: {text:?} (try 64M, 1G, or a number of bytes)");
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: u64 = number.parse().map_err(|_| bad())?;
    let unit = unit.to_ascii_uppercase();
    let unit = unit
        .strip_suffix("IB")
        .filter(|prefix| !prefix.is_empty())
        .or_else(|| unit.strip_suffix('B'))
        .unwrap_or(&unit);
    let (_, shift) = UNITS
        .iter()
        .find(|(name, _)| *name == unit)
        .ok_or_else(bad)?;
    let size = number
        .checked_mul(1u64 << shift)
        .ok_or_else(|| format!("too large a size: {text:?}"))?;
    if size == 0 {
        return Err(format!("not a positive size: {text:?}"));
    }
    Ok(size)
}

/// A size as a person reads it: `64 MiB`, `1 GiB`, `1000 bytes`.
pub fn format_size(bytes: u64) -> String {
    match UNITS.iter().rev().find(|(name, shift)| {
        !name.is_empty() && bytes >= 1 << shift && bytes.is_multiple_of(1 << shift)
    }) {
        Some((name, shift)) => format!("{} {name}iB", bytes >> shift),
        None if bytes == 1 => "1 byte".into(),
        None => format!("{bytes} bytes"),
    }
}

/// An oracle's stdout on disk: see [`Oracle::run_streamed`].
#[derive(Debug)]
pub struct Streamed {
    /// The stdout, read from its start.
    pub output: File,
    /// How many elements its array has.
    pub elements: usize,
}

impl Oracle {
    /// Runs a command with `input` (a file) on its stdin and its stdout
    /// spooled to an anonymous temporary file, checked as
    /// [`run`](Self::run) checks it, with the same limits and messages,
    /// so that a case file of a million cases costs disk, not memory.
    /// Our own oracle runs the same way: its batch reads the file and
    /// writes the temporary file.
    pub fn run_streamed(
        &self,
        input: File,
        options: OracleOptions,
    ) -> Result<Streamed, OracleFailure> {
        let Oracle::Command(command) = self else {
            return run_in_process_streamed(input, options.timeout);
        };
        let spool = tempfile::tempfile().map_err(|error| {
            OracleFailure::new(
                FailureKind::Crash,
                format!("cannot spool the oracle's output to a temporary file: {error}"),
            )
        })?;
        let ran = command::run_command_with(command, Input::File(input), Some(spool), options);
        ran.and_then(|(output, elements)| match output {
            Captured::File(output) => Ok(Streamed { output, elements }),
            Captured::Memory(_) => Err(OracleFailure::new(
                FailureKind::Crash,
                "the oracle's output was not spooled".to_owned(),
            )),
        })
    }

    /// Runs the oracle on one case file and returns its stdout, checked to
    /// be one JSON array.
    pub fn run(&self, input: &[u8], options: OracleOptions) -> Result<Vec<u8>, OracleFailure> {
        match self {
            Oracle::InProcess => run_in_process(input, options.timeout),
            Oracle::Command(command) => command::run_command(command, input, options),
        }
    }
}

/// The stack of the thread that waits for our batch's own thread (which
/// has the deep stack a batch needs): room for a panic's report, no more.
const IN_PROCESS_STACK: usize = 1024 * 1024;

/// Our batch driver on a thread of its own, so that a case that hangs
/// costs the timeout, not the run. A thread cannot be killed: one that
/// overruns is left behind, and ends with the process; its scratch
/// directories are removed at the timeout, and it makes no more (its
/// cases that need one get a `threw` result nobody reads).
fn run_in_process(input: &[u8], timeout: Duration) -> Result<Vec<u8>, OracleFailure> {
    let input = input.to_vec();
    in_process(timeout, move || {
        batch::run_batch_bytes(&input).map_err(batch_failure)
    })
}

/// What our batch's failure reads as in a report.
fn batch_failure(error: batch::BatchError) -> String {
    match error {
        batch::BatchError::Refused(refusal) => {
            format!("our oracle refused the file: {}", refusal.reason)
        }
        output => format!("our oracle {output}"),
    }
}

/// [`run_in_process`] from a file to an anonymous temporary file, for
/// [`Oracle::run_streamed`]: the batch holds one case and one result at
/// a time, and spools the rest.
fn run_in_process_streamed(input: File, timeout: Duration) -> Result<Streamed, OracleFailure> {
    in_process(timeout, move || {
        let mut output = tempfile::tempfile()
            .map_err(|error| format!("cannot spool our oracle's output: {error}"))?;
        let summary =
            batch::with_batch_stack(|| batch::run_batch(io::BufReader::new(input), &mut output))
                .map_err(batch_failure)?;
        output
            .rewind()
            .map_err(|error| format!("cannot read our oracle's output again: {error}"))?;
        Ok(Streamed {
            output,
            elements: summary.cases,
        })
    })
}

/// Runs our batch (`work`) on a thread of its own under `timeout`.
fn in_process<T: Send + 'static>(
    timeout: Duration,
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, OracleFailure> {
    let (sender, receiver) = mpsc::channel();
    let scope = ScratchScope::new();
    let runner = scope.clone();
    // This thread only waits for the batch, which runs on a deep-stack
    // thread of its own, in the scope entered here.
    let spawned = thread::Builder::new()
        .name("in-process oracle".into())
        .stack_size(IN_PROCESS_STACK)
        .spawn(move || sender.send(runner.enter(work)));
    if let Err(error) = spawned {
        return Err(OracleFailure::new(
            FailureKind::Crash,
            format!("cannot start our oracle: {error}"),
        ));
    }
    let failure = |message: String| OracleFailure::new(FailureKind::Crash, message);
    match receiver.recv_timeout(timeout) {
        Ok(Ok(output)) => Ok(output),
        Ok(Err(message)) => Err(failure(message)),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            scope.stop();
            Err(OracleFailure::new(
                FailureKind::Timeout,
                format!(
                    "our oracle did not finish within {} s",
                    timeout.as_secs_f64()
                ),
            ))
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err(failure("our oracle stopped without a result".into()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::command::STDERR_KEPT;
    use super::*;
    use std::time::Instant;

    fn options(timeout_ms: u64) -> OracleOptions {
        OracleOptions::new(Duration::from_millis(timeout_ms), FUZZ_MAX_OUTPUT)
    }

    fn run(command: &str, timeout_ms: u64) -> Result<Vec<u8>, OracleFailure> {
        Oracle::Command(command.into()).run(b"[1,2]", options(timeout_ms))
    }

    #[test]
    fn a_command_reads_stdin_and_prints_an_array() {
        assert_eq!(run("cat", 10_000).unwrap(), b"[1,2]");
    }

    #[test]
    fn failures_keep_stderr() {
        let failure = run("echo oops >&2; exit 3", 10_000).unwrap_err();
        assert_eq!(failure.message, "the oracle exited with status 3");
        assert_eq!(failure.kind, FailureKind::Crash);
        assert_eq!(failure.stderr.as_deref(), Some("oops\n"));
        let failure = run("kill -9 $$", 10_000).unwrap_err();
        assert_eq!(failure.message, "the oracle was killed by signal 9");
        assert_eq!(failure.kind, FailureKind::Crash);
        // A non-zero exit is a crash even when stdout holds an array.
        assert_eq!(
            run("echo '[1,2]'; exit 1", 10_000).unwrap_err().kind,
            FailureKind::Crash
        );
    }

    #[test]
    fn output_must_be_one_array() {
        assert_eq!(
            run("true", 10_000).unwrap_err(),
            OracleFailure {
                kind: FailureKind::InvalidOutput,
                message: "the oracle printed nothing on stdout".into(),
                stderr: Some(String::new()),
            }
        );
        let failure = run("echo '[1,Infinity]'", 10_000).unwrap_err();
        assert_eq!(failure.kind, FailureKind::InvalidOutput);
        assert!(
            failure
                .message
                .starts_with("the oracle printed an incomplete or malformed array"),
            "{}",
            failure.message
        );
        assert!(run("printf '[1,'", 10_000)
            .unwrap_err()
            .message
            .starts_with("the oracle printed an incomplete or malformed array"));
        assert!(run("echo '{}'", 10_000)
            .unwrap_err()
            .message
            .starts_with("the oracle printed no JSON array"));
    }

    #[test]
    fn hanging_commands_are_killed_with_their_children() {
        let started = Instant::now();
        let failure = run("sleep 30 & sleep 30; echo []", 300).unwrap_err();
        assert!(
            failure.message.contains("did not finish within 0.3 s"),
            "{}",
            failure.message
        );
        assert_eq!(failure.kind, FailureKind::Timeout);
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn long_stderr_keeps_its_end() {
        let failure = run("yes e | head -c 100000 >&2; echo end >&2; exit 1", 10_000).unwrap_err();
        let stderr = failure.stderr.unwrap();
        assert_eq!(stderr.len(), STDERR_KEPT);
        assert!(stderr.ends_with("e\nend\n"));
    }

    #[test]
    fn in_process_oracle() {
        assert_eq!(
            Oracle::InProcess.run(b"[5]", options(60_000)).unwrap(),
            br#"[{"threw":true,"message":"case must be a JSON object"}]"#
        );
        let refusal = Oracle::InProcess.run(b"{}", options(60_000)).unwrap_err();
        assert!(refusal.message.contains("not a JSON array"));
        assert_eq!(refusal.kind, FailureKind::Crash);
        assert_eq!(FailureKind::InvalidOutput.to_string(), "invalid-output");
        assert_eq!(FailureKind::Crash.as_str(), "crash");
        assert_eq!(FailureKind::Timeout.as_str(), "timeout");
    }

    #[test]
    fn a_stop_sends_sigterm_first_and_sigkill_after_the_grace() {
        let limits = |grace_ms| OracleOptions {
            kill_grace: Duration::from_millis(grace_ms),
            ..options(200)
        };
        // The trap runs: the oracle's own cleanup gets its chance.
        let trapping = "trap 'echo cleaned up >&2; exit 7' TERM; sleep 30 & wait";
        let failure = Oracle::Command(trapping.into())
            .run(b"[]", limits(10_000))
            .unwrap_err();
        assert_eq!(failure.kind, FailureKind::Timeout);
        assert_eq!(failure.stderr.as_deref(), Some("cleaned up\n"));
        // One that ignores SIGTERM (its sleep too) is killed after the grace.
        let started = Instant::now();
        let failure = Oracle::Command("trap '' TERM; sleep 30".into())
            .run(b"[]", limits(300))
            .unwrap_err();
        let took = started.elapsed();
        assert_eq!(failure.kind, FailureKind::Timeout);
        assert!(
            took >= Duration::from_millis(500) && took < Duration::from_secs(3),
            "{took:?}"
        );
    }

    #[test]
    fn output_past_the_cap_stops_the_oracle() {
        let capped = OracleOptions {
            max_output: 1 << 20,
            ..options(60_000)
        };
        let started = Instant::now();
        let failure = Oracle::Command("echo starting >&2; cat /dev/zero".into())
            .run(b"[]", capped)
            .unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(failure.kind, FailureKind::InvalidOutput);
        assert_eq!(
            failure.message,
            "the oracle printed more than 1 MiB on stdout and was stopped (--max-output sets the limit)"
        );
        assert_eq!(failure.stderr.as_deref(), Some("starting\n"));
        // Exactly the cap is allowed.
        let exact = OracleOptions {
            max_output: 7,
            ..options(60_000)
        };
        assert_eq!(
            Oracle::Command("cat >/dev/null; printf '[1, 2]\\n'".into())
                .run(b"[]", exact)
                .unwrap(),
            b"[1, 2]\n"
        );
        let failure = Oracle::Command("cat >/dev/null; printf '[1, 22]\\n'".into())
            .run(b"[]", exact)
            .unwrap_err();
        assert!(
            failure.message.contains("more than 7 bytes"),
            "{}",
            failure.message
        );
    }

    #[test]
    fn sizes() {
        for (text, size) in [
            ("1", 1),
            ("1000000", 1_000_000),
            ("64M", 64 << 20),
            ("64m", 64 << 20),
            ("64MiB", 64 << 20),
            ("64MB", 64 << 20),
            ("1G", 1 << 30),
            ("2T", 2 << 40),
            ("512K", 512 << 10),
            ("512kib", 512 << 10),
            ("5B", 5),
        ] {
            assert_eq!(parse_size(text), Ok(size), "{text}");
        }
        for bad in ["", "M", "1.5G", "-1", "64X", "64 M", "1iB", "64MiBB"] {
            assert_eq!(
                parse_size(bad),
                Err(format!(
                    "not a size: {bad:?} (try 64M, 1G, or a number of bytes)"
                )),
                "{bad}"
            );
        }
        assert_eq!(parse_size("0M"), Err("not a positive size: \"0M\"".into()));
        assert_eq!(
            parse_size("99999999999T"),
            Err("too large a size: \"99999999999T\"".into())
        );
        assert_eq!(format_size(64 << 20), "64 MiB");
        assert_eq!(format_size(1 << 30), "1 GiB");
        assert_eq!(format_size(1536), "1536 bytes");
        assert_eq!(format_size(3 << 10), "3 KiB");
        assert_eq!(format_size(1_000_000), "1000000 bytes");
        assert_eq!(format_size(1), "1 byte");
        assert_eq!(format_size(0), "0 bytes");
    }

    #[test]
    fn the_corpus_cap_is_16_times_its_largest_file_and_at_least_64_mib() {
        let dir = tempfile::tempdir().unwrap();
        let (cases, golden) = (dir.path().join("cases"), dir.path().join("golden"));
        std::fs::create_dir_all(cases.join("sub")).unwrap();
        std::fs::create_dir_all(&golden).unwrap();
        assert_eq!(corpus_max_output(&[&cases, &golden]), 64 << 20);
        assert_eq!(corpus_max_output(&[&dir.path().join("missing")]), 64 << 20);
        let big = std::fs::File::create(cases.join("sub/big.json")).unwrap();
        big.set_len(5 << 20).unwrap();
        std::fs::write(golden.join("a.json"), "[]").unwrap();
        assert_eq!(corpus_max_output(&[&cases, &golden]), 80 << 20);
        let bigger = std::fs::File::create(golden.join("b.json")).unwrap();
        bigger.set_len(6 << 20).unwrap();
        assert_eq!(corpus_max_output(&[&cases, &golden]), 96 << 20);
    }
}
