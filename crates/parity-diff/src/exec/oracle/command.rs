//! An oracle command: `sh -c CMD` in a process group of its own, the case
//! file on its stdin, its stdout read up to `--max-output`, the end of
//! its stderr kept. On timeout, or when its stdout passes the cap, the
//! group gets SIGTERM, and SIGKILL after the grace, unless it is done
//! (exited, its output closed) before. Once it has exited, no timeout
//! applies: whatever still holds its output after the grace is stopped
//! the same way (see `leaks.rs`).

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::failure::{FailureKind, OracleFailure};
use super::groups::{self, SpawnError};
use super::leaks::{self, Leak};
use super::options::OracleOptions;
use super::results;
use super::spooled::{check_file, Captured, Counted};
use crate::base::size::format_size;

/// How much of an oracle's stderr a report keeps: the end of it.
pub(super) const STDERR_KEPT: usize = 16 * 1024;

/// After SIGKILL, how long to wait for the pipes to close: something
/// outside the group may hold them.
const PIPE_WAIT: Duration = Duration::from_secs(2);

/// How stdout is read: in chunks of this size, into a buffer that grows
/// no further than the cap.
const CHUNK: usize = 64 * 1024;

enum Event {
    Exited,
    Stdout(Result<Captured, Unread>),
    Stderr(Vec<u8>),
}

/// What the oracle is given on stdin.
#[derive(Debug)]
pub enum Input<'a> {
    /// Bytes in memory, written by a thread of ours.
    Bytes(&'a [u8]),
    /// A file, read by the oracle itself.
    File(File),
}

/// Why stdout was not read to its end.
#[derive(Debug, PartialEq, Eq)]
enum Unread {
    /// It passed the cap.
    TooLarge,
    /// Memory for it could not be had.
    NoMemory(usize),
    /// The file it goes to could not be written.
    Spool(String),
}

/// Reads a stream to its end, or until it passes `cap` bytes; then the
/// stream is closed (the writer gets EPIPE) and what was read dropped.
/// Memory is asked for fallibly, so that an oracle's output can never
/// abort this process.
fn read_capped(mut source: impl Read, cap: u64) -> Result<Vec<u8>, Unread> {
    let cap = usize::try_from(cap).unwrap_or(usize::MAX);
    let mut out: Vec<u8> = Vec::new();
    let mut chunk = vec![0u8; CHUNK];
    loop {
        let read = match source.read(&mut chunk) {
            Ok(0) => return Ok(out),
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            // A broken pipe or the like: what came is what there is.
            Err(_) => return Ok(out),
        };
        if read > cap - out.len() {
            return Err(Unread::TooLarge);
        }
        if out.capacity() - out.len() < read {
            // Doubling, but never past the cap.
            let wanted = (out.len() + read).max(2 * out.capacity()).min(cap);
            out.try_reserve_exact(wanted - out.len())
                .map_err(|_| Unread::NoMemory(wanted))?;
        }
        out.extend_from_slice(&chunk[..read]);
    }
}

/// Copies a stream to `file` to its end, or until it passes `cap` bytes
/// (then the stream is closed, as [`read_capped`] does); given a
/// `watch`, each chunk goes to it instead, to write to the file what it
/// must keep.
fn copy_capped(
    mut source: impl Read,
    mut file: File,
    cap: u64,
    mut watch: Option<Watch>,
) -> Result<File, Unread> {
    let mut chunk = vec![0u8; CHUNK];
    let mut copied = 0u64;
    loop {
        let read = match source.read(&mut chunk) {
            Ok(0) => return Ok(file),
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return Ok(file),
        };
        copied += read as u64;
        if copied > cap {
            return Err(Unread::TooLarge);
        }
        let written = match &mut watch {
            Some(watch) => watch(&mut file, &chunk[..read]),
            None => file.write_all(&chunk[..read]),
        };
        written.map_err(|error| Unread::Spool(error.to_string()))?;
    }
}

/// Reads a stream to its end, keeping only its last [`STDERR_KEPT`] bytes.
fn read_tail(mut source: impl Read) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match source.read(&mut chunk) {
            Ok(0) => break,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
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

/// Why the oracle was stopped.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    Timeout,
    TooLarge,
}

