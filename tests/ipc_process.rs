//! The process modes' own behaviour, without node: `ipc-parent` against
//! our `ipc-child` and against children that misbehave, and `ipc-child`
//! driven over a socket pair made here.

use crate::ipc_support;
use crate::support;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use ipc_support::{is_running, run_bounded, Ran};
use support::oracle_binary;
use worker_spawn_oracle::ipc::channel::ChildChannel;

/// What the reference prints for every pairing (its own parent and child:
/// `node worker-spawn-oracle.mjs ipc-parent worker-spawn-oracle.mjs
/// ipc-child t`); the matrix test checks it against the reference itself.
const CHOREOGRAPHY: &str = concat!(
    r#"{"frames":[{"type":"codex-response","id":1,"result":{"id":7,"result":{"items":["a","b"]}}},"#,
    r#"{"type":"codex-response","id":2,"error":{"message":"scripted boom"}},"#,
    r#"{"type":"codex-notification","notification":{"method":"thread/event","params":{"kind":"delta","n":1}}},"#,
    r#"{"type":"codex-server-request","id":1,"request":{"id":21,"method":"applyPatchApproval","params":{"call":"c-cross"}}}],"#,
    r#""parentEvents":[{"t":"requestResolved","response":{"id":7,"result":{"items":["a","b"]}}},"#,
    r#"{"t":"requestRejected","message":"scripted boom"},"#,
    r#"{"t":"notification","notification":{"method":"thread/event","params":{"kind":"delta","n":1}}},"#,
    r#"{"t":"serverRequest","request":{"id":21,"method":"applyPatchApproval","params":{"call":"c-cross"}}}],"#,
    r#""childTrace":[{"t":"codexRequest","method":"thread/read","params":{"threadId":"t-cross"}},"#,
    r#"{"t":"codexRequest","method":"boom/method","params":null},"#,
    r#"{"t":"codexNotify","method":"turn/interrupt","params":{"reason":"cross-impl"}},"#,
    r#"{"t":"serverRequestResolved","value":{"decision":"approved"}}]}"#,
);

const LIMIT: Duration = Duration::from_secs(20);
const CHILD_READY: &str = r#"printf '{"cue":"child_ready"}\n' >&3"#;

fn parent(timeout: &str, child: &[&str]) -> Ran {
    run_bounded(
        Command::new(oracle_binary())
            .args(["ipc-parent", "--timeout", timeout])
            .args(child),
        LIMIT,
    )
}

/// `ipc-parent` with a shell script as the child.
fn parent_of_script(timeout: &str, script: &str) -> Ran {
    parent(timeout, &["sh", "-c", script])
}

/// A failure: exit 1, nothing on stdout, and on stderr (after what the
/// child itself wrote there) one line holding `needle`.
fn assert_fails_after_child_output(ran: &Ran, needle: &str) {
    assert_eq!(ran.code(), Some(1), "{}", ran.describe());
    assert!(ran.stdout.is_empty(), "{}", ran.describe());
    let stderr = ran.stderr_text();
    let ours: Vec<&str> = stderr
        .lines()
        .filter(|line| line.starts_with("worker-spawn oracle: ipc-parent: "))
        .collect();
    assert_eq!(ours.len(), 1, "{}", ran.describe());
    assert!(
        stderr.lines().last() == Some(ours[0]) && ours[0].contains(needle),
        "wanted {needle:?}\n{}",
        ran.describe()
    );
}

/// A failure: exit 1, nothing on stdout, and one line on stderr, holding
/// `needle`.
fn assert_fails_with(ran: &Ran, needle: &str) {
    assert_fails_after_child_output(ran, needle);
    assert_eq!(ran.stderr_text().lines().count(), 1, "{}", ran.describe());
}

#[test]
fn rust_parent_and_rust_child_print_the_reference_bytes() {
    let binary = oracle_binary().display().to_string();
    let ran = parent("10", &[&binary, "ipc-child", "t-1"]);
    assert_eq!(ran.code(), Some(0), "{}", ran.describe());
    assert!(ran.stderr.is_empty(), "{}", ran.describe());
    assert_eq!(ran.stdout_text(), CHOREOGRAPHY);
}

#[test]
fn child_flags_are_the_childs() {
    // `--timeout` after the child command belongs to the child: here an
    // ipc-child that refuses an unknown flag, so the parent sees it die.
    let binary = oracle_binary().display().to_string();
    let ran = parent("10", &[&binary, "ipc-child", "--timeout", "1"]);
    assert_fails_after_child_output(&ran, "(exit status: 2) before child_ready");
    assert!(ran
        .stderr_text()
        .contains("unexpected argument '--timeout'"));
    let ran = parent("10", &["sh", "-c", "exit 7", "--timeout"]);
    assert_fails_with(&ran, "(exit status: 7) before child_ready");
}

