//! How an oracle run ended (stopped or not, how its leader exited, what
//! was read of its output), and the result that comes of it.

use std::io;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

use super::failure::{FailureKind, OracleFailure};
use super::options::OracleOptions;
use super::results;
use super::spooled::{check_file, Captured, Counted};
use crate::base::size::format_size;

/// Why stdout was not read to its end.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Unread {
    /// It passed the cap.
    TooLarge,
    /// Memory for it could not be had.
    NoMemory(usize),
    /// The file it goes to could not be written.
    Spool(String),
}

/// Why the oracle was stopped.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    Timeout,
    TooLarge,
}

/// A run that is over: nothing more of it will be seen.
pub(super) struct Ended {
    pub stop: Option<Stop>,
    pub exited: bool,
    /// The leader's status, once reaped.
    pub status: Option<io::Result<ExitStatus>>,
    pub stdout: Option<Result<Captured, Unread>>,
    /// The end of stderr.
    pub stderr: Option<Vec<u8>>,
}

impl Ended {
    /// The run's output and its counts, or what went wrong first: a stop,
    /// then the exit, then what was printed. A spool is read through
    /// ([`check_file`]) only when `check` says so.
    pub fn result(
        self,
        check: bool,
        options: OracleOptions,
    ) -> Result<(Captured, Counted), OracleFailure> {
        let stderr_text = self
            .stderr
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
        let fail = |kind: FailureKind, message: String| OracleFailure {
            kind,
            message,
            stderr: stderr_text.clone(),
            stdout: None,
        };
        if let Some(stop) = self.stop {
            let (kind, message) = stop_failure(stop, options);
            return Err(fail(kind, message));
        }
        if let Some((kind, message)) = exit_failure(self.status, self.exited) {
            return Err(fail(kind, message));
        }
        let stdout = read_stdout(self.stdout).map_err(|(kind, message)| fail(kind, message))?;
        counted(stdout, check, fail)
    }
}

fn stop_failure(stop: Stop, options: OracleOptions) -> (FailureKind, String) {
    match stop {
        Stop::Timeout => (
            FailureKind::Timeout,
            format!(
                "the oracle did not finish within {} s and was killed",
                options.timeout.as_secs_f64()
            ),
        ),
        Stop::TooLarge => (
            FailureKind::InvalidOutput,
            format!(
                "the oracle printed more than {} on stdout and was stopped \
                 (--max-output sets the limit)",
                format_size(options.max_output)
            ),
        ),
    }
}

/// What is wrong with how the leader exited, if anything; `None` for a
/// status when it was not reaped.
fn exit_failure(
    status: Option<io::Result<ExitStatus>>,
    exited: bool,
) -> Option<(FailureKind, String)> {
    match status {
        Some(Ok(status)) if status.success() => None,
        Some(Ok(status)) => Some((
            FailureKind::Crash,
            match (status.code(), status.signal()) {
                (Some(code), _) => format!("the oracle exited with status {code}"),
                (None, Some(signal)) => format!("the oracle was killed by signal {signal}"),
                _ => format!("the oracle failed: {status}"),
            },
        )),
        Some(Err(error)) => Some((
            FailureKind::Crash,
            format!("cannot wait for the oracle: {error}"),
        )),
        None if exited => Some((
            FailureKind::Crash,
            "parity-diff is stopping; the oracle was stopped".into(),
        )),
        None => Some((
            FailureKind::Crash,
            "the oracle's exit was never seen".into(),
        )),
    }
}

/// The stdout read, or why there is none to judge.
fn read_stdout(
    stdout: Option<Result<Captured, Unread>>,
) -> Result<Captured, (FailureKind, String)> {
    match stdout {
        Some(Ok(stdout)) => Ok(stdout),
        Some(Err(Unread::NoMemory(size))) => Err((
            FailureKind::InvalidOutput,
            format!(
                "cannot hold the oracle's output: no memory for {}",
                format_size(size as u64)
            ),
        )),
        Some(Err(Unread::Spool(error))) => Err((
            FailureKind::Crash,
            format!("cannot spool the oracle's output to a temporary file: {error}"),
        )),
        // Seen and stopped before.
        Some(Err(Unread::TooLarge)) => Ok(Captured::Memory(Vec::new())),
        None => Err((
            FailureKind::Crash,
            "the oracle exited, but its output stayed open: held by processes \
             that could not be found or stopped"
                .into(),
        )),
    }
}

/// The stdout with its counts, or why it is no result array.
fn counted(
    stdout: Captured,
    check: bool,
    fail: impl Fn(FailureKind, String) -> OracleFailure,
) -> Result<(Captured, Counted), OracleFailure> {
    match stdout {
        // Read as every caller reads it, so that an output whose elements
        // can be told apart reaches the caller, who judges each one.
        Captured::Memory(stdout) => match results::read_results(&stdout) {
            Ok(elements) => {
                let counted = Counted {
                    elements: elements.len(),
                    invalid: elements.iter().filter(|element| element.is_err()).count(),
                    // Judged by whoever reads the output again.
                    framing: None,
                };
                Ok((Captured::Memory(stdout), counted))
            }
            Err(failure) => {
                let failure = fail(failure.kind, failure.message);
                Err(results::with_stdout_head(
                    failure,
                    &stdout,
                    stdout.len() as u64,
                ))
            }
        },
        Captured::File(file) if !check => Ok((Captured::File(file), Counted::UNCHECKED)),
        Captured::File(file) => {
            match check_file(file).map_err(|error| fail(FailureKind::Crash, error))? {
                Ok((counted, file)) => Ok((file, counted)),
                Err((failure, head, len)) => {
                    let failure = fail(failure.kind, failure.message);
                    Err(results::with_stdout_head(failure, &head, len))
                }
            }
        }
    }
}
