//! An oracle command: `sh -c CMD` in a process group of its own, the case
//! file on its stdin, its stdout read up to `--max-output`, the end of
//! its stderr kept. On timeout, or when its stdout passes the cap, the
//! group gets SIGTERM, and SIGKILL after the grace, unless it is done
//! (exited, its output closed) before. Once it has exited, no timeout
//! applies: whatever still holds its output after the grace is stopped
//! the same way (see `leaks.rs`).

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, ChildStdout, Command, Stdio};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use super::failure::{FailureKind, OracleFailure};
use super::groups::{self, Group, SpawnError};
use super::leaks::{self, Leak};
use super::options::OracleOptions;
use super::outcome::{Ended, Stop, Unread};
use super::spooled::{Captured, Counted};

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
/// elements can be told apart, as
/// [`results::read_results`](super::results::read_results) reads it; and
/// the processes it left holding its output, stopped ([`Leak`]).
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
/// ([`check_file`](super::spooled::check_file)) once the oracle is done;
/// unchecked, its counts are the caller's to learn (`check_file` again).
/// A watch may hold bytes back from the spool, so only an unchecked spool
/// has one: its caller has the watch write them before the spool is read.
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
    let (mut spawn, bytes) = shell_command(command, input);
    let (mut child, group) =
        groups::spawn(&mut spawn, options.kill_grace).map_err(spawn_failure)?;
    let inodes = pipe_inodes(&child);
    group.set_pipes(inodes.clone());
    let received = start_threads(&mut child, bytes, spool, options.max_output, &group);
    let watched = watch(&received, &group, &inodes, holders, options);
    // A leader that has not exited even after SIGKILL stays registered
    // (and unreaped), which is harmless.
    let status = if watched.exited {
        groups::release(&group, &mut child)
    } else {
        None
    };
    Ended {
        stop: watched.stop,
        exited: watched.exited,
        status,
        stdout: watched.stdout,
        stderr: watched.stderr,
    }
    .result(check, options)
}

/// `sh -c command`, to be the leader of a process group of its own, and
/// the bytes to write to its stdin, if it reads no file.
fn shell_command<'a>(command: &str, input: Input<'a>) -> (Command, Option<&'a [u8]>) {
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
    (spawn, bytes)
}

fn spawn_failure(error: SpawnError) -> OracleFailure {
    OracleFailure::new(
        FailureKind::Crash,
        match error {
            SpawnError::Stopping => "parity-diff is stopping; the oracle was not started".into(),
            SpawnError::Io(error) => format!("cannot start the oracle command: {error}"),
        },
    )
}

