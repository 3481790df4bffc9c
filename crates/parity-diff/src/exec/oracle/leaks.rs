//! Processes an oracle left behind holding its output: a daemon that
//! double-forked out of the oracle's process group (`setsid`), or a
//! background job, keeps the stdout pipe open after the oracle itself
//! has exited, and the output would never end. They are found by the
//! pipe's inode in `/proc/*/fd` (write ends only: this process holds the
//! read ends, and a process we are forking holds copies of those for a
//! moment), and stopped as a timeout stops a group: SIGTERM, then SIGKILL
//! after the grace. Each is signalled through a pidfd opened while it
//! still holds the pipe, so that a pid reused in between never gets our
//! signal (where pidfds are missing, plain `kill`).
//!
//! A leak is a warning, never a timeout: the oracle's output is judged
//! as printed (see [`Leak`]).

use std::fs;
use std::os::fd::AsRawFd;
use std::time::Duration;

/// Processes that kept an oracle's output open after it exited, and were
/// stopped: the warning a report prints, as nextest reports leaky tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leak {
    /// Their process ids, in order.
    pub pids: Vec<u32>,
    /// Whether SIGKILL was needed (SIGTERM did not end them within the
    /// grace).
    pub killed: bool,
    /// The grace they had after the oracle exited, and again after
    /// SIGTERM.
    pub grace: Duration,
}

impl std::fmt::Display for Leak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pids: Vec<String> = self.pids.iter().map(u32::to_string).collect();
        let (count, pid) = match self.pids.len() {
            1 => ("1 process".to_owned(), "pid"),
            n => (format!("{n} processes"), "pids"),
        };
        write!(
            f,
            "the oracle exited, but {count} it started kept its output open ({pid} {}); \
             stopped with SIGTERM {} s after the exit (--kill-grace){}",
            pids.join(", "),
            self.grace.as_secs_f64(),
            if self.killed { ", then SIGKILL" } else { "" }
        )
    }
}

/// How many of one file's leaks are told one by one: a port that leaks
/// on every run, bisected, would leak on hundreds.
const LEAKS_TOLD: usize = 3;

/// The warnings of one file's leaks: the first three, then how
/// many more there were.
pub fn leak_warnings(leaks: &[Leak]) -> Vec<String> {
    let mut warnings: Vec<String> = leaks.iter().take(LEAKS_TOLD).map(Leak::to_string).collect();
    let more = leaks.len().saturating_sub(LEAKS_TOLD);
    if more > 0 {
        warnings.push(format!(
            "{more} more run{} of the oracle on this file left processes holding its output; \
             all were stopped",
            if more == 1 { "" } else { "s" }
        ));
    }
    warnings
}

/// The inode of the pipe behind a descriptor, if it is one.
pub(super) fn pipe_inode(fd: &impl AsRawFd) -> Option<u64> {
    // SAFETY: fstat fills the zeroed stat we own; the descriptor is
    // borrowed, open for the call.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    let statted = unsafe { libc::fstat(fd.as_raw_fd(), &mut stat) };
    (statted == 0 && stat.st_mode & libc::S_IFMT == libc::S_IFIFO).then_some(stat.st_ino)
}

/// Whether `pid` holds one of these pipes open for writing.
fn holds(pid: u32, inodes: &[u64]) -> bool {
    let Ok(fds) = fs::read_dir(format!("/proc/{pid}/fd")) else {
        return false;
    };
    fds.flatten().any(|fd| {
        let Ok(target) = fs::read_link(fd.path()) else {
            return false;
        };
        let target = target.to_string_lossy();
        let on_pipe = inodes
            .iter()
            .any(|inode| target == format!("pipe:[{inode}]"));
        on_pipe && writes(pid, &fd.file_name().to_string_lossy())
    })
}

/// Whether descriptor `fd` of `pid` is open for writing (its fdinfo's
/// `flags`, in octal).
fn writes(pid: u32, fd: &str) -> bool {
    let Ok(info) = fs::read_to_string(format!("/proc/{pid}/fdinfo/{fd}")) else {
        return false;
    };
    info.lines()
        .find_map(|line| line.strip_prefix("flags:"))
        .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
        .is_some_and(|flags| {
            let mode = flags & libc::O_ACCMODE as u32;
            mode == libc::O_WRONLY as u32 || mode == libc::O_RDWR as u32
        })
}

