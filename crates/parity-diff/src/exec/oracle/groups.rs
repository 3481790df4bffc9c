//! The oracle process groups alive in this process, so that a signal
//! handler can stop every one of them (several run at once under
//! `--jobs`), and the one way a group is stopped: SIGTERM, a grace period
//! for the oracle's own cleanup, then SIGKILL.
//!
//! A group's leader is not reaped until we are done signalling it: until
//! then its pid, and so its group id, cannot be reused, so no stranger
//! gets our signals ([`signal_group`]). A group is registered while the
//! registry's lock is held across the spawn, so no oracle is ever running
//! unregistered; once a shutdown has begun no oracle starts, and the
//! groups still registered belong to the shutdown, which kills and reaps
//! them.

use std::io;
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use super::leaks;
use sys_unix::{kill_group, signal_group};

/// One oracle command's process group.
pub(super) struct Group {
    pid: u32,
    /// How long SIGTERM is given before SIGKILL.
    grace: Duration,
    exited: AtomicBool,
    /// Output streams (stdout, stderr) not yet at their end.
    open_streams: AtomicUsize,
    /// The inodes of its output pipes, once known: a shutdown stops
    /// whatever else holds them too (a daemon that left the group).
    pipes: OnceLock<Vec<u64>>,
}

impl Group {
    /// The leader's pid, which is the group's id.
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// Notes the inodes of the group's output pipes.
    pub fn set_pipes(&self, inodes: Vec<u64>) {
        let _ = self.pipes.set(inodes);
    }

    /// Signals the processes outside the group that hold its pipes.
    fn signal_holders(&self, signal: libc::c_int) {
        let Some(pipes) = self.pipes.get() else {
            return;
        };
        for pid in leaks::holders(pipes) {
            if !leaks::in_group(pid, self.pid) {
                leaks::signal_holder(pid, pipes, signal);
            }
        }
    }

    /// The leader has exited (it is not reaped yet).
    pub fn mark_exited(&self) {
        self.exited.store(true, Ordering::SeqCst);
    }

    /// One of the output streams reached its end.
    pub fn stream_closed(&self) {
        self.open_streams.fetch_sub(1, Ordering::SeqCst);
    }

    /// Whether the leader has exited and nothing holds its output open:
    /// the oracle is done, cleanup included, as far as can be seen.
    fn done(&self) -> bool {
        self.exited.load(Ordering::SeqCst) && self.open_streams.load(Ordering::SeqCst) == 0
    }
}

struct Registry {
    /// A shutdown has begun: no oracle starts, and none is reaped but by
    /// the shutdown.
    stopping: bool,
    live: Vec<Arc<Group>>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    stopping: false,
    live: Vec::new(),
});

/// The instant `wait` from now. A wait too long for the clock (a library
/// caller's `Duration::MAX`; the flags and keys are bounded well below)
/// is a century instead of a panic that would leave the oracle running.
pub fn after(wait: Duration) -> Instant {
    const CENTURY: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
    let now = Instant::now();
    now.checked_add(wait)
        .or_else(|| now.checked_add(CENTURY))
        .unwrap_or(now)
}

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Whether a shutdown on a signal has begun: every oracle run from now
/// on fails at once, so nothing should be concluded from a failure.
pub fn stopping() -> bool {
    registry().stopping
}

/// Why an oracle command did not start.
pub(super) enum SpawnError {
    /// This process is shutting down on a signal.
    Stopping,
    /// The system refused.
    Io(io::Error),
}

/// Spawns `command` (which must put the child in a process group of its
/// own) and registers its group, with the grace its stop will give it.
/// The group's two output streams count as open until
/// [`Group::stream_closed`] is called for each.
pub(super) fn spawn(
    command: &mut Command,
    grace: Duration,
) -> Result<(Child, Arc<Group>), SpawnError> {
    let mut registry = registry();
    if registry.stopping {
        return Err(SpawnError::Stopping);
    }
    let child = command.spawn().map_err(SpawnError::Io)?;
    let group = Arc::new(Group {
        pid: child.id(),
        grace,
        exited: AtomicBool::new(false),
        open_streams: AtomicUsize::new(2),
        pipes: OnceLock::new(),
    });
    registry.live.push(Arc::clone(&group));
    Ok((child, group))
}

