//! The process's standard streams and its signals: where the results go,
//! and how the process ends when it is interrupted.
//!
//! stdout holds a complete result array only when the exit status is 0.
//! The array goes out all but its last byte; that byte is written only
//! after the output state moves from running to final, and a signal moves
//! it from running to interrupted. Whichever comes first wins: a signal
//! before the last byte ends the process with 128 + the signal, and a
//! signal after it (the results are out) ends it with 0. Either way the
//! scratch directories are removed first.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGXFSZ};

use super::say;

const RUNNING: u8 = 0;
const FINAL: u8 = 1;
const DELIVERED: u8 = 2;
const INTERRUPTED: u8 = 3;
const FAILED: u8 = 4;

/// Where the output is: see the module's documentation.
static OUTPUT: AtomicU8 = AtomicU8::new(RUNNING);

/// The last signal received, set by the signal handler itself (so that a
/// write that a signal made fail, EFBIG under SIGXFSZ, knows of it at
/// once).
static RECEIVED: LazyLock<Arc<AtomicUsize>> = LazyLock::new(|| Arc::new(AtomicUsize::new(0)));

/// The signals that end a batch with its scratch directories removed.
const SIGNALS: [i32; 4] = [SIGINT, SIGTERM, SIGHUP, SIGXFSZ];

fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        SIGXFSZ => "SIGXFSZ",
        _ => "a signal",
    }
}

/// Set when stdout was closed as the process started. Rust's runtime
/// opens /dev/null on a closed standard descriptor before `main`, so only
/// code that runs earlier can tell (the binary records it from an
/// `.init_array` constructor).
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Records, before Rust's runtime starts, whether stdout is closed: for a
/// constructor in the binary (Rust's runtime hides a closed stdout).
pub fn note_stdout_at_start() {
    if is_closed(1) {
        STDOUT_CLOSED_AT_START.store(true, Ordering::SeqCst);
    }
}

fn is_closed(fd: i32) -> bool {
    // SAFETY: F_GETFD only reads the descriptor's flags.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    flags < 0 && io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
}

/// Checks the standard streams before anything is opened: a closed stdout
/// is refused (the results would go nowhere, or into whatever file took
/// its number); a closed stdin or stderr gets /dev/null, so that no file
/// of ours takes its number either.
pub fn check_standard_streams() -> Result<(), String> {
    if is_closed(1) || STDOUT_CLOSED_AT_START.load(Ordering::SeqCst) {
        return Err("standard output is closed: the results would go nowhere".into());
    }
    for fd in [0, 2] {
        if is_closed(fd) {
            // SAFETY: opens /dev/null and moves it to the free number.
            unsafe {
                let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
                if null >= 0 && null != fd {
                    libc::dup2(null, fd);
                    libc::close(null);
                }
            }
        }
    }
    Ok(())
}

/// The last signal received, if any.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        signal => Some(signal as i32),
    }
}

/// Starts the thread that ends the process on SIGINT, SIGTERM, SIGHUP or
/// SIGXFSZ (see [`end_on_signal`]).
pub fn handle_signals() -> io::Result<()> {
    for signal in SIGNALS {
        signal_hook::flag::register_usize(signal, Arc::clone(&RECEIVED), signal as usize)?;
    }
    let mut signals = signal_hook::iterator::Signals::new(SIGNALS)?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                end_on_signal(signal);
            }
        })?;
    Ok(())
}

/// Ends the process for `signal`: settles the output (see the module's
/// documentation), removes every scratch directory, says so in one line,
/// and exits with 128 + the signal, or 0 when the complete results were
/// already out. A second caller waits for the first to end the process.
pub fn end_on_signal(signal: i32) -> ! {
    static ENDING: Mutex<()> = Mutex::new(());
    let _only_one = ENDING.lock();
    let output = settle_output();
    crate::scratch::remove_all();
    let name = signal_name(signal);
    if output == DELIVERED {
        say(&format!(
            "{name} after the results were written; scratch directories removed"
        ));
        std::process::exit(0);
    }
    say(&format!(
        "interrupted by {name}; scratch directories removed"
    ));
    std::process::exit(128 + signal)
}

/// Stops the output before its last byte, or waits (briefly) for a last
/// byte already on its way; returns where the output ended up.
fn settle_output() -> u8 {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        match OUTPUT.compare_exchange(RUNNING, INTERRUPTED, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) => return INTERRUPTED,
            Err(FINAL) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            // A last byte stuck past the deadline never counts as out.
            Err(FINAL) => return INTERRUPTED,
            Err(state) => return state,
        }
    }
}

/// Writes to file descriptor 1, retrying when interrupted, and waiting
/// when a non-blocking descriptor (inherited so) is full.
fn write_stdout(bytes: &[u8]) -> io::Result<usize> {
    loop {
        // SAFETY: writes from a valid slice to descriptor 1.
        let written = unsafe { libc::write(1, bytes.as_ptr().cast(), bytes.len()) };
        if written >= 0 {
            return Ok(written as usize);
        }
        let error = io::Error::last_os_error();
        match error.kind() {
            io::ErrorKind::Interrupted => {}
            io::ErrorKind::WouldBlock => wait_writable(),
            _ => return Err(error),
        }
    }
}

/// Waits until stdout can take a byte without blocking (a pipe whose
/// reader is slow), so that the last byte's write is immediate.
fn wait_writable() {
    let mut poll = libc::pollfd {
        fd: 1,
        events: libc::POLLOUT,
        revents: 0,
    };
    // SAFETY: one valid pollfd; an error or EINTR just retries or goes on.
    while unsafe { libc::poll(&mut poll, 1, -1) } < 0
        && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
    {}
}

/// The process's stdout for one result array of a known length: written
/// straight to descriptor 1 (std's stdout takes a closed descriptor for a
/// silent success), its last byte under the output protocol.
pub struct Stdout {
    remaining: u64,
}

impl Stdout {
    /// For an output of `length` bytes.
    pub fn new(length: u64) -> Stdout {
        Stdout { remaining: length }
    }

    fn write_last(&mut self, byte: u8) -> io::Result<usize> {
        wait_writable();
        if OUTPUT
            .compare_exchange(RUNNING, FINAL, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "a signal stopped the output",
            ));
        }
        match write_stdout(&[byte]) {
            Ok(1) => {
                OUTPUT.store(DELIVERED, Ordering::SeqCst);
                self.remaining = 0;
                Ok(1)
            }
            Ok(_) => {
                OUTPUT.store(FAILED, Ordering::SeqCst);
                Err(io::ErrorKind::WriteZero.into())
            }
            Err(error) => {
                OUTPUT.store(FAILED, Ordering::SeqCst);
                Err(error)
            }
        }
    }
}

impl Write for Stdout {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if bytes.is_empty() {
            return Ok(0);
        }
        let body = (bytes.len() as u64).min(self.remaining.saturating_sub(1)) as usize;
        if body == 0 {
            return self.write_last(bytes[0]);
        }
        let written = write_stdout(&bytes[..body])?;
        self.remaining -= written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