/// Where a run stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Running,
    /// The oracle exited, something still holds its output: at the
    /// deadline (the grace after the exit) those holders get SIGTERM.
    Draining,
    /// The holders got SIGTERM; SIGKILL at the deadline.
    HoldersTerminated,
    /// A stop: SIGTERM sent to the group; SIGKILL at the deadline.
    Terminating,
    /// SIGKILL sent; at the deadline we give up waiting for the pipes.
    Killed,
}

/// The processes that held the oracle's output after it was done, and
/// how they were stopped.
#[derive(Default)]
struct Holders {
    pids: Vec<u32>,
    killed: bool,
}

impl Holders {
    /// Signals whatever holds the pipes now, but the members of `group`
    /// when given (a stop signals them as a group); returns whether any
    /// process was signalled.
    fn signal(&mut self, inodes: &[u64], signal: libc::c_int, group: Option<u32>) -> bool {
        let mut any = false;
        let others = leaks::holders(inodes)
            .into_iter()
            .filter(|&pid| group.is_none_or(|group| !leaks::in_group(pid, group)));
        for pid in others {
            if leaks::signal_holder(pid, inodes, signal) {
                any = true;
                if !self.pids.contains(&pid) {
                    self.pids.push(pid);
                }
            }
        }
        self.pids.sort_unstable();
        any
    }

    fn leak(self, grace: Duration) -> Option<Leak> {
        (!self.pids.is_empty()).then_some(Leak {
            pids: self.pids,
            killed: self.killed,
            grace,
        })
    }
}

pub(super) fn run_command(
    command: &str,
    input: &[u8],
    options: OracleOptions,
) -> (Result<Vec<u8>, OracleFailure>, Option<Leak>) {
    let (ran, leak) = run_command_with(command, Input::Bytes(input), None, options);
    let ran = ran.map(|(captured, _)| match captured {
        Captured::Memory(stdout) => stdout,
        Captured::File(_) => unreachable!("stdout was kept in memory"),
    });
    (ran, leak)
}

/// Runs a command with `input` on its stdin, its stdout kept in memory,
/// or written to `spool` when given; returns it and how many elements it
/// has (and how many of them are not JSON), checked to be an array whose
/// elements can be told apart, as [`results::read_results`] reads it;
/// and the processes it left holding its output, stopped ([`Leak`]).
pub(super) fn run_command_with(
    command: &str,
    input: Input<'_>,
    spool: Option<Spool>,
    options: OracleOptions,
) -> (Result<(Captured, Counted), OracleFailure>, Option<Leak>) {
    let mut holders = Holders::default();
    let ran = run_watched(command, input, spool, options, &mut holders);
    (ran, holders.leak(options.kill_grace))
}

/// Where an output is spooled, and whether it is read through
/// ([`check_file`]) once the oracle is done; unchecked, its counts are
/// the caller's to learn ([`check_file`] again). A watch may hold bytes
/// back from the spool, so only an unchecked spool has one: its caller
/// has the watch write them before the spool is read.
pub(super) struct Spool {
    pub file: File,
    pub check: bool,
    pub watch: Option<Watch>,
}

/// What sees an output as it is spooled, on the thread that copies it:
/// each chunk as it comes, and the spool, which holds what the watch
/// wrote of the chunks before. It writes the chunk to the spool, or holds
/// it back when it can write it again later (a match with the golden
/// holds back what is the golden's: see `exec/stream/as_golden.rs`).
/// Whatever it does, the oracle waits for it: it must be quick.
pub type Watch = Box<dyn FnMut(&mut File, &[u8]) -> io::Result<()> + Send>;

