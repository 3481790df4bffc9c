//! Running the process modes from tests without ever hanging the run:
//! every wait is bounded, and whatever a test starts is killed (its whole
//! process group) and reaped.
#![allow(dead_code)]

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a bounded run did.
#[derive(Debug)]
pub struct Ran {
    /// How it ended (`None`: it had to be killed at the limit).
    pub status: Option<ExitStatus>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
}

impl Ran {
    /// The exit code, when it exited on its own.
    pub fn code(&self) -> Option<i32> {
        self.status.and_then(|status| status.code())
    }

    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }

    /// A summary for assertion messages.
    pub fn describe(&self) -> String {
        format!(
            "status {:?} after {:?}\nstdout: {}\nstderr: {}",
            self.status,
            self.elapsed,
            self.stdout_text(),
            self.stderr_text()
        )
    }
}

/// Runs `command` (stdin from /dev/null, stdout and stderr captured) in a
/// process group of its own, for at most `limit`: past it, the group is
/// killed. Also gives up on output still held open by a stray grandchild
/// once the limit has passed.
pub fn run_bounded(command: &mut Command, limit: Duration) -> Ran {
    let started = Instant::now();
    let deadline = started + limit;
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("the command starts");
    let group = child.id() as libc::pid_t;
    let (sender, outputs) = mpsc::channel();
    let pipes: [Option<Box<dyn Read + Send>>; 2] = [
        child
            .stdout
            .take()
            .map(|pipe| Box::new(pipe) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|pipe| Box::new(pipe) as Box<dyn Read + Send>),
    ];
    for (index, pipe) in pipes.into_iter().enumerate() {
        let sender = sender.clone();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            let _ = sender.send((index, bytes));
        });
    }
    let mut in_time = false;
    while Instant::now() < deadline {
        match child.try_wait() {
            Ok(Some(_)) => {
                in_time = true;
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break,
        }
    }
    if !in_time {
        kill_group(group);
    }
    // After try_wait reaped it, wait answers the same status again.
    let waited = child.wait().ok();
    let status = if in_time { waited } else { None };
    let mut captured = [Vec::new(), Vec::new()];
    for _ in 0..2 {
        let left = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(500));
        match outputs.recv_timeout(left) {
            Ok((index, bytes)) => captured[index] = bytes,
            Err(_) => {
                kill_group(group);
                break;
            }
        }
    }
    let [stdout, stderr] = captured;
    Ran {
        status,
        stdout,
        stderr,
        elapsed: started.elapsed(),
    }
}

/// SIGKILL to a process group (nothing when it is gone).
pub fn kill_group(group: libc::pid_t) {
    // SAFETY: kill has no memory effects.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

/// Whether process `pid` still runs (a zombie waiting for init to reap it
/// does not count).
pub fn is_running(pid: libc::pid_t) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().next());
            !matches!(state, Some("Z") | Some("X") | None)
        }
        Err(_) => false,
    }
}