#[test]
fn a_child_that_does_not_exist() {
    let ran = parent("10", &["/nonexistent/worker-spawn-child", "ipc-child"]);
    assert_fails_with(
        &ran,
        "cannot start the child \"/nonexistent/worker-spawn-child\"",
    );
    assert!(ran.elapsed < Duration::from_secs(5), "{}", ran.describe());
}

#[test]
fn a_child_that_exits_at_once() {
    assert_fails_with(
        &parent("10", &["true"]),
        "the child ended (exit status: 0) before child_ready",
    );
    let ran = parent_of_script("10", "exit 3");
    assert_fails_with(&ran, "the child ended (exit status: 3) before child_ready");
    assert!(ran.elapsed < Duration::from_secs(5), "{}", ran.describe());
}

#[test]
fn a_child_that_never_sends_child_ready_is_killed_at_the_timeout() {
    let ran = parent("1", &["sleep", "30"]);
    assert_fails_with(&ran, "timed out after 1s waiting for child_ready");
    assert!(ran.elapsed >= Duration::from_secs(1), "{}", ran.describe());
    assert!(ran.elapsed < Duration::from_secs(5), "{}", ran.describe());
}

#[test]
fn the_timeout_kills_what_the_child_started_too() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let script = format!(
        "sleep 30 & echo $! > '{0}'; echo $$ >> '{0}'; wait",
        pids.display()
    );
    let ran = parent_of_script("0.5", &script);
    assert_fails_with(&ran, "timed out after 0.5s waiting for child_ready");
    let pids = std::fs::read_to_string(&pids).unwrap();
    let pids: Vec<libc::pid_t> = pids.lines().map(|pid| pid.parse().unwrap()).collect();
    assert_eq!(pids.len(), 2);
    for pid in pids {
        assert!(!is_running(pid), "process {pid} was left running");
    }
}

#[test]
fn a_child_that_stops_answering() {
    let ran = parent_of_script("1", &format!("{CHILD_READY}; sleep 30"));
    assert_fails_with(
        &ran,
        "timed out after 1s waiting for the thread/read response",
    );
}

#[test]
fn a_child_that_closes_its_channel_and_lingers() {
    let ran = parent_of_script("10", &format!("{CHILD_READY}; exec 3>&-; sleep 30"));
    assert_fails_with(
        &ran,
        "the child's IPC channel closed before the thread/read response; the child was killed",
    );
    assert!(ran.elapsed < Duration::from_secs(5), "{}", ran.describe());
}

#[test]
fn a_child_that_exits_mid_choreography() {
    let ran = parent_of_script("10", &format!("{CHILD_READY}; exit 4"));
    assert_fails_with(
        &ran,
        "the child ended (exit status: 4) before the thread/read response",
    );
}

#[test]
fn the_parent_skips_malformed_lines_and_node_internal_messages() {
    // Frames the parent records, then the answers of a child that is
    // not there: the parent waits for the thread/read response in vain.
    let script = concat!(
        r#"printf 'not json\n\n{"cmd":"NODE_HANDLE","cue":"child_ready"}\n' >&3; "#,
        r#"printf '{"cue":"child_ready"}\n' >&3; sleep 30"#
    );
    let ran = parent_of_script("1", script);
    assert_eq!(ran.code(), Some(1), "{}", ran.describe());
    let stderr = ran.stderr_text();
    assert_eq!(
        stderr.matches("skipped a malformed IPC line").count(),
        2,
        "{stderr}"
    );
    // child_ready came after the internal message, so the parent got on.
    assert!(
        stderr.contains("waiting for the thread/read response"),
        "{stderr}"
    );
}

#[test]
fn bad_parent_arguments_are_refused() {
    for args in [
        &["ipc-parent"][..],
        &["ipc-parent", "--timeout", "0", "true"],
    ] {
        let ran = run_bounded(Command::new(oracle_binary()).args(args), LIMIT);
        assert_eq!(ran.code(), Some(2), "{args:?}: {}", ran.describe());
        assert!(ran.stdout.is_empty());
    }
}

/// Our `ipc-child`, spawned with a channel made here.
struct DrivenChild {
    child: Child,
    lines: BufReader<UnixStream>,
    writer: UnixStream,
}

