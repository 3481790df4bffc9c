//! The oracle's runs: commands, their failures, limits and sizes, and
//! finding one beside our own executable.

use super::command::STDERR_KEPT;
use super::*;
use std::time::{Duration, Instant};

fn options(timeout_ms: u64) -> OracleOptions {
    OracleOptions::new(Duration::from_millis(timeout_ms), FUZZ_MAX_OUTPUT)
}

fn run(command: &str, timeout_ms: u64) -> Result<Vec<u8>, OracleFailure> {
    Oracle::command(command).run(b"[1,2]", options(timeout_ms))
}

#[test]
fn a_command_reads_stdin_and_prints_an_array() {
    assert_eq!(run("cat", 10_000).unwrap(), b"[1,2]");
}

#[test]
fn failures_keep_stderr() {
    let failure = run("echo oops >&2; exit 3", 10_000).unwrap_err();
    assert_eq!(failure.message, "the oracle exited with status 3");
    assert_eq!(failure.kind, FailureKind::Crash);
    assert_eq!(failure.stderr.as_deref(), Some("oops\n"));
    let failure = run("kill -9 $$", 10_000).unwrap_err();
    assert_eq!(failure.message, "the oracle was killed by signal 9");
    assert_eq!(failure.kind, FailureKind::Crash);
    // A non-zero exit is a crash even when stdout holds an array.
    assert_eq!(
        run("echo '[1,2]'; exit 1", 10_000).unwrap_err().kind,
        FailureKind::Crash
    );
}

#[test]
fn output_must_be_one_array() {
    assert_eq!(
        run("true", 10_000).unwrap_err(),
        OracleFailure {
            kind: FailureKind::InvalidOutput,
            message: "the oracle printed nothing on stdout".into(),
            stderr: Some(String::new()),
            stdout: None,
        }
    );
    // What stands in place of the array is quoted, for the file's report.
    let failure = run("echo 'debug: ready'; echo '[1]'", 10_000).unwrap_err();
    assert_eq!(
        failure.message,
        "the oracle printed no JSON array: not a JSON array"
    );
    assert_eq!(
        failure.stdout.as_deref(),
        Some("(17 bytes) begins \"debug: ready\\n[1]\\n\"")
    );
    // Elements that can be told apart reach the caller, who judges
    // each one (see `results`).
    assert_eq!(
        run("echo '[1,Infinity]'", 10_000).unwrap(),
        b"[1,Infinity]\n"
    );
    let failure = run("echo '[1,Infinity'", 10_000).unwrap_err();
    assert_eq!(failure.kind, FailureKind::InvalidOutput);
    assert!(
        failure
            .message
            .starts_with("the oracle printed an incomplete or malformed array"),
        "{}",
        failure.message
    );
    assert!(run("printf '[1,'", 10_000)
        .unwrap_err()
        .message
        .starts_with("the oracle printed an incomplete or malformed array"));
    assert!(run("echo '{}'", 10_000)
        .unwrap_err()
        .message
        .starts_with("the oracle printed no JSON array"));
}