/// The inodes of a child's output pipes, by which whatever holds them is
/// found.
fn pipe_inodes(child: &Child) -> Vec<u64> {
    [
        child.stdout.as_ref().and_then(leaks::pipe_inode),
        child.stderr.as_ref().and_then(leaks::pipe_inode),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Starts the threads that feed the child its input, read its stdout and
/// its stderr, and wait for its exit; what they see comes as events.
fn start_threads(
    child: &mut Child,
    bytes: Option<&[u8]>,
    spool: Option<Spool>,
    cap: u64,
    group: &Arc<Group>,
) -> mpsc::Receiver<Event> {
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
    read_stdout(
        child.stdout.take(),
        spool,
        cap,
        group.clone(),
        events.clone(),
    );
    read_stderr(child.stderr.take(), group.clone(), events.clone());
    let group = group.clone();
    thread::spawn(move || {
        groups::wait_exit(&group);
        events.send(Event::Exited)
    });
    received
}

/// Reads stdout on a thread of its own, into memory or to the spool.
fn read_stdout(
    stdout: Option<ChildStdout>,
    spool: Option<Spool>,
    cap: u64,
    group: Arc<Group>,
    events: mpsc::Sender<Event>,
) {
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

/// Reads the end of stderr on a thread of its own.
fn read_stderr(stderr: Option<ChildStderr>, group: Arc<Group>, events: mpsc::Sender<Event>) {
    thread::spawn(move || {
        let tail = stderr.map(read_tail).unwrap_or_default();
        group.stream_closed();
        events.send(Event::Stderr(tail))
    });
}

/// What has been seen of a running oracle, and what is awaited next.
struct Watched {
    phase: Phase,
    stop: Option<Stop>,
    deadline: Instant,
    exited: bool,
    stdout: Option<Result<Captured, Unread>>,
    stderr: Option<Vec<u8>>,
}

/// Waits on the oracle's events until it is done, its deadlines stopping
/// it as they pass, or until nothing more can be waited for.
fn watch(
    received: &mpsc::Receiver<Event>,
    group: &Group,
    inodes: &[u64],
    holders: &mut Holders,
    options: OracleOptions,
) -> Watched {
    let mut watched = Watched {
        phase: Phase::Running,
        stop: None,
        deadline: groups::after(options.timeout),
        exited: false,
        stdout: None,
        stderr: None,
    };
    loop {
        if watched.exited && watched.stdout.is_some() && watched.stderr.is_some() {
            if watched.phase == Phase::Terminating {
                // Done within the grace: whatever left the group's
                // output (a daemon) goes now.
                groups::kill(group);
            }
            return watched;
        }
        let left = watched.deadline.saturating_duration_since(Instant::now());
        match received.recv_timeout(left) {
            Ok(event) => watched.seen(event, group, options.kill_grace),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if watched.deadline_passed(group, inodes, holders, options.kill_grace) {
                    return watched;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return watched,
        }
    }
}

impl Watched {
    fn seen(&mut self, event: Event, group: &Group, grace: Duration) {
        match event {
            Event::Exited => {
                self.exited = true;
                if self.phase == Phase::Running {
                    // The oracle is done, and no timeout applies now:
                    // whatever still holds its output has the grace to
                    // let go (see `oracle/leaks.rs`).
                    self.phase = Phase::Draining;
                    self.deadline = groups::after(grace);
                }
            }
            Event::Stdout(read) => {
                let running = matches!(self.phase, Phase::Running | Phase::Draining);
                if matches!(read, Err(Unread::TooLarge)) && running {
                    self.stop = Some(Stop::TooLarge);
                    groups::terminate(group);
                    self.phase = Phase::Terminating;
                    self.deadline = groups::after(grace);
                }
                self.stdout = Some(read);
            }
            Event::Stderr(tail) => self.stderr = Some(tail),
        }
    }

    /// Takes the next step of a stop at its deadline; returns whether to
    /// give up waiting.
    fn deadline_passed(
        &mut self,
        group: &Group,
        inodes: &[u64],
        holders: &mut Holders,
        grace: Duration,
    ) -> bool {
        match self.phase {
            Phase::Running => {
                self.stop = Some(Stop::Timeout);
                groups::terminate(group);
                holders.signal(inodes, libc::SIGTERM, Some(group.pid()));
                self.phase = Phase::Terminating;
                self.deadline = groups::after(grace);
            }
            Phase::Draining => {
                holders.signal(inodes, libc::SIGTERM, None);
                self.phase = Phase::HoldersTerminated;
                self.deadline = groups::after(grace);
            }
            Phase::HoldersTerminated => {
                holders.killed |= holders.signal(inodes, libc::SIGKILL, None);
                self.phase = Phase::Killed;
                self.deadline = Instant::now() + PIPE_WAIT;
            }
            Phase::Terminating => {
                groups::kill(group);
                holders.killed |= holders.signal(inodes, libc::SIGKILL, Some(group.pid()));
                self.phase = Phase::Killed;
                self.deadline = Instant::now() + PIPE_WAIT;
            }
            // Something we could not stop still holds a pipe; give up on it.
            Phase::Killed => return true,
        }
        false
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
