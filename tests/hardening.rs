//! Containment and faults: scratch directories reached through a
//! symlinked TMPDIR, escaping `mkdirs`, and signals mid-batch.

use crate::support;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn scratch_dirs(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("linzumi-worker-spawn-oracle-"))
        .collect()
}

fn run_with_tmpdir(tmpdir: &Path, input: &[u8]) -> std::process::Output {
    support::run_with_stdin(
        Command::new(support::oracle_binary()).env("TMPDIR", tmpdir),
        input,
    )
}

#[test]
fn a_symlinked_tmpdir_resolves_to_the_real_path_and_is_left_clean() {
    let root = tempfile::tempdir().unwrap();
    let real = root.path().join("real");
    std::fs::create_dir(&real).unwrap();
    let link = root.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let input = br#"[
        {"op":"preflight","mkdirs":["a/b"],"cwd":"$DIR/a/b","allowedCwds":["$DIR/a"]},
        {"op":"preflight","mkdirs":["a"],"cwd":"$DIR/missing"},
        {"op":"parseWorkerArgs","mkdirs":["w"],"args":["thread-codex-worker","--kandan-url","u","--token","t","--runner-id","r","--thread-id","i","--cwd","$DIR/w","--allowed-cwd","$DIR/w","--allowed-cwd","$DIR/none"]},
        {"op":"preflight","mkdirs":["../escape"],"cwd":"$DIR"},
        {"op":"preflight","mkdirs":["/abs"],"cwd":"$DIR"}
    ]"#;
    let output = run_with_tmpdir(&link, input);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = support::elements(&output.stdout);
    let text = |at: usize| String::from_utf8_lossy(&results[at]).into_owned();
    assert_eq!(text(0), r#"{"defined":false}"#);
    assert_eq!(
        text(1),
        r#"{"defined":true,"value":"worker cwd does not exist: $DIR/missing"}"#
    );
    assert!(
        text(2).contains(r#""cwd":"$DIR/w","codexBin":"codex""#),
        "{}",
        text(2)
    );
    assert!(
        text(2).contains(r#""allowedCwds":["$DIR/w"],"missingAllowedCwds":["$DIR/none"]"#),
        "{}",
        text(2)
    );
    assert_eq!(
        text(3),
        r#"{"threw":true,"message":"mkdirs entry escapes the scratch directory: ../escape"}"#
    );
    assert_eq!(
        text(4),
        r#"{"threw":true,"message":"mkdirs entry escapes the scratch directory: /abs"}"#
    );
    let mut left: Vec<String> = std::fs::read_dir(root.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(
        left,
        ["link", "real"],
        "nothing was made beside the scratch directories"
    );
    assert!(scratch_dirs(&real).is_empty(), "{:?}", scratch_dirs(&real));
}

#[test]
fn names_too_long_are_refused_without_leaving_anything() {
    let tmp = tempfile::tempdir().unwrap();
    let long = "n".repeat(300);
    let deep = vec!["d"; 3000].join("/");
    let input = format!(
        r#"[{{"op":"preflight","mkdirs":["{long}"],"cwd":"$DIR"}},{{"op":"preflight","mkdirs":["ok","{deep}"],"cwd":"$DIR/ok"}},{{"op":"preflight","mkdirs":["ok"],"cwd":"$DIR/ok"}}]"#
    );
    let output = run_with_tmpdir(tmp.path(), input.as_bytes());
    let results = support::elements(&output.stdout);
    assert_eq!(
        String::from_utf8_lossy(&results[0]),
        format!(r#"{{"threw":true,"message":"mkdirs entry could not be created: {long}"}}"#)
    );
    assert_eq!(
        String::from_utf8_lossy(&results[1]),
        format!(r#"{{"threw":true,"message":"mkdirs entry could not be created: {deep}"}}"#)
    );
    assert_eq!(String::from_utf8_lossy(&results[2]), r#"{"defined":false}"#);
    assert!(scratch_dirs(tmp.path()).is_empty());
}

/// Starts a batch whose first case makes a scratch directory and whose
/// input then stalls; signals the process once the directory exists.
fn interrupt_mid_batch(signal: libc::c_int) -> (std::process::Output, Vec<String>, usize) {
    let tmp = tempfile::tempdir().unwrap();
    let mut child = Command::new(support::oracle_binary())
        .env("TMPDIR", tmp.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(br#"[{"op":"preflight","mkdirs":["a/b"],"cwd":"$DIR/a/b"},"#)
        .unwrap();
    stdin.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = 0;
    while Instant::now() < deadline {
        seen = scratch_dirs(tmp.path()).len();
        if seen > 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: kill(2) on the pid of our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, signal);
    }
    let output = child.wait_with_output().unwrap();
    drop(stdin);
    (output, scratch_dirs(tmp.path()), seen)
}

#[test]
fn sigterm_mid_batch_removes_the_scratch_directories() {
    let (output, left, seen) = interrupt_mid_batch(libc::SIGTERM);
    assert_eq!(
        seen, 1,
        "the first case made its scratch directory before the signal"
    );
    assert_eq!(output.status.code(), Some(128 + libc::SIGTERM));
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr)
        .contains("interrupted by SIGTERM; scratch directories removed"));
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn sigint_mid_batch_removes_the_scratch_directories() {
    let (output, left, seen) = interrupt_mid_batch(libc::SIGINT);
    assert_eq!(seen, 1);
    assert_eq!(output.status.code(), Some(128 + libc::SIGINT));
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn secrets_in_a_refused_batch_never_reach_stderr() {
    for input in [
        &br#"[{"op":"cliArgs","options":{"token":"sk-live-SECRET42"}} garbage"#[..],
        br#"[{"op":"envOverlay","forwardableOpenAiApiKey":"sk-live-SECRET42""#,
        br#"{"LINZUMI_RUNNER_TOKEN":"sk-live-SECRET42"}"#,
    ] {
        let output = support::run_oracle(input);
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !stderr.contains("SECRET42") && !stderr.contains("sk-live"),
            "{stderr}"
        );
    }
}