#[test]
fn hanging_commands_are_killed_with_their_children() {
    let started = Instant::now();
    let failure = run("sleep 30 & sleep 30; echo []", 300).unwrap_err();
    assert!(
        failure.message.contains("did not finish within 0.3 s"),
        "{}",
        failure.message
    );
    assert_eq!(failure.kind, FailureKind::Timeout);
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn long_stderr_keeps_its_end() {
    let failure = run("yes e | head -c 100000 >&2; echo end >&2; exit 1", 10_000).unwrap_err();
    let stderr = failure.stderr.unwrap();
    assert_eq!(stderr.len(), STDERR_KEPT);
    assert!(stderr.ends_with("e\nend\n"));
}

#[test]
fn failure_kinds_have_their_report_names() {
    assert_eq!(FailureKind::InvalidOutput.to_string(), "invalid-output");
    assert_eq!(FailureKind::Crash.as_str(), "crash");
    assert_eq!(FailureKind::Timeout.as_str(), "timeout");
}

#[test]
fn a_stop_sends_sigterm_first_and_sigkill_after_the_grace() {
    let limits = |grace_ms| OracleOptions {
        kill_grace: Duration::from_millis(grace_ms),
        ..options(200)
    };
    // The trap runs: the oracle's own cleanup gets its chance. The sleep
    // starts before the trap is set: a shell forked for it with the trap
    // still in place (between its fork and its exec) would run the trap
    // too, and print it twice. The trap ignores a second SIGTERM, as a
    // cleanup should: it still printed twice once, under load.
    let trapping = "sleep 30 & trap 'trap \"\" TERM; echo cleaned up >&2; exit 7' TERM; wait";
    let failure = Oracle::command(trapping)
        .run(b"[]", limits(10_000))
        .unwrap_err();
    assert_eq!(failure.kind, FailureKind::Timeout);
    assert_eq!(failure.stderr.as_deref(), Some("cleaned up\n"));
    // One that ignores SIGTERM (its sleep too) is killed after the grace.
    let started = Instant::now();
    let failure = Oracle::command("trap '' TERM; sleep 30")
        .run(b"[]", limits(300))
        .unwrap_err();
    let took = started.elapsed();
    assert_eq!(failure.kind, FailureKind::Timeout);
    assert!(
        took >= Duration::from_millis(500) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

#[test]
fn output_past_the_cap_stops_the_oracle() {
    let capped = OracleOptions {
        max_output: 1 << 20,
        ..options(60_000)
    };
    let started = Instant::now();
    let failure = Oracle::command("echo starting >&2; cat /dev/zero")
        .run(b"[]", capped)
        .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(failure.kind, FailureKind::InvalidOutput);
    assert_eq!(
        failure.message,
        "the oracle printed more than 1 MiB on stdout and was stopped (--max-output sets the limit)"
    );
    assert_eq!(failure.stderr.as_deref(), Some("starting\n"));
    // Exactly the cap is allowed.
    let exact = OracleOptions {
        max_output: 7,
        ..options(60_000)
    };
    assert_eq!(
        Oracle::command("cat >/dev/null; printf '[1, 2]\\n'")
            .run(b"[]", exact)
            .unwrap(),
        b"[1, 2]\n"
    );
    let failure = Oracle::command("cat >/dev/null; printf '[1, 22]\\n'")
        .run(b"[]", exact)
        .unwrap_err();
    assert!(
        failure.message.contains("more than 7 bytes"),
        "{}",
        failure.message
    );
}

#[test]
fn the_corpus_cap_is_16_times_its_largest_file_and_at_least_64_mib() {
    let dir = tempfile::tempdir().unwrap();
    let (cases, golden) = (dir.path().join("cases"), dir.path().join("golden"));
    std::fs::create_dir_all(cases.join("sub")).unwrap();
    std::fs::create_dir_all(&golden).unwrap();
    assert_eq!(corpus_max_output(&[&cases, &golden]), 64 << 20);
    assert_eq!(corpus_max_output(&[&dir.path().join("missing")]), 64 << 20);
    let big = std::fs::File::create(cases.join("sub/big.json")).unwrap();
    big.set_len(5 << 20).unwrap();
    std::fs::write(golden.join("a.json"), "[]").unwrap();
    assert_eq!(corpus_max_output(&[&cases, &golden]), 80 << 20);
    let bigger = std::fs::File::create(golden.join("b.json")).unwrap();
    bigger.set_len(6 << 20).unwrap();
    assert_eq!(corpus_max_output(&[&cases, &golden]), 96 << 20);
}

#[test]
fn shell_words_are_quoted_only_when_sh_would_read_them_otherwise() {
    assert_eq!(
        shell_word("/a/target/release/x-y_z.1"),
        "/a/target/release/x-y_z.1"
    );
    assert_eq!(shell_word("/a b/it's"), "'/a b/it'\\''s'");
    assert_eq!(shell_word(""), "''");
    for text in ["/a b/it's", "$HOME", "a;b", "*", "\\", "x\ny"] {
        let printed = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("printf %s {}", shell_word(text)))
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(printed.stdout).unwrap(), text);
    }
}
