//! The plumbing of `ipc-parent` around its child process: what to run,
//! the child's exit and the oracle's own signals as events. Its process
//! group is killed with [`sys_unix::kill_group`], which
//! `parity-diff` uses too.

use std::ffi::{OsStr, OsString};
use std::io;
use std::sync::mpsc::Sender;

use crate::ipc::channel::ChannelEvent;

/// A first argument with one of these endings runs under `node`.
const NODE_SCRIPT_SUFFIXES: [&str; 3] = [".mjs", ".js", ".cjs"];

/// One event for the driver, in the order it was noticed.
pub(super) enum Event {
    /// The channel's reader saw this.
    Channel(ChannelEvent),
    /// The child has exited (not yet reaped: its pid and process group
    /// stay ours until the session reaps it).
    Exited,
    /// The oracle got this signal.
    Signal(i32),
}

impl From<ChannelEvent> for Event {
    fn from(event: ChannelEvent) -> Self {
        Event::Channel(event)
    }
}

/// `node <script> …` for a script, else the command as given.
pub(super) fn program_and_args(command: &[OsString]) -> (&OsStr, &[OsString]) {
    match command.split_first() {
        Some((first, rest)) => {
            let bytes = first.as_encoded_bytes();
            if NODE_SCRIPT_SUFFIXES
                .iter()
                .any(|suffix| bytes.ends_with(suffix.as_bytes()))
            {
                (OsStr::new("node"), command)
            } else {
                (first.as_os_str(), rest)
            }
        }
        None => (OsStr::new(""), command),
    }
}

/// Reports the child's exit without reaping it (`waitid` with `WNOWAIT`),
/// so that its pid stays valid for [`sys_unix::kill_group`] until the session reaps it.
pub(super) fn watch_exit(pid: u32, events: Sender<Event>) -> io::Result<()> {
    let pid = libc::id_t::from(pid);
    std::thread::Builder::new()
        .name("ipc-child-exit".into())
        .spawn(move || loop {
            // SAFETY: waitid writes only the siginfo it is given.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            let waited =
                unsafe { libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT) };
            if waited == 0 {
                let _ = events.send(Event::Exited);
                return;
            }
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return;
            }
        })
        .map(drop)
}

/// SIGINT, SIGTERM and SIGHUP become events, so that an interrupted run
/// still kills its child (which is in a process group of its own and does
/// not hear the terminal's signals).
pub(super) fn watch_signals(events: Sender<Event>) -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("ipc-parent-signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if events.send(Event::Signal(signal)).is_err() {
                    return;
                }
            }
        })
        .map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sys_unix::kill_group;

    fn os(parts: &[&str]) -> Vec<OsString> {
        parts.iter().map(OsString::from).collect()
    }

    #[test]
    fn scripts_run_under_node() {
        for script in ["a.mjs", "/x/b.js", "c.cjs"] {
            let command = os(&[script, "ipc-child", "t"]);
            let (program, args) = program_and_args(&command);
            assert_eq!(program, "node");
            assert_eq!(args, &command[..]);
        }
        let command = os(&["./oracle", "ipc-child", "t.js"]);
        let (program, args) = program_and_args(&command);
        assert_eq!(program, "./oracle");
        assert_eq!(args, &command[1..]);
        let command = os(&["mjs"]);
        assert_eq!(program_and_args(&command).0, "mjs");
    }

    #[test]
    fn killing_the_group_reaches_the_grandchildren() {
        use std::io::{BufRead, BufReader};
        use std::os::unix::process::{CommandExt, ExitStatusExt};
        use std::process::{Command, Stdio};

        let mut child = Command::new("sh")
            .args(["-c", "sleep 30 & echo $!; wait"])
            .stdout(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let grandchild: libc::pid_t = line.trim().parse().unwrap();
        // The grandchild is dead once it is a zombie, or gone when whoever
        // adopted it has reaped it.
        let dead = || match std::fs::read_to_string(format!("/proc/{grandchild}/stat")) {
            Ok(stat) => stat
                .rsplit_once(") ")
                .is_some_and(|(_, rest)| rest.starts_with('Z')),
            Err(_) => true,
        };
        assert!(!dead(), "the grandchild {grandchild} is running");
        kill_group(child.id());
        assert_eq!(child.wait().unwrap().signal(), Some(libc::SIGKILL));
        let gone = (0..500).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            dead()
        });
        assert!(gone, "the grandchild {grandchild} outlived its group");
    }
}
