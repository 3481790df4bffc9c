//! An oracle that exits but leaves processes holding its output: judged
//! on what it printed, its leftovers found, stopped and noted, and never
//! a timeout.

use std::time::{Duration, Instant};

use super::*;

/// A daemon outside the oracle's process group (and session) that holds
/// its stdout: `setsid` where there is one, else a job of its own under
/// `set -m`. `body` is what the daemon runs.
fn daemon(body: &str) -> String {
    format!(
        "if command -v setsid >/dev/null 2>&1; then ( setsid sh -c '{body}' & ); \
         else ( set -m; sh -c '{body}' & ); fi"
    )
}

/// Whether a process still runs (a zombie waiting for its reaper does
/// not).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z')),
        Err(_) => false,
    }
}

/// Whether a process is gone, or going: a process that was signalled
/// closes its descriptors (which ends the oracle's output) a moment
/// before it leaves the process table, so this waits a little.
fn gone(pid: u32) -> bool {
    let started = Instant::now();
    while alive(pid) {
        if started.elapsed() > Duration::from_secs(5) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

fn limits(timeout_ms: u64, grace_ms: u64) -> OracleOptions {
    OracleOptions {
        kill_grace: Duration::from_millis(grace_ms),
        ..OracleOptions::new(Duration::from_millis(timeout_ms), FUZZ_MAX_OUTPUT)
    }
}

#[test]
fn a_daemon_holding_stdout_is_stopped_and_the_output_judged() {
    let leaks = LeakLog::default();
    let command = format!("{}; cat", daemon("sleep 30"));
    let started = Instant::now();
    let ran = Oracle::command(command).run_noting(b"[1,2]", limits(2000, 300), &leaks);
    let took = started.elapsed();
    assert_eq!(ran.unwrap(), b"[1,2]");
    // The grace after the exit, not the timeout.
    assert!(took < Duration::from_millis(1500), "{took:?}");
    let [leak] = leaks.into_leaks().try_into().expect("one leak");
    assert!(!leak.pids.is_empty());
    assert!(!leak.killed, "SIGTERM was enough");
    assert_eq!(leak.grace, Duration::from_millis(300));
    for pid in &leak.pids {
        assert!(gone(*pid), "pid {pid} outlived the run");
    }
}

#[test]
fn a_daemon_that_ignores_sigterm_is_killed_after_the_grace() {
    let leaks = LeakLog::default();
    let command = format!("{}; cat", daemon("trap \"\" TERM; sleep 30"));
    let started = Instant::now();
    let ran = Oracle::command(command).run_noting(b"[3]", limits(5000, 200), &leaks);
    assert_eq!(ran.unwrap(), b"[3]");
    assert!(started.elapsed() < Duration::from_secs(3));
    let [leak] = leaks.into_leaks().try_into().expect("one leak");
    assert!(leak.killed);
    assert!(leak.to_string().ends_with(", then SIGKILL"), "{leak}");
    for pid in &leak.pids {
        assert!(gone(*pid), "pid {pid} outlived the run");
    }
}

#[test]
fn a_background_job_holding_stdout_is_a_leak_too_and_its_stderr_kept() {
    let leaks = LeakLog::default();
    let command = "echo starting >&2; sleep 30 & cat; exit 3";
    let ran = Oracle::command(command).run_noting(b"[]", limits(10_000, 200), &leaks);
    // Judged as it ended: a crash, with its stderr; no timeout.
    let failure = ran.unwrap_err();
    assert_eq!(failure.kind, FailureKind::Crash);
    assert_eq!(failure.message, "the oracle exited with status 3");
    assert_eq!(failure.stderr.as_deref(), Some("starting\n"));
    assert_eq!(leaks.into_leaks().len(), 1);
}

#[test]
fn an_oracle_that_hangs_and_leaves_a_daemon_is_a_timeout_and_a_leak() {
    let leaks = LeakLog::default();
    let command = format!("{}; sleep 30", daemon("sleep 30"));
    let started = Instant::now();
    let ran = Oracle::command(command).run_noting(b"[]", limits(300, 300), &leaks);
    assert_eq!(ran.unwrap_err().kind, FailureKind::Timeout);
    assert!(started.elapsed() < Duration::from_secs(3));
    let [leak] = leaks.into_leaks().try_into().expect("one leak");
    for pid in &leak.pids {
        assert!(gone(*pid), "pid {pid} outlived the run");
    }
}

#[test]
fn an_oracle_without_leftovers_notes_no_leak() {
    let leaks = LeakLog::default();
    let oracle = Oracle::command("cat");
    assert_eq!(
        oracle
            .run_noting(b"[1]", limits(5000, 100), &leaks)
            .unwrap(),
        b"[1]"
    );
    // A job that closes its output lives on unnoticed: it holds nothing.
    let quiet = "sleep 1 >/dev/null 2>&1 & cat";
    let started = Instant::now();
    let ran = Oracle::command(quiet).run_noting(b"[]", limits(5000, 100), &leaks);
    assert_eq!(ran.unwrap(), b"[]");
    assert!(started.elapsed() < Duration::from_millis(900));
    assert!(leaks.into_leaks().is_empty());
}