/// The processes other than this one that hold one of these pipes open
/// for writing, in order.
pub(super) fn holders(inodes: &[u64]) -> Vec<u32> {
    if inodes.is_empty() {
        return Vec::new();
    }
    let me = std::process::id();
    let Ok(proc) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut pids: Vec<u32> = proc
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me && holds(pid, inodes))
        .collect();
    pids.sort_unstable();
    pids
}

/// Whether `pid` is in process group `group`.
pub(super) fn in_group(pid: u32, group: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: getpgid only reads the process table.
    let pgid = unsafe { libc::getpgid(pid) };
    pgid >= 0 && pgid as u32 == group
}

/// Sends `signal` to `pid` if it still holds one of these pipes; returns
/// whether it was sent.
pub(super) fn signal_holder(pid: u32, inodes: &[u64], signal: libc::c_int) -> bool {
    let Ok(raw) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: pidfd_open takes a pid and flags and returns a descriptor
    // we own (closed below), or -1.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, raw, 0) };
    if pidfd < 0 {
        // No pidfds (an old kernel): plain kill, checked just before.
        // SAFETY: kill with a positive pid signals that one process.
        return holds(pid, inodes) && unsafe { libc::kill(raw, signal) } == 0;
    }
    // The pidfd pins the process: checked now, it is the one signalled.
    let sent = holds(pid, inodes) && {
        // SAFETY: a pidfd we opened, a signal, no siginfo, no flags.
        let sent = unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                pidfd,
                signal,
                std::ptr::null::<libc::siginfo_t>(),
                0,
            )
        };
        sent == 0
    };
    // SAFETY: closes the descriptor pidfd_open gave us.
    unsafe { libc::close(pidfd as libc::c_int) };
    sent
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    #[test]
    fn the_writer_of_a_pipe_is_found_and_its_reader_is_not() {
        let mut child = Command::new("sleep")
            .arg("30")
            .stdout(Stdio::piped())
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let inode = pipe_inode(&stdout).expect("a pipe");
        // We hold the read end, the child the write end.
        assert_eq!(holders(&[inode]), [child.id()]);
        assert!(holders(&[]).is_empty());
        assert_eq!(pipe_inode(&std::fs::File::open("/dev/null").unwrap()), None);
        assert!(signal_holder(child.id(), &[inode], libc::SIGTERM));
        child.wait().unwrap();
        assert!(holders(&[inode]).is_empty());
        // Gone: nothing is signalled.
        assert!(!signal_holder(child.id(), &[inode], libc::SIGTERM));
    }

    #[test]
    fn a_file_tells_its_first_three_leaks_and_counts_the_rest() {
        let leak = |pid| Leak {
            pids: vec![pid],
            killed: false,
            grace: Duration::from_secs(2),
        };
        assert!(leak_warnings(&[]).is_empty());
        let three: Vec<Leak> = (1..=3).map(leak).collect();
        assert_eq!(leak_warnings(&three).len(), 3);
        let five: Vec<Leak> = (1..=5).map(leak).collect();
        let warnings = leak_warnings(&five);
        assert_eq!(warnings.len(), 4);
        assert_eq!(warnings[2], leak(3).to_string());
        assert_eq!(
            warnings[3],
            "2 more runs of the oracle on this file left processes holding its output; \
             all were stopped"
        );
    }

    #[test]
    fn a_leak_reads_as_a_warning() {
        let leak = Leak {
            pids: vec![41, 42],
            killed: false,
            grace: Duration::from_secs(1),
        };
        assert_eq!(
            leak.to_string(),
            "the oracle exited, but 2 processes it started kept its output open (pids 41, 42); \
             stopped with SIGTERM 1 s after the exit (--kill-grace)"
        );
        let leak = Leak {
            pids: vec![7],
            killed: true,
            grace: Duration::from_millis(500),
        };
        assert_eq!(
            leak.to_string(),
            "the oracle exited, but 1 process it started kept its output open (pid 7); \
             stopped with SIGTERM 0.5 s after the exit (--kill-grace), then SIGKILL"
        );
    }
}
