//! Running an oracle over one case file: another implementation's command
//! (`sh -c CMD`, the case file on its stdin, its result array on stdout),
//! or our own batch driver in-process (on a thread, under the same
//! timeout).
//!
//! A command runs in a process group of its own, so that a timeout kills
//! everything it started (`sh -c` leaves grandchildren holding the
//! pipes otherwise). A command that exits non-zero, dies of a signal,
//! outlives its timeout, or prints anything but one JSON array is a
//! failure for that file, with its stderr kept for the report.

use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::golden;
use crate::batch;
use crate::ipc::process::kill_group;

/// How much of an oracle's stderr a report keeps: the end of it.
const STDERR_KEPT: usize = 16 * 1024;

/// After a kill, how long to wait for the pipes to close.
const KILL_GRACE: Duration = Duration::from_secs(2);

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

impl Oracle {
    /// Runs the oracle on one case file and returns its stdout, checked to
    /// be one JSON array.
    pub fn run(&self, input: &[u8], timeout: Duration) -> Result<Vec<u8>, OracleFailure> {
        match self {
            Oracle::InProcess => run_in_process(input, timeout),
            Oracle::Command(command) => run_command(command, input, timeout),
        }
    }
}

/// The stack of the thread our own oracle runs on: results nest
/// thousands of levels deep, and printing and dropping them recurses.
const IN_PROCESS_STACK: usize = 256 * 1024 * 1024;

/// Our batch driver on a thread of its own, so that a case that hangs
/// costs the timeout, not the run. A thread cannot be killed: one that
/// overruns is left behind, and ends with the process.
fn run_in_process(input: &[u8], timeout: Duration) -> Result<Vec<u8>, OracleFailure> {
    let (sender, receiver) = mpsc::channel();
    let input = input.to_vec();
    let spawned = thread::Builder::new()
        .name("in-process oracle".into())
        .stack_size(IN_PROCESS_STACK)
        .spawn(move || sender.send(batch::run_batch_bytes(&input)));
    if let Err(error) = spawned {
        return Err(OracleFailure {
            kind: FailureKind::Crash,
            message: format!("cannot start our oracle: {error}"),
            stderr: None,
        });
    }
    let failure = |message: String| OracleFailure {
        kind: FailureKind::Crash,
        message,
        stderr: None,
    };
    match receiver.recv_timeout(timeout) {
        Ok(Ok(output)) => Ok(output),
        Ok(Err(refusal)) => Err(failure(format!(
            "our oracle refused the file: {}",
            refusal.reason
        ))),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(OracleFailure {
            kind: FailureKind::Timeout,
            ..failure(format!(
                "our oracle did not finish within {} s",
                timeout.as_secs_f64()
            ))
        }),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err(failure("our oracle stopped without a result".into()))
        }
    }
}

enum Event {
    Exited(std::io::Result<ExitStatus>),
    Stdout(Vec<u8>),
    Stderr(Vec<u8>),
}

fn read_all(mut source: impl Read) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = source.read_to_end(&mut out);
    out
}

/// Reads a stream to its end, keeping only its last [`STDERR_KEPT`] bytes.
fn read_tail(mut source: impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match source.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(read) => {
                kept.extend_from_slice(&chunk[..read]);
                if kept.len() > 2 * STDERR_KEPT {
                    kept.drain(..kept.len() - STDERR_KEPT);
                }
            }
        }
    }
    if kept.len() > STDERR_KEPT {
        kept.drain(..kept.len() - STDERR_KEPT);
    }
    kept
}