fn run_watched(
    command: &str,
    input: Input<'_>,
    spool: Option<Spool>,
    options: OracleOptions,
    holders: &mut Holders,
) -> Result<(Captured, Counted), OracleFailure> {
    let check = spool.as_ref().is_none_or(|spool| spool.check);
    debug_assert!(
        spool
            .as_ref()
            .is_none_or(|spool| !spool.check || spool.watch.is_none()),
        "a watched spool may lack what its watch held back"
    );
    let mut spawn = Command::new("sh");
    spawn.arg("-c").arg(command);
    let (stdin, bytes) = match input {
        Input::Bytes(bytes) => (Stdio::piped(), Some(bytes)),
        Input::File(file) => (Stdio::from(file), None),
    };
    spawn
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let (mut child, group) = groups::spawn(&mut spawn, options.kill_grace).map_err(|error| {
        OracleFailure::new(
            FailureKind::Crash,
            match error {
                SpawnError::Stopping => {
                    "parity-diff is stopping; the oracle was not started".into()
                }
                SpawnError::Io(error) => format!("cannot start the oracle command: {error}"),
            },
        )
    })?;
    // The pipes' inodes, by which whatever holds them is found.
    let inodes: Vec<u64> = [
        child.stdout.as_ref().and_then(leaks::pipe_inode),
        child.stderr.as_ref().and_then(leaks::pipe_inode),
    ]
    .into_iter()
    .flatten()
    .collect();
    group.set_pipes(inodes.clone());
    let (events, received) = mpsc::channel();
    if let (Some(mut stdin), Some(input)) = (child.stdin.take(), bytes) {
        let input = input.to_vec();
        // An oracle that exits without reading its input is not our error.
        thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
    // Each stream counts as closed once its reader is done, whether or not
    // its pipe was there.
    {
        let (events, group) = (events.clone(), group.clone());
        let stdout = child.stdout.take();
        let cap = options.max_output;
        thread::spawn(move || {
            let read = match (stdout, spool) {
                (None, None) => Ok(Captured::Memory(Vec::new())),
                (None, Some(spool)) => Ok(Captured::File(spool.file)),
                (Some(stdout), None) => read_capped(stdout, cap).map(Captured::Memory),
                (Some(stdout), Some(spool)) => {
                    copy_capped(stdout, spool.file, cap, spool.watch).map(Captured::File)
                }
            };
            group.stream_closed();
            events.send(Event::Stdout(read))
        });
    }
    {
        let (events, group) = (events.clone(), group.clone());
        let stderr = child.stderr.take();
        thread::spawn(move || {
            let tail = stderr.map(read_tail).unwrap_or_default();
            group.stream_closed();
            events.send(Event::Stderr(tail))
        });
    }
    {
        let group = group.clone();
        thread::spawn(move || {
            groups::wait_exit(&group);
            events.send(Event::Exited)
        });
    }

    let mut phase = Phase::Running;
    let mut stop = None;
    let mut deadline = groups::after(options.timeout);
    let (mut exited, mut stdout, mut stderr) = (false, None, None);
    loop {
        if exited && stdout.is_some() && stderr.is_some() {
            if phase == Phase::Terminating {
                // Done within the grace: whatever left the group's
                // output (a daemon) goes now.
                groups::kill(&group);
            }
            break;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match received.recv_timeout(left) {
            Ok(Event::Exited) => {
                exited = true;
                if phase == Phase::Running {
                    // The oracle is done, and no timeout applies now:
                    // whatever still holds its output has the grace to
                    // let go (see `oracle/leaks.rs`).
                    phase = Phase::Draining;
                    deadline = groups::after(options.kill_grace);
                }
            }
            Ok(Event::Stdout(read)) => {
                let running = matches!(phase, Phase::Running | Phase::Draining);
                if matches!(read, Err(Unread::TooLarge)) && running {
                    stop = Some(Stop::TooLarge);
                    groups::terminate(&group);
                    phase = Phase::Terminating;
                    deadline = groups::after(options.kill_grace);
                }
                stdout = Some(read);
            }
            Ok(Event::Stderr(tail)) => stderr = Some(tail),
            Err(mpsc::RecvTimeoutError::Timeout) => match phase {
                Phase::Running => {
                    stop = Some(Stop::Timeout);
                    groups::terminate(&group);
                    holders.signal(&inodes, libc::SIGTERM, Some(group.pid()));
                    phase = Phase::Terminating;
                    deadline = groups::after(options.kill_grace);
                }
                Phase::Draining => {
                    holders.signal(&inodes, libc::SIGTERM, None);
                    phase = Phase::HoldersTerminated;
                    deadline = groups::after(options.kill_grace);
                }
                Phase::HoldersTerminated => {
                    holders.killed |= holders.signal(&inodes, libc::SIGKILL, None);
                    phase = Phase::Killed;
                    deadline = Instant::now() + PIPE_WAIT;
                }
                Phase::Terminating => {
                    groups::kill(&group);
                    holders.killed |= holders.signal(&inodes, libc::SIGKILL, Some(group.pid()));
                    phase = Phase::Killed;
                    deadline = Instant::now() + PIPE_WAIT;
                }
                // Something we could not stop still holds a pipe; give up on it.
                Phase::Killed => break,
            },
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    // A leader that has not exited even after SIGKILL stays registered
    // (and unreaped), which is harmless.
    let status = if exited {
        groups::release(&group, &mut child)
    } else {
        None
    };
    let stderr_text = stderr.map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    let fail = |kind: FailureKind, message: String| OracleFailure {
        kind,
        message,
        stderr: stderr_text.clone(),
        stdout: None,
    };
    // What went wrong first decides the kind: a stop, then the exit,
    // then what was printed.
    match stop {
        Some(Stop::Timeout) => {
            return Err(fail(
                FailureKind::Timeout,
                format!(
                    "the oracle did not finish within {} s and was killed",
                    options.timeout.as_secs_f64()
                ),
            ))
        }
        Some(Stop::TooLarge) => {
            return Err(fail(
                FailureKind::InvalidOutput,
                format!(
                    "the oracle printed more than {} on stdout and was stopped \
                     (--max-output sets the limit)",
                    format_size(options.max_output)
                ),
            ))
        }
        None => {}
    }
    match status {
        Some(Ok(status)) if status.success() => {}
        Some(Ok(status)) => {
            return Err(fail(
                FailureKind::Crash,
                match (status.code(), status.signal()) {
                    (Some(code), _) => format!("the oracle exited with status {code}"),
                    (None, Some(signal)) => format!("the oracle was killed by signal {signal}"),
                    _ => format!("the oracle failed: {status}"),
                },
            ))
        }
        Some(Err(error)) => {
            return Err(fail(
                FailureKind::Crash,
                format!("cannot wait for the oracle: {error}"),
            ))
        }
        None if exited => {
            return Err(fail(
                FailureKind::Crash,
                "parity-diff is stopping; the oracle was stopped".into(),
            ))
        }
        None => {
            return Err(fail(
                FailureKind::Crash,
                "the oracle's exit was never seen".into(),
            ))
        }
    }
    let stdout = match stdout {
        Some(Ok(stdout)) => stdout,
        Some(Err(Unread::NoMemory(size))) => {
            return Err(fail(
                FailureKind::InvalidOutput,
                format!(
                    "cannot hold the oracle's output: no memory for {}",
                    format_size(size as u64)
                ),
            ))
        }
        Some(Err(Unread::Spool(error))) => {
            return Err(fail(
                FailureKind::Crash,
                format!("cannot spool the oracle's output to a temporary file: {error}"),
            ))
        }
        // Seen and stopped above.
        Some(Err(Unread::TooLarge)) => Captured::Memory(Vec::new()),
        None => {
            return Err(fail(
                FailureKind::Crash,
                "the oracle exited, but its output stayed open: held by processes \
                 that could not be found or stopped"
                    .into(),
            ))
        }
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdout_is_read_up_to_its_cap_and_no_further() {
        let bytes = vec![b'x'; 300_000];
        assert_eq!(read_capped(&bytes[..], 300_000).unwrap(), bytes);
        assert_eq!(read_capped(&bytes[..], 299_999), Err(Unread::TooLarge));
        assert_eq!(read_capped(&b""[..], 0).unwrap(), b"");
        assert_eq!(read_capped(&b"x"[..], 0), Err(Unread::TooLarge));
        // The buffer never grows past the cap, even when doubling would.
        let mut chunked = std::io::Cursor::new(vec![b'y'; 3 * CHUNK]);
        let read = read_capped(&mut chunked, 3 * CHUNK as u64).unwrap();
        assert_eq!(read.capacity(), 3 * CHUNK);
    }
}
