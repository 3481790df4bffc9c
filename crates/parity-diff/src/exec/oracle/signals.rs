//! `parity-diff`'s own signals. SIGINT, SIGTERM and SIGHUP stop every
//! oracle it runs, as a timeout does (SIGTERM to each process group, then
//! SIGKILL after the grace; a second signal cuts the grace short), and end
//! the process with 128 + the signal: 130, 143, 129. An oracle's own
//! cleanup (our oracle's scratch directories) is its own job, on the
//! SIGTERM it gets.
//!
//! The work runs on a thread of its own that waits for the signals
//! (`signal_hook`'s iterator), never in a signal handler: none of it is
//! async-signal-safe.

use std::io::{self, Write};
use std::sync::OnceLock;
use std::thread::JoinHandle;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::{Handle, Signals};

use super::groups;

/// The signals that stop `parity-diff`.
const SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];

fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// Keeps the handlers installed. Dropping it waits for a stop that has
/// begun (which ends the process), so that a run that finishes while its
/// oracles are being stopped cannot end the process first, with its own
/// status and the oracles still running.
pub struct SignalGuard {
    handle: Handle,
    thread: Option<JoinHandle<()>>,
}

impl Drop for SignalGuard {
    fn drop(&mut self) {
        self.handle.close();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What runs just before parity-diff exits on a signal: a command that
/// put the terminal in a state no shell should inherit (`review`'s raw
/// mode and alternate screen) puts it back, which its own guards cannot
/// do once the process exits from this thread.
static BEFORE_EXIT: OnceLock<fn()> = OnceLock::new();

/// Sets what runs before an exit on a signal (the first call wins).
pub fn before_signal_exit(hook: fn()) {
    let _ = BEFORE_EXIT.set(hook);
}

/// Installs the handlers for SIGINT, SIGTERM and SIGHUP; they stay until
/// the guard is dropped. Call it once, before any oracle runs.
pub fn install_signal_handlers() -> io::Result<SignalGuard> {
    let mut signals = Signals::new(SIGNALS)?;
    let handle = signals.handle();
    let thread = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let first = signals.forever().next();
            if let Some(signal) = first {
                let stopped = groups::shut_down(|| signals.pending().next().is_some());
                let _ = writeln!(
                    io::stderr(),
                    "parity-diff: interrupted by {}{}",
                    signal_name(signal),
                    match stopped {
                        0 => String::new(),
                        1 => " (1 oracle stopped)".to_owned(),
                        n => format!(" ({n} oracles stopped)"),
                    }
                );
                if let Some(hook) = BEFORE_EXIT.get() {
                    hook();
                }
                std::process::exit(128 + signal);
            }
        })?;
    Ok(SignalGuard {
        handle,
        thread: Some(thread),
    })
}