fn run_command(command: &str, input: &[u8], timeout: Duration) -> Result<Vec<u8>, OracleFailure> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|error| OracleFailure {
            kind: FailureKind::Crash,
            message: format!("cannot start the oracle command: {error}"),
            stderr: None,
        })?;
    let pid = child.id();
    let (events, received) = mpsc::channel();
    if let Some(mut stdin) = child.stdin.take() {
        let input = input.to_vec();
        // An oracle that exits without reading its input is not our error.
        thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
    if let Some(stdout) = child.stdout.take() {
        let events = events.clone();
        thread::spawn(move || events.send(Event::Stdout(read_all(stdout))));
    }
    if let Some(stderr) = child.stderr.take() {
        let events = events.clone();
        thread::spawn(move || events.send(Event::Stderr(read_tail(stderr))));
    }
    thread::spawn(move || events.send(Event::Exited(child.wait())));

    let mut deadline = Instant::now() + timeout;
    let mut timed_out = false;
    let (mut status, mut stdout, mut stderr) = (None, None, None);
    while status.is_none() || stdout.is_none() || stderr.is_none() {
        let left = deadline.saturating_duration_since(Instant::now());
        match received.recv_timeout(left) {
            Ok(Event::Exited(result)) => status = Some(result),
            Ok(Event::Stdout(bytes)) => stdout = Some(bytes),
            Ok(Event::Stderr(bytes)) => stderr = Some(bytes),
            Err(mpsc::RecvTimeoutError::Timeout) if !timed_out => {
                kill_group(pid);
                timed_out = true;
                deadline = Instant::now() + KILL_GRACE;
            }
            // Something outside the group still holds a pipe; give up on it.
            Err(_) => break,
        }
    }
    let stderr_text = stderr.map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    // What went wrong first decides the kind: a timeout, then the exit,
    // then what was printed.
    let kind = match &status {
        _ if timed_out => FailureKind::Timeout,
        Some(Ok(status)) if status.success() => FailureKind::InvalidOutput,
        _ => FailureKind::Crash,
    };
    let fail = |message: String| OracleFailure {
        kind,
        message,
        stderr: stderr_text.clone(),
    };
    if timed_out {
        return Err(fail(format!(
            "the oracle did not finish within {} s and was killed",
            timeout.as_secs_f64()
        )));
    }
    match status {
        Some(Ok(status)) if status.success() => {}
        Some(Ok(status)) => {
            return Err(fail(match (status.code(), status.signal()) {
                (Some(code), _) => format!("the oracle exited with status {code}"),
                (None, Some(signal)) => format!("the oracle was killed by signal {signal}"),
                _ => format!("the oracle failed: {status}"),
            }))
        }
        Some(Err(error)) => return Err(fail(format!("cannot wait for the oracle: {error}"))),
        None => return Err(fail("the oracle's exit was never seen".into())),
    }
    let stdout = stdout.unwrap_or_default();
    if let Err(error) = golden::split_elements(&stdout) {
        let trimmed = stdout.iter().position(|b| !b.is_ascii_whitespace());
        let message = match trimmed.map(|at| stdout[at]) {
            None => "the oracle printed nothing on stdout".to_owned(),
            Some(b'[') => format!("the oracle printed an incomplete or malformed array: {error}"),
            Some(_) => format!("the oracle printed no JSON array: {error}"),
        };
        return Err(fail(message));
    }
    Ok(stdout)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(command: &str, timeout_ms: u64) -> Result<Vec<u8>, OracleFailure> {
        Oracle::Command(command.into()).run(b"[1,2]", Duration::from_millis(timeout_ms))
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
            Oracle::InProcess
                .run(b"[5]", Duration::from_secs(60))
                .unwrap(),
            br#"[{"threw":true,"message":"case must be a JSON object"}]"#
        );
        let refusal = Oracle::InProcess
            .run(b"{}", Duration::from_secs(60))
            .unwrap_err();
        assert!(refusal.message.contains("not a JSON array"));
        assert_eq!(refusal.kind, FailureKind::Crash);
        assert_eq!(FailureKind::InvalidOutput.to_string(), "invalid-output");
        assert_eq!(FailureKind::Crash.as_str(), "crash");
        assert_eq!(FailureKind::Timeout.as_str(), "timeout");
    }
}