/// Unregisters a group whose leader has exited, and reaps the leader:
/// its status, or `None` when a shutdown has taken the group over (it is
/// then left to the shutdown).
pub(super) fn release(group: &Arc<Group>, child: &mut Child) -> Option<io::Result<ExitStatus>> {
    let mut registry = registry();
    if registry.stopping {
        return None;
    }
    registry.live.retain(|live| !Arc::ptr_eq(live, group));
    // The leader has exited: this does not block.
    Some(child.wait())
}

/// Blocks until the group's leader exits, without reaping it (`waitid`
/// with `WNOWAIT`), and marks the group: for a thread of its own.
pub(super) fn wait_exit(group: &Group) {
    let pid: libc::id_t = group.pid;
    loop {
        // SAFETY: waitid fills the zeroed siginfo_t we own.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let waited =
            unsafe { libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT) };
        if waited == 0 {
            group.mark_exited();
            return;
        }
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            // ECHILD: a shutdown reaped it.
            return;
        }
    }
}

/// Sends SIGTERM to a group: the start of a stop.
pub(super) fn terminate(group: &Group) {
    signal_group(group.pid, libc::SIGTERM);
}

/// Sends SIGKILL to a group: the end of a stop, for whatever outlived its
/// grace or left it (a straggler that closed its output).
pub(super) fn kill(group: &Group) {
    kill_group(group.pid);
}

/// How long [`shut_down`] waits at most for the groups to reap themselves
/// after SIGKILL.
const REAP_WAIT: Duration = Duration::from_secs(1);

/// Stops every registered oracle group for a shutdown, and starts no more:
/// SIGTERM to each at once (and to whatever outside it holds its output),
/// then, after the longest of their graces (or sooner, once every one is
/// done, or when `cut_short` says so), SIGKILL, and the leaders are
/// reaped. Returns how many groups there were.
pub(crate) fn shut_down(mut cut_short: impl FnMut() -> bool) -> usize {
    let groups: Vec<Arc<Group>> = {
        let mut registry = registry();
        registry.stopping = true;
        registry.live.clone()
    };
    for group in &groups {
        terminate(group);
        group.signal_holders(libc::SIGTERM);
    }
    let grace = groups.iter().map(|group| group.grace).max();
    let deadline = after(grace.unwrap_or_default());
    while Instant::now() < deadline && !groups.iter().all(|group| group.done()) {
        if cut_short() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    for group in &groups {
        kill(group);
        group.signal_holders(libc::SIGKILL);
    }
    // Reaped here, since nobody else will reap them now: a zombie leader
    // would keep its group id answering `kill -0` until this process ends.
    let deadline = Instant::now() + REAP_WAIT;
    let mut waiting: Vec<libc::pid_t> = groups
        .iter()
        .filter_map(|group| libc::pid_t::try_from(group.pid).ok())
        .collect();
    while !waiting.is_empty() && Instant::now() < deadline {
        waiting.retain(|&pid| {
            // SAFETY: waitpid on our own child; the status is ours.
            let mut status = 0;
            let reaped = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
            reaped == 0
        });
        if !waiting.is_empty() {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    groups.len()
}

#[cfg(test)]
mod deadline_tests {
    use super::*;

    /// Issue 38: `Instant::now() + 1.8e19 s` panicked, leaving the
    /// oracle's processes running.
    #[test]
    fn a_wait_too_long_for_the_clock_is_a_far_deadline_not_a_panic() {
        let now = Instant::now();
        assert!(after(Duration::MAX) > now + Duration::from_secs(3600 * 24 * 365));
        assert!(after(Duration::from_secs(1)) <= Instant::now() + Duration::from_secs(1));
    }
}