impl DrivenChild {
    fn start(configure: impl FnOnce(&mut Command)) -> DrivenChild {
        let (child_end, ours) = ChildChannel::new().unwrap();
        let mut command = Command::new(oracle_binary());
        command
            .args(["ipc-child", "t-driven"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        child_end.configure(&mut command);
        configure(&mut command);
        let child = command.spawn().unwrap();
        drop(child_end);
        ours.set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        DrivenChild {
            child,
            lines: BufReader::new(ours.try_clone().unwrap()),
            writer: ours,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
    }

    fn next_line(&mut self) -> String {
        let mut line = String::new();
        self.lines
            .read_line(&mut line)
            .expect("a line within the read timeout");
        line
    }

    /// Waits (bounded) for the child's end; its status and stderr.
    fn finish(mut self) -> (Option<i32>, String) {
        drop(self.writer);
        drop(self.lines);
        let mut status = None;
        for _ in 0..1000 {
            if let Some(exited) = self.child.try_wait().unwrap() {
                status = exited.code();
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        if status.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        let mut stderr = String::new();
        let _ = std::io::Read::read_to_string(&mut self.child.stderr.take().unwrap(), &mut stderr);
        (status, stderr)
    }
}

#[test]
fn ipc_child_tolerates_malformed_lines_and_node_internal_messages() {
    let mut child = DrivenChild::start(|_| {});
    assert_eq!(child.next_line(), "{\"cue\":\"child_ready\"}\n");
    child.send(b"{not json\n\n\xff\xfe\n");
    child.send(b"{\"cmd\":\"NODE_HANDLE\",\"cue\":\"report\",\"type\":\"codex-notify\",\"method\":\"x\"}\n");
    // A frame split across writes is put back together.
    child.send(b"{\"type\":\"codex-request\",\"id\":3,");
    child.send(b"\"method\":\"thread/read\"}\n{\"cmd\":\"NODE_\",\"cue\":\"report\"}\n");
    assert_eq!(
        child.next_line(),
        "{\"type\":\"codex-response\",\"id\":3,\"result\":{\"id\":7,\"result\":{\"items\":[\"a\",\"b\"]}}}\n"
    );
    // Only the second report is heard, and the internal message's frame
    // never reached the worker.
    assert_eq!(
        child.next_line(),
        "{\"cue\":\"trace\",\"trace\":[{\"t\":\"codexRequest\",\"method\":\"thread/read\",\"params\":null}]}\n"
    );
    child.send(b"{\"cue\":\"exit\"}\n");
    let (status, stderr) = child.finish();
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(
        stderr.matches("skipped a malformed IPC line").count(),
        3,
        "{stderr}"
    );
}

#[test]
fn ipc_child_ends_when_the_parent_goes() {
    let mut child = DrivenChild::start(|_| {});
    assert_eq!(child.next_line(), "{\"cue\":\"child_ready\"}\n");
    child.send(b"{\"cue\":\"emit_server_request\",\"request\":{\"id\":1}}\n");
    assert_eq!(
        child.next_line(),
        "{\"type\":\"codex-server-request\",\"id\":1,\"request\":{\"id\":1}}\n"
    );
    let (status, stderr) = child.finish();
    assert_eq!(status, Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn ipc_child_refuses_advanced_serialization() {
    let child = DrivenChild::start(|command| {
        command.env("NODE_CHANNEL_SERIALIZATION_MODE", "advanced");
    });
    let (status, stderr) = child.finish();
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("NODE_CHANNEL_SERIALIZATION_MODE=advanced is not supported"),
        "{stderr}"
    );
}

#[test]
fn ipc_child_without_a_channel() {
    let cases: [(&[(&str, &str)], &str); 4] = [
        (&[], "NODE_CHANNEL_FD is not set"),
        (
            &[("NODE_CHANNEL_FD", "three")],
            "not a file descriptor number: \"three\"",
        ),
        (
            &[("NODE_CHANNEL_FD", "917")],
            "NODE_CHANNEL_FD=917 is not a usable IPC socket",
        ),
        (
            &[("NODE_CHANNEL_FD", "0")],
            "NODE_CHANNEL_FD=0 is not a usable IPC socket: not a socket",
        ),
    ];
    for (env, needle) in cases {
        let mut command = Command::new(oracle_binary());
        command
            .args(["ipc-child", "t"])
            .env_remove("NODE_CHANNEL_FD")
            .env_remove("NODE_CHANNEL_SERIALIZATION_MODE")
            .envs(env.iter().copied());
        let ran = run_bounded(&mut command, LIMIT);
        assert_eq!(ran.code(), Some(2), "{env:?}: {}", ran.describe());
        assert!(ran.stdout.is_empty());
        assert!(
            ran.stderr_text().contains(needle),
            "{env:?}: {}",
            ran.describe()
        );
    }
    let ran = run_bounded(Command::new(oracle_binary()).arg("ipc-child"), LIMIT);
    assert_eq!(
        ran.code(),
        Some(2),
        "a thread id is required: {}",
        ran.describe()
    );
}
