//! A port that double-forks a daemon holding its stdout, then prints a
//! complete array and exits (issue 18, defect 9): it is judged on what it
//! printed, the daemon is found, stopped and reported as a warning with
//! its pid (in the report and on stderr), never as a timeout, and the
//! run ends about `--kill-grace` after the port did.
//! `scripts/probe.sh` runs the heavy version.

use crate::support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::report::Report;
use support::{golden_of, Corpus};

/// `cat` behind a port that first leaves a daemon (`setsid`, or a job of
/// its own under `set -m`) sleeping with the port's stdout.
fn port() -> String {
    "if command -v setsid >/dev/null 2>&1; then ( setsid sleep 3131 & ); \
     else ( set -m; sleep 3131 & ); fi; exec cat"
        .to_owned()
}

fn corpus() -> Corpus {
    let corpus = Corpus::new();
    let case = r#"{"op":"x","v":5000}"#;
    corpus
        .case("a.json", &format!("[{case}]"))
        .golden("a.json", &golden_of(&[case]));
    corpus
}

/// The pids a warning names: `(pid 12)` or `(pids 12, 13)`.
fn pids(text: &str) -> Vec<u32> {
    let after = text
        .split_once("(pid ")
        .or_else(|| text.split_once("(pids "))
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("no pids in {text}"));
    let list = after.split_once(')').unwrap().0;
    list.split(", ").map(|pid| pid.parse().unwrap()).collect()
}

/// Whether a process still runs (a zombie waiting for its reaper does
/// not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z'))
    })
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

#[test]
fn a_daemon_holding_stdout_is_a_warning_not_a_timeout() {
    let corpus = corpus();
    let port = port();
    let args = [
        "run",
        "--oracle",
        &port,
        "--timeout",
        "2",
        "--kill-grace",
        "1",
    ];
    let started = Instant::now();
    let ran = corpus.run(&args);
    let took = started.elapsed();
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(ran.last_line(), "1 passed, 0 failed");
    let warning = ran
        .stdout
        .lines()
        .find(|line| line.starts_with("WARNING a.json: "))
        .unwrap_or_else(|| panic!("no warning: {}", ran.stdout));
    assert!(
        warning.contains("the oracle exited, but 1 process it started kept its output open (pid ")
            && warning.ends_with("); stopped with SIGTERM 1 s after the exit (--kill-grace)"),
        "{warning}"
    );
    assert!(ran.stderr.contains(&format!(
        "parity-diff: warning: a.json: {}\n",
        warning.trim_start_matches("WARNING a.json: ")
    )));
    assert!(!ran.stdout.contains("did not finish") && !ran.stderr.contains("did not finish"));
    // About the grace after the port's exit: the old behaviour took 10 s.
    assert!(took < Duration::from_secs(6), "{took:?}");
    for pid in pids(warning) {
        assert!(gone(pid), "the daemon (pid {pid}) outlived the run");
    }

    // JSON: a file-level warning; the verdicts are the port's.
    let json = ["--format", "json"];
    let ran = corpus.run(&[&args[..], &json[..]].concat());
    assert_eq!(ran.code, 0, "{ran:?}");
    let report = Report::read(&ran.stdout);
    let file = &report.files[0].head;
    assert_eq!(file.tally.passed, 1);
    let warnings = &file.warnings;
    assert_eq!(warnings.len(), 1);
    for pid in pids(&warnings[0]) {
        assert!(gone(pid), "the daemon (pid {pid}) outlived the run");
    }
}

#[test]
fn bless_warns_of_the_daemon_and_writes_the_golden() {
    let corpus = corpus();
    std::fs::remove_file(corpus.join("golden/a.json")).unwrap();
    let port = port();
    let ran = corpus.run(&[
        "bless",
        "--reference",
        &port,
        "--timeout",
        "2",
        "--kill-grace",
        "1",
    ]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert_eq!(
        ran.last_line(),
        "1 added, 0 changed, 0 unchanged, 0 orphaned"
    );
    let warning = ran
        .stderr
        .lines()
        .find(|line| line.starts_with("parity-diff: warning: a.json: the oracle exited, but "))
        .unwrap_or_else(|| panic!("no warning: {}", ran.stderr));
    for pid in pids(warning) {
        assert!(gone(pid), "the daemon (pid {pid}) outlived the run");
    }
    assert_eq!(
        corpus.read("golden/a.json"),
        golden_of(&[r#"{"op":"x","v":5000}"#])
    );
}

#[test]
fn a_signal_to_parity_diff_stops_the_daemon_of_a_hanging_port_too() {
    let corpus = corpus();
    // The daemon ignores SIGTERM and writes down its pid; the port itself
    // then hangs. parity-diff ends a grace after the signal, before the
    // port's own stop would reach the daemon.
    let daemon = "trap \"\" TERM; echo $$ > daemon.pid; exec sleep 3132";
    let port = format!(
        "if command -v setsid >/dev/null 2>&1; then ( setsid sh -c '{daemon}' & ); \
         else ( set -m; sh -c '{daemon}' & ); fi; sleep 30"
    );
    let child = Command::new(env!("CARGO_BIN_EXE_parity-diff"))
        .args(["run", "--oracle", &port, "--kill-grace", "1"])
        .current_dir(corpus.path())
        .env_remove("CI")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid_file = corpus.join("daemon.pid");
    let started = Instant::now();
    let daemon: u32 = loop {
        let text = std::fs::read_to_string(&pid_file).unwrap_or_default();
        if text.ends_with('\n') {
            break text.trim().parse().unwrap();
        }
        assert!(started.elapsed() < Duration::from_secs(20), "no daemon");
        std::thread::sleep(Duration::from_millis(20));
    };
    let parity_diff = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: signals the child we started.
    assert_eq!(unsafe { libc::kill(parity_diff, libc::SIGTERM) }, 0);
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(143), "{output:?}");
    if !gone(daemon) {
        // SAFETY: the daemon this test made (its pid, written by itself).
        unsafe { libc::kill(daemon as libc::pid_t, libc::SIGKILL) };
        panic!("the daemon (pid {daemon}) outlived parity-diff");
    }
}
